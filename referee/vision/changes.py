"""Which parts of the camera image changed since detection last measured them.

At a croquet table most of the image holds still most of the time: coins rest, and a hand
covers a corner of the table at once.  Detection measures again only where the image changed
(and for a few frames after, while a coin settles), and keeps its measurements elsewhere: the
colour difference there would come out the same, within the sensor's noise.

The image is compared at half resolution (each pixel the mean of a 2×2 block, which halves the
noise) against a reference: what it was when each part was last measured, so that a change too
slow to show between two frames still adds up.  The unit of change is a square tile; a tile
changed where a sixteenth of its pixels differ by more than half of detection's threshold (the
sum over the channels): a hand's shadow fading beside a coin moves the coin's measured centre
by a quarter of a millimetre while it changes no pixel by the whole threshold (measured on the
quick benchmark's clip), and a lone pixel over it is noise.  A changed tile's neighbours are
measured too (a moving coin's faint blurred tail), and every tile now and then, which bounds
what a slow drift below the threshold, or the empty-table model's own slow updates, can leave
stale.
"""

from __future__ import annotations

import cv2
import numpy as np

TILE = 16
"""A tile's side, in half-resolution pixels (32 camera pixels: a third of a coin at 720p)."""
CHANGED_PIXELS = 16
"""A tile changed where at least this many of its pixels did (a lone pixel is noise; a coin
moving a pixel changes a whole arc of them)."""
SETTLE_FRAMES = 3
"""A changed tile is measured again this many frames after it last changed: a coin slows to
a stop by less than a pixel a frame, and its last position must be measured, not kept."""
NEIGHBOURS = np.ones((3, 3), np.uint8)
"""A changed tile's eight neighbours are measured with it."""
REFRESH_EVERY = 30
"""Every tile is measured again at least this often (frames)."""


class ChangeGate:
    """The tiles of an image (one region of interest) to measure again in each frame;
    `threshold` is the least change of a pixel that counts (the sum over its channels)."""

    def __init__(self, shape: tuple[int, int], threshold: int) -> None:
        h, w = shape
        self.shape = (h, w)
        self.threshold = threshold
        self.half = (h // 2, w // 2)
        self.tiles = (-(-self.half[0] // TILE), -(-self.half[1] // TILE))
        self.reference: np.ndarray | None = None
        self.age = np.zeros(self.tiles, np.int32)
        """Frames since each tile last changed."""
        self.stale = np.ones(self.tiles, bool)
        """Tiles to measure again whatever the image shows (the empty table changed there)."""
        self.image: np.ndarray | None = None
        """The last image at half resolution (never written to: kept by `trace`)."""
        self.frames = 0

    def reset(self) -> None:
        """Measure everything at the next frame (a new empty table)."""
        self.reference = None

    def touch(self, mask: np.ndarray) -> None:
        """Measure again at the next frame where `mask` (the region's size, nonzero) is set."""
        h2, w2 = self.half
        small = cv2.resize(mask[:h2 * 2, :w2 * 2], (w2, h2), interpolation=cv2.INTER_AREA)
        self.stale |= self._tile_counts(cv2.compare(small, 0, cv2.CMP_GT)) > 0

    def update(self, image: np.ndarray) -> np.ndarray:
        """The tiles to measure in this frame (bool, tile grid); the reference takes the
        image there.  Everything on the first frame and every REFRESH_EVERY frames."""
        h2, w2 = self.half
        small = cv2.resize(image[:h2 * 2, :w2 * 2], (w2, h2), interpolation=cv2.INTER_AREA)
        self.image = small
        self.frames += 1
        if self.reference is None or self.frames % REFRESH_EVERY == 0:
            if self.reference is None:
                self.age[:] = SETTLE_FRAMES  # (nothing changed yet)
            self.reference = small.copy()
            self.stale[:] = False
            return np.ones(self.tiles, bool)
        change = colour_distance(small, self.reference)
        changed = self._tile_counts(cv2.compare(change, self.threshold, cv2.CMP_GT)) \
            >= CHANGED_PIXELS
        self.age += 1
        self.age[changed] = 0
        # A neighbouring tile too: a moving coin's faint blurred tail may change its
        # pixels by less than the threshold.
        fresh = cv2.dilate((self.age < SETTLE_FRAMES).view(np.uint8), NEIGHBOURS) > 0
        fresh |= self.stale
        self.stale[:] = False
        for ys, xs in self.slices(fresh, half=True):
            self.reference[ys, xs] = small[ys, xs]
        return fresh

    def _tile_counts(self, mask: np.ndarray) -> np.ndarray:
        """How many pixels of a half-resolution mask (0 or 255) are set in each tile."""
        th, tw = self.tiles
        padded = cv2.copyMakeBorder(mask, 0, th * TILE - mask.shape[0], 0,
                                    tw * TILE - mask.shape[1], cv2.BORDER_CONSTANT, value=0)
        mean = cv2.resize(padded, (tw, th), interpolation=cv2.INTER_AREA)  # 255·n / TILE²
        return np.rint(mean.astype(np.float32) * (TILE * TILE / 255.0)).astype(np.int32)

    def slices(self, tiles: np.ndarray, half: bool = False, pad: int = 0
               ) -> list[tuple[slice, slice]]:
        """The boxes (rows, columns) of the groups of touching tiles set in `tiles`: in
        camera pixels of the region, grown by `pad` pixels (or in half-resolution pixels)."""
        count, _, stats, _ = cv2.connectedComponentsWithStats(tiles.view(np.uint8),
                                                               connectivity=8)
        scale = TILE if half else TILE * 2
        h, w = self.half if half else self.shape
        th, tw = self.tiles
        out = []
        for k in range(1, count):
            x, y, bw, bh = (int(v) for v in stats[k, :4])
            # The last tiles reach the edge (an odd row or column has no half pixel).
            y1 = h if y + bh == th else min(h, (y + bh) * scale + pad)
            x1 = w if x + bw == tw else min(w, (x + bw) * scale + pad)
            out.append((slice(max(0, y * scale - pad), y1), slice(max(0, x * scale - pad), x1)))
        return out

    def any_in(self, tiles: np.ndarray, box: tuple[int, int, int, int]) -> bool:
        """Is any tile set in `tiles` under the box (x0, y0, x1, y1, camera pixels)?"""
        return bool(tiles[_under(box)].any())

    def still(self, box: tuple[int, int, int, int], frames: int) -> bool:
        """Has the image under the box (x0, y0, x1, y1, camera pixels) held still for the
        last `frames` frames?"""
        return bool((self.age[_under(box)] >= frames).all())


def _under(box: tuple[int, int, int, int]) -> tuple[slice, slice]:
    """The tiles under a box (x0, y0, x1, y1, camera pixels)."""
    x0, y0, x1, y1 = box
    size = TILE * 2
    return (slice(max(0, y0 // size), (y1 - 1) // size + 1),
            slice(max(0, x0 // size), (x1 - 1) // size + 1))


def colour_distance(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The L1 colour distance of two BGR images: |a − b| summed over the channels, saturated
    at 255 (a green coin on green felt differs in hue, not in brightness)."""
    return channel_sum(cv2.absdiff(a, b))


def channel_sum(image: np.ndarray) -> np.ndarray:
    """A 3-channel 8-bit image's channels added, saturated at 255 (split and add: several
    times faster than `cv2.transform`)."""
    c0, c1, c2 = cv2.split(image)
    return cv2.add(cv2.add(c0, c1), c2)
