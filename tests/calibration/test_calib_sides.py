"""calibration.sides: a raised tile's top found from its four measured sides, on outlines
built from the camera geometry (known answers, no images)."""

from __future__ import annotations

import numpy as np
import pytest

from calibration.sides import Sides, edge_bias_mm, side_bands_mm, top_centre_mm

CAMERA = np.array([24.0, -101.0, 1087.0])  # simulator look 14's lens centre, table mm
SIZE = 50.8


def _seen_top(foot_mm: tuple[float, float], height: float) -> tuple[np.ndarray, float]:
    """Where a tile's top (centre) is seen on the table plane, and its seen size."""
    k = CAMERA[2] / (CAMERA[2] - height)
    return CAMERA[:2] + (np.asarray(foot_mm) - CAMERA[:2]) * k, SIZE * k


def _outline(centre: np.ndarray, size: float, outward: dict[int, float]) -> np.ndarray:
    """A square's corners (SW SE NE NW) with sides pushed outwards: 0 south, 1 east, 2 north,
    3 west, by the given mm."""
    h = size / 2
    south, east, north, west = (outward.get(i, 0.0) for i in range(4))
    x0, x1 = centre[0] - h - west, centre[0] + h + east
    y0, y1 = centre[1] - h - south, centre[1] + h + north
    return np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]])


def test_bands_only_on_the_sides_facing_the_camera() -> None:
    top, size = _seen_top((0.0, 254.0), 9.0)  # a tower north of the camera
    sides = Sides.of(_outline(top, size, {}))
    bands = side_bands_mm(sides, top, 9.0, CAMERA, size / 2)
    south = int(np.argmin(sides.normals[:, 1]))
    assert bands[south] == pytest.approx(9.0 / CAMERA[2] * (354.0 - 25.4), rel=0.02)  # ~2.7 mm
    assert all(b < 0 for i, b in enumerate(bands) if i != south)


def test_a_near_side_taken_at_the_foot_hardly_moves_the_centre() -> None:
    """The edge detector took the foot's edge on the south side (the side face's band, ~3 mm,
    looked like paper): halfway between sides is 1.3 mm off, the side model within 0.3 mm."""
    top, size = _seen_top((0.0, 254.0), 9.0)
    sides = Sides.of(_outline(top, size, {}))
    band = side_bands_mm(sides, top, 9.0, CAMERA, size / 2).max()
    measured = Sides.of(_outline(top, size, {0: band}))
    halfway = np.array([0.0, -band / 2])
    assert np.linalg.norm(halfway) > 1.2
    found = top_centre_mm(measured, 9.0, CAMERA, size)
    assert np.linalg.norm(found - top) < 0.3
    # the other extreme, that side at the top's edge: the band's prior costs under 0.1 mm
    assert np.linalg.norm(top_centre_mm(sides, 9.0, CAMERA, size) - top) < 0.1


def test_edge_bias_measured_on_sides_without_bands() -> None:
    tiles = []
    for foot in [(30.0, -90.0), (60.0, -120.0), (10.0, -60.0), (0.0, 254.0)]:
        top, size = _seen_top(foot, 4.5)
        outline = _outline(top, size, dict.fromkeys(range(4), 0.3))  # every side 0.3 mm out
        tiles.append((Sides.of(outline), 4.5, size))
    assert edge_bias_mm(tiles, CAMERA) == pytest.approx(0.3, abs=0.02)
    top, size = _seen_top((30.0, -90.0), 4.5)  # no side faces the camera: exact
    found = top_centre_mm(tiles[0][0], 4.5, CAMERA, size, bias_mm=0.3)
    np.testing.assert_allclose(found, top, atol=1e-6)
