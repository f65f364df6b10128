"""Table layouts for Lewis Carroll's Castle Croquet (RULES-SPEC §3.4), and its named spots.

Three builders, all producing :class:`referee.layout.Layout` objects in the table frame of
ARCHITECTURE.md (castle 1 south, castles numbered clockwise seen from above):

- :func:`carroll_hub_layout` (`car_layout=ccn_hub`, the default): the Castle Croquetnole hub of
  §2.5 (four shared gateposts, 8 door tiles, 4 towers), with Carroll's start spots;
- :func:`carroll_open_layout` (`car_layout=carroll_open`): separate gates, a real Wasteland in
  the middle (8 gate tiles, 8 door tiles, 4 two-tile towers: all 24 tiles of a piecepack);
- :func:`carroll_five_layout` (CAR-23, G-CAR-16): the open arrangement on a ring of five
  castles 72° apart.  It needs 30 tiles, so a second piecepack (or any five tile stand-ins).

Carroll's rules need spots that Croquetnole has not ("behind the door", "behind the flag").
They are *derived from the geometry* of any layout by :func:`carroll_spots` (the gate line, the
door line and the tower), so a layout loaded from a file gets them too.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

from referee.geometry import COIN_DIAMETER_MM, TILE_MM, Point, dot, rotate, sub
from referee.layout import (
    CARD_TABLE_MM,
    GUARDS,
    SUITS,
    Castle,
    Layout,
    Line,
    Piece,
    castle_croquetnole_layout,
    check_layout,
    square_table,
)

GAME = "carroll-castle-croquet"

SOLDIER_INSET_MM = 12.0
"""CAR-03: the soldier starts "just within the gate": its centre 12 mm past the gate line."""
PRISONER_CLEARANCE_MM = 2.0
"""G-CAR-03: a prisoner's centre is r + 2 mm beyond the tower's outer face."""
SIDE_STEP_MM = 22.0
"""G-CAR-03: further prisoners (and released soldiers) stand 22 mm to the side."""
SIDE_OFFSETS = (0.0, SIDE_STEP_MM, -SIDE_STEP_MM, 2 * SIDE_STEP_MM)
"""Sideways offsets of the 1st, 2nd, 3rd (and, with five castles, 4th) prisoner of a castle."""

FIVE_SOLDIERS = ("moons", "suns", "crowns", "arms", "null")
"""CAR-23: the fifth soldier is the coin set up showing its blank (`null`) face."""
FIVE_SENTINELS = ("ace", "2", "3", "4", "5")

COLOURS_4: dict[int, tuple[str, str]] = {
    1: ("Blue", "Green"), 2: ("Black", "Brown"), 3: ("Orange", "Yellow"), 4: ("Red", "Pink")}
"""CAR-22: Carroll's soldier and sentinel colours, four players (cosmetic)."""
COLOURS_5: dict[int, tuple[str, str]] = {
    1: ("Blue", "Light Blue"), 2: ("Black", "Brown"), 3: ("Orange", "Yellow"),
    4: ("Green", "Light Green"), 5: ("Red", "Pink")}
"""CAR-23: Carroll's arrangement of the ten balls for five players (cosmetic)."""


@dataclass(frozen=True)
class CarrollSpots:
    """The points of one castle that Carroll's rules name (all in table mm)."""

    soldier_start: Point
    """CAR-03: just within the gate."""
    sentinel_start: Point
    """CAR-03: half-way between the gate and the door (also where a rescuer goes, CAR-14)."""
    released: tuple[Point, ...]
    """CAR-15: "behind the door", one point per possible released soldier (side offsets)."""
    prisoners: tuple[Point, ...]
    """CAR-11: "behind the flag", one point per possible prisoner (side offsets)."""
    axis_in: Point
    """Unit vector along the castle axis pointing inward (gate → door → flag)."""
    gate_mid: Point
    door_mid: Point


def _mid(line: Line) -> Point:
    return ((line.a[0] + line.b[0]) / 2.0, (line.a[1] + line.b[1]) / 2.0)


def _along(p: Point, axis: Point, d: float, side: Point = (0.0, 0.0), s: float = 0.0) -> Point:
    return (round(p[0] + axis[0] * d + side[0] * s, 6) + 0.0,
            round(p[1] + axis[1] * d + side[1] * s, 6) + 0.0)


def carroll_spots(layout: Layout, number: int) -> CarrollSpots:
    """Carroll's spots of castle `number`, from its gate line, door line and tower (§3.4).

    - soldier start: 12 mm inside the gate line on the castle axis;
    - sentinel start: the midpoint of the gate line and the door line;
    - released ("behind the door"): half-way between the door line and the tower centre,
      as §3.4's coordinates give it (G-CAR-04's words say "the tower face"; §3.4's numbers
      are used, both are behind the door and clear of the tower);
    - prisoners ("behind the flag"): r + 2 mm beyond the tower's outer face (G-CAR-03).
    """
    castle = layout.castles[number]
    gate, door = layout.lines[castle.gate], layout.lines[castle.door]
    tower = layout.pieces[castle.tower]
    axis = gate.normal
    side = (-axis[1], axis[0])
    g, d = _mid(gate), _mid(door)
    t_depth = dot(sub(tower.center_mm, g), axis)
    d_depth = dot(sub(d, g), axis)
    half = tower.size_mm / 2.0
    r = layout.coin_mm / 2.0
    prison_depth = t_depth + half + r + PRISONER_CLEARANCE_MM
    released_depth = (d_depth + t_depth) / 2.0
    return CarrollSpots(
        soldier_start=_along(g, axis, SOLDIER_INSET_MM),
        sentinel_start=_along(g, axis, d_depth / 2.0),
        released=tuple(_along(g, axis, released_depth, side, s) for s in SIDE_OFFSETS),
        prisoners=tuple(_along(g, axis, prison_depth, side, s) for s in SIDE_OFFSETS),
        axis_in=axis,
        gate_mid=g,
        door_mid=d,
    )


def _with_carroll_starts(layout: Layout) -> Layout:
    """The layout with each castle's knight/guard spots set to Carroll's start points."""
    castles: dict[int, Castle] = {}
    for n, c in layout.castles.items():
        spots = carroll_spots(layout, n)
        castles[n] = replace(c, knight_spot=spots.soldier_start,
                             guard_spot=spots.sentinel_start)
    return replace(layout, castles=castles)


def carroll_hub_layout(orientation: str = "sides", *, tile_mm: float = TILE_MM,
                       coin_mm: float = COIN_DIAMETER_MM) -> Layout:
    """`ccn_hub` (§3.4): the Croquetnole hub layout of §2.5 with Carroll's start spots.

    The 8 "arches" become the 4 shared gateposts and the 8 door tiles (CAR-01, G-CAR-02).
    """
    base = castle_croquetnole_layout(orientation, "edge", tile_mm=tile_mm, coin_mm=coin_mm,
                                     game=GAME)
    return replace(_with_carroll_starts(base), name=f"carroll-hub-{orientation}")


def _open_ring(castles: int, gate_r: float, orientation: str, tile_mm: float, coin_mm: float,
               soldiers: tuple[str, ...], sentinels: tuple[str, ...], name: str,
               table_mm: float) -> Layout:
    """Separate gates on a ring: castle k's axis is turned clockwise by 360°/N per castle.

    In castle 1's frame (south): gate tiles at (±2T, −R), door tiles at (±2T, −R − 2T),
    tower at (0, −R − 4T); gate and door openings are one tile wide (§3.4).
    """
    if orientation not in ("sides", "corners"):
        raise ValueError(f"orientation must be 'sides' or 'corners', got {orientation!r}")
    t, c = tile_mm, coin_mm
    turn = -45.0 if orientation == "corners" else 0.0
    step = 360.0 / castles
    gate_y, door_y, tower_y = -gate_r, -gate_r - 2 * t, -gate_r - 4 * t
    pieces: dict[str, Piece] = {}
    lines: dict[str, Line] = {}
    out: dict[int, Castle] = {}

    for k in range(1, castles + 1):
        angle = -step * (k - 1) + turn

        def place(p: Point, angle: float = angle) -> Point:
            x, y = rotate(p, angle)
            return (round(x, 6) + 0.0, round(y, 6) + 0.0)

        tile_angle = angle % 90.0
        suit = SUITS[k - 1] if k <= len(SUITS) else "null"
        for tag, y in (("gate", gate_y), ("door", door_y)):
            for side, x in (("a", -t), ("b", t)):
                pieces[f"{tag}-{k}-{side}"] = Piece(f"{tag}-{k}-{side}", "post" if tag == "gate"
                                                    else "door", place((x, y)), t, tile_angle,
                                                    castle=k)
        pieces[f"tower-{k}"] = Piece(f"tower-{k}", "tower", place((0.0, tower_y)), t,
                                     tile_angle, layers=2,
                                     top=f"ace-of-{suit}" if k <= len(SUITS) else None, castle=k)
        normal = place((0.0, -1.0))
        lines[f"gate-{k}"] = Line(f"gate-{k}", place((-t / 2, gate_y)), place((t / 2, gate_y)),
                                  normal, False, k)
        lines[f"door-{k}"] = Line(f"door-{k}", place((-t / 2, door_y)), place((t / 2, door_y)),
                                  normal, True, k)
        h = t / 4
        slots = {0: (-h, tower_y - h), 1: (h, tower_y - h), 2: (h, tower_y + h),
                 3: (-h, tower_y + h)}
        out[k] = Castle(number=k, suit=suit, knight=soldiers[k - 1], guard=sentinels[k - 1],
                        gate=f"gate-{k}", door=f"door-{k}", tower=f"tower-{k}",
                        knight_spot=(0.0, 0.0), guard_spot=(0.0, 0.0),
                        tower_slots={s: place(p) for s, p in slots.items()},
                        start_gap_mm=(0.0, c))
    layout = Layout(name=name, game=GAME, table=square_table(table_mm, table_mm), tile_mm=t,
                    coin_mm=c, pieces=dict(sorted(pieces.items())), lines=lines, castles=out)
    return _with_carroll_starts(layout)


def carroll_open_layout(orientation: str = "sides", *, tile_mm: float = TILE_MM,
                        coin_mm: float = COIN_DIAMETER_MM,
                        table_mm: float = CARD_TABLE_MM) -> Layout:
    """`carroll_open` (§3.4): 8 gate tiles, 8 door tiles and 4 towers; gate lines 2.5 T from
    the centre, so neighbouring gate tiles leave a 35.9 mm passage at their corners."""
    return _open_ring(4, 2.5 * tile_mm, orientation, tile_mm, coin_mm, tuple(SUITS),
                      tuple(GUARDS), f"carroll-open-{orientation}", table_mm)


FIVE_GATE_RADIUS_TILES = 3.2
"""G-CAR-16: with five castles the gate lines sit 3.2 T from the centre, so neighbouring gate
tiles still leave a coin-sized passage (≈ 37 mm) and every tower fits a 34-inch table."""


def carroll_five_layout(orientation: str = "sides", *, tile_mm: float = TILE_MM,
                        coin_mm: float = COIN_DIAMETER_MM,
                        table_mm: float = CARD_TABLE_MM) -> Layout:
    """CAR-23 / G-CAR-16: five open castles on a pentagonal ring (30 tiles: two packs).

    Coins: soldiers moons, suns, crowns, arms and the blank-faced `null` coin; sentinels ace,
    2, 3, 4 and 5.  Castle 5's flag has no Ace of its own suit (a piecepack has four suits):
    any tile of the second pack tops it.
    """
    return _open_ring(5, FIVE_GATE_RADIUS_TILES * tile_mm, orientation, tile_mm, coin_mm,
                      FIVE_SOLDIERS, FIVE_SENTINELS, f"carroll-five-{orientation}", table_mm)


def build_layout(kind: str, orientation: str = "sides") -> Layout:
    """The named Carroll layout: `ccn_hub`, `carroll_open` or `carroll_five`."""
    builders = {"ccn_hub": carroll_hub_layout, "carroll_open": carroll_open_layout,
                "carroll_five": carroll_five_layout}
    if kind not in builders:
        raise ValueError(f"unknown Carroll layout {kind!r}; valid: {', '.join(builders)}")
    layout = builders[kind](orientation)
    problems = check_layout(layout)
    if problems:  # pragma: no cover - the builders are tested to give none
        raise ValueError(f"layout {layout.name}: " + "; ".join(problems))
    return layout


def passage_mm(layout: Layout, a: str, b: str) -> float:
    """The smallest corner-to-edge clearance between two tiles (for checking the ring)."""
    from referee.geometry import point_segment_distance

    pa, pb = layout.pieces[a].footprint(), layout.pieces[b].footprint()
    best = math.inf
    for poly, other in ((pa, pb), (pb, pa)):
        for p in poly:
            for i in range(len(other)):
                best = min(best, point_segment_distance(p, other[i], other[(i + 1) % len(other)]))
    return best
