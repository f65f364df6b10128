"""Calibration from one still image: table corners → plane → tiles → fitted layout → profile.

Why: `referee calibrate` and the web UI's calibration page run the same steps; this module is
that sequence, with the choices (how the corners are found, the lens, the tolerances) as
arguments and everything measured kept in the returned profile.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

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
from calibration.table_detect import (
    CornerMarkers,
    aruco_marker_corners_mm,
    detect_corner_markers,
    detect_table,
    outer_edge_quad,
)
from calibration.tiles import Blob, DetectedTile, detect_tiles
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


def find_tiles(image: np.ndarray, plane: TablePlane, template: Layout,
               table_mm: tuple[float, float], markers: CornerMarkers | None = None
               ) -> tuple[list[DetectedTile], list[Blob]]:
    """Tiles (and other blobs) on the table, in table mm; corner markers left out."""
    top, affine = rectify(image, plane, table_mm, RECTIFY_PX_PER_MM)
    ignore = []
    if markers is not None:
        quiet = markers.marker_mm / 4 + 3.0  # the white border printed round each marker
        for square in aruco_marker_corners_mm(table_mm, markers.marker_mm, markers.inset_mm):
            centre = square.mean(axis=0)
            ignore.append(centre + (square - centre) * (1 + 2 * quiet / markers.marker_mm))
    return detect_tiles(top, affine, template.tile_mm, ignore_mm=ignore)


def measure_layout(image: np.ndarray, plane: TablePlane, template: Layout,
                   table_mm: tuple[float, float], tolerances: Tolerances = DEFAULT_TOLERANCES
                   ) -> LayoutFit:
    """Tiles found on the rectified table and fitted to the template."""
    tiles, blobs = find_tiles(image, plane, template, table_mm)
    return fit_layout(template, tiles, blobs, tolerances)


def _fit_badness(fit: LayoutFit) -> tuple[int, int]:
    wrong = sum(p.kind == "wrong_top" for p in fit.problems)
    return (wrong, len(fit.problems))


def south_turns(table: TableFit, tiles: list[DetectedTile], template: Layout,
                table_mm: tuple[float, float], tolerances: Tolerances = DEFAULT_TOLERANCES
                ) -> int:
    """How many places to roll the automatic corners so that the towers show their suits.

    Automatic detection takes the image's bottom as south; the towers' Aces say where south
    really is.  0 when the bottom is south (or the towers cannot tell).  Only half-turns are
    tried on an oblong table.
    """
    square = abs(table_mm[0] - table_mm[1]) < 1e-6
    rolls = (0, 1, 2, 3) if square else (0, 2)
    centres_px = table.plane.to_pixels(np.array([t.center_mm for t in tiles]).reshape(-1, 2))
    scores = {}
    for roll in rolls:
        plane = fit_plane(np.roll(table.corners_px, roll, axis=0), table_corners_mm(table_mm),
                          table.plane.intrinsics)
        moved = [replace(t, center_mm=(float(x), float(y)))
                 for t, (x, y) in zip(tiles, plane.to_table_mm(centres_px), strict=True)]
        scores[roll] = _fit_badness(fit_layout(template, moved, (), tolerances))
    best = min(rolls, key=lambda r: scores[r])
    return best if scores[best] < scores[0] else 0


def calibrate_still(image: np.ndarray, template: Layout, table_mm: tuple[float, float], *,
                    source: str = "", source_kind: str = "image", source_t_s: float = 0.0,
                    template_name: str = "", corners_px: np.ndarray | None = None,
                    markers: CornerMarkers | None = None, intrinsics: Intrinsics | None = None,
                    tolerances: Tolerances = DEFAULT_TOLERANCES) -> CalibrationProfile:
    """Everything calibration measures in one still, as a profile ready to save."""
    table = find_plane(image, table_mm, corners_px=corners_px, markers=markers,
                       intrinsics=intrinsics)
    tiles, blobs = find_tiles(image, table.plane, template, table_mm, markers)
    roll = south_turns(table, tiles, template, table_mm, tolerances) if (
        table.method == "auto" and tiles) else 0
    if roll:
        turned = find_plane(image, table_mm, corners_px=np.roll(table.corners_px, roll, axis=0),
                            intrinsics=intrinsics)
        table = replace(turned, method="auto")
        tiles, blobs = find_tiles(image, table.plane, template, table_mm)
    notes: list[str] = []
    if table.method == "auto" and tiles:
        table, tiles, blobs = _prefer_rim(image, table, tiles, blobs, template, table_mm,
                                          notes)
    ratio = tile_size_ratio(tiles, table.plane, table.plane, template.tile_mm)
    if ratio is not None and abs(ratio - 1) > 0.015:
        notes.append(f"the tiles measure {ratio * template.tile_mm:.1f} mm, not "
                     f"{template.tile_mm:.1f} mm: is the table really {table_mm[0]:g} x "
                     f"{table_mm[1]:g} mm (--table-mm), and are these its corners?")
    fit = fit_layout(template, tiles, blobs, tolerances)
    h, w = image.shape[:2]
    return CalibrationProfile(
        source=source, source_kind=source_kind, image_size=(w, h), table_mm=table_mm,
        corners_px=table.corners_px, corners_method=table.method, plane=table.plane,
        layout=fit.layout, template=template_name or template.name,
        plane_residuals=table.residuals, layout_residual_mm=fit.residual_rms_mm,
        problems=fit.problems, source_t_s=source_t_s, notes=notes)


def tile_size_ratio(tiles: list[DetectedTile], found_in: TablePlane, seen_by: TablePlane,
                    tile_mm: float) -> float | None:
    """Median measured tile side / the pack's, for tiles found through `found_in` and
    measured through `seen_by` (to compare two candidate planes without finding tiles twice)."""
    sides = []
    for tile in tiles:
        if len(tile.corners_mm) != 4:
            continue
        corners = seen_by.to_table_mm(found_in.to_pixels(np.array(tile.corners_mm)))
        sides.append(np.linalg.norm(np.roll(corners, -1, axis=0) - corners, axis=1).mean())
    return float(np.median(sides)) / tile_mm if sides else None


def _prefer_rim(image: np.ndarray, table: TableFit, tiles: list[DetectedTile],
                blobs: list[Blob], template: Layout, table_mm: tuple[float, float],
                notes: list[str]) -> tuple[TableFit, list[DetectedTile], list[Blob]]:
    """Take a rim's outer edge for the table's when the tiles' size says so."""
    lens = table.plane.intrinsics
    work = lens.undistort_image(image) if lens is not None else image
    inner = lens.undistort_points(table.corners_px) if lens is not None else table.corners_px
    outer = outer_edge_quad(work, inner)
    if outer is None:
        return table, tiles, blobs
    if lens is not None:
        outer = lens.distort_points(outer)
    alt = replace(find_plane(image, table_mm, corners_px=outer, intrinsics=lens), method="auto")
    r_in = tile_size_ratio(tiles, table.plane, table.plane, template.tile_mm)
    r_out = tile_size_ratio(tiles, table.plane, alt.plane, template.tile_mm)
    if r_in is None or r_out is None or abs(r_out - 1) >= abs(r_in - 1):
        return table, tiles, blobs
    inset_mm = float(np.median(np.abs(alt.plane.to_table_mm(table.corners_px))
                               - np.abs(table_corners_mm(table_mm))))
    notes.append(f"the cloth's edge lies {abs(inset_mm):.0f} mm inside the table's edge (a rim):"
                 " the outer edge is taken, as the tiles' size says")
    tiles, blobs = find_tiles(image, alt.plane, template, table_mm)
    return alt, tiles, blobs
