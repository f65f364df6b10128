"""Table layouts in table millimetres: named tiles and stacks, lines with a `+` side, castles.

The frame is ARCHITECTURE.md's: origin at the table centre, +x east, +y north, castle 1
(Moons) south and castles numbered clockwise seen from above.  The default Castle Croquetnole
layout (RULES-SPEC §2.5) is *built by code* from the piecepack's measures, so a pack with other
tiles or coins gets a consistent layout.  Layouts load from and save to JSON; loading validates
and reports every problem at once (`LayoutError.problems`).
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property
from pathlib import Path
from typing import Any

from referee.geometry import (
    COIN_DIAMETER_MM,
    TILE_MM,
    Point,
    dist,
    dot,
    point_in_polygon,
    rotate,
    square_corners,
    sub,
)

FORMAT = "piecepack-layout"
VERSION = 1

SUITS = ("moons", "suns", "crowns", "arms")
"""Castle i belongs to suit SUITS[i-1]; the knight coin is named by that suit."""
GUARDS = ("ace", "2", "3", "4")
"""Castle i's guard shows this value face (CCN-03: Moon/Ace, Sun/2, Crown/3, Arms/4)."""


class LayoutError(ValueError):
    """A layout that cannot be used; `problems` lists every problem found, not just the first."""

    def __init__(self, problems: Sequence[str], source: str = "layout") -> None:
        self.problems = list(problems)
        self.source = source
        super().__init__(f"{source}: {len(self.problems)} problem(s): " + "; ".join(self.problems))


@dataclass(frozen=True)
class Piece:
    """A tile lying on the table, or a stack of tiles (tower, endpost)."""

    name: str
    role: str  # post | door | tower | wicket | endpost | tile
    center_mm: Point
    size_mm: float = TILE_MM
    angle_deg: float = 0.0
    layers: int = 1
    top: str | None = None  # the face-up top tile of a stack, e.g. "ace-of-moons"
    castle: int | None = None

    @property
    def is_stack(self) -> bool:
        return self.layers > 1

    def footprint(self) -> list[Point]:
        return list(self._corners)

    @cached_property
    def _corners(self) -> tuple[Point, ...]:
        """The footprint's corners, worked out once (a piece is frozen; vision asks of every
        blob, every frame, whether it lies on a tower's top)."""
        return tuple(square_corners(self.center_mm, self.size_mm, self.angle_deg))

    @cached_property
    def _bounds(self) -> tuple[float, float, float, float]:
        xs, ys = [c[0] for c in self._corners], [c[1] for c in self._corners]
        return min(xs), min(ys), max(xs), max(ys)

    def covers(self, p: Point) -> bool:
        """Is `p` within the footprint (its bounding box first: most points are far)?"""
        x0, y0, x1, y1 = self._bounds
        return x0 <= p[0] <= x1 and y0 <= p[1] <= y1 and point_in_polygon(p, self._corners)


@dataclass(frozen=True)
class Line:
    """A gate, door or wicket: the segment a-b and the unit normal pointing to its `+` side."""

    name: str
    a: Point
    b: Point
    normal: Point
    either_way: bool = False
    castle: int | None = None

    @property
    def length(self) -> float:
        return dist(self.a, self.b)

    def side(self, p: Point) -> float:
        """Signed distance of `p` from the line, positive on the `+` side."""
        return dot(sub(p, self.a), self.normal)


@dataclass(frozen=True)
class Castle:
    """One castle of Castle Croquetnole (or Carroll's game): its pieces, lines and spots."""

    number: int
    suit: str
    knight: str
    guard: str
    gate: str
    door: str
    tower: str
    knight_spot: Point
    guard_spot: Point
    tower_slots: dict[int, Point]
    start_gap_mm: tuple[float, float] = (0.0, COIN_DIAMETER_MM)


@dataclass(frozen=True)
class Layout:
    """Everything the referee knows about where things stand on the table."""

    name: str
    game: str
    table: list[Point]
    tile_mm: float = TILE_MM
    coin_mm: float = COIN_DIAMETER_MM
    pieces: dict[str, Piece] = field(default_factory=dict)
    lines: dict[str, Line] = field(default_factory=dict)
    castles: dict[int, Castle] = field(default_factory=dict)

    # -- queries -------------------------------------------------------------------------
    def piece(self, name: str) -> Piece:
        return self.pieces[name]

    def line(self, name: str) -> Line:
        return self.lines[name]

    def on_table(self, p: Point) -> bool:
        return point_in_polygon(p, self.table)

    def stack_at(self, p: Point) -> str | None:
        """The stack of tiles (a tower, an endpost) whose top holds a coin centred at `p`."""
        for piece in self.pieces.values():
            if piece.is_stack and piece.covers(p):
                return piece.name
        return None

    def inset_from_edge(self, at: Point, inset_mm: float) -> Point:
        """A point moved inside the table so its distance to every edge is ≥ `inset_mm`.

        Used to return a coin that fell off (CCN-49/50, G-CCN-37): it goes back to the spot
        where it fell, tangent to the edge; near a corner it is clamped inside both edges.
        """
        p = at
        for _ in range(4):  # a few passes settle corners of any convex table
            moved = False
            n = len(self.table)
            for i in range(n):
                e0, e1 = self.table[i], self.table[(i + 1) % n]
                edge = sub(e1, e0)
                length = math.hypot(*edge)
                inward = (-edge[1] / length, edge[0] / length)  # counter-clockwise polygon
                if self._orientation() < 0:
                    inward = (-inward[0], -inward[1])
                depth = dot(sub(p, e0), inward)
                if depth < inset_mm:
                    p = (p[0] + (inset_mm - depth) * inward[0],
                         p[1] + (inset_mm - depth) * inward[1])
                    moved = True
            if not moved:
                break
        return p

    def _orientation(self) -> float:
        area = 0.0
        n = len(self.table)
        for i in range(n):
            x1, y1 = self.table[i]
            x2, y2 = self.table[(i + 1) % n]
            area += x1 * y2 - x2 * y1
        return area

    # -- JSON ----------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        def pt(p: Point) -> list[float]:
            return [round(p[0], 6) + 0.0, round(p[1], 6) + 0.0]

        return {
            "format": FORMAT,
            "version": VERSION,
            "name": self.name,
            "game": self.game,
            "units": "mm",
            "frame": "origin table centre, +x east, +y north; castles numbered clockwise",
            "table": {"corners": [pt(c) for c in self.table]},
            "tile_mm": self.tile_mm,
            "coin_mm": self.coin_mm,
            "pieces": [
                {"name": p.name, "role": p.role, "center": pt(p.center_mm), "size": p.size_mm,
                 "angle": round(p.angle_deg, 6), "layers": p.layers, "top": p.top,
                 "castle": p.castle}
                for p in self.pieces.values()
            ],
            "lines": [
                {"name": ln.name, "a": pt(ln.a), "b": pt(ln.b), "normal": pt(ln.normal),
                 "either_way": ln.either_way, "castle": ln.castle}
                for ln in self.lines.values()
            ],
            "castles": [
                {"number": c.number, "suit": c.suit, "knight": c.knight, "guard": c.guard,
                 "gate": c.gate, "door": c.door, "tower": c.tower,
                 "knight_spot": pt(c.knight_spot), "guard_spot": pt(c.guard_spot),
                 "tower_slots": {str(k): pt(v) for k, v in sorted(c.tower_slots.items())},
                 "start_gap_mm": list(c.start_gap_mm)}
                for c in self.castles.values()
            ],
        }

    def save(self, path: str | Path) -> None:
        Path(path).write_text(json.dumps(self.to_json(), indent=1) + "\n", encoding="utf-8")


# ------------------------------------------------------------------------------ loading


class _Reader:
    """Collects problems while reading a JSON layout, so all of them are reported together."""

    def __init__(self) -> None:
        self.problems: list[str] = []

    def get(self, obj: Any, key: str, where: str, kind: type | tuple[type, ...],
            default: Any = ..., ) -> Any:
        if not isinstance(obj, dict) or key not in obj or obj[key] is None:
            if default is not ...:
                return default
            self.problems.append(f"{where}: missing {key!r}")
            return None
        value = obj[key]
        ok = isinstance(value, kind) and not (isinstance(value, bool) and kind is not bool)
        if kind in ((int, float), float) and isinstance(value, bool):
            ok = False
        if not ok:
            self.problems.append(f"{where}: {key!r} has the wrong type ({value!r})")
            return None
        return value

    def point(self, obj: Any, key: str, where: str) -> Point | None:
        value = self.get(obj, key, where, list)
        if value is None:
            return None
        if len(value) != 2 or not all(
                isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v)
                for v in value):
            self.problems.append(f"{where}: {key!r} must be [x, y] in mm, got {value!r}")
            return None
        return (float(value[0]), float(value[1]))


def layout_from_json(data: Any, source: str = "layout") -> Layout:
    """Build and validate a layout; raise LayoutError listing every problem found."""
    r = _Reader()
    if not isinstance(data, dict):
        raise LayoutError(["the layout must be a JSON object"], source)
    if data.get("format") != FORMAT:
        r.problems.append(f"'format' must be {FORMAT!r}, got {data.get('format')!r}")
    if data.get("version") != VERSION:
        r.problems.append(f"'version' must be {VERSION}, got {data.get('version')!r}")
    name = r.get(data, "name", "layout", str, "unnamed")
    game = r.get(data, "game", "layout", str)
    tile = r.get(data, "tile_mm", "layout", (int, float), TILE_MM)
    coin = r.get(data, "coin_mm", "layout", (int, float), COIN_DIAMETER_MM)
    if tile is not None and tile <= 0:
        r.problems.append(f"tile_mm must be positive, got {tile}")
    if coin is not None and coin <= 0:
        r.problems.append(f"coin_mm must be positive, got {coin}")

    table: list[Point] = []
    corners = r.get(r.get(data, "table", "layout", dict, {}), "corners", "table", list)
    for i, _ in enumerate(corners or []):
        p = r.point({"c": corners[i]}, "c", f"table corner {i + 1}")
        if p is not None:
            table.append(p)
    if corners is not None and len(corners) < 3:
        r.problems.append(f"the table needs at least 3 corners, got {len(corners)}")

    pieces: dict[str, Piece] = {}
    for i, obj in enumerate(r.get(data, "pieces", "layout", list, []) or []):
        where = f"piece {i + 1}"
        pname = r.get(obj, "name", where, str)
        where = f"piece {pname!r}" if pname else where
        role = r.get(obj, "role", where, str)
        center = r.point(obj, "center", where)
        size = r.get(obj, "size", where, (int, float), tile)
        angle = r.get(obj, "angle", where, (int, float), 0.0)
        layers = r.get(obj, "layers", where, int, 1)
        top = r.get(obj, "top", where, str, None)
        castle = r.get(obj, "castle", where, int, None)
        if size is not None and size <= 0:
            r.problems.append(f"{where}: size must be positive, got {size}")
        if layers is not None and layers < 1:
            r.problems.append(f"{where}: layers must be at least 1, got {layers}")
        if pname in pieces:
            r.problems.append(f"{where}: the name is used twice")
        if pname and role and center and size and angle is not None and layers:
            pieces[pname] = Piece(pname, role, center, float(size), float(angle), layers, top,
                                  castle)

    lines: dict[str, Line] = {}
    for i, obj in enumerate(r.get(data, "lines", "layout", list, []) or []):
        where = f"line {i + 1}"
        lname = r.get(obj, "name", where, str)
        where = f"line {lname!r}" if lname else where
        a, b = r.point(obj, "a", where), r.point(obj, "b", where)
        normal = r.point(obj, "normal", where)
        either = r.get(obj, "either_way", where, bool, False)
        castle = r.get(obj, "castle", where, int, None)
        if lname in lines:
            r.problems.append(f"{where}: the name is used twice")
        if a and b and dist(a, b) < 1.0:
            r.problems.append(f"{where}: the segment is shorter than 1 mm")
        if normal:
            norm = math.hypot(*normal)
            if abs(norm - 1.0) > 1e-3:
                r.problems.append(f"{where}: the normal must have length 1, got {norm:.4f}")
            elif a and b and dist(a, b) >= 1.0 and abs(dot(sub(b, a), normal)) / dist(a, b) > 1e-3:
                r.problems.append(f"{where}: the normal is not perpendicular to the segment")
        if lname and a and b and normal:
            lines[lname] = Line(lname, a, b, normal, bool(either), castle)

    castles: dict[int, Castle] = {}
    for i, obj in enumerate(r.get(data, "castles", "layout", list, []) or []):
        where = f"castle {i + 1}"
        number = r.get(obj, "number", where, int)
        where = f"castle {number}" if number else where
        fields_ = {k: r.get(obj, k, where, str)
                   for k in ("suit", "knight", "guard", "gate", "door", "tower")}
        kspot, gspot = r.point(obj, "knight_spot", where), r.point(obj, "guard_spot", where)
        slots_raw = r.get(obj, "tower_slots", where, dict, {})
        slots: dict[int, Point] = {}
        for key in slots_raw or {}:
            p = r.point(slots_raw, key, f"{where} tower slot {key}")
            if p is not None and key.isdigit():
                slots[int(key)] = p
            elif not key.isdigit():
                r.problems.append(f"{where}: tower slot {key!r} must be a number")
        gap = r.get(obj, "start_gap_mm", where, list, [0.0, coin])
        for key in ("gate", "door"):
            if fields_[key] and fields_[key] not in lines:
                r.problems.append(f"{where}: its {key} {fields_[key]!r} is not a line")
        if fields_["tower"] and fields_["tower"] not in pieces:
            r.problems.append(f"{where}: its tower {fields_['tower']!r} is not a piece")
        if number in castles:
            r.problems.append(f"{where}: the number is used twice")
        if number and all(fields_.values()) and kspot and gspot:
            castles[number] = Castle(number, fields_["suit"], fields_["knight"], fields_["guard"],
                                     fields_["gate"], fields_["door"], fields_["tower"], kspot,
                                     gspot, slots, (float(gap[0]), float(gap[1])))

    layout = Layout(name or "unnamed", game or "", table, float(tile or TILE_MM),
                    float(coin or COIN_DIAMETER_MM), pieces, lines, castles)
    r.problems.extend(check_layout(layout))
    if r.problems:
        raise LayoutError(r.problems, source)
    return layout


def check_layout(layout: Layout) -> list[str]:
    """Semantic problems of a well-formed layout (each with its size where it has one)."""
    problems: list[str] = []
    for piece in layout.pieces.values():
        outside = [c for c in piece.footprint() if not layout.on_table(c)]
        if outside:
            problems.append(f"piece {piece.name!r} is not wholly on the table")
    names = sorted(layout.pieces)
    for i, n1 in enumerate(names):
        for n2 in names[i + 1:]:
            p1, p2 = layout.pieces[n1], layout.pieces[n2]
            overlap = (p1.size_mm + p2.size_mm) / 2.0 - dist(p1.center_mm, p2.center_mm)
            aligned = abs(p1.angle_deg - p2.angle_deg) % 90.0 < 1e-6
            if aligned and overlap > 0.5:
                dx, dy = rotate(sub(p2.center_mm, p1.center_mm), -p1.angle_deg)
                half = (p1.size_mm + p2.size_mm) / 2.0
                if abs(dx) < half - 0.5 and abs(dy) < half - 0.5:
                    problems.append(f"pieces {n1!r} and {n2!r} overlap")
    if layout.castles:
        numbers = sorted(layout.castles)
        if numbers != list(range(1, len(numbers) + 1)):
            problems.append(f"castles must be numbered 1..{len(numbers)}, got {numbers}")
        elif len(numbers) >= 3 and all(c.tower in layout.pieces for c in layout.castles.values()):
            angles = [math.atan2(layout.pieces[layout.castles[n].tower].center_mm[1],
                                 layout.pieces[layout.castles[n].tower].center_mm[0])
                      for n in numbers]
            steps = [(angles[i] - angles[(i + 1) % len(angles)]) % (2 * math.pi)
                     for i in range(len(angles))]
            if abs(sum(steps) - 2 * math.pi) > 1e-3:
                problems.append("castles are not numbered clockwise seen from above (G-CCN-57)")
        for c in layout.castles.values():
            for spot_name, spot in (("knight_spot", c.knight_spot), ("guard_spot", c.guard_spot)):
                if not layout.on_table(spot):
                    problems.append(f"castle {c.number}: its {spot_name} is off the table")
    return problems


def load_layout(path: str | Path) -> Layout:
    """Read a layout JSON file; LayoutError names the file and every problem."""
    path = Path(path)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise LayoutError([f"cannot read ({exc.strerror})"], str(path)) from None
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise LayoutError([f"not valid JSON ({exc})"], str(path)) from None
    return layout_from_json(data, str(path))


# ------------------------------------------------------------------ the default layouts


def square_table(width_mm: float, height_mm: float | None = None) -> list[Point]:
    """A rectangular table centred on the origin: corners SW, SE, NE, NW."""
    w = width_mm / 2.0
    h = (height_mm if height_mm is not None else width_mm) / 2.0
    return [(-w, -h), (w, -h), (w, h), (-w, h)]


CARD_TABLE_MM = 863.6
"""A 34-inch card table."""


def castle_croquetnole_layout(
    orientation: str = "sides",
    spacing: str = "edge",
    *,
    tile_mm: float = TILE_MM,
    coin_mm: float = COIN_DIAMETER_MM,
    table_mm: tuple[float, float] = (CARD_TABLE_MM, CARD_TABLE_MM),
    gap_scale: float = 1.0,
    game: str = "castle-croquetnole",
) -> Layout:
    """The reconstructed Castle Croquetnole layout of RULES-SPEC §2.5, from the pack's measures.

    Castle 1 is built on the south side and turned clockwise for castles 2, 3 and 4.
    `spacing` is `spacing_measure` (G-CCN-02): `edge` leaves a clear gap of one tile between
    gate and door and between door and tower; `centre` puts the centres one tile apart.
    `orientation` `corners` turns the whole arrangement by −45° (§2.5.4); `gap_scale` widens
    the gaps for larger tables (the openings stay one tile).
    """
    if orientation not in ("sides", "corners"):
        raise ValueError(f"orientation must be 'sides' or 'corners', got {orientation!r}")
    if spacing not in ("edge", "centre"):
        raise ValueError(f"spacing must be 'edge' or 'centre', got {spacing!r}")
    t, c = tile_mm, coin_mm
    gate_y = -t
    if spacing == "edge":
        door_y = gate_y - t / 2 - t * gap_scale - t / 2
        tower_y = door_y - t / 2 - t * gap_scale - t / 2
    else:
        door_y = gate_y - t * gap_scale
        tower_y = door_y - t * gap_scale
    turn = -45.0 if orientation == "corners" else 0.0

    pieces: dict[str, Piece] = {}
    lines: dict[str, Line] = {}
    castles: dict[int, Castle] = {}

    def place(p: Point, k: int) -> Point:
        x, y = rotate(p, -90.0 * (k - 1) + turn)
        return (round(x, 6) + 0.0, round(y, 6) + 0.0)  # micrometres; no -0.0

    post_names = {1: "post-41", 2: "post-12", 3: "post-23", 4: "post-34"}
    # post-41 sits at (+t, -t) in castle 1's frame, i.e. the south-east post.
    for k in range(1, 5):
        suit = SUITS[k - 1]
        angle = turn % 90.0
        pieces[post_names[k]] = Piece(post_names[k], "post", place((t, -t), k), t, angle)
        pieces[f"door-{k}-a"] = Piece(f"door-{k}-a", "door", place((-t, door_y), k), t, angle,
                                      castle=k)
        pieces[f"door-{k}-b"] = Piece(f"door-{k}-b", "door", place((t, door_y), k), t, angle,
                                      castle=k)
        pieces[f"tower-{k}"] = Piece(f"tower-{k}", "tower", place((0.0, tower_y), k), t, angle,
                                     layers=2, top=f"ace-of-{suit}", castle=k)
        normal = place((0.0, -1.0), k)
        lines[f"gate-{k}"] = Line(f"gate-{k}", place((-t / 2, gate_y), k),
                                  place((t / 2, gate_y), k), normal, False, k)
        lines[f"door-{k}"] = Line(f"door-{k}", place((-t / 2, door_y), k),
                                  place((t / 2, door_y), k), normal, True, k)
        h = t / 4
        slots = {0: (-h, tower_y - h), 1: (h, tower_y - h), 2: (h, tower_y + h),
                 3: (-h, tower_y + h)}
        castles[k] = Castle(
            number=k, suit=suit, knight=suit, guard=GUARDS[k - 1],
            gate=f"gate-{k}", door=f"door-{k}", tower=f"tower-{k}",
            knight_spot=place((0.0, tower_y + t / 2 + c), k),
            guard_spot=place((-t / 2 - c, tower_y), k),
            tower_slots={s: place(p, k) for s, p in slots.items()},
            start_gap_mm=(0.0, c),
        )
    return Layout(
        name=f"castle-croquetnole-{orientation}",
        game=game,
        table=square_table(*table_mm),
        tile_mm=t,
        coin_mm=c,
        pieces=dict(sorted(pieces.items())),
        lines=lines,
        castles=castles,
    )


def with_piece_moved(layout: Layout, name: str, center_mm: Point) -> Layout:
    """A copy of `layout` with one piece at another place (for fitted or knocked layouts)."""
    pieces = dict(layout.pieces)
    pieces[name] = replace(pieces[name], center_mm=center_mm)
    return replace(layout, pieces=pieces)
