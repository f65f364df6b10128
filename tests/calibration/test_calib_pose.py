"""Where the camera is, from the table plane alone: with a calibrated lens, and with an
assumed one (for the parallax of raised tops when the lens was never calibrated)."""

from __future__ import annotations

import numpy as np
import pytest

from calibration.plane import TablePlane
from calibration.pose import assumed_camera_centre_mm, to_foot_mm
from referee.sim.camera import Camera, CameraPose, Lens


@pytest.mark.parametrize("hfov, tilt", [(74.2, 2.7), (65.0, 7.0), (78.0, 0.5)])
def test_an_assumed_lens_puts_the_camera_near_enough_for_a_coin_s_parallax(
        hfov: float, tilt: float) -> None:
    camera = Camera(1280, 720, Lens(hfov_deg=hfov),
                    CameraPose(height_mm=1100.0, tilt_deg=tilt, azimuth_deg=290.0))
    plane = TablePlane(camera.homography_mm_to_px(0.0))
    found = assumed_camera_centre_mm(plane, (1280, 720))
    truth = camera.center_mm
    assert abs(found[2] / truth[2] - 1.0) < 0.2
    # A coin's top, 3.5 mm up, anywhere on the table: stood on its foot within 0.2 mm.
    tops = np.array([[x, y] for x in (-400.0, 0.0, 400.0) for y in (-400.0, 0.0, 400.0)])
    error = to_foot_mm(tops, 3.5, found) - to_foot_mm(tops, 3.5, truth)
    assert float(np.abs(error).max()) < 0.2
