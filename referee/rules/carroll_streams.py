"""Random event streams of Carroll's Castle Croquet, for property tests and golden transcripts.

Like :mod:`referee.rules.random_streams` for Croquetnole, deterministic for a seed (stdlib
`random`):

- :func:`chaotic_stream`: any event type with this game's names, in any order (a fuzzer);
- :func:`plausible_game`: a whole game as players would make it.  It asks the engine whose ball
  is to be played and what the soldier's next course item is, and mostly makes progress: a
  sentinel first leaves its castle (so its soldier may invade without being taken on entry,
  CAR-10), soldiers go round their courses, sentinels rescue their prisoners and finally
  re-enter and touch their flag; touches, croquets, captures, balls off the table, wrong
  balls and second crossings are mixed in.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from referee import events as ev
from referee.rules.carroll import CarrollCastleCroquet, CarrollState
from referee.rules.random_streams import Clock, chaotic, name_draws

COINS_4 = ("moons", "suns", "crowns", "arms", "ace", "2", "3", "4")
COINS_5 = (*COINS_4, "null", "5")


def _names(players: int) -> tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]:
    coins = COINS_4 if players == 4 else COINS_5
    lines = tuple(f"{k}-{i}" for i in range(1, players + 1) for k in ("gate", "door"))
    pieces = (*(f"tower-{i}" for i in range(1, players + 1)), "door-1-a", "door-3-b")
    return coins, lines, pieces


def chaotic_stream(seed: int, length: int, players: int = 4) -> list[ev.Event]:
    """`length` random but well-formed events of this game (`random_streams.chaotic`)."""
    coins, lines, pieces = _names(players)

    def settled(rng: random.Random, t: float, coin: str) -> ev.Event:
        positions = None
        if rng.random() < 0.3:
            positions = {c: (rng.uniform(-400, 400), rng.uniform(-400, 400))
                         for c in rng.sample(coins, 3)}
        return ev.Settled(t, positions)

    def declare(rng: random.Random, t: float, coin: str) -> ev.Event:
        what = rng.choice(("croquet", "croquet", "end_play", "number"))
        return ev.Declare(t, rng.randint(1, players), what,
                          option=rng.randint(0, 3) if what == "croquet" else None)

    return chaotic(seed, length, (
        "flick", "flick", "cross", "cross", "cross", "contact", "contact", "hit", "off_table",
        "settled", "settled", "place", "declare", "face", "tile_moved", "lift"), coins, {
        **name_draws(coins, lines, pieces),
        "off_table": lambda rng, t, coin: ev.OffTable(
            t, coin, (rng.uniform(-420, 420), rng.choice((-431.8, 431.8)))),
        "settled": settled, "declare": declare})


def plausible_game(seed: int, max_events: int = 6000, skill: float = 0.6,
                   game: CarrollCastleCroquet | None = None) -> Iterator[ev.Event]:
    """Events of a game played by random players of the given skill (0..1).

    Each event is applied to an internal engine state before the next is chosen, so the
    stream follows the turns the rules give.  Stops at a win or after `max_events`.
    """
    rng = random.Random(seed)
    game = game or CarrollCastleCroquet()
    state: CarrollState = game.new_state()
    coins, _, _ = _names(game.players)
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
        coin, player = turn["coin"], turn["player"]
        if turn["croquet_due"] and rng.random() < 0.5:
            option = rng.randint(1, len(turn["croquet_due"]))
            yield emit(ev.Declare(clock.tick(), player, "croquet", option=option))
            ball = turn["croquet_due"][option - 1]
            at = state.pending[coin].at if coin in state.pending else None
            if at is not None and rng.random() < 0.5:
                yield emit(ev.Lift(clock.tick(), coin))
                yield emit(ev.Place(clock.tick(), coin, (at[0], at[1])))
            del ball
        elif rng.random() < 0.03:
            yield emit(ev.Declare(clock.tick(), player, "end_play"))
            continue
        flicked = coin
        if rng.random() < 0.01:
            flicked = rng.choice(coins)  # someone plays the wrong ball
        yield emit(ev.Flick(clock.tick(1.0), flicked))
        for event in _motion(rng, state, flicked, player, skill, clock, coins):
            yield emit(event)
        yield emit(ev.Settled(clock.tick(0.5)))


def _motion(rng: random.Random, state: CarrollState, coin: str, player: int, skill: float,
            clock: Clock, coins: tuple[str, ...]) -> list[ev.Event]:
    """What happens while one played ball moves."""
    out: list[ev.Event] = []
    n_castles = state.game.players
    summary = state.summary()
    me = summary["players"][str(player)]
    soldier, sentinel = me["soldier"], me["sentinel"]
    if coin == soldier["coin"]:
        nxt = soldier["next"] or ""
        verb, _, castle = nxt.partition("-")
        here = soldier["castle"]
        if nxt and rng.random() < skill:
            if here is not None and here != int(castle) and verb != "out":
                out.append(ev.Cross(clock.tick(), coin, f"gate-{here}", "-"))  # leave first
                here = None
            if here is None and verb in ("door", "tower", "out"):
                out.append(ev.Cross(clock.tick(), coin, f"gate-{castle}", "+"))  # go back in
            if verb == "out":
                out.append(ev.Cross(clock.tick(), coin, f"gate-{castle}", "-"))
                if rng.random() < 0.5:
                    target = int(castle) % n_castles + 1
                    out.append(ev.Cross(clock.tick(), coin, f"gate-{target}",
                                        "+" if rng.random() < 0.9 else "-"))
            elif verb == "in":
                out.append(ev.Cross(clock.tick(), coin, f"gate-{castle}", "+"))
                if rng.random() < 0.3:
                    out.append(ev.Cross(clock.tick(), coin, f"door-{castle}", "+"))
            elif verb == "door":
                out.append(ev.Cross(clock.tick(), coin, f"door-{castle}", rng.choice("+-")))
            elif verb == "tower":
                out.append(ev.Hit(clock.tick(), coin, f"tower-{castle}"))
        elif rng.random() < 0.04:
            out.append(ev.Cross(clock.tick(), coin, f"gate-{rng.randint(1, n_castles)}", "+"))
    elif coin == sentinel["coin"]:
        roll = rng.random()
        prisoner_of = soldier["prisoner_of"]
        if soldier["finished"]:
            if sentinel["on_duty"] and roll < skill:
                out.append(ev.Hit(clock.tick(), coin, f"tower-{player}"))
            elif not sentinel["on_duty"] and roll < skill:
                out.append(ev.Cross(clock.tick(), coin, f"gate-{player}", "+"))
        elif prisoner_of is not None and sentinel["on_duty"] and roll < skill:
            out.append(ev.Hit(clock.tick(), coin, f"tower-{prisoner_of}"))
        elif sentinel["on_duty"] and roll < 0.5:
            out.append(ev.Cross(clock.tick(), coin, f"gate-{player}", "-"))
            if rng.random() < 0.05:  # straight back in and out again: a second leave
                out.append(ev.Cross(clock.tick(), coin, f"gate-{player}", "+"))
                out.append(ev.Cross(clock.tick(), coin, f"gate-{player}", "-"))
        elif not sentinel["on_duty"] and roll < 0.08:
            out.append(ev.Cross(clock.tick(), coin, f"gate-{player}", "+"))
        elif roll < 0.15:
            out.append(ev.Cross(clock.tick(), coin, f"door-{rng.randint(1, n_castles)}", "+"))
    if rng.random() < 0.25:
        other = rng.choice([c for c in coins if c != coin])
        out.append(ev.Contact(clock.tick(), coin, other, (coin,)))
        if rng.random() < 0.15:
            out.append(ev.Cross(clock.tick(), other, f"gate-{rng.randint(1, n_castles)}",
                                rng.choice("+-")))
    if rng.random() < 0.03:
        side = rng.choice((-431.8, 431.8))
        out.append(ev.OffTable(clock.tick(), coin, (rng.uniform(-400, 400), side)))
    return out
