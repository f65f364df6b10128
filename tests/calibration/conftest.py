"""Shared fixtures: the real calibration images in ../shared/realdata (skipped if absent)."""

from __future__ import annotations

from pathlib import Path

import pytest

REALDATA = Path(__file__).resolve().parents[2] / ".." / "shared" / "realdata"
OPENCV_SAMPLES = REALDATA.resolve() / "opencv-samples"


@pytest.fixture(scope="session")
def opencv_samples() -> Path:
    if not OPENCV_SAMPLES.is_dir():
        pytest.skip(f"real calibration images absent: {OPENCV_SAMPLES} (../shared/realdata "
                    "relative to the repository) is not there")
    return OPENCV_SAMPLES
