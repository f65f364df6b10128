"""Piecepack coins sliding on a card table: an exact, event-driven 2-D simulator.

Why not a time-stepped engine (pymunk, Box2D)?  The referee is judged on *when* a coin's
centre crossed a line and *which* contact came first; a stepped engine knows those only to a
step and blurs them with its contact solver.  Under Coulomb sliding friction a spin-free coin
moves on a straight line with constant deceleration μg until it stops, so every position is
an exact quadratic in t.  The next event (a collision, a stop, a fall over the edge) is then a
root of a polynomial, found by bracketing (:func:`scipy.optimize.brentq`) to ~1e-12 s, and
resolved with an instantaneous impulse.  Between events nothing needs integrating at all.

Model (one textbook assumption each):
- sliding: a = −μ g û while the speed v > 0, then rest (static friction holds it);
- coin–coin impact: smooth discs, restitution e, momentum conserved (no tangential impulse, so
  no spin transfer: the simulated coins are "spin-free");
- coin–piece impact: the tile or stack is a fixed convex polygon (infinite mass), restitution
  e_piece, no tangential impulse;
- off the table: a coin falls when its centre passes the table's edge, and is gone.

Predictions are cached and redone only for the coins an event changed; a rebound is never
slower than MIN_REBOUND_MM_S, which ends the endless chains of ever smaller impacts that nearly
plastic impacts in a pressed cluster would make.
"""

from __future__ import annotations

import bisect
import itertools
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np
from numpy.polynomial import Polynomial
from scipy.optimize import brentq

from referee.geometry import COIN_DIAMETER_MM, Point, polygon_distance

G_MM_S2 = 9806.65
"""Standard gravity in mm/s²."""

TOUCH_TOL_MM = 1e-7
"""Two bodies closer than this (beyond exact contact) count as touching for the solver."""
APPROACH_TOL_MM_S = 1e-9
"""A relative normal speed below −this counts as approaching."""
MAX_EVENTS = 20_000
"""Guard against an endless chain of impulses (each flick)."""
MIN_REBOUND_MM_S = 2.0
"""Floor on the rebound speed of an impact.  Without it, nearly plastic impacts in a pressed
cluster make an endless chain of ever smaller impacts ("inelastic collapse", McNamara & Young
1994); 2 mm/s parts the coins by micrometres and adds no visible energy."""


def effective_restitution(e: float, approach_mm_s: float) -> float:
    """e, raised so the rebound speed e·v_n is at least MIN_REBOUND_MM_S.

    Above 1 only for micro-impacts slower than the floor: they leave at MIN_REBOUND_MM_S.
    """
    if approach_mm_s <= 0.0:
        return e
    return max(e, MIN_REBOUND_MM_S / approach_mm_s)


@dataclass(frozen=True)
class PhysicsParams:
    """The physical constants of a coin on a cloth table (defaults: wooden coins on baize)."""

    mu: float = 0.30
    """Sliding friction coefficient μ between coin and cloth."""
    e_coin: float = 0.90
    """Restitution of a coin–coin impact."""
    e_piece: float = 0.60
    """Restitution of a coin–tile impact (the tile is fixed)."""
    coin_radius_mm: float = COIN_DIAMETER_MM / 2.0
    g_mm_s2: float = G_MM_S2

    def __post_init__(self) -> None:
        for name in ("mu", "coin_radius_mm", "g_mm_s2"):
            if not getattr(self, name) > 0:
                raise ValueError(f"{name} must be positive, got {getattr(self, name)!r}")
        for name in ("e_coin", "e_piece"):
            if not 0.0 <= getattr(self, name) <= 1.0:
                raise ValueError(f"{name} must be within 0..1, got {getattr(self, name)!r}")

    @property
    def decel_mm_s2(self) -> float:
        """Deceleration of a sliding coin: a = μ g."""
        return self.mu * self.g_mm_s2

    def stopping_distance_mm(self, speed_mm_s: float) -> float:
        """s = v² / (2 μ g)."""
        return speed_mm_s**2 / (2.0 * self.decel_mm_s2)

    def speed_for_distance(self, distance_mm: float) -> float:
        """The launch speed that slides exactly `distance_mm`: v = √(2 μ g s)."""
        return math.sqrt(2.0 * self.decel_mm_s2 * max(distance_mm, 0.0))


# ------------------------------------------------------------------------------- motion


@dataclass(frozen=True)
class Slide:
    """One coin's motion from `t0`: a straight slide with constant deceleration, then rest.

    p(t) = p0 + û σ(τ),  σ(τ) = v0 τ − ½ a τ²  for 0 ≤ τ = t − t0 ≤ τ_stop = v0 / a.
    `angle0_deg` and `spin_deg_per_mm` describe the coin's art turning as it slides (visual
    only: the dynamics are spin-free); the angle grows with the path length σ, so the spin
    rate dies with the speed.
    """

    t0: float
    p0: Point
    direction: Point
    """Unit vector û of travel ((1, 0) when at rest)."""
    speed0_mm_s: float
    decel_mm_s2: float
    angle0_deg: float = 0.0
    spin_deg_per_mm: float = 0.0

    @staticmethod
    def start(t0: float, p0: Point, v0: Point, decel_mm_s2: float, angle0_deg: float = 0.0,
              spin_deg_per_mm: float = 0.0) -> Slide:
        """A slide from a velocity vector (zero velocity gives a coin at rest)."""
        speed = math.hypot(v0[0], v0[1])
        direction = (v0[0] / speed, v0[1] / speed) if speed > 0.0 else (1.0, 0.0)
        return Slide(t0, p0, direction, speed, decel_mm_s2, angle0_deg, spin_deg_per_mm)

    @property
    def moving(self) -> bool:
        return self.speed0_mm_s > 0.0

    @property
    def t_stop(self) -> float:
        return self.t0 + self.speed0_mm_s / self.decel_mm_s2

    @property
    def length_mm(self) -> float:
        """σ at rest: v0² / (2a)."""
        return self.speed0_mm_s**2 / (2.0 * self.decel_mm_s2)

    def path_mm(self, t: float) -> float:
        """σ(t), the distance slid since t0."""
        tau = min(max(t - self.t0, 0.0), self.speed0_mm_s / self.decel_mm_s2)
        return self.speed0_mm_s * tau - 0.5 * self.decel_mm_s2 * tau * tau

    def time_at_path(self, sigma_mm: float) -> float:
        """The time at which σ(t) = sigma_mm (σ ≤ length): τ = 2σ / (v0 + √(v0² − 2aσ))."""
        root = math.sqrt(max(self.speed0_mm_s**2 - 2.0 * self.decel_mm_s2 * sigma_mm, 0.0))
        denom = self.speed0_mm_s + root
        return self.t0 + (2.0 * sigma_mm / denom if denom > 0.0 else 0.0)

    def position(self, t: float) -> Point:
        s = self.path_mm(t)
        return (self.p0[0] + self.direction[0] * s, self.p0[1] + self.direction[1] * s)

    def speed(self, t: float) -> float:
        if t >= self.t_stop:  # exactly at rest from the stop on (no rounding residue)
            return 0.0
        return max(self.speed0_mm_s - self.decel_mm_s2 * max(t - self.t0, 0.0), 0.0)

    def velocity(self, t: float) -> Point:
        v = self.speed(t)
        return (self.direction[0] * v, self.direction[1] * v)

    def angle_deg(self, t: float) -> float:
        return self.angle0_deg + self.spin_deg_per_mm * self.path_mm(t)

    def local_polynomials(self, t: float) -> tuple[Polynomial, Polynomial]:
        """x(τ), y(τ) with τ measured from `t`, valid until the stop."""
        p, v = self.position(t), self.velocity(t)
        a = -self.decel_mm_s2 if self.speed(t) > 0.0 else 0.0
        ux, uy = self.direction
        return (Polynomial([p[0], v[0], 0.5 * a * ux]), Polynomial([p[1], v[1], 0.5 * a * uy]))


# ------------------------------------------------------------------------------- bodies


@dataclass(frozen=True)
class Obstacle:
    """A fixed convex piece on the table (a tile or a stack), counter-clockwise corners."""

    name: str
    corners: tuple[Point, ...]

    def __post_init__(self) -> None:
        if len(self.corners) < 3:
            raise ValueError(f"obstacle {self.name!r} needs at least 3 corners")
        if _signed_area(self.corners) < 0.0:
            object.__setattr__(self, "corners", tuple(reversed(self.corners)))

    def closest_point(self, p: Point) -> Point:
        """The nearest point of the polygon's boundary to `p` (for `p` outside)."""
        best, best_d2 = self.corners[0], math.inf
        n = len(self.corners)
        for i in range(n):
            a, b = self.corners[i], self.corners[(i + 1) % n]
            q = _closest_on_segment(p, a, b)
            d2 = (p[0] - q[0]) ** 2 + (p[1] - q[1]) ** 2
            if d2 < best_d2:
                best, best_d2 = q, d2
        return best

    def distance(self, p: Point) -> float:
        return polygon_distance(p, self.corners)


def _signed_area(poly: Sequence[Point]) -> float:
    n = len(poly)
    return 0.5 * sum(poly[i][0] * poly[(i + 1) % n][1] - poly[(i + 1) % n][0] * poly[i][1]
                     for i in range(n))


def _closest_on_segment(p: Point, a: Point, b: Point) -> Point:
    abx, aby = b[0] - a[0], b[1] - a[1]
    length2 = abx * abx + aby * aby
    u = 0.0 if length2 == 0.0 else ((p[0] - a[0]) * abx + (p[1] - a[1]) * aby) / length2
    u = min(max(u, 0.0), 1.0)
    return (a[0] + u * abx, a[1] + u * aby)


@dataclass(frozen=True)
class Table:
    """The playing surface (a convex polygon) and the fixed pieces standing on it."""

    outline: tuple[Point, ...]
    obstacles: tuple[Obstacle, ...] = ()
    params: PhysicsParams = field(default_factory=PhysicsParams)

    def __post_init__(self) -> None:
        if _signed_area(self.outline) < 0.0:
            object.__setattr__(self, "outline", tuple(reversed(self.outline)))

    def edges(self) -> list[tuple[Point, Point, Point]]:
        """Each edge as (a, b, inward unit normal)."""
        out = []
        n = len(self.outline)
        for i in range(n):
            a, b = self.outline[i], self.outline[(i + 1) % n]
            length = math.hypot(b[0] - a[0], b[1] - a[1])
            out.append((a, b, (-(b[1] - a[1]) / length, (b[0] - a[0]) / length)))
        return out

    def contains(self, p: Point) -> bool:
        return all((p[0] - a[0]) * n[0] + (p[1] - a[1]) * n[1] > 0.0 for a, _, n in self.edges())


# ------------------------------------------------------------------------------ records


@dataclass(frozen=True)
class Impact:
    """One impulse: coin `a` against coin or piece `b` at time `t`."""

    t: float
    kind: str  # "coin" | "piece"
    a: str
    b: str
    moving: tuple[str, ...]
    """The coins that were moving just before the impulse."""
    normal_speed_mm_s: float
    """Relative normal approach speed before the impulse (positive)."""
    point_mm: Point
    """Where the bodies touch."""


@dataclass(frozen=True)
class Exit:
    """A coin fell off the table: its centre crossed the edge at `at_mm`."""

    t: float
    coin: str
    at_mm: Point


@dataclass
class SimResult:
    """Everything one flick did: each coin's slides, the impulses, the falls."""

    t_start: float
    t_rest: float
    slides: dict[str, list[Slide]]
    """Per coin on the table, its slides in time order (the first starts at t_start)."""
    impacts: list[Impact]
    exits: list[Exit]

    def final_positions(self) -> dict[str, Point]:
        """Where each coin still on the table rests."""
        gone = {e.coin for e in self.exits}
        return {c: s[-1].position(self.t_rest) for c, s in self.slides.items() if c not in gone}


# --------------------------------------------------------------------------- root finding


def first_entry(f: Polynomial, hi: float) -> float | None:
    """The first τ in [0, hi] where f goes from > 0 to ≤ 0, bracketed exactly.

    f is split at its critical points into monotone pieces; each piece holds at most one root,
    which brentq finds to machine precision.  Extra split points are harmless, so the real
    parts of all derivative roots are used (near-double roots come back slightly complex).
    """
    coef = np.trim_zeros(f.coef, "b")
    if coef.size <= 1:
        return None
    f = Polynomial(coef)
    splits = [0.0, hi]
    if coef.size > 2:
        splits += [float(r.real) for r in f.deriv().roots() if 0.0 < r.real < hi]
    splits.sort()
    for lo, up in itertools.pairwise(splits):
        f_lo, f_up = float(f(lo)), float(f(up))
        if f_lo > 0.0 and f_up <= 0.0:
            if f_up == 0.0:
                return up
            return float(brentq(f, lo, up, xtol=1e-14, rtol=1e-15, maxiter=200))
    return None


def ray_circle_entry(p0: Point, u: Point, center: Point, radius: float) -> float | None:
    """Smallest σ ≥ 0 at which p0 + ûσ reaches distance `radius` of `center` (moving inward)."""
    wx, wy = p0[0] - center[0], p0[1] - center[1]
    b = wx * u[0] + wy * u[1]
    c = wx * wx + wy * wy - radius * radius
    if b >= 0.0:  # moving away (or tangentially)
        return None
    disc = b * b - c
    if disc < 0.0:
        return None
    # |w + ûσ|² = r²  →  σ = −b − √(b² − c)  (the entry root), stable form for c ≈ 0
    sigma = c / (-b + math.sqrt(disc))
    return sigma if sigma >= 0.0 or c <= 0.0 else None


def ray_obstacle_entry(p0: Point, u: Point, obstacle: Obstacle, radius: float) -> float | None:
    """Smallest σ ≥ 0 at which p0 + ûσ comes within `radius` of the polygon.

    The region within `radius` of a convex polygon is the polygon grown by `radius`: edges
    pushed outward plus discs at the corners.  The first entry through any feature is valid
    only if that feature is the nearest one at the entry point (checked with the true
    distance); the earliest valid entry is the answer.
    """
    best: float | None = None
    corners = obstacle.corners
    n = len(corners)
    for i in range(n):
        a, b = corners[i], corners[(i + 1) % n]
        ex, ey = b[0] - a[0], b[1] - a[1]
        length = math.hypot(ex, ey)
        nx, ny = ey / length, -ex / length  # outward normal (corners counter-clockwise)
        k = u[0] * nx + u[1] * ny
        if k < 0.0:
            s0 = (p0[0] - a[0]) * nx + (p0[1] - a[1]) * ny - radius  # (p − a)·n − r
            sigma = max(s0 / -k, 0.0)
            q = (p0[0] + u[0] * sigma, p0[1] + u[1] * sigma)
            proj = ((q[0] - a[0]) * ex + (q[1] - a[1]) * ey) / (length * length)
            if s0 >= 0.0 and 0.0 <= proj <= 1.0 and (best is None or sigma < best):
                best = sigma
        sigma_c = ray_circle_entry(p0, u, a, radius)
        if sigma_c is not None and sigma_c >= 0.0 and (best is None or sigma_c < best):
            q = (p0[0] + u[0] * sigma_c, p0[1] + u[1] * sigma_c)
            if abs(obstacle.distance(q) - radius) < 1e-6:
                best = sigma_c
    return best


# ------------------------------------------------------------------------------ impulses


def coin_coin_impulse(va: Point, vb: Point, normal: Point, e: float, ma: float = 1.0,
                      mb: float = 1.0) -> tuple[Point, Point]:
    """Velocities after a smooth impact; `normal` points from a to b.

    j = −(1 + e) (v_b − v_a)·n / (1/m_a + 1/m_b);  v_a' = v_a − j n / m_a;  v_b' = v_b + j n / m_b
    """
    vrel_n = (vb[0] - va[0]) * normal[0] + (vb[1] - va[1]) * normal[1]
    if vrel_n >= 0.0:
        return va, vb
    j = -(1.0 + e) * vrel_n / (1.0 / ma + 1.0 / mb)
    return ((va[0] - j / ma * normal[0], va[1] - j / ma * normal[1]),
            (vb[0] + j / mb * normal[0], vb[1] + j / mb * normal[1]))


def wall_impulse(v: Point, normal: Point, e: float) -> Point:
    """Reflection off a fixed body; `normal` points from the body to the coin.

    v' = v − (1 + e) (v·n) n
    """
    vn = v[0] * normal[0] + v[1] * normal[1]
    if vn >= 0.0:
        return v
    return (v[0] - (1.0 + e) * vn * normal[0], v[1] - (1.0 + e) * vn * normal[1])


# ---------------------------------------------------------------------------- simulator


@dataclass
class _Candidate:
    t: float
    kind: str  # stop | coin | piece | exit
    a: str
    b: str = ""


def simulate(table: Table, positions: Mapping[str, Point], t_start: float,
             kicks: Mapping[str, Point], *, masses: Mapping[str, float] | None = None,
             angles_deg: Mapping[str, float] | None = None,
             spins_deg_per_mm: Mapping[str, float] | None = None) -> SimResult:
    """Run one flick from rest until every coin rests again (or has fallen off).

    `positions`: the resting coins on the cloth; `kicks`: the velocity each flicked coin gets at
    `t_start` (mm/s).  Angles and spins only decorate the slides for the renderer.
    """
    prm = table.params
    r, d, decel = prm.coin_radius_mm, 2.0 * prm.coin_radius_mm, prm.decel_mm_s2
    masses = masses or {}
    angles = dict(angles_deg or {})
    spins = spins_deg_per_mm or {}
    unknown = set(kicks) - set(positions)
    if unknown:
        raise ValueError(f"kicked coins are not on the table: {sorted(unknown)}")
    slides: dict[str, list[Slide]] = {
        c: [Slide.start(t_start, p, kicks.get(c, (0.0, 0.0)), decel, angles.get(c, 0.0),
                        spins.get(c, 0.0))]
        for c, p in positions.items()
    }
    on_table = set(positions)
    impacts: list[Impact] = []
    exits: list[Exit] = []
    edges = table.edges()
    t = t_start

    def current(c: str) -> Slide:
        return slides[c][-1]

    def moving(c: str) -> bool:
        return t < current(c).t_stop  # compared as computed, so a stop is never missed

    def restart(c: str, v: Point, spin_scale: float) -> None:
        old = current(c)
        slides[c].append(Slide.start(t, old.position(t), v, decel, old.angle_deg(t),
                                     old.spin_deg_per_mm * spin_scale))

    def static_event(c: str) -> tuple[float, int, str, str] | None:
        """The next fall or piece impact of coin c on its present slide."""
        sl = current(c)
        if not moving(c):
            return None
        p, u, v = sl.position(t), sl.direction, sl.speed(t)
        reach = v * v / (2.0 * decel)  # σ still to go
        best: tuple[float, int, str, str] | None = None
        for a, _, n in edges:  # the centre crosses an edge: (p + ûσ − a)·n = 0
            k = u[0] * n[0] + u[1] * n[1]
            s0 = (p[0] - a[0]) * n[0] + (p[1] - a[1]) * n[1]
            if k < 0.0 and s0 / -k <= reach:
                cand = (t + _tau_at(v, decel, s0 / -k), 1, c, "")
                best = cand if best is None or cand < best else best
        for ob in table.obstacles:
            sigma = _obstacle_contact(p, u, v, ob, r)
            if sigma is not None and sigma <= reach:
                cand = (t + _tau_at(v, decel, sigma), 2, c, ob.name)
                best = cand if best is None or cand < best else best
        return best

    def pair_event(a: str, b: str) -> tuple[float, int, str, str] | None:
        """The next touch of coins a and b while both keep their present slides."""
        stops = [current(x).t_stop for x in (a, b) if moving(x)]
        if not stops:
            return None
        tau = _pair_contact(current(a), current(b), t, d, min(stops) - t)
        return None if tau is None else (t + tau, 3, a, b)

    # Predictions are cached and redone only for the coins whose motion changed (a classic
    # event-driven scheme): an impulse changes two slides, a stop or a fall one.
    statics: dict[str, tuple[float, int, str, str] | None] = {}
    pairs: dict[tuple[str, str], tuple[float, int, str, str] | None] = {}
    dirty = set(on_table)
    for _ in range(MAX_EVENTS):
        for c in sorted(dirty):
            statics.pop(c, None)
            for key in [k for k in pairs if c in k]:
                del pairs[key]
            if c not in on_table:
                continue
            statics[c] = static_event(c)
            for other in on_table:
                if other != c:
                    key = (c, other) if c < other else (other, c)
                    pairs[key] = pair_event(*key)
        dirty.clear()
        movers = sorted(c for c in on_table if moving(c))
        if not movers:
            break
        found = [(current(c).t_stop, 0, c, "") for c in movers]
        found += [e for e in statics.values() if e is not None]
        found += [e for e in pairs.values() if e is not None]
        t_next, rank, a_name, b_name = min(found)
        kind = ("stop", "exit", "piece", "coin")[rank]
        if kind == "coin" and current(b_name).speed(t_next) > current(a_name).speed(t_next):
            a_name, b_name = b_name, a_name  # the striker first
        best = _Candidate(t_next, kind, a_name, b_name)
        dirty |= {best.a, best.b} - {""}
        t = best.t
        if best.kind == "stop":
            continue
        if best.kind == "exit":
            at = current(best.a).position(t)
            exits.append(Exit(t, best.a, at))
            on_table.discard(best.a)
            continue
        was_moving = tuple(c for c in sorted({best.a, best.b} & on_table) if moving(c))
        if best.kind == "piece":
            ob = next(o for o in table.obstacles if o.name == best.b)
            sl = current(best.a)
            p, v = sl.position(t), sl.velocity(t)
            q = ob.closest_point(p)
            n = _unit((p[0] - q[0], p[1] - q[1]))
            vn = v[0] * n[0] + v[1] * n[1]
            impacts.append(Impact(t, "piece", best.a, best.b, (best.a,), -vn, q))
            restart(best.a, wall_impulse(v, n, effective_restitution(prm.e_piece, -vn)), 0.6)
            continue
        sa, sb = current(best.a), current(best.b)
        pa, pb = sa.position(t), sb.position(t)
        va, vb = sa.velocity(t), sb.velocity(t)
        n = _unit((pb[0] - pa[0], pb[1] - pa[1]))
        vrel_n = (vb[0] - va[0]) * n[0] + (vb[1] - va[1]) * n[1]
        e = effective_restitution(prm.e_coin, -vrel_n)
        va2, vb2 = coin_coin_impulse(va, vb, n, e, masses.get(best.a, 1.0),
                                     masses.get(best.b, 1.0))
        mid = ((pa[0] + pb[0]) / 2.0, (pa[1] + pb[1]) / 2.0)
        impacts.append(Impact(t, "coin", best.a, best.b, was_moving, -vrel_n, mid))
        spin_a, spin_b = sa.spin_deg_per_mm, sb.spin_deg_per_mm
        restart(best.a, va2, 0.6)
        restart(best.b, vb2, 0.0)
        slides[best.b][-1] = _with_spin(slides[best.b][-1], 0.5 * spin_a - 0.3 * spin_b)
    else:
        raise RuntimeError(f"more than {MAX_EVENTS} events in one flick; the solver is stuck")
    t_rest = max([t_start] + [current(c).t_stop for c in on_table]
                 + [e.t for e in exits])
    for e in exits:  # a fallen coin's last slide ends at its fall
        slides[e.coin] = [s for s in slides[e.coin] if s.t0 <= e.t]
    return SimResult(t_start, t_rest, slides, impacts, exits)


def position_at(slides: Sequence[Slide], t: float) -> Point:
    """Where a coin is at `t`, given its slides in time order (the one started last before t)."""
    return slide_at(slides, t).position(t)


def slide_at(slides: Sequence[Slide], t: float) -> Slide:
    """The slide in force at `t` (the first one for times before it)."""
    i = bisect.bisect_right([s.t0 for s in slides], t) - 1
    return slides[max(i, 0)]


def _unit(v: Point) -> Point:
    n = math.hypot(v[0], v[1])
    return (v[0] / n, v[1] / n) if n > 0.0 else (1.0, 0.0)


def _with_spin(slide: Slide, spin_deg_per_mm: float) -> Slide:
    return Slide(slide.t0, slide.p0, slide.direction, slide.speed0_mm_s, slide.decel_mm_s2,
                 slide.angle0_deg, spin_deg_per_mm)


def _tau_at(v: float, decel: float, sigma: float) -> float:
    """Time to slide σ from speed v: τ = 2σ / (v + √(v² − 2aσ))."""
    root = math.sqrt(max(v * v - 2.0 * decel * sigma, 0.0))
    return 2.0 * sigma / (v + root) if v + root > 0.0 else 0.0


def _obstacle_contact(p: Point, u: Point, v: float, ob: Obstacle, r: float) -> float | None:
    """σ of the next contact with a fixed piece; 0 when already touching and approaching."""
    dist = ob.distance(p)
    if dist <= r + TOUCH_TOL_MM:
        q = ob.closest_point(p)
        n = _unit((p[0] - q[0], p[1] - q[1]))
        return 0.0 if v * (u[0] * n[0] + u[1] * n[1]) < -APPROACH_TOL_MM_S else None
    return ray_obstacle_entry(p, u, ob, r)


def _pair_contact(sa: Slide, sb: Slide, t: float, d: float, horizon: float) -> float | None:
    """τ ∈ [0, horizon] of the next contact of two coins, |p_a − p_b| = d, approaching."""
    pa, pb = sa.position(t), sb.position(t)
    dx, dy = pb[0] - pa[0], pb[1] - pa[1]
    gap = math.hypot(dx, dy) - d
    va, vb = sa.velocity(t), sb.velocity(t)
    closing = ((vb[0] - va[0]) * dx + (vb[1] - va[1]) * dy) / max(math.hypot(dx, dy), 1e-300)
    touching = gap <= TOUCH_TOL_MM
    if touching and closing < -APPROACH_TOL_MM_S:
        return 0.0
    # quick reject: the gap cannot close faster than both coins' remaining travel
    if gap > sa.speed(t) ** 2 / (2 * sa.decel_mm_s2) + sb.speed(t) ** 2 / (2 * sb.decel_mm_s2):
        return None
    xa, ya = sa.local_polynomials(t)
    xb, yb = sb.local_polynomials(t)
    rx, ry = xb - xa, yb - ya
    dist2 = rx * rx + ry * ry
    f = dist2 - Polynomial([d * d])  # |Δp(τ)|² − d²: a quartic in τ
    tau = first_entry(f, horizon)  # the exact touch (after any separation)
    if touching:
        # Both moving while touching with no closing speed: they may press together without
        # ever parting (their decelerations differ in direction).  Catch that when the overlap
        # reaches TOUCH_TOL_MM, so no overlap grows unseen and no impulse chain stalls time.
        inner = (min(gap + d, d) - TOUCH_TOL_MM) ** 2  # a further 1e-7 mm from now
        tau_press = first_entry(dist2 - Polynomial([inner]), horizon)
        if tau_press is not None and (tau is None or tau_press < tau):
            tau = tau_press
    return tau
