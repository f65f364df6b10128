"""Random Tabletop Croquet event streams for property tests and the golden transcript.

Both kinds are deterministic for a seed (stdlib `random`, so the rules package stays free of
numpy):
- `chaotic_stream`: any event type with any of the game's names, in any order, as a fuzzer
  would send;
- `plausible_game`: a whole game as players would make it.  It asks the engine whose coin may
  be flicked and what each coin's next course item is, then mostly makes progress (the right
  wicket the right way, the right endpost) with misses, wrong-way passes, hits and their
  actions, knocked coins, coins off the table, knocked tiles, rovers and poison mixed in.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from referee import events as ev
from referee.geometry import Point
from referee.rules.random_streams import Clock, chaotic, name_draws
from referee.rules.tabletop import TabletopCroquet, TabletopState
from referee.rules.tabletop_model import item_name

LINES = tuple(f"wicket-{n}" for n in range(1, 10))
PIECES = ("endpost-left", "endpost-right", "wicket-4-a", "wicket-8-b")


def chaotic_stream(seed: int, length: int, coins: tuple[str, ...] = ("moons", "suns", "arms"),
                   players: int = 3) -> list[ev.Event]:
    """`length` random but well-formed events of this game (`random_streams.chaotic`)."""
    def spot(rng: random.Random) -> Point:
        return (rng.uniform(-600, 600), rng.uniform(-300, 300))

    def settled(rng: random.Random, t: float, coin: str) -> ev.Event:
        return ev.Settled(t, {c: spot(rng) for c in coins} if rng.random() < 0.5 else None)

    def declare(rng: random.Random, t: float, coin: str) -> ev.Event:
        what = rng.choice(("action", "action", "rover", "poison", "end_play", "croquet"))
        return ev.Declare(t, rng.randint(1, players), what,
                          option=rng.randint(0, 5) if what == "action" else None)

    return chaotic(seed, length, (
        "flick", "flick", "cross", "cross", "contact", "hit", "off_table", "settled", "settled",
        "place", "declare", "face", "tile_moved", "lift", "hold"), coins, {
        **name_draws(coins, LINES, PIECES),
        "flick": lambda rng, t, coin: ev.Flick(t, coin, finger_ms=rng.choice((None, 40.0,
                                                                              400.0))),
        "contact": lambda rng, t, coin: ev.Contact(
            t, coin, rng.choice([c for c in coins if c != coin]), (coin,),
            speed=rng.choice((None, 5.0, 90.0))),
        "off_table": lambda rng, t, coin: ev.OffTable(
            t, coin, (rng.uniform(-700, 700), rng.choice((-457.2, 457.2)))),
        "settled": settled,
        "place": lambda rng, t, coin: ev.Place(t, coin, spot(rng)),
        "declare": declare})


def _spot_past(game: TabletopCroquet, item: str, rng: random.Random) -> Point:
    """Where a coin rests just after making `item` (a little beyond the wicket or endpost)."""
    layout = game.layout
    ax = game.axis
    if item.startswith("endpost"):
        c = layout.pieces[item].center_mm
        back = -1.0 if item == "endpost-right" else 1.0
        d = layout.tile_mm / 2 + layout.coin_mm + rng.uniform(2, 30)
        return (c[0] + ax[0] * back * d, c[1] + ax[1] * back * d + rng.uniform(-20, 20))
    line = layout.lines[item[:-1]]
    sign = 1.0 if item.endswith("+") else -1.0
    mid = ((line.a[0] + line.b[0]) / 2, (line.a[1] + line.b[1]) / 2)
    d = sign * rng.uniform(30, 90)
    side = rng.uniform(-30, 30)
    return (mid[0] + ax[0] * d - ax[1] * side, mid[1] + ax[1] * d + ax[0] * side)


def plausible_game(seed: int, max_events: int = 6000, skill: float = 0.6,
                   game: TabletopCroquet | None = None) -> Iterator[ev.Event]:
    """Events of a game played by random players of the given skill (0..1).

    Each event is applied to an internal engine state before the next is chosen, so the
    stream follows the turns the rules give.  Stops at a win or after `max_events`.
    """
    rng = random.Random(seed)
    game = game or TabletopCroquet({"players": 4})
    state: TabletopState = game.new_state()
    clock = Clock()
    emitted = 0
    team = game.options["ttc_team"]

    def emit(event: ev.Event) -> ev.Event:
        nonlocal emitted
        state.apply(event)
        emitted += 1
        return event

    while emitted < max_events and not state.is_terminal():
        summary = state.summary()
        turn = summary["turn"]
        player = turn["player"]
        me = summary["players"][str(player)]
        if turn["actions_due"] and rng.random() < 0.8:
            option = rng.choice((1, 1, 2, 3, 4))
            yield emit(ev.Declare(clock.tick(), player, "action", option=option))
            target = state.positions.get(turn["actions_due"][0])
            if option in (2, 4) and target and rng.random() < 0.7:
                at = (target[0] - game.layout.coin_mm - 3.0, target[1])
                yield emit(ev.Place(clock.tick(), me["coin"], at))
        summary = state.summary()
        turn = summary["turn"]
        if me["status"] == "unplaced" and rng.random() < 0.7 and "start_spot" in summary:
            yield emit(ev.Place(clock.tick(), me["coin"], tuple(summary["start_spot"])))
        if team:
            for n, p in summary["players"].items():
                if p["next"] == "endpost-left" and p["status"] == "in_play" \
                        and rng.random() < 0.3:
                    yield emit(ev.Declare(clock.tick(), int(n), "rover"))
        summary = state.summary()
        turn = summary["turn"]
        coin = turn["coin"]
        rovers = [p["coin"] for n, p in summary["players"].items()
                  if p["status"] == "rover" and int(n) != player]
        if rovers and not turn["must_flick"] and turn["flicks_left"] > 1 \
                and rng.random() < 0.15:
            coin = rng.choice(rovers)
        if rng.random() < 0.01:
            coin = rng.choice([p["coin"] for p in summary["players"].values()])
        if rng.random() < 0.01:
            yield emit(ev.Declare(clock.tick(), player, "end_play"))
        yield emit(ev.Flick(clock.tick(1.0), coin))
        for event in _motion(rng, game, state, coin, player, skill, clock):
            yield emit(event)
        positions = _rest(rng, game, state, coin)
        yield emit(ev.Settled(clock.tick(0.5), positions or None))
        if rng.random() < 0.02:
            piece = rng.choice(sorted(game.layout.pieces))
            yield emit(ev.TileMoved(clock.tick(), piece, rng.uniform(3, 15)))


def _on_table(summary: dict, coin: str) -> bool:
    return any(p["coin"] == coin and p["status"] not in ("unplaced", "done", "killed")
               for p in summary["players"].values())


def _motion(rng: random.Random, game: TabletopCroquet, state: TabletopState, coin: str,
            player: int, skill: float, clock: Clock) -> list[ev.Event]:
    """What happens while one flicked coin moves."""
    out: list[ev.Event] = []
    summary = state.summary()
    owner = next(p for p in summary["players"].values() if p["coin"] == coin)
    status = owner["status"]
    others = [p["coin"] for p in summary["players"].values()
              if p["coin"] != coin and _on_table(summary, p["coin"])]
    if status == "rover":
        if rng.random() < 0.5:
            out.append(ev.Cross(clock.tick(), coin, rng.choice(LINES), rng.choice("+-")))
        forced = _player_of(summary, coin) != player
        if rng.random() < (0.5 if forced else 0.1):
            out.append(ev.Hit(clock.tick(), coin, "endpost-left"))
    elif status == "in_play" and rng.random() < skill:
        steps = 2 if rng.random() < 0.15 else 1
        for _ in range(steps):
            nxt = state.summary()["players"][str(_player_of(summary, coin))]["next"]
            if not nxt:
                break
            if nxt.startswith("endpost"):
                out.append(ev.Hit(clock.tick(), coin, nxt))
            else:
                out.append(ev.Cross(clock.tick(), coin, nxt[:-1], nxt[-1]))
            break
    elif status == "in_play" and rng.random() < 0.1:
        out.append(ev.Cross(clock.tick(), coin, rng.choice(LINES), rng.choice("+-")))
    if others and rng.random() < (0.5 if status == "poison" else 0.3):
        other = rng.choice(others)
        out.append(ev.Contact(clock.tick(), coin, other, (coin,)))
        onext = summary["players"][str(_player_of(summary, other))]["next"]
        if onext and rng.random() < 0.2:
            if onext.startswith("endpost"):
                out.append(ev.Hit(clock.tick(), other, onext))
            else:
                out.append(ev.Cross(clock.tick(), other, onext[:-1], onext[-1]))
    if rng.random() < 0.03:
        x = rng.uniform(-700, 700)
        out.append(ev.OffTable(clock.tick(), coin, (x, rng.choice((-457.2, 457.2)))))
    if out and rng.random() < 0.01:
        last = out[-1]
        if isinstance(last, ev.Cross):
            out[-1] = ev.Cross(last.t, last.coin, last.line, last.dir, uncertain=True)
    return out


def _player_of(summary: dict, coin: str) -> int:
    return next(int(n) for n, p in summary["players"].items() if p["coin"] == coin)


def _rest(rng: random.Random, game: TabletopCroquet, state: TabletopState,
          coin: str) -> dict[str, Point]:
    """Where the flicked coin comes to rest (near its last course item), for `settled`."""
    summary = state.summary()
    if not _on_table(summary, coin):
        return {}
    p = summary["players"][str(_player_of(summary, coin))]
    done = p["course_done"]
    last = item_name(max(0, done - 1)) if done else None
    if last is None:
        x0 = game.start_spot
        return {coin: (x0[0] + rng.uniform(0, 60), x0[1] + rng.uniform(-40, 40))}
    return {coin: _spot_past(game, last, rng)}
