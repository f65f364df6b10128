"""Checking a new still against a saved profile: has the camera moved, or a tile been knocked?

Why: a bumped camera silently shifts every millimetre the referee measures, and a knocked tile
moves a gate.  The new still is read through the profile's plane; if the table's corners (when
they can be found again) or the tiles *all* moved together, the camera moved; a tile that moved
against the others was knocked (CONTRACT.md's `tile_moved`, with `by_mm`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from calibration.layout_fit import LayoutFit, Rigid, Tolerances, fit_layout
from calibration.pack import SUIT_SETS
from calibration.pipeline import find_plane, find_tiles, lower_tiles, prefer_rim
from calibration.plane import TablePlane, fit_plane, table_corners_mm
from calibration.problems import Problem
from calibration.profile import CalibrationProfile
from calibration.table_detect import CornerMarkers, TableNotFound, detect_corner_markers
from referee.layout import Layout


@dataclass(frozen=True)
class VerifyLimits:
    """Below these, nothing has moved (measurement noise is a few tenths of these)."""

    camera_px: float = 1.5
    camera_mm: float = 1.5
    camera_deg: float = 0.3
    tile_mm: float = 2.0


DEFAULT_LIMITS = VerifyLimits()


@dataclass(frozen=True)
class TileReading:
    """Where a still shows the tiles against their registered places."""

    fit: LayoutFit
    """The strict fit of the registered layout to the tiles found (its rigid part is the
    camera's move: one knocked tile does not carry it)."""
    offsets_mm: dict[str, float]
    """Each tile found: how far it lies from its registered place (after the rigid part)."""
    camera_moved: bool
    """The tiles moved together: the camera, not a knock (offsets then mean nothing)."""


@dataclass(frozen=True)
class TileCheck:
    """Reads where the tiles of a calibrated table stand now: the tiles are found through the
    profile's plane, stood on their feet, and fitted to the registered (fitted) layout.  What
    `verify` does for the tiles, and what vision asks after a flick that may have knocked
    one (`referee.vision.pipeline`): about 0.3 s a still at 720p."""

    plane: TablePlane
    layout: Layout
    table_mm: tuple[float, float]
    pack: str = "piecepackr"
    tile_thickness_mm: float = 0.0
    camera_mm: np.ndarray | None = None
    markers: CornerMarkers | None = None
    limits: VerifyLimits = DEFAULT_LIMITS

    @classmethod
    def from_profile(cls, profile: CalibrationProfile,
                     limits: VerifyLimits = DEFAULT_LIMITS) -> TileCheck:
        return cls(profile.plane, profile.layout, profile.table_mm, profile.pack,
                   profile.tile_thickness_mm, profile.camera_mm, profile.markers, limits)

    def read(self, image: np.ndarray) -> TileReading:
        colours = SUIT_SETS.get(self.pack)
        tiles, blobs = find_tiles(image, self.plane, self.layout, self.table_mm, self.markers,
                                  colours)
        tiles = lower_tiles(tiles, self.layout, self.plane, self.tile_thickness_mm,
                            camera_mm=self.camera_mm)
        strict = Tolerances(place_mm=self.limits.tile_mm, turn_deg=3.0,
                            layout_shift_mm=self.limits.camera_mm,
                            layout_turn_deg=self.limits.camera_deg)
        fit = fit_layout(self.layout, tiles, blobs, strict, colours)
        offsets = {}
        for name, tile in fit.matches.items():
            registered = fit.rigid.apply([self.layout.pieces[name].center_mm])[0]
            offsets[name] = float(np.hypot(*np.subtract(tile.center_mm, registered)))
        moved = (math.hypot(*fit.rigid.shift_mm) > self.limits.camera_mm
                 or abs(fit.rigid.angle_deg) > self.limits.camera_deg)
        return TileReading(fit, offsets, moved)


@dataclass
class VerifyReport:
    """What changed since calibration; `ok` when nothing did."""

    camera_moved: bool
    corner_shift_px: float | None
    scene_shift_mm: float
    scene_turn_deg: float
    knocked: dict[str, float] = field(default_factory=dict)  # tile → by_mm
    problems: list[Problem] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems

    def events(self, t: float = 0.0) -> list[dict[str, object]]:
        """The knocked tiles as CONTRACT.md `tile_moved` events."""
        return [{"t": t, "type": "tile_moved", "piece": name, "by_mm": round(by, 1)}
                for name, by in sorted(self.knocked.items())]

    def report(self) -> str:
        if self.ok:
            corners = ("" if self.corner_shift_px is None
                       else f"table corners within {self.corner_shift_px:.2f} px, ")
            return (f"verify: nothing moved ({corners}tiles within "
                    f"{self.scene_shift_mm:.2f} mm as a whole)")
        return "\n".join(["verify: changes found"] + [f"  {p.text}" for p in self.problems])


def _auto_corners(image: np.ndarray, profile: CalibrationProfile) -> np.ndarray:
    """The table's corners found again as calibration found them: the detected edge, then a
    rim's outer edge where the tiles' spacing says so (`pipeline.prefer_rim`)."""
    table = find_plane(image, profile.table_mm, intrinsics=profile.intrinsics)
    tiles, blobs = find_tiles(image, table.plane, profile.layout, profile.table_mm, None,
                              SUIT_SETS.get(profile.pack))
    if tiles:
        table, _tiles, _blobs = prefer_rim(image, table, tiles, blobs, profile.layout,
                                           profile.table_mm, [], profile.tile_thickness_mm)
    return table.corners_px


def verify(profile: CalibrationProfile, image: np.ndarray,
           limits: VerifyLimits = DEFAULT_LIMITS) -> VerifyReport:
    """Compare a new still of the same table with the profile it was calibrated into."""
    problems: list[Problem] = []
    h, w = image.shape[:2]
    if (w, h) != tuple(profile.image_size):
        problems.append(Problem(
            "image_size", "camera", None, "px",
            f"the image is {w}x{h} px, the profile's {profile.image_size[0]}x"
            f"{profile.image_size[1]} px: another camera or resolution"))
        return VerifyReport(True, None, math.nan, math.nan, {}, problems)

    corner_shift = None
    if profile.corners_method in ("auto", "aruco"):
        try:
            if profile.corners_method == "aruco" and profile.markers is not None:
                px, mm = detect_corner_markers(image, profile.table_mm, profile.markers)
                plane = fit_plane(px, mm, profile.intrinsics)
                corners = plane.to_pixels(table_corners_mm(profile.table_mm))
            else:
                corners = _auto_corners(image, profile)
            # the corners may have been rolled to put south where the towers say
            corner_shift = min(float(np.linalg.norm(np.roll(corners, k, axis=0)
                                                    - profile.corners_px, axis=1).max())
                               for k in range(4))
        except TableNotFound:
            problems.append(Problem("table_lost", "camera", None, "px",
                                    "the table's corners cannot be found again"))

    reading = TileCheck.from_profile(profile, limits).read(image)
    fit = reading.fit
    rigid: Rigid = fit.rigid
    shift_mm = math.hypot(*rigid.shift_mm)
    camera_moved = (corner_shift is not None and corner_shift > limits.camera_px) or \
        reading.camera_moved
    if camera_moved:
        how = [f"the tiles moved together by {shift_mm:.1f} mm and {rigid.angle_deg:+.2f}°"]
        if corner_shift is not None:
            how.insert(0, f"the table's corners moved up to {corner_shift:.1f} px")
        problems.append(Problem("camera_moved", "camera",
                                corner_shift if corner_shift is not None else shift_mm,
                                "px" if corner_shift is not None else "mm",
                                "the camera moved since calibration (" + "; ".join(how)
                                + "): calibrate again"))
    knocked: dict[str, float] = {}
    for p in fit.problems:
        if p.kind == "off_place" and p.size is not None:
            knocked[p.subject] = p.size
            problems.append(Problem("tile_moved", p.subject, p.size, "mm",
                                    f"{p.subject} was knocked {p.size:.1f} mm from its "
                                    f"calibrated place"))
        elif p.kind in ("missing", "turned", "unexpected", "wrong_top", "opening_narrow",
                        "opening_wide"):
            problems.append(p)
    return VerifyReport(camera_moved, corner_shift, shift_mm, rigid.angle_deg, knocked, problems)
