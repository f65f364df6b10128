"""Calibration on the simulator's independent renderer (referee.sim): a table with a rim, a
real lens, tilted cameras and 4.5 mm thick tiles whose raised tops shift under parallax; and
every planted set-up problem reported there with its size.

Known answers come from the simulator's camera model, not from calibration's own drawing.
"""

from __future__ import annotations

import numpy as np
import pytest

from calibration.accuracy import pack_of, planted_layouts, planted_misses
from calibration.intrinsics import Intrinsics
from calibration.pipeline import calibrate_still
from calibration.plane import TablePlane
from calibration.pose import camera_centre_mm, to_foot_mm
from referee.layout import castle_croquetnole_layout
from referee.sim.camera import Camera, CameraPose, Lens
from referee.sim.look import Look
from referee.sim.render import Renderer
from referee.sim.scene import Scene

TABLE_MM = (863.6, 863.6)
LAYOUT = castle_croquetnole_layout()


class _NoCoins:
    duration = 0.0

    def at(self, t: float) -> Scene:
        return Scene(coins=())


def _lens(camera: Camera) -> Intrinsics:
    return Intrinsics(camera.camera_matrix, camera.dist_coeffs.reshape(1, -1), camera.size)


def test_camera_position_and_parallax_from_the_plane() -> None:
    camera = Camera(1280, 720, Lens(k1=-0.08),
                    CameraPose(height_mm=1100, tilt_deg=25, azimuth_deg=30, yaw_deg=10))
    plane = TablePlane(camera.homography_mm_to_px(), _lens(camera))
    centre = camera_centre_mm(plane)
    assert centre is not None
    np.testing.assert_allclose(centre, camera.center_mm, atol=0.01)
    top_mm = np.array([[0.0, -254.0], [152.4, 50.8]])
    seen_px = camera.project_mm_to_px(top_mm, 9.0)  # a tower's top, 9 mm up
    seen_mm = plane.to_table_mm(seen_px)
    assert np.linalg.norm(seen_mm - top_mm, axis=1).max() > 2.0  # parallax is real
    np.testing.assert_allclose(to_foot_mm(seen_mm, 9.0, centre), top_mm, atol=0.01)
    assert camera_centre_mm(TablePlane(plane.homography)) is None  # no lens, no position


# 0: overhead; 3: faint rim; 5: tilted 12°; 28: a dark rim on a floor as light (noisy edges)
@pytest.mark.parametrize("seed", [0, 3, 5, 28])
def test_rendered_table_corners_and_tiles(seed: int) -> None:
    look = Look() if seed == 0 else Look.random(seed)
    renderer = Renderer(LAYOUT, look, (1280, 720))
    image = renderer.frame(_NoCoins(), 0)
    camera = renderer.camera
    pack = "dark" if seed == 5 else "piecepackr"  # look 5 inks the dark "piecepack suits"
    profile = calibrate_still(image, LAYOUT, TABLE_MM, intrinsics=_lens(camera),
                              tile_thickness_mm=look.tiles.thickness_mm, pack=pack)
    truth_px = camera.project_mm_to_px(np.array(LAYOUT.table))
    assert np.linalg.norm(profile.corners_px - truth_px, axis=1).max() < 1.0
    errors = {n: float(np.hypot(*np.subtract(profile.layout.pieces[n].center_mm,
                                             LAYOUT.pieces[n].center_mm))) for n in LAYOUT.pieces}
    assert max(errors.values()) < 1.0, errors
    assert profile.problems == []
    assert profile.camera_mm is not None
    np.testing.assert_allclose(profile.camera_mm, camera.center_mm, rtol=0.02, atol=10.0)


@pytest.mark.parametrize("seed", [1, 2])  # the first two random looks
@pytest.mark.parametrize("which", [0, 1])  # 0: missing, off, narrow, wrong suit; 1: reversed
def test_planted_problems_reported_with_their_sizes_on_the_renderer(seed: int,
                                                                    which: int) -> None:
    look = Look.random(seed)
    layout, expected = planted_layouts(LAYOUT)[which]
    renderer = Renderer(layout, look, (1280, 720))
    profile = calibrate_still(renderer.frame(_NoCoins(), 0), LAYOUT, TABLE_MM,
                              intrinsics=_lens(renderer.camera), pack=pack_of(look),
                              tile_thickness_mm=look.tiles.thickness_mm)
    assert planted_misses(profile.problems, expected) == []
    texts = " / ".join(p.text for p in profile.problems)
    if which == 0:
        assert "tower-3 shows suns" in texts and "door-2-b is missing" in texts
    else:
        assert "numbered the wrong way round" in texts and "tower-2 shows arms" in texts
