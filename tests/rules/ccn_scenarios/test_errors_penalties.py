"""Errors and penalties: off the table, illegal entry, wrong coins: CCN-49 … CCN-54.

CCN-53 (extra penalties from Croquet/Crokinole) and CCN-55 (flamingoes and hedgehogs) have no
behaviour by default; that nothing extra is penalised is checked by the other tests (a repeat
strike is unpaid but no foul, a pushy flick is resolved normally).
"""

from __future__ import annotations

import pytest

from .builder import (
    TABLE_EDGE,
    advance,
    contact,
    cross,
    edge_spot,
    end_play,
    flick,
    lift,
    mark,
    move,
    off_table,
    place,
    quiet_round,
    run,
    settled,
    shot,
)

EAST = (TABLE_EDGE, -100.0)
WEST = (-TABLE_EDGE, 50.0)
SOUTH = (0.0, -TABLE_EDGE)
ILLEGAL = {"CCN-51", "CCN-52"}

# ------------------------------------------------------------------ CCN-49/50 off the table


def test_ccn_49_own_coin_off_table_loses_flicks():
    """CCN-49: the player who flicks his coin off the table "loses the rest of the flicks
    available to that coin", the bonus earned earlier in that flick included (G-CCN-37);
    what happened before the fall stands."""
    res = run(shot("moons", cross("moons", "gate-1", "-"), off_table("moons", EAST)))
    assert res.k(1) == ("in_play", None, None, "in-2")
    assert res.tp == (1, "ace", 1, "guard")


def test_ccn_49_returned_where_it_fell_off():
    """CCN-49: "he returns his coin to the spot on the edge of the table where the coin fell
    off" (centre inset r + 0.5 mm by default)."""
    res = run(shot("moons", cross("moons", "gate-1", "-"), off_table("moons", EAST)))
    places = res.find("place", coin="moons", clause={"CCN-49", "CCN-50"})
    assert places
    assert places[0].at == pytest.approx(edge_spot(EAST), abs=0.05)


def test_ccn_49_then_play_continues_with_the_guard():
    """CCN-49: only that coin's flicks are lost; after returning it, the guard plays."""
    spot = edge_spot(EAST)
    res = run(shot("moons", cross("moons", "gate-1", "-"), off_table("moons", EAST)),
              move("moons", spot), shot("ace", cross("ace", "gate-1", "-")))
    assert res.tp == (1, "ace", 1, "guard")


def test_ccn_49_guard_off_table_ends_the_turn():
    """CCN-49: a guard flicked off the table loses its flicks (its leave bonus included), and
    the turn passes; it stays off duty, since it did leave."""
    res = run(shot("moons"), shot("ace", cross("ace", "gate-1", "-"), off_table("ace", SOUTH)))
    assert res.guard(1)["on_duty"] is False
    assert res.tp == (2, "suns", 1, "knight")


def test_ccn_50_other_players_coin_off_table():
    """CCN-50: "If he hits another player's coin off the table, it is simply returned to the
    spot where it fell off": no penalty, and the striker keeps its flicks."""
    before = quiet_round()
    res = run(before, shot("moons", contact("moons", "suns"), off_table("suns", WEST)))
    places = res.find("place", coin="suns", since=mark(before))
    assert places
    assert places[0].at == pytest.approx(edge_spot(WEST), abs=0.05)
    assert res.tp == (1, "moons", 2, "knight")


def test_ccn_50_own_passive_coin_off_table_no_penalty():
    """CCN-50 (G-CCN-37, own_passive_offtable_penalty = false): the player's own guard knocked
    off in his knight's play is returned like any other coin; the guard still plays."""
    res = run(quiet_round(), shot("moons", contact("moons", "ace"), off_table("ace", SOUTH)),
              move("ace", edge_spot(SOUTH)))
    assert res.tp == (1, "ace", 1, "guard")


def test_ccn_50_knocked_coin_keeps_its_state():
    """CCN-50: a coin knocked off is just put back; the Suns knight is still inside its
    castle, the Moons knight's score stands."""
    res = run(quiet_round(), shot("moons", cross("moons", "gate-1", "-"),
                                  contact("moons", "suns"), off_table("suns", WEST)))
    assert res.k(2) == ("in_play", 2, None, "out-2")
    assert res.tp == (1, "moons", 3, "knight")


# ------------------------------------------------------------------ CCN-51/52 illegal entry


def test_ccn_51_illegal_entry_from_another_castle():
    """CCN-51: "For a coin to be flicked into the gate of a castle before it has left the
    castle it is already in is illegal." CCN-52: replaced, and no more flicks that turn."""
    res = run(advance(1, 2), shot("moons", cross("moons", "gate-3", "+")))
    assert res.find("illegal", coin="moons", clause=ILLEGAL)
    assert res.k(1) == ("in_play", 2, None, "door-2")
    assert res.tp == (1, "ace", 1, "guard")


def test_ccn_51_leaving_then_entering_in_one_flick_is_legal():
    """CCN-51 (G-CCN-54): a knight that leaves one castle and enters the next in the same flick
    has left first: legal (and here both items score)."""
    res = run(advance(1, 4), shot("moons", cross("moons", "gate-2", "-"),
                                  cross("moons", "gate-3", "+")))
    assert not res.find("illegal")
    assert res.k(1) == ("in_play", 3, None, "door-3")
    assert res.tp == (1, "moons", 2, "knight")


def test_ccn_51_knocked_knight_is_not_illegal():
    """CCN-51 (G-CCN-36, passive_illegal_entry = neutral): the rule is about a coin being
    *flicked* in: the Suns knight, still in its castle, knocked through the Crowns gate, is
    not penalised and stays in its own castle."""
    res = run(quiet_round(), shot("moons", contact("moons", "suns"),
                                  cross("suns", "gate-3", "+")))
    assert not res.find("illegal")
    assert res.knight(2)["castle"] == 2
    assert res.tp == (1, "moons", 2, "knight")


def test_ccn_51_off_duty_guard_through_foreign_gate_is_legal():
    """CCN-51: a guard that has left its castle is outdoors; going in through another castle's
    gate is no illegal entry (nor does it change its duty)."""
    res = run(shot("moons"), shot("ace", cross("ace", "gate-1", "-")),
              shot("ace", cross("ace", "gate-2", "+")))
    assert not res.find("illegal")
    assert res.guard(1)["on_duty"] is False
    assert res.tp == (2, "suns", 1, "knight")


# SOURCE vs SPEC: CCN-51's source says "For a *coin* to be flicked into the gate of a castle
# before it has left the castle it is already in is illegal", and "In general, a coin is only
# said to have entered a castle if it passed in through that castle's gate" covers guards too.
# RULES-SPEC G-CCN-17 instead adopts Carroll's N.B. (guards ignore other gates) as the default
# (guards_enter_foreign_castles = false).  The source text wins here.
def test_ccn_51_on_duty_guard_flicked_into_foreign_gate_is_illegal():
    """CCN-51 (source text): the on-duty Moons guard, still inside its own castle, flicked in
    through the Suns gate makes an illegal entry: replaced, no more flicks that turn."""
    res = run(shot("moons"), shot("ace", cross("ace", "gate-2", "+")))
    assert res.find("illegal", coin="ace")
    assert res.guard(1)["on_duty"] is True


def test_ccn_52_illegal_flick_scores_nothing():
    """CCN-52 (G-CCN-36): the coin is replaced where it was before the flick and every effect
    of that flick is void: the Suns door it passed on the way does not count."""
    res = run(advance(1, 2), shot("moons", cross("moons", "door-2", "+"),
                                  cross("moons", "gate-3", "+")))
    assert res.find("illegal", clause=ILLEGAL)
    assert res.k(1) == ("in_play", 2, None, "door-2")
    assert res.tp == (1, "ace", 1, "guard")


def test_ccn_52_illegal_flick_voids_duty_change():
    """CCN-52 (G-CCN-36, illegal_rollback = all_coins): a guard knocked out of its castle by
    the illegal flick is put back, on duty."""
    # The source speaks only of "the coin" being replaced; putting back (and un-doing) the
    # other coins is RULES-SPEC's default reading of replacing the flick, not a contradiction.
    res = run(advance(1, 2), shot("moons", contact("moons", "3"), cross("3", "gate-3", "-"),
                                  cross("moons", "gate-3", "+")))
    assert res.find("illegal", clause=ILLEGAL)
    assert res.guard(3)["on_duty"] is True


def test_ccn_52_illegal_flick_voids_strike_bonus():
    """CCN-52: a strike made before the illegal entry pays nothing either."""
    res = run(advance(1, 2), end_play(1), shot("ace"), shot("suns"), shot("2"),
              shot("crowns"), shot("3"), shot("arms"), shot("4"),
              shot("moons", contact("moons", "suns"), cross("moons", "gate-3", "+")))
    assert res.find("illegal", clause=ILLEGAL)
    assert res.tp == (1, "ace", 1, "guard")


def test_ccn_52_coin_must_be_replaced():
    """CCN-52: "The coin must be replaced where it was before it was flicked" (a placement
    is asked for the offending coin)."""
    before = advance(1, 2)
    res = run(before, shot("moons", cross("moons", "gate-3", "+")))
    later = [r for rs in res.per_event[mark(before):] for r in rs]
    assert any(r.coin == "moons" and (r.kind == "place" or r.at is not None) for r in later)


def test_ccn_52_may_not_be_flicked_again_that_turn():
    """CCN-52: "… and may not be flicked again that turn": a further flick of it is a foul
    (rolled back); the guard's play is still to come."""
    before = [advance(1, 2), shot("moons", cross("moons", "gate-3", "+"))]
    res = run(before, shot("moons", cross("moons", "door-2", "+")))
    assert set(res.kinds(since=mark(before))) & {"foul", "reject"}
    assert res.k(1) == ("in_play", 2, None, "door-2")
    assert res.tp == (1, "ace", 1, "guard")


def test_ccn_52_knight_free_again_next_turn():
    """CCN-52: the ban lasts "that turn" only."""
    res = run(advance(1, 2), shot("moons", cross("moons", "gate-3", "+")), shot("ace"),
              shot("suns"), shot("2"), shot("crowns"), shot("3"), shot("arms"), shot("4"),
              shot("moons", cross("moons", "door-2", "+")))
    assert res.knight(1)["next"] == "tower-2"
    assert res.tp == (1, "moons", 1, "knight")


# ------------------------------------------------------------------ wrong coins, CCN-54


def test_ccn_13_wrong_coin_is_a_foul():
    """CCN-13/CCN-15 (G-CCN-42, wrong_coin_penalty = restore): flicking a coin that is not the
    one to play (an opponent's) is a foul: rolled back, and no flick is spent."""
    res = run(shot("suns", cross("suns", "gate-2", "-")))
    assert res.find("foul")
    assert res.knight(2)["next"] == "out-2"
    assert res.tp == (1, "moons", 1, "knight")


def test_ccn_13_a_void_flick_puts_back_what_it_moved_not_what_vision_reads_off_its_spot():
    """G-CCN-42 with vision's streams: the coins go back where they were, compared with where
    vision saw them before the flick.  Vision reads Moons 2.1 mm off its spot all along
    (pale coin on pale cloth); told where each coin rests at the session start (a `settled`
    with positions, as `referee analyze` writes first), the referee asks for the wrongly
    flicked coin back, not for Moons, which never moved."""
    moons_seen = {"moons": (1.5, -211.0)}
    wrong = [flick("arms"), off_table("arms", EAST), settled(moons_seen)]
    res = run(settled(moons_seen), *wrong)
    assert [r["coin"] for r in res.summary["pending_placements"]] == ["arms"]
    told_nothing = run(*wrong)
    assert [r["coin"] for r in told_nothing.summary["pending_placements"]] == ["moons"]


def test_ccn_13_other_player_cannot_end_the_play():
    """CCN-13 (G-CCN-38): only the player to move can give up the active coin's flicks."""
    res = run(shot("moons", cross("moons", "gate-1", "-")), end_play(2))
    assert set(res.kinds(since=mark(shot("moons", cross("moons", "gate-1", "-"))))) & {
        "reject", "foul"}
    assert res.tp == (1, "moons", 1, "knight")


def test_ccn_54_no_edge_relief_by_default():
    """CCN-54: moving a coin away from the edge is an optional looser rule (edge_relief =
    false): by default a hand-moved coin is a disturbance and must be put back."""
    spot = edge_spot(SOUTH)
    inward = (0.0, -TABLE_EDGE + 9.525 + 19.05)
    before = [shot("moons", off_table("moons", SOUTH)), move("moons", spot), shot("ace"),
              shot("suns"), shot("2"), shot("crowns"), shot("3"), shot("arms"), shot("4")]
    res = run(before, lift("moons"), place("moons", inward))
    later = [r for rs in res.per_event[mark(before):] for r in rs]
    assert any(r.kind in {"place", "foul", "reject"} and r.coin == "moons" for r in later)
    assert res.tp == (1, "moons", 1, "knight")


# ------------------------------------------------------------------ uncertainty, overrides


def test_uncertain_event_asks_the_players():
    """§1.3 item 8 (uncertain_policy = ask): an event vision marks as too close to call gets an
    `uncertain` ruling."""
    res = run(flick("moons"), cross("moons", "gate-1", "-", uncertain=True), settled())
    assert res.find("uncertain")


def test_override_is_recorded():
    """CONTRACT: a person may overrule a ruling; it is one more event and gets an `override`
    ruling."""
    first = run(advance(1, 2), shot("moons", contact("moons", "2")))
    capture = first.find("capture")[0]
    res = run(advance(1, 2), shot("moons", contact("moons", "2")),
              {"type": "override", "ruling": capture.id, "by": "players", "reason": "missed"})
    assert res.find("override")


def test_flick_of_moving_coin_before_settle_is_not_fatal():
    """§1.3 (G-CCN-56): a flick while coins still move is warned about, not an error."""
    res = run(flick("moons"), flick("moons"), settled())
    assert res.summary["over"] is False


def test_ccn_49_off_at_a_corner_comes_back_inside_both_edges():
    """CCN-49 (§1.2): a coin that falls off at a corner is put back inside both edges."""
    corner = (TABLE_EDGE, -TABLE_EDGE)
    res = run(shot("moons", off_table("moons", corner)))
    places = res.find("place", coin="moons")
    assert places
    x, y = places[0].at
    inset = 9.525 + 0.5
    assert x == pytest.approx(TABLE_EDGE - inset, abs=0.05)
    assert y == pytest.approx(-TABLE_EDGE + inset, abs=0.05)
