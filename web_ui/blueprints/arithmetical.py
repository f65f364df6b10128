"""Arithmetical Croquet in the web page: hot-seat or against the computer, with the solver's hint.

Games here are casual and need **no table PIN**: nothing is stored, no session of the table
referee is touched, and each game lives only in this app's memory, keyed by the random game id
the page holds (at most `ARC_MAX_GAMES` games; the oldest is dropped).  POSTs still carry the
page's CSRF token and must come from this origin, like every other POST of the web UI.

Endpoints:

* ``GET /arithmetical`` — the page;
* ``GET /api/arithmetical/state?game=ID`` — the game's summary (legal moves included), the
  solver's verdict for the side to move with its winning replies, and the rulings so far;
* ``POST /api/arithmetical/new`` ``{"options": {...}, "computer": 2|1|null}`` — a new game;
* ``POST /api/arithmetical/move`` ``{"game": ID, "move": N|"pass"}`` — the side to move names
  a number or passes; the rulings come back, then the computer's reply if it plays the other
  side.  An illegal number is a valid request: its refusal ruling comes back with
  ``"accepted": false``.
"""

from __future__ import annotations

import re
import secrets
import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

from flask import Blueprint, Flask, Response, abort, current_app, jsonify, render_template, request

from referee.commands.play import hint_text, status_line
from referee.events import Declare
from referee.rules.arithmetical import NAME, OPTIONS, PEG, ArcState, ArithmeticalCroquet
from referee.rules.arithmetical_solver import analyse
from referee.rules.base import OptionError, make_game
from web_ui.blueprints.security import check_csrf, json_body

bp = Blueprint("arithmetical", __name__)

GAME_ID = re.compile(r"^[A-Za-z0-9_-]{8,40}$")
MAX_BODY = 4096
"""Bytes: a move or a new game is a few dozen."""
MAX_NUMBER = PEG + 8
"""The largest number ever nameable (one step past the peg); below 0 is never one."""
MAX_TURN_LIMIT = 1000
OPTION_NAMES = tuple(option.name for option in OPTIONS)


@dataclass
class WebGame:
    """One casual game: its rules, its referee state, who the computer plays, its rulings."""

    id: str
    game: ArithmeticalCroquet
    state: ArcState
    computer: int | None
    log: list[dict[str, Any]] = field(default_factory=list)
    clock: float = 0.0
    lock: threading.Lock = field(default_factory=threading.Lock)


class GameTable:
    """The app's games, oldest first, at most `limit` of them."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.games: OrderedDict[str, WebGame] = OrderedDict()
        self.lock = threading.Lock()

    def add(self, game: WebGame) -> None:
        with self.lock:
            self.games[game.id] = game
            while len(self.games) > self.limit:
                self.games.popitem(last=False)

    def get(self, game_id: str) -> WebGame | None:
        with self.lock:
            return self.games.get(game_id)


def _table() -> GameTable:
    app: Flask = current_app  # type: ignore[assignment]
    table = app.extensions.get("arithmetical_games")
    if table is None:
        table = app.extensions.setdefault(
            "arithmetical_games", GameTable(int(app.config.get("ARC_MAX_GAMES", 100))))
    return table  # type: ignore[no-any-return]


# ------------------------------------------------------------------------------ helpers


def _body() -> dict[str, Any]:
    """The POST's JSON object after the CSRF check and a size limit."""
    check_csrf()
    if (request.content_length or 0) > MAX_BODY or len(request.get_data(cache=True)) > MAX_BODY:
        abort(413, f"the body is too large (at most {MAX_BODY} bytes)")
    return json_body()


def _game_id(raw: Any) -> str:
    if not isinstance(raw, str) or not GAME_ID.match(raw):
        abort(400, "game must be the game id the page was given")
    return raw


def _find(raw: Any) -> WebGame:
    game = _table().get(_game_id(raw))
    if game is None:
        abort(404, "no such game (it may have been dropped); start a new one")
    return game


def _options(raw: Any) -> dict[str, Any]:
    if raw is None:
        return {}
    if not isinstance(raw, dict) or len(raw) > len(OPTION_NAMES):
        abort(400, "options must be an object of house-rule options")
    for name, value in raw.items():
        if name not in OPTION_NAMES:
            abort(400, f"unknown option {name!r}; valid options: " + ", ".join(OPTION_NAMES))
        if name == "arc_max_turns":
            if value is not None and (isinstance(value, bool) or not isinstance(value, int)
                                      or not 1 <= value <= MAX_TURN_LIMIT):
                abort(400, f"arc_max_turns must be a whole number 1..{MAX_TURN_LIMIT} or null")
        elif not isinstance(value, bool):
            abort(400, f"option {name} must be true or false")
    return dict(raw)


def _computer(raw: Any) -> int | None:
    if raw is None or raw == "none":
        return None
    if isinstance(raw, bool) or raw not in (1, 2, "1", "2"):
        abort(400, "computer must be 1, 2 or null")
    return int(raw)


def _move(raw: Any) -> int | None:
    """The number named, or None for a pass."""
    if raw == "pass":
        return None
    if isinstance(raw, str) and raw.strip().isdigit() and len(raw.strip()) <= 3:
        raw = int(raw.strip())
    if isinstance(raw, bool) or not isinstance(raw, int):
        abort(400, 'move must be a whole number or "pass"')
    if not 0 <= raw <= MAX_NUMBER:
        abort(400, f"move must be a number from 0 to {MAX_NUMBER}")
    return raw


def _declare(game: WebGame, number: int | None, by: str) -> list[dict[str, Any]]:
    """Fold one declaration of the side to move; log and return its rulings."""
    player = game.state.position.mover + 1
    event = (Declare(game.clock, player, "pass") if number is None
             else Declare(game.clock, player, "number", value=number))
    game.clock += 1.0
    rulings = [dict(ruling.to_json(), by=by) for ruling in game.state.apply(event)]
    game.log.extend(rulings)
    return rulings


def _computer_turn(game: WebGame) -> dict[str, Any] | None:
    """If the computer is to move, it plays the solver's best move (as `referee play` does)."""
    state = game.state
    if game.computer is None or state.is_terminal() or state.position.mover + 1 != game.computer:
        return None
    move = analyse(state.position, game.game.rules).best_move or "pass"
    rulings = _declare(game, None if move == "pass" else int(move), "computer")
    return {"player": game.computer, "move": move, "rulings": rulings}


def _view(game: WebGame) -> dict[str, Any]:
    state = game.state
    summary = state.summary()
    analysis = analyse(state.position, game.game.rules)
    moves: list[int | str] = list(summary["legal_moves"])
    if summary["turn"]["may_pass"]:
        moves.append("pass")
    return {
        "game": game.id, "computer": game.computer, "summary": summary,
        "legal_moves": moves,
        "status": None if state.is_terminal() else status_line(state),
        "analysis": analysis.to_json(),
        "hint": None if state.is_terminal() else hint_text(analysis),
        "rulings": game.log,
    }


# ------------------------------------------------------------------------------ routes


@bp.get("/arithmetical")
def page() -> str:
    """The Arithmetical Croquet page (the game id lives in the page, not in a cookie)."""
    return render_template("arithmetical.html", page="arithmetical",
                           options=[o.name for o in OPTIONS if o.kind is bool])


@bp.get("/api/arithmetical/state")
def state() -> Response:
    """The game's summary, legal moves, the solver's verdict and the rulings so far."""
    game = _find(request.args.get("game"))
    with game.lock:
        return jsonify(_view(game))


@bp.post("/api/arithmetical/new")
def new() -> Response:
    """A new game with the given house rules; the computer opens if it plays player 1."""
    data = _body()
    options = _options(data.get("options"))
    computer = _computer(data.get("computer", 2))
    try:
        game = make_game(NAME, options)
    except OptionError as exc:
        abort(400, str(exc))
    assert isinstance(game, ArithmeticalCroquet)
    web = WebGame(secrets.token_urlsafe(12), game, game.new_state(), computer)
    reply = _computer_turn(web)
    _table().add(web)
    resp = jsonify(dict(_view(web), reply=reply))
    resp.status_code = 201
    return resp


@bp.post("/api/arithmetical/move")
def move() -> Response:
    """The side to move names a number (or passes); then the computer replies if it plays."""
    data = _body()
    game = _find(data.get("game"))
    number = _move(data.get("move"))
    with game.lock:
        if game.state.is_terminal():
            abort(409, "the game is over; start a new one")
        if game.state.position.mover + 1 == game.computer:
            abort(409, "it is the computer's turn")
        rulings = _declare(game, number, "person")
        accepted = all(r["kind"] != "reject" for r in rulings)
        reply = _computer_turn(game) if accepted else None
        view = _view(game)
    return jsonify(dict(view, accepted=accepted, move_rulings=rulings, reply=reply))
