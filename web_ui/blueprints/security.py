"""What guards the referee's web UI: the table PIN, CSRF checks, headers, error pages.

Every request that changes something must (1) carry the page's CSRF token in `X-CSRF-Token`
and, when the browser sends one, an `Origin` of this very host, and (2) carry the table PIN
in `X-Table-Pin`.  Wrong PINs are counted per client: after a few, that client waits.
"""

from __future__ import annotations

import hmac
import threading
import time
from collections.abc import Callable
from functools import wraps
from typing import Any, TypeVar
from urllib.parse import urlsplit

from flask import Flask, Response, abort, current_app, jsonify, request
from werkzeug.exceptions import HTTPException

F = TypeVar("F", bound=Callable[..., Any])

_failures: dict[str, list[float]] = {}
_failures_lock = threading.Lock()


def init_app(app: Flask) -> None:
    """Headers on every response; JSON errors under /api."""
    app.after_request(_headers)
    app.register_error_handler(HTTPException, _http_error)
    app.jinja_env.globals["csrf_token"] = lambda: current_app.config["CSRF_TOKEN"]


def _headers(resp: Response) -> Response:
    resp.headers.setdefault("X-Content-Type-Options", "nosniff")
    resp.headers.setdefault("X-Frame-Options", "DENY")
    resp.headers.setdefault("Referrer-Policy", "same-origin")
    resp.headers.setdefault(
        "Content-Security-Policy",
        "default-src 'self'; img-src 'self' data: blob:; media-src 'self' blob:; "
        "style-src 'self'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'; "
        "base-uri 'none'; form-action 'self'")
    if request.path.startswith("/api/") and "Cache-Control" not in resp.headers:
        resp.headers["Cache-Control"] = "no-store"
    return resp


def _http_error(exc: HTTPException) -> Response | HTTPException:
    if request.path.startswith("/api/"):
        resp = jsonify(error=exc.description or exc.name, status=exc.code)
        resp.status_code = exc.code or 500
        return resp
    return exc


def error(status: int, message: str) -> Response:
    """A JSON error response: {"error": message, "status": status}."""
    resp = jsonify(error=message, status=status)
    resp.status_code = status
    return resp


def _same_origin() -> bool:
    origin = request.headers.get("Origin")
    if origin is None or origin == "null":
        referer = request.headers.get("Referer")
        if referer is None:
            return origin is None  # non-browser clients send neither
        origin = referer
    return urlsplit(origin).netloc == request.host


def check_csrf() -> None:
    """Abort 403 unless the request carries the CSRF token and comes from this origin."""
    token = request.headers.get("X-CSRF-Token", "")
    if not hmac.compare_digest(token.encode(), current_app.config["CSRF_TOKEN"].encode()):
        abort(403, "missing or wrong CSRF token (reload the page)")
    if not _same_origin():
        abort(403, "cross-site request refused")


def check_pin() -> None:
    """Abort 401 for a missing or wrong table PIN; 429 after too many wrong tries."""
    who = request.remote_addr or "?"
    now = time.monotonic()
    window = float(current_app.config["PIN_WINDOW_S"])
    limit = int(current_app.config["PIN_MAX_FAILURES"])
    with _failures_lock:
        recent = [t for t in _failures.get(who, []) if now - t < window]
        _failures[who] = recent
        if len(recent) >= limit:
            abort(429, "too many wrong PINs; wait a minute")
    given = request.headers.get("X-Table-Pin", "")
    if not given:
        abort(401, "this needs the table PIN")
    if not hmac.compare_digest(given.encode(), current_app.config["TABLE_PIN"].encode()):
        with _failures_lock:
            _failures.setdefault(who, []).append(now)
        abort(401, "wrong table PIN")
    with _failures_lock:
        _failures.pop(who, None)


def reset_pin_failures() -> None:
    """Forget counted PIN failures (tests)."""
    with _failures_lock:
        _failures.clear()


def requires_pin(view: F) -> F:
    """Guard a view that changes a game: CSRF first, then the table PIN."""

    @wraps(view)
    def wrapped(*args: Any, **kwargs: Any) -> Any:
        check_csrf()
        check_pin()
        return view(*args, **kwargs)

    return wrapped  # type: ignore[return-value]


def json_body() -> dict[str, Any]:
    """The request's JSON object, or abort 415/400."""
    if not request.is_json:
        abort(415, "send JSON (Content-Type: application/json)")
    data = request.get_json(silent=True)
    if not isinstance(data, dict):
        abort(400, "the body must be a JSON object")
    return data
