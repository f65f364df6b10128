"""The pieces of Tabletop Croquet's state (RULES-SPEC §4.1), as plain JSON-friendly records."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

STATUSES: tuple[str, ...] = ("unplaced", "in_play", "done", "rover", "poison", "killed")
"""A player's status: `done` left the game (team play), `killed` by a poison coin."""

OFF_TABLE_STATUSES: tuple[str, ...] = ("unplaced", "done", "killed")
"""Coins with these statuses are not on the table: they cannot be hit (G-TTC-17)."""

COURSE: tuple[tuple[str, str], ...] = (
    ("wicket-1", "+"), ("wicket-2", "+"), ("wicket-3", "+"), ("wicket-4", "+"),
    ("wicket-5", "+"), ("wicket-6", "+"), ("wicket-7", "+"), ("endpost-right", ""),
    ("wicket-7", "-"), ("wicket-6", "-"), ("wicket-8", "-"), ("wicket-4", "-"),
    ("wicket-9", "-"), ("wicket-2", "-"), ("wicket-1", "-"), ("endpost-left", ""),
)
"""TTC-11: 1, 2, 3, 4, 5, 6, 7, hit the right endpost, 7, 6, 8, 4, 9, 2, 1, hit the left
endpost.  `+` is toward the right endpost (TTC-14)."""

RIGHT_ITEM = 7
LAST_ITEM = 15
COMPLETE = 16
"""`idx` after the left endpost was hit in order: the course is complete."""


def item_name(idx: int) -> str | None:
    """`wicket-3+`, `endpost-right`, … for a course index; None once the course is complete."""
    if idx >= COMPLETE:
        return None
    target, direction = COURSE[idx]
    return target + direction


@dataclass
class Player:
    """One player and the coin they play (TTC-08)."""

    number: int
    coin: str
    colour: str
    status: str = "unplaced"
    idx: int = 0
    """The index of the next course item (§4.1)."""
    team: int | None = None


@dataclass
class Turn:
    """Whose turn it is and the per-turn records of §4.1."""

    player: int = 1
    round: int = 1
    flicks_left: int = 1
    hit_set: list[str] = field(default_factory=list)
    """Coins that earned flicks this turn (TTC-25), cleared when the coin scores."""
    rover_wickets: list[str] = field(default_factory=list)
    rover_hits: list[str] = field(default_factory=list)
    forced: list[str] = field(default_factory=list)
    """Rovers this player has tried to force out this turn (TTC-TM8)."""
    actions_due: list[str] = field(default_factory=list)
    """Hit coins whose action (1–4) is still to be declared (TTC-20)."""
    must_flick: list[str] = field(default_factory=list)
    """Coins that must be flicked next under actions 3 and 4 (TTC-23/24)."""
    placement_used: bool = False
    """An action 2 or 4 placement was chosen since the last flick (G-TTC-06)."""


@dataclass
class Motion:
    """The flick being resolved: from its `flick` to the next `settled`."""

    coin: str
    kind: str
    """own (the player's coin) | action (a hit coin, TTC-23) | force (a rover, TTC-TM8)."""
    snapshot: dict[str, Any]
    positions: dict[str, list[float]]
    void: str | None = None
    void_clause: str = ""
    """The clause that voided the flick (its coins go back, G-TTC-24, TTC-01, TTC-09)."""
    moved: list[str] = field(default_factory=list)
    touching: list[str] = field(default_factory=list)
    """Coins touching the flicked coin when the flick began (TTC-32)."""
    retouched: list[str] = field(default_factory=list)
    hits: int = 0
    lost_flicks: bool = False
    play_over: bool = False
    end_turn: bool = False
    off_table: dict[str, list[float]] = field(default_factory=dict)
    crossings: list[dict[str, Any]] = field(default_factory=list)


@dataclass
class Request:
    """A placement the players must carry out (start zone, action move, return, removal…)."""

    coin: str
    kind: str  # zone | near | spot | remove | flip
    clause: str
    order: int
    at: list[float] | None = None
    target: str | None = None
    why: str = ""
    announced: bool = False
