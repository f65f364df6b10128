"""The session store: append-only, WAL, atomic, bundles; and a kill -9 in the middle of a
replayed session loses nothing."""

from __future__ import annotations

import io
import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
import urllib.request
import zipfile
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from referee.events import Event, Flick
from referee.rules import make_game, replay
from referee.session import Referee
from referee.store import SessionStore, StoreError, read_bundle
from tests.web.conftest import EXAMPLE, ROOT


@pytest.fixture
def store(tmp_path: Path) -> Iterator[SessionStore]:
    s = SessionStore(tmp_path / "s.sqlite", durable=False)
    yield s
    s.close()


def test_wal_and_append_only(store: SessionStore) -> None:
    assert store.journal_mode() == "wal"
    sid = store.create_session("castle-croquetnole", {}, {"kind": "test"})
    store.append_event(sid, Flick(1.0, "moons"), "source", [{"id": "0.0", "kind": "turn"}], 0)
    store.add_note(sid, "status", {"status": "running"})
    store.add_frames(sid, [(0, 0.0), (1, 0.04)])
    db = sqlite3.connect(store.path)
    for sql in ("UPDATE events SET t=5", "DELETE FROM events", "DELETE FROM rulings",
                "UPDATE sessions SET game='x'", "DELETE FROM notes", "DELETE FROM frames"):
        with pytest.raises(sqlite3.DatabaseError, match="append-only"):
            db.execute(sql)
    db.close()
    assert store.events(sid)[0].event == Flick(1.0, "moons")
    assert store.rulings(sid) == [{"id": "0.0", "kind": "turn", "seq": 0}]
    assert store.frames(sid) == [(0, 0.0), (1, 0.04)]


def test_refusals(store: SessionStore) -> None:
    sid = store.create_session("castle-croquetnole")
    store.append_event(sid, Flick(2.0, "moons"), "source")
    with pytest.raises(StoreError, match="backwards"):
        store.append_event(sid, Flick(1.0, "moons"), "source")
    with pytest.raises(StoreError, match="origin"):
        store.append_event(sid, Flick(3.0, "moons"), "camera")
    with pytest.raises(StoreError, match="no session"):
        store.events(99)
    with pytest.raises(StoreError, match="note"):
        store.add_note(sid, "gossip", {})
    assert len(store.events(sid)) == 1


def test_bundle_round_trip_with_video(tmp_path: Path, store: SessionStore,
                                      example_events: list[Event]) -> None:
    ref = Referee(store, video_dir=tmp_path / "videos")
    runner = ref.new_session("castle-croquetnole", {"own_gate_scores": "false"}, None,
                             calibration={"format": "piecepack-calibration"})
    for i, e in enumerate(example_events[:50]):
        runner.add_source_event(e, i)
    runner.declare(runner.summary()["turn"]["player"], "end_play")
    video = tmp_path / "rec.mp4"
    video.write_bytes(b"\x00\x00\x00\x18ftypmp42")
    store.add_note(runner.id, "video", {"path": str(video)})
    data = store.export_bundle(runner.id, start_t=1.0, end_t=4.0)
    with zipfile.ZipFile(io.BytesIO(data)) as zf:
        assert "clip.mp4" in zf.namelist()
    bundle = read_bundle(data)
    assert bundle.calibration == {"format": "piecepack-calibration"}
    new = ref.import_bundle(bundle)
    info = store.session(new)
    assert info.options == {"own_gate_scores": "false"} and info.status == "finished"
    assert info.video and Path(info.video).read_bytes() == video.read_bytes()
    assert Path(info.video).parent == tmp_path / "videos"
    assert [(e.origin, e.event) for e in store.events(new)] == \
        [(e.origin, e.event) for e in store.events(runner.id)]
    assert [r["text"] for r in store.rulings(new)] == [r["text"] for r in store.rulings(runner.id)]
    ref.close()


def test_bad_bundles(store: SessionStore) -> None:
    with pytest.raises(StoreError, match="zip"):
        read_bundle(b"nope")
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        zf.writestr("session.json", json.dumps({"format": "something else"}))
        zf.writestr("events.jsonl", "")
    with pytest.raises(StoreError, match="dispute-bundle"):
        read_bundle(buf.getvalue())
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        zf.writestr("session.json", json.dumps({"format": "piecepack-dispute-bundle",
                                                "game": "castle-croquetnole"}))
        zf.writestr("events.jsonl", '{"t":2,"type":"flick","coin":"moons"}\n'
                                    '{"t":1,"type":"flick","coin":"moons"}\n')
    with pytest.raises(StoreError, match="backwards"):
        read_bundle(buf.getvalue())


# --------------------------------------------------------------------------- kill -9


def _start_demo(db: Path, speed: float) -> tuple[subprocess.Popen[str], dict[str, object]]:
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "referee", "demo", "--db", str(db), "--port", "0",
         "--speed", str(speed), "--pin", "2468", "--events", str(EXAMPLE)],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env)
    assert proc.stdout is not None
    line = proc.stdout.readline()
    assert line, "the demo did not start"
    return proc, json.loads(line)


def _get(url: str) -> dict[str, object]:
    with urllib.request.urlopen(url, timeout=5) as resp:
        return json.loads(resp.read())  # type: ignore[no-any-return]


def _wait(check: Callable[[], bool], timeout: float = 60.0) -> None:
    end = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < end, "timed out"
        time.sleep(0.05)


def test_kill_9_during_a_replay_loses_nothing(tmp_path: Path,
                                              example_events: list[Event]) -> None:
    db = tmp_path / "crash.sqlite"
    proc, hello = _start_demo(db, speed=80)
    try:
        url = str(hello["url"])
        _wait(lambda: int(_get(url + "api/session")["events"]) >= 150)  # type: ignore[call-overload]
        shown = _get(url + "api/rulings")
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait(10)
        proc.stdout.close()  # type: ignore[union-attr]
    assert proc.returncode == -signal.SIGKILL

    store = SessionStore(db)
    sid = int(hello["session"])  # type: ignore[call-overload]
    stored = store.events(sid)
    assert len(stored) >= 150
    assert [e.event for e in stored] == example_events[:len(stored)]
    folded = replay(make_game("castle-croquetnole"), [e.event for e in stored]).rulings
    assert [r["text"] for r in store.rulings(sid)] == [r.text for r in folded]
    assert len(shown) <= len(folded)  # everything shown was stored first  # type: ignore[arg-type]
    store.close()

    proc, hello2 = _start_demo(db, speed=1000)
    try:
        assert hello2["resumed"] is True and hello2["session"] == sid
        url = str(hello2["url"])
        _wait(lambda: _get(url + "api/session")["status"] == "finished")
        final = _get(url + "api/state")
        assert final["over"] is True
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(10)
        proc.stdout.close()  # type: ignore[union-attr]

    store = SessionStore(db)
    stored = store.events(sid)
    assert [e.event for e in stored] == example_events, "nothing lost, nothing twice"
    expected = replay(make_game("castle-croquetnole"), example_events)
    assert [r["text"] for r in store.rulings(sid)] == [r.text for r in expected.rulings]
    assert json.loads(json.dumps(expected.state.summary())) == final
    store.close()


def test_a_flick_bundle_holds_only_its_clip(tmp_path: Path, store: SessionStore) -> None:
    import cv2
    import numpy as np

    video = tmp_path / "rec.mp4"
    writer = cv2.VideoWriter(str(video), cv2.VideoWriter_fourcc(*"mp4v"), 10.0, (64, 48))
    for n in range(50):
        writer.write(np.full((48, 64, 3), n * 5, np.uint8))
    writer.release()
    sid = store.create_session("castle-croquetnole")
    store.add_note(sid, "video", {"path": str(video)})
    with zipfile.ZipFile(io.BytesIO(store.export_bundle(sid, start_t=1.0, end_t=2.0))) as zf:
        (tmp_path / "clip.mp4").write_bytes(zf.read("clip.mp4"))
    cap = cv2.VideoCapture(str(tmp_path / "clip.mp4"))
    frames = int(cap.get(cv2.CAP_PROP_FRAME_COUNT))
    cap.release()
    assert 9 <= frames <= 12
    with zipfile.ZipFile(io.BytesIO(store.export_bundle(sid))) as zf:
        assert zf.getinfo("clip.mp4").file_size == video.stat().st_size


def test_a_batch_of_events_is_stored_all_or_none(store: SessionStore,
                                                 example_events: list[Event]) -> None:
    sid = store.create_session("castle-croquetnole")
    a, b, c = example_events[:3]
    seqs = store.append_events(sid, [(a, "source", [{"kind": "x"}], 0),
                                     (b, "source", [], 1)])
    assert seqs == [0, 1]
    late = type(c)(**{**c.__dict__, "t": -1.0})
    with pytest.raises(StoreError, match="backwards"):
        store.append_events(sid, [(c, "source", [], 2), (late, "source", [], 3)])
    with pytest.raises(StoreError, match="origin"):
        store.append_events(sid, [(c, "source", [], 2), (c, "gossip", [], 3)])
    assert [e.event for e in store.events(sid)] == [a, b]
    assert store.rulings(sid) == [{"kind": "x", "seq": 0}]
