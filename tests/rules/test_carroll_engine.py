"""Carroll's Castle Croquet engine as a whole: fold properties, JSON state, the summary.

Hypothesis drives random streams (referee.rules.carroll_streams): chaotic ones never crash and
keep the summary's schema; the fold is deterministic; a state rebuilt from JSON at any step
folds the next event exactly as the live one; replaying equals applying one by one.
"""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee import events as ev
from referee.rules import make_game, replay
from referee.rules.base import RULING_KINDS, canonical_json
from referee.rules.carroll_streams import chaotic_stream, plausible_game

GAME = "carroll-castle-croquet"


def check_summary_schema(summary: dict, players: int = 4) -> None:
    """The final-state summary of docs/carroll-castle-croquet.md."""
    numbers = set(range(1, players + 1))
    assert summary["game"] == GAME
    assert set(summary["players"]) == {str(n) for n in numbers}
    turn = summary["turn"]
    assert turn["phase"] in ("soldier", "sentinel")
    assert turn["player"] in numbers and turn["round"] >= 1 and turn["flicks_left"] >= 0
    assert isinstance(turn["croquet_due"], list)
    for n, p in summary["players"].items():
        s = p["soldier"]
        assert s["status"] in ("in_play", "released", "prisoner")
        if s["status"] == "prisoner":
            assert s["castle"] is None and s["next"] is None and s["prisoner_of"] in numbers
            assert s["prisoner_of"] != int(n)
        else:
            assert s["prisoner_of"] is None
        assert 0 <= s["course_done"] <= s["course_length"] == 4 * (players - 1) + 3
        assert s["finished"] == (s["course_done"] == s["course_length"])
        assert (s["next"] is None) == (s["finished"] or s["status"] == "prisoner")
        assert isinstance(p["sentinel"]["on_duty"], bool)
    if summary["over"]:
        assert summary["winner"] in numbers


seeds = st.integers(min_value=0, max_value=10**6)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=seeds, length=st.integers(min_value=1, max_value=250),
       players=st.sampled_from([4, 5]))
def test_chaotic_streams_never_crash_and_keep_the_schema(seed: int, length: int,
                                                         players: int) -> None:
    result = replay(make_game(GAME, {"car_players": players}),
                    chaotic_stream(seed, length, players))
    check_summary_schema(result.state.summary(), players)
    for ruling in result.rulings:
        assert ruling.kind in RULING_KINDS
        assert ruling.clause and ruling.text


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=seeds, options=st.fixed_dictionaries({
    "car_prisoner_spot": st.sampled_from(["behind_tower", "on_tower"]),
    "car_release_progress": st.sampled_from(["resume_at_flag", "restart_castle"]),
    "car_bonus_mode": st.sampled_from(["play_again", "cumulative"]),
    "car_croquet_and_continue": st.booleans(),
    "car_second_crossing": st.sampled_from(["foul_rollback", "no_bonus_only"]),
    "car_capture_on_resting_touch": st.booleans(),
    "crossing_evaluation": st.sampled_from(["event", "settled"]),
}))
def test_chaotic_streams_under_any_options(seed: int, options: dict) -> None:
    result = replay(make_game(GAME, options), chaotic_stream(seed, 200))
    check_summary_schema(result.state.summary())


@settings(max_examples=20, deadline=None)
@given(seed=seeds)
def test_fold_is_deterministic(seed: int) -> None:
    events = chaotic_stream(seed, 150)
    a, b = replay(make_game(GAME), events), replay(make_game(GAME), events)
    assert [r.to_json() for r in a.rulings] == [r.to_json() for r in b.rulings]
    assert canonical_json(a.state.to_json()) == canonical_json(b.state.to_json())


@settings(max_examples=10, deadline=None)
@given(seed=seeds)
def test_state_survives_json_round_trip_at_every_step(seed: int) -> None:
    """Applying event k to a state rebuilt from JSON gives what the live state gives."""
    game = make_game(GAME)
    live = game.new_state()
    for event in chaotic_stream(seed, 60):
        stored = game.state_from_json(json.loads(json.dumps(live.to_json())))
        a = [r.to_json() for r in live.apply(event)]
        b = [r.to_json() for r in stored.apply(event)]
        assert a == b
        assert canonical_json(live.to_json()) == canonical_json(stored.to_json())


def test_json_round_trip_through_a_plausible_game() -> None:
    game = make_game(GAME)
    live = game.new_state()
    for n, event in enumerate(plausible_game(4, max_events=300)):
        if n % 7 == 0:
            stored = game.state_from_json(json.loads(json.dumps(live.to_json())))
            assert [r.to_json() for r in stored.apply(event)] == [
                r.to_json() for r in live.apply(event)]
        else:
            live.apply(event)


@settings(max_examples=6, deadline=None)
@given(seed=seeds)
def test_replay_equals_one_by_one(seed: int) -> None:
    events = list(plausible_game(seed, max_events=300))
    game = make_game(GAME)
    state = game.new_state()
    one_by_one = [r.to_json() for e in events for r in state.apply(e)]
    assert one_by_one == [r.to_json() for r in replay(game, events).rulings]


def test_plausible_games_end_with_a_winner() -> None:
    for players in (4, 5):
        for seed in range(3):
            game = make_game(GAME, {"car_players": players})
            result = replay(game, list(plausible_game(seed, game=game)))
            summary = result.state.summary()
            check_summary_schema(summary, players)
            assert summary["over"] and result.rulings[-1].kind == "win"
            winner = summary["players"][str(summary["winner"])]
            assert winner["soldier"]["finished"] and winner["sentinel"]["on_duty"]


def test_state_from_another_game_is_refused() -> None:
    ccn = make_game("castle-croquetnole").new_state().to_json()
    try:
        make_game(GAME).state_from_json(ccn)
    except ValueError as exc:
        assert GAME in str(exc)
    else:  # pragma: no cover
        raise AssertionError("a Croquetnole state was accepted")


def test_rulings_quote_the_rule_and_have_stable_ids() -> None:
    result = replay(make_game(GAME), list(plausible_game(3)))
    ids = [r.id for r in result.rulings]
    assert len(ids) == len(set(ids))
    assert all(r.rule for r in result.rulings if r.clause.startswith("CAR-"))


def test_flick_after_the_win_is_rejected() -> None:
    game = make_game(GAME)
    events = list(plausible_game(1, game=game))
    state = game.new_state()
    for e in events:
        state.apply(e)
    (ruling,) = state.apply(ev.Flick(events[-1].t + 1, "moons"))
    assert ruling.kind == "reject" and ruling.clause == "CAR-06"
