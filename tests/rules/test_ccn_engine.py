"""Castle Croquetnole engine as a whole: fold properties, JSON state, overrides, options.

Clause-by-clause scenarios live in tests/rules/ccn_scenarios/ (written independently from the
rule texts); these tests hold the engine's structural promises.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee import events as ev
from referee.rules import make_game, replay
from referee.rules.base import RULING_KINDS, OptionError, canonical_json
from referee.rules.random_streams import chaotic_stream, plausible_game

GAME = "castle-croquetnole"


def run(events: list[ev.Event], **options: str):
    return replay(make_game(GAME, options), events)


def check_summary_schema(summary: dict) -> None:
    assert summary["game"] == GAME
    assert set(summary["players"]) == {"1", "2", "3", "4"}
    turn = summary["turn"]
    assert turn["phase"] in ("knight", "guard")
    assert turn["player"] in (1, 2, 3, 4) and turn["round"] >= 1
    assert turn["flicks_left"] >= 0
    for n, p in summary["players"].items():
        k = p["knight"]
        assert k["status"] in ("unplaced", "in_play", "prisoner", "recovering")
        if k["status"] == "prisoner":
            assert k["castle"] is None and k["next"] is None and k["prisoner_of"] in (1, 2, 3, 4)
        else:
            assert k["prisoner_of"] is None
        if k["status"] in ("unplaced", "recovering"):
            assert k["castle"] == int(n) and k["next"] == f"out-{n}"
        assert isinstance(p["guard"]["on_duty"], bool)
    if summary["over"]:
        assert summary["winner"] in (1, 2, 3, 4)


seeds = st.integers(min_value=0, max_value=10**6)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=seeds, length=st.integers(min_value=1, max_value=250))
def test_chaotic_streams_never_crash_and_keep_the_schema(seed: int, length: int) -> None:
    result = run(chaotic_stream(seed, length))
    check_summary_schema(result.state.summary())
    for ruling in result.rulings:
        assert ruling.kind in RULING_KINDS
        assert ruling.clause and ruling.text


@settings(max_examples=25, deadline=None)
@given(seed=seeds)
def test_fold_is_deterministic(seed: int) -> None:
    events = chaotic_stream(seed, 150)
    a, b = run(events), run(events)
    assert [r.to_json() for r in a.rulings] == [r.to_json() for r in b.rulings]
    assert canonical_json(a.state.to_json()) == canonical_json(b.state.to_json())


@settings(max_examples=20, deadline=None)
@given(seed=seeds)
def test_state_survives_json_round_trip_at_every_step(seed: int) -> None:
    """Applying event k to a state rebuilt from JSON gives what the live state gives."""
    game = make_game(GAME)
    live = game.new_state()
    for event in chaotic_stream(seed, 80):
        stored = game.state_from_json(json.loads(json.dumps(live.to_json())))
        a = [r.to_json() for r in live.apply(event)]
        b = [r.to_json() for r in stored.apply(event)]
        assert a == b
        assert canonical_json(live.to_json()) == canonical_json(stored.to_json())


@settings(max_examples=10, deadline=None)
@given(seed=seeds)
def test_replay_equals_one_by_one_and_undo_is_replay(seed: int) -> None:
    events = list(plausible_game(seed, max_events=300))
    game = make_game(GAME)
    state = game.new_state()
    one_by_one = [r.to_json() for e in events for r in state.apply(e)]
    assert one_by_one == [r.to_json() for r in replay(game, events).rulings]
    # Undo the last event = replay without it.
    shorter = replay(game, events[:-1]).state.summary()
    again = replay(game, events[:-1]).state.summary()
    assert shorter == again


def test_plausible_games_end_with_a_winner() -> None:
    for seed in range(5):
        result = run(list(plausible_game(seed)))
        summary = result.state.summary()
        assert summary["over"] and summary["winner"] in (1, 2, 3, 4)
        assert result.rulings[-1].kind == "win"


def flick_out(coin: str = "moons") -> list[ev.Event]:
    return [ev.Flick(1.0, coin), ev.Cross(1.1, coin, "gate-1", "-"),
            ev.Cross(1.2, coin, "gate-2", "+")]


def test_override_voids_a_capture_and_refolds() -> None:
    events = [*flick_out(), ev.Contact(1.3, "moons", "2", ("moons",)), ev.Settled(2.0)]
    game = make_game(GAME)
    state = game.new_state()
    rulings = [r for e in events for r in state.apply(e)]
    capture = next(r for r in rulings if r.kind == "capture")
    assert state.summary()["players"]["1"]["knight"]["status"] == "prisoner"
    out = state.apply(ev.Override(3.0, capture.id, "table", "it never touched"))
    assert [r.kind for r in out] == ["override"]
    knight = state.summary()["players"]["1"]["knight"]
    assert knight["status"] == "in_play" and knight["castle"] == 2
    # Overruling the override restores the capture.
    state.apply(ev.Override(4.0, out[0].id, "table", "on second thoughts"))
    assert state.summary()["players"]["1"]["knight"]["status"] == "prisoner"


def test_uncertain_event_asks_and_an_override_accepts_it() -> None:
    events = [ev.Flick(1.0, "moons"), ev.Cross(1.1, "moons", "gate-1", "-", uncertain=True),
              ev.Settled(2.0)]
    game = make_game(GAME)
    state = game.new_state()
    rulings = [r for e in events for r in state.apply(e)]
    question = next(r for r in rulings if r.kind == "uncertain")
    assert state.summary()["players"]["1"]["knight"]["next"] == "out-1"
    state.apply(ev.Override(3.0, question.id, "players", "agreed it crossed"))
    assert state.summary()["players"]["1"]["knight"]["next"] == "in-2"


@pytest.mark.parametrize(("policy", "crossed"), [("favour_active", True),
                                                 ("favour_defender", False)])
def test_uncertain_policies(policy: str, crossed: bool) -> None:
    events = [ev.Flick(1.0, "moons"), ev.Cross(1.1, "moons", "gate-1", "-", uncertain=True),
              ev.Settled(2.0)]
    summary = run(events, uncertain_policy=policy).state.summary()
    assert (summary["players"]["1"]["knight"]["next"] == "in-2") is crossed


def test_override_of_unknown_ruling_is_rejected() -> None:
    state = make_game(GAME).new_state()
    (ruling,) = state.apply(ev.Override(1.0, "99.9", "x", "y"))
    assert ruling.kind == "reject"


def test_unknown_option_and_bad_value_list_the_valid_ones() -> None:
    with pytest.raises(OptionError, match=r"valid options: .*own_gate_scores"):
        make_game(GAME, {"own_gate_score": "true"})
    with pytest.raises(OptionError, match="valid: centre_midline, full_clearance"):
        make_game(GAME, {"crossing_criterion": "edge"})
    with pytest.raises(OptionError, match="not a boolean"):
        make_game(GAME, {"own_gate_scores": "maybe"})


def test_every_spec_option_is_selectable_by_name() -> None:
    names = ["crossing_criterion", "crossing_evaluation", "coin_width_measure", "v_hit_min",
             "eps_contact", "eps_place", "enforce_flick_form", "push_ms", "disturbance_penalty",
             "uncertain_policy", "layout_orientation", "spacing_measure",
             "round1_guard_mandatory", "turn_order", "own_gate_scores", "passive_scoring",
             "passive_duty_change", "capture_requires_active", "invading_scope",
             "rescue_requires_active_guard", "rescuer_keeps_flicks",
             "guards_enter_foreign_castles", "release_immunity", "premature_exit",
             "win_requires_active_knight", "bonus_mode", "multi_strike", "guard_repeat_reset",
             "repeat_strike", "bank_passive_bonuses", "illegal_rollback",
             "passive_illegal_entry", "offtable_inset_mm", "own_passive_offtable_penalty",
             "must_use_all_flicks", "wrong_coin_penalty", "edge_relief",
             "strike_requires_active_moving", "max_rounds", "dummy_castles",
             "two_castles_per_player"]
    game = make_game(GAME)
    assert set(names) <= set(game.options)


def test_rulings_quote_the_rule_and_have_stable_ids() -> None:
    result = run(list(plausible_game(3)))
    ids = [r.id for r in result.rulings]
    assert len(ids) == len(set(ids))
    scored = [r for r in result.rulings if r.kind == "score"]
    assert scored and all(r.rule for r in scored)
