"""The event-sourced fold that every flicking game shares: history, ruling ids, overrides.

A state keeps the events it folded (as JSON), so an override — a person overruling a ruling —
is one more event: the engine reverses the event behind that ruling (voids it, or accepts it
when it was too close to call) and re-folds the history from the start.  Ruling ids are
"<event index>.<n>", stable for a given stream.  A game's state subclasses this and provides
`_reset` (the initial position), `_core`/`_load_core` (its own data as JSON), `_dispatch`
(one event's rules) and `summary`.
"""

from __future__ import annotations

import copy
from abc import ABC, abstractmethod
from collections.abc import Collection, Mapping
from typing import Any, ClassVar

from referee import events as ev
from referee.layout import Layout
from referee.rules.base import InvalidEventError, Ruling


def check_names(event: ev.Event, coins: Collection[str], layout: Layout,
                players: Collection[int]) -> None:
    """Raise InvalidEventError when an event names a coin, line, piece or player the game does
    not have: a malformed stream for this game (`referee adjudicate` exits 2 on it)."""
    named = [getattr(event, k) for k in ("coin", "a", "b") if hasattr(event, k)]
    if isinstance(event, ev.Contact):
        named += list(event.moving)
    if isinstance(event, ev.Settled) and event.positions:
        named += list(event.positions)
    for coin in named:
        if coin not in coins:
            raise InvalidEventError(
                f"unknown coin {coin!r}; this game's coins: {', '.join(coins)}")
    if isinstance(event, ev.Cross) and event.line not in layout.lines:
        raise InvalidEventError(
            f"unknown line {event.line!r}; lines: {', '.join(layout.lines)}")
    piece = getattr(event, "piece", None)
    if piece is not None and piece not in layout.pieces:
        raise InvalidEventError(
            f"unknown piece {piece!r}; pieces: {', '.join(layout.pieces)}")
    on = getattr(event, "on", None)
    if isinstance(event, ev.Place) and on is not None and on not in layout.pieces:
        raise InvalidEventError(f"unknown stack {on!r}")
    if isinstance(event, ev.Declare) and event.player not in players:
        raise InvalidEventError(
            f"unknown player {event.player}; players: {', '.join(map(str, players))}")


def describe(event: ev.Event) -> str:
    """A physical event in a few words, for a question to the players."""
    if isinstance(event, ev.Cross):
        return f"{event.coin} crossed {event.line} ({event.dir})"
    if isinstance(event, ev.Contact):
        return f"{event.a} touched {event.b}"
    if isinstance(event, ev.Hit):
        return f"{event.coin} hit {event.piece}"
    if isinstance(event, ev.OffTable):
        return f"{event.coin} left the table"
    return event.type


def net_crossings(crossings: list[dict[str, Any]]) -> list[tuple[str, str, str]]:
    """`crossing_evaluation=settled` (G-CCN-04): each (coin, line) counts once, by its net
    side change, in the order of its first crossing: [(coin, line, dir)]."""
    net: dict[tuple[str, str], int] = {}
    for c in crossings:
        key = (c["coin"], c["line"])
        net[key] = net.get(key, 0) + (1 if c["dir"] == "+" else -1)
    return [(coin, line, "+" if value > 0 else "-") for (coin, line), value in net.items()
            if value]


class EventSourcedState(ABC):
    """A game position that folds events into rulings and can be overruled."""

    GAME: ClassVar[str] = ""
    CLAUSES: ClassVar[Mapping[str, tuple[str, str]]] = {}
    """Clause id → (title, the rule's own words), quoted in each ruling."""

    def __init__(self, game: Any, data: dict[str, Any] | None = None) -> None:
        self.game = game
        self.o: dict[str, Any] = self._options(game)
        self.layout = game.layout
        self._out: list[Ruling] = []
        self._t = 0.0
        self._index = -1
        self.history: list[dict[str, Any]] = []
        self.voided: set[int] = set()
        self.accepted: set[int] = set()
        self.ruling_events: dict[str, list[Any]] = {}
        if data is None:
            self._reset()
        else:
            self._load(data)

    # -- hooks a game provides ----------------------------------------------------------
    def _options(self, game: Any) -> dict[str, Any]:
        return game.options

    @abstractmethod
    def _reset(self) -> None: ...

    @abstractmethod
    def _core(self) -> dict[str, Any]: ...

    @abstractmethod
    def _load_core(self, d: dict[str, Any]) -> None: ...

    @abstractmethod
    def _dispatch(self, event: ev.Event) -> None: ...

    @abstractmethod
    def summary(self) -> dict[str, Any]: ...

    def rule_words(self, clause: str) -> str:
        return self.CLAUSES.get(clause, ("", ""))[1]

    # -- state as data --------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        """Everything the state holds, as JSON data (the history makes overrides possible)."""
        return {
            "game": self.GAME,
            "core": self._core(),
            "history": copy.deepcopy(self.history),
            "voided": sorted(self.voided),
            "accepted": sorted(self.accepted),
            "ruling_events": copy.deepcopy(self.ruling_events),
        }

    def _load(self, data: dict[str, Any]) -> None:
        if data.get("game") != self.GAME:
            raise ValueError(f"not a {self.GAME} state")
        self._load_core(data["core"])
        self.history = copy.deepcopy(data["history"])
        self.voided = set(data["voided"])
        self.accepted = set(data["accepted"])
        self.ruling_events = copy.deepcopy(data["ruling_events"])

    # -- folding ----------------------------------------------------------------------------
    def apply(self, event: ev.Event) -> list[Ruling]:
        """Fold one event; return the rulings it caused (ids "<event index>.<n>")."""
        self.game.check_event(event)
        index = len(self.history)
        self.history.append(event.to_json())
        if isinstance(event, ev.Override):
            return self._override(event, index)
        return self._fold(event, index)

    def _fold(self, event: ev.Event, index: int) -> list[Ruling]:
        self._out = []
        self._t = event.t
        self._index = index
        if index not in self.voided:
            self._dispatch(event)
        for n, ruling in enumerate(self._out):
            ruling.id = f"{index}.{n}"
            self.ruling_events[ruling.id] = [index, ruling.kind]
        out, self._out = self._out, []
        return out

    def _override(self, event: ev.Override, index: int) -> list[Ruling]:
        """Reverse the event behind a ruling and re-fold the whole history."""
        target = self.ruling_events.get(event.ruling)
        if target is None:
            return [Ruling(event.t, "reject", "override",
                           f"There is no ruling {event.ruling!r} to overrule.", id=f"{index}.0",
                           of=index)]
        ev_index, kind = target
        if kind == "override":
            # Overruling an override undoes it: toggle the same event back.
            ev_index, kind = self.ruling_events[f"_override_{ev_index}"]
        if self.history[ev_index]["type"] == "settled":
            return [Ruling(event.t, "reject", "override",
                           "A settle cannot be overruled; overrule the ruling about the "
                           "event in question.", id=f"{index}.0", of=index)]
        before = self.summary()
        if kind == "uncertain":
            self.accepted ^= {ev_index}
        else:
            self.voided ^= {ev_index}
        self._refold(until=index)
        changed = before != self.summary()
        text = (f"Ruling {event.ruling} overruled by {event.by or 'the players'}"
                + (f" ({event.reason})" if event.reason else "") + "; the game was re-adjudicated"
                + (" and the state changed." if changed else " with no change to the state."))
        ruling = Ruling(event.t, "override", "override", text, id=f"{index}.0", of=ev_index,
                        extra={"overrules": event.ruling})
        self.ruling_events[ruling.id] = [index, "override"]
        self.ruling_events[f"_override_{index}"] = [ev_index, kind]
        return [ruling]

    def _refold(self, until: int) -> None:
        """Fold history[:until] again from the start; earlier overrides keep their ids."""
        history = self.history
        overrides = {k: v for k, v in self.ruling_events.items()
                     if k.startswith("_override_") or v[1] == "override"}
        self.history = []
        self.ruling_events = {}
        self._reset()
        for i, data in enumerate(history[:until]):
            self.history.append(data)
            if data["type"] != "override":
                self._fold(ev.event_from_json(data), i)
        self.history = history
        self.ruling_events.update(overrides)

    def _call_uncertain(self, event: ev.Event) -> bool:
        """An event vision marked too close to call (§1.3 item 8): say so as an `uncertain`
        ruling and return whether to apply it (`uncertain_policy`; an override accepts it)."""
        what = describe(event)
        if self.o["uncertain_policy"] == "favour_active":
            self._rule("uncertain", "§1.3", f"Too close to call: {what}. Resolved for the "
                       "active player (uncertain_policy=favour_active).",
                       extra={"applied": True})
            return True
        fallback = ("The players decide; until then it did not happen"
                    if self.o["uncertain_policy"] == "ask" else
                    "Resolved for the defender: it did not happen")
        self._rule("uncertain", "§1.3", f"Too close to call: {what}. {fallback}.",
                   extra={"applied": False, "question": f"Did this happen: {what}?"})
        return False

    def _rule(self, kind: str, clause: str, text: str, **kw: Any) -> Ruling:
        """Record a ruling of the event being folded, quoting the clause's words."""
        if kw.get("at") is not None:
            kw["at"] = (round(kw["at"][0], 2), round(kw["at"][1], 2))
        if "extra" in kw:
            kw["extra"] = copy.deepcopy(kw["extra"])  # a ruling never changes afterwards
        ruling = Ruling(self._t, kind, clause, text, rule=self.rule_words(clause),
                        of=self._index, **kw)
        self._out.append(ruling)
        return ruling
