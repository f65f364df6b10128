"""How each resting coin looked while no hand was near it: a coin a hand has since half
covered is still there when the part of it left in view is unchanged, pixel for pixel.

The detector's first test for a resting coin inside a hand's mask compares the disc's mean
colour with the coin's look (`CoinDetector._still_there`); a third of the disc under a
finger moves that mean past its tolerance, although two thirds of the coin still show,
exactly as they were. Pixels are a far sharper witness than a mean: a coin moved, lifted or
struck leaves its place showing cloth, which differs from the remembered view wherever the
coin differs from the cloth (the view's telling pixels).  They also overrule a mean that
reads as the coin where the coin has gone: a fingertip of its colour over its empty place.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

REFRESH_FRAMES = 30
"""A clear view older than this is taken again (the light drifts slowly)."""
SAME_PLACE_PX = 1.5
"""A resting coin's place moves less than this from frame to frame (the tracker's mean)."""
TELLING_SHARE = 0.25
"""A view whose telling pixels are fewer than this share of its disc cannot tell."""
SHOWN = 0.5
"""The share of telling pixels that must still match: a coin at most half covered."""
GONE = 0.2
"""Below this share of its telling pixels the coin has left its place, whatever the disc's
mean colour says: a fingertip of the coin's colour over its empty place (capture at look
289: Moons lifted, the fingertip on its place read as Moons for three frames and the lift
was read 67 ms late).  Over 29 clips a coin truly there showed 0.28 and more; a place
left 0.01-0.32, most under 0.17.  Once they overruled the mean so, the coin has left
until its view shows it again (SHOWN): the place left reads up to 0.32 in the frames after
(tower hit at look 494: Moons flicked from under a fingertip of its colour, 0.14 then 0.20,
kept at its place a frame after it left, its flick read 67 ms late).  An arm wholly over a
coin reads 0 too, but its mean is not the coin's (tower hit at 720p60, look 112: Suns,
0.0 under a sweeping arm, then 0.50 and kept as the arm slid off)."""
DEEPEST_SHADE = 0.85
"""The darkest an arm's shade makes a coin (as the mean-colour test allows)."""


@dataclass
class _View:
    place_px: np.ndarray
    box: tuple[slice, slice]
    image: np.ndarray
    """The box's pixels, the exposure gain removed (float32)."""
    telling: np.ndarray
    """The disc's pixels that the detector read as changed from the empty table (bool)."""
    frame: int
    overruled: bool = False
    """Its telling pixels overruled a mean colour that read as the coin (`overrule`), and
    have not shown the coin since."""


class RestingViews:
    """The last clear view of each resting coin, in the detector's ROI pixels."""

    def __init__(self, radius_px: float, threshold: int) -> None:
        self.radius = int(np.ceil(radius_px))
        self.threshold = threshold
        self._disc = np.zeros((2 * self.radius + 1,) * 2, np.uint8)
        cv2.circle(self._disc, (self.radius, self.radius), max(1, self.radius - 1), 1, -1)
        self._views: list[_View] = []
        self._frame = 0

    def _box(self, place_px: np.ndarray, shape: tuple[int, ...]) -> tuple[slice, slice] | None:
        cx, cy, r = round(float(place_px[0])), round(float(place_px[1])), self.radius
        if cx - r < 0 or cy - r < 0 or cx + r >= shape[1] or cy + r >= shape[0]:
            return None  # at the ROI's edge: left to the other tests
        return slice(cy - r, cy + r + 1), slice(cx - r, cx + r + 1)

    def _near(self, place_px: np.ndarray) -> _View | None:
        for view in self._views:
            if np.hypot(*(view.place_px - place_px)) <= SAME_PLACE_PX:
                return view
        return None

    def remember(self, places_px: np.ndarray, seen: np.ndarray, blurred: np.ndarray,
                 change: np.ndarray, gain: tuple[float, float, float], hands: np.ndarray
                 ) -> None:
        """Keep a view of each resting coin (`places_px`, ROI pixels) that no hand reaches
        now, unless a recent one is kept; forget the places no coin rests at any more.

        A view is taken only where a blob was measured this frame (`seen`): a coin's
        place as the tracker holds it is no view of a coin (one that left the table over
        the edge is held where last seen, with the coin on the floor beside it). Its
        telling pixels are those the detector read as changed from the empty table
        (`change`, shadows left out)."""
        self._frame += 1
        kept: list[_View] = []
        g = np.asarray(gain, np.float32)
        for place, seen_now in zip(places_px, seen, strict=True):
            view = self._near(place)
            box = self._box(place, blurred.shape)
            if box is None:
                continue
            if view is not None and self._frame - view.frame < REFRESH_FRAMES:
                kept.append(view)
                continue
            hand_near = bool(hands[box].any())
            if hand_near or not seen_now:
                if view is not None and hand_near:
                    kept.append(view)  # the last clear view stands while a hand is near
                continue
            telling = (change[box] > self.threshold) & (self._disc > 0)
            if telling.sum() < TELLING_SHARE * self._disc.sum():
                continue  # the coin looks too like the cloth here to tell by its pixels
            kept.append(_View(np.asarray(place, float), box,
                              blurred[box].astype(np.float32) / g, telling, self._frame))
        self._views = kept

    def shown(self, place_px: np.ndarray, blurred: np.ndarray, empty: np.ndarray,
              gain: tuple[float, float, float]) -> float | None:
        """The share of the telling pixels of the coin resting at `place_px` that still show
        as they were (an arm's shade allowed, one factor for the whole coin); None without
        a view to compare with.

        A telling pixel shows the coin only while it is nearer the view than the empty
        table (`empty`, the exposure gain removed): a pale coin on pale cloth, dimmed by
        the shade allowed, matches the bare cloth it left (look 121: a coin kept at its
        place through its whole slide), but the cloth matches itself better."""
        view = self._near(place_px)
        if view is None:
            return None
        now = blurred[view.box].astype(np.float32) / np.asarray(gain, np.float32)
        was = view.image[view.telling]
        now = now[view.telling]
        ratio = now.sum(axis=1) / np.maximum(was.sum(axis=1), 1.0)
        shade = float(np.clip(np.median(ratio), DEEPEST_SHADE, 1.0))
        off = np.abs(now - shade * was).sum(axis=1)
        bare = np.abs(now - empty[view.box][view.telling]).sum(axis=1)
        share = float(((off <= self.threshold) & (off < bare)).mean())
        view.overruled &= share < SHOWN
        return share

    def overrule(self, place_px: np.ndarray) -> None:
        """The telling pixels of the coin resting at `place_px` said it left (under GONE)
        where the disc's mean colour read as the coin: a fingertip of its colour is over its
        place, and the mean is not the coin's until its view shows it again (`shown`)."""
        view = self._near(place_px)
        if view is not None:
            view.overruled = True

    def overruled(self, place_px: np.ndarray) -> bool:
        """Were the mean colour's readings at `place_px` overruled since the coin last
        showed (`overrule`)?"""
        view = self._near(place_px)
        return view is not None and view.overruled
