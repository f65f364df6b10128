"""Chains of detections no coin took: a coin's slide the tracker lost, seen whole afterwards.

When a fingertip stays where a coin rested, the tracker may follow it (it is near, sharp
and, on a pale hand over pale coins, about the coin's colour) while the coin itself slides
away unclaimed, frame after frame, until it is out of any coin's reach (strike at look 121
and at look 111, 720p60: the whole run through four gates lost).  A run of free detections
that moves like a sliding coin (on a straight line, its speed not growing) is a coin's slide
whatever the tracker believed; `Tracker` gives it to the coin whose resting place its line
runs back through.

Linking free detections frame to frame is SORT's tentative-track idea, kept to the simplest
motion that tells a slide: constant velocity, gated by distance.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from scipy.optimize import linear_sum_assignment

GAP_S = 0.07
"""A chain survives one missed frame at 30 fps (two at 60), no more."""
LINK_MM = 6.0
"""How far a chain's next detection may lie from its constant-velocity prediction, plus
LINK_SHARE of the predicted step (friction and the streak's centre)."""
LINK_SHARE = 0.25
FIRST_STEP_MM_S = 4000.0
"""A chain of one point links to a detection within this speed (no flicked coin is faster)."""
SLIDE_POINTS = 3
"""A slide needs this many points: two fix a line, the third tests it."""
SLIDE_STRAIGHT_MM = 3.0
"""...each within this of the line through the first and the last."""
SLIDE_SPEED_MM_S = 300.0
"""...moving on at least this speed at every step (a hand's fragment drifting is slower)."""
SLIDE_SPEEDUP = 1.2
"""...and no step faster than this times the one before (plus SPEEDUP_MM_S): a coin loses
speed once it leaves the finger."""
SPEEDUP_MM_S = 100.0
KEEP_POINTS = 8
"""A chain keeps its last few points: enough to test a slide, no history to grow."""


@dataclass
class Chain:
    """Free detections linked frame to frame: (t, x_mm, y_mm), with their looks."""

    points: list[tuple[float, float, float]]
    looks: list[np.ndarray] = field(default_factory=list)
    streaked: list[bool] = field(default_factory=list)
    """Each point's blob blurred into a streak (its look half the cloth's)."""
    index: int = -1
    """The current frame's detection at its end (-1: not extended this frame)."""

    def predicted(self, t: float) -> np.ndarray:
        t1, x1, y1 = self.points[-1]
        if len(self.points) < 2:
            return np.array([x1, y1])
        t0, x0, y0 = self.points[-2]
        v = (np.array([x1, y1]) - (x0, y0)) / max(t1 - t0, 1e-6)
        return np.array([x1, y1]) + v * (t - t1)

    def is_slide(self) -> bool:
        """Straight, moving on, and not speeding up: a coin sliding after its flick."""
        if len(self.points) < SLIDE_POINTS:
            return False
        p = np.array([pt[1:] for pt in self.points], float)
        t = np.array([pt[0] for pt in self.points], float)
        u = p[-1] - p[0]
        length = float(np.hypot(*u))
        if length == 0.0:
            return False
        u /= length
        off = p - p[0]
        if np.max(np.abs(off[:, 0] * u[1] - off[:, 1] * u[0])) > SLIDE_STRAIGHT_MM:
            return False
        speeds = np.diff(off @ u) / np.maximum(np.diff(t), 1e-6)
        if np.min(speeds) < SLIDE_SPEED_MM_S:
            return False
        return bool(np.all(speeds[1:] <= SLIDE_SPEEDUP * speeds[:-1] + SPEEDUP_MM_S))

    @property
    def direction(self) -> np.ndarray:
        """Unit direction of travel."""
        u = np.asarray(self.points[-1][1:]) - self.points[0][1:]
        return u / max(float(np.hypot(*u)), 1e-9)

    @property
    def first_speed_mm_s(self) -> float:
        (t0, *p0), (t1, *p1) = self.points[:2]
        return float(np.hypot(p1[0] - p0[0], p1[1] - p0[1]) / max(t1 - t0, 1e-6))


class Orphans:
    """The chains of free detections, extended each frame."""

    def __init__(self) -> None:
        self.chains: list[Chain] = []

    def update(self, t: float, centers_mm: np.ndarray, looks: np.ndarray,
               indices: list[int], streaked: np.ndarray | None = None) -> None:
        """Link this frame's free detections (`indices` into the frame's detections, their
        `centers_mm`, `looks` and whether each is `streaked`) to the chains; start a chain
        at each one left; drop the chains that missed more than GAP_S."""
        blurred = [False] * len(indices) if streaked is None else [bool(v) for v in streaked]
        alive = [c for c in self.chains if t - c.points[-1][0] <= GAP_S + 1e-9]
        for chain in alive:
            chain.index = -1
        pairs: list[tuple[int, int]] = []
        copies: list[tuple[int, int]] = []
        if alive and len(indices):
            cost = np.full((len(alive), len(indices)), np.inf)
            for i, chain in enumerate(alive):
                dt = t - chain.points[-1][0]
                d = np.hypot(*(centers_mm - chain.predicted(t)).T)
                if len(chain.points) < 2:
                    gate = FIRST_STEP_MM_S * dt
                else:
                    step = float(np.hypot(*(chain.predicted(t) - chain.points[-1][1:])))
                    gate = LINK_MM + LINK_SHARE * step
                cost[i] = np.where(d <= gate, d, np.inf)
            finite = np.where(np.isfinite(cost), cost, 1e9)
            rows, cols = linear_sum_assignment(finite)
            pairs = [(int(i), int(k)) for i, k in zip(rows, cols, strict=True)
                     if np.isfinite(cost[i, k])]
            # A chain of one point has no velocity to tell which of several detections
            # within reach goes on from it: it goes on to each (a streak broken in two
            # pieces a frame, linked crosswise, is two chains that each fail the third
            # point: off-table at look 263, the whole slide to the table's edge lost).
            copies = [(i, int(k)) for i, chain in enumerate(alive) if len(chain.points) == 1
                      for k in np.flatnonzero(np.isfinite(cost[i])) if (i, k) not in pairs]
        linked = set()
        for i, k in pairs:
            alive[i] = self._extended(alive[i], t, centers_mm[k], looks[k], blurred[k],
                                      indices[k])
            linked.add(k)
        for i, k in copies:
            alive.append(self._extended(Chain(alive[i].points[:1], alive[i].looks[:1],
                                              alive[i].streaked[:1]),
                                        t, centers_mm[k], looks[k], blurred[k], indices[k]))
        for k, j in enumerate(indices):
            if k not in linked:
                alive.append(Chain([(t, *map(float, centers_mm[k]))], [looks[k]],
                                   [blurred[k]], j))
        self.chains = alive

    @staticmethod
    def _extended(chain: Chain, t: float, center_mm: np.ndarray, look: np.ndarray,
                  streaked: bool, index: int) -> Chain:
        """`chain` with this frame's detection `index` at its end (its last few points)."""
        chain.points = [*chain.points, (t, *map(float, center_mm))][-KEEP_POINTS:]
        chain.looks = [*chain.looks, look][-KEEP_POINTS:]
        chain.streaked = [*chain.streaked, streaked][-KEEP_POINTS:]
        chain.index = index
        return chain

    def slides(self) -> list[Chain]:
        """The chains extended this frame that read as a coin's slide."""
        return [c for c in self.chains if c.index >= 0 and c.is_slide()]

    def drop(self, chain: Chain) -> None:
        self.chains.remove(chain)
