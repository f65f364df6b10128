"""Terse builders for Castle Croquetnole event streams, and a runner that folds them.

Written from the rule texts (castle-croquetnole.txt, RULES-SPEC §2, CONTRACT.md), not from the
engine.  Events are plain dicts in the CONTRACT.md format *without* ``t``; :func:`stream`
flattens nested lists and numbers them with strictly increasing times.

    run(quiet_turn(1), shot("suns", cross("suns", "gate-2", "-")), options={...})

Coordinates come from the default layout (RULES-SPEC §2.5.3): start spots and tower slots.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from referee.events import event_from_json
from referee.rules.base import make_game

GAME = "castle-croquetnole"

KNIGHT = {1: "moons", 2: "suns", 3: "crowns", 4: "arms"}
GUARD = {1: "ace", 2: "2", 3: "3", 4: "4"}
OWNER = {**{c: p for p, c in KNIGHT.items()}, **{c: p for p, c in GUARD.items()}}

TABLE_EDGE = 431.8
COIN_R = 19.05 / 2

KNIGHT_START = {1: (0.0, -209.55), 2: (-209.55, 0.0), 3: (0.0, 209.55), 4: (209.55, 0.0)}
GUARD_START = {1: (-44.45, -254.0), 2: (-254.0, 44.45), 3: (44.45, 254.0), 4: (254.0, -44.45)}
TOWER_CENTRE = {1: (0.0, -254.0), 2: (-254.0, 0.0), 3: (0.0, 254.0), 4: (254.0, 0.0)}
# slot k of tower c holds the knight of castle ((c - 1 + k) mod 4) + 1; slot 0 = own knight
TOWER_SLOTS = {
    1: [(-12.7, -266.7), (12.7, -266.7), (12.7, -241.3), (-12.7, -241.3)],
    2: [(-266.7, 12.7), (-266.7, -12.7), (-241.3, -12.7), (-241.3, 12.7)],
    3: [(12.7, 266.7), (-12.7, 266.7), (-12.7, 241.3), (12.7, 241.3)],
    4: [(266.7, -12.7), (266.7, 12.7), (241.3, 12.7), (241.3, -12.7)],
}


def left(i: int) -> int:
    """The castle to player i's left: the next one clockwise."""
    return i % 4 + 1


def gate(i: int) -> str:
    return f"gate-{i}"


def door(i: int) -> str:
    return f"door-{i}"


def tower(i: int) -> str:
    return f"tower-{i}"


# ------------------------------------------------------------------ single events


def flick(coin: str, **extra: Any) -> dict[str, Any]:
    return {"type": "flick", "coin": coin, **extra}


def cross(coin: str, line: str, direction: str, **extra: Any) -> dict[str, Any]:
    return {"type": "cross", "coin": coin, "line": line, "dir": direction, **extra}


def contact(a: str, b: str, moving: list[str] | None = None, **extra: Any) -> dict[str, Any]:
    """A hit between coins; by default `a` was the moving one."""
    return {"type": "contact", "a": a, "b": b,
            "moving": [a] if moving is None else list(moving), **extra}


def hit(coin: str, piece: str, **extra: Any) -> dict[str, Any]:
    return {"type": "hit", "coin": coin, "piece": piece, **extra}


def off_table(coin: str, at: tuple[float, float]) -> dict[str, Any]:
    return {"type": "off_table", "coin": coin, "at": list(at)}


def settled(positions: dict[str, tuple[float, float]] | None = None) -> dict[str, Any]:
    event: dict[str, Any] = {"type": "settled"}
    if positions is not None:
        event["positions"] = {k: list(v) for k, v in positions.items()}
    return event


def lift(coin: str) -> dict[str, Any]:
    return {"type": "lift", "coin": coin}


def place(coin: str, at: tuple[float, float], on: str | None = None) -> dict[str, Any]:
    event: dict[str, Any] = {"type": "place", "coin": coin, "at": list(at)}
    if on is not None:
        event["on"] = on
    return event


def hold(coin: str) -> dict[str, Any]:
    return {"type": "hold", "coin": coin}


def face(coin: str, shown: str) -> dict[str, Any]:
    return {"type": "face", "coin": coin, "face": shown}


def tile_moved(piece: str, by_mm: float) -> dict[str, Any]:
    return {"type": "tile_moved", "piece": piece, "by_mm": by_mm}


def declare_croquet(player: int, kind: int) -> dict[str, Any]:
    return {"type": "declare", "player": player, "what": "croquet", "kind": kind}


def end_play(player: int) -> dict[str, Any]:
    return {"type": "declare", "player": player, "what": "end_play"}


# ------------------------------------------------------------------ composites


def shot(coin: str, *events: Any) -> list[Any]:
    """One flick of `coin`: the flick, what happened during it, and the settle."""
    return [flick(coin), *events, settled()]


def quiet_turn(player: int) -> list[Any]:
    """A turn in which the knight and then the guard are flicked once and touch nothing."""
    return [shot(KNIGHT[player]), shot(GUARD[player])]


def quiet_turns(*players: int) -> list[Any]:
    return [quiet_turn(p) for p in players]


def quiet_round() -> list[Any]:
    return quiet_turns(1, 2, 3, 4)


def course_items(player: int) -> list[tuple[str, dict[str, Any]]]:
    """The knight's course as (summary `next` name, the event that does it), CCN-21/24/27."""
    k = KNIGHT[player]
    items: list[tuple[str, dict[str, Any]]] = [(f"out-{player}", cross(k, gate(player), "-"))]
    c = player
    for _ in range(3):
        c = left(c)
        items += [
            (f"in-{c}", cross(k, gate(c), "+")),
            (f"door-{c}", cross(k, door(c), "+")),
            (f"tower-{c}", hit(k, tower(c))),
            (f"out-{c}", cross(k, gate(c), "-")),
        ]
    items += [(f"in-{player}", cross(k, gate(player), "+")),
              (f"tower-{player}", hit(k, tower(player)))]
    return items


def course_names(player: int) -> list[str]:
    return [name for name, _ in course_items(player)]


def advance(player: int, n: int, start: int = 0) -> list[Any]:
    """Flicks of the player's knight, each scoring the next course item (items start..start+n)."""
    items = course_items(player)[start:start + n]
    return [shot(KNIGHT[player], event) for _, event in items]


def move(coin: str, at: tuple[float, float], on: str | None = None) -> list[dict[str, Any]]:
    """A hand moves a coin: it is lifted, then put down (on a stack, if given)."""
    return [lift(coin), place(coin, at, on)]


def to_prison(player: int, castle: int) -> list[dict[str, Any]]:
    """Put player's knight on castle's tower, in its slot (RULES-SPEC §2.5.3)."""
    slot = (player - castle) % 4
    return move(KNIGHT[player], TOWER_SLOTS[castle][slot], on=tower(castle))


def to_own_tower(player: int) -> list[dict[str, Any]]:
    """Put a released knight on its own tower to recover (slot 0)."""
    return move(KNIGHT[player], TOWER_SLOTS[player][0], on=tower(player))


def knight_home(player: int) -> list[dict[str, Any]]:
    """Return a recovered knight to its start spot (start of its owner's next turn)."""
    return move(KNIGHT[player], KNIGHT_START[player])


def guard_home(player: int) -> list[dict[str, Any]]:
    """Return a rescuing guard to its start spot."""
    return move(GUARD[player], GUARD_START[player])


def edge_spot(at: tuple[float, float], inset: float = COIN_R + 0.5) -> tuple[float, float]:
    """Where a coin that left the table at `at` (on an edge) goes back: `inset` inside."""
    x, y = at
    if abs(x) >= TABLE_EDGE - 1e-6:
        x = x - inset if x > 0 else x + inset
    if abs(y) >= TABLE_EDGE - 1e-6:
        y = y - inset if y > 0 else y + inset
    return (x, y)


# ------------------------------------------------------------------ common openings


def moons_captured_in_suns(extra: int = 0) -> list[Any]:
    """Round 1, player 1's knight phase: Moons leaves home, enters the Suns gate (and scores
    `extra` further items), then hits the on-duty Suns guard and is put on tower 2.
    Afterwards: player 1's guard phase, 1 flick."""
    return [advance(1, 2 + extra), shot("moons", contact("moons", "2")), to_prison(1, 2)]


def suns_guard_releases() -> list[Any]:
    """After `moons_captured_in_suns`: player 1's guard is played quietly; player 2 plays the
    knight quietly, then the Suns guard leaves its castle (releasing Moons, who goes to its
    own tower) and ends its play.  Afterwards: player 3's knight phase."""
    return [shot("ace"), shot("suns"), shot("2", cross("2", "gate-2", "-")), to_own_tower(1),
            end_play(2)]


def guard_out_round1() -> list[Any]:
    """Round 1 with player 1's guard left off duty (through gate 1) and everything else quiet.
    Afterwards: round 2, player 1's knight phase; every knight has been played."""
    return [shot("moons"), shot("ace", cross("ace", "gate-1", "-")), end_play(1),
            quiet_turns(2, 3, 4)]


def flatten(parts: Iterable[Any]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for part in parts:
        if isinstance(part, dict):
            out.append(part)
        else:
            out.extend(flatten(part))
    return out


def stream(*parts: Any) -> list[dict[str, Any]]:
    """The events, flattened, each with its own `t` (0.1 s apart)."""
    return [{"t": round(0.1 * (n + 1), 3), **event} for n, event in enumerate(flatten(parts))]


def to_jsonl(events: list[dict[str, Any]]) -> str:
    return "".join(json.dumps(e) + "\n" for e in events)


# ------------------------------------------------------------------ runner


@dataclass
class Result:
    """The folded stream: the final state, its summary and the rulings (per event, too)."""

    state: Any
    events: list[dict[str, Any]]
    per_event: list[list[Any]] = field(default_factory=list)

    @property
    def rulings(self) -> list[Any]:
        return [r for rs in self.per_event for r in rs]

    @property
    def summary(self) -> dict[str, Any]:
        return self.state.summary()

    @property
    def turn(self) -> dict[str, Any]:
        return self.summary["turn"]

    def knight(self, player: int) -> dict[str, Any]:
        return self.summary["players"][str(player)]["knight"]

    def guard(self, player: int) -> dict[str, Any]:
        return self.summary["players"][str(player)]["guard"]

    def find(self, kind: str, *, coin: str | None = None, clause: Any = None,
             since: int = 0) -> list[Any]:
        """Rulings of `kind` (optionally of `coin`, with a clause in `clause`), from event
        index `since` on."""
        clauses = {clause} if isinstance(clause, str) else clause
        out = []
        for rs in self.per_event[since:]:
            for r in rs:
                if r.kind != kind:
                    continue
                if coin is not None and r.coin != coin:
                    continue
                if clauses is not None and r.clause not in clauses:
                    continue
                out.append(r)
        return out

    def kinds(self, since: int = 0) -> list[str]:
        return [r.kind for rs in self.per_event[since:] for r in rs]

    def of_last(self) -> list[Any]:
        """Rulings caused by the last event."""
        return self.per_event[-1] if self.per_event else []

    @property
    def tp(self) -> tuple[Any, Any, Any, Any]:
        """(turn.player, turn.coin, turn.flicks_left, turn.phase)."""
        t = self.turn
        return (t["player"], t["coin"], t["flicks_left"], t["phase"])

    def k(self, player: int) -> tuple[Any, Any, Any, Any]:
        """(status, castle, prisoner_of, next) of player's knight."""
        kn = self.knight(player)
        return (kn["status"], kn["castle"], kn["prisoner_of"], kn["next"])


def run(*parts: Any, options: dict[str, Any] | None = None) -> Result:
    """Fold the events from a new game; `options` by name, values may be strings."""
    events = stream(*parts)
    game = make_game(GAME, options or {})
    state = game.new_state()
    result = Result(state, events)
    for event in events:
        result.per_event.append(list(state.apply(event_from_json(event))))
    return result


def mark(*parts: Any) -> int:
    """How many events `parts` hold: pass as `since=` to look only at later rulings."""
    return len(flatten(parts))
