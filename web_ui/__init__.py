"""The referee's web UI: a thin Flask app factory (flaskr-style) over a `Referee`.

The page shows what the engine says and decides nothing.  Reading is open; anything that
changes a game (declarations, overrides, playback, opening or importing sessions) needs the
table PIN and a CSRF token, and the server binds 127.0.0.1 unless told otherwise.
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path
from typing import Any

from flask import Flask

from referee.session import Referee
from referee.store import SessionStore


def create_app(test_config: dict[str, Any] | None = None) -> Flask:
    """Make the app.  Config: DATABASE (the session store file), TABLE_PIN, REFEREE (a ready
    `Referee`, e.g. with a running session; else one is made over DATABASE)."""
    app = Flask(__name__, instance_relative_config=True)
    app.config.from_mapping(
        SECRET_KEY=secrets.token_hex(32),
        DATABASE=str(Path(app.instance_path) / "referee.sqlite"),
        TABLE_PIN=os.environ.get("REFEREE_PIN"),
        MAX_CONTENT_LENGTH=256 * 1024 * 1024,
        SSE_KEEPALIVE_S=15.0,
        PIN_MAX_FAILURES=5,
        PIN_WINDOW_S=60.0,
        PREROLL_S=3.0,
        REFEREE=None,
    )
    if test_config is None:
        app.config.from_pyfile("config.py", silent=True)
    else:
        app.config.from_mapping(test_config)
    if not app.config["TABLE_PIN"]:
        app.config["TABLE_PIN"] = f"{secrets.randbelow(10**6):06d}"
    pin = str(app.config["TABLE_PIN"])
    if not pin.isdigit() or not 4 <= len(pin) <= 12:
        raise ValueError("the table PIN must be 4 to 12 digits")
    app.config["TABLE_PIN"] = pin
    app.config["CSRF_TOKEN"] = secrets.token_urlsafe(32)

    referee = app.config["REFEREE"]
    if referee is None:
        referee = Referee(SessionStore(app.config["DATABASE"]))
        app.config["REFEREE"] = referee
    app.extensions["referee"] = referee

    from web_ui.blueprints import api, arithmetical, calibration, pages, security, stream

    security.init_app(app)
    app.register_blueprint(pages.bp)
    app.register_blueprint(api.bp)
    app.register_blueprint(stream.bp)
    app.register_blueprint(arithmetical.bp)
    app.register_blueprint(calibration.bp)
    return app


def get_referee() -> Referee:
    """The app's `Referee` (sessions, store, runners)."""
    from flask import current_app

    return current_app.extensions["referee"]  # type: ignore[no-any-return]
