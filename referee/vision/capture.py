"""Frame sources: a video file (recorded session) or a camera (live).  Only the clock differs.

A file's time is its frame's index over its frame rate; a camera's is a monotonic clock from
the start.  A file that cannot be opened or decoded raises `VideoError` with one clear line,
and one that ends before the frames its header gives (`VideoFile.cut_short`) says so; a
camera that vanishes raises `CameraLost`, so the session pauses and reconnects without
inventing events.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

SHORT_SHARE = 0.01
"""A video this much shorter than its header says is reported cut short."""


class VideoError(RuntimeError):
    """The video cannot be used (missing, unreadable, not a video, no frames)."""


class CameraLost(RuntimeError):
    """The camera stopped giving frames."""


@dataclass(frozen=True)
class Frame:
    index: int
    t: float
    """Seconds from the start of the session."""
    image: np.ndarray


class VideoFile:
    """Frames of a recorded video with their presentation times."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        if not self.path.is_file():
            raise VideoError(f"{self.path}: no such file")
        self._cap = cv2.VideoCapture(str(self.path))
        if not self._cap.isOpened():
            raise VideoError(f"{self.path}: not a video OpenCV can read")
        self.fps = float(self._cap.get(cv2.CAP_PROP_FPS)) or 30.0
        self.size = (int(self._cap.get(cv2.CAP_PROP_FRAME_WIDTH)),
                     int(self._cap.get(cv2.CAP_PROP_FRAME_HEIGHT)))
        self.frame_count = int(self._cap.get(cv2.CAP_PROP_FRAME_COUNT))
        if self.size[0] <= 0 or self.size[1] <= 0:
            raise VideoError(f"{self.path}: the video has no picture")
        self.frames_read = 0
        """How many frames the last pass over the file decoded."""

    def __iter__(self) -> Iterator[Frame]:
        self.frames_read = 0
        while True:
            ok, image = self._cap.read()
            if not ok or image is None:
                break
            yield Frame(self.frames_read, self.frames_read / self.fps, image)
            self.frames_read += 1
        if self.frames_read == 0:
            raise VideoError(f"{self.path}: no frame could be decoded (corrupt video?)")

    def cut_short(self) -> str | None:
        """After a pass: one line saying the video ended before the frames its header gives
        (a recording cut short, a damaged file), or None.  Containers whose count is an
        estimate may be off by a frame or a hundredth."""
        missing = self.frame_count - self.frames_read
        if missing <= max(1, round(SHORT_SHARE * self.frame_count)):
            return None
        return (f"{self.path}: the video ends after {self.frames_read} of the "
                f"{self.frame_count} frames its header gives, at "
                f"{self.frames_read / self.fps:.2f} s (cut short or damaged): the rest "
                f"could not be read")

    def first(self) -> Frame:
        """The first frame, without consuming the stream."""
        cap = cv2.VideoCapture(str(self.path))
        ok, image = cap.read()
        cap.release()
        if not ok or image is None:
            raise VideoError(f"{self.path}: no frame could be decoded (corrupt video?)")
        return Frame(0, 0.0, image)

    def close(self) -> None:
        self._cap.release()


class Camera:
    """A USB webcam; its frames are timed by a monotonic clock from the first frame."""

    def __init__(self, index: int, size: tuple[int, int] | None = None) -> None:
        self.index = index
        self._cap = cv2.VideoCapture(index)
        if not self._cap.isOpened():
            raise CameraLost(f"camera {index}: not found or busy")
        if size is not None:
            self._cap.set(cv2.CAP_PROP_FRAME_WIDTH, size[0])
            self._cap.set(cv2.CAP_PROP_FRAME_HEIGHT, size[1])
        self.fps = float(self._cap.get(cv2.CAP_PROP_FPS)) or 30.0
        self.size = (int(self._cap.get(cv2.CAP_PROP_FRAME_WIDTH)),
                     int(self._cap.get(cv2.CAP_PROP_FRAME_HEIGHT)))
        self._t0: float | None = None

    def __iter__(self) -> Iterator[Frame]:
        index = 0
        while True:
            ok, image = self._cap.read()
            if not ok or image is None:
                raise CameraLost(f"camera {self.index}: stopped giving frames")
            now = time.monotonic()
            if self._t0 is None:
                self._t0 = now
            yield Frame(index, now - self._t0, image)
            index += 1

    def close(self) -> None:
        self._cap.release()
