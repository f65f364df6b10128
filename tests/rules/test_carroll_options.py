"""Carroll's Castle Croquet: every CAR option of RULES-SPEC §6, one scenario (or more) each.

The `car_*` options (G-CAR-03/04/06/08/10/12, §3.4, CAR-23) and the shared options §6 marks
CAR (crossing, thresholds, flick form, disturbance, uncertain events, orientation, illegal
entry, wrong ball).  Scenario builders come from test_carroll_clauses.
"""

from __future__ import annotations

import pytest

from referee.events import Override
from referee.geometry import dist
from referee.layouts_carroll import build_layout, carroll_spots
from referee.rules.base import OptionError, make_game
from tests.rules.test_carroll_clauses import (
    GAME,
    contact,
    croquet,
    cross,
    flick,
    g1_out,
    hit,
    moons_captured_in_2,
    moons_in_castle_2,
    off_table,
    pass_,
    passes,
    place,
    rescue,
    run,
    settled,
    shot,
)

# ------------------------------------------------------------------ car_* options


def test_car_layout_carroll_open_section_3_4() -> None:
    """car_layout=carroll_open (§3.4): separate gates; soldier start (0, -139.0)."""
    game = make_game(GAME, {"car_layout": "carroll_open"})
    assert game.layout.name == "carroll-open-sides"
    assert game.spots[1].soldier_start == (0.0, -139.0)
    assert game.spots[1].sentinel_start == (0.0, -177.8)
    res = run(moons_captured_in_2(), car_layout="carroll_open")
    (req,) = [r for r in res.find("place", "CAR-11") if r.coin == "moons"]
    assert dist(req.at, carroll_spots(game.layout, 2).prisoners[2]) < 0.01


def test_car_prisoner_spot_on_tower_g_car_03() -> None:
    """car_prisoner_spot=on_tower: the prisoner goes on top of the captor's tower (CCN)."""
    res = run(moons_captured_in_2(), car_prisoner_spot="on_tower")
    (cap,) = res.find("capture", "CAR-09")
    assert cap.on == "tower-2"
    (req,) = res.find("place", "CAR-11", coin="moons")
    assert req.on == "tower-2" and req.extra["placement"] == "tower"
    # put there, it stays a prisoner; its own sentinel on duty still rescues it
    res = run(moons_captured_in_2(), place("moons", tuple(req.at), on="tower-2"),
              passes(2, 3, 4), shot("ace", cross("ace", "gate-1", "+")),
              shot("ace", hit("ace", "tower-2")), car_prisoner_spot="on_tower")
    assert res.soldier(1)["status"] == "released"


def test_car_release_progress_restart_castle_g_car_04() -> None:
    """car_release_progress=restart_castle: back home; come out and invade castle 2 again."""
    res = run(rescue(), car_release_progress="restart_castle")
    soldier = res.soldier(1)
    assert (soldier["castle"], soldier["next"], soldier["status"]) == (1, "out-1", "released")
    (req,) = res.find("place", "CAR-15", coin="moons")
    assert dist(req.at, (0.0, -62.8)) < 0.01
    res = run(rescue(), passes(2, 3, 4), shot("moons", cross("moons", "gate-1", "-")),
              car_release_progress="restart_castle")
    assert res.soldier(1)["next"] == "in-2"


def test_car_release_progress_default_resume_at_flag_g_car_04() -> None:
    res = run(rescue())
    assert res.soldier(1)["next"] == "tower-2"


def test_car_bonus_mode_cumulative_g_car_06() -> None:
    """car_bonus_mode=cumulative: one more stroke per Rule IV event."""
    stroke = shot("moons", cross("moons", "gate-1", "-"), cross("moons", "gate-2", "+"),
                  cross("moons", "door-2", "+"))
    res = run(g1_out(), stroke, car_bonus_mode="cumulative")
    assert res.who == (1, "moons", 3)
    res = run(g1_out(), stroke)
    assert res.who == (1, "moons", 1)


def test_car_croquet_and_continue_g_car_08() -> None:
    """car_croquet_and_continue=true: a touch with a Rule IV event gives a croquet stroke plus
    one normal stroke; the croquet stroke itself still gives nothing (CAR-21)."""
    touch = shot("moons", cross("moons", "gate-1", "-"), contact("moons", "suns"))
    res = run(touch, car_croquet_and_continue="true")
    assert res.who == (1, "moons", 2)
    res = run(touch, croquet(1), shot("moons"), car_croquet_and_continue="true")
    assert res.who == (1, "moons", 1) and res.turn["croquet_due"] == []
    res = run(touch, croquet(1), shot("moons"), shot("moons"),
              car_croquet_and_continue="true")
    assert res.who == (2, "suns", 1)
    # a touch alone: the croquet stroke, then the turn ends
    res = run(shot("moons", contact("moons", "suns")), shot("moons"),
              car_croquet_and_continue="true")
    assert res.who == (2, "suns", 1)
    # default: the touch and the Rule IV event share the one following stroke
    res = run(touch)
    assert res.who == (1, "moons", 1)


def test_car_second_crossing_no_bonus_only_g_car_10() -> None:
    """car_second_crossing=no_bonus_only: the second leave counts, without a further stroke."""
    parts = [passes(1, 2, 3, 4), shot("ace", cross("ace", "gate-1", "-")),
             shot("ace", cross("ace", "gate-1", "+")), shot("ace", cross("ace", "gate-1", "-"))]
    res = run(parts, car_second_crossing="no_bonus_only")
    assert not res.sentinel(1)["on_duty"]
    assert res.find("bonus", "CAR-17", coin="ace")
    assert res.who == (2, "2", 1)


def test_car_capture_on_resting_touch_g_car_12() -> None:
    """car_capture_on_resting_touch=true: at rest touching the sentinel on duty, inside."""
    resting = shot("moons", cross("moons", "door-2", "+"),
                   positions={"moons": (-160.0, 0.0), "2": (-160.0 + 19.5, 0.0)})
    res = run(moons_in_castle_2(), resting, car_capture_on_resting_touch="true")
    assert res.soldier(1)["status"] == "prisoner"
    assert res.find("capture", "G-CAR-12")
    res = run(moons_in_castle_2(), resting)
    assert res.soldier(1)["status"] == "in_play"


def test_car_players_five_car_23() -> None:
    """car_players=5: five castles; the hub cannot be asked for (G-CAR-16)."""
    game = make_game(GAME, {"car_players": "5"})
    assert game.layout.name == "carroll-five-sides" and len(game.castles) == 5
    with pytest.raises(OptionError, match="G-CAR-16"):
        make_game(GAME, {"car_players": "5", "car_layout": "ccn_hub"})
    with pytest.raises(OptionError, match="valid: 4, 5"):
        make_game(GAME, {"car_players": "6"})


def test_car_players_five_plays_a_turn_round() -> None:
    res = run(passes(1, 2, 3, 4, 5), car_players=5)
    assert res.who == (1, "ace", 1)
    res = run(shot("moons", cross("moons", "gate-1", "-")),
              shot("moons", cross("moons", "gate-2", "+")), car_players=5)
    assert res.find("capture", "CAR-10")


# ------------------------------------------------------------------ shared options


def test_wrong_coin_penalty_end_turn_g_ccn_42() -> None:
    res = run(shot("suns"), wrong_coin_penalty="end_turn")
    assert res.find("foul", "CAR-05")
    assert res.who == (2, "suns", 1)


def test_illegal_rollback_offending_coin_only_g_ccn_36() -> None:
    """illegal_rollback=offending_coin_only: only the soldier's record is restored."""
    stroke = shot("moons", contact("moons", "suns"), cross("suns", "gate-2", "-"),
                  cross("moons", "gate-3", "+"))
    res = run(moons_in_castle_2(), stroke, illegal_rollback="offending_coin_only")
    assert res.find("illegal", "CCN-52")
    assert res.soldier(2)["next"] == "in-3"  # the knocked ball's progress stands
    res = run(moons_in_castle_2(), stroke)
    assert res.soldier(2)["next"] == "out-2"


def test_passive_illegal_entry_restore_passive_coin_g_ccn_36() -> None:
    knock = shot("suns", contact("suns", "moons"), cross("moons", "gate-3", "+"))
    res = run(moons_in_castle_2(), pass_(1), knock, passive_illegal_entry="restore_passive_coin")
    assert any(r.coin == "moons" for r in res.find("place", "CCN-51"))
    res = run(moons_in_castle_2(), pass_(1), knock)
    assert not res.find("place", "CCN-51")


def test_crossing_evaluation_settled_g_ccn_04() -> None:
    """crossing_evaluation=settled: a line counts once, by the net change of side."""
    wobble = shot("moons", cross("moons", "gate-1", "-"), cross("moons", "gate-1", "+"))
    res = run(wobble, crossing_evaluation="settled")
    assert res.soldier(1)["next"] == "out-1"
    res = run(wobble)
    assert res.soldier(1)["next"] == "in-2"


@pytest.mark.parametrize(("policy", "scored"), [("ask", False), ("favour_active", True),
                                                ("favour_defender", False)])
def test_uncertain_policy_section_1_3(policy: str, scored: bool) -> None:
    res = run(shot("moons", cross("moons", "gate-1", "-", uncertain=True)),
              uncertain_policy=policy)
    assert (res.soldier(1)["next"] == "in-2") is scored
    assert res.find("uncertain")


def test_uncertain_event_accepted_by_an_override_section_1_3() -> None:
    res = run(shot("moons", cross("moons", "gate-1", "-", uncertain=True)))
    question = res.find("uncertain")[0]
    res.state.apply(Override(9.0, question.id, "players", "it crossed"))
    assert res.soldier(1)["next"] == "in-2"


def test_layout_orientation_corners_section_2_5_4() -> None:
    game = make_game(GAME, {"layout_orientation": "corners"})
    assert game.layout.name == "carroll-hub-corners"
    x, y = game.spots[1].soldier_start
    assert x < 0 and y < 0 and abs(x - y) < 1e-6


def test_v_hit_min_ignores_slow_touches_section_1_2() -> None:
    slow = [flick("moons"), {"type": "contact", "a": "moons", "b": "suns", "moving": ["moons"],
                             "speed": 5.0}, settled()]
    res = run(slow)
    assert res.turn["croquet_due"] == []
    res = run(slow, v_hit_min="1")
    assert res.turn["croquet_due"] == ["suns"]


def test_enforce_flick_form_push_is_a_foul_section_1_3() -> None:
    push = [{"type": "flick", "coin": "moons", "finger_ms": 400.0},
            cross("moons", "gate-1", "-"), settled()]
    res = run(push, enforce_flick_form="true")
    assert res.find("foul", "CCN-14") and res.soldier(1)["next"] == "out-1"
    assert res.who == (2, "suns", 1)
    res = run(push)
    assert res.soldier(1)["next"] == "in-2"


def test_disturbance_penalty_end_coin_play_section_1_3() -> None:
    moved = [shot("moons", cross("moons", "gate-1", "-")), place("moons", (0.0, 0.0))]
    res = run(moved, disturbance_penalty="end_coin_play")
    assert res.who == (2, "suns", 1)
    res = run(moved)
    assert res.who == (1, "moons", 1)
    assert res.find("place", "§1.3", coin="moons")


def test_offtable_inset_mm_g_ccn_37() -> None:
    res = run(shot("moons", off_table("moons", (0.0, -431.8))), offtable_inset_mm="30")
    (req,) = res.find("place", "CCN-49", coin="moons")
    assert req.at == (0.0, -401.8)
    assert res.who == (2, "suns", 1)


def test_eps_place_for_the_croquet_placement_section_1_2_g_car_07() -> None:
    """eps_place: how close "touching" must be when placing for a croquet."""
    before = [shot("moons", contact("moons", "suns")), croquet(1)]
    res = run(before)
    (req,) = res.find("place", "CAR-19", coin="moons")
    x, y = req.at
    res = run(before, place("moons", (x, y - 4.0)))
    assert res.find("reject", "CAR-19", coin="moons")
    res = run(before, place("moons", (x, y - 4.0)), eps_place="5")
    assert not res.find("reject", "CAR-19")


def test_crossing_criterion_g_ccn_03_and_coin_width_measure_g_ccn_50_are_accepted() -> None:
    """These shape what vision reports; the engine accepts and keeps them."""
    game = make_game(GAME, {"crossing_criterion": "full_clearance",
                            "coin_width_measure": "centre_gap", "push_ms": "100",
                            "eps_contact": "0.5"})
    assert game.options["crossing_criterion"] == "full_clearance"


def test_layout_file_g_ccn_01(tmp_path) -> None:
    path = tmp_path / "open.json"
    build_layout("carroll_open").save(path)
    game = make_game(GAME, {"layout_file": str(path)})
    assert game.spots[1].soldier_start == (0.0, -139.0)
    with pytest.raises(OptionError, match="castles"):
        make_game(GAME, {"layout_file": str(path), "car_players": "5"})


def test_unknown_option_lists_the_valid_ones() -> None:
    with pytest.raises(OptionError, match=r"valid options: .*car_bonus_mode"):
        make_game(GAME, {"bonus_mode": "play_again"})
    with pytest.raises(OptionError, match="valid: play_again, cumulative"):
        make_game(GAME, {"car_bonus_mode": "twice"})


def test_every_car_option_is_selectable_by_name() -> None:
    names = ["car_layout", "car_prisoner_spot", "car_release_progress", "car_bonus_mode",
             "car_croquet_and_continue", "car_second_crossing", "car_capture_on_resting_touch",
             "crossing_criterion", "crossing_evaluation", "coin_width_measure", "v_hit_min",
             "eps_contact", "eps_place", "enforce_flick_form", "push_ms", "disturbance_penalty",
             "uncertain_policy", "layout_orientation", "illegal_rollback",
             "passive_illegal_entry", "wrong_coin_penalty"]
    assert set(names) <= set(make_game(GAME).options)


def test_override_voids_a_capture_and_refolds() -> None:
    res = run(moons_captured_in_2())
    capture = res.find("capture", "CAR-09")[0]
    out = res.state.apply(Override(50.0, capture.id, "table", "they never touched"))
    assert [r.kind for r in out] == ["override"]
    assert res.soldier(1)["status"] == "in_play" and res.soldier(1)["castle"] == 2
    res.state.apply(Override(51.0, out[0].id, "table", "on second thoughts"))
    assert res.soldier(1)["status"] == "prisoner"
