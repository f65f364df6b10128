"""Croquet: a knight hitting its own off-duty guard: CCN-42 … CCN-48.

Every scenario starts from `guard_out_round1()`: in round 1 the Moons guard left its castle
(off duty, resting in the hub at GUARD_AT), so in round 2 the Moons knight can strike it.
"""

from __future__ import annotations

from .builder import (
    contact,
    cross,
    declare_croquet,
    flick,
    guard_out_round1,
    hold,
    mark,
    move,
    run,
    settled,
    shot,
)

GUARD_AT = (0.0, -35.0)  # the Moons guard, off duty, in gate 1's channel on the hub side
KNIGHT_AT = (0.0, 10.0)  # where the knight rests after striking it (north of it, in the hub)
TOUCHING = (0.0, -35.0 + 19.05)  # knight centre one coin diameter north of the guard
NEAR = (0.0, -35.0 + 19.05 + 10.0)  # 10 mm gap: within a coin-width, not touching


def croquet_hit(*more):
    """Round 2, player 1's first knight flick: it strikes its own off-duty guard."""
    return [guard_out_round1(),
            flick("moons"), *more, contact("moons", "ace"),
            settled({"moons": KNIGHT_AT, "ace": GUARD_AT})]


def test_ccn_42_knight_hits_own_off_duty_guard():
    """CCN-42: "Knight hits its own off-duty guard. | Knight may take croquet of any kind."
    The hit keeps the knight in play (its croquet is pending) and is announced."""
    before = guard_out_round1()
    res = run(croquet_hit())
    assert res.guard(1)["on_duty"] is False
    later = [r for rs in res.per_event[mark(before):] for r in rs]
    assert any(r.clause in {"CCN-42", "CCN-43"} for r in later)
    assert res.turn["player"] == 1
    assert res.turn["coin"] == "moons"
    assert res.turn["phase"] == "knight"


def test_ccn_42_own_guard_on_duty_is_no_croquet():
    """CCN-42: only an *off-duty* own guard gives croquet; hitting it on duty gives nothing
    (CCN-40: it is a guard on duty)."""
    before = [shot("moons"), shot("ace"), shot("suns"), shot("2"), shot("crowns"), shot("3"),
              shot("arms"), shot("4")]
    res = run(before, shot("moons", contact("moons", "ace")), declare_croquet(1, 1))
    assert not any(r.clause in {"CCN-42", "CCN-44"} and r.bonus for r in res.rulings)
    assert res.tp == (1, "ace", 1, "guard")


def test_ccn_42_croquet_replaces_the_strike_bonus():
    """CCN-42 (G-CCN-29): croquet kind 1 is two bonus flicks *instead of* the strike's two,
    not on top of them."""
    res = run(croquet_hit(), declare_croquet(1, 1))
    assert res.tp == (1, "moons", 2, "knight")


def test_ccn_42_no_declaration_means_kind_1():
    """CCN-42 (G-CCN-29): if the player flicks on without declaring, kind 1 (two flicks) is
    taken."""
    res = run(croquet_hit(), shot("moons"))
    assert res.tp == (1, "moons", 1, "knight")


def test_ccn_42_croquet_once_per_guard_until_a_score():
    """CCN-42/CCN-41 (G-CCN-29): the croquet is a strike too: hitting the same guard again
    before scoring earns nothing."""
    res = run(croquet_hit(), declare_croquet(1, 1), shot("moons", contact("moons", "ace")))
    assert res.tp == (1, "moons", 1, "knight")
    res = run(croquet_hit(), declare_croquet(1, 1), shot("moons", contact("moons", "ace")),
              shot("moons"))
    assert res.tp == (1, "ace", 1, "guard")


def test_ccn_42_croquet_plus_score_in_same_flick():
    """CCN-42 with CCN-37 (G-CCN-29): a flick that scores the own gate and then hits the own
    off-duty guard gives the score's flick and the croquet's two."""
    res = run(croquet_hit(cross("moons", "gate-1", "-")), declare_croquet(1, 1))
    assert res.knight(1)["next"] == "in-2"
    assert res.tp == (1, "moons", 3, "knight")


def test_ccn_43_croquet_needs_the_hit():
    """CCN-43: a croquet is a bonus possible "when your knight strikes its own guard"; a
    declaration without that hit is refused and adds nothing."""
    res = run(guard_out_round1(), declare_croquet(1, 1))
    assert res.find("reject")
    assert res.tp == (1, "moons", 1, "knight")


def test_ccn_43_other_players_guard_gives_no_croquet():
    """CCN-43: croquet is for the knight's *own* guard: the Suns knight striking the off-duty
    Moons guard gets the plain strike bonus, and a croquet declaration is refused."""
    res = run(shot("moons"), shot("ace", cross("ace", "gate-1", "-")), flick("ace"), settled(),
              shot("suns", contact("suns", "ace")), declare_croquet(2, 1))
    assert res.find("reject")
    assert res.tp == (2, "suns", 2, "knight")


def test_ccn_44_kind_1_two_bonus_flicks():
    """CCN-44: kind 1: "You may take two regular bonus flicks.\""""
    res = run(croquet_hit(), declare_croquet(1, 1), shot("moons"), shot("moons"))
    assert res.tp == (1, "ace", 1, "guard")


def test_ccn_45_kind_2_place_near_guard_then_two_flicks():
    """CCN-45: kind 2: pick up the knight, place it within a coin-width of the guard, then
    take two regular bonus flicks."""
    before = [croquet_hit(), declare_croquet(1, 2)]
    res = run(before, move("moons", NEAR))
    assert not set(res.kinds(since=mark(before))) & {"reject", "foul", "illegal"}
    assert res.tp == (1, "moons", 2, "knight")
    res = run(before, move("moons", NEAR), shot("moons"), shot("moons"))
    assert res.tp == (1, "ace", 1, "guard")


def test_ccn_45_kind_2_placement_is_state_neutral():
    """CCN-45 (G-CCN-34): the hand placement crosses no line: the knight is still inside its
    own castle (placed on the hub side of its gate) and must still go out through the gate."""
    res = run(croquet_hit(), declare_croquet(1, 2), move("moons", NEAR))
    assert res.k(1) == ("in_play", 1, None, "out-1")


def test_ccn_46_kind_3_loose_croquet():
    """CCN-46: kind 3 (loose croquet): place the knight in contact with the guard, flick the
    knight; "The knight then receives another bonus flick": the croquet flick plus one."""
    before = [croquet_hit(), declare_croquet(1, 3), move("moons", TOUCHING)]
    res = run(before)
    assert res.tp == (1, "moons", 2, "knight")
    res = run(before, shot("moons"))
    assert res.tp == (1, "moons", 1, "knight")
    res = run(before, shot("moons"), shot("moons"))
    assert res.tp == (1, "ace", 1, "guard")


def test_ccn_46_loose_croquet_sends_guard_home():
    """CCN-46 (G-CCN-32): in the croquet flick the guard is passive: driven in through its
    gate it goes back on duty, but earns no bonus; the initial touch is no new strike."""
    before = [croquet_hit(), declare_croquet(1, 3), move("moons", TOUCHING)]
    res = run(before, shot("moons", cross("ace", "gate-1", "+")))
    assert res.guard(1)["on_duty"] is True
    assert res.tp == (1, "moons", 1, "knight")


def test_ccn_46_croquet_flick_strikes_pay():
    """CCN-46 (G-CCN-32): the knight is the active coin in the croquet flick: striking another
    coin in it earns the usual two flicks (the touch with the guard is not a strike)."""
    before = [croquet_hit(), declare_croquet(1, 3), move("moons", TOUCHING)]
    res = run(before, shot("moons", contact("moons", "suns")))
    assert res.tp == (1, "moons", 3, "knight")


def test_ccn_47_kind_4_tight_croquet():
    """CCN-47: kind 4 (tight croquet): the knight is held down while flicked so the guard is
    propelled away; the knight then receives another bonus flick."""
    before = [croquet_hit(), declare_croquet(1, 4), move("moons", TOUCHING)]
    res = run(before, flick("moons"), hold("moons"), settled({"moons": TOUCHING,
                                                              "ace": (0.0, -90.0)}))
    assert not set(res.kinds(since=mark(before))) & {"foul", "reject", "illegal"}
    assert res.tp == (1, "moons", 1, "knight")


def test_ccn_47_tight_croquet_knight_moves_no_penalty():
    """CCN-47: "(If the knight happens to move, there is no penalty.)\""""
    before = [croquet_hit(), declare_croquet(1, 4), move("moons", TOUCHING)]
    res = run(before, flick("moons"), hold("moons"), settled({"moons": (0.0, -10.0),
                                                              "ace": (0.0, -90.0)}))
    assert not set(res.kinds(since=mark(before))) & {"foul", "reject", "illegal"}
    assert res.tp == (1, "moons", 1, "knight")


def test_ccn_47_tight_croquet_guard_goes_through_gate():
    """CCN-47 (G-CCN-32): the guard propelled in through its own gate goes back on duty."""
    before = [croquet_hit(), declare_croquet(1, 4), move("moons", TOUCHING)]
    res = run(before, flick("moons"), hold("moons"), cross("ace", "gate-1", "+"),
              settled({"moons": TOUCHING, "ace": (0.0, -90.0)}))
    assert res.guard(1)["on_duty"] is True
    assert res.tp == (1, "moons", 1, "knight")


def test_ccn_48_kind_5_two_flicks_rehit_unpaid():
    """CCN-48: kind 5: move the knight slightly, then drive the guard away with the second
    flick; two flicks, and the second hit of the guard earns nothing (CCN-41)."""
    res = run(croquet_hit(), declare_croquet(1, 5), shot("moons"))
    assert res.tp == (1, "moons", 1, "knight")
    res = run(croquet_hit(), declare_croquet(1, 5), shot("moons"),
              shot("moons", contact("moons", "ace")))
    assert res.tp == (1, "ace", 1, "guard")


FAR = (0.0, -35.0 + 19.05 + 60.0)  # 60 mm gap: more than a coin-width from the guard


def test_ccn_45_kind_2_too_far_is_refused():
    """CCN-45: the knight must be placed "within a coin-width away from your guard"; 60 mm away
    is not accepted."""
    before = [croquet_hit(), declare_croquet(1, 2)]
    res = run(before, move("moons", FAR))
    assert set(res.kinds(since=mark(before))) & {"reject", "foul", "place"}


def test_ccn_46_kind_3_must_touch():
    """CCN-46: for a loose croquet the knight is placed "in contact with your guard"; a 10 mm
    gap is not contact."""
    before = [croquet_hit(), declare_croquet(1, 3)]
    res = run(before, move("moons", NEAR))
    assert set(res.kinds(since=mark(before))) & {"reject", "foul", "place"}


def test_ccn_47_tight_croquet_flick_must_be_the_knights():
    """CCN-47 (G-CCN-31): in a tight croquet the knight is flicked (the guard is propelled
    through it); flicking the guard directly is a foul and spends nothing."""
    before = [croquet_hit(), declare_croquet(1, 4), move("moons", TOUCHING)]
    res = run(before, shot("ace"))
    assert res.find("foul", since=mark(before))
    assert res.tp == (1, "moons", 2, "knight")
