"""The Arithmetical Croquet page and its JSON API through the Flask test client: every endpoint
with its refusals.  These games need the CSRF token but no table PIN (they are casual)."""

from __future__ import annotations

from typing import Any

from flask.testing import FlaskClient

from referee.rules.arithmetical_solver import analyse
from tests.web.conftest import post
from web_ui.blueprints.arithmetical import MAX_BODY, GameTable

NEW = "/api/arithmetical/new"
MOVE = "/api/arithmetical/move"
STATE = "/api/arithmetical/state"


def new_game(client: FlaskClient, **body: Any) -> dict[str, Any]:
    resp = post(client, NEW, body, pin=None)
    assert resp.status_code == 201, resp.get_json()
    return resp.get_json()  # type: ignore[no-any-return]


def move(client: FlaskClient, game: str, value: Any) -> Any:
    return post(client, MOVE, {"game": game, "move": value}, pin=None)


def refused(resp: Any, status: int) -> str:
    assert resp.status_code == status, (resp.status_code, resp.get_data(as_text=True))
    data = resp.get_json()
    assert data["status"] == status and data["error"] and "\n" not in data["error"]
    return str(data["error"])


def table(client: FlaskClient) -> GameTable:
    return client.application.extensions["arithmetical_games"]  # type: ignore[no-any-return]


def test_page_renders_under_the_csp_and_is_linked(client: FlaskClient) -> None:
    resp = client.get("/arithmetical")
    assert resp.status_code == 200
    html = resp.get_data(as_text=True)
    assert client.application.config["CSRF_TOKEN"] in html
    assert "/static/js/arithmetical.js" in html and "<script>" not in html
    assert " style=" not in html
    assert "script-src 'self'" in resp.headers["Content-Security-Policy"]
    assert 'href="/arithmetical"' in client.get("/").get_data(as_text=True)
    for asset in ("/static/js/arithmetical.js", "/static/css/arithmetical.css"):
        with client.get(asset) as got:
            assert got.status_code == 200, asset


def test_new_game_and_its_state(client: FlaskClient) -> None:
    data = new_game(client)
    assert data["computer"] == 2 and data["reply"] is None and data["rulings"] == []
    assert data["legal_moves"] == [1, 2, 3, 4, 5, 6, 7, 8]
    assert data["summary"]["turn"] == {"player": 1, "number": 1, "may_pass": False}
    assert data["analysis"]["winner"] == 1 and data["analysis"]["winning_moves"] == ["1"]
    assert data["hint"].startswith("Hint: you win with best play")
    got = client.get(f"{STATE}?game={data['game']}")
    assert got.status_code == 200 and got.get_json()["game"] == data["game"]
    assert got.get_json()["analysis"] == data["analysis"]


def test_a_move_brings_the_ruling_and_the_computer_reply(client: FlaskClient) -> None:
    game = new_game(client)["game"]
    resp = move(client, game, 1)
    assert resp.status_code == 200
    data = resp.get_json()
    assert data["accepted"] is True
    [ruling] = data["move_rulings"]
    assert ruling["kind"] == "turn" and ruling["clause"] == "ARC-06" and ruling["by"] == "person"
    reply = data["reply"]
    assert reply["player"] == 2 and reply["rulings"][0]["by"] == "computer"
    assert reply["rulings"][0]["named"] == int(reply["move"])
    assert data["summary"]["turns"] == 2 and data["summary"]["turn"]["player"] == 1
    assert [r["id"] for r in data["rulings"]] == ["0.0", "1.0"]
    web = table(client).get(game)
    assert web is not None
    assert data["analysis"] == analyse(web.state.position, web.game.rules).to_json()
    assert "1" not in [str(m) for m in data["legal_moves"]]  # the next number is higher


def test_an_illegal_number_is_refused_by_a_ruling(client: FlaskClient) -> None:
    game = new_game(client)["game"]
    data = move(client, game, 9).get_json()
    assert data["accepted"] is False and data["reply"] is None
    assert data["move_rulings"][0]["kind"] == "reject"
    assert data["move_rulings"][0]["clause"] == "ARC-01"
    assert data["summary"]["turns"] == 0
    passing = move(client, game, "pass").get_json()
    assert passing["accepted"] is False and passing["move_rulings"][0]["clause"] == "G-ARC-08"
    assert move(client, game, "3").get_json()["accepted"] is True  # digits in a string do


def test_computer_opening_and_two_people(client: FlaskClient) -> None:
    data = new_game(client, computer=1)
    assert data["reply"]["player"] == 1 and data["summary"]["turn"]["player"] == 2
    assert data["reply"]["move"] == "1"  # the solver's only winning opening
    hot = new_game(client, computer=None)
    first = move(client, hot["game"], 4).get_json()
    assert first["reply"] is None and first["summary"]["turn"]["player"] == 2
    assert move(client, hot["game"], 3).get_json()["accepted"] is True


def test_options_and_the_end_of_a_game(client: FlaskClient) -> None:
    data = new_game(client, options={"arc_max_turns": 1, "arc_no_repeat_global": True},
                    computer=None)
    assert data["summary"]["options"]["arc_max_turns"] == 1
    end = move(client, data["game"], 8).get_json()
    assert end["summary"]["over"] and end["summary"]["end_clause"] == "G-ARC-12"
    assert end["move_rulings"][-1]["kind"] == "win" and end["hint"] is None
    assert "over" in refused(move(client, data["game"], 9), 409)


def test_the_computers_turn_is_not_the_pages(client: FlaskClient) -> None:
    game = new_game(client)["game"]
    web = table(client).get(game)
    assert web is not None
    web.computer = 1
    assert "computer" in refused(move(client, game, 1), 409)


def test_refusals(client: FlaskClient) -> None:
    game = new_game(client)["game"]
    refused(post(client, MOVE, {"game": game, "move": 1}, csrf=False, pin=None), 403)
    refused(post(client, NEW, {}, pin=None, headers={"Origin": "http://evil.example"}), 403)
    refused(post(client, MOVE, None, pin=None, data="move=1"), 415)
    refused(post(client, MOVE, None, pin=None, data="[1]", content_type="application/json"), 400)
    for bad in ("abc", 1.5, True, None, [1], "", "1e3"):
        assert "whole number" in refused(move(client, game, bad), 400), bad
    for bad in (-1, 109, 10**9, "0009999"):
        refused(move(client, game, bad), 400)
    for bad_id in (None, 7, "short", "../../etc", "x" * 41):
        refused(post(client, MOVE, {"game": bad_id, "move": 1}, pin=None), 400)
    refused(move(client, "Zz" * 8, 1), 404)
    refused(client.get(STATE), 400)
    refused(client.get(f"{STATE}?game=not-a-game-id"), 404)
    big = {"game": game, "move": 1, "pad": "x" * MAX_BODY}
    refused(post(client, MOVE, big, pin=None), 413)
    for bad_new in ({"options": {"arc_colour": True}}, {"options": {"arc_no_repeat_global": 1}},
                    {"options": {"arc_max_turns": 0}}, {"options": {"arc_max_turns": 10**6}},
                    {"options": [1]}, {"computer": 3}, {"computer": True}):
        refused(post(client, NEW, bad_new, pin=None), 400)
    assert table(client).get(game).state.position.turns == 0  # type: ignore[union-attr]


def test_games_are_bounded_oldest_dropped(client: FlaskClient) -> None:
    client.application.config["ARC_MAX_GAMES"] = 3
    ids = [new_game(client, computer=None)["game"] for _ in range(4)]
    refused(client.get(f"{STATE}?game={ids[0]}"), 404)
    for kept in ids[1:]:
        assert client.get(f"{STATE}?game={kept}").status_code == 200
    assert len(table(client).games) == 3
