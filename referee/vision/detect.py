"""Find coins in a camera frame: an empty-table model, colour distance, blobs, sub-pixel centres.

Why colour distance and not grey level: a green coin on green felt differs in hue, not in
brightness, so the foreground is the largest per-channel difference from the empty table.
The empty table is learned at the session start, where every coin rests in its start zone: the
coin discs are inpainted (OpenCV's Telea) and the model then adapts slowly where nothing is,
which follows auto-exposure and daylight; a global gain is removed first in each frame.

Blobs (OpenCV's connected components) are sorted by size and shape:
- a coin: about one coin's area; its centre is the difference-weighted centroid (sub-pixel);
- a streak: a coin blurred by motion; centre at mid-exposure = the centroid, and the streak's
  length beyond a diameter and its direction are a velocity cue;
- two or three touching coins: split by k-means on the blob's pixels (scipy, seeded);
- a hand or an arm: far bigger than a coin; it becomes the occluder mask, never a coin.
Centres go to table millimetres through the calibration (undistortion + homography) and are
corrected for the coin's height above the cloth (the camera sees the top face, displaced
away from the point under the lens).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import cv2
import numpy as np
from scipy.cluster.vq import kmeans2

from referee.layout import Layout
from referee.vision.detections import Detections

COIN_HEIGHT_MM = 3.0
"""A coin's top face above the cloth (piecepack coins are 2–4 mm thick)."""
ADAPT_EVERY = 4
"""The empty-table model follows the light every this many frames (it changes slowly)."""
LIGHTEST_SHADOW = 0.97
"""A dimming this slight is still a shadow (the penumbra of an arm over white paper)."""
SATURATED = 250
"""A channel this bright is taken as clipped by the camera (white paper under a lamp)."""


class PixelMapping:
    """What detection needs of a calibration: pixels → table mm and back, and the lens centre."""

    def __init__(self, to_table_mm, to_pixels, camera_mm: np.ndarray | None = None) -> None:
        self.to_table_mm = to_table_mm
        self.to_pixels = to_pixels
        self.camera_mm = None if camera_mm is None else np.asarray(camera_mm, float)

    def ground_mm(self, points_px: np.ndarray, height_mm: float) -> np.ndarray:
        """Table position under points seen `height_mm` above the cloth (parallax removed)."""
        mm = self.to_table_mm(points_px)
        if self.camera_mm is None or height_mm == 0.0:
            return mm
        c = self.camera_mm
        # The ray from the lens through the seen point meets z = h at a fraction h/c_z closer
        # to the lens than the table plane: move back toward the point under the lens.
        return mm + (c[:2] - mm) * (height_mm / c[2])


@dataclass
class DetectorConfig:
    threshold: int = 30
    """Minimum colour difference from the empty table (sum over channels, 0-255 each)."""
    deepest_shadow: float = 0.45
    """A cast shadow leaves at least this share of the light (darker is an object)."""
    background_rate: float = 0.01
    """How fast the empty-table model follows slow light changes."""
    hand_area_coins: float = 5.0
    """A blob bigger than this many coins is a hand or an arm."""


class CoinDetector:
    """Detects coins in frames of one calibrated camera."""

    def __init__(self, mapping: PixelMapping, layout: Layout, image_size: tuple[int, int],
                 config: DetectorConfig | None = None) -> None:
        self.mapping = mapping
        self.layout = layout
        self.config = config or DetectorConfig()
        w, h = image_size
        table_px = mapping.to_pixels(np.asarray(layout.table, float))
        margin = 24  # a band around the table: arms reach in from there
        x0, y0 = np.floor(table_px.min(axis=0)).astype(int) - margin
        x1, y1 = np.ceil(table_px.max(axis=0)).astype(int) + margin
        self.roi = (max(0, x0), max(0, y0), min(w, x1), min(h, y1))
        rx0, ry0, rx1, ry1 = self.roi
        self.table_mask = np.zeros((ry1 - ry0, rx1 - rx0), np.uint8)
        cv2.fillConvexPoly(self.table_mask, np.round(table_px - [rx0, ry0]).astype(np.int32), 255)
        centre = mapping.to_pixels(np.array([[0.0, 0.0], [10.0, 0.0], [0.0, 10.0]]))
        self.px_per_mm = float(np.mean([np.hypot(*(centre[1] - centre[0])),
                                        np.hypot(*(centre[2] - centre[0]))]) / 10.0)
        self.coin_r_px = layout.coin_mm / 2.0 * self.px_per_mm
        self.coin_area_px = np.pi * self.coin_r_px ** 2
        self._inside = self.table_mask > 0
        self.background: np.ndarray | None = None
        self._background_u8 = np.zeros((*self.table_mask.shape, 3), np.uint8)
        self._saturated = np.zeros_like(self._background_u8)
        """255 where a channel of the empty table is clipped at white: its true value is
        unknown, so when the exposure falls it may stay white (only darker is a change)."""
        self._frames = 0
        self._last: tuple[np.ndarray, tuple[float, float, float], np.ndarray] | None = None
        self._busy: np.ndarray | None = None
        """The last frame's hands, shadows and strong changes: never learnt as the table."""
        self._sum_channels = np.ones((1, 3), np.float32)
        kernel = max(3, round(self.coin_r_px / 3) | 1)
        self._open = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (kernel, kernel))
        close = max(3, round(self.coin_r_px * 0.8) | 1)
        self._close = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (close, close))
        self._hand_reach_px = self.coin_r_px * 2.5
        """Blobs mostly this close to a hand are its fingertips (px)."""
        self._touch_px = self.coin_r_px * 1.5
        """A blob this close to a hand may hold a fingertip whose faint part (skin on a
        tile's paper) did not join the hand's mask (px)."""

    # -------------------------------------------------------------- the empty table
    def learn_empty_table(self, frame: np.ndarray,
                          coins_mm: Iterable[tuple[float, float]]) -> None:
        """Start the empty-table model from a frame whose coins are at known places."""
        crop = self._crop(frame)
        hole = np.zeros(crop.shape[:2], np.uint8)
        rx0, ry0, _, _ = self.roi
        for p in coins_mm:
            c = self.mapping.to_pixels(np.asarray([p], float))[0] - [rx0, ry0]
            cv2.circle(hole, (round(c[0]), round(c[1])),
                       int(np.ceil(self.coin_r_px + 3)), 255, -1)
        radius = int(np.ceil(self.coin_r_px))
        empty = cv2.inpaint(cv2.blur(crop, (3, 3)), hole, radius, cv2.INPAINT_TELEA)
        self.background = empty.astype(np.float32)
        self._set_background(empty)
        self._measure_coins(frame, coins_mm)

    def _measure_coins(self, frame: np.ndarray, coins_mm: Iterable[tuple[float, float]]) -> None:
        """A coin's area as this detector sees it (blur, threshold, shadow, side and all).

        The layout's diameter through the mapping underestimates it (the coin's side and rim
        show, the blur widens it), and splitting touching coins counts areas: measure them on
        the start frame, where every coin rests apart at a known place.
        """
        fg, _ = self._foreground(frame)
        count, _, stats, centroids = cv2.connectedComponentsWithStats(fg, connectivity=8)
        rx0, ry0, _, _ = self.roi
        spots = self.mapping.to_pixels(np.asarray(list(coins_mm), float)) - [rx0, ry0]
        areas = [stats[k, cv2.CC_STAT_AREA] for k in range(1, count)
                 if np.min(np.hypot(*(spots - centroids[k]).T)) < self.coin_r_px]
        if len(areas) >= max(2, len(spots) // 2):
            self.coin_area_px = float(np.median(areas))
            self.coin_r_px = float(np.sqrt(self.coin_area_px / np.pi))

    def _crop(self, frame: np.ndarray) -> np.ndarray:
        x0, y0, x1, y1 = self.roi
        return frame[y0:y1, x0:x1]

    # -------------------------------------------------------------- detection
    def detect(self, frame: np.ndarray) -> tuple[Detections, np.ndarray]:
        """Coins in the frame (table mm) and the occluder mask (ROI pixels, 255 = hand)."""
        if self.background is None:
            raise RuntimeError("learn_empty_table() first")
        fg, (crop, gain, diff, shadow) = self._foreground(frame)
        count, labels, stats, _ = cv2.connectedComponentsWithStats(fg, connectivity=8)
        hands = self._hands(diff, labels, stats)
        # Distance to the nearest hand pixel: what is near a hand, and the hand's padding.
        to_hand = (cv2.distanceTransform(255 - hands, cv2.DIST_L2, 3) if hands.any()
                   else None)
        near_hand = None if to_hand is None else to_hand < self._hand_reach_px
        hand_look = (np.asarray(cv2.mean(crop, hands)[:3]) / gain / 255.0 if to_hand is not None
                     else None)
        centres, streaks, dirs, looks, conf, by_hand, hand_like = [], [], [], [], [], [], []
        for k in range(1, count):
            area = stats[k, cv2.CC_STAT_AREA]
            if area < 0.35 * self.coin_area_px:
                continue
            x, y, w, h = stats[k, :4]
            blob = labels[y:y + h, x:x + w] == k
            if hands[y:y + h, x:x + w][blob].any():
                continue
            if near_hand is not None and near_hand[y:y + h, x:x + w][blob].mean() > 0.3:
                hands[y:y + h, x:x + w][blob] = 255  # a fingertip apart from its hand
                continue
            touching = to_hand is not None and \
                bool((to_hand[y:y + h, x:x + w][blob] < self._touch_px).any())
            # Fill the art's holes; soft weights only on the rim, so the centre is unbiased.
            filled = blob.astype(np.uint8)
            contours, _ = cv2.findContours(filled, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
            cv2.drawContours(filled, contours, -1, 1, -1)
            rim = np.clip(diff[y:y + h, x:x + w] / (2.0 * self.config.threshold), 0.0, 1.0)
            weights = np.where(cv2.erode(filled, None) > 0, 1.0, rim * filled)
            ys, xs = np.nonzero(filled)
            colour = crop[y:y + h, x:x + w][filled > 0].mean(axis=0) / gain / 255.0
            for cx, cy, streak, direction in self._split(xs, ys, weights[ys, xs], area):
                centres.append((cx + x, cy + y))
                streaks.append(streak)
                dirs.append(direction)
                looks.append(colour)
                conf.append(min(1.0, area / self.coin_area_px))
                by_hand.append(touching)
                hand_like.append(np.inf if hand_look is None else
                                 float(np.linalg.norm(colour - hand_look)))
        if to_hand is not None:
            hands = np.where((to_hand < self.coin_r_px) | (hands > 0), 255, 0).astype(np.uint8)
        self._last = (crop, gain, hands)
        self._busy = hands | shadow.view(np.uint8) * 255 | cv2.compare(
            diff, 2 * self.config.threshold, cv2.CMP_GT)
        if not centres:
            return Detections.empty(), hands
        rx0, ry0, _, _ = self.roi
        px = np.asarray(centres, float) + np.array([rx0, ry0], float)
        mm = self.mapping.ground_mm(px, COIN_HEIGHT_MM)
        return Detections(mm, np.full(len(mm), self.layout.coin_mm / 2.0),
                          np.asarray(streaks, float) / self.px_per_mm, np.asarray(dirs, float),
                          np.asarray(looks, float), np.asarray(conf, float),
                          np.asarray(by_hand, float), np.asarray(hand_like, float)), hands

    def _hands(self, diff: np.ndarray, labels: np.ndarray, stats: np.ndarray) -> np.ndarray:
        """Hands and arms (255), by hysteresis: a blob far bigger than a coin, or reaching
        past the table's edge, grown through every connected pixel of even a faint change, so
        that a sleeve nearly the cloth's colour stays in one piece and no fragment of it
        passes for a coin.  Only a strong blob seeds a hand: a faint change alone (a tile's
        paper under drifting light) never carries the coins beside it into one."""
        seeds = np.zeros(diff.shape, np.uint8)
        for k in range(1, len(stats)):
            x, y, w, h = stats[k, :4]
            big = stats[k, cv2.CC_STAT_AREA] > self.config.hand_area_coins * self.coin_area_px
            if not big and self._inside[y:y + h, x:x + w].all():
                continue
            blob = labels[y:y + h, x:x + w] == k
            if big or (blob & ~self._inside[y:y + h, x:x + w]).sum() > 0.3 * blob.sum():
                seeds[y:y + h, x:x + w][blob] = 255
        if not seeds.any():
            return seeds
        faint = cv2.compare(diff, self.config.threshold // 2, cv2.CMP_GT)
        faint |= seeds
        _, grown = cv2.connectedComponents(faint, connectivity=8)
        hand_labels = np.unique(grown[seeds > 0])
        return np.where(np.isin(grown, hand_labels[hand_labels > 0]), 255, 0).astype(np.uint8)

    def forget(self, point_mm: tuple[float, float]) -> bool:
        """Take the last frame as the empty table in a coin's disc around `point_mm`; say
        whether it was taken (not while any part of a hand, padded, reaches into the disc).

        Where a coin stood at the session start the empty table was only inpainted; once
        the coin has left (and nothing else is there) the cloth is in view: learn it, so that
        the old place does not linger as a ghost coin.  A fingertip learnt as cloth would
        linger as one instead.
        """
        if self._last is None or self.background is None:
            return False
        crop, gain, hands = self._last
        rx0, ry0, _, _ = self.roi
        c = self.mapping.to_pixels(np.asarray([point_mm], float))[0] - [rx0, ry0]
        disc = np.zeros(crop.shape[:2], np.uint8)
        cv2.circle(disc, (round(c[0]), round(c[1])), int(np.ceil(self.coin_r_px + 4)), 255, -1)
        if hands[disc > 0].any():
            return False
        norm = cv2.multiply(crop, (*(1.0 / g for g in gain), 0.0), dtype=cv2.CV_32F)
        self.background[disc > 0] = norm[disc > 0]
        self._set_background(cv2.convertScaleAbs(self.background))
        return True

    def _set_background(self, background_u8: np.ndarray) -> None:
        self._background_u8 = background_u8
        self._saturated = cv2.compare(background_u8, SATURATED, cv2.CMP_GE)

    def _foreground(self, frame: np.ndarray) -> tuple[np.ndarray, tuple]:
        """Coins, hands and arms: pixels whose colour differs from the empty table's and
        that are not its shadows; with the (blurred crop, gain, difference, shadow mask)."""
        crop = cv2.blur(self._crop(frame), (3, 3))  # sensor and JPEG noise down, edges kept
        gain = self._gain(crop)
        bg = cv2.multiply(self._background_u8, (*gain, 0.0))  # the empty table at this exposure
        change = cv2.absdiff(crop, bg)
        cv2.copyTo(cv2.subtract(bg, crop), self._saturated, change)  # clipped: darker only
        diff = cv2.transform(change, self._sum_channels)  # L1 colour distance
        shadow = self._shadow(crop, bg, diff)
        diff[shadow] = 0
        fg = cv2.compare(diff, self.config.threshold, cv2.CMP_GT)
        fg = cv2.morphologyEx(fg, cv2.MORPH_OPEN, self._open)
        fg = cv2.morphologyEx(fg, cv2.MORPH_CLOSE, self._close)
        return fg, (crop, gain, diff, shadow)

    def _shadow(self, crop: np.ndarray, bg: np.ndarray, diff: np.ndarray) -> np.ndarray:
        """Changed pixels that are the empty table, darker: every channel dimmed alike.

        A shadow scales the light: the frame is k × the table in every channel (within the
        noise, which is larger in absolute terms than in ratio for a dark channel), with k
        below 1 and not below the deepest cast shadow.  A dark coin changes the colour (no
        single k explains its channels) or is darker than any shadow.
        """
        shadow = np.zeros(diff.shape, bool)
        ys, xs = np.nonzero(diff > self.config.threshold)
        if not len(ys):
            return shadow
        f = crop[ys, xs].astype(np.float32)
        b = bg[ys, xs].astype(np.float32)
        k = f.sum(axis=1) / (b.sum(axis=1) + 1.0)
        misfit = np.abs(f - k[:, None] * b) <= 6.0 + 0.08 * b
        is_shadow = (k < LIGHTEST_SHADOW) & (k > self.config.deepest_shadow) & misfit.all(axis=1)
        shadow[ys[is_shadow], xs[is_shadow]] = True
        return shadow

    def _gain(self, crop: np.ndarray) -> tuple[float, float, float]:
        """Per-channel exposure ratio frame / empty table, from a sparse robust sample."""
        sample = (slice(3, None, 7), slice(3, None, 7))
        ratio = (crop[sample].astype(np.float32) + 1.0) / (self._background_u8[sample] + 1.0)
        g = np.median(ratio.reshape(-1, 3), axis=0)
        return (float(g[0]), float(g[1]), float(g[2]))

    def adapt(self, coins_mm: Iterable[tuple[float, float]]) -> None:
        """Follow slow light changes in the last frame, except where the coins are (the
        tracker's places), hands, shadows and strong changes (every few frames).

        Faint change away from every coin is the table itself under drifting light (a
        tile's paper follows the exposure otherwise than the cloth): it is learnt, so it
        never lingers as a blob that no coin claims.
        """
        if self._last is None or self.background is None or self._busy is None:
            return
        self._frames += 1
        if self._frames % ADAPT_EVERY:
            return
        crop, gain, _ = self._last
        busy = self._busy.copy()
        rx0, ry0, _, _ = self.roi
        r = int(np.ceil(self.coin_r_px * 1.5))
        for c in self.mapping.to_pixels(np.asarray(list(coins_mm), float).reshape(-1, 2)):
            cv2.circle(busy, (round(c[0] - rx0), round(c[1] - ry0)), r, 255, -1)
        free = cv2.erode(255 - busy, self._open)
        norm = cv2.multiply(crop, (*(1.0 / g for g in gain), 0.0), dtype=cv2.CV_32F)
        cv2.accumulateWeighted(norm, self.background,
                               min(1.0, self.config.background_rate * ADAPT_EVERY), mask=free)
        self._set_background(cv2.convertScaleAbs(self.background))

    def _split(self, xs: np.ndarray, ys: np.ndarray, w: np.ndarray, area: float
               ) -> list[tuple[float, float, float, tuple[float, float]]]:
        """One blob → coin centres (blob pixels), with streak length (px) and direction."""
        pts = np.column_stack([xs, ys]).astype(np.float32)
        cov = np.cov(pts.T) if len(pts) > 2 else np.eye(2)
        evals, evecs = np.linalg.eigh(cov)
        major = 4.0 * np.sqrt(max(evals[1], 1e-6))  # full length of a uniform bar ≈ √12σ
        minor = 4.0 * np.sqrt(max(evals[0], 1e-6))
        elongation = major / max(minor, 1e-6)
        n_coins = round(area / self.coin_area_px)
        compact = elongation < 1.4
        if n_coins >= 2 and (compact or _pinched(pts, evecs[:, 1])):
            k = min(n_coins, 4)
            # scipy's k-means++ with a fixed seed: the same frame always splits the same way
            # (OpenCV's draws from a process-wide generator).
            _, lab = kmeans2(pts, k, minit="++", seed=0)
            out = []
            for j in range(k):
                sel = lab == j
                if not sel.any():
                    continue
                ww = w[sel] + 1e-6
                out.append((float(np.average(xs[sel], weights=ww)),
                            float(np.average(ys[sel], weights=ww)), 0.0, (0.0, 0.0)))
            return out
        cx = float(np.average(xs, weights=w + 1e-6))
        cy = float(np.average(ys, weights=w + 1e-6))
        streak = max(0.0, major - 2.0 * self.coin_r_px) if elongation > 1.3 else 0.0
        direction = (float(evecs[0, 1]), float(evecs[1, 1]))
        return [(cx, cy, streak, direction)]

    def covered(self, hands: np.ndarray, point_mm: tuple[float, float]) -> bool:
        """Is this table point under a hand in the last frame?"""
        px = self.mapping.to_pixels(np.asarray([point_mm], float))[0]
        x0, y0, _, _ = self.roi
        u, v = round(px[0] - x0), round(px[1] - y0)
        return 0 <= v < hands.shape[0] and 0 <= u < hands.shape[1] and hands[v, u] > 0


def _pinched(pts: np.ndarray, axis: np.ndarray) -> bool:
    """Does an elongated blob narrow in its middle, as coins touching side by side do?

    A coin blurred by its motion is a bar of even width; two touching discs are widest at
    their centres and narrow where they meet.  Widths are pixel counts across the long axis.
    """
    along = pts @ axis.astype(np.float32)
    along -= np.median(along)
    bins = np.round(along).astype(int)
    counts = np.bincount(bins - bins.min())
    middle = -bins.min()
    waist = counts[max(0, middle - 1):middle + 2].mean()
    return bool(waist < 0.8 * counts.max())
