"""Tabletop Croquet engine as a whole: fold properties, JSON state, overrides, the CLI.

Clause-by-clause scenarios are in test_tabletop_clauses.py and the options in
test_tabletop_options.py; these tests hold the engine's structural promises.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee import events as ev
from referee.cli import main
from referee.events import write_events
from referee.rules import make_game, replay
from referee.rules.base import RULING_KINDS, InvalidEventError, canonical_json
from referee.rules.tabletop import TabletopCroquet
from referee.rules.tabletop_model import STATUSES
from referee.rules.tabletop_streams import chaotic_stream, plausible_game
from tests.rules.test_tabletop_helpers import Play

GAME = "tabletop-croquet"
CONFIGS = {
    "plain": ({"players": "3"}, ("moons", "suns", "arms"), 3),
    "team": ({"players": "4", "ttc_team": "true"}, ("moons", "suns", "arms", "crowns"), 4),
    "poison": ({"players": "3", "ttc_poison": "true"}, ("moons", "suns", "arms"), 3),
    "ten_compact": ({"players": "10", "ttc_layout": "compact_diagonal"},
                    ("moons", "suns", "arms", "crowns", "null", "ace", "2", "3", "4", "5"), 10),
    "team_spec_defaults": ({"players": "6", "ttc_team": "true", "ttc_teams": "3",
                            "multi_strike": "first_only", "ttc_reset_on_any_endpost": "false",
                            "crossing_evaluation": "settled"},
                           ("moons", "suns", "arms", "crowns", "null", "ace"), 6),
}


def stream(config: str, seed: int, length: int) -> list[ev.Event]:
    _, coins, players = CONFIGS[config]
    return chaotic_stream(seed, length, coins, players)


def check_summary_schema(summary: dict, players: int) -> None:
    assert summary["game"] == GAME
    assert set(summary["players"]) == {str(i) for i in range(1, players + 1)}
    turn = summary["turn"]
    assert 1 <= turn["player"] <= players and turn["round"] >= 1
    assert turn["flicks_left"] >= 0
    assert summary["players"][str(turn["player"])]["status"] not in ("done", "killed") \
        or summary["over"]
    for p in summary["players"].values():
        assert p["status"] in STATUSES
        assert 0 <= p["course_done"] <= 16
        if p["status"] in ("unplaced", "in_play") and p["course_done"] < 16:
            assert p["next"] is not None
        else:
            assert p["next"] is None
    if summary["over"]:
        assert 1 <= summary["winner"] <= players
    json.dumps(summary)


seeds = st.integers(min_value=0, max_value=10**6)
configs = st.sampled_from(sorted(CONFIGS))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(config=configs, seed=seeds, length=st.integers(min_value=1, max_value=250))
def test_chaotic_streams_never_crash_and_keep_the_schema(config: str, seed: int,
                                                          length: int) -> None:
    options, _, players = CONFIGS[config]
    result = replay(make_game(GAME, options), stream(config, seed, length))
    check_summary_schema(result.state.summary(), players)
    for ruling in result.rulings:
        assert ruling.kind in RULING_KINDS
        assert ruling.clause and ruling.text
        json.dumps(ruling.to_json())


@settings(max_examples=25, deadline=None)
@given(config=configs, seed=seeds)
def test_fold_is_deterministic(config: str, seed: int) -> None:
    options = CONFIGS[config][0]
    events = stream(config, seed, 150)
    a, b = replay(make_game(GAME, options), events), replay(make_game(GAME, options), events)
    assert [r.to_json() for r in a.rulings] == [r.to_json() for r in b.rulings]
    assert canonical_json(a.state.to_json()) == canonical_json(b.state.to_json())


@settings(max_examples=20, deadline=None)
@given(config=configs, seed=seeds)
def test_state_survives_json_round_trip_at_every_step(config: str, seed: int) -> None:
    """Applying event k to a state rebuilt from JSON gives what the live state gives."""
    game = make_game(GAME, CONFIGS[config][0])
    live = game.new_state()
    for event in stream(config, seed, 80):
        stored = game.state_from_json(json.loads(json.dumps(live.to_json())))
        a = [r.to_json() for r in live.apply(event)]
        b = [r.to_json() for r in stored.apply(event)]
        assert a == b
        assert stored.summary() == live.summary()


@settings(max_examples=10, deadline=None)
@given(seed=seeds, players=st.integers(min_value=2, max_value=10))
def test_plausible_games_finish_with_a_winner(seed: int, players: int) -> None:
    game = TabletopCroquet({"players": players})
    events = list(plausible_game(seed, game=game))
    state = replay(make_game(GAME, {"players": players}), events).state
    assert state.is_terminal()
    check_summary_schema(state.summary(), players)


@settings(max_examples=10, deadline=None)
@given(seed=seeds, config=st.sampled_from([
    {"players": "4", "ttc_team": "true"}, {"players": "8", "ttc_team": "true"},
    {"players": "4", "ttc_poison": "true"},
    {"players": "3", "ttc_poison": "true", "poison_win": "first_to_complete_plus_survive"},
]))
def test_plausible_team_and_poison_games_finish(seed: int, config: dict) -> None:
    events = list(plausible_game(seed, game=TabletopCroquet(config)))
    state = replay(make_game(GAME, config), events).state
    assert state.is_terminal()
    summary = state.summary()
    check_summary_schema(summary, int(config["players"]))
    if "ttc_team" in config:
        team = summary["winning_team"]
        assert all(p["status"] == "done" for p in summary["players"].values()
                   if p["team"] == team)
    else:
        alive = [p for p in summary["players"].values() if p["status"] != "killed"]
        assert summary["players"][str(summary["winner"])]["status"] != "killed"
        assert len(alive) == 1 or all(p["status"] == "poison" for p in alive)


def test_a_state_of_another_game_is_refused() -> None:
    with pytest.raises(ValueError):
        make_game(GAME).state_from_json({"game": "castle-croquetnole"})


@pytest.mark.parametrize("event", [
    ev.Flick(0.0, "5"), ev.Cross(0.0, "moons", "gate-1", "+"), ev.Hit(0.0, "moons", "tower-1"),
    ev.Declare(0.0, 3, "action", option=1), ev.Place(0.0, "moons", (0, 0), on="tower-2"),
    ev.Settled(0.0, {"knight": (0.0, 0.0)}),
])
def test_names_this_game_does_not_know_are_invalid(event: ev.Event) -> None:
    with pytest.raises(InvalidEventError):
        make_game(GAME, {"players": 2}).new_state().apply(event)


# --------------------------------------------------------------------------- overrides
def test_override_voids_a_score_and_re_folds() -> None:
    g = Play(players=2)
    g.flick("moons").cross("moons", "wicket-1", "+").settle()
    score = g.last("score")
    g.override(score.id)
    assert g.player(1)["course_done"] == 0 and g.turn["player"] == 2
    assert "state changed" in g.last("override").text
    g.override(g.last("override").id)  # overruling the override restores the score
    assert g.player(1)["course_done"] == 1 and g.turn["player"] == 1


def test_override_of_an_unknown_ruling_or_a_settle_is_rejected() -> None:
    g = Play(players=2)
    g.override("99.0")
    assert g.last("reject").clause == "override"
    g.flick("moons").settle()
    g.override(g.last("turn").id)
    assert g.last("reject").clause == "override"


def test_override_keeps_rulings_ids_stable() -> None:
    g = Play(players=2)
    g.flick("moons").cross("moons", "wicket-1", "+").settle()
    ids = [r.id for r in g.rulings]
    g.override(g.last("score").id)
    live = [r.id for r in g.rulings]
    assert live[: len(ids)] == ids and g.summary["turn"]["player"] == 2


def test_rulings_quote_the_rule() -> None:
    g = Play(players=2)
    g.flick("moons").cross("moons", "wicket-1", "+")
    assert "next correct wicket" in g.last("score").rule


# --------------------------------------------------------------------------- the command
def test_cli_adjudicates_with_options(tmp_path, capsys) -> None:
    g = Play(players=5)
    g.flick("moons").cross("moons", "wicket-1", "+").settle().burn().burn()
    path = tmp_path / "events.jsonl"
    write_events(g.events, path)
    final = tmp_path / "final.json"
    code = main(["adjudicate", str(path), "--game", GAME, "--option", "players=5",
                 "--final-state", str(final)])
    assert code == 0
    printed = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert printed == [r.to_json() for r in g.rulings]
    summary = json.loads(final.read_text())
    assert summary == g.summary and len(summary["players"]) == 5


def test_cli_names_the_line_of_an_unknown_coin(tmp_path, capsys) -> None:
    path = tmp_path / "events.jsonl"
    write_events([ev.Flick(0.0, "moons"), ev.Flick(1.0, "5")], path)
    code = main(["adjudicate", str(path), "--game", GAME, "--option", "players=2"])
    assert code == 2
    assert ":2:" in capsys.readouterr().err


def test_cli_refuses_a_bad_option_value(tmp_path, capsys) -> None:
    path = tmp_path / "events.jsonl"
    write_events([ev.Flick(0.0, "moons")], path)
    code = main(["adjudicate", str(path), "--game", GAME, "--option", "players=11"])
    assert code == 2
    assert "players" in capsys.readouterr().err
