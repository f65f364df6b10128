"""The geometric predicates of RULES-SPEC §1.2, in table millimetres.

Pure Python on purpose: the rules engine uses these and must not import numpy.  Vision and
the simulator may call the same functions on their own floats, so every call has one meaning.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

Point = tuple[float, float]

TILE_MM = 50.8
"""A piecepack tile is a 2-inch square."""
COIN_DIAMETER_MM = 19.05
"""A piecepack coin is 3/4 inch across."""
TILE_THICKNESS_MM = 4.5
"""A piecepack tile's usual thickness (the simulator's too): a tower of 2 stands 9 mm high."""
EPS_CONTACT_MM = 1.0
EPS_PLACE_MM = 2.0


def sub(a: Point, b: Point) -> Point:
    return (a[0] - b[0], a[1] - b[1])


def dot(a: Point, b: Point) -> float:
    return a[0] * b[0] + a[1] * b[1]


def dist(a: Point, b: Point) -> float:
    return math.hypot(a[0] - b[0], a[1] - b[1])


def rotate(p: Point, degrees: float, about: Point = (0.0, 0.0)) -> Point:
    """Rotate `p` counter-clockwise (seen from above, +y north) by `degrees` about `about`."""
    rad = math.radians(degrees)
    c, s = math.cos(rad), math.sin(rad)
    x, y = p[0] - about[0], p[1] - about[1]
    return (about[0] + c * x - s * y, about[1] + s * x + c * y)


def square_corners(center: Point, size: float, angle_deg: float = 0.0) -> list[Point]:
    """Corners of a square footprint, counter-clockwise."""
    h = size / 2.0
    return [rotate((center[0] + dx, center[1] + dy), angle_deg, center)
            for dx, dy in ((-h, -h), (h, -h), (h, h), (-h, h))]


def point_segment_distance(p: Point, a: Point, b: Point) -> float:
    ab = sub(b, a)
    length2 = dot(ab, ab)
    if length2 == 0.0:
        return dist(p, a)
    u = max(0.0, min(1.0, dot(sub(p, a), ab) / length2))
    return dist(p, (a[0] + u * ab[0], a[1] + u * ab[1]))


def point_in_polygon(p: Point, polygon: Sequence[Point]) -> bool:
    """Even-odd rule; points on the boundary may go either way."""
    inside = False
    x, y = p
    n = len(polygon)
    for i in range(n):
        x1, y1 = polygon[i]
        x2, y2 = polygon[(i + 1) % n]
        if (y1 > y) != (y2 > y):
            x_cross = x1 + (y - y1) * (x2 - x1) / (y2 - y1)
            if x < x_cross:
                inside = not inside
    return inside


def polygon_distance(p: Point, polygon: Sequence[Point]) -> float:
    """Distance from `p` to a filled polygon (0 inside)."""
    if point_in_polygon(p, polygon):
        return 0.0
    n = len(polygon)
    return min(point_segment_distance(p, polygon[i], polygon[(i + 1) % n]) for i in range(n))


@dataclass(frozen=True)
class Crossing:
    """Where and when (as a fraction of the step) a centre crossed a line, and which way."""

    fraction: float
    point: Point
    dir: str  # "+" or "-"


def segment_crossing(p0: Point, p1: Point, a: Point, b: Point, normal: Point) -> Crossing | None:
    """The crossing of the step p0→p1 over segment a-b, with direction by `normal` (§1.2).

    `s(p) = (p − a)·n`; a crossing happens when `s` changes sign (from one side strictly to
    the other side or onto the line) and the crossing point projects inside [a, b].
    Direction is `+` when `s` goes from negative to positive.
    """
    s0 = dot(sub(p0, a), normal)
    s1 = dot(sub(p1, a), normal)
    if (s0 < 0.0) == (s1 < 0.0) or s0 == s1:
        return None
    if s0 >= 0.0 and s1 >= 0.0:
        return None
    fraction = s0 / (s0 - s1)
    point = (p0[0] + fraction * (p1[0] - p0[0]), p0[1] + fraction * (p1[1] - p0[1]))
    ab = sub(b, a)
    u = dot(sub(point, a), ab) / dot(ab, ab)
    if not 0.0 <= u <= 1.0:
        return None
    return Crossing(fraction, point, "+" if s1 > s0 else "-")


def signed_distance(p: Point, a: Point, normal: Point) -> float:
    """Signed distance of `p` from the line through `a` with unit normal `normal`."""
    return dot(sub(p, a), normal)


def coins_touch(pa: Point, pb: Point, coin_d: float = COIN_DIAMETER_MM,
                eps: float = EPS_CONTACT_MM) -> bool:
    """Two coins touch when their centres are at most one diameter (+ tolerance) apart."""
    return dist(pa, pb) <= coin_d + eps


def coin_touches_footprint(p: Point, footprint: Sequence[Point],
                           coin_d: float = COIN_DIAMETER_MM, eps: float = EPS_CONTACT_MM) -> bool:
    return polygon_distance(p, footprint) <= coin_d / 2.0 + eps


def edge_gap_to_footprint(p: Point, footprint: Sequence[Point],
                          coin_d: float = COIN_DIAMETER_MM) -> float:
    """Edge-to-edge gap between a coin and a piece (negative when they overlap)."""
    return polygon_distance(p, footprint) - coin_d / 2.0


def within_coin_width(gap_mm: float, coin_d: float = COIN_DIAMETER_MM,
                      eps: float = EPS_PLACE_MM, measure: str = "edge_gap") -> bool:
    """"Within a coin-width" of something, given the edge-to-edge gap (§1.2, G-CCN-50).

    `edge_gap`: 0 ≤ gap ≤ c + ε.  `centre_gap`: centre distance ≤ c, i.e. gap ≤ c − r.
    """
    if gap_mm < -0.5:  # overlapping; half a millimetre of measurement slack
        return False
    limit = coin_d + eps if measure == "edge_gap" else coin_d / 2.0
    return gap_mm <= limit


def in_contact(pa: Point, pb: Point, coin_d: float = COIN_DIAMETER_MM,
               eps: float = EPS_PLACE_MM) -> bool:
    """Placed in contact: centre distance within [c − 0.5, c + ε] (touching, not overlapping)."""
    d = dist(pa, pb)
    return coin_d - 0.5 <= d <= coin_d + eps
