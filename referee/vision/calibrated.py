"""Vision's view of a calibration profile: the pixel mapping and the fitted layout."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING

import cv2
import numpy as np

from referee.vision.detect import PixelMapping

if TYPE_CHECKING:
    from referee.vision.pipeline import Pipeline


def mapping_from_profile(profile) -> PixelMapping:
    """Pixels ↔ table mm from a `calibration.profile.CalibrationProfile` (and the lens centre
    and the tiles' thickness, for the parallax of raised faces)."""
    plane = profile.plane
    camera = None if profile.camera_mm is None else np.asarray(profile.camera_mm, float)
    if profile.tile_thickness_mm > 0:
        return PixelMapping(plane.to_table_mm, plane.to_pixels, camera,
                            profile.tile_thickness_mm)
    return PixelMapping(plane.to_table_mm, plane.to_pixels, camera)


def mapping_from_camera(camera) -> PixelMapping:
    """The exact mapping of a known camera (the simulator's `referee.sim.camera.Camera`, or any
    object with `undistort_px`, `homography_mm_to_px`, `project_mm_to_px` and `center_mm`):
    vision measured without calibration error, to isolate vision's own."""
    inverse = np.linalg.inv(camera.homography_mm_to_px(0.0))

    def to_mm(points_px: np.ndarray) -> np.ndarray:
        flat = camera.undistort_px(np.asarray(points_px, float)).reshape(-1, 1, 2)
        return cv2.perspectiveTransform(flat, inverse).reshape(-1, 2)

    def to_px(points_mm: np.ndarray) -> np.ndarray:
        return camera.project_mm_to_px(np.asarray(points_mm, float))

    return PixelMapping(to_mm, to_px, camera.center_mm)


def pipeline_for(profile, size: tuple[int, int], fps: float,
                 coins: Mapping[str, tuple[float, float]] | None = None,
                 starts_session: bool = True) -> Pipeline:
    """Vision for a camera calibrated by `profile` (a `CalibrationProfile`): its mapping and
    layout, the coins' faces it learned and the tiles it fitted, as `referee analyze`,
    replay and live play run it."""
    from calibration.face_reader import CoinFaces
    from calibration.verify import TileCheck
    from referee.vision.pipeline import Pipeline

    return Pipeline(mapping_from_profile(profile), profile.layout, size, fps, coins=coins,
                    faces=CoinFaces.from_profile(profile),
                    tiles=TileCheck.from_profile(profile), starts_session=starts_session)


def load(path: str | Path):
    """The profile at `path` (ProfileError lists every problem in it)."""
    from calibration.profile import load_profile

    return load_profile(path)
