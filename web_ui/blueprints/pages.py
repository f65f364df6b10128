"""The HTML pages: the scoreboard and table, the dispute view, the sessions list."""

from __future__ import annotations

from flask import Blueprint, render_template

bp = Blueprint("pages", __name__)


@bp.get("/")
def scoreboard() -> str:
    """The scoreboard, the table (camera and map), the log and the declarations."""
    return render_template("scoreboard.html", page="scoreboard")


@bp.get("/dispute")
def dispute() -> str:
    """Pick a flick: its clip beside the reconstruction, its rulings, override, what-if."""
    return render_template("dispute.html", page="dispute")


@bp.get("/sessions")
def sessions() -> str:
    """Stored sessions: reopen, export as a dispute bundle, import."""
    return render_template("sessions.html", page="sessions")
