"""Property tests: any declaration stream folds without crashing, deterministically, and the
state survives a JSON round trip at every step."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from referee.events import Declare, Event, Flick
from referee.rules.arithmetical import ArithmeticalCroquet, legal_steps, may_pass, target
from referee.rules.base import RULING_KINDS, canonical_json, make_game, replay

OPTION_SETS = st.fixed_dictionaries({}, optional={
    "arc_zone_includes_overshoot": st.booleans(),
    "arc_pass_instead_of_losing": st.booleans(),
    "arc_no_repeat_global": st.booleans(),
    "arc_max_turns": st.integers(1, 60),
})

ANY_EVENT = st.one_of(
    st.builds(lambda p, v: ("number", p, v), st.sampled_from([1, 2]), st.integers(-3, 112)),
    st.builds(lambda p: ("pass", p, None), st.sampled_from([1, 2])),
    st.builds(lambda p: ("croquet", p, None), st.sampled_from([1, 2])),
    st.just(("flick", 1, None)),
)


def to_events(script: list[tuple[str, int, int | None]]) -> list[Event]:
    events: list[Event] = []
    for index, (what, player, value) in enumerate(script):
        if what == "flick":
            events.append(Flick(float(index), "moons"))
        else:
            events.append(Declare(float(index), player, what, value=value))
    return events


def game_with(options: dict[str, Any]) -> ArithmeticalCroquet:
    game = make_game("arithmetical-croquet", options)
    assert isinstance(game, ArithmeticalCroquet)
    return game


@settings(max_examples=150, deadline=None)
@given(OPTION_SETS, st.lists(ANY_EVENT, max_size=60))
def test_random_streams_never_crash_and_fold_deterministically(
        options: dict[str, Any], script: list[tuple[str, int, int | None]]) -> None:
    game = game_with(options)
    events = to_events(script)
    first, second = replay(game, events), replay(game, events)
    assert [r.to_json() for r in first.rulings] == [r.to_json() for r in second.rulings]
    assert canonical_json(first.state.to_json()) == canonical_json(second.state.to_json())
    for ruling in first.rulings:
        assert ruling.kind in RULING_KINDS and ruling.clause and ruling.text
    json.dumps(first.state.summary())


@settings(max_examples=60, deadline=None)
@given(OPTION_SETS, st.data())
def test_mostly_legal_play_round_trips_through_json_at_every_step(
        options: dict[str, Any], data: st.DataObject) -> None:
    """Play legal numbers (sometimes a wrong one); at every step a copy made from JSON rules
    exactly as the original, and a player never lacks a legal move or a pass."""
    game = game_with(options)
    state = game.new_state()
    for turn in range(120):
        if state.is_terminal():
            assert state.summary()["legal_moves"] == []
            break
        position = state.position
        steps = legal_steps(position, game.rules)
        assert steps or may_pass(position, game.rules), position
        choices: list[tuple[str, int | None]] = [
            ("number", target(position.sides[position.mover], s)) for s, _ in steps]
        if may_pass(position, game.rules, steps):
            choices.append(("pass", None))
        what, value = data.draw(st.one_of(
            st.sampled_from(choices),
            st.tuples(st.just("number"), st.integers(-2, 110)),
            st.just(("pass", None))) if data.draw(st.integers(0, 5)) == 0
            else st.sampled_from(choices))
        event = Declare(float(turn), position.mover + 1, what, value=value)
        copy = game.state_from_json(json.loads(json.dumps(state.to_json())))
        assert copy.summary() == state.summary()
        assert ([r.to_json() for r in copy.apply(event)]
                == [r.to_json() for r in state.apply(event)])
        assert canonical_json(copy.to_json()) == canonical_json(state.to_json())
