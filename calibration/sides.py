"""Where a raised tile's top really is, when the camera also sees one or two of its sides.

Why: a tile's top face is 4–5 mm above the cloth and a tower's two tiles; a camera that is not
straight above it sees the side faces turned towards it, as a band between the top's edge and
the foot's edge.  That band is often the colour of the paper (a tan tile's edge next to a tan
face), so the outline found on those *near* sides lies anywhere between the top's edge and
the foot's: a tower's centre came out up to 1.3 mm off.  The *far* sides carry no band (the
top hides them), so their edges are the top's.  Knowing where the camera is (`pose`) and how
high the tile stands, each side's band is predicted, and the top's centre is the weighted
least-squares fit of its four measured sides, each weighted by how much its band leaves its
place in doubt.  The edge detector's own outward bias (blur, contact shade) and any
difference between the pack's tile size and the template's are measured once on the sides
without bands (`edge_bias_mm`) and taken off.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

EDGE_NOISE_MM = 0.2
"""Spread of one measured side about its true place when no band makes it ambiguous."""
FLAT_BAND_MM = 0.3
"""A band narrower than this leaves a side unambiguous (used to measure the edge bias)."""
OPPOSITE = ((0, 2), (1, 3))
"""The pairs of opposite sides of a quadrilateral."""


@dataclass(frozen=True)
class Sides:
    """A measured tile outline as four side lines: outward normals and offsets (n·x = d)."""

    normals: np.ndarray  # (4, 2) unit, outward
    offsets: np.ndarray  # (4,) mm

    @classmethod
    def of(cls, corners_mm: Sequence[Sequence[float]]) -> Sides:
        """The sides of a convex quadrilateral given by its corners (either turning sense)."""
        pts = np.asarray(corners_mm, np.float64).reshape(4, 2)
        centre = pts.mean(axis=0)
        edges = np.roll(pts, -1, axis=0) - pts
        normals = np.column_stack([edges[:, 1], -edges[:, 0]])
        normals /= np.linalg.norm(normals, axis=1, keepdims=True)
        mids = pts + edges / 2
        outward = np.einsum("ij,ij->i", normals, mids - centre) < 0
        normals[outward] *= -1
        return cls(normals, np.einsum("ij,ij->i", normals, mids))


def side_bands_mm(sides: Sides, centre_mm: np.ndarray, height_mm: float,
                  camera_mm: np.ndarray, half_size_mm: float) -> np.ndarray:
    """For each side, how far the foot's edge lies outside the top's edge as seen on the
    table plane (> 0: the camera sees that side face as a band of this width).

    The top is seen `k = Z / (Z - h)` times further from the camera's nadir than the foot, so
    the foot square seen on the plane is the top square shrunk towards the nadir by 1/k.
    """
    z = float(camera_mm[2])
    shrink = 1.0 - (z - height_mm) / z
    towards = sides.normals @ (np.asarray(camera_mm[:2], np.float64) - centre_mm)
    return shrink * (towards - half_size_mm)


def edge_bias_mm(tiles: Sequence[tuple[Sides, float, np.ndarray]], camera_mm: np.ndarray,
                 ) -> float:
    """How far outwards the measured sides lie, on average, from a top of the expected size.

    `tiles`: (sides, height_mm, expected seen top size mm) per tile.  Measured on the pairs of
    opposite sides neither of which shows a band; this also absorbs a pack whose tiles are a
    little bigger or smaller than the template's.  0 when no pair qualifies.
    """
    flat, every = [], []
    for sides, height, size in tiles:
        centre = _mean_centre(sides)
        bands = np.maximum(side_bands_mm(sides, centre, height, camera_mm, size / 2), 0.0)
        for i, j in OPPOSITE:
            width = sides.offsets[i] + sides.offsets[j]
            excess = (width - size - (bands[i] + bands[j]) / 2) / 2
            every.append(excess)
            if max(bands[i], bands[j]) < FLAT_BAND_MM:
                flat.append(excess)
    chosen = flat if len(flat) >= 3 else every
    return float(np.median(chosen)) if chosen else 0.0


def top_centre_mm(sides: Sides, height_mm: float, camera_mm: np.ndarray, size_mm: float,
                  bias_mm: float = 0.0, noise_mm: float = EDGE_NOISE_MM) -> np.ndarray:
    """The seen top's centre (table-plane mm) from its four measured sides.

    Each side says `n·c = d - size/2 - bias - u` with `u` the unknown part of its band that
    the edge detector took for the top (anywhere in [0, band]: mean band/2, variance
    band²/12); the sides are combined by weighted least squares (variance noise² + band²/12).
    """
    centre = _mean_centre(sides)
    bands = np.maximum(side_bands_mm(sides, centre, height_mm, camera_mm, size_mm / 2), 0.0)
    target = sides.offsets - size_mm / 2 - bias_mm - bands / 2
    weight = 1.0 / np.sqrt(noise_mm ** 2 + bands ** 2 / 12.0)
    solution, *_ = np.linalg.lstsq(sides.normals * weight[:, None], target * weight, rcond=None)
    return solution


def _mean_centre(sides: Sides) -> np.ndarray:
    """The centre halfway between opposite sides (least squares, all sides equal)."""
    half = np.array([(sides.offsets[i] - sides.offsets[j]) / 2 for i, j in OPPOSITE])
    # offsets of opposite sides: n_i·c = d_i - s/2 and -n_i·c = d_j - s/2 → n_i·c = (d_i - d_j)/2
    normals = sides.normals[[0, 1]]
    return np.linalg.lstsq(normals, half, rcond=None)[0]
