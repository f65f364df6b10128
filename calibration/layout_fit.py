"""Fitting the game's layout template to the tiles found: names, measured places, problems.

Why: the referee must judge gates and towers where the tiles actually lie, and players must
hear at once everything that is wrong with their set-up, each with its size.  Detected tiles
are matched to the template's pieces by the Hungarian method (linear_sum_assignment) after a
rigid alignment of the whole layout (RANSAC on a first matching), so a layout set up a little
off the table's centre still matches; then every piece and line is measured against it.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace

import cv2
import numpy as np
from scipy.optimize import linear_sum_assignment

from calibration.problems import Problem
from calibration.tiles import BACK, Blob, DetectedTile, assign_suits
from referee.layout import SUITS, Castle, Layout, Line, Piece


@dataclass(frozen=True)
class Tolerances:
    """How far measured tiles may be from the template before it is a problem."""

    place_mm: float = 3.0
    turn_deg: float = 3.0
    opening_mm: float = 2.0
    layout_shift_mm: float = 25.0
    layout_turn_deg: float = 3.0
    match_mm: float = 0.6 * 50.8  # a tile further than this from its place is not that tile


DEFAULT_TOLERANCES = Tolerances()


@dataclass
class Rigid:
    """Table mm → table mm: rotation by `angle_deg` about the origin, then `shift_mm`."""

    angle_deg: float = 0.0
    shift_mm: tuple[float, float] = (0.0, 0.0)

    def apply(self, points_mm: np.ndarray) -> np.ndarray:
        th = math.radians(self.angle_deg)
        rot = np.array([[math.cos(th), -math.sin(th)], [math.sin(th), math.cos(th)]])
        return np.asarray(points_mm, np.float64).reshape(-1, 2) @ rot.T + self.shift_mm


@dataclass
class LayoutFit:
    """The fitted layout (measured positions), which detection is which piece, and problems."""

    layout: Layout
    matches: dict[str, DetectedTile]
    problems: list[Problem]
    rigid: Rigid
    residual_rms_mm: float | None
    openings_mm: dict[str, float] = field(default_factory=dict)

    def report(self) -> str:
        lines = [f"layout fit: {len(self.matches)}/{len(self.layout.pieces)} tiles found"
                 + (f", rms {self.residual_rms_mm:.2f} mm from the template"
                    if self.residual_rms_mm is not None else "")]
        lines += [f"  problem: {p.text}" for p in self.problems]
        return "\n".join(lines)


def _wrap90(angle_deg: float) -> float:
    return (angle_deg + 45.0) % 90.0 - 45.0


def _match(expected_mm: np.ndarray, found_mm: np.ndarray, gate_mm: float
           ) -> list[tuple[int, int]]:
    """Hungarian matching of expected to found points; pairs further than the gate dropped."""
    if len(expected_mm) == 0 or len(found_mm) == 0:
        return []
    cost = np.linalg.norm(expected_mm[:, None, :] - found_mm[None, :, :], axis=2)
    big = 1e6
    rows, cols = linear_sum_assignment(np.where(cost <= gate_mm, cost, big))
    return [(int(r), int(c)) for r, c in zip(rows, cols, strict=True) if cost[r, c] <= gate_mm]


def _rigid_from(src_mm: np.ndarray, dst_mm: np.ndarray, ransac_mm: float) -> Rigid:
    """Rotation + translation taking src to dst: RANSAC inliers (OpenCV), scale held at 1."""
    if len(src_mm) < 2:
        return Rigid()
    m, inliers = cv2.estimateAffinePartial2D(src_mm, dst_mm, method=cv2.RANSAC,
                                             ransacReprojThreshold=ransac_mm)
    if m is None:
        return Rigid()
    angle = math.atan2(m[1, 0], m[0, 0])
    keep = inliers.ravel().astype(bool) if inliers is not None else np.ones(len(src_mm), bool)
    rot = np.array([[math.cos(angle), -math.sin(angle)], [math.sin(angle), math.cos(angle)]])
    shift = (dst_mm[keep] - src_mm[keep] @ rot.T).mean(axis=0)
    return Rigid(math.degrees(angle), (float(shift[0]), float(shift[1])))


def _suit_of(top: str | None) -> str | None:
    return next((s for s in SUITS if top and top.endswith(s)), None)


def fit_layout(template: Layout, tiles: Sequence[DetectedTile], blobs: Sequence[Blob] = (),
               tolerances: Tolerances = DEFAULT_TOLERANCES,
               colours: Mapping[str, tuple[int, int, int]] | None = None) -> LayoutFit:
    """Name every detected tile after its template piece; measure and report every problem."""
    tol = tolerances
    names = list(template.pieces)
    expected = np.array([template.pieces[n].center_mm for n in names], np.float64)
    found = np.array([t.center_mm for t in tiles], np.float64).reshape(-1, 2)

    # 1. the whole layout's place on the table: a loose matching, then a rigid RANSAC fit.
    rigid = Rigid()
    for gate in (1.2 * template.tile_mm, tol.match_mm):
        pairs = _match(rigid.apply(expected), found, gate)
        if len(pairs) >= 2:
            idx_e, idx_f = (np.array(ix) for ix in zip(*pairs, strict=True))
            rigid = _rigid_from(expected[idx_e], found[idx_f], tol.place_mm)
    pairs = _match(rigid.apply(expected), found, tol.match_mm)
    matches = {names[e]: tiles[f] for e, f in pairs}
    faces = [n for n, t in matches.items() if template.pieces[n].is_stack and t.ink_lab]
    if len(faces) > 1:  # one Ace of each suit in a pack: the faces' suits all differ
        suits = assign_suits([matches[n].ink_lab for n in faces], colours)  # type: ignore[misc]
        matches.update({n: replace(matches[n], ink=s) for n, s in zip(faces, suits,
                                                                     strict=True)})
    placed = rigid.apply(expected)

    problems: list[Problem] = []
    shift = math.hypot(*rigid.shift_mm)
    if shift > tol.layout_shift_mm:
        problems.append(Problem("layout_shift", "layout", shift, "mm",
                                f"the layout is {shift:.1f} mm off the table's centre"))
    if abs(rigid.angle_deg) > tol.layout_turn_deg:
        problems.append(Problem("layout_turn", "layout", abs(rigid.angle_deg), "deg",
                                f"the layout is turned {rigid.angle_deg:+.1f}° on the table"))

    # 2. each piece: missing, off its place, turned, or a tower showing the wrong face.
    pieces: dict[str, Piece] = {}
    errors = []
    for i, name in enumerate(names):
        piece = template.pieces[name]
        where = placed[i]
        tile = matches.get(name)
        if tile is None:
            problems.append(Problem(
                "missing", name, None, "mm",
                f"{name} is missing (expected at {where[0]:.0f}, {where[1]:.0f} mm)"))
            pieces[name] = replace(piece, center_mm=(float(where[0]), float(where[1])),
                                   angle_deg=piece.angle_deg + rigid.angle_deg)
            continue
        delta = np.subtract(tile.center_mm, where)
        off = float(np.hypot(*delta))
        errors.append(off)
        if off > tol.place_mm:
            problems.append(Problem(
                "off_place", name, off, "mm",
                f"{name} is {off:.1f} mm off its place (dx {delta[0]:+.1f}, dy {delta[1]:+.1f} "
                f"mm)"))
        turn = _wrap90(tile.angle_deg - piece.angle_deg - rigid.angle_deg)
        if abs(turn) > tol.turn_deg:
            problems.append(Problem("turned", name, abs(turn), "deg",
                                    f"{name} is turned {turn:+.1f}° from its place"))
        if abs(tile.size_mm - piece.size_mm) > 0.1 * piece.size_mm:
            problems.append(Problem(
                "size", name, tile.size_mm - piece.size_mm, "mm",
                f"{name} measures {tile.size_mm:.1f} mm, expected {piece.size_mm:.1f} mm"))
        expected_suit = _suit_of(piece.top) if piece.is_stack else None
        if expected_suit is not None and tile.ink != expected_suit:
            seen = {BACK: "a tile back", None: "no clear face"}.get(tile.ink, tile.ink)
            problems.append(Problem(
                "wrong_top", name, None, "",
                f"{name} shows {seen}; its top should be the {piece.top}"))
        pieces[name] = replace(piece, center_mm=(float(tile.center_mm[0]),
                                                 float(tile.center_mm[1])),
                               angle_deg=piece.angle_deg + _wrap90(tile.angle_deg -
                                                                   piece.angle_deg))
    problems = _castles_reversed(template, matches, problems)
    used = {j for _e, j in pairs}
    for f, tile in enumerate(tiles):
        if f not in used:
            x, y = tile.center_mm
            problems.append(Problem("unexpected", "tile", None, "mm",
                                    f"an unexpected tile lies at {x:.0f}, {y:.0f} mm"))
    for blob in blobs:
        if blob.area_mm2 > 2.0 * template.tile_mm ** 2:
            x, y = blob.center_mm
            problems.append(Problem("unexpected", "object", blob.area_mm2, "mm2",
                                    f"a large object ({blob.area_mm2:.0f} mm²) lies at "
                                    f"{x:.0f}, {y:.0f} mm: tiles touching, or a hand?"))

    # 3. the lines ride on the tiles that flank them; their openings are measured.
    lines, openings = {}, {}
    for line in template.lines.values():
        fitted, width = _fit_line(line, template, pieces, matches, rigid)
        lines[line.name] = fitted
        if width is None:
            continue
        openings[line.name] = width
        short = line.length - width
        if abs(short) > tol.opening_mm:
            how = "too narrow" if short > 0 else "too wide"
            problems.append(Problem(
                "opening_narrow" if short > 0 else "opening_wide", line.name, abs(short), "mm",
                f"{line.name}'s opening is {abs(short):.1f} mm {how} ({width:.1f} mm, "
                f"expected {line.length:.1f} mm)"))

    castles = {k: _fit_castle(c, template, pieces) for k, c in template.castles.items()}
    fitted = replace(template, pieces=pieces, lines=lines, castles=castles)
    rms = float(np.sqrt(np.mean(np.square(errors)))) if errors else None
    return LayoutFit(fitted, matches, problems, rigid, rms, openings)


def _castles_reversed(template: Layout, matches: Mapping[str, DetectedTile],
                      problems: list[Problem]) -> list[Problem]:
    """One problem for castles numbered the wrong way round, instead of its wrong towers.

    Castles are numbered clockwise seen from above (G-CCN-57), so the towers' suits run in
    that order.  When every tower shows a suit and they run the other way round (a mirror of
    the template's order that is not the template's), the towers showing another castle's
    suit are reported together as `castles_reversed`, sized by their number.
    """
    numbers = sorted(template.castles)
    towers = [template.castles[k].tower for k in numbers]
    wanted = [_suit_of(template.pieces[t].top) for t in towers]
    seen = [matches[t].ink if t in matches else None for t in towers]
    n = len(towers)
    if n < 3 or None in wanted or sorted(map(str, seen)) != sorted(map(str, wanted)):
        return problems
    mirrors = [[wanted[(a - k) % n] for k in range(n)] for a in range(n)]
    if seen == wanted or seen not in mirrors:
        return problems
    wrong = [(t, s) for t, s, w in zip(towers, seen, wanted, strict=True) if s != w]
    shown = ", ".join(f"{t} shows {s}" for t, s in wrong)
    kept = [p for p in problems
            if not (p.kind == "wrong_top" and p.subject in {t for t, _s in wrong})]
    return [*kept, Problem(
        "castles_reversed", "castles", float(len(wrong)), "towers",
        f"the castles are numbered the wrong way round (anticlockwise seen from above: "
        f"{shown}); number them clockwise (G-CCN-57)")]


def _motion(template_piece: Piece, fitted_piece: Piece) -> tuple[np.ndarray, float]:
    """(rotation matrix, angle) by which a piece moved from its template place."""
    th = math.radians(fitted_piece.angle_deg - template_piece.angle_deg)
    return np.array([[math.cos(th), -math.sin(th)], [math.sin(th), math.cos(th)]]), th


def _carry(p: tuple[float, float], template_piece: Piece, fitted_piece: Piece
           ) -> tuple[float, float]:
    """A point fixed to a piece, carried along with the piece's measured move."""
    rot, _ = _motion(template_piece, fitted_piece)
    q = rot @ np.subtract(p, template_piece.center_mm) + fitted_piece.center_mm
    return (float(q[0]), float(q[1]))


def _flanking(template: Layout, point: tuple[float, float]) -> Piece | None:
    """The template piece whose footprint holds `point` (a line's end, nudged outwards)."""
    for piece in template.pieces.values():
        c = np.array(piece.center_mm)
        th = math.radians(-piece.angle_deg)
        local = np.array([[math.cos(th), -math.sin(th)], [math.sin(th), math.cos(th)]]) @ (
            np.array(point) - c)
        if np.all(np.abs(local) <= piece.size_mm / 2 + 1e-6):
            return piece
    return None


def _fit_line(line: Line, template: Layout, pieces: dict[str, Piece],
              matches: dict[str, DetectedTile], rigid: Rigid) -> tuple[Line, float | None]:
    """The line's ends carried by their flanking tiles, and the opening width (None if a
    flanking tile is missing)."""
    a, b = np.array(line.a), np.array(line.b)
    u = (b - a) / np.linalg.norm(b - a)
    ends = []
    measured = True
    for end, outward in ((a, -u), (b, u)):
        holder = _flanking(template, tuple(end + 2.0 * outward))
        if holder is None or holder.name not in matches:
            measured = False
            moved = rigid.apply(end[None])[0]
            ends.append((float(moved[0]), float(moved[1])))
        else:
            ends.append(_carry(tuple(end), holder, pieces[holder.name]))
    new_a, new_b = np.array(ends[0]), np.array(ends[1])
    direction = new_b - new_a
    normal = np.array([-direction[1], direction[0]]) / np.linalg.norm(direction)
    if np.dot(normal, line.normal) < 0:
        normal = -normal
    fitted = replace(line, a=ends[0], b=ends[1], normal=(float(normal[0]), float(normal[1])))
    width = float(np.dot(direction, u)) if measured else None
    return fitted, width


def _fit_castle(castle: Castle, template: Layout, pieces: dict[str, Piece]) -> Castle:
    """A castle's spots and tower slots carried along with its tower."""
    t0, t1 = template.pieces[castle.tower], pieces[castle.tower]
    return replace(castle, knight_spot=_carry(castle.knight_spot, t0, t1),
                   guard_spot=_carry(castle.guard_spot, t0, t1),
                   tower_slots={k: _carry(v, t0, t1) for k, v in castle.tower_slots.items()})
