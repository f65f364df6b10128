"""The session store: one SQLite file (WAL), append-only, that a `kill -9` cannot corrupt.

Everything a session is made of is appended, never edited: the physical events and the
declarations and overrides (one table, in the order the engine folded them), the rulings each
caused (written in the same transaction as their event, so a crash never splits them), the
calibration used, the video file and its frame timestamps, and status notes.  Triggers refuse
any UPDATE or DELETE on these tables.  The rules package never imports this module: the
session runner (`referee.session`) stands between them.

A session can be exported as a dispute bundle (a zip of events, rulings, calibration, frame
times and, when there is one, the video) and imported again as a new session.
"""

from __future__ import annotations

import io
import json
import sqlite3
import threading
import time
import zipfile
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from referee.events import Event, EventFormatError, event_from_json, parse_events

SCHEMA_VERSION = 1

BUNDLE_FORMAT = "piecepack-dispute-bundle"
BUNDLE_MAX_MEMBER = 512 * 1024 * 1024
"""The largest member a bundle may hold once unpacked (a guard against zip bombs)."""

ORIGINS = ("source", "player", "override")
"""Where a stored event came from: the camera/file source, a player's declaration, a person's
override."""

_SCHEMA = """
CREATE TABLE IF NOT EXISTS sessions (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    created REAL NOT NULL,
    game TEXT NOT NULL,
    options TEXT NOT NULL,
    source TEXT NOT NULL,
    label TEXT NOT NULL DEFAULT ''
);
CREATE TABLE IF NOT EXISTS events (
    session INTEGER NOT NULL REFERENCES sessions(id),
    seq INTEGER NOT NULL,
    t REAL NOT NULL,
    origin TEXT NOT NULL,
    src_index INTEGER,
    data TEXT NOT NULL,
    wall REAL NOT NULL,
    PRIMARY KEY (session, seq)
);
CREATE TABLE IF NOT EXISTS rulings (
    session INTEGER NOT NULL REFERENCES sessions(id),
    seq INTEGER NOT NULL,
    n INTEGER NOT NULL,
    data TEXT NOT NULL,
    PRIMARY KEY (session, seq, n)
);
CREATE TABLE IF NOT EXISTS notes (
    session INTEGER NOT NULL REFERENCES sessions(id),
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    kind TEXT NOT NULL,
    data TEXT NOT NULL,
    wall REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS frames (
    session INTEGER NOT NULL REFERENCES sessions(id),
    frame INTEGER NOT NULL,
    t REAL NOT NULL,
    PRIMARY KEY (session, frame)
);
"""

_TRIGGERS = [
    f"CREATE TRIGGER IF NOT EXISTS {table}_no_{verb.lower()} BEFORE {verb} ON {table} "
    f"BEGIN SELECT RAISE(ABORT, 'the session store is append-only'); END;"
    for table in ("sessions", "events", "rulings", "notes", "frames")
    for verb in ("UPDATE", "DELETE")
]

NOTE_KINDS = ("calibration", "video", "status", "import", "refused")


class StoreError(ValueError):
    """A request the store cannot honour (unknown session, bad bundle, time going backwards)."""


@dataclass(frozen=True)
class StoredEvent:
    """One event as the store keeps it: its place in the session and where it came from."""

    seq: int
    t: float
    origin: str
    event: Event
    src_index: int | None = None


@dataclass
class SessionInfo:
    """A session's header and a few counts, for lists and the UI."""

    id: int
    created: float
    game: str
    options: dict[str, Any]
    source: dict[str, Any]
    label: str = ""
    events: int = 0
    rulings: int = 0
    last_t: float = 0.0
    status: str = ""
    video: str | None = None
    calibration: dict[str, Any] | None = field(default=None, repr=False)

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "created": self.created, "game": self.game,
                "options": self.options, "source": self.source, "label": self.label,
                "events": self.events, "rulings": self.rulings, "last_t": self.last_t,
                "status": self.status, "video": Path(self.video).name if self.video else None,
                "has_calibration": self.calibration is not None}


def _dumps(data: Any) -> str:
    return json.dumps(data, separators=(",", ":"), sort_keys=True)


class SessionStore:
    """An SQLite session store in one file; safe to share between threads of one process."""

    def __init__(self, path: str | Path, *, durable: bool = True) -> None:
        """Open (creating if needed) the store at `path`.  `durable=False` skips the fsync of
        every commit: still safe against a killed process, not against a power cut (tests)."""
        self.path = Path(path)
        if str(path) != ":memory:":
            self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.RLock()
        self._db = sqlite3.connect(str(path), check_same_thread=False, isolation_level=None,
                                   timeout=10.0)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute(f"PRAGMA synchronous={'FULL' if durable else 'NORMAL'}")
        self._db.execute("PRAGMA foreign_keys=ON")
        with self._lock:
            self._db.executescript(_SCHEMA)
            for trigger in _TRIGGERS:
                self._db.execute(trigger)
            self._db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")

    # ------------------------------------------------------------------ lifecycle
    def close(self) -> None:
        with self._lock:
            self._db.close()

    def __enter__(self) -> SessionStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def journal_mode(self) -> str:
        """The SQLite journal mode in force ("wal")."""
        with self._lock:
            return str(self._db.execute("PRAGMA journal_mode").fetchone()[0])

    # ------------------------------------------------------------------ writing
    def create_session(self, game: str, options: dict[str, Any] | None = None,
                       source: dict[str, Any] | None = None, label: str = "") -> int:
        """A new session; returns its id."""
        with self._lock:
            cur = self._db.execute(
                "INSERT INTO sessions (created, game, options, source, label) "
                "VALUES (?, ?, ?, ?, ?)",
                (time.time(), game, _dumps(options or {}), _dumps(source or {}), label))
            return int(cur.lastrowid or 0)

    def append_event(self, session: int, event: Event, origin: str,
                     rulings: Sequence[dict[str, Any]] = (),
                     src_index: int | None = None) -> int:
        """Append one event and the rulings it caused, atomically; returns its seq."""
        return self.append_events(session, [(event, origin, rulings, src_index)])[0]

    def append_events(self, session: int,
                      batch: Sequence[tuple[Event, str, Sequence[dict[str, Any]], int | None]]
                      ) -> list[int]:
        """Append events (each with its origin, rulings and source index) in one transaction:
        all or none, one disk sync for the lot (a frame's events); returns their seqs."""
        for _, origin, _, _ in batch:
            if origin not in ORIGINS:
                raise StoreError(f"unknown origin {origin!r}; valid: {', '.join(ORIGINS)}")
        with self._lock:
            self._require(session)
            row = self._db.execute(
                "SELECT MAX(seq), MAX(t) FROM events WHERE session=?", (session,)).fetchone()
            seq = 0 if row[0] is None else int(row[0]) + 1
            last_t = None if row[1] is None else float(row[1])
            for event, _, _, _ in batch:
                if last_t is not None and event.t < last_t:
                    raise StoreError(f"time goes backwards ({event.t} after {last_t})")
                last_t = event.t
            seqs = list(range(seq, seq + len(batch)))
            wall = time.time()
            try:
                self._db.execute("BEGIN IMMEDIATE")
                self._db.executemany(
                    "INSERT INTO events (session, seq, t, origin, src_index, data, wall) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?)",
                    [(session, s, event.t, origin, src_index, _dumps(event.to_json()), wall)
                     for s, (event, origin, _, src_index) in zip(seqs, batch, strict=True)])
                self._db.executemany(
                    "INSERT INTO rulings (session, seq, n, data) VALUES (?, ?, ?, ?)",
                    [(session, s, n, _dumps(r))
                     for s, (_, _, rulings, _) in zip(seqs, batch, strict=True)
                     for n, r in enumerate(rulings)])
                self._db.execute("COMMIT")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            return seqs

    def add_note(self, session: int, kind: str, data: Any) -> None:
        """Append a note: the calibration used, the video file, a status change, an import."""
        if kind not in NOTE_KINDS:
            raise StoreError(f"unknown note kind {kind!r}; valid: {', '.join(NOTE_KINDS)}")
        with self._lock:
            self._require(session)
            self._db.execute("INSERT INTO notes (session, kind, data, wall) VALUES (?, ?, ?, ?)",
                             (session, kind, _dumps(data), time.time()))

    def add_frames(self, session: int, frames: Iterable[tuple[int, float]]) -> None:
        """Append frame timestamps (frame number, seconds from the session start)."""
        with self._lock:
            self._require(session)
            self._db.execute("BEGIN IMMEDIATE")
            try:
                self._db.executemany(
                    "INSERT OR IGNORE INTO frames (session, frame, t) VALUES (?, ?, ?)",
                    [(session, int(f), float(t)) for f, t in frames])
                self._db.execute("COMMIT")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise

    # ------------------------------------------------------------------ reading
    def _require(self, session: int) -> sqlite3.Row:
        row = self._db.execute(
            "SELECT id, created, game, options, source, label FROM sessions WHERE id=?",
            (session,)).fetchone()
        if row is None:
            raise StoreError(f"no session {session}")
        return row

    def has_session(self, session: int) -> bool:
        with self._lock:
            return self._db.execute("SELECT 1 FROM sessions WHERE id=?",
                                    (session,)).fetchone() is not None

    def session(self, session: int) -> SessionInfo:
        """The header of a session with its counts, last status, video and calibration."""
        with self._lock:
            sid, created, game, options, source, label = self._require(session)
            n_events, last_t = self._db.execute(
                "SELECT COUNT(*), COALESCE(MAX(t), 0) FROM events WHERE session=?",
                (sid,)).fetchone()
            n_rulings = self._db.execute("SELECT COUNT(*) FROM rulings WHERE session=?",
                                         (sid,)).fetchone()[0]
            status = self.last_note(sid, "status")
            video = self.last_note(sid, "video")
            calibration = self.last_note(sid, "calibration")
        return SessionInfo(
            id=sid, created=created, game=game, options=json.loads(options),
            source=json.loads(source), label=label, events=n_events, rulings=n_rulings,
            last_t=float(last_t), status=(status or {}).get("status", "") if status else "",
            video=(video or {}).get("path") if isinstance(video, dict) else None,
            calibration=calibration if isinstance(calibration, dict) else None)

    def sessions(self) -> list[SessionInfo]:
        """Every session, newest first."""
        with self._lock:
            ids = [r[0] for r in self._db.execute("SELECT id FROM sessions ORDER BY id DESC")]
            return [self.session(i) for i in ids]

    def last_note(self, session: int, kind: str) -> Any:
        with self._lock:
            row = self._db.execute(
                "SELECT data FROM notes WHERE session=? AND kind=? ORDER BY id DESC LIMIT 1",
                (session, kind)).fetchone()
        return None if row is None else json.loads(row[0])

    def notes(self, session: int, kind: str | None = None) -> list[dict[str, Any]]:
        with self._lock:
            rows = self._db.execute(
                "SELECT kind, data, wall FROM notes WHERE session=? "
                + ("AND kind=? " if kind else "") + "ORDER BY id",
                (session, kind) if kind else (session,)).fetchall()
        return [{"kind": k, "data": json.loads(d), "wall": w} for k, d, w in rows]

    def events(self, session: int) -> list[StoredEvent]:
        """The session's events in the order they were folded."""
        with self._lock:
            self._require(session)
            rows = self._db.execute(
                "SELECT seq, t, origin, src_index, data FROM events WHERE session=? "
                "ORDER BY seq", (session,)).fetchall()
        return [StoredEvent(seq, t, origin, event_from_json(json.loads(data)), src)
                for seq, t, origin, src, data in rows]

    def rulings(self, session: int) -> list[dict[str, Any]]:
        """Every ruling as issued, in order, each with the `seq` of the event it answers."""
        with self._lock:
            self._require(session)
            rows = self._db.execute(
                "SELECT seq, data FROM rulings WHERE session=? ORDER BY seq, n",
                (session,)).fetchall()
        return [{**json.loads(data), "seq": seq} for seq, data in rows]

    def videos(self, session: int) -> list[tuple[int, str]]:
        """The session's video files, each with the number its first frame has in the session
        (a live session resumed after a crash records into a new file, numbered on)."""
        out: list[tuple[int, str]] = []
        for note in self.notes(session, "video"):
            data = note["data"]
            if isinstance(data, dict) and isinstance(data.get("path"), str):
                first = data.get("first_frame", 0)
                out.append((first if isinstance(first, int) and first >= 0 else 0,
                            data["path"]))
        return out

    def video_frame(self, session: int, frame: int) -> tuple[str, int] | None:
        """Which file holds the session's frame `frame`, and its number in that file."""
        held = [(first, path) for first, path in self.videos(session) if first <= frame]
        if not held:
            return None
        first, path = max(held, key=lambda v: v[0])
        return path, frame - first

    def last_frame(self, session: int) -> tuple[int, float] | None:
        """The session's last stored frame (number, time), if any."""
        with self._lock:
            row = self._db.execute(
                "SELECT frame, t FROM frames WHERE session=? ORDER BY frame DESC LIMIT 1",
                (session,)).fetchone()
        return None if row is None else (int(row[0]), float(row[1]))

    def frames(self, session: int) -> list[tuple[int, float]]:
        with self._lock:
            return [(int(f), float(t)) for f, t in self._db.execute(
                "SELECT frame, t FROM frames WHERE session=? ORDER BY frame", (session,))]

    # ------------------------------------------------------------------ bundles
    def export_bundle(self, session: int, *, start_t: float | None = None,
                      end_t: float | None = None) -> bytes:
        """A dispute bundle (zip): the session header, events, rulings, calibration, frame
        times and the video file when it is still on disk.  `start_t`/`end_t` name the clip
        of interest (the whole session's events are always included, so it re-adjudicates)."""
        info = self.session(session)
        events = self.events(session)
        header = {"format": BUNDLE_FORMAT, "version": 1, **info.to_json(),
                  "clip": {"start_t": start_t, "end_t": end_t}}
        buf = io.BytesIO()
        with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
            zf.writestr("session.json", json.dumps(header, indent=1))
            zf.writestr("events.jsonl", "".join(
                _dumps({**e.event.to_json(), "_origin": e.origin}) + "\n" for e in events))
            zf.writestr("rulings.jsonl", "".join(
                _dumps(r) + "\n" for r in self.rulings(session)))
            zf.writestr("calibration.json", json.dumps(info.calibration, indent=1))
            frames = self.frames(session)
            video = info.video
            if start_t is not None and end_t is not None:
                inside = [f for f, t in frames if start_t <= t <= end_t]
                where = self.video_frame(session, inside[0]) if inside else None
                if where is not None:  # the file that holds the clip, numbered in it
                    video = where[0]
                    offset = inside[0] - where[1]
                    frames = [(f - offset, t) for f, t in frames if f >= offset]
            elif len(self.videos(session)) > 1:  # the whole session: its last part
                offset = max(first for first, _ in self.videos(session))
                frames = [(f - offset, t) for f, t in frames if f >= offset]
            if video and Path(video).is_file():
                clip = None
                if start_t is not None and end_t is not None:
                    clip, frames = _cut(video, frames, start_t, end_t)
                if clip is not None:
                    zf.writestr("clip.mp4", clip)
                else:
                    zf.write(video, "clip" + Path(video).suffix.lower())
            zf.writestr("frames.csv", "frame,t\n" + "".join(f"{f},{t}\n" for f, t in frames))
        return buf.getvalue()


def _cut(video: str, frames: list[tuple[int, float]], start_t: float, end_t: float
         ) -> tuple[bytes | None, list[tuple[int, float]]]:
    """The clip of [start_t, end_t] and its frame times (numbered from 0 in the clip): by the
    stored frame times when there are any (a camera's file time is not session time), else by
    the file's own time; the whole session's frame times when the video cannot be cut."""
    inside = [(f, t) for f, t in frames if start_t <= t <= end_t]
    if inside:
        first, last = inside[0][0], inside[-1][0]
        clip = cut_frames(video, first, last)
        if clip is not None:
            return clip, [(f - first, t) for f, t in inside if f <= last]
        return None, frames
    return cut_clip(video, start_t, end_t), []


def cut_frames(video: str | Path, first: int, last: int) -> bytes | None:
    """Frames `first`..`last` (numbers, inclusive) of `video` as an MP4, or None when the video
    cannot be read."""
    import tempfile

    import cv2

    cap = cv2.VideoCapture(str(video))
    try:
        fps = cap.get(cv2.CAP_PROP_FPS) or 0.0
        if not cap.isOpened() or fps <= 0:
            return None
        cap.set(cv2.CAP_PROP_POS_FRAMES, first)
        with tempfile.TemporaryDirectory() as tmp:
            out_path = Path(tmp) / "clip.mp4"
            writer = None
            for _ in range(first, last + 1):
                ok, frame = cap.read()
                if not ok:
                    break
                if writer is None:
                    h, w = frame.shape[:2]
                    writer = cv2.VideoWriter(str(out_path), cv2.VideoWriter_fourcc(*"mp4v"),
                                             fps, (w, h))
                writer.write(frame)
            if writer is None:
                return None
            writer.release()
            return out_path.read_bytes()
    finally:
        cap.release()


def cut_clip(video: str | Path, start_t: float, end_t: float) -> bytes | None:
    """The frames of `video` between `start_t` and `end_t` (seconds) as an MP4, or None when
    the video cannot be read (the caller then ships the whole file)."""
    import tempfile

    import cv2

    cap = cv2.VideoCapture(str(video))
    try:
        if not cap.isOpened():
            return None
        fps = cap.get(cv2.CAP_PROP_FPS) or 0.0
        if fps <= 0:
            return None
        cap.set(cv2.CAP_PROP_POS_MSEC, max(0.0, start_t) * 1000.0)
        with tempfile.TemporaryDirectory() as tmp:
            out_path = Path(tmp) / "clip.mp4"
            writer = None
            while True:
                t = cap.get(cv2.CAP_PROP_POS_MSEC) / 1000.0
                ok, frame = cap.read()
                if not ok or t > end_t:
                    break
                if writer is None:
                    h, w = frame.shape[:2]
                    writer = cv2.VideoWriter(str(out_path), cv2.VideoWriter_fourcc(*"mp4v"),
                                             fps, (w, h))
                writer.write(frame)
            if writer is None:
                return None
            writer.release()
            return out_path.read_bytes()
    finally:
        cap.release()


@dataclass
class Bundle:
    """A dispute bundle read back: its header, validated events, rulings and attachments."""

    header: dict[str, Any]
    game: str
    options: dict[str, Any]
    events: list[tuple[Event, str]]
    """Each event with its origin (source, player, override)."""
    rulings: list[dict[str, Any]]
    calibration: dict[str, Any] | None = None
    video_suffix: str | None = None
    video: bytes | None = field(default=None, repr=False)
    frames: list[tuple[int, float]] = field(default_factory=list, repr=False)
    """The video's frame times (frame number in the bundle's video, session seconds)."""


VIDEO_SUFFIXES = (".mp4", ".mkv", ".avi", ".webm", ".mov")


def read_bundle(data: bytes) -> Bundle:
    """Read and validate a dispute bundle.  Member names are only compared, never used as
    paths, so a bundle cannot write anywhere; sizes are checked before anything is unpacked."""
    try:
        zf = zipfile.ZipFile(io.BytesIO(data))
    except zipfile.BadZipFile:
        raise StoreError("not a zip file") from None
    with zf:
        names = {i.filename: i for i in zf.infolist()}
        for needed in ("session.json", "events.jsonl"):
            if needed not in names:
                raise StoreError(f"the bundle has no {needed}")
        for info in names.values():
            if info.file_size > BUNDLE_MAX_MEMBER:
                raise StoreError(f"bundle member {info.filename!r} is too large")

        def text(name: str) -> str:
            try:
                return zf.read(name).decode("utf-8")
            except UnicodeDecodeError:
                raise StoreError(f"{name} is not UTF-8 text") from None

        try:
            header = json.loads(text("session.json"))
            calibration = (json.loads(text("calibration.json"))
                           if "calibration.json" in names else None)
        except json.JSONDecodeError as exc:
            raise StoreError(f"bad JSON in the bundle ({exc.msg})") from None
        if not isinstance(header, dict) or header.get("format") != BUNDLE_FORMAT:
            raise StoreError(f"session.json is not a {BUNDLE_FORMAT}")
        game, options = header.get("game"), header.get("options", {})
        if not isinstance(game, str) or not isinstance(options, dict):
            raise StoreError("session.json: bad game or options")
        if calibration is not None and not isinstance(calibration, dict):
            raise StoreError("calibration.json must hold an object")
        lines = text("events.jsonl").splitlines()
        origins: list[str] = []
        for number, line in enumerate(lines, start=1):
            if not line.strip():
                continue
            try:
                obj = json.loads(line)
            except json.JSONDecodeError:
                raise StoreError(f"events.jsonl:{number}: not valid JSON") from None
            origin = obj.get("_origin", "source") if isinstance(obj, dict) else "?"
            if origin not in ORIGINS:
                raise StoreError(f"events.jsonl:{number}: bad origin {origin!r}")
            origins.append(origin)
        try:
            events = list(parse_events(lines, "events.jsonl"))
        except EventFormatError as exc:
            raise StoreError(str(exc)) from None
        rulings = []
        if "rulings.jsonl" in names:
            for line in text("rulings.jsonl").splitlines():
                try:
                    obj = json.loads(line)
                except json.JSONDecodeError:
                    continue
                if isinstance(obj, dict):
                    rulings.append(obj)
        frames: list[tuple[int, float]] = []
        if "frames.csv" in names:
            for number, line in enumerate(text("frames.csv").splitlines()[1:], start=2):
                try:
                    f, t = line.split(",")
                    frames.append((int(f), float(t)))
                except ValueError:
                    raise StoreError(f"frames.csv:{number}: not 'frame,t'") from None
        member = next((n for n in names if n.startswith("clip.")), None)
        suffix = Path(member).suffix.lower() if member else None
        video = zf.read(member) if member else None
    if suffix is not None and suffix not in VIDEO_SUFFIXES:
        suffix = ".bin"
    return Bundle(header, game, options, list(zip(events, origins, strict=True)), rulings,
                  calibration, suffix, video, frames)
