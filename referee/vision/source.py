"""Session sources backed by the vision pipeline: a recorded video or a live camera.

They implement `referee.session.SessionSource`: each frame read goes through the one
`Pipeline` (the same for live and replay); items carry the frame's number and time, now and
then a JPEG of the image with what vision sees (coins and their recent tracks, in table mm) for
the web page, and every event vision found with its index, so a restarted session resumes after
the last stored event.

A video replays at real time × speed, pauses and seeks.  Vision must see every frame in order,
so it runs once, at the *frontier*; what it found (events by the frame that produced them,
coin positions per frame) is kept, and playing behind the frontier after a seek back re-reads
that record and the video's images instead of running vision again.  A seek forward runs vision
over the skipped frames as fast as it can: nothing is skipped.  When vision is slower than the
clock (a large video on a slow machine) the clock waits for it rather than running ahead.

A camera records every frame it gives into a video file (named in `describe()["video"]`, so the
session can be replayed and disputed with its clip); as that file cannot be read before it is
closed, the camera also keeps its last `RECENT_S` seconds as small JPEGs for the dispute view.
A camera that vanishes — an error, or no frame for `frame_timeout_s` — raises
`SourceUnavailable`; the runner pauses and calls `reopen()` until it is back.  A flick the
camera did not see to its end is dropped, not guessed, and after a reconnect the coins are
found again where they last rested: nothing is invented.
"""

from __future__ import annotations

import contextlib
import logging
import math
import queue
import subprocess
import threading
import time
from array import array
from collections import OrderedDict
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from referee.events import Event
from referee.session import PacedClock, SourceItem, SourceUnavailable
from referee.vision.calibrated import pipeline_for
from referee.vision.capture import Camera, CameraLost, Frame, VideoError, VideoFile
from referee.vision.pipeline import Pipeline, start_spots

JPEG_EVERY_S = 0.2
"""How often the web page gets a new camera image."""
JPEG_QUALITY = 70
TRACK_S = 1.5
"""How much of each coin's recent path the camera overlay draws."""
LAG_S = 0.5
"""When vision falls this far behind the replay clock, the clock waits for it."""
FRAME_TIMEOUT_S = 3.0
"""A camera that gives no frame for this long has vanished."""
RECENT_S = 30.0
"""A camera keeps its last seconds of frames as small JPEGs: the file it records cannot be
read before it is closed, and disputes are about the last flicks."""
RECENT_WIDTH = 640


def _profile(calibration: dict[str, Any] | None):
    if calibration is None:
        raise VideoError("a calibration profile is needed: make one with `referee calibrate "
                         "VIDEO --layout castle-croquetnole --out P.json`, then give "
                         "--calibration P.json")
    from calibration.profile import profile_from_json

    return profile_from_json(calibration)


def encode_jpeg(image: np.ndarray, quality: int = JPEG_QUALITY) -> bytes | None:
    """A BGR image as JPEG bytes (None if OpenCV cannot encode it)."""
    ok, buf = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])
    return buf.tobytes() if ok else None


class CoinHistory:
    """Every frame's coin positions in table mm, compactly (NaN where a coin is not seen), for
    the camera overlay: coins now and the paths of the last `TRACK_S` seconds."""

    def __init__(self, coins: list[str], fps: float) -> None:
        self.coins = coins
        self.fps = fps
        self._xy = array("f")

    def __len__(self) -> int:
        return len(self._xy) // (2 * len(self.coins))

    def append(self, pipeline: Pipeline) -> None:
        tracks = pipeline.tracker.tracks if pipeline.tracker is not None else {}
        for coin in self.coins:
            track = tracks.get(coin)
            if track is None or track.hidden:
                self._xy.extend((math.nan, math.nan))
            else:
                self._xy.extend(float(v) for v in track.position_mm)

    def overlay(self, frame: int) -> dict[str, Any]:
        """{"coins": {name: [x, y]}, "tracks": {name: [[x, y], ...]}} at `frame`."""
        n = len(self.coins)
        lo = max(0, frame - int(TRACK_S * self.fps))
        coins: dict[str, list[float]] = {}
        tracks: dict[str, list[list[float]]] = {}
        for k, coin in enumerate(self.coins):
            pts = []
            for f in range(lo, frame + 1):
                x, y = self._xy[2 * (f * n + k)], self._xy[2 * (f * n + k) + 1]
                if not math.isnan(x) and (not pts or pts[-1] != [round(x, 1), round(y, 1)]):
                    pts.append([round(x, 1), round(y, 1)])
            x, y = self._xy[2 * (frame * n + k)], self._xy[2 * (frame * n + k) + 1]
            if not math.isnan(x):
                coins[coin] = [round(x, 1), round(y, 1)]
            if len(pts) >= 2 and math.dist(pts[0], pts[-1]) + math.dist(pts[0], pts[
                    len(pts) // 2]) > 3.0:
                tracks[coin] = pts
        return {"coins": coins, "tracks": tracks}


class VideoFrames:
    """JPEG images of a video's frames by number, for the dispute view and for replay behind
    vision's frontier: one decoder, read forward where it can, a small cache; thread-safe."""

    def __init__(self, path: str | Path, cache: int = 96) -> None:
        self.path = str(path)
        self._lock = threading.Lock()
        self._cap: cv2.VideoCapture | None = None
        self._pos = 0
        self._cache: OrderedDict[tuple[int, int], bytes] = OrderedDict()
        self._size = cache
        self.count = 0

    def _open(self) -> cv2.VideoCapture:
        if self._cap is None:
            cap = cv2.VideoCapture(self.path)
            if not cap.isOpened():
                raise VideoError(f"{Path(self.path).name}: not a video OpenCV can read")
            self._cap, self._pos = cap, 0
            self.count = int(cap.get(cv2.CAP_PROP_FRAME_COUNT))
        return self._cap

    def image(self, frame: int) -> np.ndarray | None:
        """Frame `frame` decoded (None past the end)."""
        with self._lock:
            return self._image(frame)

    def _image(self, frame: int) -> np.ndarray | None:
        cap = self._open()
        if frame < self._pos or frame - self._pos > 60:
            cap.set(cv2.CAP_PROP_POS_FRAMES, frame)
            self._pos = frame
        while self._pos < frame:
            if not cap.grab():
                return None
            self._pos += 1
        ok, image = cap.read()
        if not ok or image is None:
            self._pos = frame  # unknown; re-seek next time
            cap.set(cv2.CAP_PROP_POS_FRAMES, frame)
            return None
        self._pos = frame + 1
        return image

    def jpeg(self, frame: int, width: int | None = None) -> bytes | None:
        """Frame `frame` as JPEG, scaled down to `width` pixels if given (None past the end)."""
        key = (frame, width or 0)
        with self._lock:
            if key in self._cache:
                self._cache.move_to_end(key)
                return self._cache[key]
            image = self._image(frame)
            if image is None:
                return None
            if width and image.shape[1] > width:
                h = round(image.shape[0] * width / image.shape[1])
                image = cv2.resize(image, (width, h), interpolation=cv2.INTER_AREA)
            data = encode_jpeg(image)
            if data is None:
                return None
            self._cache[key] = data
            while len(self._cache) > self._size:
                self._cache.popitem(last=False)
            return data

    def close(self) -> None:
        with self._lock:
            if self._cap is not None:
                self._cap.release()
                self._cap = None


class _VisionSource(PacedClock):
    can_seek = False

    def __init__(self, calibration: dict[str, Any] | None, speed: float = 1.0) -> None:
        super().__init__(speed)
        self.profile = _profile(calibration)
        self.coins = list(start_spots(self.profile.layout))

    def _pipeline(self, size: tuple[int, int], fps: float,
                  coins: dict[str, tuple[float, float]] | None = None,
                  starts_session: bool = True) -> Pipeline:
        return pipeline_for(self.profile, size, fps, coins, starts_session)


class VideoSource(_VisionSource):
    """A recorded video through vision, paced by a clock that pauses, seeks and changes speed."""

    kind = "video"
    can_seek = True

    def __init__(self, path: str | Path, calibration: dict[str, Any] | None,
                 speed: float = 1.0) -> None:
        super().__init__(calibration, speed)
        self.path = str(Path(path).resolve())
        self.video = VideoFile(path)
        self.fps = self.video.fps
        self.frames = VideoFrames(self.path)
        self._pipeline_: Pipeline | None = None
        self._reader: Iterator[Frame] | None = None
        self._done = False
        """Vision has seen the whole video (and closed its last flick)."""
        self._history = CoinHistory(self.coins, self.fps)
        self._found: list[tuple[int, Event]] = []
        """Every event vision found, in order (its index is its place here), with the frame
        whose processing produced it (the frame count for those closed at the end)."""
        self._play = 0
        """The next frame to play."""
        self._catch_up_to = -1.0
        """After a seek forward: frames before this time play at once."""
        self._last_jpeg_t = -1e9
        self._last_image: tuple[int, np.ndarray] | None = None
        """The frame vision saw last (its picture is sent without decoding it again)."""
        self.on_frame: Callable[[int], None] | None = None
        """Called with each frame's number as it arrives, before vision sees it (latency
        measurements)."""

    def describe(self) -> dict[str, Any]:
        return {"kind": self.kind, "path": self.path, "video": self.path,
                "fps": self.fps, "size": list(self.video.size),
                "note": self.video.cut_short() if self._done else None}

    @property
    def duration(self) -> float | None:
        return self.video.frame_count / self.fps if self.video.frame_count else None

    @property
    def frontier(self) -> int:
        """How many frames vision has seen."""
        return len(self._history)

    def found_at(self, index: int) -> int:
        """The number of the frame whose processing found event `index`."""
        return self._found[index][0]

    def seek(self, t: float) -> None:
        """Play from `t`: behind vision's frontier from its record, beyond it by running
        vision over every skipped frame first (events up to `t` all come, at once)."""
        t = max(0.0, float(t))
        if self.duration is not None:
            t = min(t, self.duration)
        with self._cond:
            target = math.ceil(t * self.fps - 1e-6)
            if target < self._play:
                self._play = target
            else:
                self._catch_up_to = t
            self._rebase(t)
            self._last_jpeg_t = -1e9
            self._generation += 1
            self._cond.notify_all()

    def _vision_step(self) -> None:
        """Run vision on the frame at the frontier (or close the last flick at the end)."""
        if self._pipeline_ is None:
            self._pipeline_ = self._pipeline(self.video.size, self.fps)
            self._reader = iter(self.video)
        assert self._reader is not None
        try:
            frame = next(self._reader)
        except StopIteration:
            last_t = (self.frontier - 1) / self.fps if self.frontier else 0.0
            self._found += [(self.frontier, e) for e in self._pipeline_.finish(last_t)]
            self._done = True
            return
        if self.on_frame is not None:
            self.on_frame(frame.index)
        if frame.index != self.frontier:  # a decoder that skipped or repeated a frame
            raise VideoError(f"{Path(self.path).name}: frame {frame.index} came where "
                             f"{self.frontier} was due")
        events = self._pipeline_.process(frame)
        self._history.append(self._pipeline_)
        self._found += [(frame.index, e) for e in events]
        self._last_image = (frame.index, frame.image)

    def items(self, start_index: int, start_t: float) -> Iterator[SourceItem]:
        with self._cond:
            self._rebase(max(start_t, self._base_t))
            self._play = min(self._play, math.ceil(self._base_t * self.fps - 1e-6))
            self._catch_up_to = max(self._catch_up_to, start_t)  # a restart: vision catches up
        emitted_to = 0  # events of self._found before this were yielded in this generation
        gen_seen = -1
        while True:
            with self._cond:
                if self._stopped:
                    return
                f, gen = self._play, self._generation
                catching_up = f / self.fps < self._catch_up_to
            if gen != gen_seen:
                if gen_seen != -1:
                    start_index = 0  # after a seek the runner matches what it stored
                gen_seen = gen
                emitted_to = next((i for i, (ef, _) in enumerate(self._found) if ef >= f),
                                  len(self._found))
            end = self._done and f >= self.frontier
            t = min(f, self.frontier) / self.fps
            if not catching_up and not end:
                if self.now() - t > LAG_S and f >= self.frontier:
                    self.start_at(t)  # vision is slower than the clock: the clock waits
                if not self.wait_until(t, gen):
                    continue
            if f >= self.frontier and not self._done:
                self._vision_step()
                if f >= self.frontier and not self._done:
                    continue
            if f < self.frontier:
                yield SourceItem(frame=(f, f / self.fps), generation=gen,
                                 **self._picture(f, catching_up))
            due = []
            while emitted_to < len(self._found) and self._found[emitted_to][0] <= f:
                if emitted_to >= start_index:
                    due.append(emitted_to)
                emitted_to += 1
            for k, index in enumerate(due):  # one frame's events: stored together
                yield SourceItem(event=self._found[index][1], index=index, generation=gen,
                                 more=k + 1 < len(due))
            with self._cond:
                if gen != self._generation:
                    continue  # a seek came while this frame was out: it plays again
                self._play = f + 1
            if end:
                return

    def _picture(self, f: int, catching_up: bool) -> dict[str, Any]:
        t = f / self.fps
        if catching_up or t - self._last_jpeg_t < JPEG_EVERY_S:
            return {}
        self._last_jpeg_t = t
        if self._last_image is not None and self._last_image[0] == f:
            jpeg = encode_jpeg(self._last_image[1])
        else:
            jpeg = self.frames.jpeg(f)
        return {"jpeg": jpeg, "overlay": self._history.overlay(f)}

    def reopen(self) -> None:
        """A file does not vanish mid-replay; nothing to do."""

    def stop(self) -> None:
        super().stop()
        self.frames.close()


class CameraSource(_VisionSource):
    """A USB webcam through vision; records every frame into `record_to`."""

    kind = "camera"

    def __init__(self, index: int, calibration: dict[str, Any] | None,
                 record_to: str | Path | None = None, *,
                 open_camera: Callable[[int], Any] = Camera,
                 frame_timeout_s: float = FRAME_TIMEOUT_S) -> None:
        super().__init__(calibration)
        self.index = index
        self.record_to = None if record_to is None else str(record_to)
        self.open_camera = open_camera
        self.frame_timeout_s = frame_timeout_s
        self._pipeline_: Pipeline | None = None
        self._history: CoinHistory | None = None
        self._emitted = 0
        self._frames = 0
        self._t0: float | None = None
        self._writer: Recorder | None = None
        self._size: tuple[int, int] | None = None
        self._last_jpeg_t = -1e9
        self.dropped_flicks = 0
        """Flicks in motion when the camera vanished: not refereed (nothing is guessed)."""
        self._recent: OrderedDict[int, bytes] = OrderedDict()
        self._recent_lock = threading.Lock()
        self._resume: dict[str, tuple[float, float]] | None = None
        self.first_frame = 0
        """The session's number for this source's first frame: a resumed session numbers on
        after the frames stored before (this source's recording starts with it)."""
        self.camera = self._open()

    def resume_at(self, positions: dict[str, Any]) -> None:
        """A resumed session: vision finds the coins where the referee last knew them at rest,
        not at the start spots."""
        self._resume = {c: (float(p[0]), float(p[1])) for c, p in positions.items()
                        if isinstance(p, list | tuple) and len(p) == 2} or None

    def frame_jpeg(self, frame: int, width: int | None = None) -> bytes | None:
        """One of the last `RECENT_S` seconds of frames, as a JPEG `RECENT_WIDTH` wide (None
        if it is older, or if another width is asked for)."""
        if width not in (None, RECENT_WIDTH):
            return None
        with self._recent_lock:
            return self._recent.get(frame)

    def _keep_recent(self, frame: Frame) -> None:
        h, w = frame.image.shape[:2]
        small = cv2.resize(frame.image, (RECENT_WIDTH, round(h * RECENT_WIDTH / w)),
                           interpolation=cv2.INTER_AREA) if w > RECENT_WIDTH else frame.image
        data = encode_jpeg(small)
        if data is None:
            return
        keep = max(1, int(RECENT_S * float(self.camera.fps)))
        with self._recent_lock:
            self._recent[frame.index] = data
            while len(self._recent) > keep:
                self._recent.popitem(last=False)

    def _open(self) -> Any:
        try:
            return self.open_camera(self.index)
        except CameraLost as exc:
            raise SourceUnavailable(str(exc)) from None

    def describe(self) -> dict[str, Any]:
        return {"kind": self.kind, "camera": self.index, "video": self.record_to}

    @property
    def duration(self) -> float | None:
        return None

    def now(self) -> float:
        return 0.0 if self._t0 is None else time.monotonic() - self._t0

    def _record(self, image: np.ndarray) -> None:
        if self.record_to is None:
            return
        h, w = image.shape[:2]
        if self._writer is None:
            Path(self.record_to).parent.mkdir(parents=True, exist_ok=True)
            self._size = (w, h)
            self._writer = Recorder(self.record_to, float(self.camera.fps), self._size)
        if (w, h) != self._size:  # a camera that came back at another size
            image = cv2.resize(image, self._size)
        self._writer.write(image)

    def items(self, start_index: int, start_t: float) -> Iterator[SourceItem]:
        camera = self.camera
        if self._pipeline_ is None:
            spots = {**start_spots(self.profile.layout), **self._resume} if self._resume \
                else None
            self._pipeline_ = self._pipeline(camera.size, camera.fps, coins=spots,
                                             starts_session=not self._resume)
            self._frames = max(self._frames, self.first_frame)
            self._history = CoinHistory(self.coins, camera.fps)
        feed = _FrameFeed(camera)
        try:
            while True:
                with self._cond:
                    if self._stopped:
                        return
                image = feed.get(self.frame_timeout_s)
                now = time.monotonic()
                if self._t0 is None:  # a resumed session goes on a frame after its last
                    self._t0 = now - (start_t + 1.0 / float(camera.fps) if start_t > 0 else 0.0)
                frame = Frame(self._frames, now - self._t0, image)
                self._frames += 1
                self._record(image)
                self._keep_recent(frame)
                events = self._pipeline_.process(frame)
                assert self._history is not None
                self._history.append(self._pipeline_)
                yield SourceItem(frame=(frame.index, frame.t), generation=self._generation,
                                 **self._picture(frame))
                first = self._emitted
                self._emitted += len(events)
                due = [(first + k, e) for k, e in enumerate(events) if first + k >= start_index]
                for k, (index, event) in enumerate(due):  # one frame's events, together
                    yield SourceItem(event=event, index=index, generation=self._generation,
                                     more=k + 1 < len(due))
        except SourceUnavailable:
            self._lost()
            raise
        finally:
            feed.stop()

    def _picture(self, frame: Frame) -> dict[str, Any]:
        if frame.t - self._last_jpeg_t < JPEG_EVERY_S or self._history is None:
            return {}
        self._last_jpeg_t = frame.t
        return {"jpeg": encode_jpeg(frame.image),
                "overlay": self._history.overlay(len(self._history) - 1)}

    def _lost(self) -> None:
        """The camera vanished: drop a flick not seen to its end; after the reconnect, vision
        finds the coins again where they last rested."""
        pipeline = self._pipeline_
        if pipeline is None or pipeline.tracker is None:
            self._pipeline_ = None
            return
        if pipeline.active:
            self.dropped_flicks += 1
        resting = {c: (float(t.position_mm[0]), float(t.position_mm[1]))
                   for c, t in pipeline.tracker.tracks.items()}
        spots = {**start_spots(self.profile.layout), **resting}
        self._pipeline_ = self._pipeline(self.camera.size, self.camera.fps, coins=spots,
                                         starts_session=False)
        self._pipeline_.up.update(pipeline.up)  # the faces up are still up

    def reopen(self) -> None:
        with contextlib.suppress(Exception):
            self.camera.close()
        self.camera = self._open()

    def stop(self) -> None:
        super().stop()
        with contextlib.suppress(Exception):
            self.camera.close()
        if self._writer is not None:
            self._writer.close()
            self._writer = None


RECORD_PRESET = "ultrafast"
"""x264's speed preset for recordings: the encoder shares the machine with live vision."""
RECORD_CRF = 23
"""x264's constant rate factor for recordings (0 lossless, +6 halves the bit rate).  A replay
of the recording finds the live run's events and paths (`python -m benchmarks.recording`):
CRF 20 triples the size to bring the paths 0.05 mm closer."""


def recording_command(exe: str, path: str, fps: float, size: tuple[int, int],
                      preset: str = RECORD_PRESET, crf: int = RECORD_CRF) -> list[str]:
    """The ffmpeg command a `Recorder` runs: raw BGR frames on stdin to a fragmented H.264
    MP4 (a keyframe a second), readable while written and after a crash."""
    return [exe, "-loglevel", "error", "-y", "-f", "rawvideo", "-pix_fmt", "bgr24",
            "-s", f"{size[0]}x{size[1]}", "-r", f"{fps:g}", "-i", "-", "-an",
            "-c:v", "libx264", "-preset", preset, "-crf", str(crf), "-pix_fmt", "yuv420p",
            "-g", str(max(1, round(fps))),
            "-movflags", "frag_keyframe+empty_moov+default_base_moof",
            "-flush_packets", "1", path]


class Recorder:
    """Writes a camera's frames to an MP4 that survives `kill -9` and can be read while it is
    written: H.264 in fragments of one second, by the ffmpeg of `imageio-ffmpeg` in its own
    process (which finishes the file when this one dies).  Without it, OpenCV's mp4v writer
    (readable only once closed)."""

    def __init__(self, path: str, fps: float, size: tuple[int, int]) -> None:
        self.path, self.size = path, size
        self._proc: subprocess.Popen[bytes] | None = None
        self._cv: cv2.VideoWriter | None = None
        try:
            import imageio_ffmpeg

            exe = imageio_ffmpeg.get_ffmpeg_exe()
        except (ImportError, RuntimeError):
            self._cv = cv2.VideoWriter(path, cv2.VideoWriter_fourcc(*"mp4v"), fps, size)
            return
        self._proc = subprocess.Popen(
            recording_command(exe, path, fps, size),
            stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def write(self, image: np.ndarray) -> None:
        if self._cv is not None:
            self._cv.write(image)
        elif self._proc is not None and self._proc.stdin is not None:
            try:
                self._proc.stdin.write(np.ascontiguousarray(image).tobytes())
            except BrokenPipeError:  # ffmpeg died: what it wrote stays readable
                logging.getLogger(__name__).error("recording %s stopped: ffmpeg died",
                                                  self.path)
                self._proc = None

    def close(self) -> None:
        if self._cv is not None:
            self._cv.release()
        if self._proc is not None:
            with contextlib.suppress(OSError):
                if self._proc.stdin is not None:
                    self._proc.stdin.close()
            try:
                self._proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self._proc.kill()


class _FrameFeed:
    """Reads a camera in its own thread, so a camera that hangs (no frame, no error) is noticed
    by a timeout instead of blocking the session."""

    def __init__(self, camera: Any) -> None:
        self._q: queue.Queue[np.ndarray | BaseException] = queue.Queue(maxsize=8)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, args=(camera,), daemon=True,
                                        name="camera-feed")
        self._thread.start()

    def _run(self, camera: Any) -> None:
        try:
            for frame in camera:
                while not self._stop.is_set():
                    try:
                        self._q.put(frame.image, timeout=0.2)
                        break
                    except queue.Full:
                        continue
                if self._stop.is_set():
                    return
            self._q.put(CameraLost("the camera stopped giving frames"))
        except BaseException as exc:  # CameraLost, or a driver error
            with contextlib.suppress(queue.Full):
                self._q.put(exc, timeout=1.0)

    def get(self, timeout: float) -> np.ndarray:
        try:
            item = self._q.get(timeout=timeout)
        except queue.Empty:
            raise SourceUnavailable(f"the camera gave no frame for {timeout:g} s") from None
        if isinstance(item, BaseException):
            raise SourceUnavailable(str(item) or type(item).__name__)
        return item

    def stop(self) -> None:
        self._stop.set()


def video_source(path: str, *, speed: float = 1.0,
                 calibration: dict[str, Any] | None = None) -> VideoSource:
    try:
        return VideoSource(path, calibration, speed)
    except (VideoError, ValueError) as exc:  # a calibration ProfileError is a ValueError
        from referee.cli import UsageError

        raise UsageError(str(exc)) from None


def camera_source(index: int, *, calibration: dict[str, Any] | None = None,
                  record_to: str | Path | None = None) -> CameraSource:
    try:
        return CameraSource(index, calibration, record_to)
    except (VideoError, ValueError, SourceUnavailable) as exc:
        from referee.cli import UsageError

        raise UsageError(str(exc)) from None
