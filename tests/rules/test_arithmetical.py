"""Arithmetical Croquet: one scenario a clause (ARC-01..11) and a option (RULES-SPEC §6)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from referee.events import Declare, Flick, Override
from referee.rules.arithmetical import (
    ArcState,
    ArithmeticalCroquet,
    Position,
    Side,
)
from referee.rules.base import InvalidEventError, OptionError, Ruling, make_game


def new_state(**options: Any) -> ArcState:
    game = make_game("arithmetical-croquet", options)
    assert isinstance(game, ArithmeticalCroquet)
    return game.new_state()


def state_at(one: Side, two: Side, mover: int = 1, turns: int = 10, **options: Any) -> ArcState:
    """A state in the middle of a game: `mover` (1 or 2) to play."""
    state = new_state(**options)
    state.position = Position((one, two), mover - 1, turns)
    return state


def number(state: ArcState, player: int, value: int | None) -> list[Ruling]:
    return state.apply(Declare(float(state.events), player, "number", value=value))


def passes(state: ArcState, player: int) -> list[Ruling]:
    return state.apply(Declare(float(state.events), player, "pass"))


def kinds(rulings: list[Ruling]) -> list[tuple[str, str]]:
    return [(r.kind, r.clause) for r in rulings]


def accepted(rulings: list[Ruling]) -> bool:
    return all(r.kind != "reject" for r in rulings)


def player_summary(state: ArcState, player: int) -> dict[str, Any]:
    return state.summary()["players"][str(player)]


# ---------------------------------------------------------------------------- ARC-01


def test_arc01_opening_numbers_are_one_to_eight() -> None:
    state = new_state()
    assert kinds(number(state, 1, 9)) == [("reject", "ARC-01")]
    assert kinds(number(state, 1, 0)) == [("reject", "ARC-01")]
    assert state.summary()["legal_moves"] == [1, 2, 3, 4, 5, 6, 7, 8]
    assert accepted(number(state, 1, 8))
    assert player_summary(state, 1)["pos"] == 8


def test_arc01_g_arc01_the_second_opening_is_barred_by_the_first() -> None:
    state = new_state()
    number(state, 1, 3)
    assert player_summary(state, 2)["barred"] == [3, 6]
    assert kinds(number(state, 2, 3)) == [("reject", "ARC-06")]
    assert kinds(number(state, 2, 6)) == [("reject", "ARC-06")]
    assert accepted(number(state, 2, 4))


# ---------------------------------------------------------------------------- ARC-02


def test_arc02_players_alternate_and_player_one_starts() -> None:
    state = new_state()
    rulings = number(state, 2, 3)
    assert kinds(rulings) == [("reject", "ARC-02")]
    assert "player 1's turn" in rulings[0].text
    number(state, 1, 3)
    assert kinds(number(state, 1, 5)) == [("reject", "ARC-02")]


def test_arc02_a_higher_number_at_most_eight_beyond_the_last() -> None:
    state = state_at(Side(pos=21, last_step=4), Side(pos=30 - 5, last_step=None))
    assert kinds(number(state, 1, 21)) == [("reject", "ARC-02")]
    assert kinds(number(state, 1, 19)) == [("reject", "ARC-02")]
    assert kinds(number(state, 1, 30)) == [("reject", "ARC-02")]
    assert kinds(number(state, 1, None)) == [("reject", "ARC-02")]
    assert kinds(number(state, 1, 22.5)) == [("reject", "ARC-02")]  # type: ignore[arg-type]
    rulings = number(state, 1, 29)
    assert kinds(rulings) == [("turn", "ARC-06")]
    assert rulings[0].extra["move_clause"] == "ARC-02"


# ---------------------------------------------------------------------------- ARC-03


def test_arc03_naming_100_wins_and_ends_the_game() -> None:
    state = state_at(Side(pos=95), Side(pos=60))
    rulings = number(state, 1, 100)
    assert kinds(rulings) == [("win", "ARC-03")]
    assert rulings[0].player == 1
    summary = state.summary()
    assert (summary["over"], summary["winner"], summary["result"]) == (True, 1, "win")
    assert summary["turn"]["player"] is None and summary["legal_moves"] == []
    assert state.is_terminal()
    assert kinds(number(state, 2, 64)) == [("reject", "ARC-03")]


# ---------------------------------------------------------------------------- ARC-04


def test_arc04_a_straddle_to_the_same_distance_above_takes_the_hoop() -> None:
    state = state_at(Side(pos=17), Side(pos=5))
    rulings = number(state, 1, 23)
    assert kinds(rulings) == [("score", "ARC-04"), ("turn", "ARC-06")]
    assert rulings[0].extra["hoop"] == 20
    assert player_summary(state, 1)["in_hoop"] is None


@pytest.mark.parametrize("start, named", [(17, 21), (17, 24), (17, 25), (15, 21), (14, 22)])
def test_arc04_any_other_number_above_the_hoop_misses_it(start: int, named: int) -> None:
    state = state_at(Side(pos=start), Side(pos=5))
    rulings = number(state, 1, named)
    assert kinds(rulings) == [("reject", "ARC-04")]
    assert "hoop 20" in rulings[0].text


def test_arc04_a_hoop_more_than_four_away_cannot_be_straddled() -> None:
    state = state_at(Side(pos=14), Side(pos=5))
    assert "too far to straddle; name 20 or less" in number(state, 1, 22)[0].text
    assert "only 23 takes it" in number(state_at(Side(pos=17), Side(pos=5)), 1, 22)[0].text


def test_arc04_g_arc02_hoop_90_can_be_straddled_but_100_is_no_hoop() -> None:
    state = state_at(Side(pos=87), Side(pos=5))
    assert kinds(number(state, 1, 93))[0] == ("score", "ARC-04")
    state = state_at(Side(pos=96), Side(pos=5))
    assert kinds(number(state, 1, 102)) == [("turn", "ARC-06")]  # a miss of the peg (ARC-08)


# ---------------------------------------------------------------------------- ARC-05


def test_arc05_into_a_hoop_then_out_with_the_number_so_ordered() -> None:
    state = state_at(Side(pos=17), Side(pos=5))
    rulings = number(state, 1, 20)
    assert rulings[0].extra["move_clause"] == "ARC-05"
    assert (player_summary(state, 1)["in_hoop"], player_summary(state, 1)["needs"]) == (20, 23)
    number(state, 2, 7)  # step 2: bars 2 and 7, not 3
    for wrong in (21, 22, 24, 28):
        assert kinds(number(state, 1, wrong)) == [("reject", "ARC-05")]
    assert state.summary()["legal_moves"] == [23]
    rulings = number(state, 1, 23)
    assert kinds(rulings)[0] == ("score", "ARC-05")
    assert player_summary(state, 1)["in_hoop"] is None


# ---------------------------------------------------------------------------- ARC-06


def test_arc06_a_step_bars_the_same_step_and_its_difference_from_nine() -> None:
    state = state_at(Side(pos=31), Side(pos=41))
    number(state, 1, 33)  # step 2
    assert player_summary(state, 2)["barred"] == [2, 7]
    assert kinds(number(state, 2, 43)) == [("reject", "ARC-06")]
    assert kinds(number(state, 2, 48)) == [("reject", "ARC-06")]
    assert accepted(number(state, 2, 44))


def test_arc06_g_arc04_a_bar_lasts_for_one_reply_and_a_pass_bars_nothing() -> None:
    state = state_at(Side(pos=31), Side(pos=41))
    number(state, 1, 33)  # bars 2/7 for player 2
    number(state, 2, 44)  # step 3
    number(state, 1, 34)  # step 1: player 2 may now step 2
    assert accepted(number(state, 2, 46))
    kept = state_at(Side(pos=20, req=3), Side(pos=13, last_step=3, keepin=True), mover=1)
    passes(kept, 1)
    assert player_summary(kept, 2)["barred"] == []


# ---------------------------------------------------------------------------- ARC-07


def test_arc07a_the_step_into_a_hoop_bars_nothing() -> None:
    state = state_at(Side(pos=17), Side(pos=5))
    rulings = number(state, 1, 20)  # step 3
    assert kinds(rulings) == [("turn", "ARC-07")]
    assert player_summary(state, 2)["barred"] == []
    assert accepted(number(state, 2, 8))  # step 3


def test_arc07b_no_barring_power_between_90_and_100_unless_both_are() -> None:
    state = state_at(Side(pos=89), Side(pos=50))
    rulings = number(state, 1, 91)  # step 2, from 89 over hoop 90 to 91
    assert kinds(rulings) == [("score", "ARC-04"), ("turn", "ARC-07")]
    assert accepted(number(state, 2, 52))  # step 2 is free
    both = state_at(Side(pos=92), Side(pos=95))
    number(both, 1, 94)  # step 2 from 92; player 2 is at 95, also in the zone
    assert player_summary(both, 2)["barred"] == [2, 7]
    assert kinds(number(both, 2, 97)) == [("reject", "ARC-06")]


def test_arc07b_g_arc05_the_zone_is_91_to_99_and_only_the_barring_player_counts() -> None:
    top = state_at(Side(pos=97), Side(pos=50))
    number(top, 1, 99)
    assert player_summary(top, 2)["barred"] == []
    state = state_at(Side(pos=50), Side(pos=91))
    number(state, 1, 52)  # the barred player's own place in the zone gives no protection
    assert player_summary(state, 2)["barred"] == [2, 7]


# ---------------------------------------------------------------------------- ARC-08


def test_arc08_the_peg_may_be_missed_once_then_play_goes_down() -> None:
    state = state_at(Side(pos=96), Side(pos=50))
    rulings = number(state, 1, 104)
    assert rulings[-1].extra["move_clause"] == "ARC-08"
    one = player_summary(state, 1)
    assert (one["pos"], one["dir"], one["missed"]) == (104, -1, 1)
    number(state, 2, 53)  # step 3: bars 3 and 6 for player 1
    assert kinds(number(state, 1, 105)) == [("reject", "ARC-08")]
    assert kinds(number(state, 1, 95)) == [("reject", "ARC-08")]
    assert kinds(number(state, 1, 101)) == [("reject", "ARC-06")]  # the same bars
    assert accepted(number(state, 1, 102))
    number(state, 2, 54)
    assert kinds(number(state, 1, 100)) == [("win", "ARC-03")]


# ---------------------------------------------------------------------------- ARC-09


def test_arc09_missing_the_peg_twice_loses() -> None:
    state = state_at(Side(pos=103, missed=True), Side(pos=50))
    rulings = number(state, 1, 98)
    assert kinds(rulings) == [("win", "ARC-09")]
    assert rulings[0].player == 2
    assert state.summary()["winner"] == 2


def test_arc09_g_arc08_a_player_may_pass_rather_than_lose() -> None:
    state = state_at(Side(pos=101, missed=True), Side(pos=50, last_step=1))
    assert state.summary()["legal_moves"] == [99, 98, 97, 96, 95, 94]
    assert state.summary()["turn"]["may_pass"]
    assert kinds(passes(state, 1)) == [("turn", "G-ARC-08")]
    assert player_summary(state, 1)["pos"] == 101


def test_g_arc08_no_pass_while_a_non_losing_number_exists() -> None:
    state = state_at(Side(pos=12), Side(pos=5))
    rulings = passes(state, 1)
    assert kinds(rulings) == [("reject", "G-ARC-08")]
    assert "13" in rulings[0].text


# ---------------------------------------------------------------------------- ARC-10


def test_arc10_keeping_a_player_in_with_his_number_or_its_difference_from_nine() -> None:
    for keep in (3, 6):
        state = state_at(Side(pos=20, req=3, last_step=3), Side(pos=31), mover=2)
        rulings = number(state, 2, 31 + keep)
        assert kinds(rulings) == [("turn", "ARC-10")]
        assert state.summary()["legal_moves"] == [] and state.summary()["turn"]["may_pass"]
        assert kinds(number(state, 1, 23)) == [("reject", "ARC-10")]
        assert kinds(passes(state, 1)) == [("turn", "ARC-10")]
        assert player_summary(state, 1)["in_hoop"] == 20


# ---------------------------------------------------------------------------- ARC-11


def test_arc11_keep_in_numbers_alternate_never_twice_running() -> None:
    state = state_at(Side(pos=17), Side(pos=31), mover=1)
    number(state, 1, 20)  # in hoop 20, needs 3
    number(state, 2, 34)  # keeps in with 3
    passes(state, 1)
    rulings = number(state, 2, 37)  # 3 again
    assert kinds(rulings) == [("reject", "ARC-11")]
    assert player_summary(state, 2)["no_repeat"] == 3
    assert accepted(number(state, 2, 40))  # 6: into hoop 40 — no barring power, so no keep-in
    assert accepted(number(state, 1, 23))


def test_arc11_the_keeper_plays_three_six_three_until_the_course_stops_him() -> None:
    state = state_at(Side(pos=17), Side(pos=44), mover=1)
    number(state, 1, 20)
    for keep in (3, 6, 3):
        assert accepted(number(state, 2, player_summary(state, 2)["pos"] + keep))
        assert accepted(passes(state, 1))
    assert player_summary(state, 2)["pos"] == 56
    assert kinds(number(state, 2, 59)) == [("reject", "ARC-11")]  # 3 twice running
    assert kinds(number(state, 2, 62)) == [("reject", "ARC-04")]  # 6 would miss hoop 60
    assert accepted(number(state, 2, 57))
    assert accepted(number(state, 1, 23))


def test_arc11_g_arc10_outside_a_keep_in_a_step_may_be_repeated() -> None:
    state = state_at(Side(pos=1), Side(pos=2))
    number(state, 1, 3)  # step 2
    number(state, 2, 5)  # step 3
    assert accepted(number(state, 1, 5))  # step 2 again


# ---------------------------------------------------------------------------- options


def test_option_arc_zone_includes_overshoot() -> None:
    def after_overshooter_steps(**options: Any) -> list[int]:
        state = state_at(Side(pos=106, missed=True), Side(pos=50), **options)
        number(state, 1, 104)  # step 2
        return player_summary(state, 2)["barred"]

    assert after_overshooter_steps() == [2, 7]
    assert after_overshooter_steps(arc_zone_includes_overshoot=True) == []
    both = state_at(Side(pos=106, missed=True), Side(pos=95),
                    arc_zone_includes_overshoot=True)
    number(both, 1, 104)
    assert player_summary(both, 2)["barred"] == [2, 7]


def test_option_arc_pass_instead_of_losing_false_forces_a_losing_number() -> None:
    state = state_at(Side(pos=101, missed=True), Side(pos=50, last_step=1),
                     arc_pass_instead_of_losing=False)
    assert not state.summary()["turn"]["may_pass"]
    assert kinds(passes(state, 1)) == [("reject", "G-ARC-08")]
    assert kinds(number(state, 1, 99)) == [("win", "ARC-09")]
    kept = state_at(Side(pos=20, req=3), Side(pos=34, last_step=3, keepin=True),
                    arc_pass_instead_of_losing=False)
    assert kinds(passes(kept, 1)) == [("turn", "ARC-10")]  # no legal number at all


def test_option_arc_no_repeat_global() -> None:
    state = state_at(Side(pos=1), Side(pos=2), arc_no_repeat_global=True)
    number(state, 1, 3)  # step 2
    number(state, 2, 5)  # step 3
    assert kinds(number(state, 1, 5)) == [("reject", "G-ARC-10")]
    assert accepted(number(state, 1, 4))
    hoop = state_at(Side(pos=17), Side(pos=2), arc_no_repeat_global=True)
    number(hoop, 1, 20)  # step 3 in
    number(hoop, 2, 4)
    assert kinds(number(hoop, 1, 23))[0] == ("score", "ARC-05")  # the ordered 3 is exempt


def test_option_arc_max_turns_closer_to_100_wins_or_draws() -> None:
    state = new_state(arc_max_turns=3)
    number(state, 1, 8)
    number(state, 2, 6)
    rulings = number(state, 1, 9)
    assert kinds(rulings) == [("win", "G-ARC-12")]
    assert rulings[0].player == 1
    two_turns = new_state(arc_max_turns="2")
    number(two_turns, 1, 4)
    rulings = number(two_turns, 2, 6)
    assert kinds(rulings) == [("win", "G-ARC-12")]
    assert rulings[0].player == 2
    level = state_at(Side(pos=97), Side(pos=103, missed=True), turns=4, arc_max_turns=5)
    number(level, 1, 98)  # 2 from the peg against 3
    assert (level.summary()["over"], level.summary()["winner"]) == (True, 1)


def test_option_arc_max_turns_tie_is_a_draw() -> None:
    state = state_at(Side(pos=95), Side(pos=104, missed=True), turns=4, arc_max_turns=5)
    rulings = number(state, 1, 96)  # both 4 from the peg
    assert kinds(rulings) == [("win", "G-ARC-12")]
    assert rulings[0].player is None and "drawn" in rulings[0].text
    assert state.summary()["result"] == "draw"


@pytest.mark.parametrize("options, words", [
    ({"arc_nonsense": "1"}, "unknown option"),
    ({"arc_no_repeat_global": "maybe"}, "not a boolean"),
    ({"arc_max_turns": "0"}, "at least 1"),
    ({"arc_max_turns": "many"}, "not a int"),
    ({"layout_file": "x.json"}, "no layout"),
])
def test_bad_options_are_refused_with_the_valid_ones(options: dict[str, str], words: str) -> None:
    with pytest.raises(OptionError, match=words):
        make_game("arithmetical-croquet", options)


def test_default_options_are_the_spec_defaults() -> None:
    assert make_game("arithmetical-croquet").options == {
        "arc_zone_includes_overshoot": False, "arc_pass_instead_of_losing": True,
        "arc_no_repeat_global": False, "arc_max_turns": None}
    assert make_game("arithmetical-croquet", {"arc_max_turns": "off"}).options[
        "arc_max_turns"] is None


# ---------------------------------------------------------------------------- events


def test_other_events_and_declarations_are_rejected() -> None:
    state = new_state()
    assert kinds(state.apply(Flick(0.0, "moons"))) == [("reject", "§5.1")]
    assert kinds(state.apply(Override(0.0, "0.0"))) == [("reject", "§5.1")]
    assert kinds(state.apply(Declare(0.0, 1, "croquet", kind=1))) == [("reject", "§5.1")]
    assert state.summary()["turn"] == {"player": 1, "number": 1, "may_pass": False}
    with pytest.raises(InvalidEventError):
        state.apply(Declare(0.0, 3, "number", value=4))


def test_rulings_are_data_with_stable_ids_and_the_rules_words() -> None:
    state = new_state()
    state.apply(Flick(0.0, "moons"))
    rulings = number(state, 1, 3)
    assert [r.id for r in rulings] == ["1.0"] and rulings[0].of == 1
    out = rulings[0].to_json()
    assert out["rule"].startswith("Whatever step one player takes")
    assert out["bars"] == [3, 6] and out["legal"] == [1, 2, 4, 5, 7, 8]
    json.dumps(out)


def test_summary_schema() -> None:
    state = new_state()
    number(state, 1, 7)
    summary = state.summary()
    assert set(summary) == {"game", "over", "winner", "result", "end_clause", "turns", "turn",
                            "players", "legal_moves", "options"}
    assert summary["game"] == "arithmetical-croquet"
    assert summary["players"]["1"] == {"pos": 7, "dir": 1, "missed": 0, "in_hoop": None,
                                       "needs": None, "last_step": 7, "barred": [],
                                       "no_repeat": None}
    assert summary["players"]["2"]["barred"] == [2, 7]
    assert summary["turn"] == {"player": 2, "number": 2, "may_pass": False}
    json.dumps(summary)


def test_json_round_trip_behaves_identically() -> None:
    game = make_game("arithmetical-croquet")
    state = game.new_state()
    for player, value in ((1, 7), (2, 5), (1, 10), (2, 12)):
        number(state, player, value)
    copy = game.state_from_json(json.loads(json.dumps(state.to_json())))
    assert copy.to_json() == state.to_json() and copy.summary() == state.summary()
    for player, value in ((2, 15), (1, 17), (2, 16)):
        assert ([r.to_json() for r in number(copy, player, value)]
                == [r.to_json() for r in number(state, player, value)])
    with pytest.raises(OptionError):
        make_game("arithmetical-croquet", {"arc_max_turns": "9"}).state_from_json(
            state.to_json())
    with pytest.raises(InvalidEventError):
        game.state_from_json({**state.to_json(), "game": "castle-croquetnole"})
