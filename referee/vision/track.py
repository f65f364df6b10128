"""Tracking: one track per known coin, a Kalman filter each, Hungarian assignment with gating.

The game fixes the set of coins and the session start binds each identity to a place (every
coin rests in its start zone), so the tracker never creates or deletes identities: it keeps
them.  Each frame (`update`, called even when nothing is detected, as SORT does):

1. assignment by Mahalanobis distance inside a χ² gate (scipy's `linear_sum_assignment`);
2. a second round for what is left, by distance within the reach of a fast coin and by look:
   this catches impacts (a resting coin struck hard lands far from its prediction) and coins
   that come back after a hand hid them; the filter is then re-seeded from observations
   (OC-SORT's observation-centric recovery);
3. coins without a detection coast; the caller says whether a hand covers their prediction.

A resting coin's detection that touches a hand and lies within a radius of it is not taken:
a fingertip merged into the blob would drag the centre (and invent a motion) before the
flick; the coin is held where it rests until it leaves the fingers.

Observations (the raw detected centres, not the filtered ones) are kept per coin for the
trajectory reconstruction, which fits physics to them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

import numpy as np
from scipy.optimize import linear_sum_assignment

from referee.vision.detections import Detections
from referee.vision.kalman import CoinFilter, MotionModel

GATE_CHI2 = 18.4
"""χ² with 2 degrees of freedom at 99.99 %: a detection outside is not this coin's."""
MAX_SPEED_MM_S = 4000.0
"""No flicked coin goes faster; bounds the second-round search."""
UNMATCHED = 1e9
LOST_S = 0.25
"""A coin unseen this long has a belief too vague for the χ² gate; it waits for round 2."""
STAYED_MM = 8.0
"""A coin seen again this close to where a hand hid it is taken to have stayed there."""
RESTING_MM_S = 30.0
"""A coin slower than this is at rest (the pipeline's threshold for activity too)."""


@dataclass
class Observation:
    t: float
    center_mm: tuple[float, float]
    streak_mm: float = 0.0


@dataclass
class CoinTrack:
    coin: str
    filter: CoinFilter
    look: np.ndarray | None = None
    observations: list[Observation] = field(default_factory=list)
    last_seen: float = 0.0
    hidden: bool = False
    """True while a hand covers the coin's predicted place (it is not lost, only unseen)."""
    gone: bool = False
    """True once the coin left the table (until it is placed back)."""

    @property
    def position_mm(self) -> tuple[float, float]:
        return (float(self.filter.x[0]), float(self.filter.x[1]))

    @property
    def speed_mm_s(self) -> float:
        return float(np.hypot(*self.filter.x[2:]))


class Tracker:
    """Keeps every known coin's identity from frame to frame."""

    def __init__(self, start_mm: Mapping[str, tuple[float, float]], t0: float = 0.0,
                 model: MotionModel | None = None,
                 looks: Mapping[str, np.ndarray] | None = None) -> None:
        if not start_mm:
            raise ValueError("the tracker needs the game's coins and where they start")
        self.model = model or MotionModel()
        self.tracks: dict[str, CoinTrack] = {}
        for coin, p in start_mm.items():
            f = CoinFilter(t0, np.asarray(p, float), self.model)
            look = None if looks is None else np.asarray(looks.get(coin), float)
            self.tracks[coin] = CoinTrack(coin, f, look, last_seen=t0)
        self.t = t0

    def update(self, t: float, detections: Detections,
               covered: Callable[[tuple[float, float]], bool] | None = None
               ) -> dict[str, int]:
        """Fold one frame's detections; return {coin: index of its detection}."""
        coins = [c for c in self.tracks if not self.tracks[c].gone]
        assigned: dict[str, int] = {}
        n = len(detections)
        fingered = self._fingered(detections, coins) if n and coins else set()
        if n and coins:
            cost = np.full((len(coins), n), UNMATCHED)
            for i, coin in enumerate(coins):
                if self.tracks[coin].hidden or t - self.tracks[coin].last_seen > LOST_S:
                    continue  # under a hand or long unseen: too vague to gate on (round 2)
                d2 = self.tracks[coin].filter.mahalanobis2(t, detections.center_mm)
                cost[i] = np.where(d2 <= GATE_CHI2, d2, UNMATCHED)
            cost[:, sorted(fingered)] = UNMATCHED
            rows, cols = linear_sum_assignment(cost)
            for i, j in zip(rows, cols, strict=True):
                if cost[i, j] < UNMATCHED:
                    assigned[coins[i]] = int(j)
            self._second_round(t, detections, coins, assigned, fingered)
        for coin in coins:
            track = self.tracks[coin]
            j = assigned.get(coin)
            if j is None:
                track.filter.step(t, None)
                track.hidden = bool(covered and covered(track.position_mm))
                if not track.hidden:
                    # Unseen and uncovered: hold it where it was last seen (it cannot vanish).
                    track.filter.x[2:] = 0.0
                continue
            z = detections.center_mm[j]
            if track.hidden or t - track.last_seen > LOST_S:
                track.filter.reseed(t, z, np.zeros(2))
            else:
                track.filter.step(t, z)
            track.hidden = False
            track.last_seen = t
            track.observations.append(Observation(t, (float(z[0]), float(z[1])),
                                                  float(detections.streak_mm[j])))
        self.t = t
        return assigned

    def _fingered(self, detections: Detections, coins: list[str]) -> set[int]:
        """Detections that are a resting coin seen with a fingertip merged into it."""
        resting = [self.tracks[c].position_mm for c in coins
                   if self.tracks[c].speed_mm_s < RESTING_MM_S]
        if not resting or not detections.by_hand.any():
            return set()
        near = np.hypot(*(detections.center_mm[:, None, :] - np.asarray(resting)[None]).T).T
        return {int(j) for j in np.nonzero(detections.by_hand > 0)[0]
                if (near[j] < detections.radius_mm[j]).any()}

    def _second_round(self, t: float, detections: Detections, coins: list[str],
                      assigned: dict[str, int], fingered: set[int]) -> None:
        """Left-over coins and detections: match by reach and look, then re-seed."""
        free_coins = [c for c in coins if c not in assigned]
        used = set(assigned.values()) | fingered
        free_dets = [j for j in range(len(detections)) if j not in used]
        if not free_coins or not free_dets:
            return
        cost = np.full((len(free_coins), len(free_dets)), UNMATCHED)
        for i, coin in enumerate(free_coins):
            track = self.tracks[coin]
            reach = MAX_SPEED_MM_S * max(t - track.last_seen, 1e-3) + 20.0
            if track.hidden:
                reach = max(reach, 1500.0)  # a hand may have moved it anywhere
            for k, j in enumerate(free_dets):
                d = float(np.hypot(*(detections.center_mm[j] - track.position_mm)))
                if d > reach:
                    continue
                look_cost = 0.0
                if track.look is not None and detections.look.shape[1] == len(track.look):
                    look_cost = float(np.linalg.norm(detections.look[j] - track.look))
                if track.hidden and d < STAYED_MM:
                    cost[i, k] = d / 50.0  # back where the hand hid it: it did not move
                elif track.hidden:
                    # Flicked from under the fingers, or moved by hand anywhere: nearer is
                    # likelier, and the look (blurred while it slides) breaks the ties.
                    cost[i, k] = d / 20.0 + 10.0 * look_cost + 1.0
                else:
                    cost[i, k] = d / 10.0 + 5.0 * look_cost
        rows, cols = linear_sum_assignment(cost)
        for i, k in zip(rows, cols, strict=True):
            if cost[i, k] >= UNMATCHED:
                continue
            coin, j = free_coins[i], free_dets[k]
            track = self.tracks[coin]
            dt = max(t - track.last_seen, 1e-3)
            last = track.observations[-1].center_mm if track.observations else track.position_mm
            velocity = (detections.center_mm[j] - np.asarray(last)) / dt
            track.filter.reseed(track.last_seen, np.asarray(last, float), velocity)
            assigned[coin] = j
