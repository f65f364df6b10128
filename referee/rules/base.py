"""What every game engine shares: rulings as data, named options, the error family, a registry.

The rules package is pure and deterministic: it imports nothing of OpenCV, numpy, Flask or
SQLite.  A game is a :class:`Game` (options and layout, immutable) that makes :class:`State`
objects; a state folds events one at a time (`apply`) and returns the rulings each caused.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from referee.events import Event

if TYPE_CHECKING:
    from referee.layout import Layout

RULING_KINDS: tuple[str, ...] = (
    "score", "bonus", "duty", "capture", "release", "rescue", "illegal", "foul", "place",
    "reject", "uncertain", "turn", "win", "override",
)


class RulesError(ValueError):
    """Base of the rules errors."""


class OptionError(RulesError):
    """An unknown option or a bad value; the message lists the valid ones."""


class InvalidEventError(RulesError):
    """An event that is well-formed JSON but meaningless for this game (unknown coin, line)."""


@dataclass
class Ruling:
    """One decision of the referee, as data (CONTRACT.md "Rulings").

    `id` is stable for a given event stream ("<event index>.<n>"), so an override can name it.
    `rule` holds the rule's own words; `text` is one sentence a player understands.
    """

    t: float
    kind: str
    clause: str
    text: str
    id: str = ""
    rule: str = ""
    player: int | None = None
    coin: str | None = None
    bonus: int | None = None
    at: tuple[float, float] | None = None
    on: str | None = None
    of: int | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.kind not in RULING_KINDS:
            raise ValueError(f"unknown ruling kind {self.kind!r}")

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"id": self.id, "t": self.t, "kind": self.kind,
                               "clause": self.clause, "text": self.text}
        for key in ("player", "coin", "bonus", "at", "on", "of"):
            value = getattr(self, key)
            if value is not None:
                out[key] = [round(v, 2) for v in value] if key == "at" else value
        if self.rule:
            out["rule"] = self.rule
        out.update(self.extra)
        return out


# ---------------------------------------------------------------------------- options


@dataclass(frozen=True)
class Option:
    """A named house rule: its default, what values it takes, and where the spec defines it."""

    name: str
    default: Any
    choices: tuple[Any, ...] | None = None
    kind: type = str
    where: str = ""
    allow_off: bool = False
    """For numeric options that may also be switched off with `off`/`none`."""

    def parse(self, raw: Any) -> Any:
        """Turn a command-line string (or a JSON value) into a valid value, or raise."""
        if self.allow_off and (raw is None or str(raw).lower() in ("off", "none")):
            return None
        if self.kind is bool:
            if isinstance(raw, bool):
                return raw
            text = str(raw).strip().lower()
            if text in ("true", "yes", "1", "on"):
                return True
            if text in ("false", "no", "0", "off"):
                return False
            raise OptionError(f"option {self.name}: {raw!r} is not a boolean; valid: true, false")
        if self.kind in (int, float):
            try:
                value = self.kind(raw)
            except (TypeError, ValueError):
                extra = " or off" if self.allow_off else ""
                raise OptionError(
                    f"option {self.name}: {raw!r} is not a {self.kind.__name__}{extra}") from None
            if self.choices is not None and value not in self.choices:
                raise OptionError(
                    f"option {self.name}: {raw!r} is not valid; valid: "
                    + ", ".join(str(c) for c in self.choices))
            return value
        value = str(raw)
        if self.choices is not None and value not in self.choices:
            raise OptionError(
                f"option {self.name}: {raw!r} is not valid; valid: "
                + ", ".join(str(c) for c in self.choices))
        return value


PHYSICAL_MODEL_OPTIONS: tuple[Option, ...] = (
    Option("crossing_criterion", "centre_midline", ("centre_midline", "full_clearance"),
           where="§1.2, G-CCN-03, G-TTC-03"),
    Option("crossing_evaluation", "event", ("event", "settled"), where="G-CCN-04"),
    Option("coin_width_measure", "edge_gap", ("edge_gap", "centre_gap"), where="§1.2, G-CCN-50"),
    Option("v_hit_min", 15.0, kind=float, where="§1.2"),
    Option("eps_contact", 1.0, kind=float, where="§1.2"),
    Option("eps_place", 2.0, kind=float, where="§1.2"),
    Option("enforce_flick_form", False, kind=bool, where="§1.3"),
    Option("push_ms", 150.0, kind=float, where="§1.3"),
    Option("disturbance_penalty", "restore", ("restore", "end_coin_play"), where="§1.3"),
    Option("uncertain_policy", "ask", ("ask", "favour_defender", "favour_active"),
           where="§1.3 item 8"),
)
"""The common physical model of every flicking game (RULES-SPEC §1.2, §1.3, §6)."""


def resolve_options(spec: Sequence[Option], given: dict[str, Any] | None) -> dict[str, Any]:
    """Defaults overlaid with `given`; unknown names or bad values raise OptionError."""
    by_name = {opt.name: opt for opt in spec}
    values = {opt.name: opt.default for opt in spec}
    for name, raw in (given or {}).items():
        if name not in by_name:
            raise OptionError(
                f"unknown option {name!r}; valid options: " + ", ".join(sorted(by_name)))
        values[name] = by_name[name].parse(raw)
    return values


CastleRoles = tuple[dict[int, str], dict[int, str], dict[str, tuple[str, int]],
                    dict[str, tuple[str, int]], dict[str, int]]


def castle_roles(layout: Layout, knight: str, guard: str) -> CastleRoles:
    """Whose is what on a castle game's layout, in the game's words for its two coins
    (Croquetnole's knight and guard, Carroll's soldier and sentinel): each castle's two
    coins, each coin's role and castle, each line's (gate or door) and each tower's castle."""
    knight_of = {n: c.knight for n, c in layout.castles.items()}
    guard_of = {n: c.guard for n, c in layout.castles.items()}
    role = {}
    for n in sorted(layout.castles):
        role[knight_of[n]] = (knight, n)
        role[guard_of[n]] = (guard, n)
    line_role = {}
    for n, c in layout.castles.items():
        line_role[c.gate] = ("gate", n)
        line_role[c.door] = ("door", n)
    tower_castle = {c.tower: n for n, c in layout.castles.items()}
    return knight_of, guard_of, role, line_role, tower_castle


def parse_option_args(args: Iterable[str]) -> dict[str, str]:
    """Parse `KEY=VALUE` command-line words into a dict (the values stay strings)."""
    out: dict[str, str] = {}
    for arg in args:
        key, sep, value = arg.partition("=")
        if not sep or not key.strip():
            raise OptionError(f"option {arg!r} must be written KEY=VALUE")
        out[key.strip()] = value.strip()
    return out


# ---------------------------------------------------------------------------- game protocol


class State(Protocol):
    """A game position that folds events; everything it holds is JSON-serialisable."""

    def apply(self, event: Event) -> list[Ruling]: ...

    def summary(self) -> dict[str, Any]: ...

    def to_json(self) -> dict[str, Any]: ...

    def is_terminal(self) -> bool: ...


class Game(Protocol):
    name: str
    options: dict[str, Any]

    def new_state(self) -> State: ...

    def state_from_json(self, data: dict[str, Any]) -> State: ...


GAMES: dict[str, Callable[[dict[str, Any] | None], Game]] = {}
"""Registry of game factories by their command-line name."""


def register(name: str) -> Callable[[Callable[..., Game]], Callable[..., Game]]:
    def wrap(factory: Callable[..., Game]) -> Callable[..., Game]:
        GAMES[name] = factory
        return factory

    return wrap


def make_game(name: str, options: dict[str, Any] | None = None) -> Game:
    """The game registered as `name` with the given options (validated)."""
    # Importing the package registers every game.
    import referee.rules  # noqa: F401

    if name not in GAMES:
        raise OptionError(f"unknown game {name!r}; valid games: " + ", ".join(sorted(GAMES)))
    return GAMES[name](options)


@dataclass
class Replay:
    """The result of folding a stream: the final state and every ruling, in order."""

    state: State
    rulings: list[Ruling]


def replay(game: Game, events: Iterable[Event]) -> Replay:
    """Fold `events` from the initial state (the definition of the game's state)."""
    state = game.new_state()
    rulings: list[Ruling] = []
    for event in events:
        rulings.extend(state.apply(event))
    return Replay(state, rulings)


def canonical_json(data: Any) -> str:
    """A deterministic JSON text (sorted keys), used to compare states."""
    return json.dumps(data, sort_keys=True, separators=(",", ":"))
