"""Setup, components and the turn structure: CCN-01 … CCN-15."""

from __future__ import annotations

import pytest

from referee.rules.base import InvalidEventError

from .builder import (
    GUARD,
    KNIGHT,
    advance,
    contact,
    cross,
    end_play,
    face,
    flick,
    hit,
    mark,
    moons_captured_in_suns,
    quiet_round,
    quiet_turn,
    quiet_turns,
    run,
    settled,
    shot,
    tile_moved,
)

# ------------------------------------------------------------------ setup and components


def test_ccn_01_four_players_four_castles():
    """CCN-01: "4 players." The game has exactly four seats, each with a knight and a guard."""
    res = run()
    assert res.summary["game"] == "castle-croquetnole"
    assert sorted(res.summary["players"]) == ["1", "2", "3", "4"]
    assert res.summary["over"] is False
    assert res.summary["winner"] is None


def test_ccn_02_roles_survive_a_flip():
    """CCN-02: four coins are knights, the others guards; the role is fixed for the game, so a
    coin that flips over during a flick keeps its identity (G-CCN-51)."""
    res = run(flick("moons"), face("moons", "null"), settled())
    assert res.knight(1)["coin"] == "moons"
    assert res.knight(1)["status"] == "in_play"
    # the knight's play is over: its guard (not a "new knight") is next
    assert res.tp == (1, "ace", 1, "guard")


@pytest.mark.parametrize("player", [1, 2, 3, 4])
def test_ccn_03_coin_assignment(player):
    """CCN-03: 1 Moon/Ace, 2 Sun/2, 3 Crown/3, 4 Arms/4."""
    res = run()
    assert res.knight(player)["coin"] == KNIGHT[player]
    assert res.guard(player)["coin"] == GUARD[player]


def test_ccn_04_castle_pieces_unknown_line_is_invalid():
    """CCN-04: each of the four castles is a gate, a door and a tower; a fifth castle's gate
    does not exist, so an event naming it is meaningless for this game (InvalidEventError)."""
    game_events = [flick("moons"), cross("moons", "gate-5", "-"), settled()]
    with pytest.raises(InvalidEventError):
        run(game_events)


def test_ccn_04_unknown_coin_is_invalid():
    """CCN-04/CCN-03: only the eight coins of the game exist; an unknown coin is invalid."""
    with pytest.raises(InvalidEventError):
        run(flick("bishops"), settled())


def test_ccn_05_shared_gatepost_hit_is_neutral():
    """CCN-05: the gateposts are shared tiles; hitting one is neither a score nor a strike."""
    res = run(advance(1, 1), shot("moons", hit("moons", "post-12")))
    assert res.k(1) == ("in_play", None, None, "in-2")
    assert not res.find("score", since=mark(advance(1, 1)))
    assert res.tp == (1, "ace", 1, "guard")


def test_ccn_06_displaced_tile_does_not_void_the_crossing():
    """CCN-06 (with G-CCN-43): a gate is two tiles a tile-width apart; if the flick knocks a
    tile out of place, the flick is still judged against the registered gate."""
    res = run(flick("moons"), cross("moons", "gate-1", "-"), tile_moved("post-12", 4.0),
              settled())
    assert res.knight(1)["next"] == "in-2"
    assert res.knight(1)["castle"] is None


def test_ccn_07_only_the_tower_scores_as_tower():
    """CCN-07: the tower is the two-tile stack; hitting a door tile of that castle is not
    hitting its tower."""
    res = run(advance(1, 3), shot("moons", hit("moons", "door-2-a")))
    assert res.knight(1)["next"] == "tower-2"
    assert res.tp == (1, "ace", 1, "guard")
    res = run(advance(1, 3), shot("moons", hit("moons", "tower-2")))
    assert res.knight(1)["next"] == "out-2"
    assert res.tp == (1, "moons", 1, "knight")


def test_ccn_10_guards_start_on_duty_knights_unplaced():
    """CCN-10: before the game each guard is placed within a coin-width of its tower, inside its
    castle and on duty; the knights are placed in their owners' first turns (CCN-11/12)."""
    res = run()
    for p in (1, 2, 3, 4):
        assert res.guard(p)["on_duty"] is True
    for p in (2, 3, 4):
        assert res.k(p) == ("unplaced", p, None, f"out-{p}")


# ------------------------------------------------------------------ first turn, turn order


def test_ccn_11_first_turn_moons_knight():
    """CCN-11: the Moons player begins: his knight is the first coin to play, round 1."""
    res = run()
    assert res.turn == {**res.turn, "player": 1, "coin": "moons", "flicks_left": 1,
                        "phase": "knight", "round": 1}
    assert res.knight(1)["status"] in ("unplaced", "in_play")
    assert res.knight(1)["castle"] == 1
    assert res.knight(1)["next"] == "out-1"


def test_ccn_11_knight_then_guard():
    """CCN-11: "places his knight …, plays it, and then plays his guard"."""
    res = run(shot("moons"))
    assert res.knight(1)["status"] == "in_play"
    assert res.knight(1)["castle"] == 1
    assert res.tp == (1, "ace", 1, "guard")


def test_ccn_11_round1_knight_must_be_played():
    """CCN-11 (G-CCN-39): in round 1 the knight must be flicked at least once; giving up its
    play before flicking it is not accepted."""
    res = run(end_play(1))
    assert res.find("reject")
    assert res.tp == (1, "moons", 1, "knight")


def test_ccn_11_round1_guard_first_is_not_accepted():
    """CCN-11: in round 1 the knight is played first, then the guard; a guard flicked before
    the knight is rolled back and the knight is still to play."""
    res = run(shot("ace"))
    assert set(res.kinds()) & {"foul", "reject"}
    assert res.tp == (1, "moons", 1, "knight")


def test_ccn_11_round1_guard_must_be_played():
    """CCN-11 (G-CCN-39, round1_guard_mandatory): the guard must be flicked in round 1."""
    res = run(shot("moons"), end_play(1))
    assert res.find("reject")
    assert res.tp == (1, "ace", 1, "guard")


def test_ccn_12_turn_passes_clockwise():
    """CCN-12: next the player to his left (Suns) plays, and so on clockwise."""
    res = run(quiet_turn(1))
    assert res.turn["player"] == 2
    assert res.tp == (2, "suns", 1, "knight")
    assert res.find("turn")
    res = run(quiet_turns(1, 2))
    assert res.tp == (3, "crowns", 1, "knight")
    res = run(quiet_turns(1, 2, 3))
    assert res.tp == (4, "arms", 1, "knight")


def test_ccn_12_round_two_starts_with_moons():
    """CCN-12: after Arms the turn comes back to Moons, in round 2."""
    res = run(quiet_round())
    assert res.tp == (1, "moons", 1, "knight")
    assert res.turn["round"] == 2
    for p in (1, 2, 3, 4):
        assert res.k(p) == ("in_play", p, None, f"out-{p}")


def test_ccn_12_each_player_places_and_plays_knight_in_first_turn():
    """CCN-12: every player's first turn brings in and plays the knight, as Moons did."""
    res = run(quiet_turn(1), shot("suns"))
    assert res.knight(2)["status"] == "in_play"
    assert res.knight(3)["status"] == "unplaced"
    assert res.tp == (2, "2", 1, "guard")


def test_ccn_13_a_flick_spends_one_flick():
    """CCN-13: to play a coin is to flick it; a plain flick uses the only flick and the play
    ends at the settle."""
    res = run(shot("moons"))
    assert res.tp == (1, "ace", 1, "guard")


def test_ccn_13_bonus_flicks_extend_the_play():
    """CCN-13: "possibly taking bonus flicks if permitted": a score adds a flick, and the
    knight keeps playing."""
    res = run(advance(1, 2))
    assert res.tp == (1, "moons", 1, "knight")
    res = run(advance(1, 2), shot("moons"))
    assert res.tp == (1, "ace", 1, "guard")


def test_ccn_14_flick_form_is_advisory():
    """CCN-14: the glossary's flick definition is "still being hashed out"; by default a
    pushy flick is resolved normally (enforce_flick_form = false)."""
    res = run(flick("moons", finger_ms=400.0, touch_mm=25.0), cross("moons", "gate-1", "-"),
              settled())
    assert not set(res.kinds()) & {"foul", "illegal", "reject"}
    assert res.knight(1)["next"] == "in-2"
    assert res.tp == (1, "moons", 1, "knight")


def test_ccn_15_knight_phase_optional_after_round_one():
    """CCN-15: after the first round a player *may* play her knight; she can pass it up."""
    res = run(quiet_round(), end_play(1))
    assert not res.find("reject")
    assert res.tp == (1, "ace", 1, "guard")


def test_ccn_15_guard_flick_closes_knight_phase():
    """CCN-15: after round 1 the player may go straight to her guard (the guard's first flick
    closes the knight phase)."""
    res = run(quiet_round(), shot("ace"))
    assert not set(res.kinds(since=mark(quiet_round()))) & {"foul", "reject", "illegal"}
    assert res.tp == (2, "suns", 1, "knight")


def test_ccn_15_knight_not_after_guard():
    """CCN-15: knight *then* guard: once the guard has been flicked, the knight may not be
    flicked that turn (G-CCN-45: a foul, rolled back, no flick spent)."""
    before = [quiet_round(), shot("ace", cross("ace", "gate-1", "-"))]
    res = run(before, shot("moons"))
    assert res.find("foul", since=mark(before))
    assert res.tp == (1, "ace", 1, "guard")
    assert res.knight(1)["status"] == "in_play"


def test_ccn_15_both_phases_optional_after_round_one():
    """CCN-15: the guard's play is optional too: ending it passes the turn."""
    res = run(quiet_round(), end_play(1), end_play(1))
    assert res.tp == (2, "suns", 1, "knight")


def test_ccn_15_prisoner_knight_has_no_knight_phase():
    """CCN-15: the knight may be played "as long as it is not a prisoner": a player whose
    knight is imprisoned starts the turn with the guard."""
    res = run(moons_captured_in_suns(), shot("ace"), quiet_turns(2, 3, 4))
    assert res.knight(1)["status"] == "prisoner"
    assert res.turn["round"] == 2
    assert res.tp == (1, "ace", 1, "guard")


def test_ccn_15_strikes_in_round_one_do_not_skip_the_guard():
    """CCN-15/CCN-13: the knight's play and the guard's play are separate; a knight that runs
    out of flicks hands over to its guard, not to the next player."""
    res = run(shot("moons", contact("moons", "ace")))
    assert res.tp == (1, "ace", 1, "guard")


def test_ccn_12_rounds_are_counted():
    """CCN-12: the turn goes round and round; three full rounds make round 4."""
    res = run(quiet_round(), quiet_round(), quiet_round())
    assert res.tp == (1, "moons", 1, "knight")
    assert res.turn["round"] == 4


@pytest.mark.parametrize("spacing", ["edge", "centre"])
def test_ccn_08_spacing_is_geometry_only(spacing):
    """CCN-08: the gate–door and door–tower spacing is one tile-width (spacing_measure); it
    places the tiles, and the invasion sequence is judged the same either way."""
    res = run(advance(1, 5), options={"spacing_measure": spacing})
    assert res.k(1) == ("in_play", None, None, "in-3")
    assert res.tp == (1, "moons", 1, "knight")


@pytest.mark.parametrize("orientation", ["sides", "corners"])
def test_ccn_09_castles_on_sides_or_corners(orientation):
    """CCN-09: "you can put one castle in each corner or on each side" (layout_orientation);
    the castles keep their numbers and clockwise order either way."""
    res = run(quiet_turn(1), advance(2, 2), options={"layout_orientation": orientation})
    assert res.k(2) == ("in_play", 3, None, "door-3")
    assert res.tp == (2, "suns", 1, "knight")


def test_ccn_53_no_extra_penalties_by_default():
    """CCN-53: extra Croquet/Crokinole penalties are an optional hook; by default a repeat
    strike, a coin knocking a tile and a pushy flick are not penalised."""
    res = run(quiet_round(), shot("moons", contact("moons", "suns")),
              flick("moons", finger_ms=500.0, touch_mm=30.0), contact("moons", "suns"),
              hit("moons", "door-1-a"), tile_moved("door-1-a", 3.0), settled())
    assert not set(res.kinds(since=mark(quiet_round()))) & {"foul", "illegal", "reject"}
    assert res.tp == (1, "moons", 1, "knight")
