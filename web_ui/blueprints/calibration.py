"""The calibration page: the camera still with the fitted layout drawn over it, every problem
listed, and handles to put the table's corners or a tile right by dragging.

The app keeps **one** working calibration in memory (the still, the template and the current
profile; a new run replaces it), so memory stays bounded whatever is uploaded.  Everything
that changes it needs the table PIN and the page's CSRF token, from this origin.  A still is
either uploaded (multipart field ``image``, at most `MAX_UPLOAD` bytes, decoded with
``cv2.imdecode``) or the configured calibration source ``CALIBRATION_SOURCE`` of the app's
config: the client can only ask for *that* file, never name a path.

Endpoints:

* ``GET /calibration`` — the page;
* ``POST /api/calibration/run`` — multipart ``image``, or JSON ``{"source": "configured"}``:
  automatic calibration; the summary comes back (see `summary`);
* ``POST /api/calibration/corners`` ``{"corners": [[x, y] ×4]}`` — recalibrate with these
  corners (SW SE NE NW, in the still's pixels): 4 points, inside the still, convex, that order;
* ``POST /api/calibration/tile`` ``{"name": "door-3-a", "x": px, "y": px}`` — the tile lies
  there (pixels → mm through the plane); the layout's problems are checked again;
* ``GET /api/calibration/summary`` — the current summary (404 before a run);
* ``GET /api/calibration/image`` — the working still (JPEG);
* ``GET /api/calibration/profile`` — the current profile JSON, as a download.
"""

from __future__ import annotations

import json
import math
import threading
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import cv2
import numpy as np
from flask import Blueprint, Flask, Response, abort, current_app, jsonify, render_template, request

from calibration.layout_fit import fit_layout
from calibration.pipeline import calibrate_still
from calibration.problems import Problem
from calibration.profile import CalibrationProfile
from calibration.table_detect import check_quad
from calibration.tiles import DetectedTile
from referee.layout import Layout, castle_croquetnole_layout
from web_ui.blueprints.security import requires_pin

bp = Blueprint("calibration", __name__)

MAX_UPLOAD = 16 * 1024 * 1024
"""Bytes of an uploaded still."""
MAX_SIDE = 8192
"""Pixels: a larger still is refused."""
MAX_BODY = 4096
TEMPLATE_NAME = "castle-croquetnole"
KEPT_KINDS = ("wrong_top", "size", "unexpected")
"""Problems a dragged tile cannot change: they come from what the camera saw."""


@dataclass
class Work:
    """The working calibration: the still, its template and table, the current profile."""

    image: np.ndarray
    template: Layout
    table_mm: tuple[float, float]
    profile: CalibrationProfile
    source: str


class Workbench:
    """One working calibration per app, behind a lock."""

    def __init__(self) -> None:
        self.work: Work | None = None
        self.lock = threading.Lock()


def _bench() -> Workbench:
    app: Flask = current_app  # type: ignore[assignment]
    return app.extensions.setdefault("calibration_work", Workbench())  # type: ignore[no-any-return]


def _current() -> Work:
    work = _bench().work
    if work is None:
        abort(404, "no calibration yet: upload a still first")
    return work


# ------------------------------------------------------------------------------ helpers


def _template() -> tuple[Layout, tuple[float, float]]:
    template = castle_croquetnole_layout()
    xs = [p[0] for p in template.table]
    ys = [p[1] for p in template.table]
    return template, (max(xs) - min(xs), max(ys) - min(ys))


def _decode(data: bytes) -> np.ndarray:
    image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR) if data else None
    if image is None:
        abort(400, "the upload is not an image (PNG, JPEG, …) OpenCV can read")
    h, w = image.shape[:2]
    if max(h, w) > MAX_SIDE or min(h, w) < 32:
        abort(400, f"the image is {w}x{h} pixels; 32 to {MAX_SIDE} pixels a side please")
    return image


def _still() -> tuple[np.ndarray, str]:
    """The still to calibrate: the upload, or the configured calibration source."""
    if (request.content_length or 0) > MAX_UPLOAD:
        abort(413, f"the upload is too large (at most {MAX_UPLOAD // (1024 * 1024)} MB)")
    if request.mimetype == "multipart/form-data":
        upload = request.files.get("image")
        if upload is None:
            abort(400, "send the still as the multipart field 'image'")
        try:
            data = upload.stream.read(MAX_UPLOAD + 1)
        finally:
            upload.close()
        if len(data) > MAX_UPLOAD:
            abort(413, f"the upload is too large (at most {MAX_UPLOAD // (1024 * 1024)} MB)")
        name = Path(upload.filename or "upload").name[:100]
        return _decode(data), name
    data = _json()
    if data.get("source") != "configured":
        abort(400, 'upload an image, or send {"source": "configured"}; paths are not accepted')
    configured = current_app.config.get("CALIBRATION_SOURCE")
    if not configured:
        abort(404, "no calibration source is configured for this referee")
    path = Path(str(configured))
    try:
        if path.stat().st_size > MAX_UPLOAD:
            abort(413, "the configured calibration source is too large")
        raw = path.read_bytes()
    except OSError:
        abort(404, "the configured calibration source cannot be read")
    return _decode(raw), path.name


def _json() -> dict[str, Any]:
    if (request.content_length or 0) > MAX_BODY or len(request.get_data(cache=True)) > MAX_BODY:
        abort(413, f"the body is too large (at most {MAX_BODY} bytes)")
    if not request.is_json:
        abort(415, "send JSON (Content-Type: application/json)")
    data = request.get_json(silent=True)
    if not isinstance(data, dict):
        abort(400, "the body must be a JSON object")
    return data


def _number(value: Any, what: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        abort(400, f"{what} must be a finite number")
    return float(value)


def _corners(raw: Any, size: tuple[int, int]) -> np.ndarray:
    """4 corners SW SE NE NW inside the still, convex and in that order — or 400."""
    if not isinstance(raw, list) or len(raw) != 4:
        abort(400, "corners must be 4 points [x, y] in the order SW, SE, NE, NW")
    points = []
    for i, point in enumerate(raw):
        if not isinstance(point, list | tuple) or len(point) != 2:
            abort(400, f"corner {i + 1} must be [x, y]")
        points.append([_number(point[0], f"corner {i + 1} x"),
                       _number(point[1], f"corner {i + 1} y")])
    corners = np.array(points, np.float64)
    w, h = size
    if (corners < -0.5).any() or (corners[:, 0] > w - 0.5).any() or (
            corners[:, 1] > h - 0.5).any():
        abort(400, f"the corners must lie inside the {w}x{h} image")
    problems = check_quad(corners)
    if problems:
        abort(400, problems[0])
    return corners


def _calibrate(image: np.ndarray, source: str, corners: np.ndarray | None = None) -> Work:
    template, table_mm = _template()
    try:
        profile = calibrate_still(image, template, table_mm, source=source,
                                  template_name=TEMPLATE_NAME, corners_px=corners)
    except ValueError as exc:  # TableNotFound and friends: the still, not the server
        abort(422, f"calibration failed: {exc}")
    return Work(image, template, table_mm, profile, source)


def _recheck(work: Work, name: str, center_mm: tuple[float, float]) -> CalibrationProfile:
    """The profile with `name` at `center_mm`: the layout fitted again to the fitted tiles."""
    profile = work.profile
    missing = {p.subject for p in profile.problems if p.kind == "missing"} - {name}
    tiles = []
    for piece in profile.layout.pieces.values():
        if piece.name in missing:
            continue
        centre = center_mm if piece.name == name else piece.center_mm
        expected = work.template.pieces[piece.name]
        ink = next((s for s in ("moons", "suns", "crowns", "arms")
                    if expected.top and expected.top.endswith(s)), None)
        angle = (piece.angle_deg + 45.0) % 90.0 - 45.0
        tiles.append(DetectedTile((float(centre[0]), float(centre[1])), angle,
                                  piece.size_mm, ink=ink))
    fit = fit_layout(work.template, tiles)
    kept = [p for p in profile.problems if p.kind in KEPT_KINDS]
    problems: list[Problem] = [p for p in fit.problems if p.kind not in KEPT_KINDS] + kept
    notes = [n for n in profile.notes if not n.startswith("moved by hand:")]
    moved = [n for n in profile.notes if n.startswith("moved by hand:")
             and not n.startswith(f"moved by hand: {name} ")]
    moved.append(f"moved by hand: {name} to {center_mm[0]:.1f}, {center_mm[1]:.1f} mm")
    return replace(profile, layout=fit.layout, problems=problems,
                   layout_residual_mm=fit.residual_rms_mm, notes=notes + moved)


def _px(plane_points: np.ndarray) -> list[list[float]]:
    return [[round(float(x), 2), round(float(y), 2)] for x, y in plane_points]


def summary(work: Work) -> dict[str, Any]:
    """What the page draws: corners, tiles and lines in pixels, problems, residuals, notes."""
    profile = work.profile
    plane = profile.plane
    layout = profile.layout
    by_subject: dict[str, list[str]] = {}
    for p in profile.problems:
        by_subject.setdefault(p.subject, []).append(p.kind)
    tiles = []
    for piece in layout.pieces.values():
        corners = plane.to_pixels(np.array(piece.footprint(), np.float64))
        centre = plane.to_pixels(np.array([piece.center_mm], np.float64))[0]
        tiles.append({"name": piece.name, "role": piece.role, "corners_px": _px(corners),
                      "center_px": _px([centre])[0],
                      "center_mm": [round(piece.center_mm[0], 2), round(piece.center_mm[1], 2)],
                      "problems": by_subject.get(piece.name, [])})
    lines = []
    for line in layout.lines.values():
        ends = plane.to_pixels(np.array([line.a, line.b], np.float64))
        lines.append({"name": line.name, "a_px": _px(ends)[0], "b_px": _px(ends)[1],
                      "problems": by_subject.get(line.name, [])})
    res = profile.to_json()["residuals"]
    return {
        "source": work.source, "image_size": list(profile.image_size),
        "table_mm": list(profile.table_mm), "corners_px": _px(profile.corners_px),
        "corners_method": profile.corners_method, "tiles": tiles, "lines": lines,
        "problems": [p.to_json() for p in profile.problems], "residuals": res,
        "notes": list(profile.notes),
    }


# ------------------------------------------------------------------------------ routes


@bp.get("/calibration")
def page() -> str:
    """The calibration page."""
    return render_template("calibration.html", page="calibration",
                           configured=bool(current_app.config.get("CALIBRATION_SOURCE")))


@bp.post("/api/calibration/run")
@requires_pin
def run() -> Response:
    """Automatic calibration of an uploaded still or of the configured calibration source."""
    image, source = _still()
    work = _calibrate(image, source)
    bench = _bench()
    with bench.lock:
        bench.work = work
        return jsonify(summary(work))


@bp.post("/api/calibration/corners")
@requires_pin
def corners() -> Response:
    """Calibrate the working still again with the table's corners where they were dragged."""
    data = _json()
    bench = _bench()
    with bench.lock:
        work = _current()
        given = _corners(data.get("corners"), work.profile.image_size)
        bench.work = _calibrate(work.image, work.source, given)
        return jsonify(summary(bench.work))


@bp.post("/api/calibration/tile")
@requires_pin
def tile() -> Response:
    """One tile lies where it was dragged; the layout's problems are checked again."""
    data = _json()
    bench = _bench()
    with bench.lock:
        work = _current()
        name = data.get("name")
        if not isinstance(name, str) or name not in work.profile.layout.pieces:
            abort(404, f"no tile named {str(name)[:40]!r} in the layout")
        x, y = _number(data.get("x"), "x"), _number(data.get("y"), "y")
        w, h = work.profile.image_size
        if not (-0.5 <= x <= w - 0.5 and -0.5 <= y <= h - 0.5):
            abort(400, f"the tile must be dropped inside the {w}x{h} image")
        mm = work.profile.plane.to_table_mm(np.array([[x, y]]))[0]
        tw, th = work.table_mm
        if abs(mm[0]) > tw / 2 or abs(mm[1]) > th / 2:
            abort(400, "the tile must be dropped on the table")
        work.profile = _recheck(work, name, (float(mm[0]), float(mm[1])))
        return jsonify(summary(work))


@bp.get("/api/calibration/summary")
def current() -> Response:
    """The working calibration's summary."""
    return jsonify(summary(_current()))


@bp.get("/api/calibration/image")
def image() -> Response:
    """The working still, as a JPEG."""
    ok, buf = cv2.imencode(".jpg", _current().image, [cv2.IMWRITE_JPEG_QUALITY, 88])
    if not ok:
        abort(500, "cannot encode the still")
    return Response(buf.tobytes(), mimetype="image/jpeg")


@bp.get("/api/calibration/profile")
def profile() -> Response:
    """The current profile JSON as a download (what `referee analyze` reads)."""
    text = json.dumps(_current().profile.to_json(), indent=1) + "\n"
    return Response(text, mimetype="application/json", headers={
        "Content-Disposition": 'attachment; filename="calibration-profile.json"'})

