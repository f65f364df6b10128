"""Layouts: the default Castle Croquetnole layout built from the pack's measures, JSON, checks."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from referee.layout import (
    LayoutError,
    castle_croquetnole_layout,
    layout_from_json,
    load_layout,
    with_piece_moved,
)

SHARED = Path(__file__).resolve().parents[1].parent / "shared"
SHARED_LAYOUT = SHARED / "design" / "castle-croquetnole-layout.json"


def close(a, b, tol: float = 1e-6) -> bool:
    return math.dist(a, b) < tol


@pytest.mark.skipif(not SHARED_LAYOUT.exists(), reason="../shared/design is not beside the repo")
def test_default_layout_matches_the_spec_companion_file() -> None:
    """RULES-SPEC §2.5: our built layout reproduces castle-croquetnole-layout.json exactly."""
    ref = json.loads(SHARED_LAYOUT.read_text())
    layout = castle_croquetnole_layout()
    for c in ref["castles"]:
        castle = layout.castles[c["castle"]]
        gate, door = layout.lines[castle.gate], layout.lines[castle.door]
        assert close(gate.a, c["gate"]["a"]) and close(gate.b, c["gate"]["b"])
        assert close(gate.normal, c["gate"]["in_normal"])
        assert close(door.a, c["door"]["a"]) and close(door.b, c["door"]["b"])
        assert close(layout.pieces[castle.tower].center_mm, c["tower"]["centre"])
        assert close(castle.knight_spot, c["default_knight"])
        assert close(castle.guard_spot, c["default_guard"])
        for slot, spot in c["tower_slots"].items():
            assert close(castle.tower_slots[int(slot)], spot)
        k = c["castle"]
        assert close(layout.pieces[f"door-{k}-a"].center_mm, c["door"]["tiles"][0])
        assert close(layout.pieces[f"door-{k}-b"].center_mm, c["door"]["tiles"][1])
    for name, centre in ref["posts"].items():
        assert close(layout.pieces["post-" + name[1:]].center_mm, centre)
    assert layout.table[2] == pytest.approx((ref["table"]["half"], ref["table"]["half"]))


def test_twenty_tiles_and_the_openings_are_one_tile() -> None:
    layout = castle_croquetnole_layout()
    tiles = sum(p.layers for p in layout.pieces.values())
    assert tiles == 20  # RULES-SPEC §2.5.1: 20 of the 24 tiles
    for line in layout.lines.values():
        assert line.length == pytest.approx(50.8)
    t = layout.tile_mm
    # CCN-08 with spacing_measure=edge: clear gaps of one tile gate→door→tower.
    door = layout.pieces["door-1-a"].center_mm[1]
    tower = layout.pieces["tower-1"].center_mm[1]
    assert (-t - t / 2) - (door + t / 2) == pytest.approx(t)
    assert (door - t / 2) - (tower + t / 2) == pytest.approx(t)


def test_gate_plus_side_points_into_the_castle() -> None:
    layout = castle_croquetnole_layout()
    for castle in layout.castles.values():
        tower = layout.pieces[castle.tower].center_mm
        assert layout.lines[castle.gate].side(tower) > 0
        assert layout.lines[castle.door].side(tower) > 0
        assert layout.lines[castle.gate].side((0.0, 0.0)) < 0  # the hub is outside


def test_built_from_other_measures() -> None:
    layout = castle_croquetnole_layout(tile_mm=45.0, coin_mm=16.0)
    assert layout.lines["gate-1"].length == pytest.approx(45.0)
    assert layout.castles[1].knight_spot[1] == pytest.approx(layout.pieces["tower-1"].center_mm[1]
                                                             + 22.5 + 16.0)


def test_corners_orientation_rotates_minus_45_degrees() -> None:
    layout = castle_croquetnole_layout("corners")
    x, y = layout.pieces["tower-1"].center_mm
    assert (x, y) == pytest.approx((-179.605, -179.605), abs=1e-3)
    assert layout.pieces["tower-1"].angle_deg % 90 == pytest.approx(45.0)


def test_centre_spacing_makes_tiles_touch() -> None:
    layout = castle_croquetnole_layout(spacing="centre")
    assert layout.pieces["door-1-a"].center_mm[1] == pytest.approx(-101.6)


@pytest.mark.parametrize("orientation", ["sides", "corners"])
def test_json_round_trip(tmp_path, orientation: str) -> None:
    layout = castle_croquetnole_layout(orientation)
    path = tmp_path / "layout.json"
    layout.save(path)
    assert load_layout(path) == layout


def test_validation_reports_every_problem_at_once() -> None:
    data = castle_croquetnole_layout().to_json()
    data["pieces"][0]["center"] = [5000, 0]              # off the table
    data["lines"][0]["normal"] = [0.5, 0.5]              # not a unit normal
    data["lines"][1]["b"] = data["lines"][1]["a"]        # zero-length
    data["castles"][0]["tower"] = "tower-9"              # missing piece
    data["castles"][1]["number"] = 1                     # duplicate number
    with pytest.raises(LayoutError) as info:
        layout_from_json(data, "my-table.json")
    problems = info.value.problems
    assert len(problems) >= 5
    text = str(info.value)
    assert text.startswith("my-table.json: ")
    assert "normal must have length 1" in text
    assert "shorter than 1 mm" in text
    assert "'tower-9' is not a piece" in text
    assert "used twice" in text


def test_semantic_checks_catch_misplaced_tiles_and_numbering() -> None:
    data = castle_croquetnole_layout().to_json()
    data["pieces"] = [p for p in data["pieces"] if p["name"] != "door-2-a"] + [
        {**next(p for p in data["pieces"] if p["name"] == "door-2-a"), "center": [-152.4, -20.0]}]
    swapped = {1: 2, 2: 1}
    for c in data["castles"]:
        c["number"] = swapped.get(c["number"], c["number"])
    with pytest.raises(LayoutError) as info:
        layout_from_json(data)
    text = str(info.value)
    assert "overlap" in text
    assert "clockwise" in text


def test_not_json_and_wrong_format(tmp_path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{oops")
    with pytest.raises(LayoutError, match="not valid JSON"):
        load_layout(bad)
    with pytest.raises(LayoutError, match="'format' must be"):
        layout_from_json({"name": "x"})


def test_inset_from_edge_and_corner_clamp() -> None:
    layout = castle_croquetnole_layout()
    r = 9.525 + 0.5
    assert layout.inset_from_edge((100.0, -431.8), r) == pytest.approx((100.0, -431.8 + r))
    assert layout.inset_from_edge((440.0, 440.0), r) == pytest.approx((431.8 - r, 431.8 - r))


def test_with_piece_moved() -> None:
    layout = castle_croquetnole_layout()
    moved = with_piece_moved(layout, "tower-2", (-250.0, 6.0))
    assert moved.pieces["tower-2"].center_mm == (-250.0, 6.0)
    assert layout.pieces["tower-2"].center_mm == (-254.0, 0.0)
