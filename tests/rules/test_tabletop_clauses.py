"""Tabletop Croquet, clause by clause (RULES-SPEC §4.2-4.3): one scenario per clause.

Each test's name cites the clause it checks; the scenarios are written from Biggar's words.
"""

from __future__ import annotations

import pytest

from referee.rules.base import OptionError
from referee.rules.tabletop_text import CLAUSES
from tests.rules.test_tabletop_helpers import Play

START = (-498.5, 0.0)


# --------------------------------------------------------------------------- flick and setup
def test_ttc01_flick_form_is_advisory_by_default() -> None:
    g = Play(players=2)
    g.flick("moons", finger_ms=900.0).cross("moons", "wicket-1", "+").settle()
    assert g.player(1)["course_done"] == 1 and not g.has("TTC-01")


def test_ttc01_push_is_a_foul_when_enforced() -> None:
    g = Play(players=2, enforce_flick_form=True)
    g.flick("moons", finger_ms=900.0).cross("moons", "wicket-1", "+").settle()
    assert g.last("foul").clause == "TTC-01"
    assert g.player(1)["course_done"] == 0  # the push's effects are void
    assert g.turn["player"] == 2  # and the flick was spent


def test_ttc02_ttc03_course_has_nine_wickets_and_two_endposts() -> None:
    layout = Play(players=2).game.layout
    assert sorted(layout.lines) == sorted(f"wicket-{n}" for n in range(1, 10))
    assert {p.role for p in layout.pieces.values()} == {"wicket", "endpost"}
    assert layout.pieces["endpost-left"].layers == 3 == layout.pieces["endpost-right"].layers


def test_ttc07_surface_has_no_rule_effect() -> None:
    assert "TTC-07" in CLAUSES  # quoted for completeness; no ruling cites it
    g = Play(players=2)
    g.run_up("moons", 3)
    assert "TTC-07" not in g.clauses()


@pytest.mark.parametrize("n", [2, 5, 10])
def test_ttc08_two_to_ten_players_each_with_a_coin(n: int) -> None:
    coins = [p["coin"] for p in Play(players=n).summary["players"].values()]
    assert len(coins) == n == len(set(coins))


@pytest.mark.parametrize("n", [1, 11])
def test_ttc08_player_count_outside_two_to_ten_is_refused(n: int) -> None:
    with pytest.raises(OptionError):
        Play(players=n)


def test_ttc08_a_flipped_coin_keeps_its_identity_and_is_turned_back() -> None:
    g = Play(players=2)
    g.place("moons", START).face("moons", "ace")
    assert g.last("place").clause == "TTC-08"
    g.face("moons", "moons")
    assert g.summary["pending_placements"] == []


def test_ttc09_playing_order_is_the_coin_order() -> None:
    players = Play(players=10).summary["players"]
    assert [players[str(i)]["coin"] for i in range(1, 11)] == [
        "moons", "suns", "arms", "crowns", "null", "ace", "2", "3", "4", "5"]
    assert [players[str(i)]["colour"] for i in range(1, 5)] == ["black", "red", "blue", "green"]


def test_ttc09_chosen_coins_play_in_the_standard_order() -> None:
    g = Play(ttc_coins="3,ace,suns")
    assert [p["coin"] for p in g.summary["players"].values()] == ["suns", "ace", "3"]


def test_ttc09_flicking_another_players_coin_is_a_foul_no_flick_spent() -> None:
    g = Play(players=3)
    g.place("moons", START).flick("suns").settle()
    assert g.last("foul").clause == "TTC-09"
    assert g.turn["player"] == 1 and g.turn["flicks_left"] == 1


# --------------------------------------------------------------------------- placement
def test_ttc10_first_placement_in_the_start_zone() -> None:
    g = Play(players=2)
    assert g.summary["start_spot"] == [-498.47, 0.0]
    g.place("moons", START)
    assert g.player(1)["status"] == "in_play" and not g.has("G-TTC-16")


@pytest.mark.parametrize("at", [(-400.0, 0.0), (-560.0, 60.0), (-620.0, 0.0)])
def test_ttc10_g_ttc16_placement_outside_the_start_zone_is_rejected(at) -> None:
    g = Play(players=2)
    g.place("moons", at)
    assert g.last("reject").clause == "G-TTC-16"
    assert g.player(1)["status"] == "unplaced"


def test_ttc10_coins_are_placed_in_the_standard_order() -> None:
    g = Play(players=2)
    g.place("suns", START)
    assert g.last("reject").clause == "TTC-10"


def test_ttc10_flick_without_placement_uses_the_suggested_spot() -> None:
    g = Play(players=2)
    g.flick("moons").settle()
    assert g.player(1)["status"] == "in_play"
    assert g.last("place").clause == "TTC-10" and g.last("place").player == 2


def test_g_ttc16_suggested_spot_moves_aside_when_taken() -> None:
    g = Play(players=2)
    g.place("moons", (-498.47, 0.0)).flick("moons").settle(moons=(-498.47, 0.0))
    assert g.summary["start_spot"] != [-498.47, 0.0]


# --------------------------------------------------------------------------- the course
def test_ttc11_ttc12_the_whole_course_in_order_wins() -> None:
    g = Play(players=2)
    g.flick("moons").items("moons", 0, 16)
    assert g.summary["over"] and g.summary["winner"] == 1
    assert g.last("win").clause == "TTC-33"


def test_ttc12_ttc33_no_flicks_after_the_game_is_over() -> None:
    g = Play(players=2)
    g.flick("moons").items("moons", 0, 16).settle().flick("suns")
    assert g.last("reject").clause == "TTC-33"


def test_ttc13_centre_crossing_the_wicket_line_passes_it() -> None:
    g = Play(players=2)
    g.flick("moons").cross("moons", "wicket-1", "+")
    assert g.last("score").clause == "TTC-16" and g.player(1)["next"] == "wicket-2+"


def test_ttc14_wrong_direction_earns_nothing() -> None:
    g = Play(players=2)
    g.flick("moons").cross("moons", "wicket-1", "-").settle()
    assert g.last("bonus").clause == "TTC-14" and g.player(1)["course_done"] == 0
    assert g.turn["player"] == 2


def test_ttc14_after_the_right_endpost_wickets_go_right_to_left() -> None:
    g = Play(players=2)
    g.flick("moons").items("moons", 0, 8).cross("moons", "wicket-7", "+")
    assert g.last().clause == "TTC-14" and g.player(1)["next"] == "wicket-7-"
    g.cross("moons", "wicket-7", "-")
    assert g.last("score").clause == "TTC-16" and g.player(1)["next"] == "wicket-6-"


def test_ttc15_one_free_flick_then_the_turn_passes() -> None:
    g = Play(players=3)
    assert g.turn["flicks_left"] == 1
    g.flick("moons").settle()
    assert g.turn["player"] == 2 and g.turn["flicks_left"] == 1
    assert g.last("turn").clause == "TTC-15"


def test_ttc16_each_next_wicket_earns_a_flick() -> None:
    g = Play(players=2)
    g.flick("moons").cross("moons", "wicket-1", "+").settle()
    assert g.turn == {**g.turn, "player": 1, "flicks_left": 1}


def test_g_ttc05_two_wickets_in_one_flick_earn_two() -> None:
    g = Play(players=2)
    g.flick("moons").cross("moons", "wicket-1", "+").cross("moons", "wicket-2", "+").settle()
    assert g.turn["flicks_left"] == 2


def test_ttc17_right_endpost_after_wicket_7_earns_a_flick() -> None:
    g = Play(players=2)
    g.flick("moons").items("moons", 0, 7).hit("moons", "endpost-right")
    assert g.last("score").clause == "TTC-17" and g.last("score").bonus == 1


def test_ttc18_right_endpost_out_of_order_earns_nothing() -> None:
    g = Play(players=2)
    g.flick("moons").hit("moons", "endpost-right").settle()
    assert g.last("bonus").clause == "TTC-18" and g.player(1)["course_done"] == 0


def test_ttc18_wicket_out_of_order_earns_nothing_and_undoes_nothing() -> None:
    g = Play(players=2)
    g.flick("moons").cross("moons", "wicket-1", "+").cross("moons", "wicket-3", "+")
    assert g.last("bonus").clause == "TTC-18" and g.player(1)["course_done"] == 1


def test_g_ttc18_g_ttc19_repeated_wickets_need_their_direction() -> None:
    g = Play(players=2)
    g.flick("moons").items("moons", 0, 3).cross("moons", "wicket-2", "-")
    assert g.player(1)["course_done"] == 3  # W2 back is item 13, not now


# --------------------------------------------------------------------------- hits
def test_ttc19_hitting_a_coin_earns_two_flicks_and_an_action() -> None:
    g = Play(players=2)
    g.flick("moons").settle().flick("suns").contact("suns", "moons")
    r = g.last("bonus")
    assert r.clause == "TTC-19" and r.bonus == 2
    assert g.turn["actions_due"] == ["moons"]


def test_g_ttc17_a_coin_not_yet_placed_cannot_be_hit() -> None:
    g = Play(players=3)
    g.flick("moons").contact("moons", "arms")
    assert not g.has("TTC-19") and g.turn["flicks_left"] == 0


def test_ttc20_action_is_declared_after_settle() -> None:
    g = Play(players=2)
    g.flick("moons").settle().flick("suns").contact("suns", "moons")
    g.declare(2, "action", option=1)
    assert g.last("reject").clause == "TTC-20"  # still moving
    g.settle().declare(2, "action", option=1)
    assert g.last("bonus").clause == "TTC-21" and g.turn["actions_due"] == []


def test_ttc20_no_declaration_means_action_1() -> None:
    g = Play(players=2)
    g.flick("moons").settle().flick("suns").contact("suns", "moons").settle().flick("suns")
    r = g.last("bonus", "TTC-20")
    assert r.extra["action"] == 1


@pytest.mark.parametrize("option", [0, 5, None])
def test_ttc20_action_must_be_one_to_four(option) -> None:
    g = Play(players=2)
    g.flick("moons").settle().flick("suns").contact("suns", "moons").settle()
    g.declare(2, "action", option=option)
    assert g.last("reject").clause == "TTC-20"


def test_ttc20_no_action_without_a_hit() -> None:
    g = Play(players=2)
    g.declare(1, "action", option=1)
    assert g.last("reject").clause == "TTC-20"


def _after_hit(**options) -> Play:
    g = Play(players=2, **options)
    g.flick("moons").settle(moons=(-300.0, 0.0))
    g.flick("suns").contact("suns", "moons").settle(suns=(-340.0, 0.0))
    return g


def test_ttc21_action_1_plays_on_from_where_the_coin_lies() -> None:
    g = _after_hit()
    g.declare(2, "action", option=1)
    assert g.summary["pending_placements"] == [] and g.turn["coin"] == "suns"


def test_ttc22_action_2_moves_the_coin_within_a_coin_width() -> None:
    g = _after_hit()
    g.declare(2, "action", option=2)
    assert g.last("place").clause == "TTC-22"
    g.place("suns", (-300.0, 30.0))  # 11 mm edge gap
    assert g.summary["pending_placements"] == []
    assert g.turn["coin"] == "suns" and g.turn["flicks_left"] == 2


@pytest.mark.parametrize("at", [(-300.0, 45.0), (-300.0, 10.0)])
def test_ttc22_g_ttc08_action_2_too_far_or_overlapping_is_rejected(at) -> None:
    g = _after_hit()
    g.declare(2, "action", option=2).place("suns", at)
    assert g.last("reject").clause == "TTC-22"


def test_ttc23_action_3_next_flick_is_the_hit_coin_and_costs_one() -> None:
    g = _after_hit()
    g.declare(2, "action", option=3)
    assert g.turn["coin"] == "moons"
    g.flick("moons").cross("moons", "wicket-1", "+").settle()
    assert g.last("score").clause == "TTC-27" and g.last("score").bonus == 0
    assert g.turn["coin"] == "suns" and g.turn["flicks_left"] == 1


def test_ttc23_flicking_own_coin_instead_of_the_hit_coin_is_a_foul() -> None:
    g = _after_hit()
    g.declare(2, "action", option=3).flick("suns").settle()
    assert g.last("foul").clause == "TTC-23" and g.turn["flicks_left"] == 2


def test_g_ttc07_the_hit_coin_hitting_the_player_is_not_a_hit() -> None:
    g = _after_hit()
    g.declare(2, "action", option=3).flick("moons").contact("moons", "suns").settle()
    assert g.turn["flicks_left"] == 1 and g.last("bonus").clause == "TTC-23"


def test_ttc24_action_4_moves_then_flicks_the_hit_coin() -> None:
    g = _after_hit()
    g.declare(2, "action", option=4)
    assert g.last("place").clause == "TTC-24" and g.turn["coin"] == "moons"
    g.place("suns", (-300.0, -25.0)).flick("moons").settle()
    assert g.turn["coin"] == "suns" and g.turn["flicks_left"] == 1


def test_ttc25_no_repeat_earning_until_a_wicket() -> None:
    g = Play(players=2)
    g.flick("moons").settle()
    g.flick("suns").contact("suns", "moons").settle().declare(2, "action", option=1)
    g.flick("suns").contact("suns", "moons")
    assert g.last("bonus").clause == "TTC-25" and g.last("bonus").bonus == 0
    g.cross("suns", "wicket-1", "+").settle()
    g.flick("suns").contact("suns", "moons")
    assert g.last("bonus").clause == "TTC-19" and g.last("bonus").bonus == 2


def test_ttc25_hitting_an_endpost_resets_the_hit_list() -> None:
    """Source over spec: "until his coin has … hit an endpost" (any endpost, any order)."""
    g = Play(players=2)
    g.flick("moons").settle()
    g.flick("suns").contact("suns", "moons").settle()
    g.flick("suns").hit("suns", "endpost-left")
    assert g.has("G-TTC-09") and g.player(2)["course_done"] == 0
    g.contact("suns", "moons")
    assert g.last("bonus").clause == "TTC-19" and g.last("bonus").bonus == 2


def test_g_ttc09_spec_reading_endpost_out_of_order_does_not_reset() -> None:
    g = Play(players=2, ttc_reset_on_any_endpost=False)
    g.flick("moons").settle()
    g.flick("suns").contact("suns", "moons").settle()
    g.flick("suns").hit("suns", "endpost-left").contact("suns", "moons")
    assert g.last("bonus").clause == "TTC-25"


def test_ttc19_every_coin_hit_in_a_flick_earns_two() -> None:
    """Source over spec: TTC-19 pays each hit; the source has no one-hit-per-flick limit."""
    g = Play(players=3)
    g.flick("moons").settle().flick("suns").settle()
    g.flick("arms").contact("arms", "moons").contact("arms", "suns")
    assert g.turn["flicks_left"] == 4 and g.turn["actions_due"] == ["moons", "suns"]


def test_g_ttc06_spec_reading_only_the_first_hit_of_a_flick_earns() -> None:
    g = Play(players=3, multi_strike="first_only")
    g.flick("moons").settle().flick("suns").settle()
    g.flick("arms").contact("arms", "moons").contact("arms", "suns")
    assert g.last("bonus").clause == "G-TTC-06" and g.turn["flicks_left"] == 2


def test_ttc26_every_flick_must_be_used() -> None:
    g = Play(players=2)
    g.flick("moons").cross("moons", "wicket-1", "+").settle()
    g.declare(1, "end_play")
    assert g.last("reject").clause == "TTC-26" and g.turn["player"] == 1


def test_ttc26_no_carry_over_between_turns() -> None:
    g = Play(players=2)
    g.run_up("moons", 3)
    g.burn()
    assert g.turn["player"] == 1 and g.turn["flicks_left"] == 1


def test_ttc27_knocked_through_its_next_wicket_counts_without_flicks() -> None:
    g = Play(players=2)
    g.flick("moons").settle()
    g.flick("suns").contact("suns", "moons").cross("moons", "wicket-1", "+")
    assert g.last("score").clause == "TTC-27" and g.player(1)["course_done"] == 1
    assert g.turn["flicks_left"] == 2  # only the hit's flicks


# --------------------------------------------------------------------------- fouls
def test_ttc28_own_coin_off_the_table_loses_the_flicks() -> None:
    g = Play(players=2)
    g.flick("moons").cross("moons", "wicket-1", "+").cross("moons", "wicket-2", "+").settle()
    assert g.turn["flicks_left"] == 2
    g.flick("moons").off("moons", (0.0, 457.2)).settle()
    r = g.last("foul")
    assert r.clause == "TTC-28" and r.at == (0.0, pytest.approx(457.2 - 19.05))
    assert g.turn["player"] == 2


def test_g_ttc12_flicks_earned_in_the_flick_that_went_off_are_lost() -> None:
    g = Play(players=2)
    g.flick("moons").off("moons", (0.0, 457.2)).cross("moons", "wicket-1", "+").settle()
    assert g.player(1)["course_done"] == 1  # the pass stands
    assert g.turn["player"] == 2


def test_ttc29_other_coin_off_the_table_is_put_back_no_penalty() -> None:
    g = Play(players=2)
    g.flick("moons").settle()
    g.flick("suns").contact("suns", "moons").off("moons", (700.0, 457.2)).settle()
    assert g.last("place").clause == "TTC-29"
    assert g.turn["player"] == 2 and g.turn["flicks_left"] == 2


def test_g_ttc13_hit_coin_flicked_off_under_action_3_is_put_back() -> None:
    g = _after_hit()
    g.declare(2, "action", option=3).flick("moons").off("moons", (0.0, -457.2)).settle()
    assert g.last("place").clause == "G-TTC-13" and g.turn["flicks_left"] == 1


def test_ttc30_a_knocked_tile_must_be_restored_before_the_next_flick() -> None:
    g = Play(players=2)
    g.tile("wicket-4-a", 8.0)
    assert g.last("place").clause == "TTC-30"
    g.flick("moons")
    assert g.last("place").clause == "TTC-30"  # reminder: judged on the registered place


def test_ttc30_a_restored_tile_needs_no_reminder() -> None:
    g = Play(players=2)
    g.tile("wicket-4-a", 8.0).tile("wicket-4-a", 0.5).flick("moons")
    assert g.new == []


def test_ttc31_coins_are_played_where_they_lie() -> None:
    g = Play(players=2)
    g.flick("moons").settle(moons=(-450.0, 0.0))
    g.place("moons", (-300.0, 0.0))
    r = g.last("place")
    assert r.clause == "TTC-31" and r.at == (-450.0, 0.0)


def test_ttc32_moving_a_touching_coin_is_not_a_hit() -> None:
    g = Play(players=2)
    g.flick("moons").settle(moons=(-300.0, 0.0))
    g.flick("suns").settle(suns=(-319.0, 0.0))
    g.flick("moons").contact("moons", "suns")
    assert g.last("bonus").clause == "TTC-32" and g.turn["player"] == 1
    g.contact("moons", "suns")  # separated and hit again in the same flick: a hit
    assert g.last("bonus").clause == "TTC-19"


# --------------------------------------------------------------------------- passive endposts
def test_g_ttc15_knocked_into_the_right_endpost_counts() -> None:
    g = Play(players=2)
    g.run_up("moons", 7)
    g.flick("suns").contact("suns", "moons").hit("moons", "endpost-right")
    assert g.last("score").clause == "G-TTC-15" and g.player(1)["next"] == "wicket-7-"


def test_g_ttc15_knocked_into_the_left_endpost_wins_for_the_owner() -> None:
    g = Play(players=2)
    g.run_up("moons", 15)
    g.flick("suns").contact("suns", "moons").hit("moons", "endpost-left")
    assert g.summary["winner"] == 1 and g.last("win").clause == "G-TTC-15"


# --------------------------------------------------------------------------- team play
def test_ttc_tm1_teams_interleave_in_the_playing_order() -> None:
    g = Play(players=6, ttc_team=True)
    assert [g.player(i)["team"] for i in range(1, 7)] == [1, 2, 1, 2, 1, 2]
    g3 = Play(players=6, ttc_team=True, ttc_teams=3)
    assert [g3.player(i)["team"] for i in range(1, 7)] == [1, 2, 3, 1, 2, 3]


@pytest.mark.parametrize("players", [2, 3, 5])
def test_ttc_tm1_team_play_needs_4_6_8_or_10(players: int) -> None:
    with pytest.raises(OptionError):
        Play(players=players, ttc_team=True)


def test_ttc_tm3_no_flicks_for_hitting_a_teammate() -> None:
    g = Play(players=4, ttc_team=True)
    g.flick("moons").settle().flick("suns").settle()
    g.flick("arms").contact("arms", "moons")
    assert g.last("bonus").clause == "TTC-TM3" and g.turn["actions_due"] == []
    g.contact("arms", "suns")
    assert g.last("bonus").clause == "TTC-19"


def test_ttc_tm4_hitting_the_endpost_leaves_the_game() -> None:
    g = Play(players=4, ttc_team=True)
    g.flick("moons").items("moons", 0, 16)
    assert g.last("score").clause == "TTC-TM4" and g.player(1)["status"] == "done"
    g.settle()
    assert g.turn["player"] == 2  # no coin left: the turn ends
    assert any(r.extra.get("placement") == "remove" and r.coin == "moons" for r in g.rulings)


def test_ttc_tm4_rover_only_after_the_last_wicket() -> None:
    g = Play(players=4, ttc_team=True)
    g.declare(1, "rover")
    assert g.last("reject").clause == "TTC-TM4"
    g.flick("moons").items("moons", 0, 15).settle().declare(1, "rover")
    assert g.player(1)["status"] == "rover" and g.last("score").clause == "TTC-TM4"


def test_ttc_tm4_rover_needs_team_play() -> None:
    g = Play(players=2)
    g.flick("moons").items("moons", 0, 15).settle().declare(1, "rover")
    assert g.last("reject").clause == "TTC-TM4"


def _rover(**options) -> Play:
    g = Play(players=4, ttc_team=True, **options)
    g.flick("moons").items("moons", 0, 15).settle().declare(1, "rover").burn()
    return g


def test_ttc_tm5_ttc_tm6_rover_earns_once_per_wicket_either_way() -> None:
    g = _rover()
    g.burn().burn().burn()
    assert g.turn["player"] == 1
    g.flick("moons").cross("moons", "wicket-5", "-").cross("moons", "wicket-3", "+")
    assert g.clauses(g.rulings[-2:]) == ["TTC-TM6", "TTC-TM6"] and g.turn["flicks_left"] == 2
    g.cross("moons", "wicket-5", "+")
    assert g.last("bonus").bonus == 0 and g.turn["flicks_left"] == 2


def test_ttc_tm7_rover_hits_opponents_once_per_turn_with_an_action() -> None:
    g = _rover()
    g.flick("suns").settle().burn().burn()
    g.flick("moons").contact("moons", "suns")
    assert g.last("bonus").clause == "TTC-TM7" and g.turn["actions_due"] == ["suns"]
    g.cross("moons", "wicket-1", "-").settle().declare(1, "action", option=1)
    g.flick("moons").contact("moons", "suns")
    assert g.last("bonus").bonus == 0  # no reset by wickets for a rover


def test_ttc_tm8_forcing_a_rover_out() -> None:
    g = _rover()
    g.flick("suns").contact("suns", "arms").settle()  # unplaced arms: no hit
    assert g.turn["player"] == 3
    g.flick("arms").cross("arms", "wicket-1", "+").settle()
    g.flick("moons").hit("moons", "endpost-left").settle()
    assert g.player(1)["status"] == "done" and g.last("score").clause == "TTC-TM8"


def test_ttc_tm8_one_attempt_per_rover_per_turn() -> None:
    g = _rover()
    g.flick("suns").cross("suns", "wicket-1", "+").cross("suns", "wicket-2", "+").settle()
    g.flick("moons").settle()  # first attempt: costs one flick
    assert g.turn["flicks_left"] == 1
    g.flick("moons").settle()
    assert g.last("reject").clause == "TTC-TM8" and g.turn["flicks_left"] == 1


def test_g_ttc23_a_knocked_rover_touching_the_left_endpost_is_done() -> None:
    g = _rover()
    g.flick("suns").contact("suns", "moons").hit("moons", "endpost-left").settle()
    assert g.player(1)["status"] == "done" and g.last("score").clause == "G-TTC-23"


def test_ttc_tm2_team_wins_when_all_members_complete() -> None:
    g = Play(players=4, ttc_team=True)
    g.flick("moons").items("moons", 0, 16).settle()
    g.burn()
    g.flick("arms").items("arms", 0, 16).settle()
    assert g.summary["over"] and g.summary["winning_team"] == 1
    assert g.last("win").clause == "TTC-TM2"


def test_g_ttc26_players_who_left_are_skipped() -> None:
    g = Play(players=4, ttc_team=True)
    g.flick("moons").items("moons", 0, 16).settle().burn().burn().burn()
    assert g.turn["player"] == 2 and g.turn["round"] == 2


# --------------------------------------------------------------------------- poison
def _poison(players: int = 3, **options) -> Play:
    g = Play(players=players, ttc_poison=True, **options)
    g.flick("moons").items("moons", 0, 16)
    return g


def test_ttc_p1_completion_makes_the_coin_poison_not_a_winner() -> None:
    g = _poison()
    assert g.player(1)["status"] == "poison" and not g.summary["over"]
    assert g.last("score").clause == "TTC-P1"
    g.settle().declare(1, "poison")
    assert g.new == []  # the declaration confirms what the referee recorded


def test_ttc_p1_poison_declaration_before_completing_is_rejected() -> None:
    g = Play(players=3, ttc_poison=True)
    g.declare(1, "poison")
    assert g.last("reject").clause == "TTC-P1"


def test_ttc_p2_ttc_p3_ttc_p4_poison_kills_and_earns_two() -> None:
    g = _poison()
    g.settle().burn()
    g.flick("suns").settle().flick("arms").settle()
    g.flick("moons").contact("moons", "suns")
    assert g.last("capture").clause == "TTC-P3" and g.player(2)["status"] == "killed"
    assert g.last("bonus").clause == "TTC-P4" and g.turn["flicks_left"] == 2
    g.settle().burn()
    assert g.turn["player"] == 3  # the killed player's turns are skipped


def test_ttc_p5_a_knocked_poison_coin_kills_nothing() -> None:
    g = _poison()
    g.settle().burn()
    g.flick("suns").contact("suns", "moons").contact("moons", "arms")
    assert not g.has("TTC-P3") and g.player(2)["status"] == "in_play"


def test_ttc_p5_active_poison_hitting_poison_kills_only_the_hit_coin() -> None:
    g = Play(players=3, ttc_poison=True)
    g.flick("moons").items("moons", 0, 16).settle().burn()
    g.flick("suns").items("suns", 0, 16).settle().burn()
    g.flick("arms").settle()
    g.flick("moons").contact("moons", "suns")
    assert g.last("capture").clause == "TTC-P5"
    assert g.player(2)["status"] == "killed" and g.player(1)["status"] == "poison"


def test_g_ttc27_the_last_coin_alive_wins() -> None:
    g = _poison(players=2)
    g.settle().burn()
    g.flick("suns").settle()
    g.flick("moons").contact("moons", "suns")
    assert g.summary["over"] and g.summary["winner"] == 1
    assert g.last("win").clause == "G-TTC-27"


def test_g_ttc28_poison_earns_nothing_for_wickets() -> None:
    g = _poison()
    g.cross("moons", "wicket-1", "-")
    assert g.last("bonus").clause == "G-TTC-28" and g.last("bonus").bonus == 0


def test_ttc_p_poison_is_for_non_team_play() -> None:
    with pytest.raises(OptionError):
        Play(players=4, ttc_team=True, ttc_poison=True)


# --------------------------------------------------------------------------- more resolutions
def test_g_ttc04_a_graze_below_the_hit_speed_is_not_a_hit() -> None:
    g = Play(players=2)
    g.flick("moons").items("moons", 0, 7).hit("moons", "endpost-right", speed=3.0)
    assert g.player(1)["next"] == "endpost-right"
    g.hit("moons", "endpost-right", speed=200.0)
    assert g.player(1)["next"] == "wicket-7-"


def test_g_ttc22_first_turn_is_placement_then_a_normal_turn() -> None:
    g = Play(players=2)
    g.place("moons", START).flick("moons").cross("moons", "wicket-1", "+").settle()
    assert g.turn["player"] == 1 and g.turn["flicks_left"] == 1


def test_g_ttc24_a_teammate_may_force_a_rover_and_earns_nothing() -> None:
    g = Play(players=4, ttc_team=True)
    g.flick("moons").items("moons", 0, 15).settle().declare(1, "rover").burn()
    g.burn()  # player 2
    g.flick("arms").cross("arms", "wicket-1", "+").settle()  # player 3, moons's teammate
    g.flick("moons").contact("moons", "suns").cross("moons", "wicket-4", "+").settle()
    assert not g.has("TTC-19") and g.turn["player"] == 4  # the forcing flick earned nothing


def test_g_ttc25_team_wins_during_an_opponents_turn() -> None:
    g = Play(players=4, ttc_team=True)
    g.flick("moons").items("moons", 0, 16).settle()  # done: player 2's turn at once
    g.burn()
    g.flick("arms").items("arms", 0, 15).settle().declare(3, "rover").burn()
    assert g.turn["player"] == 4
    g.flick("crowns").cross("crowns", "wicket-1", "+").settle()
    g.flick("arms").hit("arms", "endpost-left")  # crowns forces the last rover of team 1
    assert g.summary["over"] and g.summary["winning_team"] == 1


def test_g_ttc02_words_lost_in_extraction_are_restored_in_the_quotes() -> None:
    assert CLAUSES["TTC-19"][1].endswith("two additional [flicks].")
    assert "[endpost]" in CLAUSES["TTC-14"][1] and "[edge]" in CLAUSES["TTC-29"][1]
    assert "thehand" not in CLAUSES["TTC-01"][1] and "the hand" in CLAUSES["TTC-01"][1]


def test_g_ttc10_a_minimal_tap_is_a_legal_flick_but_giving_up_is_not() -> None:
    g = Play(players=2)
    g.flick("moons").cross("moons", "wicket-1", "+").settle()
    g.declare(1, "end_play")
    assert g.last("reject").clause == "TTC-26"
    g.flick("moons").settle(moons=(-300.0, 1.0))  # a tap uses the flick
    assert g.turn["player"] == 2


def test_g_ttc14_pre_existing_contact_is_not_a_hit_but_a_retouch_is() -> None:
    g = Play(players=2)
    g.flick("moons").settle(moons=(-300.0, 0.0))
    g.flick("suns").settle(suns=(-300.0, 19.5))
    g.flick("moons").contact("moons", "suns").contact("moons", "suns")
    assert g.clauses(g.rulings[-2:]) == ["TTC-32", "TTC-19"]


def test_g_ttc20_side_wickets_face_along_the_course_axis() -> None:
    g = Play(players=2)
    g.flick("moons").items("moons", 0, 2).cross("moons", "wicket-3", "+")
    assert g.player(1)["next"] == "wicket-4+"
    g.items("moons", 3, 10).cross("moons", "wicket-8", "+")
    assert g.last().clause == "TTC-14"
    g.cross("moons", "wicket-8", "-")
    assert g.player(1)["next"] == "wicket-4-"
