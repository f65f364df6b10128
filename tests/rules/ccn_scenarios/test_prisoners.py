"""Prisoners: capture, release, rescue, recovery and restart: CCN-28 … CCN-35."""

from __future__ import annotations

from .builder import (
    advance,
    contact,
    cross,
    end_play,
    guard_home,
    hit,
    knight_home,
    mark,
    moons_captured_in_suns,
    quiet_turns,
    run,
    shot,
    suns_guard_releases,
    to_own_tower,
    to_prison,
)

# ------------------------------------------------------------------ CCN-28 capture


def test_ccn_28_capture_invader_hits_guard():
    """CCN-28: "If an invading knight hits … the guard on duty in the castle it is invading,
    it becomes a prisoner, and is placed on top of the castle's tower." Its play ends."""
    res = run(moons_captured_in_suns())
    caps = res.find("capture", coin="moons", clause="CCN-28")
    assert len(caps) == 1
    assert res.k(1) == ("prisoner", None, 2, None)
    assert res.tp == (1, "ace", 1, "guard")


def test_ccn_28_capture_asks_for_the_tower():
    """CCN-28: the prisoner is placed on top of the captor's tower (a place ruling on
    tower-2)."""
    before = advance(1, 2)
    res = run(before, shot("moons", contact("moons", "2")))
    places = res.find("place", coin="moons", since=mark(before))
    assert places
    assert any(p.on == "tower-2" for p in places)


def test_ccn_28_capture_invader_is_hit_by_guard():
    """CCN-28: "… or is hit by": the Suns guard, played in its own turn, hits the invader."""
    res = run(advance(1, 2), end_play(1), shot("ace"), shot("suns"),
              shot("2", contact("2", "moons")), to_prison(1, 2))
    assert res.find("capture", coin="moons", clause="CCN-28")
    assert res.k(1) == ("prisoner", None, 2, None)
    # CCN-38: the active guard that took a prisoner gets a bonus flick
    assert res.tp == (2, "2", 1, "guard")


def test_ccn_28_capture_loses_flicks_of_the_same_flick():
    """CCN-28: the captured knight's play ends; the flick it scored in that flick is lost."""
    res = run(advance(1, 2), shot("moons", cross("moons", "door-2", "+"), contact("moons", "2")),
              to_prison(1, 2))
    assert res.k(1) == ("prisoner", None, 2, None)
    assert res.tp == (1, "ace", 1, "guard")


def test_ccn_28_no_capture_outside_the_castle():
    """CCN-28: only an *invading* knight is taken: Moons in the Wasteland touching the Suns
    guard is not a prisoner (and gets no strike bonus: the guard is on duty)."""
    res = run(advance(1, 1), shot("moons", contact("moons", "2")))
    assert not res.find("capture")
    assert res.k(1) == ("in_play", None, None, "in-2")
    assert res.tp == (1, "ace", 1, "guard")


def test_ccn_28_no_capture_by_off_duty_guard():
    """CCN-28: only "the guard on duty" takes prisoners. With the Suns guard off duty, the
    Moons knight inside the Suns castle hitting it is a plain strike (+2, CCN-40)."""
    res = run(advance(1, 1), end_play(1), shot("ace"), shot("suns"),
              shot("2", cross("2", "gate-2", "-")), end_play(2), quiet_turns(3, 4),
              shot("moons", cross("moons", "gate-2", "+")),
              shot("moons", contact("moons", "2")))
    assert not res.find("capture")
    assert res.k(1) == ("in_play", 2, None, "door-2")
    assert res.tp == (1, "moons", 2, "knight")


def test_ccn_28_no_capture_by_other_castles_guard():
    """CCN-28: the guard must be the guard "in the castle it is invading": Moons inside the
    Suns castle touching the Crowns guard is not taken."""
    res = run(advance(1, 2), shot("moons", contact("moons", "3")))
    assert not res.find("capture")
    assert res.k(1) == ("in_play", 2, None, "door-2")
    assert res.tp == (1, "ace", 1, "guard")


def test_ccn_28_own_guard_never_captures():
    """CCN-28: a knight inside its own castle is not invading; touching its own guard there
    is nothing."""
    res = run(shot("moons", contact("moons", "ace")))
    assert not res.find("capture")
    assert res.knight(1)["status"] == "in_play"


def test_ccn_28_capture_of_out_of_sequence_invader():
    """CCN-28 (G-CCN-10, invading_scope = any_foreign_castle): a knight that entered the
    Crowns castle out of sequence is still invading it and can be taken there."""
    res = run(advance(1, 1), shot("moons", cross("moons", "gate-3", "+"), contact("moons", "3")),
              to_prison(1, 3))
    assert res.find("capture", coin="moons", clause="CCN-28")
    assert res.k(1) == ("prisoner", None, 3, None)


def test_ccn_28_capture_by_passive_guard():
    """CCN-28 (G-CCN-09, CCN-S6): whichever coin moved: the Suns knight, playing, drives its
    own on-duty guard into the Moons invader, which is taken prisoner."""
    res = run(advance(1, 2), end_play(1), shot("ace"),
              shot("suns", contact("suns", "2"), contact("2", "moons", moving=["2"])),
              to_prison(1, 2))
    assert res.find("capture", coin="moons", clause="CCN-28")
    assert res.k(1) == ("prisoner", None, 2, None)
    # the passive guard's "takes a prisoner" bonus is not awarded or banked (G-CCN-41)
    assert res.tp == (2, "2", 1, "guard")


def test_ccn_28_prisoner_contacts_after_capture_are_ignored():
    """CCN-28 (G-CCN-62): once taken, the sliding prisoner's later contacts and crossings
    have no effect."""
    res = run(advance(1, 2), shot("moons", contact("moons", "2"), contact("moons", "suns"),
                                  cross("moons", "gate-2", "-")), to_prison(1, 2))
    assert res.k(1) == ("prisoner", None, 2, None)
    assert res.tp == (1, "ace", 1, "guard")


# ------------------------------------------------------------------ CCN-29 release (off duty)


def test_ccn_29_release_when_captor_goes_off_duty():
    """CCN-29: "It is released from prison when the castle's guard goes off duty"."""
    res = run(moons_captured_in_suns(), suns_guard_releases())
    assert res.find("release", coin="moons", clause="CCN-29")
    assert res.k(1) == ("recovering", 1, None, "out-1")
    assert res.guard(2)["on_duty"] is False
    assert res.tp == (3, "crowns", 1, "knight")


def test_ccn_29_release_asks_for_own_tower():
    """CCN-29/CCN-32: the released knight is placed on its own tower (a place ruling)."""
    before = [moons_captured_in_suns(), shot("ace"), shot("suns")]
    res = run(before, shot("2", cross("2", "gate-2", "-")))
    assert any(p.on == "tower-1" for p in res.find("place", coin="moons", since=mark(before)))


def test_ccn_29_releases_every_prisoner_of_that_castle():
    """CCN-29 (G-CCN-15): the guard going off duty frees all the prisoners it holds."""
    res = run(moons_captured_in_suns(), shot("ace"), quiet_turns(2),
              advance(3, 1), shot("crowns", cross("crowns", "gate-2", "+"),
                                  contact("crowns", "2")), to_prison(3, 2),
              shot("3"), quiet_turns(4),
              shot("ace"), shot("suns"), shot("2", cross("2", "gate-2", "-")))
    assert res.k(3) == ("recovering", 3, None, "out-3")
    assert res.k(1) == ("recovering", 1, None, "out-1")
    released = {r.coin for r in res.find("release", clause="CCN-29")}
    assert released == {"moons", "crowns"}


def test_ccn_29_knocked_off_duty_releases():
    """CCN-29 (G-CCN-15): whatever makes the captor go off duty: the Suns knight knocks its
    own guard out through the gate, and the Moons prisoner is free."""
    res = run(moons_captured_in_suns(), shot("ace"),
              shot("suns", contact("suns", "2"), cross("2", "gate-2", "-")))
    assert res.find("release", coin="moons", clause="CCN-29")
    assert res.knight(1)["status"] == "recovering"
    assert res.tp == (2, "2", 1, "guard")


def test_ccn_29_brief_leave_still_releases():
    """CCN-29 (CCN-S3): a guard that leaves and comes back in the same turn has still gone off
    duty: its prisoner is released for good."""
    res = run(moons_captured_in_suns(), shot("ace"), shot("suns"),
              shot("2", cross("2", "gate-2", "-")), to_own_tower(1),
              shot("2", cross("2", "gate-2", "+")))
    assert res.guard(2)["on_duty"] is True
    assert res.knight(1)["status"] == "recovering"
    assert res.tp == (2, "2", 1, "guard")


def test_ccn_29_release_does_not_return_the_rescuer():
    """CCN-29 (CCN-S7): a release by the captor going off duty does not send the prisoner's
    own guard home (no rescue ruling)."""
    res = run(moons_captured_in_suns(), suns_guard_releases())
    assert not res.find("rescue")


# ------------------------------------------------------------------ CCN-30/31 rescue


def test_ccn_30_rescue_by_own_guard_on_duty():
    """CCN-30: the knight is released "when its own guard on duty comes and hits the tower in
    which it is imprisoned"."""
    res = run(moons_captured_in_suns(), shot("ace", hit("ace", "tower-2")))
    assert res.find("rescue", clause={"CCN-30", "CCN-31"})
    assert res.knight(1)["status"] == "recovering"
    assert res.knight(1)["prisoner_of"] is None


def test_ccn_30_rescue_frees_only_own_knight():
    """CCN-30: the rescue frees the rescuer's own knight, not the other prisoners there."""
    res = run(moons_captured_in_suns(), shot("ace"), quiet_turns(2),
              advance(3, 1), shot("crowns", cross("crowns", "gate-2", "+"),
                                  contact("crowns", "2")), to_prison(3, 2),
              shot("3"), quiet_turns(4),
              shot("ace", hit("ace", "tower-2")))
    assert res.knight(1)["status"] == "recovering"
    assert res.k(3) == ("prisoner", None, 2, None)


def test_ccn_30_guard_hitting_another_tower_is_neutral():
    """CCN-30 (G-CCN-53): an on-duty guard hitting a tower where its knight is not held frees
    nobody."""
    res = run(moons_captured_in_suns(), shot("ace", hit("ace", "tower-3")))
    assert not res.find("rescue")
    assert res.k(1) == ("prisoner", None, 2, None)
    assert res.tp == (2, "suns", 1, "knight")


def test_ccn_30_passive_rescue():
    """CCN-30 (G-CCN-16, rescue_requires_active_guard = false): the on-duty Moons guard knocked
    into the Suns tower by another coin rescues the Moons knight all the same."""
    res = run(moons_captured_in_suns(), shot("ace"),
              shot("suns", contact("suns", "ace"), hit("ace", "tower-2")))
    assert res.find("rescue", clause={"CCN-30", "CCN-31"})
    assert res.knight(1)["status"] == "recovering"


def test_ccn_31_rescuer_returns_home_and_stays_on_duty():
    """CCN-31: "its guard is immediately returned to its starting position" (a place ruling
    for the guard), on duty and inside its own castle."""
    before = moons_captured_in_suns()
    res = run(before, shot("ace", hit("ace", "tower-2")))
    assert res.find("place", coin="ace", since=mark(before))
    res = run(before, shot("ace", hit("ace", "tower-2")), to_own_tower(1), guard_home(1))
    assert res.guard(1)["on_duty"] is True
    assert res.tp == (2, "suns", 1, "knight")


def test_ccn_31_rescuer_play_ends():
    """CCN-31 (G-CCN-14, rescuer_keeps_flicks = false): the rescuing guard's play ends, even
    with flicks earned in the same flick (leave +1 and re-enter +1)."""
    res = run(moons_captured_in_suns(),
              shot("ace", cross("ace", "gate-1", "-"), cross("ace", "gate-1", "+"),
                   hit("ace", "tower-2")),
              to_own_tower(1), guard_home(1))
    assert res.knight(1)["status"] == "recovering"
    assert res.tp == (2, "suns", 1, "knight")


# ------------------------------------------------------------------ CCN-32 recovery


def test_ccn_32_recovering_until_next_turn():
    """CCN-32: the released knight is placed on its own tower "until its next turn"; in other
    players' turns it is still recovering."""
    res = run(moons_captured_in_suns(), suns_guard_releases(), quiet_turns(3))
    assert res.k(1) == ("recovering", 1, None, "out-1")


def test_ccn_32_returned_at_next_turn_and_playable():
    """CCN-32: at its next turn it is returned to its starting position and may be played."""
    before = [moons_captured_in_suns(), suns_guard_releases(), shot("crowns")]
    res = run(before, shot("3"), quiet_turns(4))
    # the engine asks for the knight to be brought back at the start of player 1's turn
    assert any(p.on is None for p in res.find("place", coin="moons", since=mark(before)))
    res = run(before, shot("3"), quiet_turns(4), knight_home(1))
    assert res.k(1) == ("in_play", 1, None, "out-1")
    assert res.tp == (1, "moons", 1, "knight")
    assert res.turn["round"] == 2


def test_ccn_32_rescued_in_own_turn_waits_a_whole_round():
    """CCN-32 (G-CCN-13): a knight rescued during its owner's turn recovers until its owner's
    *following* turn."""
    res = run(moons_captured_in_suns(), shot("ace", hit("ace", "tower-2")), to_own_tower(1),
              guard_home(1), quiet_turns(2, 3))
    assert res.knight(1)["status"] == "recovering"
    res = run(moons_captured_in_suns(), shot("ace", hit("ace", "tower-2")), to_own_tower(1),
              guard_home(1), quiet_turns(2, 3, 4), knight_home(1),
              shot("moons", cross("moons", "gate-1", "-")))
    assert res.k(1) == ("in_play", None, None, "in-2")
    assert res.tp == (1, "moons", 1, "knight")


# ------------------------------------------------------------------ CCN-33 on duty to rescue


def test_ccn_33_off_duty_guard_cannot_rescue():
    """CCN-33: "Your guard must be on duty to release your knight from prison": having left
    through its gate on the way, it cannot."""
    res = run(moons_captured_in_suns(),
              shot("ace", cross("ace", "gate-1", "-"), hit("ace", "tower-2")))
    assert not res.find("rescue")
    assert res.k(1) == ("prisoner", None, 2, None)
    assert res.guard(1)["on_duty"] is False
    assert res.tp == (1, "ace", 1, "guard")


def test_ccn_33_back_on_duty_then_around_can_rescue():
    """CCN-33: "it must go back on duty by returning to your castle through its gate, then
    leave the castle some other way, before it can release your knight"."""
    res = run(moons_captured_in_suns(), shot("ace", cross("ace", "gate-1", "-")),
              shot("ace", cross("ace", "gate-1", "+")), shot("ace", hit("ace", "tower-2")))
    assert res.find("rescue")
    assert res.knight(1)["status"] == "recovering"


# ------------------------------------------------------------------ CCN-34 restart


def test_ccn_34_restart_sequence_of_the_prison_castle():
    """CCN-34: after release the knight must restart the scoring sequence (gate, door, tower,
    gate) for the castle in which it was imprisoned, leaving its own castle via the gate
    first; the door it had passed there no longer counts."""
    res = run(moons_captured_in_suns(extra=1), suns_guard_releases(), quiet_turns(3, 4),
              knight_home(1), shot("moons", cross("moons", "gate-1", "-")))
    assert res.k(1) == ("in_play", None, None, "in-2")
    assert res.tp == (1, "moons", 1, "knight")


def test_ccn_34_earlier_castles_keep_credit():
    """CCN-34 (G-CCN-19): a knight taken in the Crowns castle after invading the Suns castle
    restarts at the Crowns gate, not at the Suns gate."""
    res = run(advance(1, 6), shot("moons", contact("moons", "3")), to_prison(1, 3),
              shot("ace"), quiet_turns(2), shot("crowns"),
              shot("3", cross("3", "gate-3", "-")), to_own_tower(1), end_play(3),
              quiet_turns(4), knight_home(1), shot("moons", cross("moons", "gate-1", "-")))
    assert res.k(1) == ("in_play", None, None, "in-3")


def test_ccn_34_must_leave_own_castle_first():
    """CCN-34/CCN-51: the returned knight is inside its own castle; going straight into the
    Suns gate is an illegal entry."""
    res = run(moons_captured_in_suns(), suns_guard_releases(), quiet_turns(3, 4),
              knight_home(1), shot("moons", cross("moons", "gate-2", "+")))
    assert res.find("illegal", clause={"CCN-34", "CCN-51", "CCN-52"})
    assert res.k(1) == ("in_play", 1, None, "out-1")
    assert res.tp == (1, "ace", 1, "guard")


def test_ccn_34_re_exit_and_re_invade():
    """CCN-34: the restarted Suns invasion scores gate, door, tower and gate again."""
    res = run(moons_captured_in_suns(extra=2), suns_guard_releases(), quiet_turns(3, 4),
              knight_home(1), advance(1, 5))
    assert res.k(1) == ("in_play", None, None, "in-3")
    assert res.tp == (1, "moons", 1, "knight")


# ------------------------------------------------------------------ CCN-35 no play


def test_ccn_35_prisoner_cannot_be_flicked():
    """CCN-35: a prisoner cannot be played; flicking it is rejected and changes nothing."""
    before = [moons_captured_in_suns(), shot("ace"), quiet_turns(2, 3, 4)]
    res = run(before, shot("moons", cross("moons", "gate-2", "-")))
    assert set(res.kinds(since=mark(before))) & {"reject", "foul"}
    assert res.k(1) == ("prisoner", None, 2, None)
    assert res.tp == (1, "ace", 1, "guard")


def test_ccn_35_recovering_knight_cannot_be_flicked_by_others():
    """CCN-35: a recovering knight on its tower takes no part: a flick of it (in another
    player's turn) is refused and the turn is unchanged."""
    before = [moons_captured_in_suns(), suns_guard_releases()]
    res = run(before, shot("moons"))
    assert set(res.kinds(since=mark(before))) & {"reject", "foul"}
    assert res.knight(1)["status"] == "recovering"
    assert res.tp == (3, "crowns", 1, "knight")


# ------------------------------------------------------------------ timing and turn edge cases


def test_ccn_28_enter_and_hit_in_one_flick():
    """CCN-28 (CCN-S2): a knight that goes in through the gate and hits the guard standing
    just behind it "has already passed through the gate and is automatically taken
    prisoner"; the gate it scored on the way does not save its play."""
    res = run(advance(1, 1), shot("moons", cross("moons", "gate-2", "+"), contact("moons", "2")),
              to_prison(1, 2))
    assert res.k(1) == ("prisoner", None, 2, None)
    assert res.tp == (1, "ace", 1, "guard")


def test_ccn_28_hit_before_entering_is_no_capture():
    """CCN-28 (G-CCN-11): touching the guard *before* the knight's centre is through the gate
    is no capture: it was not yet invading; the gate then scores."""
    res = run(advance(1, 1), shot("moons", contact("moons", "2"), cross("moons", "gate-2", "+")))
    assert res.k(1) == ("in_play", 2, None, "door-2")
    assert res.tp == (1, "moons", 1, "knight")


def test_ccn_28_capture_in_a_third_players_turn():
    """CCN-28 (G-CCN-09): a capture happens in any player's turn: the Crowns knight knocks the
    Suns guard into the Moons invader."""
    res = run(advance(1, 2), end_play(1), shot("ace"), quiet_turns(2),
              shot("crowns", contact("crowns", "2"), contact("2", "moons", moving=["2"])))
    assert res.find("capture", coin="moons", clause="CCN-28")
    assert res.k(1) == ("prisoner", None, 2, None)
    assert res.tp == (3, "3", 1, "guard")


def test_ccn_28_guard_back_on_duty_then_captures():
    """CCN-28/CCN-39 (CCN-S1): an off-duty guard played back in through its gate (+1) is on
    duty again, and hitting the invader then takes it prisoner (+1)."""
    res = run(advance(1, 1), end_play(1), shot("ace"),
              shot("suns"), shot("2", cross("2", "gate-2", "-")), end_play(2), quiet_turns(3, 4),
              shot("moons", cross("moons", "gate-2", "+")), end_play(1), shot("ace"),
              end_play(2), shot("2", cross("2", "gate-2", "+")), shot("2", contact("2", "moons")))
    assert res.k(1) == ("prisoner", None, 2, None)
    assert res.guard(2)["on_duty"] is True
    assert res.tp == (2, "2", 1, "guard")


def test_ccn_28_guard_that_just_left_only_strikes():
    """CCN-28/CCN-40: the Suns guard that leaves its castle and then hits the invader in the
    same flick is off duty at the contact: no capture, but a strike (+2) besides the leave
    bonus (+1)."""
    res = run(advance(1, 2), end_play(1), shot("ace"), shot("suns"),
              shot("2", cross("2", "gate-2", "-"), contact("2", "moons")))
    assert res.k(1) == ("in_play", 2, None, "door-2")
    assert res.tp == (2, "2", 3, "guard")


def test_ccn_29_captured_then_captor_leaves_same_flick():
    """CCN-29 (G-CCN-15): causality in time order: the Suns guard takes the invader (+1) and
    then goes out through its gate (+1) in the same flick, which frees it at once."""
    res = run(advance(1, 2), end_play(1), shot("ace"), shot("suns"),
              shot("2", contact("2", "moons"), cross("2", "gate-2", "-")))
    assert res.find("capture", coin="moons")
    assert res.find("release", coin="moons", clause="CCN-29")
    assert res.k(1) == ("recovering", 1, None, "out-1")
    assert res.tp == (2, "2", 2, "guard")


def test_ccn_32_released_just_before_own_turn():
    """CCN-32 (G-CCN-13): released in the turn just before its owner's, the knight recovers
    only until that next turn, where it comes back into play."""
    res = run(moons_captured_in_suns(), shot("ace"), quiet_turns(2, 3),
              shot("arms", contact("arms", "2"), cross("2", "gate-2", "-")), to_own_tower(1),
              shot("4"), knight_home(1))
    assert res.k(1) == ("in_play", 1, None, "out-1")
    assert res.tp == (1, "moons", 1, "knight")
    assert res.turn["round"] == 2


def test_ccn_29_own_guard_knocks_captor_off_duty():
    """CCN-29 (G-CCN-15, CCN-S7): the prisoner's own guard, in its owner's turn, knocks the
    captor out through its gate: the knight is released (in its owner's turn, so it waits
    for the following one) and the guard is *not* sent home."""
    res = run(moons_captured_in_suns(),
              shot("ace", contact("ace", "2"), cross("2", "gate-2", "-")), to_own_tower(1))
    assert res.find("release", coin="moons", clause="CCN-29")
    assert not res.find("rescue")
    assert not res.find("place", coin="ace")
    assert res.k(1) == ("recovering", 1, None, "out-1")
    assert res.tp == (2, "suns", 1, "knight")
    res = run(moons_captured_in_suns(),
              shot("ace", contact("ace", "2"), cross("2", "gate-2", "-")), to_own_tower(1),
              quiet_turns(2, 3, 4), knight_home(1))
    assert res.k(1) == ("in_play", 1, None, "out-1")
