"""A lens guessed from the tiles' layout, for a camera whose lens was never calibrated.

Why: a cheap webcam's barrel distortion (k1 down to -0.3) bends the table's straight edges
and pulls its corners in, so no homography maps the whole table: the tiles then measure
several per cent off the template and the table's edge is put 20-30 px wrong.  The layout
itself is a calibration target: the template says where every tile stands (and how high its
top is), so OpenCV's `calibrateCamera` on one view, with the principal point at the image's
centre, square pixels and only the focal length and k1 free, finds the lens.  The caller
keeps it only when it brings the layout much truer to the template (a camera straight above
the table cannot tell its focal length from its height: with little distortion, guessing
does more harm than good).
"""

from __future__ import annotations

import cv2
import numpy as np

from calibration.intrinsics import Intrinsics
from calibration.pose import assumed_camera_matrix

MIN_TILES = 8
"""Fewer matched tiles than this leave the focal length, k1 and the pose underdetermined."""
MAX_K1 = 0.5
"""Webcams' barrel distortion stays within this (the simulator's looks: -0.3 to 0)."""
FLAGS = (cv2.CALIB_USE_INTRINSIC_GUESS | cv2.CALIB_FIX_PRINCIPAL_POINT
         | cv2.CALIB_FIX_ASPECT_RATIO | cv2.CALIB_ZERO_TANGENT_DIST | cv2.CALIB_FIX_K2
         | cv2.CALIB_FIX_K3)


def lens_from_layout(tops_mm: np.ndarray, tops_px: np.ndarray, image_size: tuple[int, int]
                     ) -> Intrinsics | None:
    """The lens that best maps the template's tile tops (N×3 mm, z the top's height) to where
    they were found (N×2 px); None with too few tiles or a failed fit."""
    if len(tops_mm) < MIN_TILES:
        return None
    w, h = image_size
    try:  # started from the assumed lens (`pose.assumed_camera_matrix`)
        rms, matrix, dist, _, _ = cv2.calibrateCamera(
            [np.asarray(tops_mm, np.float32)], [np.asarray(tops_px, np.float32)], (w, h),
            assumed_camera_matrix(image_size), np.zeros(5), flags=FLAGS)
    except cv2.error:
        return None
    k1 = float(dist.ravel()[0])
    if not np.isfinite(rms) or not 0.3 * w < matrix[0, 0] < 3.0 * w or abs(k1) > MAX_K1:
        return None  # no webcam's lens: the tiles were too few or too flat to tell
    return Intrinsics(matrix, dist.reshape(1, -1), (w, h), rms_px=float(rms), guessed=True)
