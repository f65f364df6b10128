"""The CCN options of RULES-SPEC §6: each non-default value against the default.

Options are given by name with string values, as on the command line.
"""

from __future__ import annotations

import pytest

from referee.rules.base import OptionError, make_game

from .builder import (
    COIN_R,
    GAME,
    TABLE_EDGE,
    TOWER_SLOTS,
    advance,
    contact,
    cross,
    edge_spot,
    end_play,
    flick,
    guard_home,
    hit,
    knight_home,
    lift,
    mark,
    moons_captured_in_suns,
    move,
    off_table,
    place,
    quiet_round,
    quiet_turns,
    run,
    settled,
    shot,
    to_own_tower,
    to_prison,
)

# name -> its default as written on a command line (RULES-SPEC §6, CCN rows)
DEFAULTS = {
    "crossing_criterion": "centre_midline",
    "crossing_evaluation": "event",
    "coin_width_measure": "edge_gap",
    "v_hit_min": "15",
    "enforce_flick_form": "false",
    "push_ms": "150",
    "disturbance_penalty": "restore",
    "uncertain_policy": "ask",
    "layout_orientation": "sides",
    "spacing_measure": "edge",
    "round1_guard_mandatory": "true",
    "turn_order": "clockwise_by_player",
    "own_gate_scores": "true",
    "passive_scoring": "progress_no_bonus",
    "passive_duty_change": "true",
    "capture_requires_active": "none",
    "invading_scope": "any_foreign_castle",
    "rescue_requires_active_guard": "false",
    "rescuer_keeps_flicks": "false",
    "guards_enter_foreign_castles": "false",
    "release_immunity": "none",
    "premature_exit": "keep_progress",
    "win_requires_active_knight": "false",
    "bonus_mode": "cumulative",
    "multi_strike": "first_only",
    "guard_repeat_reset": "never",
    "repeat_strike": "no_bonus",
    "bank_passive_bonuses": "false",
    "illegal_rollback": "all_coins",
    "passive_illegal_entry": "neutral",
    "offtable_inset_mm": str(COIN_R + 0.5),
    "own_passive_offtable_penalty": "false",
    "must_use_all_flicks": "false",
    "wrong_coin_penalty": "restore",
    "edge_relief": "false",
    "strike_requires_active_moving": "false",
    "max_rounds": "off",
}


@pytest.mark.parametrize("name", sorted(DEFAULTS))
def test_option_accepted_with_its_default(name):
    """§6: every CCN option is known by its name and takes its documented default."""
    game = make_game(GAME, {name: DEFAULTS[name]})
    assert game.new_state().summary()["turn"]["player"] == 1


def test_option_unknown_name_or_value_is_an_error():
    """CONTRACT: an unknown option or value is an error that lists the valid ones."""
    with pytest.raises(OptionError, match="own_gate_scores"):
        make_game(GAME, {"no_such_option": "1"})
    with pytest.raises(OptionError):
        make_game(GAME, {"passive_scoring": "sometimes"})


def both(stream, name, value):
    """The stream folded under the default and under `name=value`."""
    return run(stream), run(stream, options={name: value})


# ------------------------------------------------------------------ geometry-level options


@pytest.mark.parametrize("name,value", [
    ("crossing_criterion", "full_clearance"),
    ("layout_orientation", "corners"),
    ("spacing_measure", "centre"),
])
def test_option_geometry_options_leave_event_logic_alone(name, value):
    """crossing_criterion / layout_orientation (CCN-09) / spacing_measure (CCN-08): these
    change where vision sees crossings and how the table is laid out; a stream of events is
    judged the same way."""
    events = [advance(1, 2), shot("moons", contact("moons", "2")), to_prison(1, 2)]
    default, other = both(events, name, value)
    assert other.k(1) == default.k(1) == ("prisoner", None, 2, None)
    assert other.tp == default.tp == (1, "ace", 1, "guard")


def test_option_crossing_evaluation_settled():
    """crossing_evaluation (G-CCN-04): `event` counts each crossing (out and back in: two
    bonuses); `settled` counts only the net change between rest positions (none)."""
    events = [shot("moons"), shot("ace", cross("ace", "gate-1", "-"), cross("ace", "gate-1", "+"))]
    default, other = both(events, "crossing_evaluation", "settled")
    assert default.tp == (1, "ace", 2, "guard")
    assert other.tp == (2, "suns", 1, "knight")
    assert other.guard(1)["on_duty"] is True


def test_option_coin_width_measure_centre_gap():
    """coin_width_measure (§1.2, G-CCN-50): a returning guard 15 mm (edge to edge) from its
    tower is within a coin-width by `edge_gap`, not by the stricter `centre_gap`."""
    spot = (-25.4 - COIN_R - 15.0, -254.0)
    events = [moons_captured_in_suns(), shot("ace", hit("ace", "tower-2")), to_own_tower(1),
              lift("ace"), place("ace", spot)]
    default, other = both(events, "coin_width_measure", "centre_gap")
    bad = {"place", "foul", "reject"}
    assert not set(default.kinds(since=len(default.events) - 1)) & bad
    assert set(other.kinds(since=len(other.events) - 1)) & bad


def test_option_v_hit_min():
    """v_hit_min (§1.2): a contact approaching slower than 15 mm/s is no hit by default; with a
    lower threshold it is a strike (+2)."""
    events = [quiet_round(), shot("moons", contact("moons", "suns", speed=10.0))]
    default, other = both(events, "v_hit_min", "5")
    assert default.tp == (1, "ace", 1, "guard")
    assert other.tp == (1, "moons", 2, "knight")


def test_option_enforce_flick_form():
    """enforce_flick_form / push_ms (§1.3 item 7, CCN-14): a 400 ms push is not judged by
    default; enforced, it is flagged (CCN-14); with push_ms raised above it, it is fine."""
    events = [flick("moons", finger_ms=400.0, touch_mm=5.0), settled()]
    default, other = both(events, "enforce_flick_form", "true")
    penal = {"foul", "illegal", "reject"}
    assert not set(default.kinds()) & penal
    assert default.tp == (1, "ace", 1, "guard")
    assert [r for r in other.rulings if r.clause == "CCN-14" and r.kind in penal]
    relaxed = run(events, options={"enforce_flick_form": "true", "push_ms": "1000"})
    assert not set(relaxed.kinds()) & penal


def test_option_disturbance_penalty_end_coin_play():
    """disturbance_penalty (§1.3 item 6): a coin moved by hand when no placement is allowed is
    put back without penalty by default; `end_coin_play` also ends the coin's play."""
    events = [advance(1, 1), move("moons", (0.0, 0.0))]
    default, other = both(events, "disturbance_penalty", "end_coin_play")
    assert default.tp == (1, "moons", 1, "knight")
    assert other.tp == (1, "ace", 1, "guard")


def test_option_uncertain_policy():
    """uncertain_policy (§1.3 item 8): `ask` leaves it to the players (an uncertain ruling);
    `favour_active` resolves for the player moving (the exit counts); `favour_defender` gives
    no capture."""
    exit_ = [flick("moons"), cross("moons", "gate-1", "-", uncertain=True), settled()]
    default = run(exit_)
    assert default.find("uncertain")
    active = run(exit_, options={"uncertain_policy": "favour_active"})
    assert active.knight(1)["next"] == "in-2"
    capture = [advance(1, 2), flick("moons"), contact("moons", "2", uncertain=True), settled()]
    defender = run(capture, options={"uncertain_policy": "favour_defender"})
    assert defender.knight(1)["status"] == "in_play"
    assert not defender.find("capture")


# ------------------------------------------------------------------ turn structure


def test_option_round1_guard_mandatory_false():
    """round1_guard_mandatory (G-CCN-39): by default the guard must be played in round 1."""
    events = [shot("moons"), end_play(1)]
    default, other = both(events, "round1_guard_mandatory", "false")
    assert default.tp == (1, "ace", 1, "guard")
    assert other.tp == (2, "suns", 1, "knight")


def test_option_turn_order_carroll_rounds():
    """turn_order (G-CCN-39): `carroll_rounds` plays all the knights in order, then all the
    guards."""
    default, other = both([shot("moons")], "turn_order", "carroll_rounds")
    assert default.tp == (1, "ace", 1, "guard")
    assert other.tp == (2, "suns", 1, "knight")
    other = run(shot("moons"), shot("suns"), shot("crowns"), shot("arms"),
                options={"turn_order": "carroll_rounds"})
    assert other.tp == (1, "ace", 1, "guard")


def test_option_must_use_all_flicks():
    """must_use_all_flicks (G-CCN-38): by default a player may give up flicks; if true, the
    declaration is refused."""
    events = [advance(1, 1), end_play(1)]
    default, other = both(events, "must_use_all_flicks", "true")
    assert default.tp == (1, "ace", 1, "guard")
    assert other.find("reject")
    assert other.tp == (1, "moons", 1, "knight")


def test_option_wrong_coin_penalty_end_turn():
    """wrong_coin_penalty (G-CCN-42): a wrong-coin flick is rolled back (`restore`); with
    `end_turn` the offender's turn also ends."""
    events = [quiet_round(), shot("suns")]
    default, other = both(events, "wrong_coin_penalty", "end_turn")
    assert default.tp == (1, "moons", 1, "knight")
    assert other.tp == (2, "suns", 1, "knight")


def test_option_max_rounds():
    """max_rounds (G-CCN-55): off by default; when the limit is reached the game ends and the
    player furthest along the course wins."""
    events = [advance(1, 1), end_play(1), shot("ace"), quiet_turns(2, 3, 4)]
    default, other = both(events, "max_rounds", "1")
    assert default.summary["over"] is False
    assert other.summary["over"] is True
    assert other.summary["winner"] == 1


# ------------------------------------------------------------------ scoring


def test_option_own_gate_scores_false():
    """own_gate_scores (G-CCN-22): leaving the own gate earns a flick by default, not if
    false; the course moves on either way."""
    default, other = both([advance(1, 1)], "own_gate_scores", "false")
    assert default.tp == (1, "moons", 1, "knight")
    assert other.tp == (1, "ace", 1, "guard")
    assert other.knight(1)["next"] == default.knight(1)["next"] == "in-2"


def test_option_own_gate_scores_false_re_entry():
    """own_gate_scores (G-CCN-22): false also takes the bonus off re-entering at the end."""
    events = [advance(1, 1), shot("ace"), quiet_turns(2, 3, 4), advance(1, 13, start=1)]
    other = run(events, options={"own_gate_scores": "false"})
    assert other.k(1) == ("in_play", 1, None, "tower-1")
    assert other.tp == (1, "ace", 1, "guard")
    default = run(events)
    assert default.tp == (1, "moons", 1, "knight")


def test_option_passive_scoring():
    """passive_scoring (G-CCN-07): a knight knocked through the gate it needs gets progress
    (default), only membership, or nothing."""
    events = [advance(1, 1), end_play(1),
              shot("ace", contact("ace", "moons"), cross("moons", "gate-2", "+"))]
    default, member = both(events, "passive_scoring", "membership_only")
    assert default.k(1) == ("in_play", 2, None, "door-2")
    assert member.k(1) == ("in_play", 2, None, "in-2")
    none = run(events, options={"passive_scoring": "none"})
    assert none.knight(1)["next"] == "in-2"


def test_option_premature_exit_reset_castle():
    """premature_exit (G-CCN-20): leaving the invaded castle before its tower keeps the gate
    by default; `reset_castle` makes the knight enter (and score) that gate again."""
    events = [advance(1, 2), shot("moons", cross("moons", "gate-2", "-"))]
    default, other = both(events, "premature_exit", "reset_castle")
    assert default.k(1) == ("in_play", None, None, "door-2")
    assert other.k(1) == ("in_play", None, None, "in-2")
    again = [events, shot("ace"), quiet_turns(2, 3, 4),
             shot("moons", cross("moons", "gate-2", "+"))]
    default, other = both(again, "premature_exit", "reset_castle")
    assert default.tp == (1, "ace", 1, "guard")
    assert default.k(1) == ("in_play", 2, None, "door-2")
    assert other.tp == (1, "moons", 1, "knight")
    assert other.k(1) == ("in_play", 2, None, "door-2")


def test_option_win_requires_active_knight():
    """win_requires_active_knight (G-CCN-23): a knight knocked into its own tower by its
    on-duty guard wins by default, not if the knight must be the coin played."""
    events = [advance(1, 14), end_play(1),
              shot("ace", contact("ace", "moons"), hit("moons", "tower-1"))]
    default, other = both(events, "win_requires_active_knight", "true")
    assert default.summary["over"] is True
    assert default.summary["winner"] == 1
    assert other.summary["over"] is False
    assert not other.find("win")


# ------------------------------------------------------------------ bonuses


def test_option_bonus_mode_play_again():
    """bonus_mode (G-CCN-24): cumulative bonuses (gate + door = 2) or Carroll's `play_again`
    (one extra flick however many events)."""
    events = [advance(1, 1), shot("moons", cross("moons", "gate-2", "+"),
                                  cross("moons", "door-2", "+"))]
    default, other = both(events, "bonus_mode", "play_again")
    assert default.tp == (1, "moons", 2, "knight")
    assert other.tp == (1, "moons", 1, "knight")


def test_option_multi_strike_each_distinct():
    """multi_strike (G-CCN-25): the first strike in a flick pays by default; `each_distinct`
    pays every distinct coin."""
    events = [quiet_round(), shot("moons", contact("moons", "suns"), contact("moons", "crowns"))]
    default, other = both(events, "multi_strike", "each_distinct")
    assert default.tp == (1, "moons", 2, "knight")
    assert other.tp == (1, "moons", 4, "knight")


def test_option_guard_repeat_reset():
    """guard_repeat_reset (G-CCN-26): a guard's struck coins are never reset in a turn by
    default; `on_leave_enter_capture` resets them when it leaves, enters or captures."""
    events = [shot("moons"), shot("ace", cross("ace", "gate-1", "-")),
              shot("ace", contact("ace", "moons")), shot("ace", cross("ace", "gate-1", "+")),
              shot("ace", cross("ace", "gate-1", "-")), shot("ace", contact("ace", "moons"))]
    default, other = both(events, "guard_repeat_reset", "on_leave_enter_capture")
    assert default.tp == (2, "suns", 1, "knight")
    assert other.tp == (1, "ace", 2, "guard")


def test_option_repeat_strike_foul():
    """repeat_strike (G-CCN-27): striking the same coin again is unpaid by default; with
    `foul_end_play` it is a foul that ends the coin's play."""
    events = [quiet_round(), shot("moons", contact("moons", "suns")),
              shot("moons", contact("moons", "suns"))]
    default, other = both(events, "repeat_strike", "foul_end_play")
    assert default.tp == (1, "moons", 1, "knight")
    assert other.find("foul")
    assert other.tp == (1, "ace", 1, "guard")


def test_option_bank_passive_bonuses():
    """bank_passive_bonuses (G-CCN-41): a prisoner taken by the guard while the knight is
    played earns the guard nothing by default; banked, the guard's play starts with it."""
    events = [advance(1, 2), end_play(1), shot("ace"),
              shot("suns", contact("suns", "2"), contact("2", "moons", moving=["2"])),
              to_prison(1, 2)]
    default, other = both(events, "bank_passive_bonuses", "true")
    assert default.tp == (2, "2", 1, "guard")
    assert other.tp == (2, "2", 2, "guard")


def test_option_strike_requires_active_moving():
    """strike_requires_active_moving (G-CCN-59): by default a passive coin running into the
    resting active coin is its strike; if true, the active coin must be moving."""
    events = [quiet_round(), shot("moons", contact("suns", "moons", moving=["suns"]))]
    default, other = both(events, "strike_requires_active_moving", "true")
    assert default.tp == (1, "moons", 2, "knight")
    assert other.tp == (1, "ace", 1, "guard")


# ------------------------------------------------------------------ prisoners


def test_option_passive_duty_change_false():
    """passive_duty_change (G-CCN-08): a guard knocked out through its gate goes off duty by
    default; if false, only its own play changes its duty."""
    events = [advance(1, 1), shot("moons", contact("moons", "2"), cross("2", "gate-2", "-"))]
    default, other = both(events, "passive_duty_change", "false")
    assert default.guard(2)["on_duty"] is False
    assert other.guard(2)["on_duty"] is True


def test_option_capture_requires_active_either():
    """capture_requires_active (G-CCN-09): any contact of invader and on-duty guard captures by
    default; with `either_active` one of them must be the coin played."""
    events = [advance(1, 2), end_play(1),
              shot("ace", contact("ace", "2"), contact("2", "moons", moving=["2"]))]
    default, other = both(events, "capture_requires_active", "either_active")
    assert default.k(1) == ("prisoner", None, 2, None)
    assert other.k(1) == ("in_play", 2, None, "door-2")


def test_option_invading_scope_sequence_target_only():
    """invading_scope (G-CCN-10): a knight in any foreign castle is an invader by default;
    with `sequence_target_only`, only in the castle its course needs."""
    events = [advance(1, 1), shot("moons", cross("moons", "gate-3", "+"), contact("moons", "3"))]
    default, other = both(events, "invading_scope", "sequence_target_only")
    assert default.k(1) == ("prisoner", None, 3, None)
    assert other.k(1) == ("in_play", 3, None, "in-2")


def test_option_rescue_requires_active_guard():
    """rescue_requires_active_guard (G-CCN-16): an on-duty guard knocked into the prison tower
    rescues by default; if true, only the guard being played rescues."""
    events = [moons_captured_in_suns(), shot("ace"),
              shot("suns", contact("suns", "ace"), hit("ace", "tower-2"))]
    default, other = both(events, "rescue_requires_active_guard", "true")
    assert default.knight(1)["status"] == "recovering"
    assert other.k(1) == ("prisoner", None, 2, None)


def test_option_rescuer_keeps_flicks():
    """rescuer_keeps_flicks (G-CCN-14): the rescuer's play ends by default; if true it goes on
    from its start spot with the flicks it had."""
    events = [moons_captured_in_suns(),
              shot("ace", cross("ace", "gate-1", "-"), cross("ace", "gate-1", "+"),
                   hit("ace", "tower-2")),
              to_own_tower(1), guard_home(1)]
    default, other = both(events, "rescuer_keeps_flicks", "true")
    assert default.tp == (2, "suns", 1, "knight")
    assert other.knight(1)["status"] == "recovering"
    assert other.tp == (1, "ace", 2, "guard")


def test_option_guards_enter_foreign_castles():
    """guards_enter_foreign_castles: the source's CCN-51 says "a coin", so by default an
    on-duty guard flicked into another castle's gate makes an illegal entry (the engine follows
    the source over the spec here); `false` is the spec's G-CCN-17, where guards ignore other
    castles' gates as Carroll's sentinels do."""
    events = [shot("moons"), shot("ace", cross("ace", "gate-2", "+"))]
    default, other = both(events, "guards_enter_foreign_castles", "false")
    assert default.find("illegal")
    assert not other.find("illegal")


def test_option_release_immunity():
    """release_immunity (G-CCN-18): none by default: a released knight that reaches the same
    castle in its first turn back can be taken again; Carroll's `through_next_turn` makes it
    immune until that turn is over."""
    events = [moons_captured_in_suns(), shot("ace"), shot("suns"),
              shot("2", cross("2", "gate-2", "-")), to_own_tower(1),
              shot("2", cross("2", "gate-2", "+")), end_play(2), quiet_turns(3, 4),
              knight_home(1), advance(1, 2), shot("moons", contact("moons", "2"))]
    default, other = both(events, "release_immunity", "through_next_turn")
    assert default.k(1) == ("prisoner", None, 2, None)
    assert other.k(1) == ("in_play", 2, None, "door-2")


# ------------------------------------------------------------------ penalties


def test_option_illegal_rollback_offending_coin_only():
    """illegal_rollback (G-CCN-36): after an illegal entry every coin the flick moved is put
    back by default; with `offending_coin_only` just the knight."""
    events = [advance(1, 2), end_play(1), shot("ace"), quiet_turns(2, 3, 4),
              shot("moons", contact("moons", "suns"), cross("moons", "gate-3", "+"))]
    since = mark(events[:-1])
    default, other = both(events, "illegal_rollback", "offending_coin_only")
    assert default.find("place", coin="suns", since=since)
    assert not other.find("place", coin="suns", since=since)
    assert other.find("illegal")


def test_option_passive_illegal_entry_restore():
    """passive_illegal_entry (G-CCN-36): a knocked knight crossing into a foreign gate while
    in another castle is neutral by default; `restore_passive_coin` puts it back."""
    events = [quiet_round(), shot("moons", contact("moons", "suns"),
                                  cross("suns", "gate-3", "+"))]
    since = mark(quiet_round())
    default, other = both(events, "passive_illegal_entry", "restore_passive_coin")
    assert not default.find("place", coin="suns", since=since)
    assert other.find("place", coin="suns", since=since)
    assert default.knight(2)["castle"] == other.knight(2)["castle"] == 2


def test_option_offtable_inset_mm():
    """offtable_inset_mm (G-CCN-37): how far inside the edge a fallen coin's centre goes
    back (r + 0.5 mm by default)."""
    at = (TABLE_EDGE, -100.0)
    events = [shot("moons", off_table("moons", at))]
    default, other = both(events, "offtable_inset_mm", "20")
    assert default.find("place", coin="moons")[0].at == pytest.approx(edge_spot(at), abs=0.05)
    assert other.find("place", coin="moons")[0].at == pytest.approx(
        edge_spot(at, 20.0), abs=0.05)


def test_option_own_passive_offtable_penalty():
    """own_passive_offtable_penalty (G-CCN-37): the player's own guard knocked off in his
    knight's play is returned without penalty by default; if true it loses its flicks."""
    south = (0.0, -TABLE_EDGE)
    events = [quiet_round(), shot("moons", contact("moons", "ace"), off_table("ace", south)),
              move("ace", edge_spot(south))]
    default, other = both(events, "own_passive_offtable_penalty", "true")
    assert default.tp == (1, "ace", 1, "guard")
    assert other.tp == (2, "suns", 1, "knight")


def test_option_edge_relief():
    """edge_relief (CCN-54): if true, a coin near the edge may be moved inward to a coin-width
    from it before being flicked, at no cost."""
    south = (0.0, -TABLE_EDGE)
    inward = (0.0, -TABLE_EDGE + COIN_R + 19.05)
    before = [shot("moons", off_table("moons", south)), move("moons", edge_spot(south)),
              shot("ace"), quiet_turns(2, 3, 4)]
    events = [before, lift("moons"), place("moons", inward)]
    default, other = both(events, "edge_relief", "true")
    bad = {"place", "foul", "reject"}
    assert set(default.kinds(since=mark(before))) & bad
    assert not set(other.kinds(since=mark(before))) & bad
    assert other.tp == (1, "moons", 1, "knight")


def test_option_slots_are_advisory():
    """G-CCN-12: any elevated spot on the tower is accepted for a prisoner (slot positions are
    advisory), whatever the options."""
    res = run(advance(1, 2), shot("moons", contact("moons", "2")),
              move("moons", TOWER_SLOTS[2][1], on="tower-2"))
    assert res.k(1) == ("prisoner", None, 2, None)
    assert not res.find("reject")


def test_option_uncertain_policy_capture_by_active_guard():
    """uncertain_policy (§1.3 item 8): a too-close-to-call touch between the Suns guard being
    played and the Moons invader: `favour_active` (the guard's player) takes the prisoner,
    `favour_defender` gives no capture."""
    events = [advance(1, 2), end_play(1), shot("ace"), shot("suns"),
              flick("2"), contact("2", "moons", uncertain=True), settled()]
    active = run(events, options={"uncertain_policy": "favour_active"})
    assert active.k(1) == ("prisoner", None, 2, None)
    defender = run(events, options={"uncertain_policy": "favour_defender"})
    assert defender.k(1) == ("in_play", 2, None, "door-2")
