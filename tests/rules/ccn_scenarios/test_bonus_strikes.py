"""Bonus flicks: scores, prisoners, guard gate crossings, strikes: CCN-36 … CCN-41."""

from __future__ import annotations

from .builder import (
    advance,
    contact,
    cross,
    end_play,
    mark,
    moons_captured_in_suns,
    quiet_round,
    quiet_turns,
    run,
    shot,
    suns_guard_releases,
)

# ------------------------------------------------------------------ CCN-36 general


def test_ccn_36_bonus_flicks_belong_to_the_coin():
    """CCN-36 (G-CCN-38): bonus flicks are the earning coin's; what the knight does not use
    is not passed on to the guard."""
    res = run(quiet_round(), shot("moons", contact("moons", "suns")), end_play(1))
    assert res.tp == (1, "ace", 1, "guard")


def test_ccn_36_unused_flicks_do_not_carry_to_next_turn():
    """CCN-36 (G-CCN-38): flicks left at the end of a turn are lost; the next turn starts
    afresh."""
    res = run(shot("moons"), shot("ace", cross("ace", "gate-1", "-")), end_play(1),
              shot("suns"), shot("2"), shot("crowns"), shot("3"), shot("arms"), shot("4"))
    assert res.tp == (1, "moons", 1, "knight")
    assert res.turn["round"] == 2


def test_ccn_36_bonuses_add_up():
    """CCN-36 (G-CCN-24, bonus_mode = cumulative): a score (+1) and a strike (+2) in one flick
    give three flicks."""
    res = run(quiet_round(), shot("moons", cross("moons", "gate-1", "-"),
                                  contact("moons", "suns")))
    assert res.tp == (1, "moons", 3, "knight")


# ------------------------------------------------------------------ CCN-37 knight scores


def test_ccn_37_knight_score_gives_one_bonus():
    """CCN-37: "Knight scores a gate, door, or tower. | Knight receives one bonus flick.\""""
    before = advance(1, 2)
    res = run(before, shot("moons", cross("moons", "door-2", "+")))
    scores = res.find("score", coin="moons", since=mark(before))
    assert len(scores) == 1
    assert res.tp == (1, "moons", 1, "knight")


def test_ccn_37_two_items_in_one_flick():
    """CCN-37: each item scored earns its own flick (gate and door in one flick: +2)."""
    res = run(advance(1, 1), shot("moons", cross("moons", "gate-2", "+"),
                                  cross("moons", "door-2", "-")))
    assert res.tp == (1, "moons", 2, "knight")


def test_ccn_37_no_bonus_without_score():
    """CCN-37: a knight flick that scores nothing ends its play."""
    res = run(advance(1, 1), shot("moons"))
    assert res.tp == (1, "ace", 1, "guard")


# ------------------------------------------------------------------ CCN-38 guard prisoner


def test_ccn_38_guard_takes_prisoner_bonus():
    """CCN-38: "Guard takes a prisoner. | Guard receives one bonus flick.\""""
    res = run(advance(1, 2), end_play(1), shot("ace"), shot("suns"),
              shot("2", contact("2", "moons")))
    assert res.find("capture", coin="moons", clause="CCN-28")
    assert res.tp == (2, "2", 1, "guard")


def test_ccn_38_no_bonus_for_passive_capture():
    """CCN-38 (G-CCN-41): only the guard being played earns the bonus; a capture made by the
    guard when the knight drove it is not banked for the guard's play."""
    res = run(advance(1, 2), end_play(1), shot("ace"),
              shot("suns", contact("suns", "2"), contact("2", "moons", moving=["2"])))
    assert res.knight(1)["status"] == "prisoner"
    assert res.tp == (2, "2", 1, "guard")


# ------------------------------------------------------------------ CCN-39 guard leaves/enters


def test_ccn_39_guard_leave_bonus():
    """CCN-39: a guard leaving its castle by the gate receives one bonus flick."""
    res = run(shot("moons"), shot("ace", cross("ace", "gate-1", "-")))
    assert res.tp == (1, "ace", 1, "guard")
    assert res.find("bonus", clause="CCN-39") or any(
        r.clause == "CCN-39" and r.bonus == 1 for r in res.rulings)


def test_ccn_39_guard_enter_bonus():
    """CCN-39: a guard entering its castle by the gate receives one bonus flick (CCN-S1:
    out and back in, each "gives you another turn")."""
    res = run(shot("moons"), shot("ace", cross("ace", "gate-1", "-")),
              shot("ace", cross("ace", "gate-1", "+")))
    assert res.tp == (1, "ace", 1, "guard")
    assert res.guard(1)["on_duty"] is True


def test_ccn_39_once_per_action_per_turn():
    """CCN-39: "may only receive one bonus flick for each of the actions per turn": the second
    leave in the same turn still takes it off duty but earns nothing."""
    res = run(shot("moons"), shot("ace", cross("ace", "gate-1", "-")),
              shot("ace", cross("ace", "gate-1", "+")), shot("ace", cross("ace", "gate-1", "-")))
    assert res.guard(1)["on_duty"] is False
    assert res.tp == (2, "suns", 1, "knight")


def test_ccn_39_second_leave_still_releases():
    """CCN-39: an unrewarded second leave is still a leave: the prisoner goes free."""
    res = run(moons_captured_in_suns(), shot("ace"), shot("suns"),
              shot("2", cross("2", "gate-2", "-")), shot("2", cross("2", "gate-2", "+")),
              shot("2", cross("2", "gate-2", "-")))
    assert res.knight(1)["status"] == "recovering"
    assert res.guard(2)["on_duty"] is False
    assert res.tp == (3, "crowns", 1, "knight")


def test_ccn_39_leave_and_enter_in_one_flick():
    """CCN-39 (G-CCN-04): a guard that goes out and back in within one flick earns both."""
    res = run(shot("moons"), shot("ace", cross("ace", "gate-1", "-"), cross("ace", "gate-1", "+")))
    assert res.tp == (1, "ace", 2, "guard")
    assert res.guard(1)["on_duty"] is True


def test_ccn_39_bonus_again_next_turn():
    """CCN-39: the once-per-turn limit resets in the next turn."""
    res = run(shot("moons"), shot("ace", cross("ace", "gate-1", "-")),
              shot("ace", cross("ace", "gate-1", "+")), end_play(1),
              shot("suns"), shot("2"), shot("crowns"), shot("3"), shot("arms"), shot("4"),
              end_play(1), shot("ace", cross("ace", "gate-1", "-")))
    assert res.tp == (1, "ace", 1, "guard")


def test_ccn_39_passive_leave_does_not_use_the_bonus():
    """CCN-39 (G-CCN-44): the guard knocked out by its knight is off duty without a bonus;
    in its own play it can still earn both the enter and the leave bonus."""
    res = run(shot("moons", contact("moons", "ace"), cross("ace", "gate-1", "-")))
    assert res.guard(1)["on_duty"] is False
    assert res.tp == (1, "ace", 1, "guard")
    res = run(shot("moons", contact("moons", "ace"), cross("ace", "gate-1", "-")),
              shot("ace", cross("ace", "gate-1", "+")), shot("ace", cross("ace", "gate-1", "-")))
    assert res.tp == (1, "ace", 1, "guard")


# ------------------------------------------------------------------ CCN-40 strikes


def test_ccn_40_strike_gives_two_bonus_flicks():
    """CCN-40: "One coin strikes another coin, and neither is a guard on duty. | First coin
    receives two bonus flicks\""""
    before = quiet_round()
    res = run(before, shot("moons", contact("moons", "suns")))
    assert res.tp == (1, "moons", 2, "knight")
    assert any(r.bonus == 2 for r in res.find("bonus", clause="CCN-40", since=mark(before)))


def test_ccn_40_no_strike_bonus_on_guard_on_duty():
    """CCN-40: no bonus when the struck coin is a guard on duty (the Suns guard)."""
    res = run(quiet_round(), shot("moons", contact("moons", "2")))
    assert res.tp == (1, "ace", 1, "guard")


def test_ccn_40_no_strike_bonus_for_guard_on_duty():
    """CCN-40: no bonus when the striking coin is itself a guard on duty."""
    res = run(quiet_round(), end_play(1), shot("ace", contact("ace", "suns")))
    assert res.tp == (2, "suns", 1, "knight")


def test_ccn_40_off_duty_guard_strikes_for_two():
    """CCN-40 (CCN-S4): an off-duty guard hitting a knight gets two bonus flicks ("take two
    bonus flicks for hitting it with your guard")."""
    res = run(shot("moons"), shot("ace", cross("ace", "gate-1", "-")),
              shot("ace", contact("ace", "moons")))
    assert res.tp == (1, "ace", 2, "guard")


def test_ccn_40_strike_off_duty_guard_of_another_player():
    """CCN-40: a knight striking another player's *off-duty* guard earns two flicks."""
    res = run(shot("moons"), shot("ace", cross("ace", "gate-1", "-")), end_play(1),
              shot("suns", contact("suns", "ace")))
    assert res.tp == (2, "suns", 2, "knight")


def test_ccn_40_no_bonus_for_hitting_a_prisoner():
    """CCN-40 (G-CCN-28/49): a prisoner on a tower takes no part: touching it earns
    nothing."""
    res = run(moons_captured_in_suns(), shot("ace"), shot("suns", contact("suns", "moons")))
    assert res.tp == (2, "2", 1, "guard")


def test_ccn_40_no_bonus_for_hitting_a_recovering_knight():
    """CCN-40 (G-CCN-28): neither is a knight recovering on its own tower."""
    res = run(moons_captured_in_suns(), suns_guard_releases(),
              shot("crowns", contact("crowns", "moons")))
    assert res.tp == (3, "3", 1, "guard")


def test_ccn_40_only_first_strike_in_a_flick():
    """CCN-40 (G-CCN-25, multi_strike = first_only): one roquet per flick: two coins hit in one
    flick give two flicks, and the second coin can still be struck for a bonus later."""
    res = run(quiet_round(), shot("moons", contact("moons", "suns"), contact("moons", "crowns")))
    assert res.tp == (1, "moons", 2, "knight")
    res = run(quiet_round(), shot("moons", contact("moons", "suns"), contact("moons", "crowns")),
              shot("moons", contact("moons", "crowns")))
    assert res.tp == (1, "moons", 3, "knight")


def test_ccn_40_strike_when_struck_coin_runs_into_active():
    """CCN-40 (G-CCN-59, strike_requires_active_moving = false): a contact of the active coin
    counts as its strike whichever of the two was moving."""
    res = run(quiet_round(), shot("moons", contact("suns", "moons", moving=["suns"])))
    assert res.tp == (1, "moons", 2, "knight")


def test_ccn_40_passive_coins_hitting_each_other_earn_nothing():
    """CCN-40: only the first (active) coin is paid: a knocked coin hitting a third coin adds
    nothing beyond the active coin's own strike."""
    res = run(quiet_round(), shot("moons", contact("moons", "suns"),
                                  contact("suns", "crowns", moving=["suns"])))
    assert res.tp == (1, "moons", 2, "knight")


# ------------------------------------------------------------------ CCN-41 repeat strikes


def test_ccn_41_no_bonus_for_striking_the_same_coin_again():
    """CCN-41: "… but may not strike the same coin again" (G-CCN-27: legal, unrewarded)."""
    before = [quiet_round(), shot("moons", contact("moons", "suns"))]
    res = run(before, shot("moons", contact("moons", "suns")))
    assert res.tp == (1, "moons", 1, "knight")
    assert not set(res.kinds(since=mark(before))) & {"foul", "illegal", "reject"}


def test_ccn_41_score_resets_the_struck_coins():
    """CCN-41: "… unless it scores a gate, door, or tower first (in which case it does receive
    the two bonus flicks)": strike (+2), enter the Suns gate (+1), strike again (+2)."""
    res = run(quiet_round(), shot("moons", cross("moons", "gate-1", "-")),
              shot("moons", contact("moons", "suns")),
              shot("moons", cross("moons", "gate-2", "+")),
              shot("moons", contact("moons", "suns")))
    assert res.knight(1)["next"] == "door-2"
    assert res.tp == (1, "moons", 3, "knight")


def test_ccn_41_own_gate_exit_also_resets_the_struck_coins():
    """CCN-41 (G-CCN-22/26): with own_gate_scores (default) leaving the own gate is a scored
    course item, and "a knight's set is cleared whenever the knight scores (any course
    item)"."""
    res = run(quiet_round(), shot("moons", contact("moons", "suns")),
              shot("moons", cross("moons", "gate-1", "-")),
              shot("moons", contact("moons", "suns")))
    assert res.tp == (1, "moons", 3, "knight")


def test_ccn_41_a_different_coin_is_a_new_strike():
    """CCN-41: the restriction is per struck coin: another coin still pays."""
    res = run(quiet_round(), shot("moons", contact("moons", "suns")),
              shot("moons", contact("moons", "crowns")))
    assert res.tp == (1, "moons", 3, "knight")


def test_ccn_41_guard_struck_set_is_not_reset():
    """CCN-41 (G-CCN-26, guard_repeat_reset = never): a guard cannot score, so it may strike
    a coin for a bonus only once in a turn, leaves and entries notwithstanding."""
    res = run(shot("moons"), shot("ace", cross("ace", "gate-1", "-")),
              shot("ace", contact("ace", "moons")), shot("ace", cross("ace", "gate-1", "+")),
              shot("ace", cross("ace", "gate-1", "-")), shot("ace", contact("ace", "moons")))
    assert res.tp == (2, "suns", 1, "knight")


def test_ccn_41_struck_set_resets_next_turn():
    """CCN-41 (G-CCN-26): the no-repeat set is per turn: next turn the same coin pays again."""
    res = run(quiet_round(), shot("moons", contact("moons", "suns")), end_play(1), shot("ace"),
              shot("suns"), shot("2"), shot("crowns"), shot("3"), shot("arms"), shot("4"),
              shot("moons", contact("moons", "suns")))
    assert res.tp == (1, "moons", 2, "knight")


def test_ccn_38_one_bonus_per_prisoner():
    """CCN-38: the guard earns a flick for each prisoner it takes: two invaders in one flick
    give two."""
    res = run(advance(1, 2), end_play(1), shot("ace"), quiet_turns(2),
              advance(3, 1), shot("crowns", cross("crowns", "gate-2", "+")), shot("3"),
              quiet_turns(4),
              end_play(1), shot("ace"),
              end_play(2), shot("2", contact("2", "moons"), contact("2", "crowns")))
    assert res.k(1) == ("prisoner", None, 2, None)
    assert res.k(3) == ("prisoner", None, 2, None)
    assert len(res.find("capture", clause="CCN-28")) == 2
    assert res.tp == (2, "2", 2, "guard")


def test_ccn_40_strike_a_knight_not_yet_played():
    """CCN-40: "One coin strikes another coin": in round 1 the Suns knight already rests in its
    start zone (CONTRACT: every coin starts there) and is a coin like any other; only
    prisoners and recovering knights are out of play (G-CCN-28)."""
    res = run(shot("moons", contact("moons", "suns")))
    assert res.tp == (1, "moons", 2, "knight")
