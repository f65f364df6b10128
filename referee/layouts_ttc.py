"""Tabletop Croquet courses (RULES-SPEC §4.4), built by code from the pack's measures.

The course is described in *course coordinates*: `a` along the axis from the left (home)
endpost toward the right (turning) endpost, `b` sideways toward the "top" side that carries
wickets 3 and 5.  A course is then put on the table by a rotation (0° for the standard course,
45° for the compact diagonal one), so a pack with other tiles or coins gets a consistent
course.  Every wicket line `wicket-n` runs between the inner faces of its two tiles (the grid
line of G-TTC-03, 2T long) and its `+` normal points along +a, toward the right-hand endpost
(CONTRACT.md); the endposts are 3-tile stacks `endpost-left` and `endpost-right`.
"""

from __future__ import annotations

import math

from referee.geometry import COIN_DIAMETER_MM, TILE_MM, Point, rotate
from referee.layout import CARD_TABLE_MM, Layout, Line, Piece, square_table

GAME = "tabletop-croquet"
LAYOUTS: tuple[str, ...] = ("standard", "compact_diagonal")
"""The `ttc_layout` values."""

STANDARD_TABLE_MM: tuple[float, float] = (1524.0, 914.4)
"""A 3 × 5 ft table (G-TTC-29), long side along the course."""

WICKETS = tuple(range(1, 10))


def _course_points(tile_mm: float, compact: bool) -> dict[str, Point]:
    """Course-frame centres (a, b) of the endposts and wickets, in units of the tile.

    Standard (§4.4.1): endposts at ±11T, W1/W7 at ±7T, W2/W6 at ±4.5T, W4 at 0, side wickets
    at a = ±2.25T, b = ±3.5T.  Compact (§4.4.2): endposts ±9T, W1/W7 ±6T, W2/W6 ±3.5T, side
    wickets a = ±1.75T, b = ±3T.
    """
    t = tile_mm
    if compact:
        end, w1, w2, side_a, side_b = 9.0, 6.0, 3.5, 1.75, 3.0
    else:
        end, w1, w2, side_a, side_b = 11.0, 7.0, 4.5, 2.25, 3.5
    return {
        "endpost-left": (-end * t, 0.0),
        "endpost-right": (end * t, 0.0),
        "wicket-1": (-w1 * t, 0.0),
        "wicket-2": (-w2 * t, 0.0),
        "wicket-3": (-side_a * t, side_b * t),
        "wicket-4": (0.0, 0.0),
        "wicket-5": (side_a * t, side_b * t),
        "wicket-6": (w2 * t, 0.0),
        "wicket-7": (w1 * t, 0.0),
        "wicket-8": (side_a * t, -side_b * t),
        "wicket-9": (-side_a * t, -side_b * t),
    }


def _clean(p: Point) -> Point:
    return (round(p[0], 6) + 0.0, round(p[1], 6) + 0.0)  # micrometres; no -0.0


def ttc_layout(
    kind: str = "standard",
    mirror: bool = False,
    *,
    tile_mm: float = TILE_MM,
    coin_mm: float = COIN_DIAMETER_MM,
    table_mm: tuple[float, float] | None = None,
) -> Layout:
    """The Tabletop Croquet course `kind` (`standard` or `compact_diagonal`).

    `mirror` (`ttc_mirror`, G-TTC-01) puts wickets 3 and 5 on the bottom side and 8 and 9 on
    top.  `table_mm` overrides the table (default: 1524 × 914.4 for the standard course, the
    34-inch card table for the compact one).
    """
    if kind not in LAYOUTS:
        raise ValueError(f"ttc_layout must be one of {', '.join(LAYOUTS)}, got {kind!r}")
    compact = kind == "compact_diagonal"
    turn = 45.0 if compact else 0.0
    if table_mm is None:
        table_mm = (CARD_TABLE_MM, CARD_TABLE_MM) if compact else STANDARD_TABLE_MM
    t = tile_mm
    flip = -1.0 if mirror else 1.0

    def place(a: float, b: float) -> Point:
        return _clean(rotate((a, flip * b), turn))

    axis = _clean(rotate((1.0, 0.0), turn))
    pieces: dict[str, Piece] = {}
    lines: dict[str, Line] = {}
    for name, (a, b) in _course_points(t, compact).items():
        if name.startswith("endpost"):
            pieces[name] = Piece(name, "endpost", place(a, b), t, turn, layers=3)
            continue
        pieces[f"{name}-a"] = Piece(f"{name}-a", "wicket", place(a, b - 1.5 * t), t, turn)
        pieces[f"{name}-b"] = Piece(f"{name}-b", "wicket", place(a, b + 1.5 * t), t, turn)
        lo, hi = place(a, b - t), place(a, b + t)
        lines[name] = Line(name, lo, hi, axis)
    return Layout(
        name=f"{GAME}-{kind}" + ("-mirror" if mirror else ""),
        game=GAME,
        table=square_table(*table_mm),
        tile_mm=t,
        coin_mm=coin_mm,
        pieces=dict(sorted(pieces.items())),
        lines=dict(sorted(lines.items(), key=lambda kv: int(kv[0].split("-")[1]))),
    )


def standard_layout(mirror: bool = False) -> Layout:
    """§4.4.1: the 1219 × 610 mm double diamond on a 3 × 5 ft table."""
    return ttc_layout("standard", mirror)


def compact_diagonal_layout(mirror: bool = False) -> Layout:
    """§4.4.2: the non-conforming diagonal course for a 34-inch card table."""
    return ttc_layout("compact_diagonal", mirror)


def course_axis(layout: Layout) -> Point:
    """The unit vector from the left toward the right endpost (the wickets' `+` normal)."""
    left = layout.pieces["endpost-left"].center_mm
    right = layout.pieces["endpost-right"].center_mm
    dx, dy = right[0] - left[0], right[1] - left[1]
    norm = math.hypot(dx, dy) or 1.0
    return (dx / norm, dy / norm)


def check_ttc_layout(layout: Layout) -> list[str]:
    """Problems that make a layout unusable for Tabletop Croquet (every one, with sizes)."""
    problems: list[str] = []
    for name in ("endpost-left", "endpost-right"):
        if name not in layout.pieces:
            problems.append(f"the layout has no {name}")
    for n in WICKETS:
        if f"wicket-{n}" not in layout.lines:
            problems.append(f"the layout has no line wicket-{n}")
    if problems:
        return problems
    axis = course_axis(layout)
    for n in WICKETS:
        line = layout.lines[f"wicket-{n}"]
        along = line.normal[0] * axis[0] + line.normal[1] * axis[1]
        if along < 0.5:
            problems.append(f"wicket-{n}: its + side does not point toward the right endpost "
                            f"(cosine {along:.2f})")
    return problems
