"""The table plane and the table's corners, on synthetic images with known homographies."""

from __future__ import annotations

import zlib

import numpy as np
import pytest

from calibration.intrinsics import Intrinsics
from calibration.plane import (
    TablePlane,
    fit_plane,
    rectified_to_mm,
    rectify,
    residuals,
    table_corners_mm,
)
from calibration.synthetic import Scene, aruco_scene_markers, render
from calibration.table_detect import (
    CornerMarkers,
    TableNotFound,
    detect_corner_markers,
    detect_table,
    order_corners,
    parse_corners,
    side_bow_px,
)
from referee.layout import castle_croquetnole_layout

TABLE_MM = (863.6, 863.6)
LAYOUT = castle_croquetnole_layout()
POSES = {  # where the table corners SW, SE, NE, NW land in a 1280x720 image
    "tilted-from-south": [[300, 660], [1010, 640], [900, 110], [380, 90]],
    "wide-and-close": [[180, 700], [1100, 690], [930, 40], [350, 60]],
    "far-subpixel": [[420.37, 600.37], [880.37, 610.37], [860.37, 180.37], [400.37, 170.37]],
    "turned-and-oblique": [[250, 560], [900, 690], [1080, 120], [420, 40]],
}
LOOKS = {
    "green-felt": {},
    "blue-cloth-light-floor": {"cloth_bgr": (120, 60, 30), "floor_bgr": (190, 190, 185)},
    "white-table-strong-gradient": {"cloth_bgr": (200, 205, 210), "floor_bgr": (40, 45, 50),
                                    "light_gradient": 0.5},
    "grey-cloth-dim-noisy": {"cloth_bgr": (60, 60, 60), "floor_bgr": (80, 100, 120),
                             "light": 0.6, "noise": 5.0},
}
LENS = Intrinsics(np.array([[900.0, 0, 640], [0, 900.0, 360], [0, 0, 1]]),
                  np.array([[-0.25, 0.08, 0, 0, 0]]), (1280, 720))


def _scene(pose: str, look: str = "green-felt", **kw: object) -> Scene:
    return Scene(LAYOUT, TABLE_MM, np.array(POSES[pose], float), **{**LOOKS[look], **kw})


def test_plane_maps_both_ways_and_flips_y() -> None:
    scene = _scene("turned-and-oblique")
    plane = TablePlane(scene.homography_mm_to_px())
    corners_mm = table_corners_mm(TABLE_MM)
    np.testing.assert_allclose(plane.to_pixels(corners_mm), scene.corners_px, atol=1e-3)
    pts_mm = np.array([[0.0, 0.0], [120.5, -300.25], [-431.8, 431.8]])
    np.testing.assert_allclose(plane.to_table_mm(plane.to_pixels(pts_mm)), pts_mm, atol=1e-6)
    north, south = plane.to_pixels(np.array([[0.0, 300.0], [0.0, -300.0]]))
    assert north[1] < south[1]  # +y north is up in the image


def test_fit_plane_residuals_and_lens() -> None:
    truth = TablePlane(_scene("wide-and-close").homography_mm_to_px(), LENS)
    grid_mm = np.array([[x, y] for x in np.linspace(-400, 400, 5) for y in (-400, 0, 400)])
    grid_px = truth.to_pixels(grid_mm)
    exact = fit_plane(grid_px, grid_mm, LENS)
    res = residuals(exact, grid_px, grid_mm)
    assert res.max_px < 1e-3 and res.max_mm < 1e-3 and res.count == 15
    noisy_px = grid_px + np.random.default_rng(0).normal(0, 0.5, grid_px.shape)
    res = residuals(fit_plane(noisy_px, grid_mm, LENS), noisy_px, grid_mm)
    assert 0.2 < res.rms_px < 0.8 and 0.2 < res.rms_mm < 2.0
    # Without the lens model the same points fit a homography much worse.
    assert residuals(fit_plane(grid_px, grid_mm), grid_px, grid_mm).max_px > 2.0
    with pytest.raises(ValueError, match="4\\+ matching points"):
        fit_plane(grid_px[:3], grid_mm[:3])


@pytest.mark.parametrize("pose", sorted(POSES))
@pytest.mark.parametrize("look", sorted(LOOKS))
def test_auto_table_corners_within_a_pixel(pose: str, look: str) -> None:
    scene = _scene(pose, look, seed=zlib.crc32(f"{pose}/{look}".encode()) % 1000)
    corners_px = detect_table(render(scene))
    error = np.linalg.norm(corners_px - scene.corners_px, axis=1)
    assert error.max() < 1.0, error


def test_auto_table_corners_through_a_bending_lens() -> None:
    scene = _scene("wide-and-close", intrinsics=LENS)
    image = render(scene)
    truth_px = LENS.distort_points(scene.corners_px)
    corners_px = detect_table(image, LENS)
    assert np.linalg.norm(corners_px - truth_px, axis=1).max() < 1.0
    assert np.linalg.norm(detect_table(image) - truth_px, axis=1).max() > 2.0  # lens matters


def test_a_bending_lens_bows_the_tables_sides_and_undistorting_straightens_them() -> None:
    image = render(_scene("wide-and-close", intrinsics=LENS))
    bent = side_bow_px(image, detect_table(image))
    straight = side_bow_px(LENS.undistort_image(image),
                           LENS.undistort_points(detect_table(image, LENS)))
    assert bent > 3.0, bent
    assert straight < 0.5, straight
    assert side_bow_px(render(_scene("wide-and-close")),  # no lens at all
                       np.array(POSES["wide-and-close"], float)) < 0.5


def test_no_table_in_a_blank_image() -> None:
    with pytest.raises(TableNotFound):
        detect_table(np.full((480, 640, 3), 90, np.uint8))


def test_aruco_corner_markers() -> None:
    scene = _scene("tilted-from-south")
    markers = CornerMarkers(marker_mm=60.0, inset_mm=10.0)
    image = aruco_scene_markers(render(scene), scene, 60.0, inset_mm=10.0)
    px, mm = detect_corner_markers(image, TABLE_MM, markers)
    assert px.shape == (16, 2)
    plane = fit_plane(px, mm)
    res = residuals(plane, px, mm)
    assert res.rms_px < 1.0 and res.rms_mm < 2.0
    corners_px = plane.to_pixels(table_corners_mm(TABLE_MM))
    assert np.linalg.norm(corners_px - scene.corners_px, axis=1).max() < 1.0
    with pytest.raises(TableNotFound, match="NE \\(id 7\\)"):
        detect_corner_markers(image, TABLE_MM, CornerMarkers(60.0, 10.0, ids=(0, 1, 7, 3)))


def test_manual_corners() -> None:
    corners = parse_corners("300,660 1010,640 900,110 380.5,90")
    np.testing.assert_allclose(corners[3], [380.5, 90])
    for bad, message in (("1,2 3,4 5,6", "needs 4 points"), ("1,2 3,4 5,6 7", "point 4"),
                         ("a,b 1,2 3,4 5,6", "point 1"),
                         ("380,90 900,110 1010,640 300,660", "clockwise"),
                         ("300,660 900,110 1010,640 380,90", "convex")):
        with pytest.raises(ValueError, match=message):
            parse_corners(bad)


def test_order_corners_takes_the_image_bottom_as_south() -> None:
    quad = np.array(POSES["turned-and-oblique"], float)
    np.testing.assert_allclose(order_corners(quad[[2, 0, 3, 1]]), quad)


def test_rectify_puts_tiles_where_the_layout_says() -> None:
    scene = _scene("turned-and-oblique")
    plane = TablePlane(scene.homography_mm_to_px())
    top, affine = rectify(render(scene), plane, TABLE_MM, px_per_mm=1.0)
    assert top.shape[:2] == (864, 864)
    tower_mm = np.array(LAYOUT.pieces["tower-1"].center_mm)
    centre_rect = affine[:2, :2] @ tower_mm + affine[:2, 2]
    np.testing.assert_allclose(rectified_to_mm(centre_rect[None], affine)[0], tower_mm)
    assert centre_rect[1] > 432  # south is the bottom of the rectified image
