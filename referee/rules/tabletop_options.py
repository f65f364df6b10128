"""The house-rule options of Tabletop Croquet (RULES-SPEC §6, TTC rows), each with its default.

Options that shape what vision reports (`crossing_criterion`) are accepted too, so one option
set describes a game from the camera to the ruling.
"""

from __future__ import annotations

from referee.rules.base import PHYSICAL_MODEL_OPTIONS, Option

COLOUR_ORDER: tuple[str, ...] = ("black", "red", "blue", "green")
"""TTC-09: the lawn colours in playing order (`yellow` is accepted for `green`)."""

DEFAULT_COLOUR_MAP = "moons=black,suns=red,arms=blue,crowns=green"
"""G-TTC-21: the suit of each lawn colour in the usual piecepack edition."""

VALUE_ORDER: tuple[str, ...] = ("null", "ace", "2", "3", "4", "5")
"""TTC-09: after the four colours, "blank, ace, 2, 3, 4, then 5" (`null` is the blank)."""

OPTIONS: tuple[Option, ...] = (
    # Players and coins (TTC-08, TTC-09)
    Option("players", 2, tuple(range(2, 11)), kind=int, where="TTC-08"),
    Option("ttc_coins", None, allow_off=True, where="TTC-08, TTC-09"),
    Option("ttc_colour_map", DEFAULT_COLOUR_MAP, where="G-TTC-21"),
    # Course (§4.4)
    Option("ttc_layout", "standard", ("standard", "compact_diagonal"), where="§4.4"),
    Option("ttc_mirror", False, kind=bool, where="G-TTC-01"),
    Option("layout_file", None, allow_off=True, where="G-TTC-01"),
    # Common physical model (§1.2, §1.3)
    *PHYSICAL_MODEL_OPTIONS,
    Option("wrong_coin_penalty", "restore", ("restore", "end_turn"), where="G-CCN-42"),
    # Flicks and hits
    # The source's words over the spec's defaults (docs/tabletop-croquet.md, "Source over spec"):
    # TTC-19 pays every coin hit, TTC-25 resets on "hit an endpost".
    Option("multi_strike", "each_distinct", ("first_only", "each_distinct"), where="G-TTC-06"),
    Option("ttc_reset_on_any_endpost", True, kind=bool, where="G-TTC-09"),
    Option("ttc_passive_completion", "counts", ("counts", "not_counted"), where="G-TTC-15"),
    Option("offtable_inset_mm", 19.05, kind=float, where="G-TTC-11"),
    # Team play and poison
    Option("ttc_team", False, kind=bool, where="TTC-TM1"),
    Option("ttc_teams", 2, (2, 3, 4, 5), kind=int, where="TTC-TM1, G-TTC-26"),
    Option("ttc_poison", False, kind=bool, where="TTC-P1"),
    Option("poison_win", "last_alive", ("last_alive", "first_to_complete_plus_survive"),
           where="G-TTC-27"),
)
"""Every TTC option by its §6 name (plus `players`, `ttc_coins` and `ttc_teams`).

Two defaults differ from RULES-SPEC §6 because the spec's resolution contradicts Biggar's
words: `multi_strike` (TTC-19) and `ttc_reset_on_any_endpost` (TTC-25)."""
