"""Session sources backed by the vision pipeline: a recorded video or a live camera.

They implement `referee.session.SessionSource`: each frame read goes through the one
`Pipeline` (the same for live and replay); items carry the frame's number and time, now and
then a JPEG of the image for the web page, and every event vision found with its index, so a
restarted session resumes after the last stored event.  A vanished camera raises
`SourceUnavailable`; nothing is invented while it is gone.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import cv2

from referee.session import PacedClock, SourceItem, SourceUnavailable
from referee.vision.calibrated import mapping_from_profile
from referee.vision.capture import Camera, CameraLost, VideoError, VideoFile
from referee.vision.pipeline import Pipeline

JPEG_EVERY_S = 0.2
"""How often the web page gets a new camera image."""


def _profile(calibration: dict[str, Any] | None):
    if calibration is None:
        raise VideoError("a calibration profile is needed (--calibration PROFILE.json)")
    from calibration.profile import profile_from_json

    return profile_from_json(calibration)


class _VisionSource(PacedClock):
    can_seek = False

    def __init__(self, calibration: dict[str, Any] | None, speed: float = 1.0) -> None:
        super().__init__(speed)
        self.profile = _profile(calibration)

    def _pipeline(self, size: tuple[int, int], fps: float) -> Pipeline:
        return Pipeline(mapping_from_profile(self.profile), self.profile.layout, size, fps)

    def _items(self, frames, pipeline: Pipeline, start_index: int, paced: bool
               ) -> Iterator[SourceItem]:
        emitted = 0
        last_jpeg = -1e9
        last_t = 0.0
        for frame in frames:
            if paced and not self.wait_until(frame.t, self.generation):
                return
            last_t = frame.t
            jpeg = None
            if frame.t - last_jpeg >= JPEG_EVERY_S:
                ok, buf = cv2.imencode(".jpg", frame.image, [cv2.IMWRITE_JPEG_QUALITY, 70])
                jpeg = buf.tobytes() if ok else None
                last_jpeg = frame.t
            yield SourceItem(frame=(frame.index, frame.t), jpeg=jpeg, overlay=self._overlay(
                pipeline))
            for event in pipeline.process(frame):
                if emitted >= start_index:
                    yield SourceItem(event=event, index=emitted)
                emitted += 1
        for event in pipeline.finish(last_t):
            if emitted >= start_index:
                yield SourceItem(event=event, index=emitted)
            emitted += 1

    @staticmethod
    def _overlay(pipeline: Pipeline) -> dict[str, Any] | None:
        if pipeline.tracker is None:
            return None
        return {"coins": {c: [round(v, 1) for v in t.position_mm]
                          for c, t in pipeline.tracker.tracks.items()}}

    def seek(self, t: float) -> None:
        """Recorded vision cannot jump: the pipeline must see every frame in order."""

    def reopen(self) -> None:
        """Nothing to reopen for a file."""


class VideoSource(_VisionSource):
    kind = "video"

    def __init__(self, path: str | Path, calibration: dict[str, Any] | None,
                 speed: float = 1.0) -> None:
        super().__init__(calibration, speed)
        self.path = str(Path(path).resolve())
        self.video = VideoFile(path)

    def describe(self) -> dict[str, Any]:
        return {"kind": self.kind, "path": self.path, "video": self.path,
                "fps": self.video.fps, "size": list(self.video.size)}

    @property
    def duration(self) -> float | None:
        return self.video.frame_count / self.video.fps if self.video.frame_count else None

    def items(self, start_index: int, start_t: float) -> Iterator[SourceItem]:
        pipeline = self._pipeline(self.video.size, self.video.fps)
        yield from self._items(iter(self.video), pipeline, start_index, paced=True)


class CameraSource(_VisionSource):
    kind = "camera"

    def __init__(self, index: int, calibration: dict[str, Any] | None,
                 record_to: str | Path | None = None) -> None:
        super().__init__(calibration)
        self.index = index
        self.record_to = None if record_to is None else str(record_to)
        self.camera = self._open()

    def _open(self) -> Camera:
        try:
            return Camera(self.index)
        except CameraLost as exc:
            raise SourceUnavailable(str(exc)) from None

    def describe(self) -> dict[str, Any]:
        return {"kind": self.kind, "camera": self.index, "video": self.record_to}

    @property
    def duration(self) -> float | None:
        return None

    def items(self, start_index: int, start_t: float) -> Iterator[SourceItem]:
        pipeline = self._pipeline(self.camera.size, self.camera.fps)
        writer = None
        if self.record_to:
            writer = cv2.VideoWriter(self.record_to, cv2.VideoWriter_fourcc(*"mp4v"),
                                     self.camera.fps, self.camera.size)

        def frames():
            try:
                for frame in self.camera:
                    if writer is not None:
                        writer.write(frame.image)
                    yield frame
            except CameraLost as exc:
                raise SourceUnavailable(str(exc)) from None
            finally:
                if writer is not None:
                    writer.release()

        yield from self._items(frames(), pipeline, start_index, paced=False)

    def reopen(self) -> None:
        self.camera = self._open()


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
    except (VideoError, ValueError) as exc:  # a calibration ProfileError is a ValueError
        from referee.cli import UsageError

        raise UsageError(str(exc)) from None
