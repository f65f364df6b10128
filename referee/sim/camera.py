"""A webcam looking down at the table: pinhole intrinsics, pose, and OpenCV lens distortion.

The world frame is the table frame of ARCHITECTURE.md (mm, origin at the table centre, +x east,
+y north) with +z up out of the cloth.  The camera frame is OpenCV's (x right, y down the image,
z along the optical axis), so :func:`cv2.projectPoints` does the projection and the renderer,
the tests and the calibration code share one definition of the lens.

Pose: the optical axis meets the table at `target_mm`; the lens is `height_mm` above the cloth
and tilted `tilt_deg` away from vertical, displaced towards `azimuth_deg` (0 = the lens stands
south of the target and looks north-ish, 90 = west, counter-clockwise seen from above);
`yaw_deg` turns the image about the optical axis (0 keeps table north at the image top).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import cached_property

import cv2
import numpy as np

Point = tuple[float, float]


def _read_only(a: np.ndarray) -> np.ndarray:
    a.flags.writeable = False
    return a


@dataclass(frozen=True)
class CameraPose:
    """Where the webcam hangs over the table (see the module docstring)."""

    height_mm: float = 1250.0
    tilt_deg: float = 0.0
    azimuth_deg: float = 0.0
    yaw_deg: float = 0.0
    target_mm: Point = (0.0, 0.0)


@dataclass(frozen=True)
class Lens:
    """Field of view and OpenCV distortion (k1, k2, p1, p2, k3); principal point offset in px."""

    hfov_deg: float = 70.0
    k1: float = 0.0
    k2: float = 0.0
    p1: float = 0.0
    p2: float = 0.0
    k3: float = 0.0
    principal_offset_px: Point = (0.0, 0.0)

    @property
    def dist_coeffs(self) -> np.ndarray:
        return np.array([self.k1, self.k2, self.p1, self.p2, self.k3], dtype=np.float64)


@dataclass(frozen=True)
class Camera:
    """A camera of `width_px` × `height_px` pixels; projects table millimetres to pixels."""

    width_px: int
    height_px: int
    lens: Lens = field(default_factory=Lens)
    pose: CameraPose = field(default_factory=CameraPose)

    # -- intrinsics ------------------------------------------------------------------------
    @property
    def size(self) -> tuple[int, int]:
        return (self.width_px, self.height_px)

    @property
    def focal_px(self) -> float:
        """Focal length in pixels from the horizontal field of view (square pixels)."""
        return (self.width_px / 2.0) / math.tan(math.radians(self.lens.hfov_deg) / 2.0)

    @property
    def camera_matrix(self) -> np.ndarray:
        f = self.focal_px
        cx = self.width_px / 2.0 + self.lens.principal_offset_px[0]
        cy = self.height_px / 2.0 + self.lens.principal_offset_px[1]
        return np.array([[f, 0.0, cx], [0.0, f, cy], [0.0, 0.0, 1.0]])

    @property
    def dist_coeffs(self) -> np.ndarray:
        return self.lens.dist_coeffs

    # -- extrinsics ------------------------------------------------------------------------
    # The pose is frozen, so what follows from it is worked out once (projecting a few points
    # is per frame for the renderer and for vision measured with this camera's mapping);
    # read-only, as it is shared.
    @cached_property
    def center_mm(self) -> np.ndarray:
        """The lens centre in world mm (x, y, z above the cloth)."""
        p = self.pose
        offset = p.height_mm * math.tan(math.radians(p.tilt_deg))
        az = math.radians(p.azimuth_deg)
        # azimuth 0 puts the lens south of the target (at -y), turning counter-clockwise.
        dx, dy = offset * math.sin(az), -offset * math.cos(az)
        return _read_only(np.array([p.target_mm[0] + dx, p.target_mm[1] + dy, p.height_mm]))

    @cached_property
    def rotation(self) -> np.ndarray:
        """R mapping world directions to camera directions (x_cam = R @ (X - C))."""
        p = self.pose
        c = self.center_mm
        forward = np.array([p.target_mm[0], p.target_mm[1], 0.0]) - c
        forward /= np.linalg.norm(forward)
        yaw = math.radians(p.yaw_deg)
        north = np.array([-math.sin(yaw), math.cos(yaw), 0.0])  # image-up direction on the table
        up = north - forward * float(north @ forward)
        up /= np.linalg.norm(up)
        y_cam = -up  # image rows grow downward
        x_cam = np.cross(y_cam, forward)
        return _read_only(np.stack([x_cam, y_cam, forward]))

    @cached_property
    def rvec(self) -> np.ndarray:
        return _read_only(cv2.Rodrigues(self.rotation)[0])

    @cached_property
    def tvec(self) -> np.ndarray:
        return _read_only(-self.rotation @ self.center_mm)

    # -- projection ------------------------------------------------------------------------
    def project_mm_to_px(self, points_mm: np.ndarray | list[Point] | Point,
                         height_mm: float | np.ndarray = 0.0) -> np.ndarray:
        """Distorted pixel positions (N, 2) of table points standing `height_mm` above the cloth.

        A coin's top face is ~3 mm up and a tower's top ~9 mm: project them at that height,
        or they land up to a pixel or two off under a tilted camera.
        """
        pts = np.asarray(points_mm, dtype=np.float64).reshape(-1, 2)
        z = np.broadcast_to(np.asarray(height_mm, dtype=np.float64), (len(pts),))
        obj = np.column_stack([pts, z]).reshape(-1, 1, 3)
        px, _ = cv2.projectPoints(obj, self.rvec, self.tvec, self.camera_matrix,
                                  self.dist_coeffs)
        return px.reshape(-1, 2)

    def homography_mm_to_px(self, height_mm: float = 0.0) -> np.ndarray:
        """The 3×3 homography from the plane `height_mm` above the cloth to *undistorted* px."""
        r = self.rotation
        t = self.tvec.reshape(3)
        m = np.column_stack([r[:, 0], r[:, 1], r[:, 2] * height_mm + t])
        h = self.camera_matrix @ m
        return h / h[2, 2]

    def undistort_px(self, points_px: np.ndarray) -> np.ndarray:
        """Distorted pixels → where an ideal pinhole with the same K would see them (N, 2)."""
        pts = np.asarray(points_px, dtype=np.float64).reshape(-1, 1, 2)
        criteria = (cv2.TERM_CRITERIA_COUNT | cv2.TERM_CRITERIA_EPS, 100, 1e-12)
        k = self.camera_matrix
        out = cv2.undistortPointsIter(pts, k, self.dist_coeffs, None, k, criteria)
        return out.reshape(-1, 2)

    def px_to_mm(self, points_px: np.ndarray, height_mm: float = 0.0) -> np.ndarray:
        """Distorted pixels → table mm on the plane `height_mm` above the cloth (N, 2).

        Rays that miss the plane (above the horizon) come back as NaN.
        """
        pts = np.asarray(points_px, dtype=np.float64).reshape(-1, 1, 2)
        criteria = (cv2.TERM_CRITERIA_COUNT | cv2.TERM_CRITERIA_EPS, 100, 1e-12)
        norm = cv2.undistortPointsIter(pts, self.camera_matrix, self.dist_coeffs, None, None,
                                       criteria).reshape(-1, 2)
        return self.rays_to_plane(norm, height_mm)

    def rays_to_plane(self, normalized: np.ndarray, height_mm: float = 0.0) -> np.ndarray:
        """Normalized camera coordinates (x/z, y/z) → table mm on the plane at `height_mm`."""
        n = np.asarray(normalized, dtype=np.float64).reshape(-1, 2)
        rays_cam = np.column_stack([n, np.ones(len(n))])
        rays = rays_cam @ self.rotation  # R^T applied to each row
        c = self.center_mm
        with np.errstate(divide="ignore", invalid="ignore"):
            lam = (height_mm - c[2]) / rays[:, 2]
        lam[~(lam > 0)] = np.nan
        return c[:2] + rays[:, :2] * lam[:, None]

    def parallax_to_ground(self, points_mm: np.ndarray, height_mm: float | np.ndarray
                           ) -> np.ndarray:
        """Where on the cloth (z=0) the camera sees a point that stands `height_mm` up.

        Planes parallel to the table map to the cloth by a scaling about the nadir, so a
        renderer can draw raised faces into a top-down texture exactly.
        """
        pts = np.asarray(points_mm, dtype=np.float64).reshape(-1, 2)
        c = self.center_mm
        s = c[2] / (c[2] - np.asarray(height_mm, dtype=np.float64))
        return c[:2] + (pts - c[:2]) * np.reshape(s, (-1, 1))

    def px_per_mm(self, at_mm: Point = (0.0, 0.0), height_mm: float = 0.0) -> float:
        """Local image scale (pixels per mm, geometric mean of both axes) at a table point."""
        d = 0.5
        p = self.project_mm_to_px([at_mm, (at_mm[0] + d, at_mm[1]), (at_mm[0], at_mm[1] + d)],
                                  height_mm)
        jac = np.column_stack([p[1] - p[0], p[2] - p[0]]) / d
        return float(math.sqrt(abs(np.linalg.det(jac))))

    def corners_px(self, polygon_mm: list[Point], height_mm: float = 0.0) -> np.ndarray:
        """Ground-truth pixel corners of a polygon (e.g. the table or a tile) for calibration."""
        return self.project_mm_to_px(polygon_mm, height_mm)

    def to_json(self) -> dict:
        """Ground truth for calibration tests: K, distortion, pose and the table homography."""
        return {
            "size_px": [self.width_px, self.height_px],
            "camera_matrix": self.camera_matrix.tolist(),
            "dist_coeffs": self.dist_coeffs.tolist(),
            "rvec": self.rvec.reshape(3).tolist(),
            "tvec": self.tvec.reshape(3).tolist(),
            "homography_mm_to_px": self.homography_mm_to_px().tolist(),
            "center_mm": self.center_mm.tolist(),
        }
