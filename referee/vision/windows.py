"""Cut the coins' observed tracks into flicks: from the first coin leaving rest to all at rest.

A coin is at rest where consecutive centres move less than the noise allows; a flick window
opens when any coin moves and closes once every coin has rested for `dwell_s` (RULES-SPEC §1.1:
300 ms).  Each moving coin's observations in the window are fitted (vision.trajectory) from
its resting place before to its resting place after, or to where it vanished (off the table).
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from referee.vision.reconstruct import FlickWindow
from referee.vision.trajectory import Motion, fit_motion

Track = Sequence[tuple[float, float, float]]
"""(t, x_mm, y_mm) observations of one coin, in time order."""


def moving_mask(track: np.ndarray, noise_mm: float) -> np.ndarray:
    """True for observations taken while the coin moved.

    A resting coin has an anchor (the median of its recent resting centres); it starts moving
    when two observations in a row lie more than 6σ from the anchor (one noisy frame never
    opens a flick), and rests again when two steps in a row are within the noise.

    Plain Python over the points: a track is walked one frame at a time, and NumPy's
    per-call cost on eight points was most of a flick's closing time (the web's latency).
    """
    n = len(track)
    mask = np.zeros(n, bool)
    if n < 2:
        return mask
    p = [(float(x), float(y)) for x, y in track[:, 1:]]
    away = 6.0 * noise_mm
    still = 6.0 * noise_mm
    pool: list[tuple[float, float]] = [p[0]]
    moving = False
    for k in range(1, n):
        if not moving:
            ax, ay = _median2(pool[-8:])
            far = math.hypot(p[k][0] - ax, p[k][1] - ay) > away
            far_next = k + 1 >= n or math.hypot(p[k + 1][0] - ax, p[k + 1][1] - ay) > away
            if far and far_next:
                moving = True
                mask[k - 1] = True  # the last resting frame belongs to the motion's start
            else:
                pool.append(p[k])
                continue
        mask[k] = True
        step = math.dist(p[k], p[k - 1])
        step_next = math.dist(p[k + 1], p[k]) if k + 1 < n else 0.0
        if step < still and step_next < still:
            moving = False
            pool = [p[k]]
    return mask


def _median2(points: list[tuple[float, float]]) -> tuple[float, float]:
    """Each axis's median of a few points (as NumPy's: the middle two's mean when even)."""
    return statistics.median(q[0] for q in points), statistics.median(q[1] for q in points)


SPAN_GAP_FRAMES = 3.5
"""A track unseen longer than this many frame intervals is two spans: its motion between
them is no sighting's (a coin moved unseen: `pipeline.Pipeline.process`)."""


def split_spans(track: np.ndarray, frame_dt: float) -> list[np.ndarray]:
    """Pieces of a track seen without a gap longer than three frames."""
    if len(track) == 0:
        return []
    gaps = np.nonzero(np.diff(track[:, 0]) > SPAN_GAP_FRAMES * frame_dt)[0]
    return np.split(track, gaps + 1)


@dataclass
class CoinTrackSplit:
    """One coin's observations with the motion mask and the visibility span of each."""

    obs: np.ndarray
    moving: np.ndarray
    span: np.ndarray
    vanished_moving: list[float]
    """Times the coin was last seen while moving (it left the table or was snatched)."""


def split_track(track: Track, frame_dt: float, noise_mm: float) -> CoinTrackSplit:
    arr = np.asarray(track, float).reshape(-1, 3)
    spans = split_spans(arr, frame_dt)
    masks, ids, vanished = [], [], []
    for k, span in enumerate(spans):
        mask = moving_mask(span, noise_mm)
        masks.append(mask)
        ids.append(np.full(len(span), k))
        if len(span) and mask[-1]:
            vanished.append(float(span[-1, 0]))
    return CoinTrackSplit(arr, np.concatenate(masks) if masks else np.zeros(0, bool),
                          np.concatenate(ids) if ids else np.zeros(0, int), vanished)


def find_windows(tracks: Mapping[str, Track], frame_dt: float, noise_mm: float = 0.3,
                 dwell_s: float = 0.3, decel: float = 0.30 * 9806.65,
                 after: float = -math.inf) -> list[FlickWindow]:
    """All flick windows of a session's tracks (offline; the live pipeline cuts the same way)
    that move after `after` (the live pipeline's last closed flick: those before, in the
    history kept for resting places, are not fitted again)."""
    splits = {c: split_track(tr, frame_dt, noise_mm) for c, tr in tracks.items() if len(tr)}
    intervals: list[tuple[float, float]] = []
    for sp in splits.values():
        a, mask = sp.obs, sp.moving
        k = 0
        while k < len(a):
            if mask[k]:
                j = k
                while j + 1 < len(a) and mask[j + 1] and sp.span[j + 1] == sp.span[k]:
                    j += 1
                intervals.append((a[k, 0], a[j, 0]))
                k = j + 1
            else:
                k += 1
    intervals.sort()
    merged: list[list[float]] = []
    for lo, hi in intervals:
        if merged and lo <= merged[-1][1] + dwell_s:
            merged[-1][1] = max(merged[-1][1], hi)
        else:
            merged.append([lo, hi])
    return [_window(splits, lo, hi, frame_dt, noise_mm, dwell_s, decel) for lo, hi in merged
            if hi > after]


def _resting_before(sp: CoinTrackSplit, lo: float) -> np.ndarray:
    """(N,) True for the sightings of the coin's last rest before `lo`: since it last moved,
    and in view since.  Their median is where it rested: a fingertip merged into its blob
    before a flick drags the centre a millimetre or two for the last frames at rest (eight
    at 60 fps: gate-run, look 100, Moons read 1.1 mm off its place, and its whole first slide
    with it), too few among all of them to move the median."""
    t = sp.obs[:, 0]
    rest = (t < lo) & ~sp.moving
    if not rest.any():
        return rest
    last = int(np.flatnonzero(rest)[-1])
    since = np.flatnonzero(sp.moving[:last] | (sp.span[:last] != sp.span[last]))
    rest[:since[-1] + 1 if len(since) else 0] = False
    return rest


def _window(splits: Mapping[str, CoinTrackSplit], lo: float, hi: float, frame_dt: float,
            noise_mm: float, dwell_s: float, decel: float) -> FlickWindow:
    motions: dict[str, Motion] = {}
    rest: dict[str, tuple[float, float]] = {}
    settled: dict[str, tuple[float, float]] = {}
    for coin, sp in splits.items():
        a, mask = sp.obs, sp.moving
        t = a[:, 0]
        before = a[_resting_before(sp, lo)]
        start = tuple(np.median(before[:, 1:], axis=0)) if len(before) else tuple(a[0, 1:])
        inside = (t >= lo - 1e-9) & (t <= hi + 1e-9) & mask
        if not inside.any():
            if len(before) or (t <= hi).any():
                rest[coin] = (float(start[0]), float(start[1]))
                after = a[(t > hi) & ~mask]
                if len(after):
                    x, y = np.median(after[:8, 1:], axis=0)
                    settled[coin] = (float(x), float(y))
            continue
        idx = np.nonzero(inside)[0]
        first, last = int(idx[0]), int(idx[-1])
        # At rest after its last motion, seen without a gap since (a coin lost for a few
        # frames earlier in its slide still rests where its last sightings end: a 2.6 m/s
        # flick at look 141 lost Suns for four frames and left it out of the settled places)
        same_span = sp.span == sp.span[last]
        gone = any(abs(v - t[last]) < 1e-9 for v in sp.vanished_moving)
        after = a[(t > t[last]) & ~mask & same_span]
        end = None if gone or not len(after) else tuple(np.median(after[:8, 1:], axis=0))
        stop = last
        while end is not None and stop + 1 < len(a) and same_span[stop + 1] and stop < last + 3:
            stop += 1
        obs = a[first:stop + 1]
        motions[coin] = fit_motion(coin, obs[:, 0], obs[:, 1:],
                                   (float(start[0]), float(start[1])), end, decel, noise_mm,
                                   rested_until=float(before[-1, 0]) if len(before) else -math.inf)
    return FlickWindow(motions, rest, frame_dt, noise_mm, t_settled=hi + dwell_s,
                       settled_mm=settled)
