"""The JSON API.  GET endpoints are open and read-only; POSTs need the PIN and CSRF token.

Read endpoints take an optional `?session=ID` (default: the session on show).
"""

from __future__ import annotations

import math
import re
import threading
from collections import OrderedDict
from pathlib import Path
from typing import Any

from flask import Blueprint, Response, abort, current_app, jsonify, request, send_file

from referee.rules.base import OptionError, RulesError, make_game
from referee.session import SessionError, SessionRunner
from referee.store import StoreError, read_bundle
from referee.vision.capture import VideoError
from referee.vision.source import VideoFrames
from web_ui import get_referee
from web_ui.blueprints.security import error, json_body, requires_pin

bp = Blueprint("api", __name__, url_prefix="/api")

RULING_ID = re.compile(r"^\d{1,9}\.\d{1,4}$")
DECLARABLE = ("croquet", "end_play")
CONTROL_ACTIONS = ("pause", "resume", "seek", "speed")
MAX_TEXT = 300


@bp.errorhandler(SessionError)
def _session_error(exc: SessionError) -> Response:
    return error(exc.status, str(exc))


@bp.errorhandler(StoreError)
def _store_error(exc: StoreError) -> Response:
    return error(400, str(exc))


def _session_arg() -> int | None:
    raw = request.args.get("session")
    if raw is None or raw == "":
        return None
    if not raw.isdigit() or len(raw) > 9:
        abort(400, "session must be a session number")
    return int(raw)


def _runner() -> SessionRunner:
    return get_referee().runner(_session_arg())


# ------------------------------------------------------------------------------ reading


@bp.get("/state")
def state() -> Response:
    """The CONTRACT.md final-state summary of the session so far."""
    return jsonify(_runner().summary())


@bp.get("/rulings")
def rulings() -> Response:
    """Every ruling so far, in order (marked provisional / overruled)."""
    return jsonify(_runner().ruling_list())


@bp.get("/events")
def events() -> Response:
    """The session's events so far (physical events, declarations, overrides)."""
    return jsonify(_runner().event_list())


@bp.get("/session")
def session() -> Response:
    """The session's header: status, clock, source, playback."""
    return jsonify(_runner().info())


@bp.get("/snapshot")
def snapshot() -> Response:
    """Everything the scoreboard needs at once."""
    return jsonify(_runner().snapshot())


@bp.get("/layout")
def layout() -> Response:
    """The table layout in millimetres (tiles, lines, castles) for the map."""
    runner = _runner()
    lay = getattr(runner.game, "layout", None)
    if lay is None:
        abort(404, "this game has no layout")
    return jsonify(lay.to_json())


@bp.get("/options")
def options() -> Response:
    """The game's house-rule options with their values in this session and their choices."""
    runner = _runner()
    from referee.rules.croquetnole_options import OPTIONS

    out = []
    if runner.game_name == "castle-croquetnole":
        for opt in OPTIONS:
            out.append({"name": opt.name, "default": opt.default,
                        "value": runner.game.options.get(opt.name),
                        "choices": list(opt.choices) if opt.choices else
                        ([True, False] if opt.kind is bool else None),
                        "kind": opt.kind.__name__, "where": opt.where})
    return jsonify(out)


@bp.get("/flicks")
def flicks() -> Response:
    """Every flick: its events and rulings (for the dispute view)."""
    return jsonify([{k: v for k, v in f.items() if k != "events"}
                    for f in _runner().flicks()])


@bp.get("/flicks/<int:seq>")
def flick(seq: int) -> Response:
    """One flick with its events, rulings and the clip (with pre-roll) when there is video."""
    runner = _runner()
    found = next((f for f in runner.flicks() if f["seq"] == seq), None)
    if found is None:
        abort(404, f"no flick at event {seq}")
    store = get_referee().store
    info = store.session(runner.id)
    clip = None
    if info.video:
        pre = float(current_app.config["PREROLL_S"])
        start, end = max(0.0, found["t"] - pre), (found["end_t"] or found["t"]) + 1.0
        frames = [[f, round(t, 4)] for f, t in store.frames(runner.id) if start <= t <= end]
        clip = {"url": f"/api/sessions/{runner.id}/video", "start": start, "end": end,
                "flick_t": found["t"], "preroll_s": pre,
                "frame_url": f"/api/sessions/{runner.id}/frames/", "frames": frames}
    before = runner.positions_at(seq)
    after = runner.positions_at(found["events"][-1]["seq"] + 1)
    return jsonify({**found, "clip": clip, "session": runner.id, "before": before,
                    "after": after})


@bp.get("/readjudicate")
def readjudicate() -> Response:
    """What would change under other options: `?option=KEY=VALUE` (repeatable)."""
    given: dict[str, Any] = {}
    for raw in request.args.getlist("option"):
        key, sep, value = raw.partition("=")
        if not sep or not key:
            abort(400, f"option {raw!r} must be written KEY=VALUE")
        given[key.strip()] = value.strip()
    try:
        return jsonify(_runner().readjudicate(given))
    except OptionError as exc:
        abort(400, str(exc))


@bp.get("/sessions")
def sessions() -> Response:
    """Every stored session, newest first."""
    ref = get_referee()
    current = ref.current_id
    return jsonify([{**s.to_json(), "current": s.id == current} for s in ref.store.sessions()])


@bp.get("/sessions/<int:sid>/export")
def export(sid: int) -> Response:
    """The session as a dispute bundle (zip); `?flick=SEQ` marks the flick in question."""
    store = get_referee().store
    if not store.has_session(sid):
        abort(404, f"no session {sid}")
    start = end = None
    raw = request.args.get("flick")
    name = f"session-{sid}"
    if raw is not None:
        if not raw.isdigit():
            abort(400, "flick must be an event number")
        found = next((f for f in get_referee().runner(sid).flicks() if f["seq"] == int(raw)),
                     None)
        if found is None:
            abort(404, f"no flick at event {raw}")
        start = max(0.0, found["t"] - float(current_app.config["PREROLL_S"]))
        end = (found["end_t"] or found["t"]) + 1.0
        name += f"-flick-{raw}"
    data = store.export_bundle(sid, start_t=start, end_t=end)
    resp = Response(data, mimetype="application/zip")
    resp.headers["Content-Disposition"] = f'attachment; filename="{name}.zip"'
    return resp


@bp.get("/sessions/<int:sid>/video")
def video(sid: int) -> Response:
    """The session's recorded video (the path comes from the store, never from the URL)."""
    store = get_referee().store
    if not store.has_session(sid):
        abort(404, f"no session {sid}")
    path = store.session(sid).video
    if not path:
        abort(404, "this session has no video")
    if not Path(path).is_file():
        abort(404, "the video file is gone")
    return send_file(path, conditional=True)


FRAME_WIDTHS = (320, 480, 640, 960, 1280)


@bp.get("/sessions/<int:sid>/frames/<int:n>.jpg")
def video_frame(sid: int, n: int) -> Response:
    """Frame `n` of the session's recorded video as JPEG (`?w=` one of FRAME_WIDTHS scales it
    down); the dispute view plays a flick's clip with these, which any browser shows."""
    store = get_referee().store
    if not store.has_session(sid):
        abort(404, f"no session {sid}")
    raw = request.args.get("w")
    width = None
    if raw is not None:
        if not raw.isdigit() or int(raw) not in FRAME_WIDTHS:
            abort(400, f"w must be one of {', '.join(map(str, FRAME_WIDTHS))}")
        width = int(raw)
    runner = get_referee().runners.get(sid)
    recent = getattr(runner.source, "frame_jpeg", None) if runner is not None else None
    jpeg = recent(n, width) if recent is not None else None  # a camera's last seconds
    if jpeg is not None:
        return Response(jpeg, mimetype="image/jpeg")
    where = store.video_frame(sid, n)
    if where is None or not Path(where[0]).is_file():
        abort(404, "this session has no video")
    path, n = where
    try:
        jpeg = _frames_of(path).jpeg(n, width)
    except VideoError as exc:
        abort(404, str(exc))
    if jpeg is None:
        abort(404, f"the video has no frame {n}")
    resp = Response(jpeg, mimetype="image/jpeg")
    resp.headers["Cache-Control"] = "private, max-age=3600"
    return resp


_decoders: OrderedDict[str, VideoFrames] = OrderedDict()
_decoders_lock = threading.Lock()


def _frames_of(path: str) -> VideoFrames:
    """One decoder per video file, the few most recent kept open."""
    with _decoders_lock:
        frames = _decoders.pop(path, None) or VideoFrames(path)
        _decoders[path] = frames
        while len(_decoders) > 4:
            _decoders.popitem(last=False)[1].close()
        return frames


@bp.get("/frame.jpg")
def frame() -> Response:
    """The latest camera image, when the source gives images."""
    jpeg = _runner().latest_jpeg
    if jpeg is None:
        abort(404, "no camera image in this session")
    return Response(jpeg, mimetype="image/jpeg")


@bp.get("/camera")
def camera() -> Response:
    """What the camera panel draws: the image size and table-mm → pixel homography of the
    session's calibration, and what vision sees now (coins and tracks in table mm)."""
    runner = _runner()
    calibration = get_referee().store.session(runner.id).calibration or {}
    overlay = runner.latest_overlay or {}
    return jsonify({
        "has_frame": runner.latest_jpeg is not None,
        "image_size": calibration.get("image_size"),
        "homography_mm_to_px": calibration.get("homography_mm_to_px"),
        "coins": overlay.get("coins", {}),
        "tracks": overlay.get("tracks", {}),
    })


# ------------------------------------------------------------------------------ changing


@bp.post("/pin")
@requires_pin
def pin() -> Response:
    """Check the table PIN (the page asks once and keeps it for the tab)."""
    return jsonify(ok=True)


def _int_field(data: dict[str, Any], key: str, lo: int, hi: int, required: bool = True
               ) -> int | None:
    value = data.get(key)
    if value is None:
        if required:
            abort(400, f"missing field {key!r}")
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        abort(400, f"field {key!r} must be a whole number {lo}–{hi}")
    return value


def _text_field(data: dict[str, Any], key: str, default: str = "") -> str:
    value = data.get(key, default)
    if not isinstance(value, str) or len(value) > MAX_TEXT:
        abort(400, f"field {key!r} must be text of at most {MAX_TEXT} characters")
    return value.strip()


@bp.post("/declare")
@requires_pin
def declare() -> Response:
    """A player's declaration: {"player": 1–4, "what": "croquet"|"end_play", "kind": 1–5}."""
    data = json_body()
    what = data.get("what")
    if what not in DECLARABLE:
        abort(400, f"field 'what' must be one of {', '.join(DECLARABLE)}")
    player = _int_field(data, "player", 1, 4)
    kind = _int_field(data, "kind", 1, 5, required=what == "croquet")
    if what != "croquet" and kind is not None:
        abort(400, "only a croquet declaration has a kind")
    runner = get_referee().runner(_session_arg())
    assert player is not None
    new = runner.declare(player, what, kind)
    return jsonify(rulings=new, state=runner.summary())


@bp.post("/override")
@requires_pin
def override() -> Response:
    """Overrule a ruling: {"ruling": "12.0", "by": "…", "reason": "…"}; an override is an
    event, stored and folded like any other."""
    data = json_body()
    ruling = data.get("ruling")
    if not isinstance(ruling, str) or not RULING_ID.match(ruling):
        abort(400, "field 'ruling' must be a ruling id like \"12.0\"")
    by = _text_field(data, "by") or "the table"
    reason = _text_field(data, "reason")
    runner = get_referee().runner(_session_arg())
    new = runner.override(ruling, by, reason)
    return jsonify(rulings=new, state=runner.summary())


@bp.post("/control")
@requires_pin
def control() -> Response:
    """Playback: {"action": "pause"|"resume"|"seek"|"speed", "value": number}."""
    data = json_body()
    action = data.get("action")
    if action not in CONTROL_ACTIONS:
        abort(400, f"field 'action' must be one of {', '.join(CONTROL_ACTIONS)}")
    value = data.get("value")
    if value is not None and (isinstance(value, bool) or not isinstance(value, int | float)
                              or not math.isfinite(value)):
        abort(400, "field 'value' must be a number")
    info = get_referee().runner(_session_arg()).control(
        action, float(value) if value is not None else None)
    return jsonify(info)


@bp.post("/sessions/<int:sid>/open")
@requires_pin
def open_session(sid: int) -> Response:
    """Show a stored session (reopened read-only: declarations and overrides still work)."""
    runner = get_referee().open(sid)
    return jsonify(runner.info())


@bp.post("/sessions/import")
@requires_pin
def import_session() -> Response:
    """Import a dispute bundle (multipart field `bundle`); returns the new session."""
    upload = request.files.get("bundle")
    if upload is None:
        abort(400, "send the bundle as the multipart field 'bundle'")
    bundle = read_bundle(upload.read())
    try:
        make_game(bundle.game, bundle.options)
    except (RulesError, ValueError) as exc:
        abort(400, f"the bundle's game or options: {exc}")
    sid = get_referee().import_bundle(bundle)
    resp = jsonify(get_referee().store.session(sid).to_json())
    resp.status_code = 201
    return resp
