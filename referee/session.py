"""The session runner: a source of timed events → the store → the rules engine → broadcast.

The seam for vision is :class:`SessionSource`: anything that yields :class:`SourceItem` s
(an event, its index in the source, and optionally a frame number, time and JPEG image) at the
pace of its own clock, and can pause, resume, seek and change speed where that makes sense.
:class:`EventFileSource` replays a JSONL event file at real time × speed; the vision sources
(`referee/vision/source.py`) replay a video or watch a camera, frames through the one vision
pipeline.  Only the source and the clock differ between live play and replay.

What vision provides (module `referee.vision.source`, looked up by `referee replay` and
`referee live`):

- `video_source(path, *, speed, calibration) -> SessionSource` for a recorded video, and
- `camera_source(index, *, calibration, record_to) -> SessionSource` for a webcam, which
  records its frames into `record_to` and names that file as `"video"` in `describe()` (the
  runner stores it, so the session can be replayed and disputed with its clip).

Their `items()` yield a `SourceItem` per frame (`frame`, and now and then `jpeg` and
`overlay`) and per event (`event` with its `index`, so a restart resumes after the last stored
one; `start_t` is the session time to go on from); a vanished camera raises
`SourceUnavailable`, and `reopen()` is tried until it is back.  No event is ever invented.

The runner keeps every event in the append-only store *before* it is shown, in the same
transaction as the rulings it caused, so a crash loses nothing and a restart folds the stored
events and goes on from the source's next index.  Seeking back moves a cursor over the stored
events (the state shown is the fold up to the cursor); playing forward again re-reads them
from the store and appends only what is new.
"""

from __future__ import annotations

import bisect
import contextlib
import itertools
import logging
import queue
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from referee.events import Declare, Event, Flick, Override, Settled, event_from_json, read_events
from referee.rules.base import Game, InvalidEventError, RulesError, State, make_game
from referee.store import Bundle, SessionStore, StoredEvent, StoreError

# --------------------------------------------------------------------------- sources


@dataclass(frozen=True)
class SourceItem:
    """What a source yields: an event (with its index in the source), a frame, or both."""

    event: Event | None = None
    index: int | None = None
    """The event's position in the source: a restart resumes after the last stored one."""
    frame: tuple[int, float] | None = None
    """(frame number, seconds from the session start) of the video frame just read."""
    jpeg: bytes | None = None
    """The latest camera image, JPEG-encoded, for the web UI (optional)."""
    overlay: dict[str, Any] | None = None
    """What vision sees now, in table mm, drawn over the camera image:
    {"coins": {name: [x, y]}, "tracks": {name: [[x, y], ...]}} (optional)."""
    generation: int = 0
    """The source's seek counter when the item was made; older items are dropped."""
    more: bool = False
    """Another event found on the same frame follows at once: the runner stores them together
    (one transaction, one disk sync, one update to the page)."""


class SourceUnavailable(RuntimeError):
    """The camera (or file) vanished; the runner pauses and calls `reopen()` until it is back."""


@runtime_checkable
class SessionSource(Protocol):
    """Where a session's events come from (an event file today; a camera or video later)."""

    kind: str
    can_seek: bool

    def describe(self) -> dict[str, Any]:
        """JSON data naming the source (kind, path, camera, video file to record into)."""
        ...

    def items(self, start_index: int, start_t: float) -> Iterator[SourceItem]:
        """Yield items from `start_index` on, paced by the source's clock; return at the end.
        Raise SourceUnavailable when the device vanishes."""
        ...

    def now(self) -> float:
        """The session clock: seconds from the start of the session."""
        ...

    def pause(self) -> None: ...

    def resume(self) -> None: ...

    def seek(self, t: float) -> None: ...

    def set_speed(self, speed: float) -> None: ...

    def reopen(self) -> None:
        """Try to get the device back; raise SourceUnavailable if it is still gone."""
        ...

    def stop(self) -> None: ...

    @property
    def paused(self) -> bool: ...

    @property
    def speed(self) -> float: ...

    @property
    def generation(self) -> int: ...

    @property
    def duration(self) -> float | None: ...


MAX_SPEED = 1000.0
FRAMES_PER_WRITE = 30
"""Frame timestamps are written this many at a time (a video's are derived again on restart;
a camera killed with -9 loses at most the last batch's)."""


class PacedClock:
    """A media clock that runs at `speed` × real time, pauses and seeks; waits are interruptible
    so pause, seek and stop take effect at once."""

    def __init__(self, speed: float = 1.0) -> None:
        self._cond = threading.Condition()
        self._base_t = 0.0
        self._base_wall = time.monotonic()
        self._speed = _check_speed(speed)
        self._paused = False
        self._stopped = False
        self._generation = 0

    def now(self) -> float:
        with self._cond:
            return self._now()

    def _now(self) -> float:
        if self._paused or self._stopped:
            return self._base_t
        return self._base_t + (time.monotonic() - self._base_wall) * self._speed

    def _rebase(self, t: float | None = None) -> None:
        self._base_t = self._now() if t is None else t
        self._base_wall = time.monotonic()

    @property
    def paused(self) -> bool:
        return self._paused

    @property
    def speed(self) -> float:
        return self._speed

    @property
    def generation(self) -> int:
        return self._generation

    def pause(self) -> None:
        with self._cond:
            self._rebase()
            self._paused = True
            self._cond.notify_all()

    def resume(self) -> None:
        with self._cond:
            self._rebase()
            self._paused = False
            self._cond.notify_all()

    def set_speed(self, speed: float) -> None:
        with self._cond:
            self._rebase()
            self._speed = _check_speed(speed)
            self._cond.notify_all()

    def start_at(self, t: float) -> None:
        with self._cond:
            self._rebase(t)

    def stop(self) -> None:
        with self._cond:
            self._rebase()
            self._stopped = True
            self._cond.notify_all()

    def wait_until(self, t: float, generation: int) -> bool:
        """Block until the clock reaches `t`; False if stopped or a seek happened meanwhile."""
        with self._cond:
            while True:
                if self._stopped or self._generation != generation:
                    return False
                now = self._now()
                if now >= t and not self._paused:
                    return True
                if self._paused:
                    self._cond.wait(0.5)
                else:
                    self._cond.wait(min(0.5, (t - now) / self._speed))


def _check_speed(speed: float) -> float:
    if not 0.0 < speed <= MAX_SPEED:
        raise ValueError(f"speed must be within (0, {MAX_SPEED:g}], got {speed}")
    return float(speed)


class EventFileSource(PacedClock):
    """Replays a JSONL event file (or a list of events) at real time × speed, with pause and
    seek; the stand-in for the camera until vision is there, and the engine of `referee demo`."""

    kind = "events"
    can_seek = True

    def __init__(self, events: str | Path | list[Event], speed: float = 1.0) -> None:
        super().__init__(speed)
        if isinstance(events, str | Path):
            self.path: str | None = str(Path(events).resolve())
            self.events = read_events(events)
        else:
            self.path = None
            self.events = list(events)
        self._times = [e.t for e in self.events]
        self._next = 0

    def describe(self) -> dict[str, Any]:
        return {"kind": self.kind, "path": self.path, "events": len(self.events)}

    @property
    def duration(self) -> float | None:
        return self._times[-1] if self._times else 0.0

    def seek(self, t: float) -> None:
        """Move the clock to `t` (events between the old and the new time are not skipped)."""
        t = max(0.0, float(t))
        with self._cond:
            self._rebase(t)
            # Back: replay from the first event at or after t.  Forward: nothing is skipped;
            # the events up to t come at once (they must all reach the store).
            self._next = min(self._next, bisect.bisect_left(self._times, t))
            self._generation += 1
            self._cond.notify_all()

    def items(self, start_index: int, start_t: float) -> Iterator[SourceItem]:
        with self._cond:
            self._next = max(0, start_index)
            self._rebase(max(start_t, self._base_t))
        while True:
            with self._cond:
                if self._stopped:
                    return
                i, gen = self._next, self._generation
            if i >= len(self.events):
                return
            if not self.wait_until(self.events[i].t, gen):
                continue
            with self._cond:
                if gen != self._generation:
                    continue
                self._next = i + 1
            yield SourceItem(event=self.events[i], index=i, generation=gen)

    def reopen(self) -> None:
        """A file does not vanish mid-replay; nothing to do."""


# --------------------------------------------------------------------------- broadcast


class Broadcaster:
    """Fan-out of update messages to Server-Sent-Event subscribers (one queue each)."""

    def __init__(self, maxsize: int = 256) -> None:
        self._lock = threading.Lock()
        self._subs: set[queue.Queue[tuple[int, str, Any] | None]] = set()
        self._ids = itertools.count(1)
        self._maxsize = maxsize
        self.closed = False

    def subscribe(self) -> queue.Queue[tuple[int, str, Any] | None]:
        q: queue.Queue[tuple[int, str, Any] | None] = queue.Queue(self._maxsize)
        with self._lock:
            self._subs.add(q)
            if self.closed:
                q.put_nowait(None)
        return q

    def unsubscribe(self, q: queue.Queue[tuple[int, str, Any] | None]) -> None:
        with self._lock:
            self._subs.discard(q)

    def publish(self, kind: str, data: Any) -> None:
        """Send a message to every subscriber; a subscriber too slow to keep up is dropped
        (its browser reconnects and starts from a fresh snapshot)."""
        with self._lock:
            msg = (next(self._ids), kind, data)
            for q in list(self._subs):
                try:
                    q.put_nowait(msg)
                except queue.Full:
                    self._subs.discard(q)
                    with contextlib.suppress(queue.Full):
                        q.get_nowait()
                        q.put_nowait(None)

    def close(self) -> None:
        """End every stream (the server is stopping)."""
        with self._lock:
            self.closed = True
            for q in self._subs:
                with contextlib.suppress(queue.Full):
                    q.put_nowait(None)
            self._subs.clear()

    @property
    def subscribers(self) -> int:
        with self._lock:
            return len(self._subs)


# --------------------------------------------------------------------------- the runner


class SessionError(ValueError):
    """A request the session refuses (bad declaration, not at the live edge, unknown ruling)."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


def overruled_ids(rulings: list[dict[str, Any]]) -> set[str]:
    """The ids of rulings that stand overruled (overruling an override restores the ruling)."""
    by_id = {r.get("id"): r for r in rulings}
    out: set[str] = set()
    for r in rulings:
        if r.get("kind") != "override" or not r.get("overrules"):
            continue
        target = r["overrules"]
        seen = 0
        while by_id.get(target, {}).get("kind") == "override" and seen < 100:
            target = by_id[target].get("overrules")
            seen += 1
        if target:
            out ^= {target}
    return out


class SessionRunner:
    """One session: folds its stored events, runs its source in a thread, stores and
    broadcasts each new event with its rulings, and takes declarations and overrides."""

    def __init__(self, store: SessionStore, session_id: int,
                 source: SessionSource | None = None,
                 broadcaster: Broadcaster | None = None,
                 reconnect_s: float = 1.0) -> None:
        self.store = store
        self.id = session_id
        info = store.session(session_id)
        self.game_name = info.game
        self.options = info.options
        self.game: Game = make_game(info.game, info.options)
        self.source = source
        self.broadcaster = broadcaster or Broadcaster()
        self.reconnect_s = reconnect_s
        self._lock = threading.RLock()
        self._thread: threading.Thread | None = None
        self._stopping = threading.Event()
        self._wake = threading.Event()
        self.status = info.status or ("ready" if source else "stored")
        self.latest_jpeg: bytes | None = None
        self.latest_overlay: dict[str, Any] | None = None
        self.events: list[StoredEvent] = store.events(session_id)
        self._src_pos = {e.src_index: pos for pos, e in enumerate(self.events)
                         if e.src_index is not None}
        """Where each source index sits in `events`."""
        self._frames_pending: list[tuple[int, float]] = []
        self._batch: list[tuple[Event, int | None]] = []
        """A frame's events, gathered until the last (`SourceItem.more` false)."""
        self._batch_generation = 0
        self.recorded_rulings = store.rulings(session_id)
        self._rewind(len(self.events))

    # ------------------------------------------------------------------ folding
    def _rewind(self, cursor: int) -> None:
        """Fold the stored events [0, cursor) from the start."""
        self.state: State = self.game.new_state()
        self.rulings: list[dict[str, Any]] = []
        self.cursor = 0
        self._motion_from: int | None = None
        for _ in range(cursor):
            self._apply_next()

    def _apply_next(self) -> list[dict[str, Any]]:
        stored = self.events[self.cursor]
        out = [{**r.to_json(), "seq": stored.seq} for r in self.state.apply(stored.event)]
        self.rulings.extend(out)
        self.cursor += 1
        if isinstance(stored.event, Flick):
            self._motion_from = stored.seq
        elif isinstance(stored.event, Settled):
            self._motion_from = None
        return out

    @property
    def head(self) -> int:
        return len(self.events)

    @property
    def at_head(self) -> bool:
        return self.cursor == self.head

    def _source_count(self) -> int:
        indexes = [e.src_index for e in self.events if e.src_index is not None]
        return max(indexes) + 1 if indexes else 0

    # ------------------------------------------------------------------ views
    def summary(self) -> dict[str, Any]:
        with self._lock:
            return self.state.summary()

    def ruling_list(self) -> list[dict[str, Any]]:
        """The rulings up to the cursor, each marked `provisional` (its flick has not settled)
        and `overruled`."""
        with self._lock:
            overruled = overruled_ids(self.rulings)
            in_motion = bool(self.state.summary().get("in_motion"))
            cut = self._motion_from if in_motion else None
            return [{**r, "provisional": cut is not None and r["seq"] >= cut,
                     "overruled": r.get("id") in overruled} for r in self.rulings]

    def event_list(self) -> list[dict[str, Any]]:
        with self._lock:
            return [{"seq": e.seq, "origin": e.origin, **e.event.to_json()}
                    for e in self.events[:self.cursor]]

    def positions(self) -> dict[str, Any]:
        """Where the engine believes each coin rests (table mm) and which sit on stacks."""
        with self._lock:
            return {"positions": dict(getattr(self.state, "positions", {}) or {}),
                    "stacked": dict(getattr(self.state, "stacked", {}) or {})}

    def clock(self) -> float:
        src = self.source
        last = self.events[self.cursor - 1].t if self.cursor else 0.0
        if src is None:
            return last
        return max(src.now(), last) if self.at_head else src.now()

    def info(self) -> dict[str, Any]:
        with self._lock:
            src = self.source
            return {
                "id": self.id, "game": self.game_name, "options": self.options,
                "status": self.status, "t": round(self.clock(), 3),
                "events": self.head, "cursor": self.cursor, "at_head": self.at_head,
                "source": src.describe() if src else None,
                "paused": bool(src and src.paused), "speed": src.speed if src else None,
                "can_seek": bool(src and src.can_seek),
                "duration": src.duration if src else None,
                "has_frame": self.latest_jpeg is not None,
            }

    def snapshot(self) -> dict[str, Any]:
        """Everything the page needs at once (the first SSE message and GET /api/snapshot)."""
        with self._lock:
            return {"session": self.info(), "state": self.state.summary(),
                    "rulings": self.ruling_list(), **self.positions()}

    def _publish_update(self, new: list[dict[str, Any]]) -> None:
        with self._lock:
            state = self.state.summary()
            cut = self._motion_from if state.get("in_motion") else None
            data = {"session": self.info(), "state": state, "new_rulings": new,
                    "provisional_from": cut, **self.positions()}
        self.broadcaster.publish("update", data)

    def _set_status(self, status: str, **extra: Any) -> None:
        self.status = status
        self.store.add_note(self.id, "status", {"status": status, **extra})
        self.broadcaster.publish("status", {"session": self.info()})

    # ------------------------------------------------------------------ appending
    def _append(self, event: Event, origin: str, src_index: int | None = None
                ) -> list[dict[str, Any]]:
        """Fold one new event at the head and store it with its rulings (the caller holds the
        lock); an event the rules refuse is neither stored nor folded: SessionError."""
        out, refused = self._append_all([(event, origin, src_index)])
        if refused:
            raise SessionError(refused[0][2])
        return out

    def _append_all(self, items: list[tuple[Event, str, int | None]]
                    ) -> tuple[list[dict[str, Any]], list[tuple[Event, int | None, str]]]:
        """Fold new events at the head, then store them with their rulings in one transaction
        (the caller holds the lock).  Events the rules refuse are neither stored nor folded;
        they are returned with the reason."""
        if not self.at_head:
            raise SessionError("the session is rewound; play to the end before adding events",
                               409)
        out: list[dict[str, Any]] = []
        refused: list[tuple[Event, int | None, str]] = []
        pending: list[tuple[Event, str, list[dict[str, Any]], int | None]] = []
        for event, origin, src_index in items:
            last_t = pending[-1][0].t if pending else (self.events[-1].t if self.events
                                                       else 0.0)
            if event.t < last_t:
                event = event_from_json({**event.to_json(), "t": last_t})
            try:
                rulings = [r.to_json() for r in self.state.apply(event)]
            except (InvalidEventError, RulesError) as exc:
                out += self._store(pending)  # what came before stands
                pending = []
                self._rewind(self.head)
                refused.append((event, src_index, str(exc)))
                continue
            pending.append((event, origin, rulings, src_index))
        out += self._store(pending)
        return out, refused

    def _store(self, pending: list[tuple[Event, str, list[dict[str, Any]], int | None]]
               ) -> list[dict[str, Any]]:
        """Store folded events in one transaction and keep them (the caller holds the lock)."""
        if not pending:
            return []
        try:
            seqs = self.store.append_events(self.id, pending)
        except BaseException:
            self._rewind(self.head)
            raise
        out: list[dict[str, Any]] = []
        for seq, (event, origin, rulings, src_index) in zip(seqs, pending, strict=True):
            if src_index is not None:
                self._src_pos[src_index] = len(self.events)
            self.events.append(StoredEvent(seq, event.t, origin, event, src_index))
            new = [{**r, "seq": seq} for r in rulings]
            self.recorded_rulings.extend(new)
            self.rulings.extend(new)
            self.cursor += 1
            if isinstance(event, Flick):
                self._motion_from = seq
            elif isinstance(event, Settled):
                self._motion_from = None
            out.extend(new)
        return out

    def add_source_event(self, event: Event, index: int | None) -> list[dict[str, Any]]:
        """One event from the source (see `add_source_events`); SessionError if the rules
        refuse it."""
        new, refused = self.add_source_events([(event, index)])
        if refused:
            raise SessionError(refused[0][2])
        return new

    def add_source_events(self, batch: list[tuple[Event, int | None]]
                          ) -> tuple[list[dict[str, Any]], list[tuple[Event, int | None, str]]]:
        """Events from the source that came together (one frame's), stored in one transaction.
        An index already stored is not stored again: behind the cursor (a source repeating
        itself after a seek) it is ignored, ahead of it the stored events are folded up to it;
        new ones are appended at the head.  Returns the new rulings and the refused events."""
        with self._lock:
            new: list[dict[str, Any]] = []
            fresh: list[tuple[Event, str, int | None]] = []
            for event, index in batch:
                pos = self._src_pos.get(index) if index is not None else None
                if pos is None:
                    fresh.append((event, "source", index))
                elif pos >= self.cursor:
                    while self.cursor <= pos:
                        new.extend(self._apply_next())
            refused: list[tuple[Event, int | None, str]] = []
            if fresh:
                while self.cursor < self.head:  # declarations stored after the last source
                    new.extend(self._apply_next())  # event come before the new ones
                out, refused = self._append_all(fresh)
                new.extend(out)
        self._publish_update(new)
        return new, refused

    def declare(self, player: int, what: str, kind: int | None = None) -> list[dict[str, Any]]:
        """A player's declaration (croquet kind, end of play), as one more stored event."""
        with self._lock:
            try:
                event: Event = Declare(self.clock(), player, what, kind)
                new = self._append(event, "player")
            except (TypeError, ValueError) as exc:
                if isinstance(exc, SessionError):
                    raise
                raise SessionError(str(exc)) from None
        self._publish_update(new)
        return new

    def override(self, ruling: str, by: str, reason: str) -> list[dict[str, Any]]:
        """Overrule a ruling: one more stored event; the engine re-adjudicates."""
        with self._lock:
            if not any(r.get("id") == ruling for r in self.rulings):
                raise SessionError(f"there is no ruling {ruling!r} in this session", 404)
            new = self._append(Override(self.clock(), ruling, by, reason), "override")
        self._publish_update(new)
        return new

    # ------------------------------------------------------------------ control
    def control(self, action: str, value: float | None = None) -> dict[str, Any]:
        """pause | resume | seek (value = t) | speed (value = factor)."""
        src = self.source
        if src is None:
            raise SessionError("this session has no running source", 409)
        with self._lock:
            if action == "pause":
                src.pause()
            elif action == "resume":
                src.resume()
            elif action == "speed":
                if value is None:
                    raise SessionError("speed needs a value")
                try:
                    src.set_speed(value)
                except ValueError as exc:
                    raise SessionError(str(exc)) from None
            elif action == "seek":
                if not src.can_seek:
                    raise SessionError("this source cannot seek", 409)
                if value is None or value < 0:
                    raise SessionError("seek needs a time in seconds, 0 or more")
                src.seek(value)
                keep = bisect.bisect_left([e.t for e in self.events], value)
                if keep < self.cursor:
                    self._rewind(keep)
            else:
                raise SessionError(f"unknown action {action!r}; valid: pause, resume, seek, "
                                   f"speed")
        if action == "seek":
            self.broadcaster.publish("reset", self.snapshot())
            self._wake_thread()
        else:
            self.broadcaster.publish("status", {"session": self.info()})
        return self.info()

    # ------------------------------------------------------------------ what-if
    def readjudicate(self, options: dict[str, Any]) -> dict[str, Any]:
        """Fold this session's events under other options; say which rulings would change."""
        with self._lock:
            events = [e for e in self.events[:self.cursor]]
            current = self.rulings[:]
            before = self.state.summary()
        merged = {**self.options, **options}
        game = make_game(self.game_name, merged)  # OptionError for bad options
        state = game.new_state()
        after_rulings: list[dict[str, Any]] = []
        for e in events:
            try:
                after_rulings.extend({**r.to_json(), "seq": e.seq} for r in state.apply(e.event))
            except RulesError as exc:
                after_rulings.append({"seq": e.seq, "kind": "reject", "clause": "-",
                                      "text": str(exc)})
        after = state.summary()

        def by_seq(rulings: list[dict[str, Any]]) -> dict[int, list[dict[str, Any]]]:
            out: dict[int, list[dict[str, Any]]] = {}
            for r in rulings:
                out.setdefault(r["seq"], []).append(r)
            return out

        def key(r: dict[str, Any]) -> tuple[Any, ...]:
            return (r.get("kind"), r.get("clause"), r.get("text"), r.get("at"), r.get("on"))

        b, a = by_seq(current), by_seq(after_rulings)
        changes = []
        for e in events:
            rb, ra = b.get(e.seq, []), a.get(e.seq, [])
            if [key(r) for r in rb] != [key(r) for r in ra]:
                changes.append({"seq": e.seq, "t": e.t, "event": e.event.to_json(),
                                "before": rb, "after": ra})
        return {"options": game.options, "changed": changes,
                "summary_before": before, "summary_after": after,
                "summary_changed": before != after}

    # ------------------------------------------------------------------ disputes
    def flicks(self) -> list[dict[str, Any]]:
        """Every flick up to the cursor: its events up to the settle and the rulings they
        caused, for the dispute view."""
        with self._lock:
            events = self.events[:self.cursor]
            rulings = self.rulings[:]
        by_seq: dict[int, list[dict[str, Any]]] = {}
        for r in rulings:
            by_seq.setdefault(r["seq"], []).append(r)
        out: list[dict[str, Any]] = []
        current: dict[str, Any] | None = None
        for e in events:
            if isinstance(e.event, Flick):
                current = {"seq": e.seq, "t": e.t, "coin": e.event.coin, "end_t": None,
                           "events": [], "rulings": []}
                out.append(current)
            if current is None:
                continue
            current["events"].append({"seq": e.seq, "origin": e.origin, **e.event.to_json()})
            current["rulings"].extend(by_seq.get(e.seq, []))
            if isinstance(e.event, Settled):
                current["end_t"] = e.t
                current = None
        return out

    def positions_at(self, seq: int) -> dict[str, Any]:
        """Coin positions just before the stored event `seq` (a fresh fold up to it)."""
        with self._lock:
            events = [e.event for e in self.events[:self.cursor] if e.seq < seq]
        state = self.game.new_state()
        for event in events:
            state.apply(event)
        return {"positions": dict(getattr(state, "positions", {}) or {}),
                "stacked": dict(getattr(state, "stacked", {}) or {})}

    # ------------------------------------------------------------------ the thread
    def start(self) -> None:
        if self.source is None or self._thread is not None:
            return
        self._thread = threading.Thread(target=self._run, name=f"session-{self.id}",
                                        daemon=True)
        self._thread.start()

    def _wake_thread(self) -> None:
        self._wake.set()

    def _run(self) -> None:
        try:
            self._play()
        except Exception as exc:  # never die silently: say so on the page and in the store
            logging.getLogger(__name__).exception("session %s stopped", self.id)
            with contextlib.suppress(Exception):
                self._set_status("error", error=f"{type(exc).__name__}: {exc}")

    def _play(self) -> None:
        src = self.source
        assert src is not None
        self._set_status("running", source=src.describe())
        while not self._stopping.is_set():
            try:
                with self._lock:
                    later = [e.src_index for e in self.events[self.cursor:]
                             if e.src_index is not None]
                    start_index = later[0] if later else self._source_count()
                    start_t = self.events[self.cursor - 1].t if self.cursor else 0.0
                    last_frame = self.store.last_frame(self.id) if self.at_head else None
                    if last_frame is not None:  # a restart: the clock goes on from there
                        start_t = max(start_t, last_frame[1])
                    self._wake.clear()
                for item in src.items(start_index, start_t):
                    if self._stopping.is_set():
                        return
                    self._take(src, item)
                if self._stopping.is_set():
                    return
                if self._batch_generation == src.generation:
                    self._flush_batch()  # a source that ended inside a frame's events
                self._flush_frames()
                if not self._wake.is_set():
                    with self._lock:
                        caught_up: list[dict[str, Any]] = []
                        while self.cursor < self.head:  # declarations after the last event
                            caught_up.extend(self._apply_next())
                    if caught_up:
                        self._publish_update(caught_up)
                    self._set_status("finished")
                    # Wait for a seek (which plays again from the store) or the end.
                    while not self._stopping.is_set() and not self._wake.wait(0.2):
                        pass
                    if not self._stopping.is_set():
                        self._set_status("running")
            except SourceUnavailable as exc:
                self._flush_frames()
                self._set_status("camera lost", error=str(exc))
                while not self._stopping.is_set():
                    if self._stopping.wait(self.reconnect_s):
                        return
                    try:
                        src.reopen()
                    except SourceUnavailable:
                        continue
                    self._set_status("running", reconnected=True)
                    break

    def _take(self, src: SessionSource, item: SourceItem) -> None:
        if item.generation != src.generation:
            return  # made before a seek
        if item.frame is not None:
            self._frames_pending.append(item.frame)
            if len(self._frames_pending) >= FRAMES_PER_WRITE:
                self._flush_frames()
        if item.jpeg is not None:
            self.latest_jpeg = item.jpeg
        if item.overlay is not None:
            self.latest_overlay = item.overlay
        if item.event is None:
            return
        if self._batch and self._batch_generation != item.generation:
            self._batch = []  # the rest of that frame's events was dropped by a seek
        self._batch.append((item.event, item.index))
        self._batch_generation = item.generation
        if not item.more:
            self._flush_batch()

    def _flush_batch(self) -> None:
        batch, self._batch = self._batch, []
        if not batch:
            return
        _, refused = self.add_source_events(batch)
        for event, index, reason in refused:
            self.store.add_note(self.id, "refused", {
                "error": reason, "index": index, "event": event.to_json()})

    def _flush_frames(self) -> None:
        pending, self._frames_pending = self._frames_pending, []
        if pending:
            self.store.add_frames(self.id, pending)

    def stop(self) -> None:
        """Stop the source and the thread (stored data is complete at every moment)."""
        self._stopping.set()
        if self.source is not None:
            self.source.stop()
        if self._thread is not None:
            self._thread.join(timeout=5)
            self._thread = None
        with contextlib.suppress(Exception):
            self._flush_frames()


# --------------------------------------------------------------------------- the manager


VOLATILE_SOURCE_KEYS = ("video", "record_to", "started")
"""Parts of a source's description that differ between two runs of the same source."""


class Referee:
    """The sessions of one server: the store, the session on show, and open runners."""

    def __init__(self, store: SessionStore, video_dir: str | Path | None = None) -> None:
        self.store = store
        self.video_dir = Path(video_dir) if video_dir else store.path.parent / "videos"
        self._lock = threading.RLock()
        self.runners: dict[int, SessionRunner] = {}
        self.current_id: int | None = None

    def new_session(self, game: str, options: dict[str, Any] | None,
                    source: SessionSource | None, label: str = "",
                    calibration: dict[str, Any] | None = None) -> SessionRunner:
        make_game(game, options)  # validate before anything is stored
        sid = self.store.create_session(game, options or {},
                                        source.describe() if source else {"kind": "none"},
                                        label)
        if calibration is not None:
            self.store.add_note(sid, "calibration", calibration)
        video = source.describe().get("video") if source else None
        if video:
            self.store.add_note(sid, "video", {"path": str(video)})
        return self.open(sid, source)

    def open(self, session_id: int, source: SessionSource | None = None) -> SessionRunner:
        """Open a stored session (resuming `source` after its last stored event) and show it."""
        with self._lock:
            runner = self.runners.get(session_id)
            if runner is None:
                if not self.store.has_session(session_id):
                    raise SessionError(f"no session {session_id}", 404)
                if source is not None:
                    self._resume_recording(session_id, source)
                runner = SessionRunner(self.store, session_id, source)
                if source is not None and runner.head and hasattr(source, "resume_at"):
                    source.resume_at(runner.positions()["positions"])  # type: ignore[attr-defined]
                self.runners[session_id] = runner
                runner.start()
            self.current_id = session_id
            return runner

    def _resume_recording(self, session_id: int, source: SessionSource) -> None:
        """A resumed session whose source records into a new file (a camera after a crash):
        the file is noted as the next part of the session's video, numbered on."""
        video = source.describe().get("video")
        known = [path for _, path in self.store.videos(session_id)]
        if not video or str(video) in known:
            return
        last = self.store.last_frame(session_id)
        first = last[0] + 1 if last else 0
        if hasattr(source, "first_frame"):
            source.first_frame = first
        self.store.add_note(session_id, "video", {"path": str(video), "first_frame": first})

    def find_resumable(self, source: SessionSource) -> int | None:
        """The newest unfinished session fed by the same source (for restarts after a crash).
        Sources are compared by their description less what changes from run to run (the
        file a camera records into)."""

        def key(described: dict[str, Any]) -> dict[str, Any]:
            return {k: v for k, v in described.items() if k not in VOLATILE_SOURCE_KEYS}

        wanted = key(source.describe())
        for info in self.store.sessions():
            if key(info.source) == wanted and info.status != "finished":
                return info.id
        return None

    @property
    def current(self) -> SessionRunner | None:
        with self._lock:
            return self.runners.get(self.current_id) if self.current_id is not None else None

    def runner(self, session_id: int | None) -> SessionRunner:
        """The runner of a session (opening it read-only if needed); the current one if None."""
        if session_id is None:
            cur = self.current
            if cur is None:
                raise SessionError("no session is open", 404)
            return cur
        with self._lock:
            runner = self.runners.get(session_id)
            if runner is None:
                if not self.store.has_session(session_id):
                    raise SessionError(f"no session {session_id}", 404)
                runner = SessionRunner(self.store, session_id, None)
                self.runners[session_id] = runner
            return runner

    def import_bundle(self, bundle: Bundle) -> int:
        """A new stored session from a dispute bundle: its events are folded again here, so
        the rulings are this referee's own; returns the new session's id."""
        try:
            game = make_game(bundle.game, bundle.options)
        except (RulesError, ValueError) as exc:
            raise StoreError(f"the bundle's game or options: {exc}") from None
        state = game.new_state()
        folded = []
        for n, (event, origin) in enumerate(bundle.events, start=1):
            try:
                rulings = [r.to_json() for r in state.apply(event)]
            except RulesError as exc:
                raise StoreError(f"events.jsonl event {n}: {exc}") from None
            folded.append((event, origin, rulings))
        sid = self.store.create_session(
            bundle.game, bundle.options,
            {"kind": "import", "from": bundle.header.get("id")},
            label=f"imported from session {bundle.header.get('id')}")
        self.store.add_note(sid, "import", {"from_session": bundle.header.get("id"),
                                            "rulings_in_bundle": len(bundle.rulings)})
        if bundle.calibration is not None:
            self.store.add_note(sid, "calibration", bundle.calibration)
        if bundle.video is not None and bundle.video_suffix:
            out = self.video_dir / f"session-{sid}{bundle.video_suffix}"
            out.parent.mkdir(parents=True, exist_ok=True)
            out.write_bytes(bundle.video)
            self.store.add_note(sid, "video", {"path": str(out.resolve())})
            self.store.add_frames(sid, bundle.frames)
        for i, (event, origin, rulings) in enumerate(folded):
            self.store.append_event(sid, event, origin, rulings,
                                    i if origin == "source" else None)
        self.store.add_note(sid, "status", {"status": "finished"})
        return sid

    def close(self) -> None:
        with self._lock:
            for runner in self.runners.values():
                runner.stop()
                runner.broadcaster.close()
            self.runners.clear()
