"""The still image calibration works on: an image file, or a video's first still second.

Why: CONTRACT.md lets `referee calibrate` take an image or a video.  In a video the first
second in which nothing moves (no hand setting up pieces, no camera shake) is averaged into one
frame: its median is a still image with less sensor noise than any single frame.
"""

from __future__ import annotations

import os
from collections import deque
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np


@dataclass(frozen=True)
class Still:
    """The image used, and where it came from (`t_s`: the still second's start, for videos)."""

    image: np.ndarray
    path: str
    kind: str  # "image" | "video"
    t_s: float = 0.0
    frames: int = 1


def read_still(path: str | Path, still_level: float = 2.0, max_seconds: float = 30.0) -> Still:
    """Read SOURCE; ValueError with a one-line reason when it is neither image nor video.

    A second is still when the mean absolute difference between consecutive frames stays below
    `still_level` grey levels.  If no second of the first `max_seconds` is still, the stillest
    one is used.
    """
    path = Path(path)
    if not path.is_file():
        raise ValueError(f"{path}: no such file")
    image = cv2.imread(str(path), cv2.IMREAD_COLOR)
    if image is not None:
        return Still(image, str(path), "image")
    os.environ.setdefault("OPENCV_FFMPEG_LOGLEVEL", "-8")  # errors are ours to report, once
    cap = cv2.VideoCapture(str(path))
    try:
        if not cap.isOpened():
            raise ValueError(f"{path}: cannot read as an image or a video")
        fps = cap.get(cv2.CAP_PROP_FPS)
        fps = fps if fps and np.isfinite(fps) and 0 < fps < 1000 else 30.0
        window = max(2, round(fps))
        recent: deque[np.ndarray] = deque(maxlen=window)
        motion: deque[float] = deque(maxlen=window - 1)
        best: tuple[float, float, list[np.ndarray]] | None = None  # level, start s, frames
        index = 0
        while index < max_seconds * fps:
            ok, frame = cap.read()
            if not ok:
                break
            if recent and frame.shape != recent[-1].shape:
                raise ValueError(f"{path}: frame {index} changes size")
            if recent:
                motion.append(float(cv2.absdiff(frame, recent[-1]).mean()))
            recent.append(frame)
            index += 1
            if len(recent) == window:
                level = max(motion)
                if best is None or level < best[0]:
                    best = (level, (index - window) / fps, list(recent))
                if level < still_level:
                    break
    finally:
        cap.release()
    if best is None and not recent:
        raise ValueError(f"{path}: cannot read as an image or a video (no frames decoded)")
    _level, t_s, chunk = best if best is not None else (0.0, 0.0, list(recent))
    still = np.median(np.stack(chunk), axis=0).astype(np.uint8)
    return Still(still, str(path), "video", t_s, len(chunk))
