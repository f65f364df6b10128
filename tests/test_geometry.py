"""The geometric predicates of RULES-SPEC §1.2, against hand-worked answers."""

from __future__ import annotations

import math

import pytest

from referee import geometry as geo

GATE_A, GATE_B, GATE_N = (-25.4, -50.8), (25.4, -50.8), (0.0, -1.0)


def test_crossing_gate_1_outward_is_minus() -> None:
    # From inside castle 1 (south of the gate line) to the hub: against the normal.
    c = geo.segment_crossing((0.0, -60.0), (0.0, -40.0), GATE_A, GATE_B, GATE_N)
    assert c is not None and c.dir == "-"
    assert c.fraction == pytest.approx(9.2 / 20.0)
    assert c.point == pytest.approx((0.0, -50.8))


def test_crossing_inward_is_plus_with_interpolated_point() -> None:
    c = geo.segment_crossing((10.0, -40.0), (20.0, -80.0), GATE_A, GATE_B, GATE_N)
    assert c is not None and c.dir == "+"
    assert c.point[0] == pytest.approx(12.7)


def test_crossing_outside_the_opening_is_not_a_crossing() -> None:
    assert geo.segment_crossing((30.0, -40.0), (30.0, -60.0), GATE_A, GATE_B, GATE_N) is None


def test_no_crossing_without_a_sign_change() -> None:
    assert geo.segment_crossing((0.0, -60.0), (0.0, -70.0), GATE_A, GATE_B, GATE_N) is None
    assert geo.segment_crossing((0.0, -40.0), (0.0, -45.0), GATE_A, GATE_B, GATE_N) is None


def test_landing_on_the_line_then_leaving_counts_once() -> None:
    first = geo.segment_crossing((0.0, -40.0), (0.0, -50.8), GATE_A, GATE_B, GATE_N)
    second = geo.segment_crossing((0.0, -50.8), (0.0, -60.0), GATE_A, GATE_B, GATE_N)
    assert (first is None) != (second is None)


def test_polygon_distance_inside_edge_and_corner() -> None:
    square = geo.square_corners((0.0, 0.0), 50.8)
    assert geo.polygon_distance((0.0, 0.0), square) == 0.0
    assert geo.polygon_distance((35.4, 0.0), square) == pytest.approx(10.0)
    assert geo.polygon_distance((28.4, 29.4), square) == pytest.approx(5.0)


def test_rotated_square_footprint() -> None:
    diamond = geo.square_corners((0.0, 0.0), 50.8, 45.0)
    half_diag = 50.8 / math.sqrt(2)
    assert geo.polygon_distance((half_diag + 3.0, 0.0), diamond) == pytest.approx(3.0)


def test_coin_contact_with_tolerance() -> None:
    assert geo.coins_touch((0.0, 0.0), (19.05, 0.0))
    assert geo.coins_touch((0.0, 0.0), (20.0, 0.0))
    assert not geo.coins_touch((0.0, 0.0), (20.2, 0.0))


def test_coin_touches_a_tower() -> None:
    tower = geo.square_corners((0.0, -254.0), 50.8)
    assert geo.coin_touches_footprint((0.0, -228.6 + 9.525 + 0.5), tower)
    assert not geo.coin_touches_footprint((0.0, -228.6 + 9.525 + 1.5), tower)


@pytest.mark.parametrize(("gap", "measure", "ok"), [
    (0.0, "edge_gap", True), (19.05, "edge_gap", True), (21.0, "edge_gap", True),
    (21.2, "edge_gap", False), (-3.0, "edge_gap", False),
    (9.0, "centre_gap", True), (10.0, "centre_gap", False),
])
def test_within_a_coin_width(gap: float, measure: str, ok: bool) -> None:
    assert geo.within_coin_width(gap, measure=measure) is ok


def test_in_contact_for_placement() -> None:
    assert geo.in_contact((0.0, 0.0), (19.5, 0.0))
    assert not geo.in_contact((0.0, 0.0), (17.0, 0.0))  # overlapping
    assert not geo.in_contact((0.0, 0.0), (22.0, 0.0))
