"""The pieces of Castle Croquetnole's state (RULES-SPEC §2.1), as plain JSON-friendly records."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

KNIGHT_STATUSES = ("unplaced", "in_play", "prisoner", "recovering")

HOME_EXIT = 0
"""Course item 0, "OUT own gate", is tracked by `Knight.home_exit_pending` (§2.1)."""
WIN_ITEM = 14
"""Course item 14: the own tower, hit while the own guard is on duty."""


def course_items(owner: int, castles: int = 4) -> list[str]:
    """The knight's course as item names: out-i, then in/door/tower/out for each castle
    clockwise from the owner's left, then in-i and tower-i (RULES-SPEC §2.1, CCN-24)."""
    items = [f"out-{owner}"]
    for k in range(1, castles):
        c = (owner - 1 + k) % castles + 1
        items += [f"in-{c}", f"door-{c}", f"tower-{c}", f"out-{c}"]
    return [*items, f"in-{owner}", f"tower-{owner}"]


@dataclass
class Knight:
    coin: str
    owner: int
    status: str = "unplaced"
    member: int | None = None
    """The castle the knight is inside by the gate rule (its own at the start), None outdoors."""
    course: int = 1
    """Index of the next course item after the home exit."""
    home_exit_pending: bool = True
    prisoner_of: int | None = None
    struck: list[str] = field(default_factory=list)
    immunity: str = "none"
    """`release_immunity`: none | awaiting (released, its turn not begun) | active."""


@dataclass
class Guard:
    coin: str
    owner: int
    on_duty: bool = True
    struck: list[str] = field(default_factory=list)
    member: int | None = None
    """With `guards_enter_foreign_castles`: the castle the guard is inside by the gate rule."""


@dataclass
class Turn:
    """Whose turn it is, which coin may be flicked, and the per-turn flags of §2.1."""

    slot: int = 0
    """Index into the round's schedule of (castle, phase)."""
    round: int = 1
    coin: str = ""
    flicks_left: int = 1
    flicked: list[str] = field(default_factory=list)
    leave_bonus_used: bool = False
    enter_bonus_used: bool = False
    croquet_pending: bool = False
    croquet_kind: int | None = None
    banked: dict[str, int] = field(default_factory=dict)


@dataclass
class Motion:
    """The flick being resolved: from its `flick` to the next `settled`."""

    coin: str
    t: float
    event: int
    snapshot: dict[str, Any]
    """The whole state (without history) just before the flick: the rollback point."""
    positions: dict[str, list[float]]
    void: str | None = None
    """Why the motion's events are ignored: foul, reject or illegal (then restore at settle)."""
    moved: list[str] = field(default_factory=list)
    first_strike: bool = False
    bonus_given: int = 0
    lost_flicks: bool = False
    play_over: bool = False
    off_table: dict[str, list[float]] = field(default_factory=dict)
    crossings: list[dict[str, Any]] = field(default_factory=list)


@dataclass
class Request:
    """A placement the players must carry out (prisoner to a tower, a return, a rollback…)."""

    coin: str
    kind: str  # zone | tower | spot | near_guard | touch_guard | flip | tile
    clause: str
    order: int
    at: list[float] | None = None
    on: str | None = None
    castle: int | None = None
    why: str = ""
    """What the placement is for, in a few words ("where it fell off the table")."""
    announced: bool = False


def to_plain(obj: Any) -> Any:
    """A dataclass (or container of them) as JSON-ready data."""
    if hasattr(obj, "__dataclass_fields__"):
        return asdict(obj)
    return obj
