"""Where hands have been: the last time a hand covered each part of the table's image.

A coin a hand lifts is put down by a hand: the fingers reach the place it is put.  A coin that
comes back into view where no hand has been since it was hidden was not put there; it slid
there (a dark coin on dark cloth, unseen all along its slide).  One time per cell of a coarse
grid keeps that for the whole session at the cost of a resize per frame with a hand in view.
"""

from __future__ import annotations

import cv2
import numpy as np

CELL_PX = 8
"""A cell's side (camera pixels); a hand's mask is far wider."""


class HandHistory:
    """The last time a hand covered each cell of a region of interest (`shape`, pixels)."""

    def __init__(self, shape: tuple[int, int]) -> None:
        h, w = shape
        self.shape = (h, w)
        self.covered_at = np.full((max(1, h // CELL_PX), max(1, w // CELL_PX)), -np.inf)
        """Per cell, the last time a hand covered some of it (-inf: never).  The last few
        rows and columns short of a whole cell (the ROI's margin beyond the table) are left
        out."""
        self.earlier = self.covered_at.copy()
        self.earlier_until = -np.inf
        """`covered_at` as it was before the last frame that showed a hand, and that frame's
        time (`came`, before a time)."""
        self.cells: np.ndarray | None = None
        """The last frame's cells a hand covered some of (bool; None: no hand)."""
        self.watched = False
        """Whether hands of this region were ever shown (a detector that finds none, as the
        benchmark's HoughCircles peer, tells nothing of where they went)."""

    def update(self, hands: np.ndarray, t: float) -> None:
        """Note the frame's hands (255 where a hand is, the region's pixels) at time t."""
        self.cells = None
        if hands.shape != self.shape:
            return
        self.watched = True
        gh, gw = self.covered_at.shape
        whole = hands[:gh * CELL_PX, :gw * CELL_PX]
        if not whole.any():
            return
        # Each cell the mean of its block (an exact CELL_PX reduction): one hand pixel
        # makes it at least 255 / 64, never rounded to 0.
        cells = cv2.resize(whole, (gw, gh), interpolation=cv2.INTER_AREA)
        self.earlier, self.earlier_until = self.covered_at.copy(), t
        self.cells = cells > 0
        self.covered_at[self.cells] = t

    def came(self, point_px: tuple[float, float], reach_px: float, since: float,
             before: float = np.inf) -> bool:
        """Has a hand covered anything within `reach_px` of a point (the region's pixels)
        since `since` (and before `before`, the last frame's time at most)?  A point off the
        grid, or hands never shown: unknown, so yes."""
        if not self.watched:
            return True
        x, y = point_px[0] / CELL_PX, point_px[1] / CELL_PX
        r = reach_px / CELL_PX
        gh, gw = self.covered_at.shape
        y0, y1 = max(0, int(np.floor(y - r))), min(gh, int(np.floor(y + r)) + 1)
        x0, x1 = max(0, int(np.floor(x - r))), min(gw, int(np.floor(x + r)) + 1)
        if y0 >= y1 or x0 >= x1:
            return True
        covered = self.earlier if before <= self.earlier_until else self.covered_at
        return bool(covered[y0:y1, x0:x1].max() >= since)
