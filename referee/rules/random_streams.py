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
from collections.abc import Iterator

from referee import events as ev
from referee.rules.croquetnole import CastleCroquetnole, CroquetnoleState

COINS = ("moons", "suns", "crowns", "arms", "ace", "2", "3", "4")
LINES = tuple(f"{k}-{i}" for i in range(1, 5) for k in ("gate", "door"))
PIECES = (*(f"tower-{i}" for i in range(1, 5)), "post-12", "door-3-a")


def chaotic_stream(seed: int, length: int) -> list[ev.Event]:
    """`length` random but well-formed events with non-decreasing times."""
    rng = random.Random(seed)
    out: list[ev.Event] = []
    t = 0.0
    for _ in range(length):
        t += rng.choice((0.0, 0.01, 0.2, 1.0))
        kind = rng.choice(("flick", "cross", "cross", "contact", "hit", "off_table", "settled",
                           "settled", "place", "declare", "face", "tile_moved", "lift", "hold"))
        coin = rng.choice(COINS)
        if kind == "flick":
            out.append(ev.Flick(t, coin))
        elif kind == "cross":
            out.append(ev.Cross(t, coin, rng.choice(LINES), rng.choice("+-"),
                                uncertain=rng.random() < 0.05))
        elif kind == "contact":
            other = rng.choice([c for c in COINS if c != coin])
            out.append(ev.Contact(t, coin, other, (coin,)))
        elif kind == "hit":
            out.append(ev.Hit(t, coin, rng.choice(PIECES)))
        elif kind == "off_table":
            out.append(ev.OffTable(t, coin, (rng.uniform(-500, 500), rng.choice((-431.8, 431.8)))))
        elif kind == "settled":
            out.append(ev.Settled(t))
        elif kind == "place":
            out.append(ev.Place(t, coin, (rng.uniform(-400, 400), rng.uniform(-400, 400))))
        elif kind == "declare":
            what = rng.choice(("croquet", "end_play", "end_play", "number"))
            out.append(ev.Declare(t, rng.randint(1, 4), what,
                                  kind=rng.randint(0, 6) if what == "croquet" else None))
        elif kind == "face":
            out.append(ev.Face(t, coin, rng.choice(("null", coin))))
        elif kind == "tile_moved":
            out.append(ev.TileMoved(t, rng.choice(PIECES), rng.uniform(0, 10)))
        elif kind == "lift":
            out.append(ev.Lift(t, coin))
        else:
            out.append(ev.Hold(t, coin))
    return out


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
