"""A small builder for Tabletop Croquet scenarios (imported by the other test_tabletop files).

`Play(players=3)` makes the game; its methods append events with rising times and apply them,
so each test reads like the play it describes:

    g = Play(players=2)
    g.flick("moons").cross("moons", "wicket-1", "+").settle()
    assert g.last("score").clause == "TTC-16"
"""

from __future__ import annotations

from typing import Any

from referee import events as ev
from referee.rules import make_game
from referee.rules.base import Ruling
from referee.rules.tabletop_model import COURSE

GAME = "tabletop-croquet"


class Play:
    """A game being played event by event; every ruling is kept in `rulings`."""

    def __init__(self, **options: Any) -> None:
        self.game = make_game(GAME, {k: str(v) for k, v in options.items()})
        self.state = self.game.new_state()
        self.t = 0.0
        self.rulings: list[Ruling] = []
        self.events: list[ev.Event] = []
        self.new: list[Ruling] = []

    # -- events
    def _tick(self) -> float:
        self.t = round(self.t + 0.1, 3)
        return self.t

    def apply(self, event: ev.Event) -> Play:
        self.events.append(event)
        self.new = self.state.apply(event)
        self.rulings.extend(self.new)
        return self

    def flick(self, coin: str, **kw: Any) -> Play:
        return self.apply(ev.Flick(self._tick(), coin, **kw))

    def cross(self, coin: str, line: str, direction: str, **kw: Any) -> Play:
        return self.apply(ev.Cross(self._tick(), coin, line, direction, **kw))

    def contact(self, a: str, b: str, **kw: Any) -> Play:
        return self.apply(ev.Contact(self._tick(), a, b, (a,), **kw))

    def hit(self, coin: str, piece: str, **kw: Any) -> Play:
        return self.apply(ev.Hit(self._tick(), coin, piece, **kw))

    def off(self, coin: str, at: tuple[float, float]) -> Play:
        return self.apply(ev.OffTable(self._tick(), coin, at))

    def settle(self, **positions: tuple[float, float]) -> Play:
        return self.apply(ev.Settled(self._tick(), dict(positions) or None))

    def place(self, coin: str, at: tuple[float, float]) -> Play:
        return self.apply(ev.Place(self._tick(), coin, at))

    def declare(self, player: int, what: str, **kw: Any) -> Play:
        return self.apply(ev.Declare(self._tick(), player, what, **kw))

    def override(self, ruling: str) -> Play:
        return self.apply(ev.Override(self._tick(), ruling, "referee", "test"))

    def tile(self, piece: str, by_mm: float) -> Play:
        return self.apply(ev.TileMoved(self._tick(), piece, by_mm))

    def face(self, coin: str, face: str) -> Play:
        return self.apply(ev.Face(self._tick(), coin, face))

    # -- common sequences
    def items(self, coin: str, start: int, stop: int) -> Play:
        """Events making course items start..stop-1 (crossings and endpost hits)."""
        for target, direction in COURSE[start:stop]:
            if direction:
                self.cross(coin, target, direction)
            else:
                self.hit(coin, target)
        return self

    def burn(self, coin: str | None = None) -> Play:
        """Flick the coin to be flicked, with no effect, until the turn passes."""
        player = self.turn["player"]
        while self.turn["player"] == player and not self.summary["over"]:
            self.flick(coin or self.turn["coin"]).settle()
        return self

    def run_up(self, coin: str, stop: int) -> Play:
        """In one flick, make items 0..stop-1 (each earns a flick), then use up the turn."""
        self.flick(coin).items(coin, 0, stop).settle()
        return self.burn(coin)

    # -- queries
    @property
    def summary(self) -> dict[str, Any]:
        return self.state.summary()

    @property
    def turn(self) -> dict[str, Any]:
        return self.summary["turn"]

    def player(self, n: int) -> dict[str, Any]:
        return self.summary["players"][str(n)]

    def clauses(self, rulings: list[Ruling] | None = None) -> list[str]:
        return [r.clause for r in (self.rulings if rulings is None else rulings)]

    def last(self, kind: str | None = None, clause: str | None = None) -> Ruling:
        for r in reversed(self.rulings):
            if (kind is None or r.kind == kind) and (clause is None or r.clause == clause):
                return r
        raise AssertionError(f"no ruling kind={kind} clause={clause}: {self.clauses()}")

    def has(self, clause: str, kind: str | None = None) -> bool:
        return any(r.clause == clause and (kind is None or r.kind == kind)
                   for r in self.rulings)
