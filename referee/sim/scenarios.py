"""Named scenarios: short scripted sessions that each show one thing the referee must judge.

Every scenario starts with all coins resting in their start zones (CONTRACT.md) on the default
Castle Croquetnole layout (castle 1 Moons south, 2 Suns west, 3 Crowns north, 4 Arms east).
Aims leave room for the players' errors (heading ±0.3°, speed ±2 % at one sigma), so a
scenario shows the same story for any seed; the staged ones flick exactly.
"""

from __future__ import annotations

from collections.abc import Callable

from referee.layout import Layout, castle_croquetnole_layout
from referee.sim.script import FlickAction, MoveAction, Scenario

_LAYOUT: Layout = castle_croquetnole_layout()
_R = _LAYOUT.coin_mm / 2.0


def _spot(coin: str) -> tuple[float, float]:
    for castle in _LAYOUT.castles.values():
        if coin == castle.knight:
            return castle.knight_spot
        if coin == castle.guard:
            return castle.guard_spot
    raise KeyError(coin)


def gate_run() -> Scenario:
    """Moons leaves castle 1 through its door and gate, then enters castle 2 by its gate."""
    return Scenario("gate-run", gate_run.__doc__ or "", (
        FlickAction("moons", toward_mm=(0.0, -5.0)),     # door-1 −, gate-1 −
        FlickAction("moons", toward_mm=(-100.0, -3.0)),  # gate-2 +
    ), _LAYOUT)


def strike() -> Scenario:
    """Moons runs north through castle 3 and strikes Crowns, which hits tower 3 and rebounds."""
    return Scenario("strike", strike.__doc__ or "", (
        FlickAction("moons", toward_mm=_spot("crowns"), beyond_mm=130.0),
    ), _LAYOUT)


def capture() -> Scenario:
    """A legal capture: Moons leaves castle 1 and invades castle 2 (two scoring flicks earn a
    third); guard 1 and knight 2 make short flicks (round 1 asks for one each), then player 2's
    on-duty guard hits the invader, and the prisoner is put on tower 2."""
    slot = _LAYOUT.castles[2].tower_slots[3]  # slot k of castle j holds the knight of j+k
    return Scenario("capture", capture.__doc__ or "", (
        FlickAction("moons", toward_mm=(0.0, -5.0)),      # door-1 −, gate-1 −: out-1
        FlickAction("moons", toward_mm=(-105.0, 12.0)),   # gate-2 +: in-2
        FlickAction("moons", toward_mm=(-105.0, 140.0)),  # north, between post-23 and door-2
        FlickAction("ace", toward_mm=(-60.0, -254.0)),    # guard 1's flick (round 1: a must)
        FlickAction("suns", toward_mm=(-185.0, 0.0)),     # knight 2's flick, short of door-2
        FlickAction("2", toward_coin="moons", beyond_mm=40.0),  # guard 2 hits the invader
        MoveAction("moons", slot, on="tower-2", player=2),
    ), _LAYOUT)


def tower_hit() -> Scenario:
    """Moons is put east of tower 1 and flicked into the tower's east face."""
    return Scenario("tower-hit", tower_hit.__doc__ or "", (
        MoveAction("moons", (100.0, -200.0)),
        FlickAction("moons", toward_mm=(25.4 + _R, -254.0), beyond_mm=25.0),
    ), _LAYOUT)


def off_table() -> Scenario:
    """Arms is flicked hard to the south and falls off the table's south edge; a hand puts it
    back where it fell, just inside the edge."""
    return Scenario("off-table", off_table.__doc__ or "", (
        FlickAction("arms", heading_deg=-90.0, speed_mm_s=2000.0),
        MoveAction("arms"),
    ), _LAYOUT)


def touching() -> Scenario:
    """Coins touching at the flick: Suns is put against Moons and Crowns against guard 1;
    Moons then pushes Suns out through door 1 and gate 1 (pushing is not a contact)."""
    mx, my = _spot("moons")
    gx, gy = _spot("ace")
    return Scenario("touching", touching.__doc__ or "", (
        MoveAction("suns", (mx, my + 2 * _R), player=1),
        MoveAction("crowns", (gx - 2 * _R, gy), player=1),
        FlickAction("moons", toward_mm=(0.0, -20.0)),
    ), _LAYOUT)


def on_line() -> Scenario:
    """Staged exact flicks: Moons stops with its centre 0.2 mm past the door-1 line, Crowns
    0.2 mm short of the door-3 line (too close for a camera to call)."""
    door1 = _LAYOUT.lines["door-1"].a[1]
    door3 = _LAYOUT.lines["door-3"].a[1]
    return Scenario("on-line", on_line.__doc__ or "", (
        FlickAction("moons", toward_mm=(0.0, door1 + 0.2), exact=True),
        FlickAction("crowns", toward_mm=(0.0, door3 + 0.2), exact=True),
    ), _LAYOUT)


def fast_flick() -> Scenario:
    """Suns is flicked at 3 m/s across the table through four lines into Arms and tower 4."""
    return Scenario("fast-flick", fast_flick.__doc__ or "", (
        FlickAction("suns", heading_deg=0.0, speed_mm_s=3000.0),
    ), _LAYOUT)


def flip() -> Scenario:
    """Moons is lifted, turned over and put back on its spot showing its value side (a
    `face` event), then flicked out through door 1 and gate 1 still showing it."""
    return Scenario("flip", flip.__doc__ or "", (
        MoveAction("moons", _spot("moons"), flip=True),
        FlickAction("moons", toward_mm=(0.0, -5.0)),     # door-1 −, gate-1 −
    ), _LAYOUT)


def bot_game() -> Scenario:
    """A whole game of Castle Croquetnole played by a bot for all four players: it asks the
    rules engine whose turn it is, aims at the knight's next course item with human error,
    ends guard plays, and follows the engine's placement rulings."""
    from referee.sim.bot import CroquetnoleBot  # the bot needs the rules engine

    return Scenario("bot-game", bot_game.__doc__ or "", (), _LAYOUT,
                    policy=lambda: CroquetnoleBot(_LAYOUT), max_policy_actions=400)


def demo_game() -> Scenario:
    """A whole game, 60-120 s, steered so that it shows scores, a capture, a release, a strike
    and a coin off the table: Moons leaves castle 1, enters castle 2, passes door 2 and clips
    guard 2 going for tower 2 (prisoner); guard 1 hits tower 2 (rescue and release); Suns
    leaves castle 2, enters castle 3 and strikes Crowns through door 3, then flicks off the
    table; then the bot plays on to a win.  Fails loudly if the engine's rulings lack any of
    them (referee.sim.story)."""
    from referee.sim.story import DemoGameBot, check_story  # the story needs the rules engine

    return Scenario("demo-game", demo_game.__doc__ or "", (), _LAYOUT,
                    policy=lambda: DemoGameBot(_LAYOUT), max_policy_actions=400,
                    verify=lambda s: check_story(s.events, s.timeline.duration))


SCENARIOS: dict[str, Callable[[], Scenario]] = {
    "gate-run": gate_run,
    "strike": strike,
    "capture": capture,
    "tower-hit": tower_hit,
    "off-table": off_table,
    "touching": touching,
    "on-line": on_line,
    "fast-flick": fast_flick,
    "flip": flip,
    "bot-game": bot_game,
    "demo-game": demo_game,
}
"""Scenario makers by name (`referee simulate --scenario NAME`)."""


def scenario(name: str) -> Scenario:
    """The named scenario; an unknown name is an error that lists the known ones."""
    try:
        return SCENARIOS[name]()
    except KeyError:
        raise ValueError(f"unknown scenario {name!r} (known: {', '.join(SCENARIOS)})") from None
