"""The calibration profile: a versioned JSON file with everything calibration measured.

Why: `referee analyze` and `referee calibrate --verify` need the camera, the table plane and
the *fitted* layout (measured tile positions) long after calibration ran.  Loading validates
the whole file and reports every problem in one error (`ProfileError.problems`).
"""

from __future__ import annotations

import datetime as dt
import json
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from calibration.faces import FaceModels, faces_from_json
from calibration.intrinsics import Intrinsics
from calibration.pack import SUIT_SETS
from calibration.plane import Residuals, TablePlane
from calibration.problems import Problem
from calibration.table_detect import CornerMarkers
from referee.layout import Layout, LayoutError, layout_from_json

FORMAT = "piecepack-calibration"
VERSION = 1


class ProfileError(ValueError):
    """A profile that cannot be used; `problems` lists every problem found."""

    def __init__(self, problems: list[str], source: str = "profile") -> None:
        self.problems = list(problems)
        self.source = source
        super().__init__(f"{source}: {len(self.problems)} problem(s): " + "; ".join(self.problems))


@dataclass
class CalibrationProfile:
    """A calibrated camera over a table: plane, corners, fitted layout, residuals, problems."""

    source: str
    source_kind: str  # image | video
    image_size: tuple[int, int]  # width, height in pixels
    table_mm: tuple[float, float]
    corners_px: np.ndarray  # 4x2, SW SE NE NW, camera pixels
    corners_method: str  # auto | manual | aruco
    plane: TablePlane
    layout: Layout  # the fitted layout: measured positions
    template: str  # the layout the fit started from (a name or a file)
    plane_residuals: Residuals | None = None
    layout_residual_mm: float | None = None  # RMS distance of fitted tiles from the template
    problems: list[Problem] = field(default_factory=list)
    source_t_s: float = 0.0
    notes: list[str] = field(default_factory=list)  # what calibration decided, for people
    tile_thickness_mm: float = 0.0  # a tile layer's height, for raised tops
    camera_mm: np.ndarray | None = None
    """The lens centre (x, y, z), for the parallax of raised things: from the intrinsics, or
    with an assumed lens without them (`pose.assumed_camera_centre_mm`)."""
    markers: CornerMarkers | None = None  # the ArUco corner markers, when they were used
    pack: str = "piecepackr"  # the suit colour set (calibration.pack.SUIT_SETS)
    created: str = field(default_factory=lambda: dt.datetime.now(dt.UTC).isoformat(
        timespec="seconds"))
    faces: FaceModels | None = None  # the coins' learned faces (calibration.faces), if any

    @property
    def intrinsics(self) -> Intrinsics | None:
        return self.plane.intrinsics

    def to_json(self) -> dict[str, Any]:
        h = self.plane.homography
        out = {
            "format": FORMAT,
            "version": VERSION,
            "created": self.created,
            "source": {"path": self.source, "kind": self.source_kind,
                       "t_s": round(self.source_t_s, 3)},
            "image_size": [int(self.image_size[0]), int(self.image_size[1])],
            "intrinsics": None if self.intrinsics is None else self.intrinsics.to_json(),
            "table": {
                "size_mm": [float(self.table_mm[0]), float(self.table_mm[1])],
                "corners_px": [[round(float(x), 4), round(float(y), 4)]
                               for x, y in self.corners_px],
                "corners_order": "SW SE NE NW",
                "corners_method": self.corners_method,
                "markers": None if self.markers is None else {
                    "marker_mm": self.markers.marker_mm, "inset_mm": self.markers.inset_mm,
                    "dictionary": self.markers.dictionary, "ids": list(self.markers.ids)},
            },
            "homography_mm_to_px": [[float(v) for v in row] for row in h],
            "residuals": {
                "plane": None if self.plane_residuals is None else self.plane_residuals.to_json(),
                "layout_rms_mm": None if self.layout_residual_mm is None
                else round(self.layout_residual_mm, 4),
            },
            "template": self.template,
            "tile_thickness_mm": float(self.tile_thickness_mm),
            "pack": self.pack,
            "camera_mm": None if self.camera_mm is None
            else [round(float(v), 3) for v in self.camera_mm],
            "layout": self.layout.to_json(),
            "problems": [p.to_json() for p in self.problems],
            "notes": list(self.notes),
        }
        if self.faces is not None:  # optional: absent means no learned faces
            out["faces"] = self.faces.to_json()
        return out

    def save(self, path: str | Path) -> None:
        Path(path).write_text(json.dumps(self.to_json(), indent=1) + "\n", encoding="utf-8")


def _numbers(value: Any, shape: tuple[int, ...], what: str, problems: list[str]
             ) -> np.ndarray | None:
    if value is None:
        if "." in what:  # missing top-level keys are reported once, by the caller
            problems.append(f"{what} is missing")
        return None
    try:
        arr = np.array(value, dtype=np.float64)
    except (TypeError, ValueError):
        problems.append(f"{what} must be numbers of shape {shape}")
        return None
    if arr.shape != shape or not np.all(np.isfinite(arr)):
        problems.append(f"{what} must be finite numbers of shape {shape}, got {arr.shape}")
        return None
    return arr


def profile_from_json(data: Any, source: str = "profile") -> CalibrationProfile:
    """Build and validate a profile; raise ProfileError listing every problem found."""
    if not isinstance(data, dict):
        raise ProfileError(["the profile must be a JSON object"], source)
    problems: list[str] = []
    if data.get("format") != FORMAT:
        problems.append(f"'format' must be {FORMAT!r}, got {data.get('format')!r}")
    if data.get("version") != VERSION:
        problems.append(f"'version' must be {VERSION}, got {data.get('version')!r}")
    for key in ("created", "source", "image_size", "table", "homography_mm_to_px", "layout"):
        if key not in data:
            problems.append(f"missing {key!r}")
    src = data.get("source") if isinstance(data.get("source"), dict) else {}
    table = data.get("table") if isinstance(data.get("table"), dict) else {}
    size = _numbers(data.get("image_size"), (2,), "'image_size'", problems)
    if size is not None and np.any(size <= 0):
        problems.append("'image_size' must be positive")
    table_mm = _numbers(table.get("size_mm"), (2,), "'table.size_mm'", problems)
    if table_mm is not None and np.any(table_mm <= 0):
        problems.append("'table.size_mm' must be positive")
    corners = _numbers(table.get("corners_px"), (4, 2), "'table.corners_px'", problems)
    method = table.get("corners_method", "auto")
    if method not in ("auto", "manual", "aruco"):
        problems.append(f"'table.corners_method' must be auto, manual or aruco, got {method!r}")
    homography = _numbers(data.get("homography_mm_to_px"), (3, 3), "'homography_mm_to_px'",
                          problems)
    if homography is not None and abs(np.linalg.det(homography)) < 1e-12:
        problems.append("'homography_mm_to_px' is singular")
    intrinsics = None
    if data.get("intrinsics") is not None:
        try:
            intrinsics = Intrinsics.from_json(data["intrinsics"])
        except ValueError as exc:
            problems.append(str(exc))
    layout = None
    if "layout" in data:
        try:
            layout = layout_from_json(data["layout"], "layout")
        except LayoutError as exc:
            problems.extend(f"layout: {p}" for p in exc.problems)
    found: list[Problem] = []
    raw_problems = data.get("problems", [])
    if not isinstance(raw_problems, list):
        problems.append("'problems' must be a list")
        raw_problems = []
    for item in raw_problems:
        try:
            found.append(Problem.from_json(item))
        except ValueError as exc:
            problems.append(str(exc))
    residuals = data.get("residuals") if isinstance(data.get("residuals"), dict) else {}
    plane_res = None
    if isinstance(residuals.get("plane"), dict):
        r = residuals["plane"]
        try:
            plane_res = Residuals(float(r["rms_px"]), float(r["max_px"]), float(r["rms_mm"]),
                                  float(r["max_mm"]), int(r["count"]))
        except (KeyError, TypeError, ValueError):
            problems.append("'residuals.plane' needs rms_px, max_px, rms_mm, max_mm, count")
    layout_rms = residuals.get("layout_rms_mm")
    if layout_rms is not None and (isinstance(layout_rms, bool)
                                   or not isinstance(layout_rms, int | float)
                                   or not math.isfinite(layout_rms)):
        problems.append("'residuals.layout_rms_mm' must be a number or null")
        layout_rms = None
    thickness = data.get("tile_thickness_mm", 0.0)
    if isinstance(thickness, bool) or not isinstance(thickness, int | float) or thickness < 0:
        problems.append("'tile_thickness_mm' must be a number ≥ 0")
        thickness = 0.0
    camera = None
    if data.get("camera_mm") is not None:
        camera = _numbers(data["camera_mm"], (3,), "'camera_mm'", problems)
    markers = None
    if table.get("markers") is not None:
        m = table["markers"]
        try:
            markers = CornerMarkers(float(m["marker_mm"]), float(m["inset_mm"]),
                                    str(m["dictionary"]), tuple(int(i) for i in m["ids"]))
            if len(markers.ids) != 4:
                raise ValueError
        except (KeyError, TypeError, ValueError):
            problems.append("'table.markers' needs marker_mm, inset_mm, dictionary and 4 ids")
            markers = None
    pack = data.get("pack", "piecepackr")
    if pack not in SUIT_SETS:
        problems.append(f"'pack' must be one of {', '.join(SUIT_SETS)}, got {pack!r}")
        pack = "piecepackr"
    notes = data.get("notes", [])
    if not isinstance(notes, list) or not all(isinstance(n, str) for n in notes):
        problems.append("'notes' must be a list of strings")
        notes = []
    if not isinstance(data.get("created", ""), str):
        problems.append("'created' must be an ISO date-time string")
    faces, face_problems = faces_from_json(data.get("faces"))
    problems.extend(face_problems)
    if problems:
        raise ProfileError(problems, source)
    assert size is not None and table_mm is not None and corners is not None
    assert homography is not None and layout is not None
    return CalibrationProfile(
        source=str(src.get("path", "")), source_kind=str(src.get("kind", "image")),
        image_size=(int(size[0]), int(size[1])), table_mm=(float(table_mm[0]),
                                                           float(table_mm[1])),
        corners_px=corners, corners_method=method,
        plane=TablePlane(homography, intrinsics), layout=layout,
        template=str(data.get("template", layout.name)), plane_residuals=plane_res,
        layout_residual_mm=None if layout_rms is None else float(layout_rms), problems=found,
        source_t_s=float(src.get("t_s", 0.0) or 0.0), notes=notes,
        tile_thickness_mm=float(thickness), camera_mm=camera, markers=markers,
        pack=pack, faces=faces,
        created=str(data["created"]))


def load_profile(path: str | Path) -> CalibrationProfile:
    """Read a profile JSON file; ProfileError names the file and every problem."""
    path = Path(path)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ProfileError([f"cannot read ({exc.strerror})"], str(path)) from None
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise ProfileError([f"not valid JSON ({exc})"], str(path)) from None
    return profile_from_json(data, str(path))
