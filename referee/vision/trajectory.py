"""Rebuild a coin's motion as piecewise physical slides, fitted to its observed centres.

Between impacts a spin-free coin on cloth slides straight with constant deceleration a = μg:

    p(t) = p0 + u (v0 τ − ½ a τ²),  τ = t − t0 ∈ [0, v0/a],  then rest at p0 + u v0²/(2a)

so a slide has five numbers (t0, p0, v0 u).  Fitting that model to many noisy frames gives a
position and a time far finer than one frame: crossings and contacts are then roots of the
fitted curves (sub-frame), and the residuals say how sure we are.  Impacts are where one slide
no longer fits: the observations are split there (the split that best explains both sides),
recursively, until every piece fits within the noise.  scipy's `least_squares` does the fits.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

import numpy as np
from scipy.optimize import OptimizeResult, least_squares

IMPACT_TURN_COS = math.cos(math.radians(20.0))
"""A break after a coin's only frame before an impact turns it by more than this
(`_struck_after_first`: tower 1 turned Moons by 88 degrees; a launch frame read 3 mm off
its line, 4 degrees, is no impact: strike at look 301, its flick put 0.11 s early)."""
MAX_SPEED_MM_S = 4000.0
"""No flicked coin goes faster (the tracker's second-round search, a slide's launch)."""
JOINT_EVALUATIONS = 5
"""Residual evaluations per parameter the joint refit of a motion's slides may take."""
LEAVING_KEPT = 3
"""A coin that left the view is fitted without its last frame when more than this many
frames saw it move."""
MIN_PIECE = 3
"""Observations needed to fit a slide on its own (shorter pieces borrow the impact point)."""
LAUNCH_AHEAD = 3.0
"""Noise widths: a frame this far from the resting place has left it; the first that did,
reading this far ahead of the path the later frames fit, saw a launch within its exposure
(`_launched_within`).  Gate-run at 720p60, look 100: its launch frame read 3.19 mm ahead, just
short of 4 widths (3.2 mm), and tilted the whole slide (0.74 mm off at the start, -0.44 at
the stop); the fitted frames' own misfit there is 0.13 mm."""
AT_REST_MM = 2.0
"""A frame this near where the coin comes to rest saw it there: a slide's last frame
before it stops lies within ½μg·dt² (1.6 mm at 30 fps) of the stop.  One farther off still
moved (capture at look 350: Moons, back off door 3, seen 2.6 mm short of its rest and taken
for at rest with four noise widths, 3.2 mm; the rest sample dropped with it held the bounce,
and the hit was lost)."""
FINGER_DRAG_MM = 7.5
"""A fingertip against a coin drags its blob 3-6 mm (half FINGER_MM at most)."""
FINGER_MM = 15.0
FINGER_MM_S = 300.0
"""A first piece that never leaves this close to the resting place, this slowly, is the
fingertip against the coin before the flick (its blob and the coin's are one: the centre
drifts a few mm), not a slide: a flick that slow would stop within FINGER_MM anyway."""
PIECE_RESTITUTION = 0.6
"""How much slower a coin comes off a tile or a tower than it came in, across the face (the
part along the face unchanged: a fixed block of wood, no spin), as the simulator's physics
has it (`off_unseen_impact`)."""
AIM_COS = math.cos(math.radians(25.0))
"""The slide a coin came off a piece with, run back through that impact by the bounce's
law, points at where it rested within this angle, or no such impact explains its frames
(`off_unseen_impact`; the restitution of a real coin varies with its speed and wood)."""
Obstacle = Callable[[np.ndarray, np.ndarray, float], "tuple[float, np.ndarray] | None"]
"""How far a coin centred at a point goes along a unit direction, within a reach, before it
touches a piece, and that piece's outward normal there (None: it touches none)."""


@dataclass(frozen=True)
class Slide:
    """One straight slide with constant deceleration, valid from t0 to t_end."""

    t0: float
    p0: tuple[float, float]
    v0: tuple[float, float]
    """Initial velocity (mm/s)."""
    decel: float
    t_end: float
    """Where the next piece takes over (an impact) or the end of the observations."""
    rms_mm: float = 0.0

    @property
    def speed0(self) -> float:
        return math.hypot(*self.v0)

    @property
    def t_stop(self) -> float:
        return self.t0 + (self.speed0 / self.decel if self.decel > 0 else math.inf)

    def _path(self, t: float | np.ndarray) -> float | np.ndarray:
        tau = np.clip(np.asarray(t, float) - self.t0, 0.0, self.t_stop - self.t0)
        return self.speed0 * tau - 0.5 * self.decel * tau * tau

    def travelled(self, t: float) -> float:
        """How far it has slid by time t."""
        return float(self._path(t))

    def t_at(self, distance_mm: float) -> float:
        """When it has slid `distance_mm` (at its stop, if it never gets that far)."""
        v, a = self.speed0, self.decel
        if a <= 0.0:
            return self.t0 + distance_mm / v
        return self.t0 + (v - math.sqrt(max(v * v - 2.0 * a * distance_mm, 0.0))) / a

    def position(self, t: float | np.ndarray) -> np.ndarray:
        s = self._path(t)
        if self.speed0 == 0.0:
            return np.broadcast_to(np.asarray(self.p0), (*np.shape(s), 2)).copy()
        u = np.asarray(self.v0) / self.speed0
        return np.asarray(self.p0) + np.multiply.outer(s, u)

    def velocity(self, t: float) -> np.ndarray:
        if self.speed0 == 0.0 or t >= self.t_stop:
            return np.zeros(2)
        u = np.asarray(self.v0) / self.speed0
        return u * (self.speed0 - self.decel * max(0.0, t - self.t0))

    def path_coeffs(self) -> tuple[np.ndarray, np.ndarray]:
        """p(t0 + τ) = c0 + c1 τ + c2 τ² (before the stop), per axis."""
        if self.speed0 == 0.0:
            z = np.zeros(2)
            return np.asarray(self.p0), np.stack([z, z])
        u = np.asarray(self.v0) / self.speed0
        return np.asarray(self.p0), np.stack([u * self.speed0, -0.5 * self.decel * u])


def _fit_slide(t: np.ndarray, p: np.ndarray, decel: float, anchor: tuple[float, float] | None,
               not_before: float = -math.inf) -> tuple[Slide, float]:
    """Least-squares slide through observations; `anchor` pins p0 (a coin leaving rest, not
    before `not_before`: when it was last seen there)."""
    t_ref = float(t[0])
    # Initial guess from a straight line through the first and last points.
    dt = max(float(t[-1] - t[0]), 1e-3)
    v_guess = (p[-1] - p[0]) / dt
    v_guess = v_guess + np.sign(v_guess) * 0.5 * decel * dt * np.abs(v_guess) / (
        np.hypot(*v_guess) + 1e-9)
    if anchor is None:
        x0 = np.array([p[0][0], p[0][1], v_guess[0], v_guess[1]])

        def residual(params: np.ndarray) -> np.ndarray:
            s = Slide(t_ref, (params[0], params[1]), (params[2], params[3]), decel, t[-1])
            return (s.position(t) - p).ravel()
    else:
        x0 = np.array([v_guess[0], v_guess[1], -0.01])

        def residual(params: np.ndarray) -> np.ndarray:
            s = Slide(t_ref + params[2], anchor, (params[0], params[1]), decel, t[-1])
            return (s.position(t) - p).ravel()

    sol = least_squares(residual, x0, method="lm" if len(t) * 2 > len(x0) else "trf")
    if anchor is not None:
        sol = _left_between(sol, residual, t, p, anchor, decel, not_before)
    params = sol.x
    if anchor is None:
        slide = Slide(t_ref, (float(params[0]), float(params[1])),
                      (float(params[2]), float(params[3])), decel, float(t[-1]))
    else:
        slide = Slide(t_ref + float(params[2]), anchor, (float(params[0]), float(params[1])),
                      decel, float(t[-1]))
    sse = float(np.sum(sol.fun ** 2))
    rms = math.sqrt(sse / max(1, len(t)))
    return Slide(slide.t0, slide.p0, slide.v0, decel, slide.t_end, rms), sse


def _left_between(sol: OptimizeResult, residual: Callable[[np.ndarray], np.ndarray],
                  t: np.ndarray, p: np.ndarray, anchor: tuple[float, float], decel: float,
                  not_before: float) -> OptimizeResult:
    """The anchored fit (`sol`: velocity and start time from t[0]) again within the times
    the coin can have left rest: after it was last seen there (`not_before`), no later than
    the first frame that saw it gone (farther than a fingertip drags its blob).  Few frames
    (one before an impact) trade a start time for a speed, and the least misfit may lie
    before it was last seen at rest (fast flick at look 245: Suns "flicked" 0.3 s early);
    a start guessed backwards settles where that frame still has it at rest, a plateau the
    solver cannot leave (a slide "starting" 0.5 s after its frames, 368 mm RMS); one
    guessed too early may end before the frame that saw it on its way, another plateau.
    Refitted from the slides that leave at the earliest and the latest time allowed,
    straight at its last frame, reaching it in time; the better fit is kept (the earlier
    of two as good: the slower launch), and an allowed first fit unless a refit misfits
    less by PLATEAU_COST."""
    gone = np.flatnonzero(np.hypot(*(p - np.asarray(anchor, float)).T) > FINGER_DRAG_MM)
    if not len(gone) or not -math.inf < not_before < float(t[gone[0]]):
        return sol
    latest = float(t[gone[0]])
    t0 = float(t[0]) + float(sol.x[2])
    allowed = t0 >= not_before and Slide(t0, anchor, (float(sol.x[0]), float(sol.x[1])),
                                         decel, latest).travelled(latest) > 0.0
    if allowed and sol.cost <= PLATEAU_COST:
        return sol  # no refit can misfit less by PLATEAU_COST
    way = p[-1] - np.asarray(anchor, float)
    best = sol
    for left in (not_before + 1e-6, latest - 1e-6):  # (a tie: the earlier, the slower)
        speed = launch_speed(float(np.hypot(*way)), max(float(t[-1]) - left, 1e-3), decel)
        x0 = np.array([*(way / max(float(np.hypot(*way)), 1e-9) * speed), left - float(t[0])])
        fit = least_squares(residual, x0, method="trf",
                            bounds=([-np.inf, -np.inf, not_before - float(t[0])],
                                    [np.inf, np.inf, latest - float(t[0])]))
        if (best is sol and not allowed) or fit.cost < best.cost - (
                PLATEAU_COST if best is sol else 1e-9):
            best = fit
    return best


PLATEAU_COST = 0.5 * 0.3 ** 2
"""How much less misfit (half the sum of squares, mm²: one frame's noise) a refit within the
times a coin can have left rest needs to replace an allowed fit: the solver, started before
the only frame that saw the coin on its way, may stop where the slide has ended before that
frame, a plateau (capture at look 446: Ace "flicked" 0.13 s early, 0.6 mm RMS against
0.06)."""


@dataclass(frozen=True)
class Motion:
    """A coin's motion from rest to rest: its slides, in time order."""

    coin: str
    slides: list[Slide]
    start_mm: tuple[float, float]
    end_mm: tuple[float, float] | None
    """Where it rests at the end, or None when it left the view (off the table)."""
    unseen: bool = False
    """No frame saw it move (a hand hid it): the one slide that fits its two places."""
    seen_from: float | None = None
    """When a frame first saw it move (None: none did); before, its path is the fit's
    extrapolation back to where it rested (a flick under the fingers)."""

    @property
    def t_start(self) -> float:
        return self.slides[0].t0

    @property
    def t_end(self) -> float:
        return self.slides[-1].t_stop if self.end_mm is not None else self.slides[-1].t_end

    def piece_at(self, t: float) -> Slide:
        for slide in reversed(self.slides):
            if t >= slide.t0:
                return slide
        return self.slides[0]

    def position(self, t: float) -> np.ndarray:
        if t < self.t_start:
            return np.asarray(self.start_mm, float)
        return self.piece_at(t).position(t)

    def positions(self, t: np.ndarray) -> np.ndarray:
        """(N, 2) `position` at each of the ascending times `t`, a slide at a time."""
        out = np.tile(np.asarray(self.start_mm, float), (len(t), 1))
        for slide in self.slides:
            on = t >= max(slide.t0, self.t_start)  # (before the start: at rest, as `position`)
            out[on] = slide.position(t[on])
        return out

    def breaks(self) -> list[float]:
        """Impact times: where one slide hands over to the next."""
        return [s.t0 for s in self.slides[1:]]


def fit_motion(coin: str, t: Sequence[float], p: np.ndarray, start_mm: tuple[float, float],
               end_mm: tuple[float, float] | None, decel: float, noise_mm: float = 0.3,
               max_pieces: int = 10, rested_until: float = -math.inf,
               obstacle: Obstacle | None = None) -> Motion:
    """Split the moving observations at impacts and fit a physical slide to each piece.

    The split is an optimal partition (dynamic programming over every set of break points):
    each piece costs its least-squares misfit to a quadratic path plus a penalty per break,
    so a break is added only where the data demand it.  Each piece is then refitted with the
    friction model, the first one anchored at the coin's resting place, consecutive pieces
    are joined where their paths meet (the impact instant), and all are refitted together
    through those impact points (`_jointly`).  A coin that left the view (`end_mm` None) is
    fitted without its last frame, which saw only part of it; one launched within its first
    moving frame's exposure, without that frame (`_launched_within`).  One first seen
    already sliding may have struck something right after that frame
    (`_struck_after_first`), unless the slide there would have left rest before the coin
    was last seen at rest (`rested_until`): its first frame was after the impacts (fast
    flick at look 245: Suns, first seen coming back off Arms, "flicked" 0.18 s early).
    Readings up to the fingertip alone, behind the place, are the finger's and are left
    out (`_fingers_readings`).  One first seen coming off a piece (`obstacle`) hit it
    unseen (`off_unseen_impact`).
    """
    t_arr = np.asarray(t, float)
    p_arr = np.asarray(p, float).reshape(-1, 2)
    if len(t_arr) == 0:
        raise ValueError("no observations to fit")
    t_last = float(t_arr[-1])
    if end_mm is None and len(t_arr) > LEAVING_KEPT:
        # It left the view during its last frame's exposure (off the table, or under a
        # hand): that frame saw only part of its streak, whose centre falls short (off-table,
        # look 107: 6.6 mm, pulling the whole slide 1.2 mm back).  The slide before says
        # where it went.
        t_arr, p_arr = t_arr[:-1], p_arr[:-1]
    fingers = _fingers_readings(p_arr, start_mm)
    t_arr, p_arr = t_arr[fingers:], p_arr[fingers:]
    # The first frame that left the resting place may have seen the launch within its
    # exposure: then it goes, and the frames still at rest before it with it (no slide
    # through them and the later frames fits: the partition would cut them off with the
    # next frame as a slow piece of their own).
    left = left_rest(p_arr, start_mm, noise_mm)
    first = int(left[0]) if len(left) else len(t_arr)
    if len(t_arr) > first + MIN_PIECE + 1 and _launched_within(
            t_arr[first:first + MIN_PIECE + 1], p_arr[first:first + MIN_PIECE + 1],
            start_mm, decel, LAUNCH_AHEAD * noise_mm):
        t_arr, p_arr, first = t_arr[first + 1:], p_arr[first + 1:], 0
    # Samples already at the final resting place are not a piece of their own: the last
    # slide's model stops there by itself.
    n_moving = len(t_arr)
    if end_mm is not None:
        at_rest = np.hypot(*(p_arr - np.asarray(end_mm)).T) < AT_REST_MM
        while n_moving > 2 and at_rest[n_moving - 1] and at_rest[n_moving - 2]:
            n_moving -= 1
    # The frames still at rest before it are the first slide's (anchored at the resting
    # place, which it holds until it starts), not the partition's: no quadratic piece fits
    # them and the slide's frames, and a coin first seen 99 mm on, after a hand hid its
    # launch, was cut into a slow piece up to that frame and the slide after it (fast
    # flick, look 108: flicked 28 ms early).
    lead = first if 0 < first < n_moving - MIN_PIECE else 0
    bounds = [(a + lead, b + lead) for a, b in optimal_partition(
        t_arr[lead:n_moving], p_arr[lead:n_moving], noise_mm, max_pieces, decel,
        start_mm if lead else None)]
    bounds[0] = (0, bounds[0][1])
    while len(bounds) > 1 and _fingertip(t_arr, p_arr, bounds[0], start_mm):
        lo = bounds[1][0]
        t_arr, p_arr = t_arr[lo:], p_arr[lo:]
        bounds = [(a - lo, b - lo) for a, b in bounds[1:]]
    slides: list[Slide] = []
    if first == 0:
        pair = _struck_after_first(t_arr, p_arr, bounds[0][1], start_mm, decel, noise_mm)
        if pair is not None and pair[0].t0 >= rested_until:
            slides = list(pair)
            bounds = [(0, 1), (1, bounds[0][1]), *bounds[1:]]
    if len(bounds) == 1 and end_mm is not None:
        bounds = _overshoot(p_arr, start_mm, end_mm) or bounds  # the samples at rest too
    bounds[-1] = (bounds[-1][0], len(t_arr))
    fixed = slides
    slides = _pieces_fitted(fixed, t_arr, p_arr, bounds, start_mm, decel, rested_until)
    if end_mm is not None and len(bounds) > len(fixed):
        slides = _stopped_by_impact(slides, fixed, t_arr, p_arr, bounds, start_mm, end_mm,
                                    noise_mm, rested_until)
    if first == 0 and len(slides) == 1 and obstacle is not None:
        slides = list(off_unseen_impact(t_arr, p_arr, start_mm, decel, noise_mm,
                                        rested_until, obstacle) or slides)
    if end_mm is None:
        slides[-1] = replace(slides[-1], t_end=max(slides[-1].t_end, t_last))
    return Motion(coin, slides, start_mm, end_mm, seen_from=float(t_arr[0]))


def left_rest(p: np.ndarray, start_mm: tuple[float, float], noise_mm: float) -> np.ndarray:
    """The indices of the centres `p` that have left the resting place `start_mm`: farther
    than LAUNCH_AHEAD noise widths from it."""
    return np.flatnonzero(np.hypot(*(p - np.asarray(start_mm)).T) > LAUNCH_AHEAD * noise_mm)


def _pieces_fitted(fixed: list[Slide], t: np.ndarray, p: np.ndarray,
                   bounds: list[tuple[int, int]], start_mm: tuple[float, float], decel: float,
                   rested_until: float) -> list[Slide]:
    """A slide fitted to each piece of the observations (`bounds`), after the first `fixed`
    ones: the first anchored at the resting place, each later one joined to the one before
    where their paths meet, then all refitted together (`_jointly`)."""
    slides = list(fixed)
    for k, (lo, hi) in enumerate(bounds):
        if k < len(slides):
            continue  # (the first two, `_struck_after_first`)
        anchor = start_mm if k == 0 else None
        tt, pp = t[lo:hi], p[lo:hi]
        if k > 0 and hi - lo < MIN_PIECE:
            # Too short to fit alone: add the previous piece's end as a pinned point.
            prev = slides[-1]
            t_join = 0.5 * (t[lo - 1] + t[lo])
            tt = np.concatenate([[t_join], tt])
            pp = np.vstack([prev.position(t_join), pp])
        slide, _ = _fit_slide(tt, pp, decel, anchor, rested_until)
        if k > 0:
            prev = slides[-1]
            grid = np.linspace(t[lo - 1], t[lo], 61)
            gap = np.linalg.norm(prev.position(grid) - _extend(slide, grid), axis=1)
            t_break = float(grid[int(np.argmin(gap))])
            slide = _from_break(slide, t_break, prev.position(t_break))
            slides[-1] = Slide(prev.t0, prev.p0, prev.v0, decel, t_break, prev.rms_mm)
        slides.append(slide)
    if len(slides) > 1:
        slides = _jointly(slides, t, p, bounds, start_mm, rested_until)
    return slides


STOP_FIT_WIDTHS = 3.0
"""A slide stopped by an impact fits its frames in motion within this many noise widths
RMS (`_stopped_by_impact`; the capture's guard 2 at look 381: 0.34 mm with 0.8 mm noise)."""


def _stopped_by_impact(slides: list[Slide], fixed: list[Slide], t: np.ndarray, p: np.ndarray,
                       bounds: list[tuple[int, int]], start_mm: tuple[float, float],
                       end_mm: tuple[float, float], noise_mm: float, rested_until: float
                       ) -> list[Slide]:
    """The slides again, the last one cut where it struck what stopped it, when friction
    alone would have carried it on past where it rests.

    A striker that hits a coin head-on stops dead and gives it its speed: its last frames
    in motion still read fast, the next at rest.  Fitted through both, friction's slide
    runs on past the rest (the capture's guard 2 stopped 6-12 mm beyond it in 9 of 16
    looks on 376-391, and a dispute drew that path).  So the last piece is fitted to its
    frames in motion alone; if that slide too would stop more than AT_REST_MM beyond the
    rest, the coin was stopped: it slides until it reaches its rest along its way (between
    its last frame in motion and its first at rest), then stands there.

    Only where MIN_PIECE frames in motion fit that last slide, within STOP_FIT_WIDTHS noise
    widths RMS, and the rest lies on its way (within OFF_WAY_MM).  A coin seen once coming
    back off a door, then at rest, shows its bounce only with that rest (capture at look
    362: Moons, cut on its way in, hit the door twice); a slide far off its own frames
    says nothing of where friction would stop it (fast flick at look 245: Suns, first
    seen coming back off Arms, 14 mm RMS off the one slide allowed from its place).
    (`fixed`: the first slides, fitted before the pieces.)"""
    last = slides[-1]
    end = np.asarray(end_mm, float)
    if _past_rest_mm(last, end) <= AT_REST_MM:
        return slides
    at_rest = np.hypot(*(p - end).T) < AT_REST_MM
    k = len(p)
    while k > 0 and at_rest[k - 1]:
        k -= 1  # k: the first of the frames at rest at the end
    lo = bounds[-1][0]
    if k == len(p) or k - lo < MIN_PIECE:
        return slides  # (its frames at rest may be all that show a bounce: capture, 362)
    refit = _pieces_fitted(fixed, t[:k], p[:k],
                           [*bounds[:-1], (lo, k)], start_mm, last.decel, rested_until)
    moving = refit[-1]
    if moving.speed0 == 0.0 or _past_rest_mm(moving, end) <= AT_REST_MM or \
            moving.rms_mm > STOP_FIT_WIDTHS * noise_mm:
        return slides
    way = np.asarray(moving.v0) / moving.speed0
    reach = float((end - np.asarray(moving.p0)) @ way)
    if reach <= 0.0 or float(_beside(end - np.asarray(moving.p0), way)) > OFF_WAY_MM:
        return slides  # stopped dead, it stops on its way
    t_hit = min(max(moving.t_at(reach), float(t[k - 1])), float(t[k]))
    stop = moving.position(t_hit)
    rms = math.sqrt(float(np.mean(np.sum((p[k:] - stop) ** 2, axis=1))))
    return [*refit[:-1], replace(moving, t_end=t_hit),
            Slide(t_hit, (float(stop[0]), float(stop[1])), (0.0, 0.0), moving.decel,
                  last.t_end, rms)]


def _past_rest_mm(slide: Slide, end: np.ndarray) -> float:
    """How far beyond `end` along its way the slide, by friction alone, comes to a stop."""
    if slide.speed0 == 0.0 or not math.isfinite(slide.t_stop):
        return 0.0
    way = np.asarray(slide.v0) / slide.speed0
    return float((slide.position(slide.t_stop) - end) @ way)


def _jointly(slides: list[Slide], t: np.ndarray, p: np.ndarray, bounds: list[tuple[int, int]],
             start_mm: tuple[float, float], not_before: float = -math.inf) -> list[Slide]:
    """The slides refitted together, each starting where the one before is at their impact.

    Fitted one after another, each later slide is pinned to the end of the slide before and
    keeps its own velocity: where the two disagree, all of it is shifted by their gap.  One
    least-squares fit of every piece's observations, over the first slide's start time and
    velocity and each impact's time and the velocity after it, keeps the path continuous
    (a coin does not jump at an impact) and lets every piece pull on the impact point.
    Each impact stays between the last frame of its piece and the first of the next.
    """
    decel = slides[0].decel
    x0 = [slides[0].t0, *slides[0].v0]
    lower, upper = [-np.inf, -np.inf, -np.inf], [np.inf, np.inf, np.inf]
    for k, slide in enumerate(slides[1:], start=1):
        lo_t, hi_t = float(t[bounds[k][0] - 1]), float(t[bounds[k][0]])
        if hi_t - lo_t < 1e-5:
            return slides  # two frames at one time: no room for an impact between them
        x0 += [min(max(slide.t0, lo_t + 1e-6), hi_t - 1e-6), *slide.v0]
        lower += [lo_t, -np.inf, -np.inf]
        upper += [hi_t, np.inf, np.inf]

    ends = [float(t[hi - 1]) for _, hi in bounds]

    def chain(params: np.ndarray) -> list[tuple[float, float, float, float, float]]:
        """Each slide's (t0, x0, y0, vx, vy): each starts where the one before is at their
        impact (plain floats: the solver calls this hundreds of times)."""
        out = []
        x, y, t0 = start_mm[0], start_mm[1], float(params[0])
        for k in range(len(slides)):
            vx, vy = float(params[3 * k + 1]), float(params[3 * k + 2])
            out.append((t0, x, y, vx, vy))
            if k + 1 < len(slides):
                t_next = float(params[3 * k + 3])
                speed = math.hypot(vx, vy)
                tau = min(max(t_next - t0, 0.0), speed / decel if decel > 0 else math.inf)
                moved = (speed * tau - 0.5 * decel * tau * tau) / speed if speed > 0 else 0.0
                x, y, t0 = x + moved * vx, y + moved * vy, t_next
        return out

    def build(params: np.ndarray) -> list[Slide]:
        pieces = chain(params)
        return [Slide(t0, (x, y), (vx, vy), decel, pieces[k + 1][0] if k + 1 < len(pieces)
                      else ends[k]) for k, (t0, x, y, vx, vy) in enumerate(pieces)]

    observed = [(t[lo:hi], p[lo:hi]) for lo, hi in bounds]

    def residual(params: np.ndarray) -> np.ndarray:
        out = []
        for (t0, x, y, vx, vy), (tt, pp) in zip(chain(params), observed, strict=True):
            speed = math.hypot(vx, vy)  # `Slide.position`, written out for the solver
            tau = np.clip(tt - t0, 0.0, speed / decel if decel > 0 else math.inf)
            along = (speed * tau - 0.5 * decel * tau * tau) / speed if speed > 0 else 0.0 * tau
            out += [x + along * vx - pp[:, 0], y + along * vy - pp[:, 1]]
        return np.concatenate(out)

    # A few evaluations per parameter settle it from the pieces' own fits.  Where few frames
    # hold a piece, a start time and a speed trade off along a valley of near-equal misfit
    # (hundreds of evaluations, up to a second, in the demo game): the best by then is kept,
    # for the scoreboard waits on this fit.
    def solve() -> OptimizeResult:
        return least_squares(residual, np.array(x0, float), bounds=(lower, upper),
                             method="trf", x_scale="jac", max_nfev=JOINT_EVALUATIONS * len(x0))

    sol = solve()
    if sol.x[0] < not_before:  # (as `_fit_slide`: it left rest after last seen there)
        lower[0], x0[0] = not_before, max(x0[0], not_before + 1e-6)
        sol = solve()
    fitted = build(sol.x)
    out = []
    for slide, (lo, hi) in zip(fitted, bounds, strict=True):
        err = slide.position(t[lo:hi]) - p[lo:hi]
        out.append(replace(slide, rms_mm=math.sqrt(float(np.sum(err ** 2)) / max(1, hi - lo))))
    out[-1] = replace(out[-1], t_end=slides[-1].t_end)
    return out


SHARP_NOISE_MM = 0.3
"""The error of a sharp detection's centre (a coin slow enough not to blur: the benchmark's
resting coins are within 0.2 mm RMS); blurred ones are noisier (`noise_mm`)."""


OFF_WAY_MM = 5.0
"""A frame this far beside the straight way from where a coin rested to where it rests
left that way at an impact (`_overshoot`): half a coin's radius, three times the 95th
percentile of a moving coin's detection error."""


def _overshoot(p: np.ndarray, start_mm: tuple[float, float], end_mm: tuple[float, float]
               ) -> list[tuple[int, int]] | None:
    """Two pieces when the coin was seen beyond where it came to rest, along its way, or
    beside that way (`_off_way`): a slide never passes its own resting place, nor turns,
    so it came back from an impact there.  A few frames (a bounce off a tower close by)
    fit any one quadratic, so the partition alone misses it.  Beyond its rest the coin is
    slow, so its centre is sharp: 4 σ of a sharp detection is the test."""
    way = np.subtract(end_mm, start_mm)
    length = float(np.hypot(*way))
    if length < 4.0 * SHARP_NOISE_MM or len(p) < 2:
        return None
    along = (p - np.asarray(start_mm)) @ (way / length)
    k = int(np.argmax(along))
    if along[k] - length < 4.0 * SHARP_NOISE_MM or k == len(p) - 1:
        k = _off_way(p, start_mm, way / length)
        if k is None:
            return None
    return [(0, k + 1), (k + 1, len(p))]


def _off_way(p: np.ndarray, start_mm: tuple[float, float], way: np.ndarray) -> int | None:
    """The frame where a coin left the straight way (unit vector `way`) from its resting
    place to where it rests, at an impact: the one farthest beside it, beyond OFF_WAY_MM,
    with a frame after it and the frames before it on the straight line from the resting
    place to it (None if none).  A slide runs straight from rest to rest; one that did not
    turned (capture at look 203: Moons, struck, seen 7.6 mm beside its way as it hit door
    3, then once coming back before an arm hid it: the hit was lost).  A first frame
    beside the way turned before any frame saw it: `_struck_after_first` decides that."""
    rel = p - np.asarray(start_mm, float)
    across = _beside(rel, way)
    k = int(np.argmax(across))
    if across[k] < OFF_WAY_MM or k == 0 or k == len(p) - 1:
        return None
    heading = rel[k] / float(np.hypot(*rel[k]))
    if np.any(_beside(rel[:k], heading) >= OFF_WAY_MM):
        return None  # (not one straight slide up to it either)
    return k


def _beside(offsets: np.ndarray, unit: np.ndarray) -> np.ndarray:
    """How far each offset (N×2, mm) lies beside a line along `unit`."""
    return np.abs(offsets @ np.array([-unit[1], unit[0]]))


def _struck_after_first(t: np.ndarray, p: np.ndarray, hi: int, start_mm: tuple[float, float],
                        decel: float, noise_mm: float) -> tuple[Slide, Slide] | None:
    """The slides before and after an impact right after the first frame that saw the coin,
    first seen already sliding (its launch hidden); None if it struck nothing there.

    Then no slide from its resting place runs through its frames up to `hi`, while those
    after the first fit one well, at the partition's price of a break: the first is
    the only frame of the slide before the impact (tower hit at look 289: Moons, flicked
    under the fingers, seen once 2.6 mm short of tower 1, then coming off it; fitted as one
    slide, bent 5.5 mm RMS, the hit was lost and it "settled" 3.9 mm from where it rests).
    One frame does not fit a slide: it ran straight from the resting place through that
    frame to where the slide after, run back, meets its line, in the time between."""
    if hi < MIN_PIECE:
        return None
    _, sse_one = _fit_slide(t[:hi], p[:hi], decel, start_mm)
    if (sse_one - _segment_sse(t[1:hi], p[1:hi], decel)) / noise_mm ** 2 <= _break_price(hi):
        return None
    after, _ = _fit_slide(t[1:hi], p[1:hi], decel, None)
    seen = p[0]
    way = seen - np.asarray(start_mm, float)
    run = float(np.hypot(*way))
    if run < 1e-6:
        return None
    heading = way / run
    grid = np.linspace(t[0], t[1], 61)[1:-1]
    back = _extend(after, grid) - seen
    across = _beside(back, heading)
    k = int(np.argmin(across))
    ahead = float(back[k] @ heading)  # from the first frame to the impact, along the way
    tau = float(grid[k] - t[0])
    if ahead <= 0.0:
        return None  # the slide after does not come off the line ahead of the first frame
    speed_seen = launch_speed(ahead, tau, decel)
    speed0 = math.sqrt(speed_seen ** 2 + 2.0 * decel * run)
    if speed0 > MAX_SPEED_MM_S:
        return None  # no flick is that fast: the frames after met its line by chance
    t_break = float(grid[k])
    before = Slide(float(t[0]) - (speed0 - speed_seen) / decel, start_mm,
                   (float(speed0 * heading[0]), float(speed0 * heading[1])), decel, t_break)
    after = _from_break(after, t_break, before.position(t_break))
    if float(np.dot(after.v0, heading)) > IMPACT_TURN_COS * after.speed0:
        return None  # on nearly the same heading: a first frame read off its line, no impact
    return before, after


def off_unseen_impact(t: np.ndarray, p: np.ndarray, start_mm: tuple[float, float],
                      decel: float, noise_mm: float, rested_until: float,
                      obstacle: Obstacle) -> tuple[Slide, Slide] | None:
    """The slides before and after an impact on a piece that no frame saw, the coin first
    seen already coming off it (its launch and its way to the piece hidden under the
    fingers); None if no such impact explains its frames.

    Then no slide from its resting place runs through its frames, while one slide fits
    them (at the partition's price of a break), and that slide, run back, meets a piece
    (`obstacle`), leaving it.  The bounce's law (PIECE_RESTITUTION) gives the velocity it
    came in with: it must point at the resting place (AIM_COS), and the slide from there
    reaches the impact at that speed, left after it was last seen at rest (tower hit at
    look 545: Moons, hidden from its launch until it came off tower 1's face 3 mm away,
    fitted as one slide bent 3.7 mm RMS from its place to its rest, and the hit was
    lost)."""
    if len(t) < MIN_PIECE:
        return None
    _, sse_one = _fit_slide(t, p, decel, start_mm, rested_until)
    if (sse_one - _segment_sse(t, p, decel)) / noise_mm ** 2 <= _break_price(len(t)):
        return None
    after, _ = _fit_slide(t, p, decel, None)
    seen = np.asarray(after.p0, float)
    speed_seen = after.speed0
    if speed_seen <= 0.0:
        return None
    heading = np.asarray(after.v0, float) / speed_seen
    met = obstacle(seen, -heading, float(np.hypot(*(seen - np.asarray(start_mm)))))
    if met is None:
        return None
    back_mm, normal = met
    impact = seen - heading * back_mm
    speed_out = math.sqrt(speed_seen ** 2 + 2.0 * decel * back_mm)
    t_break = float(t[0]) - (speed_out - speed_seen) / decel
    v_out = heading * speed_out
    across = float(v_out @ normal)
    if across <= 0.0 or t_break <= rested_until:
        return None  # not leaving the face, or before it was last seen at rest
    v_in = v_out - (1.0 + 1.0 / PIECE_RESTITUTION) * across * normal  # across, reversed
    way = impact - np.asarray(start_mm, float)
    run = float(np.hypot(*way))
    speed_in = float(np.hypot(*v_in))
    if run < 1e-6 or float(v_in @ way) < AIM_COS * speed_in * run:
        return None  # the bounce, run back, does not point at where it rested
    speed0 = math.sqrt(speed_in ** 2 + 2.0 * decel * run)
    t0 = t_break - (speed0 - speed_in) / decel
    if t0 < rested_until:  # as soon as it was last seen at rest, no sooner
        t0, speed0 = rested_until, launch_speed(run, t_break - rested_until, decel)
    if speed0 > MAX_SPEED_MM_S:
        return None
    aim = way / run
    before = Slide(t0, start_mm, (float(speed0 * aim[0]), float(speed0 * aim[1])), decel,
                   t_break)
    return before, _from_break(after, t_break, before.position(t_break))


def launch_speed(run_mm: float, taken_s: float, decel: float) -> float:
    """The speed a slide starts at to run `run_mm` in `taken_s` (if it has not stopped)."""
    return run_mm / taken_s + 0.5 * decel * taken_s


def _from_break(slide: Slide, t_break: float, p_break: np.ndarray) -> Slide:
    """`slide` started at an impact: from `p_break` at `t_break`, with the velocity its own
    path has there (the path run back past its first frame, `_extend`)."""
    _, c = slide.path_coeffs()
    v_break = c[0] + 2.0 * c[1] * (t_break - slide.t0)
    return Slide(t_break, (float(p_break[0]), float(p_break[1])),
                 (float(v_break[0]), float(v_break[1])), slide.decel, slide.t_end, slide.rms_mm)


def _launched_within(t: np.ndarray, p: np.ndarray, start_mm: tuple[float, float],
                     decel: float, ahead_mm: float) -> bool:
    """Was the coin launched during its first moving frame's exposure?  That frame averages
    rest and motion: its centre reads ahead of where the coin was at mid-exposure (gate-run
    at 1080p: 3.4 mm, pulling the whole slide 0.4-1 mm ahead).  It is told by reading
    `ahead_mm` ahead of the slide the next few frames fit from the resting place (too few
    to span an impact), having moved less from rest than in the frame after it (a coin first
    seen far along, after a hand hid its start, is no launch frame); a finger pushing the
    coin along would leave it behind, not ahead."""
    if math.dist(p[0], start_mm) >= math.dist(p[0], p[1]):
        return False  # it had gone farther than a frame's travel: seen later than its launch
    slide, _ = _fit_slide(t[1:], p[1:], decel, start_mm)
    speed = math.hypot(*slide.v0)
    if speed < 1e-9:
        return False
    ahead = float(np.dot(p[0] - slide.position(t[:1])[0], slide.v0)) / speed
    return ahead > ahead_mm


def _fingertip(t: np.ndarray, p: np.ndarray, piece: tuple[int, int],
               start_mm: tuple[float, float]) -> bool:
    """Is this first piece (of those left) the finger's drift before the flick?  Not when
    it went farther than a fingertip drags a blob (FINGER_DRAG_MM) heading where the coin
    first went beyond a finger's reach: that is the coin leaving rest (the capture sample
    clip: Moons struck by guard 2, 14 mm on in two frames, its launch taken for drift and
    the rebound off door 3 lost with it).  One that ends behind the place, opposite where
    the coin went, is the fingertip however fast it moved: nothing leaves rest backwards
    (capture at look 224: the fingertip 14 mm behind Suns, 10.6 mm in a frame, and the
    flick read 50 ms early)."""
    lo, hi = piece
    from_rest = p - np.asarray(start_mm)
    off = np.hypot(*from_rest.T)
    if off[lo:hi].max() >= FINGER_MM:
        return _winding_up(from_rest, off, piece)
    steps = np.hypot(*np.diff(p[lo:hi], axis=0).T)
    slow = len(steps) == 0 or (steps / np.diff(t[lo:hi])).max() < FINGER_MM_S
    gone = np.flatnonzero(off >= FINGER_MM)
    if not len(gone):
        return slow
    moved, onward = from_rest[hi - 1], from_rest[gone[0]]  # where it first left the finger
    dragged = float(np.hypot(*moved))
    if dragged > 4.0 * SHARP_NOISE_MM and float(moved @ onward) < 0.0:
        return True  # behind the place, however fast: nothing leaves rest backwards
    return slow and (dragged <= FINGER_DRAG_MM or
                     float(moved @ onward) <= 0.5 * dragged * float(np.hypot(*onward)))


def _fingers_readings(p: np.ndarray, start_mm: tuple[float, float]) -> int:
    """How many of the first centres `p` are the finger's: up to the last, before the coin
    first went beyond a finger's reach, that lies farther behind its resting place than a
    fingertip drags its blob (FINGER_DRAG_MM), opposite where the coin went.  That one is
    the fingertip alone, read as the coin it hid, for nothing leaves rest backwards; the
    readings before it are the finger's drag, or the coin at rest (capture at look 460:
    the fingertip 11.7 mm behind Suns in the two frames after the flick, the slide fitted
    through them, and the flick read 67 ms late; at look 422, a drag 1.3 mm off Ace's
    place before two such frames made a slow piece of its own, the flick 0.13 s early)."""
    from_rest = p - np.asarray(start_mm)
    off = np.hypot(*from_rest.T)
    gone = np.flatnonzero(off >= FINGER_MM)
    if not len(gone):
        return 0
    before = slice(0, gone[0])
    behind = np.flatnonzero((off[before] > FINGER_DRAG_MM)
                            & (from_rest[before] @ from_rest[gone[0]] < 0.0))
    return int(behind[-1]) + 1 if len(behind) else 0


def _winding_up(from_rest: np.ndarray, off: np.ndarray, piece: tuple[int, int]) -> bool:
    """Is this first piece, beyond a finger's reach, the hand drawn back before the flick:
    every frame of it behind the place, opposite where the coin then went, and nearer the
    place at its end than at its start?  No slide from rest comes back towards it (capture
    at look 177: a streak of the flicking finger 45 mm behind Moons, then 28 mm, on the
    line of its flick, read as Moons sliding, and the flick put 0.19 s early)."""
    lo, hi = piece
    onward = np.flatnonzero(off[hi:] >= FINGER_MM)
    if hi - lo < 2 or not len(onward) or off[hi - 1] >= off[lo]:
        return False
    return bool((from_rest[lo:hi] @ from_rest[hi + onward[0]] < 0.0).all())


def _extend(slide: Slide, t: np.ndarray) -> np.ndarray:
    """A slide's path, extrapolated backwards before t0 (for locating an impact)."""
    c0, c = slide.path_coeffs()
    tau = t - slide.t0
    return c0 + np.outer(tau, c[0]) + np.outer(tau * tau, c[1])


def _segment_sse(t: np.ndarray, p: np.ndarray, decel: float | None) -> float:
    """Misfit of one physical slide through the points: a straight path, along which the
    coin slows at the friction deceleration.  A kink (an impact) fits neither.

    Without a deceleration, a quadratic path per axis (exact for ≤ 3 points).
    """
    n = len(t)
    if decel is None:
        if n <= 3:
            return 0.0
        tau = t - t.mean()
        design = np.stack([np.ones(n), tau, tau * tau], axis=1)
        _, res, _, _ = np.linalg.lstsq(design, p, rcond=None)
        return float(res.sum()) if len(res) else 0.0
    if n <= 2:
        return 0.0
    across, u = _line_fit(p)
    s_along = (p - p.mean(axis=0)) @ u
    sign = 1.0 if s_along[-1] >= s_along[0] else -1.0
    tau = t - t[0]
    # s(τ) = s0 + v τ − ½ a τ² (the coin slows along its path): linear in (s0, v).
    target = s_along + sign * 0.5 * decel * tau * tau
    design = np.stack([np.ones(n), tau], axis=1)
    _, res, _, _ = np.linalg.lstsq(design, target, rcond=None)
    return across + (float(res.sum()) if len(res) else 0.0)


def optimal_partition(t: np.ndarray, p: np.ndarray, noise_mm: float,
                      max_pieces: int = 10, decel: float | None = None,
                      anchor: tuple[float, float] | None = None
                      ) -> list[tuple[int, int]]:
    """Best split of observations into pieces (index ranges), penalising each break.

    cost = Σ SSE_piece / σ² + β · pieces, with β = 6 ln n (a BIC-like price: a break must
    explain several σ² of misfit).  Pieces have at least 2 points.  With the friction
    deceleration, each piece is held to a physical slide (straight, slowing at μg).

    With an `anchor` (the resting place the coin left, its frames there left out), the
    first piece's line runs through it too, and it may be one frame: the only one before
    an impact (fast flick at look 203: Suns, drawn through its contact with Arms, seen once
    coming back before it struck a post; two frames free of the anchor made the first
    piece, one of them after the post, and the hit was lost).  The line is fitted through
    the place and the frames together: one through two frames alone, extended 60 mm back,
    passed 5 mm from the place where those frames of a 2.5 m/s coin read 5 mm off its line,
    and a post hit was invented (strike at look 189).
    """
    n = len(t)
    if n < 4 and anchor is None:
        return [(0, n)]
    sigma2 = noise_mm * noise_mm
    beta = _break_price(n)
    best = np.full(n + 1, math.inf)
    back = np.zeros(n + 1, int)
    best[0] = 0.0
    min_len = 2
    for j in range(1 if anchor is not None else min_len, n + 1):  # (one frame: i = 0 only)
        for i in range(max(j - min_len, 0) + 1):
            if best[i] == math.inf:
                continue
            sse = _segment_sse(t[i:j], p[i:j], decel)
            if anchor is not None and i == 0:
                sse += _across2(np.vstack([anchor, p[:j]])) - _across2(p[:j])
            cost = best[i] + sse / sigma2 + beta
            if cost < best[j]:
                best[j] = cost
                back[j] = i
    bounds = []
    j = n
    while j > 0:
        i = int(back[j])
        bounds.append((i, j))
        j = i
    bounds.reverse()
    if len(bounds) > max_pieces:
        return [(0, n)]
    return bounds


def _line_fit(p: np.ndarray) -> tuple[float, np.ndarray]:
    """The straight line that fits points best: Σ their squared distances from it, and its
    direction (unit)."""
    centred = p - p.mean(axis=0)
    evals, evecs = np.linalg.eigh(centred.T @ centred)
    return float(max(evals[0], 0.0)), evecs[:, 1]


def _across2(p: np.ndarray) -> float:
    """Σ squared distances of the points from the straight line that fits them best (none
    for two points or fewer)."""
    return _line_fit(p)[0] if len(p) > 2 else 0.0


def _break_price(n: int) -> float:
    """The misfit (in σ²) a break must explain among n observations (`optimal_partition`)."""
    return 6.0 * math.log(n) + 10.0


def quadratic_roots(c0: float, c1: float, c2: float, lo: float, hi: float) -> list[float]:
    """Real roots of c0 + c1 τ + c2 τ² in [lo, hi], ascending."""
    if abs(c2) < 1e-12:
        if abs(c1) < 1e-12:
            return []
        roots = [-c0 / c1]
    else:
        disc = c1 * c1 - 4.0 * c2 * c0
        if disc < 0:
            return []
        sq = math.sqrt(disc)
        # Numerically stable pair of roots.
        q = -0.5 * (c1 + math.copysign(sq, c1))
        roots = [q / c2] + ([c0 / q] if q != 0 else [])
    return sorted(r for r in roots if lo - 1e-12 <= r <= hi + 1e-12)
