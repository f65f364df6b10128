"""Random event streams for property tests, golden transcripts and the speed benchmark.

Two kinds, both deterministic for a seed (stdlib `random`, so the rules package stays free of
numpy):
- `chaotic_stream`: any event type with any names, in any order, as a fuzzer would send;
- `plausible_game`: a whole Castle Croquetnole game as players would make it.  It asks the
  engine whose coin is to be flicked and what the knight's next course item is, then mostly
  makes progress (crossing the right line the right way, hitting the right tower) with misses,
  strikes, captures, rescues, coins off the table, croquets and illegal entries mixed in.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Mapping, Sequence

from referee import events as ev
from referee.rules.croquetnole import CastleCroquetnole, CroquetnoleState

COINS = ("moons", "suns", "crowns", "arms", "ace", "2", "3", "4")
LINES = tuple(f"{k}-{i}" for i in range(1, 5) for k in ("gate", "door"))
PIECES = (*(f"tower-{i}" for i in range(1, 5)), "post-12", "door-3-a")


Draw = Callable[[random.Random, float, str], ev.Event]
"""One random event of a kind: from the stream's generator, at time t, naming a coin."""


def chaotic(seed: int, length: int, kinds: Sequence[str], coins: Sequence[str],
            draws: Mapping[str, Draw]) -> list[ev.Event]:
    """`length` random but well-formed events with non-decreasing times, as a fuzzer would
    send: each of a kind drawn from `kinds` (a kind named twice comes twice as often), about a
    coin drawn from `coins`, made by that kind's `draws`.  Every game's `chaotic_stream`."""
    rng = random.Random(seed)
    out: list[ev.Event] = []
    t = 0.0
    for _ in range(length):
        t += rng.choice((0.0, 0.01, 0.2, 1.0))
        kind = rng.choice(kinds)
        coin = rng.choice(coins)
        out.append(draws[kind](rng, t, coin))
    return out


def name_draws(coins: Sequence[str], lines: Sequence[str], pieces: Sequence[str]
               ) -> dict[str, Draw]:
    """The draws every game makes alike, from its coins, lines and pieces (a game replaces
    those it makes otherwise)."""
    return {
        "flick": lambda rng, t, coin: ev.Flick(t, coin),
        "cross": lambda rng, t, coin: ev.Cross(t, coin, rng.choice(lines), rng.choice("+-"),
                                               uncertain=rng.random() < 0.05),
        "contact": lambda rng, t, coin: ev.Contact(
            t, coin, rng.choice([c for c in coins if c != coin]), (coin,)),
        "hit": lambda rng, t, coin: ev.Hit(t, coin, rng.choice(pieces)),
        "settled": lambda rng, t, coin: ev.Settled(t),
        "place": lambda rng, t, coin: ev.Place(t, coin, (rng.uniform(-400, 400),
                                                         rng.uniform(-400, 400))),
        "face": lambda rng, t, coin: ev.Face(t, coin, rng.choice(("null", coin))),
        "tile_moved": lambda rng, t, coin: ev.TileMoved(t, rng.choice(pieces),
                                                        rng.uniform(0, 10)),
        "lift": lambda rng, t, coin: ev.Lift(t, coin),
        "hold": lambda rng, t, coin: ev.Hold(t, coin),
    }


def chaotic_stream(seed: int, length: int) -> list[ev.Event]:
    """`length` random but well-formed Castle Croquetnole events (`chaotic`)."""
    def declare(rng: random.Random, t: float, coin: str) -> ev.Event:
        what = rng.choice(("croquet", "end_play", "end_play", "number"))
        return ev.Declare(t, rng.randint(1, 4), what,
                          kind=rng.randint(0, 6) if what == "croquet" else None)

    return chaotic(seed, length, (
        "flick", "cross", "cross", "contact", "hit", "off_table", "settled", "settled", "place",
        "declare", "face", "tile_moved", "lift", "hold"), COINS, {
        **name_draws(COINS, LINES, PIECES),
        "off_table": lambda rng, t, coin: ev.OffTable(
            t, coin, (rng.uniform(-500, 500), rng.choice((-431.8, 431.8)))),
        "declare": declare})


class Clock:
    """The time of a generated stream: ticks forward, rounded to the millisecond."""

    def __init__(self) -> None:
        self.t = 0.0

    def tick(self, dt: float = 0.1) -> float:
        self.t = round(self.t + dt, 3)
        return self.t


def plausible_game(seed: int, max_events: int = 4000, skill: float = 0.55,
                   game: CastleCroquetnole | None = None) -> Iterator[ev.Event]:
    """Events of a game played by four random players of the given skill (0..1).

    Each event is applied to an internal engine state before the next is chosen, so the
    stream follows the turns the rules give.  Stops at a win or after `max_events`.
    """
    rng = random.Random(seed)
    game = game or CastleCroquetnole()
    state: CroquetnoleState = game.new_state()
    clock = Clock()
    emitted = 0

    def emit(event: ev.Event) -> ev.Event:
        nonlocal emitted
        state.apply(event)
        emitted += 1
        return event

    while emitted < max_events and not state.is_terminal():
        summary = state.summary()
        turn = summary["turn"]
        coin = turn["coin"]
        player = turn["player"]
        if summary["croquet_pending"] and rng.random() < 0.6:
            yield emit(ev.Declare(clock.tick(), player, "croquet", kind=rng.randint(1, 5)))
        if (turn["round"] > 1 and rng.random() < 0.05) or (
                turn["flicks_left"] > 1 and rng.random() < 0.04):
            yield emit(ev.Declare(clock.tick(), player, "end_play"))
            continue
        flicked = coin
        if rng.random() < 0.01:
            flicked = rng.choice(COINS)  # someone flicks the wrong coin
        yield emit(ev.Flick(clock.tick(1.0), flicked))
        for event in _motion(rng, state, flicked, player, skill, clock):
            yield emit(event)
        yield emit(ev.Settled(clock.tick(0.5)))


def _motion(rng: random.Random, state: CroquetnoleState, coin: str, player: int, skill: float,
            clock: Clock) -> list[ev.Event]:
    """What happens while one flicked coin moves."""
    out: list[ev.Event] = []
    summary = state.summary()
    me = summary["players"][str(player)]
    knight = me["knight"]
    if coin == knight["coin"] and rng.random() < skill:
        nxt = knight["next"] or ""
        verb, _, castle = nxt.partition("-")
        if verb == "out":
            out.append(ev.Cross(clock.tick(), coin, f"gate-{castle}", "-"))
            if rng.random() < 0.5:
                target = (int(castle) % 4) + 1
                out.append(ev.Cross(clock.tick(), coin, f"gate-{target}",
                                    "+" if rng.random() < 0.9 else "-"))
        elif verb == "in":
            out.append(ev.Cross(clock.tick(), coin, f"gate-{castle}", "+"))
            if rng.random() < 0.4:
                out.append(ev.Cross(clock.tick(), coin, f"door-{castle}", "+"))
        elif verb == "door":
            out.append(ev.Cross(clock.tick(), coin, f"door-{castle}", rng.choice("+-")))
        elif verb == "tower":
            out.append(ev.Hit(clock.tick(), coin, f"tower-{castle}"))
    elif coin == knight["coin"] and rng.random() < 0.05:
        out.append(ev.Cross(clock.tick(), coin, f"gate-{rng.randint(1, 4)}", "+"))
    guard = me["guard"]
    if coin == guard["coin"]:
        roll = rng.random()
        if roll < 0.25:
            out.append(ev.Cross(clock.tick(), coin, f"gate-{player}",
                                "-" if guard["on_duty"] else "+"))
        elif roll < 0.4:
            for n, p in summary["players"].items():
                if p["knight"]["status"] == "prisoner" and n == str(player):
                    out.append(ev.Hit(clock.tick(), coin, f"tower-{p['knight']['prisoner_of']}"))
    if rng.random() < 0.3:
        other = rng.choice([c for c in COINS if c != coin])
        out.append(ev.Contact(clock.tick(), coin, other, (coin,)))
        if rng.random() < 0.2:
            out.append(ev.Cross(clock.tick(), other, f"gate-{rng.randint(1, 4)}",
                                rng.choice("+-")))
    if rng.random() < 0.03:
        side = rng.choice((-431.8, 431.8))
        out.append(ev.OffTable(clock.tick(), coin, (rng.uniform(-400, 400), side)))
    return out
