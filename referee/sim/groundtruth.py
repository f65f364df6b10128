"""Exact physical events (CONTRACT.md) from a simulated flick.

The simulator reports every impulse; the contract wants *onsets*.  Two bodies that touched
(centres within c + ε_contact, or a coin within r + ε_contact of a piece) when the flick began,
or since their last impulse, are "in contact": a further impulse between them is pushing, not a
new hit, until they have been more than ε_contact apart (RULES-SPEC §1.2).  Crossings are exact
roots of the straight-line slides: the centre's signed distance to a line is linear in the path
length σ, and σ(t) is inverted in closed form.

The side convention matches :func:`referee.geometry.segment_crossing`: a centre exactly on a
line counts as being on its `+` side.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from referee.events import Contact, Cross, Event, Flick, Hit, OffTable, Settled
from referee.geometry import EPS_CONTACT_MM, Point
from referee.layout import Line
from referee.sim.physics import Impact, Obstacle, SimResult, Slide, Table, position_at

T_DECIMALS = 9
"""Event times are written to the nanosecond."""
MM_DECIMALS = 6
"""Positions are written to the nanometre (6 decimals of a millimetre)."""

_ORDER = {"flick": 0, "cross": 1, "contact": 2, "hit": 3, "off_table": 4, "settled": 5}
"""Tie order at one instant (RULES-SPEC §1.3: crossings before contacts)."""


def round_t(t: float) -> float:
    return round(t, T_DECIMALS) + 0.0


def round_point(p: Point) -> Point:
    return (round(p[0], MM_DECIMALS) + 0.0, round(p[1], MM_DECIMALS) + 0.0)


@dataclass(frozen=True)
class TimedCrossing:
    """A centre crossing a line at an exact time (before rounding for the file)."""

    t: float
    coin: str
    line: str
    dir: str
    at_mm: Point


def slide_intervals(result: SimResult, coin: str) -> list[tuple[Slide, float]]:
    """Each slide of `coin` with the time it stops being in force (next slide, fall or rest)."""
    slides = result.slides[coin]
    ends = [s.t0 for s in slides[1:]]
    fall = next((e.t for e in result.exits if e.coin == coin), None)
    ends.append(fall if fall is not None else max(result.t_rest, slides[-1].t0))
    return list(zip(slides, ends, strict=True))


def line_crossings(result: SimResult, lines: Iterable[Line]) -> list[TimedCrossing]:
    """Every crossing of a coin centre over a line segment during the flick, in time order.

    On a slide p = p0 + ûσ the signed distance is s(σ) = s0 + (û·n) σ; the side changes at
    σ* = −s0 / (û·n) when that lies within the slide and the point within the segment.
    """
    out: list[TimedCrossing] = []
    lines = list(lines)
    for coin in sorted(result.slides):
        for slide, t_end in slide_intervals(result, coin):
            if not slide.moving:
                continue
            sigma_end = slide.path_mm(t_end)
            for line in lines:
                crossing = _slide_crossing(slide, sigma_end, line)
                if crossing is not None:
                    sigma, direction = crossing
                    out.append(TimedCrossing(slide.time_at_path(sigma), coin, line.name,
                                             direction, slide.position(slide.time_at_path(sigma))))
    out.sort(key=lambda c: (c.t, c.coin, c.line))
    return out


def _slide_crossing(slide: Slide, sigma_end: float, line: Line) -> tuple[float, str] | None:
    n = line.normal
    k = slide.direction[0] * n[0] + slide.direction[1] * n[1]
    s0 = line.side(slide.p0)
    if k > 0.0 and s0 < 0.0 and s0 + k * sigma_end >= 0.0:
        sigma, direction = -s0 / k, "+"
    elif k < 0.0 and s0 >= 0.0 and s0 + k * sigma_end < 0.0:
        sigma, direction = -s0 / k, "-"
    else:
        return None
    p = (slide.p0[0] + slide.direction[0] * sigma, slide.p0[1] + slide.direction[1] * sigma)
    ab = (line.b[0] - line.a[0], line.b[1] - line.a[1])
    u = ((p[0] - line.a[0]) * ab[0] + (p[1] - line.a[1]) * ab[1]) / (ab[0] ** 2 + ab[1] ** 2)
    return (sigma, direction) if 0.0 <= u <= 1.0 else None


def contact_onsets(result: SimResult, start_positions: Mapping[str, Point], table: Table,
                   eps_mm: float = EPS_CONTACT_MM) -> list[Impact]:
    """The impulses that begin a contact (RULES-SPEC §1.2), in time order.

    A pair (coin–coin or coin–piece) is "in contact" from the flick's start if it was within
    ε of touching then, and after each impulse; it leaves that state once its gap has exceeded
    ε.  Only an impulse of a pair not in contact is an onset.
    """
    r = table.params.coin_radius_mm
    obstacles = {o.name: o for o in table.obstacles}
    last_touch: dict[tuple[str, str], float] = {}
    names = sorted(start_positions)
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            if math.dist(start_positions[a], start_positions[b]) <= 2 * r + eps_mm:
                last_touch[(a, b)] = result.t_start
        for ob in table.obstacles:
            if ob.distance(start_positions[a]) <= r + eps_mm:
                last_touch[(a, ob.name)] = result.t_start
    onsets: list[Impact] = []
    for imp in result.impacts:
        key = (imp.a, imp.b) if imp.kind == "piece" else tuple(sorted((imp.a, imp.b)))
        since = last_touch.get(key)  # type: ignore[arg-type]
        if since is None or _max_gap(result, imp, obstacles, since, r) > eps_mm:
            onsets.append(imp)
        last_touch[key] = imp.t  # type: ignore[index]
    return onsets


def _max_gap(result: SimResult, imp: Impact, obstacles: Mapping[str, Obstacle], t0: float,
             r: float) -> float:
    """The largest edge-to-edge gap of the impact's pair over [t0, imp.t] (sampled finely)."""
    if imp.t <= t0:
        return 0.0
    ts = np.linspace(t0, imp.t, max(64, min(20_000, int((imp.t - t0) / 1e-4))))
    pa = [position_at(result.slides[imp.a], float(t)) for t in ts]
    if imp.kind == "piece":
        ob = obstacles[imp.b]
        return max(ob.distance(p) - r for p in pa)
    pb = [position_at(result.slides[imp.b], float(t)) for t in ts]
    return max(math.dist(p, q) - 2 * r for p, q in zip(pa, pb, strict=True))


def flick_events(result: SimResult, flicked: Sequence[str], lines: Iterable[Line],
                 table: Table, *, resting: Mapping[str, Point] | None = None,
                 finger_ms: float | None = None) -> list[Event]:
    """The contract's events of one flick, from `flick` to `settled`, ordered by time.

    `resting` adds coins that took no part in the physics but are visibly at rest (e.g. on a
    tower) to the `settled` positions.
    """
    start = {c: s[0].p0 for c, s in result.slides.items()}
    keyed: list[tuple[float, int, int, Event]] = []

    def add(t: float, event: Event, active: bool) -> None:
        keyed.append((t, _ORDER[event.type], 0 if active else 1, event))

    for coin in flicked:
        add(result.t_start, Flick(round_t(result.t_start), coin, finger_ms), True)
    for c in line_crossings(result, lines):
        add(c.t, Cross(round_t(c.t), c.coin, c.line, c.dir, round_point(c.at_mm)),
            c.coin in flicked)
    for imp in contact_onsets(result, start, table):
        speed = round(imp.normal_speed_mm_s, 3)
        if imp.kind == "coin":
            a, b = (imp.a, imp.b) if imp.a in imp.moving or imp.b not in imp.moving else (
                imp.b, imp.a)
            add(imp.t, Contact(round_t(imp.t), a, b, imp.moving, speed),
                bool({a, b} & set(flicked)))
        else:
            add(imp.t, Hit(round_t(imp.t), imp.a, imp.b, speed), imp.a in flicked)
    for ex in result.exits:
        add(ex.t, OffTable(round_t(ex.t), ex.coin, round_point(ex.at_mm)), ex.coin in flicked)
    positions = {c: round_point(p) for c, p in result.final_positions().items()}
    positions.update({c: round_point(p) for c, p in (resting or {}).items()})
    add(result.t_rest, Settled(round_t(result.t_rest), dict(sorted(positions.items()))), True)
    keyed.sort(key=lambda k: k[:3])
    return [k[3] for k in keyed]
