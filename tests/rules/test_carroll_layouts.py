"""Carroll's table layouts (RULES-SPEC §3.4, G-CAR-16): the three builders and their spots."""

from __future__ import annotations

import math

import pytest

from referee.geometry import COIN_DIAMETER_MM, dist
from referee.layout import castle_croquetnole_layout, check_layout, load_layout
from referee.layouts_carroll import build_layout, carroll_spots, passage_mm


@pytest.mark.parametrize("kind", ["ccn_hub", "carroll_open", "carroll_five"])
@pytest.mark.parametrize("orientation", ["sides", "corners"])
def test_layouts_are_valid_and_clockwise(kind: str, orientation: str) -> None:
    layout = build_layout(kind, orientation)
    assert check_layout(layout) == []
    assert layout.game == "carroll-castle-croquet"
    n = len(layout.castles)
    assert n == (5 if kind == "carroll_five" else 4)
    for k in range(1, n + 1):
        assert {f"gate-{k}", f"door-{k}"} <= set(layout.lines)
        assert layout.pieces[f"tower-{k}"].layers == 2
        spots = carroll_spots(layout, k)
        for p in (spots.soldier_start, spots.sentinel_start, *spots.released,
                  *spots.prisoners):
            assert layout.on_table(p)


def test_hub_is_croquetnoles_hub_with_carrolls_starts() -> None:
    """§3.4 ccn_hub: the §2.5 coordinates; soldier (0, -62.8), sentinel (0, -101.6)."""
    hub, ccn = build_layout("ccn_hub"), castle_croquetnole_layout()
    assert hub.pieces == ccn.pieces and hub.lines == ccn.lines
    assert hub.castles[1].knight_spot == (0.0, -62.8)
    assert hub.castles[1].guard_spot == (0.0, -101.6)
    assert hub.castles[2].knight_spot == (-62.8, 0.0)  # turned clockwise: castle 2 west


def test_open_layout_coordinates_of_section_3_4() -> None:
    layout = build_layout("carroll_open")
    assert layout.pieces["gate-1-a"].center_mm == (-50.8, -127.0)
    assert layout.pieces["gate-1-b"].center_mm == (50.8, -127.0)
    assert layout.pieces["door-1-b"].center_mm == (50.8, -228.6)
    assert layout.pieces["tower-1"].center_mm == (0.0, -330.2)
    gate = layout.lines["gate-1"]
    assert (gate.a, gate.b, gate.normal) == ((-25.4, -127.0), (25.4, -127.0), (0.0, -1.0))
    spots = carroll_spots(layout, 1)
    assert spots.released[0] == (0.0, -279.4)
    assert spots.prisoners[0] == pytest.approx((0.0, -367.125))
    assert passage_mm(layout, "gate-1-b", "gate-4-a") == pytest.approx(35.9, abs=0.05)
    tower_face = min(y for _, y in layout.pieces["tower-1"].footprint())
    assert tower_face - layout.table[0][1] == pytest.approx(76.2)  # from the table edge


def test_five_castle_ring() -> None:
    """G-CAR-16: five castles 72° apart; coins null/5 for castle 5; a coin passes between
    neighbouring gates."""
    layout = build_layout("carroll_five")
    angles = [math.degrees(math.atan2(*reversed(layout.pieces[f"tower-{k}"].center_mm)))
              for k in range(1, 6)]
    steps = [(angles[k] - angles[k + 1]) % 360 for k in range(4)]
    assert steps == pytest.approx([72.0] * 4)
    assert (layout.castles[5].knight, layout.castles[5].guard) == ("null", "5")
    for k in range(1, 6):
        right = f"gate-{k}-b"
        left_of_next = f"gate-{k % 5 + 1}-a"
        assert passage_mm(layout, right, left_of_next) > COIN_DIAMETER_MM + 10


def test_spots_survive_save_and_load(tmp_path) -> None:
    layout = build_layout("carroll_five", "corners")
    path = tmp_path / "five.json"
    layout.save(path)
    loaded = load_layout(path)
    for k in range(1, 6):
        a, b = carroll_spots(layout, k), carroll_spots(loaded, k)
        assert dist(a.released[1], b.released[1]) < 1e-3
        assert dist(a.prisoners[3], b.prisoners[3]) < 1e-3


def test_unknown_layout_is_refused() -> None:
    with pytest.raises(ValueError, match="valid: ccn_hub, carroll_open, carroll_five"):
        build_layout("lawn")
