"""Invading castles, scoring and winning: CCN-21 … CCN-27 (and the worked example CCN-25)."""

from __future__ import annotations

import pytest

from .builder import (
    advance,
    contact,
    course_names,
    cross,
    end_play,
    hit,
    mark,
    quiet_turns,
    run,
    shot,
)

SCORE_CLAUSES = {"CCN-21", "CCN-22", "CCN-23", "CCN-24", "CCN-26", "CCN-27", "CCN-37"}


def test_ccn_21_invasion_gate_door_tower_gate():
    """CCN-21: to invade, the knight enters the gate, passes the door, hits the tower and goes
    out the gate again; each of the four scores (one bonus flick each, CCN-37)."""
    res = run(advance(1, 5))
    assert res.k(1) == ("in_play", None, None, "in-3")
    scores = res.find("score", coin="moons", clause=SCORE_CLAUSES)
    assert len(scores) == 5  # own gate out, then the four items of the Suns castle
    assert res.tp == (1, "moons", 1, "knight")


@pytest.mark.parametrize("direction", ["+", "-"])
def test_ccn_21_door_either_way(direction):
    """CCN-21: the door is passed "either way"."""
    res = run(advance(1, 2), shot("moons", cross("moons", "door-2", direction)))
    assert res.knight(1)["next"] == "tower-2"
    assert res.tp == (1, "moons", 1, "knight")


def test_ccn_21_tower_before_door_does_not_score():
    """CCN-21/CCN-23: inside the castle, the tower hit before the door is out of sequence."""
    res = run(advance(1, 2), shot("moons", hit("moons", "tower-2")))
    assert res.k(1) == ("in_play", 2, None, "door-2")
    assert res.tp == (1, "ace", 1, "guard")


def test_ccn_21_gate_door_tower_in_one_flick():
    """CCN-21 with G-CCN-24: several items scored in one flick each add a flick."""
    res = run(advance(1, 1), shot("moons", cross("moons", "gate-2", "+"),
                                  cross("moons", "door-2", "+"), hit("moons", "tower-2")))
    assert res.knight(1)["next"] == "out-2"
    assert res.tp == (1, "moons", 3, "knight")


def test_ccn_22_no_need_to_leave_through_the_door():
    """CCN-22: after the tower the knight need not go back through the door; a door crossing
    then is neutral and the gate out scores."""
    res = run(advance(1, 4), shot("moons", cross("moons", "door-2", "-")))
    assert res.knight(1)["next"] == "out-2"
    assert res.tp == (1, "ace", 1, "guard")
    res = run(advance(1, 4), shot("moons", cross("moons", "gate-2", "-")))
    assert res.k(1) == ("in_play", None, None, "in-3")
    assert res.tp == (1, "moons", 1, "knight")


def test_ccn_23_out_of_sequence_scores_nothing():
    """CCN-23: an item scores only in its sequence: a tower hit while the door is next earns
    nothing, not even progress."""
    before = advance(1, 2)
    res = run(before, shot("moons", hit("moons", "tower-2")))
    assert not res.find("score", since=mark(before))
    assert res.knight(1)["next"] == "door-2"


def test_ccn_23_door_crossed_twice_scores_once():
    """CCN-23 (G-CCN-46): a door scores once, at its place in the course."""
    before = advance(1, 3)
    res = run(before, shot("moons", cross("moons", "door-2", "-")))
    assert not res.find("score", since=mark(before))
    assert res.knight(1)["next"] == "tower-2"
    assert res.tp == (1, "ace", 1, "guard")


def test_ccn_23_own_door_is_not_in_the_course():
    """CCN-23 (G-CCN-46): the knight's own door is no item of its course."""
    res = run(shot("moons", cross("moons", "door-1", "-")))
    assert res.knight(1)["next"] == "out-1"
    assert res.tp == (1, "ace", 1, "guard")


def test_ccn_23_knocked_knight_progresses_without_bonus():
    """CCN-23 (G-CCN-07, passive_scoring = progress_no_bonus): a knight knocked through the
    gate it needs next is in that castle and has scored it, but earns no bonus flick."""
    res = run(advance(1, 1), end_play(1),
              shot("ace", contact("ace", "moons"), cross("moons", "gate-2", "+")))
    assert res.k(1) == ("in_play", 2, None, "door-2")
    assert res.tp == (2, "suns", 1, "knight")


def test_ccn_24_castle_order_starts_on_the_left():
    """CCN-24: the proper castle sequence starts with the castle to your left (clockwise):
    Suns after Moons, Crowns after Suns, Arms after Crowns, Moons after Arms."""
    for player, first in ((1, 2), (2, 3), (3, 4), (4, 1)):
        res = run(quiet_turns(*range(1, player)), advance(player, 1))
        assert res.knight(player)["next"] == f"in-{first}"


def test_ccn_24_wrong_castle_first_scores_nothing():
    """CCN-24 (G-CCN-47): Moons entering the Crowns castle first is legal but scores nothing;
    it is now inside the Crowns castle."""
    before = advance(1, 1)
    res = run(before, shot("moons", cross("moons", "gate-3", "+")))
    assert res.k(1) == ("in_play", 3, None, "in-2")
    assert not res.find("illegal")
    assert not res.find("score", since=mark(before))
    assert res.tp == (1, "ace", 1, "guard")


def test_ccn_24_crowns_course_order():
    """CCN-24: the Crowns knight invades Arms, Moons, Suns, then comes home."""
    assert course_names(3) == [
        "out-3", "in-4", "door-4", "tower-4", "out-4", "in-1", "door-1", "tower-1", "out-1",
        "in-2", "door-2", "tower-2", "out-2", "in-3", "tower-3"]
    res = run(quiet_turns(1, 2), advance(3, 9))
    assert res.k(3) == ("in_play", None, None, "in-2")
    assert res.tp == (3, "crowns", 1, "knight")


EXPECTED_CASTLE = [1, None, 2, 2, 2, None, 3, 3, 3, None, 4, 4, 4, None, 1]


@pytest.mark.parametrize("n", range(15))
def test_ccn_25_worked_example_moons_course(n):
    """CCN-25: "The knight of the first player, Moons, must first enter the Suns castle gate,
    then pass through the Suns door, then hit the Suns tower, then leave through the Suns
    gate, then enter the Crowns gate, pass through the Crowns door, and so on." After n
    scored items the next item and the castle are as the course says."""
    names = ["out-1", "in-2", "door-2", "tower-2", "out-2", "in-3", "door-3", "tower-3",
             "out-3", "in-4", "door-4", "tower-4", "out-4", "in-1", "tower-1"]
    assert course_names(1) == names
    res = run(advance(1, n))
    kn = res.knight(1)
    assert kn["next"] == names[n]
    assert kn["castle"] == EXPECTED_CASTLE[n]
    assert len(res.find("score", coin="moons")) == n
    assert res.tp == (1, "moons", 1, "knight")


def test_ccn_25_crowns_before_suns_does_not_count():
    """CCN-25: the worked example's order matters: Crowns items before the Suns ones earn
    nothing."""
    res = run(advance(1, 1), shot("moons", cross("moons", "gate-3", "+"),
                                  cross("moons", "door-3", "+"), hit("moons", "tower-3")))
    assert res.knight(1)["next"] == "in-2"
    assert res.tp == (1, "ace", 1, "guard")


def test_ccn_26_leaving_home_scores_by_default():
    """CCN-26 (G-CCN-22, own_gate_scores = true): bringing the knight out through its own gate
    is the first item of its course and earns a bonus flick."""
    res = run(shot("moons", cross("moons", "gate-1", "-")))
    assert res.k(1) == ("in_play", None, None, "in-2")
    assert res.find("score", coin="moons")
    assert res.tp == (1, "moons", 1, "knight")


def test_ccn_26_must_leave_home_before_invading():
    """CCN-26/CCN-51: until it has left its own castle, a knight flicked into another
    castle's gate makes an illegal entry."""
    res = run(shot("moons", cross("moons", "gate-2", "+")))
    assert res.find("illegal", clause={"CCN-26", "CCN-51", "CCN-52"})
    # (whether the rolled-back first flick leaves the knight "unplaced" is not the rules' say)
    assert res.k(1)[1:] == (1, None, "out-1")
    assert res.tp == (1, "ace", 1, "guard")


def test_ccn_27_win():
    """CCN-27: after invading the three castles the knight re-enters its own castle and hits
    its tower while its own guard is on duty: the first to do so wins."""
    res = run(advance(1, 15))
    wins = res.find("win")
    assert len(wins) == 1
    assert wins[0].clause == "CCN-27"
    assert wins[0].player == 1
    assert res.summary["over"] is True
    assert res.summary["winner"] == 1


def test_ccn_27_no_win_with_guard_off_duty():
    """CCN-27: the tower hit wins only "while his own guard is on duty"; with the guard off,
    nothing happens and the knight can try again later."""
    res = run(advance(1, 14), end_play(1), shot("ace", cross("ace", "gate-1", "-")),
              end_play(1), quiet_turns(2, 3, 4), shot("moons", hit("moons", "tower-1")))
    assert not res.find("win")
    assert res.summary["over"] is False
    assert res.k(1) == ("in_play", 1, None, "tower-1")
    assert res.tp == (1, "ace", 1, "guard")


def test_ccn_27_own_tower_at_start_is_not_a_win():
    """CCN-27: hitting the own tower before the course is done is not a win."""
    res = run(shot("moons", hit("moons", "tower-1")))
    assert not res.find("win")
    assert res.summary["over"] is False
    assert res.tp == (1, "ace", 1, "guard")


def test_ccn_27_must_re_enter_own_gate_first():
    """CCN-27: "He then re-enters his own castle and hits his tower": after the third castle
    the own tower hit from outside (round the posts) is no win."""
    res = run(advance(1, 13), shot("moons", hit("moons", "tower-1")))
    assert not res.find("win")
    assert res.k(1) == ("in_play", None, None, "in-1")


def test_ccn_27_re_entry_scores_then_win_later():
    """CCN-27: re-entering the own gate is item 13 (a bonus by default, G-CCN-22); the tower
    then wins."""
    res = run(advance(1, 14))
    assert res.k(1) == ("in_play", 1, None, "tower-1")
    assert res.tp == (1, "moons", 1, "knight")
    assert res.summary["over"] is False


def test_ccn_27_win_stops_the_game():
    """CCN-27: "The first player to do so wins": the game is over and nobody moves on."""
    res = run(advance(1, 15))
    assert res.summary["over"] is True
    assert res.summary["winner"] == 1
    assert res.knight(2)["status"] == "unplaced"


def test_ccn_23_knocked_out_of_the_invaded_castle_progresses():
    """CCN-23 (G-CCN-07): after the Suns tower, the Moons knight knocked out through the Suns
    gate by the Suns knight has left the castle and scored it (progress, no bonus for
    Moons); the Suns knight gets its strike bonus."""
    res = run(advance(1, 4), end_play(1), shot("ace"),
              shot("suns", contact("suns", "moons"), cross("moons", "gate-2", "-")))
    assert res.k(1) == ("in_play", None, None, "in-3")
    assert res.tp == (2, "suns", 2, "knight")


def test_ccn_27_passive_win_in_another_players_turn():
    """CCN-27 (G-CCN-23, win_requires_active_knight = false): a knight that has re-entered its
    castle and is knocked into its tower while its guard is on duty has hit it: it wins, even
    in another player's turn."""
    res = run(advance(1, 14), end_play(1), shot("ace"),
              shot("suns", contact("suns", "moons"), hit("moons", "tower-1")))
    assert res.summary["over"] is True
    assert res.summary["winner"] == 1
    assert res.find("win", clause="CCN-27")


def test_ccn_27_nothing_is_played_after_the_win():
    """CCN-27: the game is over: a later flick is refused and the result stands."""
    before = advance(1, 15)
    res = run(before, shot("ace", cross("ace", "gate-1", "-")))
    assert set(res.kinds(since=mark(before))) & {"reject", "foul"}
    assert res.summary["over"] is True
    assert res.summary["winner"] == 1
    assert res.guard(1)["on_duty"] is True


def test_ccn_21_door_from_outside_after_premature_exit():
    """CCN-21 (G-CCN-20/21): a knight that went back out of the Suns gate before its tower
    keeps the gate, but the door passed from outside (round the posts) does not count."""
    res = run(advance(1, 2), shot("moons", cross("moons", "gate-2", "-")), shot("ace"),
              quiet_turns(2, 3, 4), shot("moons", cross("moons", "door-2", "+")))
    assert res.k(1) == ("in_play", None, None, "door-2")
    assert res.tp == (1, "ace", 1, "guard")


def test_ccn_18_mid_course_return_home_scores_nothing():
    """CCN-18/CCN-27 (G-CCN-48): part-way through its course the knight may go back into its
    own castle; that is not the final re-entry and scores nothing."""
    res = run(advance(1, 5), shot("moons", cross("moons", "gate-1", "+")))
    assert res.k(1) == ("in_play", 1, None, "in-3")
    assert not res.find("illegal")
    assert res.tp == (1, "ace", 1, "guard")


def test_ccn_18_leaving_home_again_scores_nothing():
    """CCN-18 (G-CCN-48): going out of the own gate again after such a visit is not a second
    "leaving home": no score."""
    res = run(advance(1, 5), shot("moons", cross("moons", "gate-1", "+"),
                                  cross("moons", "gate-1", "-")))
    assert res.k(1) == ("in_play", None, None, "in-3")
    assert res.tp == (1, "ace", 1, "guard")


def test_ccn_18_home_visit_must_end_through_own_gate():
    """CCN-18/CCN-51 (G-CCN-48): while back inside its own castle, the knight must leave through
    its own gate before entering the Crowns castle."""
    res = run(advance(1, 5), shot("moons", cross("moons", "gate-1", "+")), shot("ace"),
              quiet_turns(2, 3, 4), shot("moons", cross("moons", "gate-3", "+")))
    assert res.find("illegal", clause={"CCN-51", "CCN-52"})
    assert res.k(1) == ("in_play", 1, None, "in-3")


def test_ccn_27_re_enter_and_hit_tower_in_one_flick():
    """CCN-27: re-entering the own gate and hitting the own tower in the same flick wins."""
    res = run(advance(1, 13), shot("moons", cross("moons", "gate-1", "+"), hit("moons", "tower-1")))
    assert res.summary["over"] is True
    assert res.summary["winner"] == 1


def test_ccn_27_guard_knocked_off_duty_before_the_tower_hit():
    """CCN-27 (G-CCN-23): duty is read at the instant of the tower hit: the knight first
    knocks its own guard out through the gate, then hits the tower: no win."""
    res = run(advance(1, 14), shot("moons", contact("moons", "ace"), cross("ace", "gate-1", "-"),
                                   hit("moons", "tower-1")))
    assert res.summary["over"] is False
    assert res.guard(1)["on_duty"] is False
    assert res.k(1) == ("in_play", 1, None, "tower-1")


def test_ccn_27_guard_driven_back_on_duty_before_the_tower_hit():
    """CCN-27 (G-CCN-23): the off-duty guard driven back in through its gate is on duty again
    when the knight then hits the tower in that same flick: a win."""
    res = run(advance(1, 14), end_play(1), shot("ace", cross("ace", "gate-1", "-")), end_play(1),
              quiet_turns(2, 3, 4),
              shot("moons", contact("moons", "ace"), cross("ace", "gate-1", "+"),
                   hit("moons", "tower-1")))
    assert res.summary["over"] is True
    assert res.summary["winner"] == 1
