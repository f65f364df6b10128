"""The table plane: pixels ↔ table millimetres, and how well the mapping fits.

Why: only table millimetres pass the tracker.  `TablePlane` hides the lens (undistortion when
intrinsics exist) and the homography behind exactly two mapping methods.  The homography maps
table mm (+y north) to undistorted pixels (rows down), so the y flip lives in it and nowhere
else.  Points are numpy arrays, N x 2.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from calibration.intrinsics import Intrinsics


@dataclass(frozen=True)
class TablePlane:
    """Maps image pixels to table millimetres and back (for points on the table's surface)."""

    homography: np.ndarray  # 3x3, table mm → undistorted pixels
    intrinsics: Intrinsics | None = None

    def to_table_mm(self, points_px: np.ndarray) -> np.ndarray:
        """Image pixels (Nx2, as the camera gives them) → table millimetres (Nx2)."""
        pts = np.asarray(points_px, np.float64).reshape(-1, 2)
        if self.intrinsics is not None:
            pts = self.intrinsics.undistort_points(pts)
        inv = np.linalg.inv(self.homography)
        return cv2.perspectiveTransform(pts.reshape(-1, 1, 2), inv).reshape(-1, 2)

    def to_pixels(self, points_mm: np.ndarray) -> np.ndarray:
        """Table millimetres (Nx2) → image pixels (Nx2, lens distortion applied)."""
        pts = np.asarray(points_mm, np.float64).reshape(-1, 1, 2)
        out = cv2.perspectiveTransform(pts, self.homography).reshape(-1, 2)
        return self.intrinsics.distort_points(out) if self.intrinsics is not None else out


@dataclass(frozen=True)
class Residuals:
    """How far the fitted plane puts the given correspondences from where they were measured."""

    rms_px: float
    max_px: float
    rms_mm: float
    max_mm: float
    count: int

    def to_json(self) -> dict[str, float | int]:
        return {"rms_px": round(self.rms_px, 4), "max_px": round(self.max_px, 4),
                "rms_mm": round(self.rms_mm, 4), "max_mm": round(self.max_mm, 4),
                "count": self.count}


def fit_plane(points_px: np.ndarray, points_mm: np.ndarray,
              intrinsics: Intrinsics | None = None, *, ransac_px: float | None = None
              ) -> TablePlane:
    """A TablePlane from 4+ pixel ↔ mm correspondences (cv2.findHomography).

    With `ransac_px`, correspondences further than that from the consensus are ignored.
    Raises ValueError when the points are too few or degenerate.
    """
    px = np.asarray(points_px, np.float64).reshape(-1, 2)
    mm = np.asarray(points_mm, np.float64).reshape(-1, 2)
    if len(px) != len(mm) or len(px) < 4:
        raise ValueError(f"the table plane needs 4+ matching points, got {len(px)} px "
                         f"and {len(mm)} mm")
    if intrinsics is not None:
        px = intrinsics.undistort_points(px)
    method, threshold = (cv2.RANSAC, ransac_px) if ransac_px else (0, 3.0)
    homography, _mask = cv2.findHomography(mm, px, method, threshold)
    if homography is None or abs(np.linalg.det(homography)) < 1e-12:
        raise ValueError("the table plane's points are degenerate (three in a line?)")
    return TablePlane(homography / homography[2, 2], intrinsics)


def residuals(plane: TablePlane, points_px: np.ndarray, points_mm: np.ndarray) -> Residuals:
    """Residuals of correspondences in both frames: pixels (forward) and mm (backward)."""
    px = np.asarray(points_px, np.float64).reshape(-1, 2)
    mm = np.asarray(points_mm, np.float64).reshape(-1, 2)
    d_px = np.linalg.norm(plane.to_pixels(mm) - px, axis=1)
    d_mm = np.linalg.norm(plane.to_table_mm(px) - mm, axis=1)
    return Residuals(float(np.sqrt(np.mean(d_px ** 2))), float(d_px.max()),
                     float(np.sqrt(np.mean(d_mm ** 2))), float(d_mm.max()), len(px))


def table_corners_mm(table_mm: tuple[float, float]) -> np.ndarray:
    """A rectangular table's corners SW, SE, NE, NW in table millimetres (origin at its centre)."""
    w, h = table_mm
    return np.array([[-w / 2, -h / 2], [w / 2, -h / 2], [w / 2, h / 2], [-w / 2, h / 2]])


def rectify(image: np.ndarray, plane: TablePlane, table_mm: tuple[float, float],
            px_per_mm: float = 2.0) -> tuple[np.ndarray, np.ndarray]:
    """The table seen from straight above, north up: (image, affine 3x3 mm → rectified px).

    Used to find tiles with the table's own geometry.  With intrinsics, the lens is undone
    first so that straight edges stay straight.
    """
    w, h = table_mm
    s = px_per_mm
    a = np.array([[s, 0, s * w / 2 - 0.5], [0, -s, s * h / 2 - 0.5], [0, 0, 1]])
    src = plane.intrinsics.undistort_image(image) if plane.intrinsics is not None else image
    size = (round(w * s), round(h * s))
    warp = a @ np.linalg.inv(plane.homography)  # undistorted px → rectified px
    out = cv2.warpPerspective(src, warp, size, flags=cv2.INTER_LINEAR,
                              borderMode=cv2.BORDER_REPLICATE)
    return out, a


def rectified_to_mm(points_rect: np.ndarray, affine: np.ndarray) -> np.ndarray:
    """Rectified-image pixels (Nx2) → table mm (Nx2), for the affine `rectify` returned."""
    pts = np.asarray(points_rect, np.float64).reshape(-1, 2)
    inv = np.linalg.inv(affine)
    return pts @ inv[:2, :2].T + inv[:2, 2]
