"""Calibration from one still image: table corners → plane → tiles → fitted layout → profile.

Why: `referee calibrate` and the web UI's calibration page run the same steps; this module is
that sequence, with the choices (how the corners are found, the lens, the tolerances) as
arguments and everything measured kept in the returned profile.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping
from dataclasses import dataclass, replace

import cv2
import numpy as np

from calibration.intrinsics import Intrinsics
from calibration.layout_fit import DEFAULT_TOLERANCES, LayoutFit, Tolerances, fit_layout
from calibration.lens_guess import lens_from_layout
from calibration.pack import SUIT_SETS
from calibration.plane import (
    Residuals,
    TablePlane,
    fit_plane,
    rectify,
    residuals,
    table_corners_mm,
)
from calibration.pose import (
    ASSUMED_HFOV_DEG,
    assumed_camera_centre_mm,
    camera_centre_mm,
    to_foot_mm,
)
from calibration.profile import CalibrationProfile
from calibration.session_start import learn_session_start
from calibration.sides import Sides, edge_bias_mm, top_centre_mm
from calibration.table_detect import (
    CornerMarkers,
    TableNotFound,
    aruco_marker_corners_mm,
    check_quad,
    detect_corner_markers,
    detect_table,
    outer_edge_lines,
    quad_from_lines,
    side_bow_px,
    side_lines,
)
from calibration.tiles import Blob, DetectedTile, detect_tiles
from referee.geometry import TILE_THICKNESS_MM
from referee.layout import Layout

RECTIFY_PX_PER_MM = 2.0
"""Resolution of the top-down image tiles are found in (0.5 mm pixels)."""
RIM_RATIO = (1.015, 1.12)
"""Tiles this much too big through the cloth's edge mean a rim round it (up to ~50 mm)."""


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
               table_mm: tuple[float, float], markers: CornerMarkers | None = None,
               colours: Mapping[str, tuple[int, int, int]] | None = None
               ) -> tuple[list[DetectedTile], list[Blob]]:
    """Tiles (and other blobs) on the table, in table mm; corner markers left out."""
    top, affine = rectify(image, plane, table_mm, RECTIFY_PX_PER_MM)
    ignore = []
    if markers is not None:
        quiet = markers.marker_mm / 4 + 3.0  # the white border printed round each marker
        for square in aruco_marker_corners_mm(table_mm, markers.marker_mm, markers.inset_mm):
            centre = square.mean(axis=0)
            ignore.append(centre + (square - centre) * (1 + 2 * quiet / markers.marker_mm))
    return detect_tiles(top, affine, template.tile_mm, colours, ignore_mm=ignore)


def measure_layout(image: np.ndarray, plane: TablePlane, template: Layout,
                   table_mm: tuple[float, float], tolerances: Tolerances = DEFAULT_TOLERANCES
                   ) -> LayoutFit:
    """Tiles found on the rectified table and fitted to the template."""
    tiles, blobs = find_tiles(image, plane, template, table_mm)
    return fit_layout(template, tiles, blobs, tolerances)


def lower_tiles(tiles: list[DetectedTile], template: Layout, plane: TablePlane,
                thickness_mm: float, tolerances: Tolerances = DEFAULT_TOLERANCES,
                camera_mm: np.ndarray | None = None) -> list[DetectedTile]:
    """Tiles moved from where their top faces appear to where they stand (see `pose`).

    A first matching tells each tile's height (a tower is `layers` tiles high) and size.
    Where a tile's four sides were measured, its top's centre is found from them knowing
    which sides show a side face to the camera (`sides`); then the top is stood on its foot.
    The camera is at `camera_mm`, or found from the intrinsics; without either, or without
    thickness, the tiles are returned as found.
    """
    camera = camera_mm if camera_mm is not None else camera_centre_mm(plane)
    if camera is None or thickness_mm <= 0 or not tiles:
        return tiles
    first = fit_layout(template, tiles, (), tolerances)
    pieces = {t.center_mm: template.pieces[name] for name, t in first.matches.items()}
    heights = [(pieces[t.center_mm].layers if t.center_mm in pieces else 1) * thickness_mm
               for t in tiles]
    sizes = [(pieces[t.center_mm].size_mm if t.center_mm in pieces else template.tile_mm)
             * camera[2] / (camera[2] - h) for t, h in zip(tiles, heights, strict=True)]
    outlined = [(Sides.of(t.corners_mm), h, s) for t, h, s in zip(tiles, heights, sizes,
                                                                    strict=True)
                if len(t.corners_mm) == 4]
    bias = edge_bias_mm(outlined, camera)
    lowered = []
    for tile, h, size in zip(tiles, heights, sizes, strict=True):
        top = np.array(tile.center_mm)
        corners = np.array(tile.corners_mm).reshape(-1, 2)
        if len(corners) == 4:
            top = top_centre_mm(Sides.of(corners), h, camera, size, bias)
            corners = corners + (top - corners.mean(axis=0))
        centre = to_foot_mm(top[None], h, camera)[0]
        corners = to_foot_mm(corners, h, camera)
        lowered.append(replace(tile, center_mm=(float(centre[0]), float(centre[1])),
                               corners_mm=tuple((float(x), float(y)) for x, y in corners)))
    return lowered


def _fit_badness(fit: LayoutFit) -> tuple[int, int]:
    """(towers showing a wrong suit, problems): fewer is a likelier south."""
    wrong = sum(1 if p.kind == "wrong_top" else int(p.size or 0)
                for p in fit.problems if p.kind in ("wrong_top", "castles_reversed"))
    return (wrong, len(fit.problems))


def south_turns(table: TableFit, tiles: list[DetectedTile], template: Layout,
                table_mm: tuple[float, float], tolerances: Tolerances = DEFAULT_TOLERANCES,
                colours: Mapping[str, tuple[int, int, int]] | None = None) -> int:
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
        scores[roll] = _fit_badness(fit_layout(template, moved, (), tolerances, colours))
    best = min(rolls, key=lambda r: scores[r])
    return best if scores[best] < scores[0] else 0


def calibrate_still(image: np.ndarray, template: Layout, table_mm: tuple[float, float], *,
                    source: str = "", source_kind: str = "image", source_t_s: float = 0.0,
                    template_name: str = "", corners_px: np.ndarray | None = None,
                    markers: CornerMarkers | None = None, intrinsics: Intrinsics | None = None,
                    tolerances: Tolerances = DEFAULT_TOLERANCES,
                    tile_thickness_mm: float = TILE_THICKNESS_MM,
                    pack: str = "piecepackr", faces: bool = True) -> CalibrationProfile:
    """Everything calibration measures in one still, as a profile ready to save.

    With intrinsics, tiles are placed where they stand, not where their raised tops appear
    (`tile_thickness_mm` a layer); without, the camera is taken to be straight above them,
    or the lens is guessed from the layout (`lens_guess`) when that brings the layout much
    truer to the template.
    With `faces`, a still of the session start (coins on their start spots) also gives each
    coin's look (`session_start`); otherwise the profile has no faces and a note says why.
    """
    args = dict(source=source, source_kind=source_kind, source_t_s=source_t_s,
                template_name=template_name, corners_px=corners_px, markers=markers,
                tolerances=tolerances, tile_thickness_mm=tile_thickness_mm, pack=pack,
                faces=faces)
    profile, tops = _calibrate_still(image, template, table_mm, intrinsics=intrinsics, **args)
    if intrinsics is not None or profile.layout_residual_mm is None:
        return profile
    h, w = image.shape[:2]
    lens = _guess_lens(tops, profile.plane, template, tile_thickness_mm, (w, h))
    if lens is None:
        return profile
    try:
        guessed, _ = _calibrate_still(image, template, table_mm, intrinsics=lens, **args)
    except TableNotFound:
        return profile  # the guess undistorts the table out of recognition
    if guessed.layout_residual_mm is None:
        return profile
    truer = guessed.layout_residual_mm <= LENS_GAIN * profile.layout_residual_mm
    if not truer and not _straightens(image, profile, guessed, lens):
        return profile
    guessed.notes.append(
        f"no lens calibration: a lens guessed from the tiles' layout (k1 "
        f"{float(lens.dist_coeffs.ravel()[0]):+.3f}) brings the layout from "
        f"{profile.layout_residual_mm:.2f} to {guessed.layout_residual_mm:.2f} mm off the "
        f"template; calibrating the lens (--chessboard) is better still")
    return guessed


def _straightens(image: np.ndarray, without: CalibrationProfile, guessed: CalibrationProfile,
                 lens: Intrinsics) -> bool:
    """Does the guessed lens straighten table sides that were clearly bent without it?

    The layout's residual alone can mislead: a table whose edge was put where the tiles'
    spacing says (a rim unseen) fits the tiles by construction, however bent the lens."""
    if without.corners_method != "auto" or guessed.corners_method != "auto":
        return False
    try:  # the edges as found (the table's or its cloth's), before any rim is put round them
        bent = side_bow_px(image, detect_table(image))
        straight = side_bow_px(lens.undistort_image(image),
                               lens.undistort_points(detect_table(image, lens)))
    except TableNotFound:
        return False
    return bent > BENT_PX and straight < 0.5 * bent


BENT_PX = 2.0
"""Table sides that bow more than this (px) were bent by the lens (measured: 8 px under the
demo game's k1 -0.27 at 720p, under 1 px with k1 -0.02)."""

LENS_GAIN = 0.6
"""A guessed lens is kept only when the layout's residual falls below this share of the
residual without it (measured: 0.65 -> 0.19 mm under a k1 -0.27 lens; 0.45 -> 0.82 mm,
worse, under a k1 -0.02 one)."""


def _guess_lens(tops: list[DetectedTile], plane: TablePlane, template: Layout,
                thickness_mm: float, image_size: tuple[int, int]) -> Intrinsics | None:
    """The lens that maps the template's tile tops to where the tiles' tops were found
    (`tops`, measured through `plane`)."""
    fit = fit_layout(template, tops, ())
    names = list(fit.matches)
    tops_mm = np.array([[*template.pieces[n].center_mm,
                         template.pieces[n].layers * thickness_mm] for n in names])
    tops_px = plane.to_pixels(np.array([fit.matches[n].center_mm for n in names]))
    return lens_from_layout(tops_mm.reshape(-1, 3), tops_px.reshape(-1, 2), image_size)


def _calibrate_still(image: np.ndarray, template: Layout, table_mm: tuple[float, float], *,
                     source: str, source_kind: str, source_t_s: float, template_name: str,
                     corners_px: np.ndarray | None, markers: CornerMarkers | None,
                     intrinsics: Intrinsics | None, tolerances: Tolerances,
                     tile_thickness_mm: float, pack: str, faces: bool
                     ) -> tuple[CalibrationProfile, list[DetectedTile]]:
    """The profile, and the tiles' tops as found through its plane (before standing them on
    their feet)."""
    table = find_plane(image, table_mm, corners_px=corners_px, markers=markers,
                       intrinsics=intrinsics)
    colours = SUIT_SETS[pack]
    tiles, blobs = find_tiles(image, table.plane, template, table_mm, markers, colours)
    roll = south_turns(table, tiles, template, table_mm, tolerances, colours) if (
        table.method == "auto" and tiles) else 0
    if roll:
        turned = find_plane(image, table_mm, corners_px=np.roll(table.corners_px, roll, axis=0),
                            intrinsics=intrinsics)
        table = replace(turned, method="auto")
        tiles, blobs = find_tiles(image, table.plane, template, table_mm, markers, colours)
    notes: list[str] = []
    if table.method == "auto" and tiles:
        table, tiles, blobs = prefer_rim(image, table, tiles, blobs, template, table_mm,
                                         notes, tile_thickness_mm)
    scales = layout_scale(tiles, table.plane, table.plane, template, tile_thickness_mm)
    if scales is not None and max(abs(s - 1) for s in scales) > 0.015:
        notes.append(f"the layout measures {100 * (scales[0] - 1):+.1f} % east-west and "
                     f"{100 * (scales[1] - 1):+.1f} % north-south against the template: is "
                     f"the table really {table_mm[0]:g} x {table_mm[1]:g} mm (--table-mm), and "
                     "are these its corners?")
    h, w = image.shape[:2]
    camera = camera_centre_mm(table.plane)
    fit = fit_layout(template, lower_tiles(tiles, template, table.plane, tile_thickness_mm,
                                           tolerances, camera), blobs, tolerances, colours)
    if camera is None and tile_thickness_mm > 0:
        # No lens calibration: try the parallax of a typical webcam's lens, and keep it if
        # the tiles stood on their feet by it lie truer to the template (a tower's top 13 mm
        # up appears a few millimetres outwards; a flat picture shows no parallax).
        assumed = assumed_camera_centre_mm(table.plane, (w, h))
        lowered = fit_layout(template, lower_tiles(tiles, template, table.plane,
                                                   tile_thickness_mm, tolerances, assumed),
                             blobs, tolerances, colours)
        if (lowered.residual_rms_mm or math.inf) < (fit.residual_rms_mm or math.inf):
            camera, fit = assumed, lowered
            notes.append(f"no lens calibration: the camera's position (for the parallax of "
                         f"raised tops) is estimated for a {ASSUMED_HFOV_DEG:g}° lens")
    models = None
    if faces:
        models, note = learn_session_start(image, table.plane, fit.layout, pack)
        notes.append(note)
    return CalibrationProfile(
        source=source, source_kind=source_kind, image_size=(w, h), table_mm=table_mm,
        corners_px=table.corners_px, corners_method=table.method, plane=table.plane,
        layout=fit.layout, template=template_name or template.name,
        plane_residuals=table.residuals, layout_residual_mm=fit.residual_rms_mm,
        problems=fit.problems, source_t_s=source_t_s, notes=notes,
        tile_thickness_mm=tile_thickness_mm, camera_mm=camera,
        markers=markers, pack=pack, faces=models), tiles


def layout_affine(tiles: list[DetectedTile], found_in: TablePlane, seen_by: TablePlane,
                  template: Layout, thickness_mm: float = 0.0) -> np.ndarray | None:
    """The affine map (2×3, RANSAC) from the template's tile centres to the tiles' as
    measured through `seen_by` (None: fewer than 4 tiles matched).

    Tiles found through `found_in` are re-measured through `seen_by` (to compare candidate
    planes without finding tiles twice), stood on their feet and matched.  Centre spacing is
    used rather than tile size, which a tilted camera inflates with the tiles' visible sides.
    """
    if len(tiles) < 3:
        return None
    px = found_in.to_pixels(np.array([t.center_mm for t in tiles]))
    moved = [replace(t, center_mm=(float(x), float(y)), corners_mm=())
             for t, (x, y) in zip(tiles, seen_by.to_table_mm(px), strict=True)]
    moved = lower_tiles(moved, template, seen_by, thickness_mm)
    fit = fit_layout(template, moved, ())
    if len(fit.matches) < 4:
        return None
    src = np.array([template.pieces[n].center_mm for n in fit.matches], np.float64)
    dst = np.array([t.center_mm for t in fit.matches.values()], np.float64)
    m, _ = cv2.estimateAffine2D(src, dst, method=cv2.RANSAC, ransacReprojThreshold=3.0)
    return m


def layout_scale(tiles: list[DetectedTile], found_in: TablePlane, seen_by: TablePlane,
                 template: Layout, thickness_mm: float = 0.0) -> tuple[float, float] | None:
    """How much bigger the tiles' layout measures than the template through `seen_by`,
    east-west and north-south: the two scales of `layout_affine`."""
    m = layout_affine(tiles, found_in, seen_by, template, thickness_mm)
    return None if m is None else _scales(m)


def _scales(affine: np.ndarray) -> tuple[float, float]:
    """An affine map's scales east-west and north-south (its columns' lengths)."""
    return float(np.linalg.norm(affine[:, 0])), float(np.linalg.norm(affine[:, 1]))


def prefer_rim(image: np.ndarray, table: TableFit, tiles: list[DetectedTile],
               blobs: list[Blob], template: Layout, table_mm: tuple[float, float],
               notes: list[str], thickness_mm: float
               ) -> tuple[TableFit, list[DetectedTile], list[Blob]]:
    """Take a rim's outer edge for the table's, side by side, where the tiles' spacing says so.

    Each side may have a second edge just outside (`outer_edge_lines`); of all choices of
    inner or outer edge per side, the one whose plane measures the tiles' layout truest to the
    template (scales nearest 1 both ways) is kept.  With no second edge to see (a rim as dark
    as the floor) but a layout clearly too big, the table's edge is put where the scales say.
    """
    lens = table.plane.intrinsics
    work = lens.undistort_image(image) if lens is not None else image
    inner = lens.undistort_points(table.corners_px) if lens is not None else table.corners_px
    current = side_lines(inner)
    outer = outer_edge_lines(work, inner)

    def plane_of(lines: list) -> TableFit | None:
        corners = quad_from_lines(lines)
        if check_quad(corners):
            return None
        if lens is not None:
            corners = lens.distort_points(corners)
        return replace(find_plane(image, table_mm, corners_px=corners, intrinsics=lens),
                       method="auto")

    def badness(fit: TableFit | None) -> float:
        scales = None if fit is None else layout_scale(tiles, table.plane, fit.plane,
                                                        template, thickness_mm)
        return math.inf if scales is None else abs(scales[0] - 1) + abs(scales[1] - 1)

    best, best_bad, moved = table, badness(table), 0
    options = [[current[i]] + ([outer[i]] if outer[i] is not None else []) for i in range(4)]
    for choice in itertools.product(*(range(len(o)) for o in options)):
        if not any(choice):
            continue
        candidate = plane_of([options[i][c] for i, c in enumerate(choice)])
        bad = badness(candidate)
        if candidate is not None and bad < best_bad - 0.004:
            best, best_bad, moved = candidate, bad, sum(1 for c in choice if c)
    m = layout_affine(tiles, table.plane, best.plane, template, thickness_mm)
    grow = np.array([RIM_RATIO[0] < v < RIM_RATIO[1] for v in
                     ((1.0, 1.0) if m is None else _scales(m))])
    if m is not None and grow.any():
        # No (further) edge to see, but a layout clearly too big: the tiles are the ruler.
        # The table's edges go where the tiles' layout puts them, each side on its own (a
        # rim seen on one side and not the other leaves the layout off centre).
        corners_mm = table_corners_mm(table_mm)
        by_tiles = corners_mm @ m[:, :2].T + m[:, 2]
        grown = best.plane.to_pixels(np.where(grow, by_tiles, corners_mm))
        best = replace(find_plane(image, table_mm, corners_px=grown, intrinsics=lens),
                       method="auto")
        moved = 4
    if best is table:
        return table, tiles, blobs
    inset_mm = float(np.max(np.abs(np.abs(best.plane.to_table_mm(table.corners_px))
                                   - np.abs(table_corners_mm(table_mm)))))
    notes.append(f"the cloth's edge lies up to {inset_mm:.0f} mm inside the table's edge (a rim) "
                 f"on {moved} side(s): the table's edge is taken where the tiles' spacing puts it")
    tiles, blobs = find_tiles(image, best.plane, template, table_mm)
    return best, tiles, blobs
