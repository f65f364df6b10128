"""Timing a slide no frame showed: the faint trace a coin leaves along its known path.

A near-black coin sliding fast over near-black cloth changes each pixel it crosses by a few
levels, under any threshold one pixel can be held to, and is found again only at rest (strike
at looks 107 and 415).  Its slide is then known in space (straight, from where it was hidden
to where it came back, `pipeline.hidden_slide`) but not in time: its crossings were put at the
latest time the evidence allowed, up to 0.17 s off.  Summed over the coin's width and its
streak's length, though, its change is many times the sensor's noise.  So the frames of the
last seconds are kept (at half resolution: the change gate's own image), and the slide's start
and speed are found as those whose positions, frame by frame, cover the most change along
the path: a matched filter over a grid of start times and speeds, each frame's change measured
against the median of the frames (the path bare: a sliding coin covers a place for a frame or
two), where no hand is near.

Hand-written: this is a search along one known line, of a few thousand samples, which no
library of our field does as such; OpenCV resamples the band (`remap`) and NumPy sums it.
"""

from __future__ import annotations

import math
import warnings
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

import cv2
import numpy as np

BAND = 0.35
"""The band summed across the path, each side of it, in coin diameters (most of the coin's
width: its rim is the faintest part of a blurred coin)."""
STEP_MM = 1.0
"""The band's sampling along and across the path."""
HAND_CLEAR_CELLS = 2
"""A sample this many hand cells from a hand is left out (a hand's shadow and blur)."""
COARSE_STEPS = (0.005, 40.0)
FINE_STEPS = (0.001, 10.0)
FINE_SPAN = (0.02, 120.0)
FASTEST_MM_S = 5000.0
"""The grids of slides tried (start time in s, speed in mm/s): a coarse one over the whole
interval and speeds up to a hard flick's, then a fine one about the best of it."""
LEAST_SCORE = 25.0
"""A trace is believed when the best slide's summed evidence reaches this many noise units
(each frame's box of change in units of its expected noise)..."""
LEAST_FRAMES = 3
"""...and it follows one in at least this many frames, each by 3 units or more (on synthetic
frames of noise alone, searched over the whole grid, the best slide scores 10-13 with at
most 2 such frames, six seeds; the test's faint coin scores 480, and 174 at twice the
noise)."""
EXPOSURES = (0.25, 0.5, 1.0)
"""The exposures tried, as shares of a frame's time (a webcam's is unknown and changes with
the light): a streak is a diameter long plus the coin's travel over it."""
NEAR_BEST = 3.0
"""Slides within this many units of the best are as good: how far their start times and
their times at the path's far end spread is the trace's timing uncertainty."""


@dataclass(frozen=True)
class RecentFrame:
    """One frame kept: its time, the region's image at half resolution (BGR), and where
    hands were (bool cells of `cell_px` camera pixels; None: no hand)."""

    t: float
    image: np.ndarray
    hands: np.ndarray | None


class RecentFrames:
    """The frames of the last `seconds` (a ring: 0.34-0.38 MB a frame at 720p)."""

    def __init__(self, seconds: float, fps: float) -> None:
        self.frames: deque[RecentFrame] = deque(maxlen=max(1, math.ceil(seconds * fps)))

    def add(self, t: float, image: np.ndarray, hands: np.ndarray | None) -> None:
        self.frames.append(RecentFrame(t, image, hands))

    def between(self, t_lo: float, t_hi: float) -> list[RecentFrame]:
        return [f for f in self.frames if t_lo <= f.t <= t_hi]


@dataclass(frozen=True)
class Traced:
    """A slide found by its trace: it began at `t0` at `v0_mm_s`, slowing at the model's
    deceleration; `score` its evidence (noise units), `frames` the frames that give 3 units or
    more; `spread_s` half how far the times of slides nearly as good spread (its timing
    uncertainty, never under a quarter frame)."""

    t0: float
    v0_mm_s: float
    score: float
    frames: int
    spread_s: float


def trace_slide(frames: list[RecentFrame], to_px: Callable[[np.ndarray], np.ndarray],
                cell_px: int, from_mm: tuple[float, float], to_mm: tuple[float, float],
                coin_mm: float, decel: float, fps: float, t_range: tuple[float, float]
                ) -> Traced | None:
    """The slide from `from_mm` to `to_mm` (at least that far), begun within `t_range`, that
    the frames' change along the path follows best; None where none stands out of the noise.

    `to_px` maps table mm to the region's camera pixels; the frames' images are at half that
    resolution, their hand cells `cell_px` camera pixels square."""
    length = math.dist(from_mm, to_mm)
    if len(frames) < LEAST_FRAMES or length < 3.0 * coin_mm:
        return None
    s = np.arange(-coin_mm, length + STEP_MM, STEP_MM)
    w = np.arange(-BAND * coin_mm, BAND * coin_mm + 1e-9, STEP_MM)
    profile = _profile(frames, to_px, cell_px, from_mm, to_mm, s, w)
    scored = (s >= coin_mm) & (s <= length - coin_mm)  # not where it rested, either end
    with warnings.catch_warnings():  # a frame a hand covered all along the path: NaN
        warnings.simplefilter("ignore", RuntimeWarning)
        q = profile - np.nanmedian(np.where(scored, profile, np.nan), axis=1, keepdims=True)
    q[:, ~scored] = 0.0
    q = np.nan_to_num(q)
    sigma = 1.4826 * float(np.median(np.abs(q[:, scored]))) + 1e-6
    sums = np.concatenate([np.zeros((len(frames), 1)), np.cumsum(q / sigma, axis=1)], axis=1)
    slowest = math.sqrt(2.0 * decel * (length - coin_mm))  # it got there
    t0 = np.arange(t_range[0], t_range[1], COARSE_STEPS[0])
    v0 = np.arange(slowest, FASTEST_MM_S, COARSE_STEPS[1])
    if not len(t0):
        return None
    T0, V0, score, strong = _search(frames, sums, s, t0, v0, coin_mm, length, decel, fps)
    i, j = np.unravel_index(int(np.argmax(score)), score.shape)
    t0 = np.arange(T0[i, j] - FINE_SPAN[0], T0[i, j] + FINE_SPAN[0] + 1e-9, FINE_STEPS[0])
    v0 = np.arange(max(slowest, V0[i, j] - FINE_SPAN[1]), V0[i, j] + FINE_SPAN[1] + 1e-9,
                   FINE_STEPS[1])
    T0, V0, score, strong = _search(frames, sums, s, t0, v0, coin_mm, length, decel, fps)
    i, j = np.unravel_index(int(np.argmax(score)), score.shape)
    best = float(score[i, j])
    if best < LEAST_SCORE or strong[i, j] < LEAST_FRAMES:
        return None
    near = score >= best - NEAR_BEST
    far = length - coin_mm  # the last place scored: the crossings' times spread most there
    t_far = T0[near] + (V0[near] - np.sqrt(V0[near] ** 2 - 2.0 * decel * far)) / decel
    # (never under a quarter frame: a seen slide's crossing times are good to that)
    spread = max(float(np.ptp(T0[near])), float(np.ptp(t_far)), 0.5 / fps) / 2.0
    return Traced(float(T0[i, j]), float(V0[i, j]), best, int(strong[i, j]), spread)


def _search(frames: list[RecentFrame], sums: np.ndarray, s: np.ndarray, t0: np.ndarray,
            v0: np.ndarray, coin_mm: float, length: float, decel: float, fps: float
            ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The grid of slides (start times × speeds) and each one's evidence at the exposure
    that fits it best, with its count of strong frames."""
    T0, V0 = np.meshgrid(t0, v0, indexing="ij")
    score = np.full(T0.shape, -np.inf)
    strong = np.zeros(T0.shape, np.int32)
    for exposure in EXPOSURES:
        got, hits = _scored(frames, sums, s, T0, V0, coin_mm, length, decel, exposure / fps)
        better = got > score
        score[better], strong[better] = got[better], hits[better]
    return T0, V0, score, strong


def _scored(frames: list[RecentFrame], sums: np.ndarray, s: np.ndarray, T0: np.ndarray,
            V0: np.ndarray, coin_mm: float, length: float, decel: float, exposure_s: float
            ) -> tuple[np.ndarray, np.ndarray]:
    """Each slide's evidence (noise units) and how many frames give it 3 units or more.

    A frame's evidence is a matched filter centred where the slide puts the coin: the change
    over its streak (a coin's diameter and its travel over the exposure) less that over a
    half diameter either side, scaled to sum to nothing (a slide that puts the streak beside
    the trace loses by it: the sum of positive change alone favoured slides that fitted
    one more frame, anywhere near).  Only frames that put the streak's middle on the path
    between its ends (a diameter in from each) count."""
    score = np.zeros_like(T0)
    strong = np.zeros(T0.shape, np.int32)
    flank = coin_mm / 2.0
    for k, frame in enumerate(frames):
        dt = frame.t - T0
        at = V0 * dt - 0.5 * decel * dt ** 2
        speed = V0 - decel * dt
        on_path = (dt > 0) & (speed > 0) & (at >= coin_mm) & (at <= length - coin_mm)
        if not on_path.any():
            continue  # (no slide puts the coin on the path in this frame: no evidence)
        half = (coin_mm + np.maximum(speed, 0.0) * exposure_s) / 2.0
        # the frame's change summed up to each edge: the flank before, the streak, the
        # flank after
        edges = [sums[k][np.clip(np.rint((x - s[0]) / STEP_MM).astype(int), 0, len(s))]
                 for x in (at - half - flank, at - half, at + half, at + half + flank)]
        inner = edges[2] - edges[1]
        outer = (edges[1] - edges[0]) + (edges[3] - edges[2])
        ratio = half / flank  # (the streak's width over the flanks')
        box = (inner - ratio * outer) / np.sqrt(2.0 * (half + ratio * ratio * flank) / STEP_MM)
        box = np.where(on_path, box, 0.0)
        score += box
        strong += box >= 3.0
    return score, strong


def _profile(frames: list[RecentFrame], to_px: Callable[[np.ndarray], np.ndarray],
             cell_px: int, from_mm: tuple[float, float], to_mm: tuple[float, float],
             s: np.ndarray, w: np.ndarray) -> np.ndarray:
    """Each frame's change along the path (frames × samples along it): the colour distance
    from the frames' median, averaged across the band where no hand is near (NaN: none)."""
    p0, p1 = np.asarray(from_mm, float), np.asarray(to_mm, float)
    u = (p1 - p0) / np.linalg.norm(p1 - p0)
    n = np.array([-u[1], u[0]])
    S, W = np.meshgrid(s, w)
    mm = p0 + S[..., None] * u + W[..., None] * n
    px = to_px(mm.reshape(-1, 2)).reshape(*S.shape, 2)
    half = (px / 2.0 - 0.25).astype(np.float32)  # a half pixel's centre: 2i + 0.5
    band = np.stack([cv2.remap(f.image, half[..., 0], half[..., 1], cv2.INTER_LINEAR)
                     for f in frames]).astype(np.float32)
    near_hand = np.zeros(band.shape[:3], bool)
    cells = np.floor(px / cell_px).astype(int)
    for k, f in enumerate(frames):
        if f.hands is None:
            continue
        grown = cv2.dilate(f.hands.view(np.uint8), np.ones((3, 3), np.uint8),
                           iterations=HAND_CLEAR_CELLS) > 0
        gy = np.clip(cells[..., 1], 0, grown.shape[0] - 1)
        gx = np.clip(cells[..., 0], 0, grown.shape[1] - 1)
        near_hand[k] = grown[gy, gx]
    band[near_hand] = np.nan
    with warnings.catch_warnings():  # a sample a hand was near in every frame: NaN
        warnings.simplefilter("ignore", RuntimeWarning)
        bare = np.nanmedian(band, axis=0)
        change = np.abs(band - bare).sum(axis=3)  # NaN where a hand was near
        return np.nanmean(change, axis=1)
