"""How deep this room's cast shadows are, learnt from the shadows on the tiles' white paper.

Detection takes a pixel for a shadow when the frame is the empty table dimmed alike in every
channel, down to a fixed floor (`DetectorConfig.deepest_shadow`, 0.45: the deepest shadow a
lamp over a card table casts).  A hand of the cloth's own hue, darker than the cloth, is
dimmed alike too: a dark-skinned hand on brown cloth (held-out tower hit 490: skin (83, 51,
39) on cloth (126, 86, 52)) read as shadow, no hand was seen where it put a coin down, and
the lift and the place were read as a flick.

One light casts shadows of one depth: its umbra, where the object hides all of the lamp
(softer at the edge, the penumbra, never deeper; shadows of one lamp do not add up).  On the
tiles' white faces a shadow is unmistakable (a hand over white paper is far darker and of
another tint, and bright channels measure the dimming to a percent), so the dimming of the
shadows seen there says how deep this light's shadows go.  On the cloth they go no deeper:
the camera's black level only makes a shadow on a dark channel read shallower.  A hand's
area dimmed clearly deeper than the umbra is no shadow but a thing: a hand, a sleeve
(`CoinDetector._deeper_than_shadows`; a few such pixels are the noise of dark cloth).

The umbra is taken as the deepest dimming at which the paper's shadow pixels are still
common (DENSE of the histogram's peak, smoothed): deeper than the peak of a wide penumbra,
and not pulled down by the few pixels where a hand's blurred edge crosses a tile.  Until
enough shadow has been seen on paper, or where the paper says the shadows are as deep as
the fixed floor allows, the fixed floor holds.  The deepest shadow in use follows the umbra
in steps (STEP), not a little every frame.
"""

from __future__ import annotations

import numpy as np

BINS = 100
"""Histogram bins over dimmings 0 to 1 (a hundredth each)."""
SHALLOWEST = 0.9
"""Only dimmings below this are counted: the paper's own drift with the exposure (a few
percent, near white clipping) is no cast shadow."""
ENOUGH_PX = 2000
"""Shadow pixels on paper needed before the umbra is trusted (a hand's shadow over a tile
for a frame or two)."""
DENSE = 0.2
"""The umbra: the deepest bin holding this share of the peak bin's count."""
MARGIN = 0.08
"""How much deeper than the umbra a pixel may still be a shadow (noise on dark cloth)."""
DEEPEST_FLOOR_MAX = 0.72
"""The floor never rises above this: a shadow dimming the light by less than a fifth is
faint, and a thing dimming it more is rarely of the cloth's colour."""
STEP = 0.02
"""The deepest shadow in use moves when what the paper says moves this far."""


class Umbra:
    """The deepest dimming a cast shadow of this session reaches (`floor` until learnt)."""

    def __init__(self, floor: float) -> None:
        self.floor = floor
        self.counts = np.zeros(BINS, np.int64)
        """Shadow pixels seen on paper, by dimming (hundredths)."""
        self.deepest = floor
        """The deepest dimming taken for a shadow now (`says`, in steps)."""

    def add(self, dimming: np.ndarray) -> None:
        """Count shadow pixels seen on the tiles' paper (their dimming k, frame / table)."""
        k = dimming[dimming < SHALLOWEST]
        if len(k):
            self.counts += np.bincount(np.minimum((k * BINS).astype(np.int64), BINS - 1),
                                       minlength=BINS)
            if abs(self.says - self.deepest) >= STEP:
                self.deepest = self.says

    @property
    def umbra(self) -> float | None:
        """The paper's umbra (None: too little shadow seen on paper yet)."""
        if self.counts.sum() < ENOUGH_PX:
            return None
        smooth = np.convolve(self.counts, np.ones(3), mode="same")
        dense = np.flatnonzero(smooth >= DENSE * smooth.max())
        return float(dense[0]) / BINS

    @property
    def says(self) -> float:
        """The deepest dimming the paper's shadows say is still a shadow."""
        umbra = self.umbra
        if umbra is None:
            return self.floor
        return max(self.floor, min(DEEPEST_FLOOR_MAX, umbra - MARGIN))
