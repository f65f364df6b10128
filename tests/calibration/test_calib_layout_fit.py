"""Tiles found and fitted to the Castle Croquetnole template on synthetic images with known
answers: tile centres within 1 mm, and every planted problem reported with its size."""

from __future__ import annotations

import numpy as np
import pytest

from calibration.layout_fit import fit_layout
from calibration.pipeline import calibrate_still, find_plane, measure_layout
from calibration.plane import TablePlane
from calibration.synthetic import Scene, render
from calibration.tiles import DetectedTile
from referee.layout import (
    Layout,
    castle_croquetnole_layout,
    layout_from_json,
    with_piece_moved,
)

TABLE_MM = (863.6, 863.6)
TEMPLATE = castle_croquetnole_layout()
POSES = {
    "overhead": [[330, 690], [1000, 690], [1000, 20], [330, 20]],
    "perspective": [[250, 560], [900, 690], [1080, 120], [420, 40]],
}


def _moved(layout: Layout, name: str, dx: float, dy: float) -> Layout:
    x, y = layout.pieces[name].center_mm
    return with_piece_moved(layout, name, (x + dx, y + dy))


def _centre_errors(fitted: Layout, truth: Layout) -> dict[str, float]:
    return {n: float(np.hypot(*np.subtract(fitted.pieces[n].center_mm, truth.pieces[n].center_mm)))
            for n in truth.pieces}


@pytest.mark.parametrize("pose", sorted(POSES))
def test_clean_layout_every_tile_named_within_a_millimetre(pose: str) -> None:
    scene = Scene(TEMPLATE, TABLE_MM, np.array(POSES[pose], float), seed=3)
    profile = calibrate_still(render(scene), TEMPLATE, TABLE_MM)
    assert profile.problems == []
    errors = _centre_errors(profile.layout, TEMPLATE)
    assert max(errors.values()) < 1.0, errors
    assert profile.layout_residual_mm is not None and profile.layout_residual_mm < 0.5
    for line in TEMPLATE.lines.values():
        fitted = profile.layout.lines[line.name]
        assert np.hypot(*np.subtract(fitted.a, line.a)) < 1.0
    layout_from_json(profile.layout.to_json())  # the fitted layout is a valid layout


def test_planted_problems_all_reported_with_their_sizes() -> None:
    truth = _moved(TEMPLATE, "post-12", 4.0, 0.0)  # gate-1 4 mm too narrow
    truth = _moved(truth, "door-3-a", 0.0, 6.0)  # 6 mm off its place
    scene = Scene(truth, TABLE_MM, np.array(POSES["perspective"], float), seed=5,
                  cloth_bgr=(120, 60, 30), missing=("door-2-b",),
                  tower_suits={"tower-3": "suns"}, tower_backs=("tower-4",))
    profile = calibrate_still(render(scene), TEMPLATE, TABLE_MM)
    found = {(p.kind, p.subject): p for p in profile.problems}
    assert set(found) == {("missing", "door-2-b"), ("off_place", "door-3-a"),
                          ("off_place", "post-12"), ("opening_narrow", "gate-1"),
                          ("wrong_top", "tower-3"), ("wrong_top", "tower-4")}, found
    assert found[("off_place", "door-3-a")].size == pytest.approx(6.0, abs=0.5)
    assert found[("off_place", "post-12")].size == pytest.approx(4.0, abs=0.5)
    assert found[("opening_narrow", "gate-1")].size == pytest.approx(4.0, abs=0.5)
    assert "shows suns" in found[("wrong_top", "tower-3")].text
    assert "tile back" in found[("wrong_top", "tower-4")].text
    assert "door-2-b is missing" in found[("missing", "door-2-b")].text
    # The fitted layout holds the measured places: the referee judges the real gate.
    errors = _centre_errors(profile.layout, truth)
    del errors["door-2-b"]
    assert max(errors.values()) < 1.0, errors
    gate = profile.layout.lines["gate-1"]
    assert gate.length == pytest.approx(TEMPLATE.tile_mm - 4.0, abs=0.5)


def test_layout_set_up_off_centre_and_turned_is_still_matched() -> None:
    shifted = TEMPLATE
    for name, piece in TEMPLATE.pieces.items():
        x, y = piece.center_mm
        c, s = np.cos(np.radians(2.0)), np.sin(np.radians(2.0))
        shifted = with_piece_moved(shifted, name, (c * x - s * y + 30.0, s * x + c * y - 12.0))
    scene = Scene(shifted, TABLE_MM, np.array(POSES["overhead"], float), seed=7)
    profile = calibrate_still(render(scene), TEMPLATE, TABLE_MM)
    kinds = {p.kind for p in profile.problems}
    assert kinds == {"layout_shift"}, profile.problems  # 32 mm off centre; tiles all named
    errors = _centre_errors(profile.layout, shifted)
    assert max(errors.values()) < 1.5, errors  # tiles turned 2° are drawn unturned


def test_fit_on_known_detections_only() -> None:
    tiles = [DetectedTile(p.center_mm, p.angle_deg, p.size_mm,
                          p.top.split("-")[-1] if p.top else "back")
             for p in TEMPLATE.pieces.values()]
    tiles.append(DetectedTile((300.0, 300.0), 0.0, 50.8, "back"))
    fit = fit_layout(TEMPLATE, tiles)
    assert [p.kind for p in fit.problems] == ["unexpected"]
    assert "300, 300 mm" in fit.problems[0].text
    assert fit.residual_rms_mm == pytest.approx(0.0, abs=1e-6)
    assert fit.openings_mm["gate-1"] == pytest.approx(TEMPLATE.tile_mm)


def test_manual_corners_give_the_same_plane() -> None:
    scene = Scene(TEMPLATE, TABLE_MM, np.array(POSES["perspective"], float), seed=9)
    image = render(scene)
    manual = find_plane(image, TABLE_MM, corners_px=scene.corners_px)
    assert manual.method == "manual"
    fit = measure_layout(image, manual.plane, TEMPLATE, TABLE_MM)
    assert not fit.problems
    truth = TablePlane(scene.homography_mm_to_px())
    probe = np.array([[0.0, 0.0], [400.0, -400.0]])
    np.testing.assert_allclose(manual.plane.to_pixels(probe), truth.to_pixels(probe), atol=1e-3)


def test_towers_tell_where_south_is_when_the_camera_is_turned() -> None:
    # The camera looks from the east: the image's bottom edge is the table's east side.
    corners = np.roll(np.array(POSES["perspective"], float), 1, axis=0)
    scene = Scene(TEMPLATE, TABLE_MM, corners, seed=13)
    profile = calibrate_still(render(scene), TEMPLATE, TABLE_MM)
    assert profile.problems == []
    assert np.linalg.norm(profile.corners_px - scene.corners_px, axis=1).max() < 1.0
