"""Coins that exchanged identities in a collision, told apart by their looks once they rest.

Two coins that meet within a frame (a strike whose struck coin hits a tower and rebounds into
the striker) leave as two blurred blobs whose looks say little, and the tracker may give each
the other's name (fast-flick, look 108: Suns and Arms).  Once they rest, their looks are
sharp again: a coin reads within about 0.01 of its session-start look (the mean colour,
each channel 0-1), another suit's coin 0.05 and more from it.  When the two resting coins'
looks fit the names the other way round far better, the names are exchanged about the time
the two came closest (the collision), before the flick is reconstructed: in the frames
about it, where the two paths run shortest (`exchange_time`).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Mapping, Sequence
from typing import TypeVar

import numpy as np

T = TypeVar("T")

SWAP_RATIO = 0.5
"""The exchanged names must fit the looks this much better (sum of the two distances)."""
SWAP_FIT = 0.04
"""...and each coin must read this near the other's look: a clear fit, not the lesser of
two poor ones..."""
SWAP_GAIN = 0.05
"""...and the sum must fall by this much: a knight and its own guard read 0.01-0.03 apart,
so no reading tells them apart (the faces do: `Pipeline._twin_holds`)."""
EXCHANGE_GAIN_MM = 1.0
"""An exchange moved from the closest approach must shorten the two paths by this much."""
APART_MM = 40.0
"""Two coins never seen within this distance of each other (two coins' widths) did not meet:
they exchanged names while unseen, an arm sweeping over both."""


def exchanged(moved: Sequence[str], looks_now: Mapping[str, np.ndarray],
              looks_start: Mapping[str, np.ndarray]) -> list[tuple[str, str]]:
    """The pairs among the coins that moved whose resting looks fit each other's names
    (best fit first; a coin is in one pair at most)."""
    coins = [c for c in moved if c in looks_now and c in looks_start]

    def d(now: str, name: str) -> float:
        return float(np.linalg.norm(np.asarray(looks_now[now]) - np.asarray(looks_start[name])))

    candidates = []
    for i, a in enumerate(coins):
        for b in coins[i + 1:]:
            keep, swap = d(a, a) + d(b, b), d(a, b) + d(b, a)
            if swap < SWAP_RATIO * keep and keep - swap > SWAP_GAIN and \
                    max(d(a, b), d(b, a)) < SWAP_FIT:
                candidates.append((swap / max(keep, 1e-9), a, b))
    pairs: list[tuple[str, str]] = []
    taken: set[str] = set()
    for _, a, b in sorted(candidates):
        if a not in taken and b not in taken:
            pairs.append((a, b))
            taken |= {a, b}
    return pairs


def closest_approach(a: Sequence[tuple[float, float, float]],
                     b: Sequence[tuple[float, float, float]], since: float) -> float:
    """When two coins' observations (t, x, y) after `since` came closest (frames both were
    seen in); `since` if they never were seen together."""
    return _closest(a, b, since)[0]


def _closest(a: Sequence[tuple[float, float, float]], b: Sequence[tuple[float, float, float]],
             since: float) -> tuple[float, float]:
    """`closest_approach`, and how near they came then (mm; infinite: never seen together)."""
    at_b = {t: (x, y) for t, x, y in b if t > since}
    best, when = math.inf, since
    for t, x, y in a:
        if t in at_b and (gap := math.dist((x, y), at_b[t])) < best:
            best, when = gap, t
    return when, best


def exchange_time(a: Sequence[tuple[float, float, float]],
                  b: Sequence[tuple[float, float, float]], since: float) -> float:
    """When two coins' names were exchanged (observations (t, x, y) after it go to the other):
    of the times from the last frame both were seen in before their closest approach to the
    first after it, the one that leaves the two paths shortest.

    The frame they came closest may already be past the exchange: a striker stopped by the
    coin it struck, and that coin leaving, are closest a frame after the contact when the
    contact frame shows them as one blob (capture at look 218: the struck coin kept the
    striker's place for that frame, "moved" 16 mm toward it and read as flicked).  Names
    exchanged a frame too late or too early make both paths jump across the gap between the
    coins and back; coins do not pass through each other.

    Two coins never seen within APART_MM of each other did not meet: an arm swept over
    both, and the tracker gave each the other's name as they came out from under it
    (capture at look 568: Moons and guard 2, 177 mm apart). The names were exchanged while
    both were unseen, anywhere after `since`: of all those times, the one that leaves the
    two paths shortest (at their "closest approach", every frame between it and the arm's
    passing would have each coin at the other's place).
    """
    when, gap = _closest(a, b, since)
    both = sorted({t for t, _, _ in a} & {t for t, _, _ in b})
    lo = max((t for t in both if since < t < when), default=when)
    hi = min((t for t in both if t > when), default=when)
    if gap > APART_MM:
        after = [t for t, _, _ in (*a, *b) if t > since]
        lo, hi = min(after, default=lo), max(after, default=hi)
    candidates = sorted({t for t, _, _ in (*a, *b) if lo <= t < hi} | {when})

    def path_mm(split: float) -> float:
        """Both paths' length from the frame before `lo` to the frame after `hi`."""
        total = 0.0
        for obs in exchange_after(a, b, split, lambda o: o[0]):
            near = [o for o in obs if o[0] < lo][-1:] + [o for o in obs if lo <= o[0] <= hi] \
                + [o for o in obs if o[0] > hi][:1]
            total += sum(math.dist(p[1:], q[1:]) for p, q in itertools.pairwise(near))
        return total

    best = path_mm(when)
    for t in candidates:
        if (length := path_mm(t)) < best - EXCHANGE_GAIN_MM:
            best, when = length, t
    return when


def exchange_after(a: Sequence[T], b: Sequence[T], since: float, t: Callable[[T], float],
                   until: float = math.inf) -> tuple[list[T], list[T]]:
    """Two coins' observations with those after `since` (by `t`), up to `until`, exchanged."""
    def swapped(o: T) -> bool:
        return since < t(o) <= until

    return (sorted([o for o in a if not swapped(o)] + [o for o in b if swapped(o)], key=t),
            sorted([o for o in b if not swapped(o)] + [o for o in a if swapped(o)], key=t))
