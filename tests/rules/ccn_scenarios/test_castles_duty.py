"""Entering and leaving castles, duty and membership: CCN-16 … CCN-20."""

from __future__ import annotations

from .builder import (
    advance,
    contact,
    cross,
    end_play,
    hit,
    knight_home,
    mark,
    moons_captured_in_suns,
    quiet_turns,
    run,
    shot,
    suns_guard_releases,
)

DUTY_CLAUSES = {"CCN-16", "CCN-17"}


def test_ccn_16_guard_leaves_through_its_gate():
    """CCN-16: a guard that goes through its own gate in the direction from its tower
    "leaves" its castle: it goes off duty (a duty ruling)."""
    before = shot("moons")
    res = run(before, shot("ace", cross("ace", "gate-1", "-")))
    assert res.guard(1)["on_duty"] is False
    assert res.find("duty", coin="ace", clause=DUTY_CLAUSES, since=mark(before))


def test_ccn_16_guard_re_enters():
    """CCN-16: the next time it goes through in the opposite direction it "re-enters"."""
    res = run(shot("moons"), shot("ace", cross("ace", "gate-1", "-")),
              shot("ace", cross("ace", "gate-1", "+")))
    assert res.guard(1)["on_duty"] is True
    assert len(res.find("duty", coin="ace")) == 2


def test_ccn_16_knocked_guard_changes_duty():
    """CCN-16 (G-CCN-08): duty follows the gate crossings whatever moved the guard: the Moons
    knight knocks the Suns guard out through the Suns gate, and it is off duty."""
    res = run(advance(1, 1), shot("moons", contact("moons", "2"), cross("2", "gate-2", "-")))
    assert res.guard(2)["on_duty"] is False
    assert res.find("duty", coin="2")
    # the knight gets no bonus for hitting a guard that was on duty at the contact
    assert res.tp == (1, "ace", 1, "guard")


def test_ccn_17_duty_does_not_depend_on_position():
    """CCN-17: a guard that has not left through its gate stays on duty wherever it goes:
    through its door and round the gateposts to another castle's tower, it is still on duty
    (CCN-33: "leave the castle some other way")."""
    res = run(shot("moons"), shot("ace", cross("ace", "door-1", "+"), hit("ace", "tower-4")))
    assert res.guard(1)["on_duty"] is True
    assert not res.find("duty")
    assert not res.find("illegal")
    assert res.tp == (2, "suns", 1, "knight")


def test_ccn_17_crossing_in_while_on_duty_is_neutral():
    """CCN-17 (G-CCN-35): an on-duty guard going in through its own gate does not "re-enter"
    (it never left): no duty change, no bonus."""
    res = run(shot("moons"), shot("ace", cross("ace", "gate-1", "+")))
    assert res.guard(1)["on_duty"] is True
    assert not res.find("duty")
    assert res.tp == (2, "suns", 1, "knight")


def test_ccn_17_leaving_twice_is_one_leave():
    """CCN-17 (G-CCN-35): an off-duty guard going out again is still just off duty."""
    res = run(shot("moons"), shot("ace", cross("ace", "gate-1", "-")),
              shot("ace", cross("ace", "gate-1", "-")))
    assert res.guard(1)["on_duty"] is False
    assert len(res.find("duty", coin="ace")) == 1
    # the second "leave" earned no bonus, so the guard's play is over
    assert res.tp == (2, "suns", 1, "knight")


def test_ccn_18_entering_and_leaving_a_castle():
    """CCN-18: a coin is in a castle once it passed in through its gate, until it leaves
    through that gate."""
    res = run(advance(1, 2))
    assert res.k(1) == ("in_play", 2, None, "door-2")
    res = run(advance(1, 2), shot("moons", cross("moons", "gate-2", "-")))
    assert res.knight(1)["castle"] is None


def test_ccn_18_out_through_a_gate_not_in_is_neutral():
    """CCN-18 (G-CCN-35): going out through the gate of a castle the knight is not in is
    neutral: it stays in the castle it is in."""
    res = run(advance(1, 2), shot("moons", cross("moons", "gate-3", "-")))
    assert res.k(1) == ("in_play", 2, None, "door-2")
    assert not res.find("illegal")
    assert res.tp == (1, "ace", 1, "guard")


def test_ccn_18_in_through_the_gate_of_its_castle_is_neutral():
    """CCN-18 (G-CCN-34): crossing *into* the castle the knight is already in is neither an
    entry nor illegal."""
    res = run(advance(1, 2), shot("moons", cross("moons", "gate-2", "+")))
    assert res.k(1) == ("in_play", 2, None, "door-2")
    assert not res.find("illegal")
    assert not res.find("score", since=mark(advance(1, 2)))
    assert res.tp == (1, "ace", 1, "guard")


def test_ccn_18_door_and_tower_do_not_make_a_member():
    """CCN-18: only the gate admits: a knight in the Wasteland passing another castle's door
    and hitting its tower (going round the gateposts) is still outdoors (G-CCN-21)."""
    res = run(advance(1, 1), shot("moons", cross("moons", "door-2", "+"), hit("moons", "tower-2")))
    assert res.k(1) == ("in_play", None, None, "in-2")
    assert res.tp == (1, "ace", 1, "guard")


def test_ccn_19_knight_starts_inside_own_castle():
    """CCN-19: at the beginning of the game a knight is within its own castle without having
    passed its gate, and must leave through the gate first."""
    res = run(shot("moons"))
    assert res.k(1) == ("in_play", 1, None, "out-1")


def test_ccn_19_freed_knight_starts_inside_own_castle():
    """CCN-19: after being freed from prison, the knight starts its turn within its own
    castle (with no gate crossing)."""
    res = run(moons_captured_in_suns(), suns_guard_releases(), quiet_turns(3, 4),
              knight_home(1))
    assert res.k(1) == ("in_play", 1, None, "out-1")
    assert res.tp == (1, "moons", 1, "knight")
    assert res.turn["round"] == 2


def test_ccn_20_wasteland():
    """CCN-20: a coin not within any castle is outdoors, in the Wasteland (castle null)."""
    res = run(advance(1, 1))
    assert res.k(1) == ("in_play", None, None, "in-2")
    res = run(advance(1, 5))
    assert res.k(1) == ("in_play", None, None, "in-3")


def test_ccn_16_guard_leave_is_not_a_knight_exit():
    """CCN-16/CCN-18: the guard leaving does not take the knight out of its castle."""
    res = run(shot("moons"), shot("ace", cross("ace", "gate-1", "-")), end_play(1))
    assert res.knight(1)["castle"] == 1
    assert res.guard(1)["on_duty"] is False
    assert res.tp == (2, "suns", 1, "knight")
