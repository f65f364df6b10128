"""The simulated webcam: intrinsics from the field of view, pose, parallax and distortion."""

from __future__ import annotations

import math

import numpy as np
import pytest

from referee.sim.camera import Camera, CameraPose, Lens
from referee.sim.look import Look

TILTED = CameraPose(height_mm=1100.0, tilt_deg=15.0, azimuth_deg=30.0, yaw_deg=4.0,
                    target_mm=(20.0, -10.0))
WEBCAM = Lens(hfov_deg=72.0, k1=-0.22, k2=0.06, p1=0.001, p2=-0.0015, k3=0.0,
              principal_offset_px=(4.0, -3.0))


def test_straight_down_camera_sees_the_table_centre_in_the_middle_with_north_up() -> None:
    cam = Camera(1280, 720, Lens(hfov_deg=70.0), CameraPose(height_mm=1250.0))
    f = 640.0 / math.tan(math.radians(35.0))
    assert cam.focal_px == pytest.approx(f)
    px = cam.project_mm_to_px([(0.0, 0.0), (100.0, 0.0), (0.0, 100.0)])
    np.testing.assert_allclose(px[0], (640.0, 360.0), atol=1e-9)
    np.testing.assert_allclose(px[1], (640.0 + f * 100 / 1250, 360.0), atol=1e-9)  # east: right
    np.testing.assert_allclose(px[2], (640.0, 360.0 - f * 100 / 1250), atol=1e-9)  # north: up


def test_intrinsics_scale_with_resolution_for_one_field_of_view() -> None:
    small, big = Camera(1280, 720, WEBCAM), Camera(1920, 1080, WEBCAM)
    assert big.focal_px == pytest.approx(1.5 * small.focal_px)
    assert small.camera_matrix[0, 2] == pytest.approx(644.0)
    assert small.camera_matrix[1, 2] == pytest.approx(357.0)


def test_tilted_camera_keeps_its_target_at_the_principal_point() -> None:
    cam = Camera(1280, 720, Lens(), TILTED)
    k = cam.camera_matrix
    np.testing.assert_allclose(cam.project_mm_to_px(TILTED.target_mm)[0], k[:2, 2], atol=1e-9)
    c = cam.center_mm
    assert c[2] == pytest.approx(1100.0)
    assert math.hypot(c[0] - 20.0, c[1] + 10.0) == pytest.approx(1100.0 * math.tan(
        math.radians(15.0)))


def test_raised_points_project_like_their_parallax_on_the_cloth() -> None:
    cam = Camera(1280, 720, WEBCAM, TILTED)
    pts = np.array([(300.0, 200.0), (-350.0, -380.0), (0.0, 0.0)])
    for h in (3.0, 9.0, 12.0):
        direct = cam.project_mm_to_px(pts, h)
        via_cloth = cam.project_mm_to_px(cam.parallax_to_ground(pts, h))
        np.testing.assert_allclose(direct, via_cloth, atol=1e-6)
    shift = np.linalg.norm(cam.project_mm_to_px(pts, 12.0) - cam.project_mm_to_px(pts), axis=1)
    assert shift.max() > 2.0  # a tower top is pixels away from its foot under a tilt


def test_homography_is_the_undistorted_projection_at_each_height() -> None:
    cam = Camera(1920, 1080, WEBCAM, TILTED)
    pts = np.array([(-400.0, -400.0), (400.0, -400.0), (250.0, 380.0), (-10.0, 20.0)])
    for h in (0.0, 3.0, 9.0):
        hom = cam.homography_mm_to_px(h)
        q = np.column_stack([pts, np.ones(len(pts))]) @ hom.T
        ideal = q[:, :2] / q[:, 2:]
        np.testing.assert_allclose(cam.undistort_px(cam.project_mm_to_px(pts, h)), ideal,
                                   atol=1e-6)


def test_pixels_back_to_millimetres_invert_the_projection() -> None:
    cam = Camera(1280, 720, WEBCAM, TILTED)
    rng = np.random.default_rng(3)
    pts = rng.uniform(-420, 420, (200, 2))
    for h in (0.0, 3.0):
        back = cam.px_to_mm(cam.project_mm_to_px(pts, h), h)
        np.testing.assert_allclose(back, pts, atol=1e-6)


def test_a_straight_table_edge_bows_as_the_radial_model_predicts() -> None:
    """k1 moves a point at normalized radius r by k1·r³: the edge's sagitta follows."""
    k1 = -0.2
    cam = Camera(1280, 720, Lens(hfov_deg=70.0, k1=k1), CameraPose(height_mm=1250.0))
    f = cam.focal_px
    y_mm = -400.0
    xs = np.linspace(-600.0, 600.0, 7)
    px = cam.project_mm_to_px(np.column_stack([xs, np.full_like(xs, y_mm)]))
    xn, yn = xs / 1250.0, np.full_like(xs, -y_mm / 1250.0)  # camera y points south
    r2 = xn**2 + yn**2
    expected_rows = 360.0 + f * yn * (1 + k1 * r2)
    np.testing.assert_allclose(px[:, 1], expected_rows, atol=1e-6)
    sagitta = px[3, 1] - px[0, 1]
    assert sagitta > 10.0  # barrel distortion bends the edge's ends toward the centre


def test_ground_truth_json_has_the_calibration() -> None:
    truth = Camera(1280, 720, WEBCAM, TILTED).to_json()
    assert truth["size_px"] == [1280, 720]
    assert len(truth["dist_coeffs"]) == 5
    assert np.asarray(truth["homography_mm_to_px"]).shape == (3, 3)


def test_random_looks_frame_the_table_with_a_plausible_webcam() -> None:
    for seed in range(40):
        look = Look.random(seed)
        cam = Camera(1280, 720, look.lens, look.pose)
        corners = cam.project_mm_to_px([(-431.8, -431.8), (431.8, -431.8), (431.8, 431.8),
                                        (-431.8, 431.8)])
        assert np.all(corners > 0) and np.all(corners[:, 0] < 1280)  # the whole table in view
        assert np.all(corners[:, 1] < 720)
        span = corners[:, 1].max() - corners[:, 1].min()
        assert span > 0.6 * 720  # the table fills most of the image height
        # the lens does not fold: every image corner maps to one table point and back
        image_corners = np.array([(0.0, 0.0), (1279.0, 0.0), (1279.0, 719.0), (0.0, 719.0)])
        back = cam.project_mm_to_px(cam.px_to_mm(image_corners))
        np.testing.assert_allclose(back, image_corners, atol=1e-4)
