"""Where the camera is over the table, and where raised things really stand.

Why: a tile's top face is 3–5 mm above the cloth and a tower's 2–3 tiles; a camera not
straight above a piece sees its top displaced outwards from its foot (ARCHITECTURE.md).  With
the lens known (intrinsics), the table plane's homography gives the camera's position in table
millimetres, and a point seen at height h is moved back towards the camera's nadir by h / Z.
"""

from __future__ import annotations

import numpy as np

from calibration.plane import TablePlane


def camera_centre_mm(plane: TablePlane) -> np.ndarray | None:
    """The lens centre (x, y, z above the cloth) in table mm, or None without intrinsics.

    The homography is K [r1 r2 t] up to scale (Zhang's decomposition); the centre is -Rᵀt.
    """
    if plane.intrinsics is None:
        return None
    return _centre(plane.intrinsics.camera_matrix, plane.homography)


ASSUMED_HFOV_DEG = 70.0
"""A webcam's horizontal field of view when its lens was not calibrated (most are 60-80°)."""


def assumed_camera_centre_mm(plane: TablePlane, image_size: tuple[int, int]) -> np.ndarray:
    """The lens centre as `camera_centre_mm` finds it, for a lens not calibrated: a pinhole
    of `ASSUMED_HFOV_DEG` centred on the image.

    Only for the parallax of raised things, which it gets within 0.2 mm for a coin's top
    3.5 mm up anywhere on the table under lenses of 65-78° (tests/calibration/test_calib_pose):
    a camera nearly straight above the table cannot tell its focal length from its height, so
    the height comes out up to 20 % off, which moves the parallax by as much."""
    return _centre(assumed_camera_matrix(image_size), plane.homography)


def assumed_camera_matrix(image_size: tuple[int, int]) -> np.ndarray:
    """A pinhole of `ASSUMED_HFOV_DEG`, square pixels, centred on the image."""
    w, h = image_size
    f = (w / 2.0) / np.tan(np.radians(ASSUMED_HFOV_DEG / 2.0))
    return np.array([[f, 0.0, w / 2.0], [0.0, f, h / 2.0], [0.0, 0.0, 1.0]])


def _centre(camera_matrix: np.ndarray, homography: np.ndarray) -> np.ndarray:
    m = np.linalg.inv(camera_matrix) @ homography
    scale = 2.0 / (np.linalg.norm(m[:, 0]) + np.linalg.norm(m[:, 1]))
    r1, r2, t = m[:, 0] * scale, m[:, 1] * scale, m[:, 2] * scale
    if t[2] < 0:  # the table must lie in front of the camera
        r1, r2, t = -r1, -r2, -t
    u, _s, vt = np.linalg.svd(np.column_stack([r1, r2, np.cross(r1, r2)]))
    rotation = u @ vt
    centre = -rotation.T @ t
    centre[2] = abs(centre[2])
    return centre


def to_foot_mm(points_mm: np.ndarray, height_mm: float | np.ndarray,
               camera_mm: np.ndarray | None) -> np.ndarray:
    """Table-plane positions (Nx2) of points seen there but standing `height_mm` above the
    cloth → where they really stand (unchanged without a camera position)."""
    pts = np.asarray(points_mm, np.float64).reshape(-1, 2)
    if camera_mm is None:
        return pts
    h = np.broadcast_to(np.asarray(height_mm, np.float64), (len(pts),))[:, None]
    nadir = camera_mm[:2]
    return nadir + (pts - nadir) * (camera_mm[2] - h) / camera_mm[2]
