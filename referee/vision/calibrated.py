"""Vision's view of a calibration profile: the pixel mapping and the fitted layout."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from referee.vision.detect import PixelMapping


def mapping_from_profile(profile) -> PixelMapping:
    """Pixels ↔ table mm from a `calibration.profile.CalibrationProfile` (and the lens centre,
    when intrinsics were calibrated, for the parallax of raised faces)."""
    plane = profile.plane
    camera = None if profile.camera_mm is None else np.asarray(profile.camera_mm, float)
    return PixelMapping(plane.to_table_mm, plane.to_pixels, camera)


def load(path: str | Path):
    """The profile at `path` (ProfileError lists every problem in it)."""
    from calibration.profile import load_profile

    return load_profile(path)
