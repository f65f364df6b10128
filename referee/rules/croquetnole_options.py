"""The house-rule options of Castle Croquetnole (RULES-SPEC §6), each with its default.

Options that shape what vision reports (crossing criterion, thresholds) are accepted here too,
so one option set describes a game from the camera to the ruling; the engine applies those it
can check from events (e.g. `v_hit_min` against a contact's measured speed).
"""

from __future__ import annotations

from referee.rules.base import PHYSICAL_MODEL_OPTIONS, Option

OPTIONS: tuple[Option, ...] = (
    # Common physical model (§1.2, §1.3)
    *PHYSICAL_MODEL_OPTIONS,
    # Layout (§2.5)
    Option("layout_orientation", "sides", ("sides", "corners"), where="§2.5.4"),
    Option("spacing_measure", "edge", ("edge", "centre"), where="G-CCN-02"),
    # Turns
    Option("round1_guard_mandatory", True, kind=bool, where="G-CCN-39"),
    Option("turn_order", "clockwise_by_player", ("clockwise_by_player", "carroll_rounds"),
           where="G-CCN-39"),
    Option("must_use_all_flicks", False, kind=bool, where="G-CCN-38"),
    Option("wrong_coin_penalty", "restore", ("restore", "end_turn"), where="G-CCN-42"),
    Option("max_rounds", None, kind=int, allow_off=True, where="G-CCN-55"),
    Option("dummy_castles", "none", where="G-CCN-58"),
    Option("two_castles_per_player", False, kind=bool, where="G-CCN-58"),
    # Scoring and credit
    Option("own_gate_scores", True, kind=bool, where="G-CCN-22"),
    Option("passive_scoring", "progress_no_bonus",
           ("progress_no_bonus", "membership_only", "none"), where="G-CCN-07"),
    Option("passive_duty_change", True, kind=bool, where="G-CCN-08"),
    Option("premature_exit", "keep_progress", ("keep_progress", "reset_castle"),
           where="G-CCN-20"),
    Option("win_requires_active_knight", False, kind=bool, where="G-CCN-23"),
    Option("bonus_mode", "cumulative", ("cumulative", "play_again"), where="G-CCN-24"),
    Option("bank_passive_bonuses", False, kind=bool, where="G-CCN-41"),
    # Strikes
    Option("multi_strike", "first_only", ("first_only", "each_distinct"), where="G-CCN-25"),
    Option("guard_repeat_reset", "never", ("never", "on_leave_enter_capture"),
           where="G-CCN-26"),
    Option("repeat_strike", "no_bonus", ("no_bonus", "foul_end_play"), where="G-CCN-27"),
    Option("strike_requires_active_moving", False, kind=bool, where="G-CCN-59"),
    # Prisoners
    Option("capture_requires_active", "none", ("none", "either_active"), where="G-CCN-09"),
    Option("invading_scope", "any_foreign_castle",
           ("any_foreign_castle", "sequence_target_only"), where="G-CCN-10"),
    Option("rescue_requires_active_guard", False, kind=bool, where="G-CCN-16"),
    Option("rescuer_keeps_flicks", False, kind=bool, where="G-CCN-14"),
    # The source says "For a coin to be flicked into the gate of a castle before it has left
    # the castle it is already in is illegal": guards too (the spec's G-CCN-17 exempted them).
    Option("guards_enter_foreign_castles", True, kind=bool, where="CCN-51, G-CCN-17"),
    Option("release_immunity", "none", ("none", "through_next_turn"), where="G-CCN-18"),
    # Errors and penalties
    Option("illegal_rollback", "all_coins", ("all_coins", "offending_coin_only"),
           where="G-CCN-36"),
    Option("passive_illegal_entry", "neutral", ("neutral", "restore_passive_coin"),
           where="G-CCN-36"),
    Option("offtable_inset_mm", None, kind=float, allow_off=True, where="G-CCN-37"),
    Option("own_passive_offtable_penalty", False, kind=bool, where="G-CCN-37"),
    Option("edge_relief", False, kind=bool, where="CCN-54"),
    # Where the table is (a layout JSON file instead of the built default)
    Option("layout_file", None, allow_off=True, where="G-CCN-01"),
)
"""Every CCN option by its §6 name; `offtable_inset_mm` off means r + 0.5 mm."""
