"""Calibration from one still image: table corners → plane → tiles → fitted layout → profile.

Why: `referee calibrate` and the web UI's calibration page run the same steps; this module is
that sequence, with the choices (how the corners are found, the lens, the tolerances) as
arguments and everything measured kept in the returned profile.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from calibration.intrinsics import Intrinsics
from calibration.layout_fit import DEFAULT_TOLERANCES, LayoutFit, Tolerances, fit_layout
from calibration.plane import (
    Residuals,
    TablePlane,
    fit_plane,
    rectify,
    residuals,
    table_corners_mm,
)
from calibration.profile import CalibrationProfile
from calibration.table_detect import CornerMarkers, detect_corner_markers, detect_table
from calibration.tiles import detect_tiles
from referee.layout import Layout

RECTIFY_PX_PER_MM = 2.0
"""Resolution of the top-down image tiles are found in (0.5 mm pixels)."""


@dataclass
class TableFit:
    """The plane and how it was found: corners (SW SE NE NW), method, residuals."""

    plane: TablePlane
    corners_px: np.ndarray
    method: str
    residuals: Residuals


def find_plane(image: np.ndarray, table_mm: tuple[float, float], *,
               corners_px: np.ndarray | None = None, markers: CornerMarkers | None = None,
               intrinsics: Intrinsics | None = None) -> TableFit:
    """The table plane from given corners, corner markers, or automatic detection."""
    corners_mm = table_corners_mm(table_mm)
    if corners_px is not None:
        method, px, mm = "manual", np.asarray(corners_px, np.float64), corners_mm
    elif markers is not None:
        method = "aruco"
        px, mm = detect_corner_markers(image, table_mm, markers)
    else:
        method, px, mm = "auto", detect_table(image, intrinsics), corners_mm
    plane = fit_plane(px, mm, intrinsics)
    corners = px if method != "aruco" else plane.to_pixels(corners_mm)
    return TableFit(plane, corners, method, residuals(plane, px, mm))


def measure_layout(image: np.ndarray, plane: TablePlane, template: Layout,
                   table_mm: tuple[float, float], tolerances: Tolerances = DEFAULT_TOLERANCES
                   ) -> LayoutFit:
    """Tiles found on the rectified table and fitted to the template."""
    top, affine = rectify(image, plane, table_mm, RECTIFY_PX_PER_MM)
    tiles, blobs = detect_tiles(top, affine, template.tile_mm)
    return fit_layout(template, tiles, blobs, tolerances)


def calibrate_still(image: np.ndarray, template: Layout, table_mm: tuple[float, float], *,
                    source: str = "", source_kind: str = "image", source_t_s: float = 0.0,
                    template_name: str = "", corners_px: np.ndarray | None = None,
                    markers: CornerMarkers | None = None, intrinsics: Intrinsics | None = None,
                    tolerances: Tolerances = DEFAULT_TOLERANCES) -> CalibrationProfile:
    """Everything calibration measures in one still, as a profile ready to save."""
    table = find_plane(image, table_mm, corners_px=corners_px, markers=markers,
                       intrinsics=intrinsics)
    fit = measure_layout(image, table.plane, template, table_mm, tolerances)
    h, w = image.shape[:2]
    return CalibrationProfile(
        source=source, source_kind=source_kind, image_size=(w, h), table_mm=table_mm,
        corners_px=table.corners_px, corners_method=table.method, plane=table.plane,
        layout=fit.layout, template=template_name or template.name,
        plane_residuals=table.residuals, layout_residual_mm=fit.residual_rms_mm,
        problems=fit.problems, source_t_s=source_t_s)
