"""Tabletop Croquet courses (RULES-SPEC §4.4): built from the pack's measures, JSON, checks."""

from __future__ import annotations

import json
import math

import pytest

from referee.geometry import dist
from referee.layout import castle_croquetnole_layout, check_layout, layout_from_json
from referee.layouts_ttc import (
    LAYOUTS,
    check_ttc_layout,
    compact_diagonal_layout,
    course_axis,
    standard_layout,
    ttc_layout,
)

T = 50.8


def close(a, b, tol: float = 0.06) -> bool:
    return math.dist(a, b) < tol


def mid(line) -> tuple[float, float]:
    return ((line.a[0] + line.b[0]) / 2, (line.a[1] + line.b[1]) / 2)


# §4.4.1, the standard course: wicket centres and scoring segments.
STANDARD = {
    1: (-355.6, 0.0), 2: (-228.6, 0.0), 3: (-114.3, 177.8), 4: (0.0, 0.0), 5: (114.3, 177.8),
    6: (228.6, 0.0), 7: (355.6, 0.0), 8: (114.3, -177.8), 9: (-114.3, -177.8),
}
# §4.4.2, the compact diagonal course: table-frame scoring segment endpoints.
COMPACT = {
    1: ((-179.6, -251.4), (-251.4, -179.6)), 2: ((-89.8, -161.6), (-161.6, -89.8)),
    3: ((-134.7, 9.0), (-206.5, 80.8)), 4: ((35.9, -35.9), (-35.9, 35.9)),
    5: ((-9.0, 134.7), (-80.8, 206.5)), 6: ((161.6, 89.8), (89.8, 161.6)),
    7: ((251.4, 179.6), (179.6, 251.4)), 8: ((206.5, -80.8), (134.7, -9.0)),
    9: ((80.8, -206.5), (9.0, -134.7)),
}


def test_standard_course_matches_the_spec_table() -> None:
    layout = standard_layout()
    assert layout.pieces["endpost-left"].center_mm == (-558.8, 0.0)
    assert layout.pieces["endpost-right"].center_mm == (558.8, 0.0)
    for n, centre in STANDARD.items():
        line = layout.lines[f"wicket-{n}"]
        assert close(mid(line), centre)
        assert line.normal == (1.0, 0.0)  # + points toward the right endpost
        assert close(layout.pieces[f"wicket-{n}-a"].center_mm, (centre[0], centre[1] - 76.2))
        assert close(layout.pieces[f"wicket-{n}-b"].center_mm, (centre[0], centre[1] + 76.2))
    assert layout.table[2] == (762.0, 457.2)  # a 3 × 5 ft table


def test_compact_diagonal_course_matches_the_spec_table() -> None:
    layout = compact_diagonal_layout()
    assert close(layout.pieces["endpost-left"].center_mm, (-323.3, -323.3))
    assert close(layout.pieces["endpost-right"].center_mm, (323.3, 323.3))
    for n, (a, b) in COMPACT.items():
        line = layout.lines[f"wicket-{n}"]
        assert {tuple(round(v, 1) for v in p) for p in (line.a, line.b)} == {a, b}
        assert close(line.normal, (math.sqrt(0.5), math.sqrt(0.5)), 1e-5)
    assert layout.table[2] == (431.8, 431.8)  # a 34-inch card table
    assert close(layout.pieces["wicket-1-a"].center_mm, (-161.6, -269.4), 0.1)


@pytest.mark.parametrize("kind", LAYOUTS)
def test_ttc02_ttc03_nine_wickets_two_endposts_the_whole_pack(kind: str) -> None:
    layout = ttc_layout(kind)
    wickets = [p for p in layout.pieces.values() if p.role == "wicket"]
    endposts = [p for p in layout.pieces.values() if p.role == "endpost"]
    assert len(wickets) == 18 and len(endposts) == 2
    assert all(p.layers == 3 for p in endposts)
    assert sum(p.layers for p in layout.pieces.values()) == 24


@pytest.mark.parametrize("kind", LAYOUTS)
def test_ttc04_wicket_openings_are_two_tiles(kind: str) -> None:
    layout = ttc_layout(kind)
    for n in range(1, 10):
        a = layout.pieces[f"wicket-{n}-a"].center_mm
        b = layout.pieces[f"wicket-{n}-b"].center_mm
        assert dist(a, b) - T == pytest.approx(2 * T, abs=1e-3)
        assert layout.lines[f"wicket-{n}"].length == pytest.approx(2 * T, abs=1e-3)


def _clear_gap(layout, p: str, q: str) -> float:
    """Edge-to-edge gap along the course axis between two pieces."""
    ax = course_axis(layout)
    pa, pb = layout.pieces[p].center_mm, layout.pieces[q].center_mm
    along = abs((pb[0] - pa[0]) * ax[0] + (pb[1] - pa[1]) * ax[1])
    return along - (layout.pieces[p].size_mm + layout.pieces[q].size_mm) / 2


def test_ttc05_standard_spacing_follows_biggar() -> None:
    layout = standard_layout()
    assert _clear_gap(layout, "endpost-left", "wicket-1-a") == pytest.approx(3 * T)
    assert _clear_gap(layout, "endpost-right", "wicket-7-a") == pytest.approx(3 * T)
    for p, q in (("wicket-1-a", "wicket-2-a"), ("wicket-6-a", "wicket-7-a")):
        assert 1.5 * T - 1e-6 <= _clear_gap(layout, p, q) <= 2 * T


def test_g_ttc29_compact_course_is_marked_non_conforming() -> None:
    layout = compact_diagonal_layout()
    assert _clear_gap(layout, "endpost-left", "wicket-1-a") == pytest.approx(2 * T, abs=1e-3)
    assert _clear_gap(layout, "wicket-1-a", "wicket-2-a") == pytest.approx(1.5 * T, abs=1e-3)


def test_ttc06_course_envelope_is_four_feet_by_two() -> None:
    layout = standard_layout()
    xs = [c[0] for p in layout.pieces.values() for c in p.footprint()]
    ys = [c[1] for p in layout.pieces.values() for c in p.footprint()]
    assert max(xs) - min(xs) == pytest.approx(1168.4)  # 23 T between the endpost faces
    assert max(ys) - min(ys) == pytest.approx(558.8)  # inside the 610 mm envelope


@pytest.mark.parametrize("kind", LAYOUTS)
@pytest.mark.parametrize("mirror", [False, True])
def test_layouts_are_valid_and_json_round_trips(kind: str, mirror: bool) -> None:
    layout = ttc_layout(kind, mirror)
    assert check_layout(layout) == [] and check_ttc_layout(layout) == []
    data = json.loads(json.dumps(layout.to_json()))
    again = layout_from_json(data)
    assert again.to_json() == layout.to_json()
    assert again.game == "tabletop-croquet"


def test_g_ttc01_mirror_swaps_the_side_wickets() -> None:
    plain, mirrored = standard_layout(), standard_layout(mirror=True)
    assert mid(plain.lines["wicket-3"])[1] > 0 > mid(mirrored.lines["wicket-3"])[1]
    assert mid(plain.lines["wicket-8"])[1] < 0 < mid(mirrored.lines["wicket-8"])[1]
    assert mirrored.lines["wicket-3"].normal == (1.0, 0.0)


def test_a_castle_layout_is_not_a_course() -> None:
    problems = check_ttc_layout(castle_croquetnole_layout())
    assert "the layout has no endpost-left" in problems and len(problems) == 11


def test_a_wicket_facing_the_wrong_way_is_reported() -> None:
    data = standard_layout().to_json()
    for line in data["lines"]:
        if line["name"] == "wicket-5":
            line["normal"] = [-1.0, 0.0]
    problems = check_ttc_layout(layout_from_json(data))
    assert len(problems) == 1 and problems[0].startswith("wicket-5")


def test_unknown_course_kind_is_refused() -> None:
    with pytest.raises(ValueError, match="standard"):
        ttc_layout("lawn")
