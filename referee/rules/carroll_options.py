"""The house-rule options of Carroll's Castle Croquet (RULES-SPEC §6: the rows marked CAR).

The shared options keep their Croquetnole names and meanings (the engine inherits the code that
reads them); the `car_*` options are Carroll's own.  `car_players` is this project's addition
for CAR-23 (§6 has no row for it): 5 selects the five-castle ring of G-CAR-16.
"""

from __future__ import annotations

from referee.rules.base import PHYSICAL_MODEL_OPTIONS, Option

OPTIONS: tuple[Option, ...] = (
    # Common physical model (§1.2, §1.3), shared with Croquetnole
    *PHYSICAL_MODEL_OPTIONS,
    Option("layout_orientation", "sides", ("sides", "corners"), where="§2.5.4"),
    # Table error rules inherited from Croquetnole (G-CAR-18)
    Option("illegal_rollback", "all_coins", ("all_coins", "offending_coin_only"),
           where="G-CCN-36"),
    Option("passive_illegal_entry", "neutral", ("neutral", "restore_passive_coin"),
           where="G-CCN-36"),
    Option("wrong_coin_penalty", "restore", ("restore", "end_turn"), where="G-CCN-42"),
    Option("offtable_inset_mm", None, kind=float, allow_off=True, where="G-CCN-37"),
    # Carroll's own (§3.3)
    Option("car_layout", "ccn_hub", ("ccn_hub", "carroll_open"), where="§3.4"),
    Option("car_prisoner_spot", "behind_tower", ("behind_tower", "on_tower"),
           where="G-CAR-03"),
    Option("car_release_progress", "resume_at_flag", ("resume_at_flag", "restart_castle"),
           where="G-CAR-04"),
    Option("car_bonus_mode", "play_again", ("play_again", "cumulative"), where="G-CAR-06"),
    Option("car_croquet_and_continue", False, kind=bool, where="G-CAR-08"),
    Option("car_second_crossing", "foul_rollback", ("foul_rollback", "no_bonus_only"),
           where="G-CAR-10"),
    Option("car_capture_on_resting_touch", False, kind=bool, where="G-CAR-12"),
    Option("car_players", 4, (4, 5), kind=int, where="CAR-23, G-CAR-16"),
    # Where the table is (a layout JSON file instead of the built layout)
    Option("layout_file", None, allow_off=True, where="G-CCN-01"),
)
"""Every option a Carroll game takes, by its §6 name."""
