"""Tabletop Croquet options (RULES-SPEC §6, TTC rows): one scenario per option value.

Each test's name cites the option and the clause or gap that defines it.
"""

from __future__ import annotations

import pytest

from referee.layout import castle_croquetnole_layout
from referee.layouts_ttc import standard_layout
from referee.rules.base import OptionError
from referee.rules.tabletop_options import OPTIONS
from tests.rules.test_tabletop_helpers import Play

START = (-498.5, 0.0)


def test_every_option_has_a_default_and_a_source() -> None:
    names = [o.name for o in OPTIONS]
    assert len(names) == len(set(names))
    assert all(o.where for o in OPTIONS)
    for name in ("players", "ttc_layout", "ttc_mirror", "ttc_team", "ttc_poison", "poison_win",
                 "ttc_reset_on_any_endpost", "ttc_passive_completion", "ttc_colour_map",
                 "multi_strike", "offtable_inset_mm", "wrong_coin_penalty"):
        assert name in names


def test_unknown_option_lists_the_valid_ones() -> None:
    with pytest.raises(OptionError, match=r"valid options: .*ttc_layout"):
        Play(castle_count=3)


# --------------------------------------------------------------------------- players, coins
def test_option_players_ttc08_sets_the_number_of_players() -> None:
    assert len(Play(players=7).summary["players"]) == 7


def test_option_ttc_coins_ttc09_chooses_the_coins() -> None:
    g = Play(ttc_coins="5,null")
    assert [p["coin"] for p in g.summary["players"].values()] == ["null", "5"]


@pytest.mark.parametrize("coins", ["moons", "moons,moons", "moons,knight", ",".join("x" * 11)])
def test_option_ttc_coins_ttc08_bad_choices_are_refused(coins: str) -> None:
    with pytest.raises(OptionError, match="ttc_coins"):
        Play(ttc_coins=coins)


def test_option_ttc_coins_must_agree_with_players() -> None:
    with pytest.raises(OptionError, match="disagree"):
        Play(players=3, ttc_coins="moons,suns")


def test_option_ttc_colour_map_g_ttc21_reorders_the_suits() -> None:
    g = Play(players=4, ttc_colour_map="suns=black,moons=red,crowns=blue,arms=yellow")
    players = g.summary["players"]
    assert [players[str(i)]["coin"] for i in range(1, 5)] == ["suns", "moons", "crowns", "arms"]


@pytest.mark.parametrize("raw", ["moons=black", "moons=black,suns=black,arms=blue,crowns=green",
                                 "moons=pink,suns=red,arms=blue,crowns=green", "nonsense"])
def test_option_ttc_colour_map_g_ttc21_bad_maps_are_refused(raw: str) -> None:
    with pytest.raises(OptionError, match="ttc_colour_map"):
        Play(ttc_colour_map=raw)


# --------------------------------------------------------------------------- course
def test_option_ttc_layout_compact_diagonal_section_4_4_2() -> None:
    g = Play(players=2, ttc_layout="compact_diagonal")
    assert g.summary["layout"] == "tabletop-croquet-compact_diagonal"
    spot = g.summary["start_spot"]
    assert spot[0] == pytest.approx(spot[1]) and spot[0] < -250
    g.place("moons", tuple(spot)).flick("moons").cross("moons", "wicket-1", "+")
    assert g.last("score").clause == "TTC-16"


def test_option_ttc_layout_compact_rejects_a_start_off_the_diagonal() -> None:
    g = Play(players=2, ttc_layout="compact_diagonal")
    g.place("moons", START)
    assert g.last("reject").clause == "G-TTC-16"


def test_option_ttc_mirror_g_ttc01_keeps_directions() -> None:
    g = Play(players=2, ttc_mirror=True)
    assert g.summary["layout"].endswith("-mirror")
    g.flick("moons").items("moons", 0, 4)
    assert g.player(1)["next"] == "wicket-5+"


def test_option_layout_file_g_ttc01_loads_a_course(tmp_path) -> None:
    path = tmp_path / "course.json"
    standard_layout(mirror=True).save(path)
    g = Play(players=2, layout_file=str(path))
    assert g.summary["layout"] == "tabletop-croquet-standard-mirror"


def test_option_layout_file_that_is_no_course_is_refused(tmp_path) -> None:
    path = tmp_path / "castles.json"
    castle_croquetnole_layout().save(path)
    with pytest.raises(OptionError, match="endpost-left"):
        Play(players=2, layout_file=str(path))


# --------------------------------------------------------------------------- physical model
@pytest.mark.parametrize("value", ["centre_midline", "full_clearance"])
def test_option_crossing_criterion_g_ttc03_is_applied_by_vision(value: str) -> None:
    g = Play(players=2, crossing_criterion=value)
    g.flick("moons").cross("moons", "wicket-1", "+")
    assert g.last("score").clause == "TTC-16"


def test_option_crossing_evaluation_settled_counts_the_net_crossing() -> None:
    g = Play(players=2, crossing_evaluation="settled")
    g.flick("moons").cross("moons", "wicket-1", "+").cross("moons", "wicket-1", "-").settle()
    assert g.player(1)["course_done"] == 0 and g.turn["player"] == 2
    g.flick("suns").cross("suns", "wicket-1", "+")
    assert g.player(2)["course_done"] == 0  # judged at the settle
    g.settle()
    assert g.player(2)["course_done"] == 1


def test_option_crossing_evaluation_event_counts_each_crossing() -> None:
    g = Play(players=2)
    g.flick("moons").cross("moons", "wicket-1", "+").cross("moons", "wicket-1", "-").settle()
    assert g.player(1)["course_done"] == 1 and g.turn["player"] == 1


def _hit_then_action_2(**options) -> Play:
    g = Play(players=2, **options)
    g.flick("moons").settle(moons=(-300.0, 0.0))
    g.flick("suns").contact("suns", "moons").settle(suns=(-340.0, 0.0))
    return g.declare(2, "action", option=2)


def test_option_coin_width_measure_centre_gap_is_stricter() -> None:
    g = _hit_then_action_2(coin_width_measure="centre_gap")
    g.place("suns", (-300.0, 30.0))  # 11 mm edge gap: more than a radius
    assert g.last("reject").clause == "TTC-22"
    g.place("suns", (-300.0, 27.0))
    assert g.summary["pending_placements"] == []


@pytest.mark.parametrize("eps, ok", [(2.0, True), (0.0, False)])
def test_option_eps_place_g_ttc08_tolerance(eps: float, ok: bool) -> None:
    g = _hit_then_action_2(eps_place=eps)
    g.place("suns", (-300.0, 39.6))  # gap 20.55 mm: a coin-width + 1.5 mm
    assert (g.summary["pending_placements"] == []) is ok


@pytest.mark.parametrize("v_min, counts", [(15.0, False), (1.0, True)])
def test_option_v_hit_min_section_1_2(v_min: float, counts: bool) -> None:
    g = Play(players=2, v_hit_min=v_min)
    g.flick("moons").settle().flick("suns").contact("suns", "moons", speed=5.0)
    assert g.has("TTC-19") is counts


@pytest.mark.parametrize("eps, touching", [(1.0, False), (2.0, True)])
def test_option_eps_contact_ttc32_decides_touching(eps: float, touching: bool) -> None:
    g = Play(players=2, eps_contact=eps)
    g.flick("moons").settle(moons=(-300.0, 0.0))
    g.flick("suns").settle(suns=(-320.6, 0.0))  # 1.55 mm apart
    g.flick("moons").contact("moons", "suns")
    assert g.has("TTC-32") is touching


@pytest.mark.parametrize("push_ms, foul", [(150.0, True), (1000.0, False)])
def test_option_enforce_flick_form_push_ms_ttc01(push_ms: float, foul: bool) -> None:
    g = Play(players=2, enforce_flick_form=True, push_ms=push_ms)
    g.flick("moons", finger_ms=400.0)
    assert g.has("TTC-01") is foul


def test_option_disturbance_penalty_end_coin_play_ttc31() -> None:
    g = Play(players=2, disturbance_penalty="end_coin_play")
    g.flick("moons").cross("moons", "wicket-1", "+").settle(moons=(-300.0, 0.0))
    g.place("moons", (-200.0, 0.0))
    assert g.last("foul").clause == "TTC-31" and g.turn["player"] == 2


def test_option_disturbance_penalty_restore_ttc31() -> None:
    g = Play(players=2)
    g.flick("moons").cross("moons", "wicket-1", "+").settle(moons=(-300.0, 0.0))
    g.place("moons", (-200.0, 0.0))
    assert g.last("place").clause == "TTC-31" and g.turn["player"] == 1


def test_option_uncertain_policy_ask_then_the_players_accept() -> None:
    g = Play(players=2)
    g.flick("moons").cross("moons", "wicket-1", "+", uncertain=True)
    r = g.last("uncertain")
    assert r.extra["applied"] is False and g.player(1)["course_done"] == 0
    g.settle().override(r.id)
    assert g.player(1)["course_done"] == 1 and g.last("override").kind == "override"


def test_option_uncertain_policy_favour_active() -> None:
    g = Play(players=2, uncertain_policy="favour_active")
    g.flick("moons").cross("moons", "wicket-1", "+", uncertain=True)
    assert g.last("uncertain").extra["applied"] is True and g.player(1)["course_done"] == 1


def test_option_uncertain_policy_favour_defender() -> None:
    g = Play(players=2, uncertain_policy="favour_defender")
    g.flick("moons").cross("moons", "wicket-1", "+", uncertain=True)
    assert "defender" in g.last("uncertain").text and g.player(1)["course_done"] == 0


def test_option_wrong_coin_penalty_end_turn() -> None:
    g = Play(players=3, wrong_coin_penalty="end_turn")
    g.flick("moons").cross("moons", "wicket-1", "+").settle()
    g.flick("suns").settle()
    assert g.last("foul").clause == "TTC-09" and g.turn["player"] == 2


# --------------------------------------------------------------------------- flicks and hits
def test_option_multi_strike_each_distinct_g_ttc06() -> None:
    g = Play(players=3, multi_strike="each_distinct")
    g.flick("moons").settle(moons=(-300.0, 0.0)).flick("suns").settle(suns=(-250.0, 0.0))
    g.flick("arms").contact("arms", "moons").contact("arms", "suns").settle(arms=(-280, 40))
    assert g.turn["flicks_left"] == 4 and g.turn["actions_due"] == ["moons", "suns"]
    g.declare(3, "action", option=2).declare(3, "action", option=4)
    assert g.last("reject").clause == "G-TTC-06"
    g.declare(3, "action", option=3)
    assert g.turn["must_flick"] == ["suns"]


def test_option_ttc_reset_on_any_endpost_g_ttc09() -> None:
    g = Play(players=2, ttc_reset_on_any_endpost=True)
    g.flick("moons").settle()
    g.flick("suns").contact("suns", "moons").settle()
    g.flick("suns").hit("suns", "endpost-left").contact("suns", "moons")
    assert g.has("G-TTC-09") and g.last("bonus").clause == "TTC-19"


@pytest.mark.parametrize("value, counted", [("counts", True), ("not_counted", False)])
def test_option_ttc_passive_completion_g_ttc15(value: str, counted: bool) -> None:
    g = Play(players=2, ttc_passive_completion=value)
    g.run_up("moons", 15)
    g.flick("suns").contact("suns", "moons").hit("moons", "endpost-left")
    assert g.summary["over"] is counted


@pytest.mark.parametrize("inset", [19.05, 28.6])
def test_option_offtable_inset_mm_g_ttc11(inset: float) -> None:
    g = Play(players=2, offtable_inset_mm=inset)
    g.flick("moons").off("moons", (100.0, -457.2))
    assert g.last("foul").at == (100.0, pytest.approx(-457.2 + inset))


# --------------------------------------------------------------------------- team and poison
def test_option_ttc_team_and_ttc_teams_tm1() -> None:
    g = Play(players=8, ttc_team=True, ttc_teams=4)
    assert [g.player(i)["team"] for i in range(1, 9)] == [1, 2, 3, 4, 1, 2, 3, 4]
    assert g.summary["winning_team"] is None
    with pytest.raises(OptionError, match="TTC-TM1"):
        Play(players=6, ttc_team=True, ttc_teams=4)


def test_option_ttc_poison_off_means_completion_wins() -> None:
    g = Play(players=3)
    g.flick("moons").items("moons", 0, 16)
    assert g.summary["winner"] == 1


def test_option_poison_win_last_alive_g_ttc27() -> None:
    g = Play(players=2, ttc_poison=True)
    g.flick("moons").items("moons", 0, 16).settle().burn()
    g.flick("suns").items("suns", 0, 16).settle()
    assert not g.summary["over"]  # two poison coins hunt each other


def test_option_poison_win_first_to_complete_plus_survive_g_ttc27() -> None:
    g = Play(players=2, ttc_poison=True, poison_win="first_to_complete_plus_survive")
    g.flick("moons").items("moons", 0, 16).settle().burn()
    g.flick("suns").items("suns", 0, 16)
    assert g.summary["over"] and g.summary["winner"] == 1
    assert g.last("win").clause == "G-TTC-27"
