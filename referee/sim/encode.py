"""Video files for the renderer: H.264 in .mp4 (through the ffmpeg that `imageio-ffmpeg` ships)
and Motion-JPEG in .avi (OpenCV's own writer).

Why H.264: OpenCV's bundled writer has only MPEG-4 part 2 (`mp4v`) with no rate control, which
spends 0.25–0.7 MB a second on a webcam-noisy 720p30 clip; libx264 at CRF 23 keeps the picture
(the noise is the camera's, not the codec's) at a fraction of that, and OpenCV's own FFmpeg
decodes it, so vision reads the clips with `cv2.VideoCapture` as before.
"""

from __future__ import annotations

from collections.abc import Generator
from pathlib import Path
from typing import Any

import cv2
import numpy as np

H264_CRF = 23
"""x264's constant rate factor: 0 lossless, 23 its default, +6 halves the bit rate."""
H264_PRESET = "medium"


class VideoWriter:
    """Writes BGR uint8 frames of one size to `path`: .mp4 → H.264, .avi → MJPG."""

    def __init__(self, path: str | Path, size: tuple[int, int], fps: float,
                 crf: int = H264_CRF) -> None:
        self.path = Path(path)
        self.size = size
        self._cv: cv2.VideoWriter | None = None
        self._ffmpeg: Generator[Any, Any, None] | None = None
        if self.path.suffix.lower() == ".avi":
            self._cv = cv2.VideoWriter(str(self.path), cv2.VideoWriter_fourcc(*"MJPG"), fps, size)
            if not self._cv.isOpened():
                raise OSError(f"cannot write MJPG video to {self.path}")
            return
        if self.path.suffix.lower() != ".mp4":
            raise ValueError(f"{self.path}: write .mp4 (H.264) or .avi (MJPG)")
        import imageio_ffmpeg  # the bundled ffmpeg binary, only needed for .mp4

        self._ffmpeg = imageio_ffmpeg.write_frames(
            str(self.path), size, pix_fmt_in="bgr24", pix_fmt_out="yuv420p", fps=fps,
            codec="libx264", quality=None, macro_block_size=2, ffmpeg_log_level="error",
            output_params=["-crf", str(crf), "-preset", H264_PRESET, "-threads", "1",
                           "-movflags", "+faststart"])
        self._ffmpeg.send(None)  # start ffmpeg

    def write(self, frame: np.ndarray) -> None:
        """Append one BGR frame of the writer's size."""
        if frame.shape != (self.size[1], self.size[0], 3) or frame.dtype != np.uint8:
            raise ValueError(f"expected a {self.size[0]}x{self.size[1]} BGR uint8 frame, got "
                             f"{frame.shape} {frame.dtype}")
        if self._cv is not None:
            self._cv.write(frame)
        elif self._ffmpeg is not None:
            self._ffmpeg.send(np.ascontiguousarray(frame))

    def close(self) -> None:
        """Finish the file (ffmpeg writes its index here)."""
        if self._cv is not None:
            self._cv.release()
            self._cv = None
        if self._ffmpeg is not None:
            self._ffmpeg.close()
            self._ffmpeg = None

    def __enter__(self) -> VideoWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
