"""The vision sources of a session: a recorded video (paced, paused, seeked; vision runs once)
and a camera that vanishes (the session pauses, reconnects and invents no event)."""

from __future__ import annotations

import itertools
import json
import math
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from referee.events import Event, read_events
from referee.session import Referee
from referee.store import SessionStore
from referee.vision.capture import CameraLost, Frame, VideoError
from referee.vision.source import CameraSource, VideoFrames, VideoSource

ROOT = Path(__file__).resolve().parents[2]
CLIP = ROOT / "sample_videos" / "gate-run" / "video.mp4"
TRUTH = ROOT / "sample_videos" / "gate-run" / "events.jsonl"
FPS = 10.0
FRAMES = 50


def wait_for(check: Callable[[], bool], timeout: float = 20.0) -> None:
    end = time.monotonic() + timeout
    while not check():
        if time.monotonic() > end:
            raise AssertionError("timed out")
        time.sleep(0.01)


@pytest.fixture(scope="module")
def profile(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """A calibration profile made by `referee calibrate` from the gate-run clip."""
    from referee.cli import main

    out = tmp_path_factory.mktemp("cal") / "profile.json"
    assert main([
        "calibrate", str(CLIP), "--layout", "castle-croquetnole", "--out", str(out)]) == 0
    return json.loads(out.read_text())  # type: ignore[no-any-return]


@pytest.fixture(scope="module")
def small_video(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A 5 s, 10 fps video whose frame n shows the number n (grey level 5 n)."""
    path = tmp_path_factory.mktemp("video") / "small.mp4"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"mp4v"), FPS, (64, 48))
    for n in range(FRAMES):
        writer.write(np.full((48, 64, 3), 5 * n, np.uint8))
    writer.release()
    return path


class ScriptedPipeline:
    """Stands in for vision behind the source (the source's own logic is under test): the
    gate-run's true events, each given out by the frame at which its flick settles."""

    tracker = None

    def __init__(self, events: list[Event]) -> None:
        self.by_frame: dict[int, list[Event]] = {}
        flick: list[Event] = []
        for e in events:
            flick.append(e)
            if e.type == "settled":
                self.by_frame.setdefault(math.ceil(e.t * FPS) + 2, []).extend(flick)
                flick = []
        self.seen: list[int] = []

    def process(self, frame: Frame) -> list[Event]:
        self.seen.append(frame.index)
        return self.by_frame.get(frame.index, [])

    def finish(self, t: float) -> list[Event]:
        return []


class ScriptedVideo(VideoSource):
    def __init__(self, path: Path, calibration: dict[str, Any], speed: float) -> None:
        super().__init__(path, calibration, speed)
        self.script = ScriptedPipeline(read_events(TRUTH))

    def _pipeline(self, size: tuple[int, int], fps: float,
                  coins: dict[str, tuple[float, float]] | None = None) -> Any:
        return self.script


@pytest.fixture
def ref(tmp_path: Path) -> Iterator[Referee]:
    store = SessionStore(tmp_path / "s.sqlite", durable=False)
    referee = Referee(store)
    yield referee
    referee.close()
    store.close()


def test_a_video_replays_seeks_back_and_stores_nothing_twice(
        ref: Referee, small_video: Path, profile: dict[str, Any]) -> None:
    truth = read_events(TRUTH)
    src = ScriptedVideo(small_video, profile, speed=20)
    runner = ref.new_session("castle-croquetnole", {}, src, calibration=profile)
    wait_for(lambda: runner.status == "finished")
    assert [e.event for e in ref.store.events(runner.id)] == truth
    assert ref.store.frames(runner.id) == [(n, n / FPS) for n in range(FRAMES)]
    assert src.script.seen == list(range(FRAMES)), "vision saw every frame once, in order"
    assert runner.latest_jpeg and runner.latest_jpeg[:2] == b"\xff\xd8"
    final = runner.summary()
    assert final["players"]["1"]["knight"]["next"] == "door-2"

    runner.control("seek", 3.0)  # back: the second flick is undone, then comes again
    assert runner.cursor == 4 and runner.summary() != final
    wait_for(lambda: runner.status == "finished" and runner.at_head)
    assert [e.event for e in ref.store.events(runner.id)] == truth
    assert runner.summary() == final
    assert src.script.seen == list(range(FRAMES)), "behind its frontier vision is not rerun"


def test_a_seek_forward_runs_vision_over_every_skipped_frame(
        ref: Referee, small_video: Path, profile: dict[str, Any]) -> None:
    src = ScriptedVideo(small_video, profile, speed=1)
    src.pause()
    runner = ref.new_session("castle-croquetnole", {}, src, calibration=profile)
    runner.control("seek", 3.0)
    wait_for(lambda: len(src.script.seen) >= 30 and runner.head == 4, timeout=10)
    time.sleep(0.3)  # without waiting 3 s of video; frame 30 is at 3.0 s: it waits for play
    assert src.script.seen == list(range(30)) and runner.head == 4
    runner.control("speed", 50)
    runner.control("resume")
    wait_for(lambda: runner.status == "finished")
    assert [e.event for e in ref.store.events(runner.id)] == read_events(TRUTH)


def test_a_restarted_video_session_goes_on_without_duplicates(
        tmp_path: Path, small_video: Path, profile: dict[str, Any]) -> None:
    store = SessionStore(tmp_path / "r.sqlite", durable=False)
    first = Referee(store)
    src = ScriptedVideo(small_video, profile, speed=10)
    runner = first.new_session("castle-croquetnole", {}, src, calibration=profile)
    wait_for(lambda: runner.head >= 4)
    first.close()  # as if killed: the store has what it has
    kept = len(store.events(runner.id))
    second = Referee(store)
    again = ScriptedVideo(small_video, profile, speed=10)
    sid = second.find_resumable(again)
    assert sid == runner.id
    resumed = second.open(sid, again)
    wait_for(lambda: resumed.status == "finished")
    assert kept >= 4
    assert [e.event for e in store.events(sid)] == read_events(TRUTH)
    second.close()
    store.close()


def test_video_frames_by_number(small_video: Path) -> None:
    frames = VideoFrames(small_video)
    for n in (7, 8, 3, 49, 0):
        jpeg = frames.jpeg(n)
        assert jpeg is not None
        image = cv2.imdecode(np.frombuffer(jpeg, np.uint8), cv2.IMREAD_GRAYSCALE)
        assert abs(float(image.mean()) - 5 * n) < 4, n
    assert frames.jpeg(FRAMES + 5) is None
    half = frames.jpeg(4, width=32)
    assert half is not None
    assert cv2.imdecode(np.frombuffer(half, np.uint8), cv2.IMREAD_COLOR).shape[:2] == (24, 32)
    frames.close()


# ------------------------------------------------------------------------------ the camera


class FakeCamera:
    """Gives the frames of the gate-run clip from `first` to `last`, then either fails like a
    pulled USB cable or goes silent (`hang`)."""

    def __init__(self, first: int, last: int, then: str, release: threading.Event) -> None:
        self.first, self.last, self.then, self.release = first, last, then, release
        self.size, self.fps = (1280, 720), 30.0

    def __iter__(self) -> Iterator[Frame]:
        cap = cv2.VideoCapture(str(CLIP))
        try:
            for n in range(self.last + 1):
                ok, image = cap.read()
                assert ok
                if n >= self.first:
                    yield Frame(n - self.first, (n - self.first) / self.fps, image)
        finally:
            cap.release()
        if self.then == "hang":
            self.release.wait(30)
        raise CameraLost("camera 0: stopped giving frames")

    def close(self) -> None:
        pass


def test_a_vanished_camera_pauses_reconnects_and_invents_no_event(
        ref: Referee, tmp_path: Path, profile: dict[str, Any]) -> None:
    release = threading.Event()
    plan: list[Any] = [FakeCamera(0, 9, "fail", release), CameraLost("camera 0: not found"),
                       FakeCamera(10, 19, "hang", release), FakeCamera(20, 24, "fail", release)]
    opened: list[int] = []

    def open_camera(index: int) -> FakeCamera:
        opened.append(index)
        step = plan.pop(0) if plan else CameraLost("camera 0: not found")
        if isinstance(step, Exception):
            raise step
        return step  # type: ignore[no-any-return]

    video = tmp_path / "videos" / "live.mp4"
    src = CameraSource(0, profile, record_to=video, open_camera=open_camera,
                       frame_timeout_s=1.0)
    runner = ref.new_session("castle-croquetnole", {}, src, calibration=profile)
    runner.reconnect_s = 0.05
    try:
        wait_for(lambda: [n["data"]["status"] for n in ref.store.notes(runner.id, "status")]
                 .count("camera lost") >= 3, timeout=60)
    finally:
        release.set()
        runner.stop()
    statuses = [n["data"]["status"] for n in ref.store.notes(runner.id, "status")]
    assert statuses[:6] == ["running", "camera lost", "running", "camera lost", "running",
                            "camera lost"]
    errors = [n["data"].get("error", "") for n in ref.store.notes(runner.id, "status")
              if n["data"]["status"] == "camera lost"]
    assert "stopped giving frames" in errors[0] and "no frame for 1 s" in errors[1]
    # The coins never moved: the session's start (where each coin rests), nothing after
    # any reconnect.
    assert [(e.event.type, e.t) for e in ref.store.events(runner.id)] == [("settled", 0.0)]
    frames = ref.store.frames(runner.id)
    assert [f for f, _ in frames] == list(range(25))
    assert all(b > a for (_, a), (_, b) in itertools.pairwise(frames))
    assert ref.store.session(runner.id).video == str(video)
    cap = cv2.VideoCapture(str(video))
    assert int(cap.get(cv2.CAP_PROP_FRAME_COUNT)) == 25, "every frame recorded, in one file"
    cap.release()
    recent = src.frame_jpeg(24)
    assert recent is not None and recent[:2] == b"\xff\xd8", "the last seconds, for disputes"
    assert src.frame_jpeg(24, 320) is None and src.frame_jpeg(99) is None
    assert len(opened) >= 4 and set(opened) == {0}  # 1 start + 3 tries to reopen, or more


def test_a_recording_survives_kill_9_and_reads_while_written(tmp_path: Path) -> None:
    import subprocess
    import sys

    video = tmp_path / "live.mp4"
    script = (
        "import os, sys, time, numpy as np\n"
        "from referee.vision.source import Recorder\n"
        f"r = Recorder({str(video)!r}, 30.0, (320, 240))\n"
        "for n in range(90):\n"
        "    r.write(np.full((240, 320, 3), n * 2, np.uint8))\n"
        "r._proc.stdin.flush()\n"
        "print('written', flush=True)\n"
        "time.sleep(60)\n")
    proc = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE,
                            cwd=str(ROOT))
    assert proc.stdout is not None and proc.stdout.readline().strip() == b"written"

    def readable(n: int) -> bool:
        frames = VideoFrames(video)
        try:
            return frames.jpeg(n) is not None
        except VideoError:
            return False  # ffmpeg has not written its header yet
        finally:
            frames.close()

    wait_for(lambda: readable(29), timeout=20)  # while it is written
    proc.kill()  # SIGKILL: the referee dies, ffmpeg finishes the file
    proc.wait()
    proc.stdout.close()
    wait_for(lambda: readable(89), timeout=20)
    frames = VideoFrames(video)
    image = frames.image(60)
    assert image is not None and abs(float(image.mean()) - 120) < 6
    frames.close()


def test_a_resumed_live_session_records_a_new_part_numbered_on(
        tmp_path: Path, profile: dict[str, Any]) -> None:
    release = threading.Event()
    store = SessionStore(tmp_path / "live.sqlite", durable=False)
    first, second = tmp_path / "v1.mp4", tmp_path / "v2.mp4"
    try:
        before = Referee(store)
        src = CameraSource(0, profile, record_to=first, frame_timeout_s=30,
                           open_camera=lambda i: FakeCamera(0, 9, "hang", release))
        runner = before.new_session("castle-croquetnole", {}, src, calibration=profile)
        wait_for(lambda: src._frames == 10, timeout=60)
        before.close()  # as if the referee died: a new one resumes the session
        kept = len(store.frames(runner.id))  # a frame in flight may not have been stored
        assert 8 <= kept <= 10
        again = CameraSource(0, profile, record_to=second, frame_timeout_s=30,
                             open_camera=lambda i: FakeCamera(10, 19, "hang", release))
        after = Referee(store)
        sid = after.find_resumable(again)
        assert sid == runner.id
        after.open(sid, again)
        wait_for(lambda: again._frames == kept + 10, timeout=60)
        after.close()
    finally:
        release.set()
    assert store.videos(sid) == [(0, str(first)), (kept, str(second))]
    stored = store.frames(sid)
    assert [f for f, _ in stored] == list(range(len(stored)))  # numbered on, no gap
    assert kept + 9 <= len(stored) <= kept + 10
    assert all(b > a for (_, a), (_, b) in itertools.pairwise(stored)), str(stored)
    assert store.video_frame(sid, kept + 5) == (str(second), 5)
    assert store.video_frame(sid, 4) == (str(first), 4)
    frames = VideoFrames(second)
    assert frames.jpeg(5) is not None and frames.jpeg(10) is None
    frames.close()
    # The session's start (where each coin rests), and nothing from the resumed part.
    assert [(e.event.type, e.t) for e in store.events(sid)] == [("settled", 0.0)]
    store.close()
