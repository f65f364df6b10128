"""The demo game's story: the bot plays a whole game, steered so that every ruling we want to
show certainly happens.

`DemoGameBot` is the ordinary :class:`~referee.sim.bot.CroquetnoleBot` (it reads the rules
engine, aims with human error, follows every placement ruling) with eight *beats*: at a named
moment of round 1 it makes one chosen flick instead of the bot's own.  Each beat fires at most
once, and only when its lane is clear (else the bot plays on).  In round 1:

1. Moons leaves castle 1 toward the hub's centre (the bot's aim stops short of the hub, from
   where gate 2 is hard to enter);
2. Moons enters castle 2 (an aim between the gateposts that the bot would not pick);
   (the bot then takes Moons through door 2)
3. Moons, going for tower 2, clips guard 2 on duty: taken prisoner (CCN-28), its play ends;
4. guard 1, on duty, flicks hard at tower 2: a rescue and a release (CCN-30/32);
5. and 6. Suns leaves castle 2 and enters castle 3, as Moons did for castles 1 and 2;
7. Suns flicks through door 3 into Crowns: a score and a strike (CCN-40);
8. Suns, with bonus flicks to spare, flicks too hard along a clear lane and leaves the table
   (CCN-49): put back at the edge, its play ends.

Everything else, and the game after the story, is the bot's.  Aims leave room for the players'
errors, but physics decides: :func:`check_story` folds a played session's events through the
rules engine and raises if a moment is missing, so a story that did not happen fails loudly.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from referee.events import Event
from referee.geometry import Point, point_segment_distance
from referee.rules.base import Ruling, make_game, replay
from referee.sim.bot import CLEARANCE_MM, CroquetnoleBot, segment_polygon_distance
from referee.sim.script import Action, FlickAction

CLIP_OFFSET_MM = 12.0
"""A clip aims this far from the guard's centre (contact needs less than a coin width)."""
STRIKE_BEYOND_MM = 30.0
RESCUE_EXTRA_MM = 45.0
"""The rescuer's long flick (about 300 mm) goes this much harder than the bot's tower aim: a
2 % error in speed is 4 % in distance, 12 mm here, more than the bot's push into the face."""
AIM_ERROR = 0.01
"""A path keeps this share of the distance from coins ahead (3 sigma of the 0.3° heading
error is 0.016 rad; 0.01 leaves the odd near miss to physics)."""
EDGE_CLEARANCE_MM = 6.0
"""Room the off-table flick's path keeps from coins and tiles (the hand errs by ±0.3°)."""
PAST_EDGE_MM = 150.0
"""The off-table flick is hard enough to slide this far past the table's edge."""

MOMENTS: dict[str, str] = {
    "score": "a knight scores a gate, door or tower (CCN-23/37)",
    "capture": "a guard on duty takes an invading knight prisoner (CCN-28)",
    "release": "a prisoner is released (CCN-29/30)",
    "strike": "a coin strikes another for two bonus flicks (CCN-40)",
    "off_table": "a coin goes off the table (CCN-49/50)",
}
"""What the demo game must show, by name."""


def moment_of(ruling: Ruling) -> str | None:
    """Which of MOMENTS a ruling is, if any."""
    if ruling.kind in ("score", "capture", "release"):
        return ruling.kind
    if ruling.kind == "bonus" and ruling.clause == "CCN-40" and (ruling.bonus or 0) > 0:
        return "strike"
    if ruling.clause in ("CCN-49", "CCN-50"):
        return "off_table"
    return None


def count_moments(rulings: Sequence[Ruling]) -> dict[str, int]:
    """How many rulings of each of MOMENTS."""
    counts = dict.fromkeys(MOMENTS, 0)
    for ruling in rulings:
        moment = moment_of(ruling)
        if moment is not None:
            counts[moment] += 1
    return counts


def check_story(events: Sequence[Event], duration_s: float,
                span_s: tuple[float, float] = (60.0, 120.0)) -> list[Ruling]:
    """Adjudicate `events`; raise ValueError unless every moment happened, no event was
    rejected, the game was won and it lasted `span_s`.  Returns the rulings."""
    result = replay(make_game("castle-croquetnole"), events)
    counts = count_moments(result.rulings)
    problems = [f"no {name}: {MOMENTS[name]}" for name, n in counts.items() if n == 0]
    rejected = [r for r in result.rulings if r.kind in ("reject", "illegal")]
    if rejected:
        problems.append(f"the engine refused {len(rejected)} event(s): {rejected[0].text}")
    if not result.state.summary()["over"]:
        problems.append("the game was not won")
    if not span_s[0] <= duration_s <= span_s[1]:
        problems.append(f"it lasted {duration_s:.1f} s, not {span_s[0]:g}-{span_s[1]:g} s")
    if problems:
        raise ValueError("the demo game's story did not happen: " + "; ".join(problems))
    return result.rulings


@dataclass
class DemoGameBot(CroquetnoleBot):
    """The bot with the demo story's beats (see the module's docstring)."""

    fired: set[str] = field(default_factory=set)

    def steer(self, summary: Mapping[str, Any], positions: Mapping[str, Point]) -> Action | None:
        turn = summary["turn"]
        player, phase = turn["player"], turn["phase"]
        if turn["round"] != 1:
            return None
        knights = {int(n): p["knight"] for n, p in summary["players"].items()}
        nxt = knights[player]["next"]
        if player == 1 and phase == "knight" and nxt == "out-1":
            return self._beat("out", self._first_clear("moons", [(0.0, -5.0)], positions))
        if player == 1 and phase == "knight" and nxt == "in-2":
            aims = [(-95.0, y) for y in (0.0, 4.0, -4.0, 8.0, -8.0)]
            return self._beat("in", self._first_clear("moons", aims, positions))
        if player == 1 and phase == "knight" and nxt == "tower-2":
            return self._beat("clip", self._clip_flick("moons", "2", positions))
        if player == 1 and phase == "guard" and knights[1]["prisoner_of"] == 2:
            goal = self._best_goal("ace", "tower-2", positions["ace"], positions)
            if goal is None or goal.touches != "tower-2":
                return None  # no straight lane to a face: the bot plays (the check will say)
            return self._beat("rescue", FlickAction(
                "ace", toward_mm=goal.point_mm, beyond_mm=goal.beyond_mm + RESCUE_EXTRA_MM))
        if player == 2 and phase == "knight" and nxt == "out-2":
            return self._beat("out2", self._first_clear("suns", [(-5.0, 0.0)], positions))
        if player == 2 and phase == "knight" and nxt == "in-3":
            aims = [(x, 95.0) for x in (0.0, -4.0, 4.0, -8.0, 8.0)]
            return self._beat("in3", self._first_clear("suns", aims, positions))
        if player == 2 and phase == "knight":
            if nxt == "door-3" and knights[3]["castle"] == 3 and self._lane_clear(
                    positions["suns"], positions["crowns"], positions, {"suns", "crowns"}):
                return self._beat("strike", FlickAction("suns", toward_coin="crowns",
                                                        beyond_mm=STRIKE_BEYOND_MM))
            if "strike" in self.fired and turn["flicks_left"] > 0:
                return self._beat("off", self._off_table_flick("suns", positions))
        return None

    def _first_clear(self, coin: str, aims: Sequence[Point],
                     positions: Mapping[str, Point]) -> Action | None:
        """A flick to the first of `aims` that `coin` can slide to without touching anything."""
        p = positions[coin]
        for q in aims:
            if self._clear(coin, p, q, positions):
                return FlickAction(coin, toward_mm=q)
        return None

    def _clip_flick(self, coin: str, guard: str, positions: Mapping[str, Point]) -> Action | None:
        """A flick that meets `guard` with the widest berth from every tile on the way."""
        p, g = positions[coin], positions[guard]
        best: tuple[float, Point] | None = None
        for k in range(72):
            a = math.radians(5.0 * k)
            q = (g[0] + CLIP_OFFSET_MM * math.cos(a), g[1] + CLIP_OFFSET_MM * math.sin(a))
            if math.dist(p, q) >= math.dist(p, g) or not self._lane_clear(
                    p, q, positions, {coin, guard}):
                continue
            room = min(segment_polygon_distance(p, q, piece.footprint())
                       for piece in self.layout.pieces.values())
            if best is None or room > best[0]:
                best = (room, q)
        if best is None:
            return None
        return FlickAction(coin, toward_mm=best[1], beyond_mm=STRIKE_BEYOND_MM)

    def _beat(self, name: str, action: Action | None) -> Action | None:
        if name in self.fired or action is None:
            return None
        self.fired.add(name)
        return action

    def _off_table_flick(self, coin: str, positions: Mapping[str, Point]) -> FlickAction | None:
        """A flick with a clear path to the nearest edge, hard enough to leave the table."""
        p = positions[coin]
        best: tuple[float, float] | None = None
        for k in range(72):
            heading = 5.0 * k
            u = (math.cos(math.radians(heading)), math.sin(math.radians(heading)))
            exit_mm = self._edge_along(p, u)
            if exit_mm is None:
                continue
            d = math.dist(p, exit_mm)
            if (best is None or d < best[0]) and self._lane_clear(
                    p, exit_mm, positions, {coin}, EDGE_CLEARANCE_MM):
                best = (d, heading)
        if best is None:
            return None
        speed = self.params.speed_for_distance(best[0] + PAST_EDGE_MM)
        return FlickAction(coin, heading_deg=best[1], speed_mm_s=speed)

    def _edge_along(self, p: Point, u: Point) -> Point | None:
        """Where the ray from p along u leaves the table outline."""
        table = self.layout.table
        hits = []
        for i in range(len(table)):
            a, b = table[i], table[(i + 1) % len(table)]
            e = (b[0] - a[0], b[1] - a[1])
            den = u[0] * e[1] - u[1] * e[0]
            if abs(den) < 1e-12:
                continue
            w = (a[0] - p[0], a[1] - p[1])
            s = (w[0] * e[1] - w[1] * e[0]) / den
            v = (w[0] * u[1] - w[1] * u[0]) / den
            if s > 0 and 0.0 <= v <= 1.0:
                hits.append(s)
        if not hits:
            return None
        s = min(hits)
        return (p[0] + u[0] * s, p[1] + u[1] * s)

    def _lane_clear(self, p: Point, q: Point, positions: Mapping[str, Point],
                    ignore: set[str], extra_mm: float = CLEARANCE_MM) -> bool:
        """Does a coin sliding p→q keep `extra_mm` from every tile, and miss every coin but
        `ignore` by more than the hand's aiming error (1 % of the way to it) can close?"""
        if any(segment_polygon_distance(p, q, piece.footprint()) < self.r + extra_mm
               for piece in self.layout.pieces.values()):
            return False
        length = math.dist(p, q) or 1.0
        u = ((q[0] - p[0]) / length, (q[1] - p[1]) / length)
        for other, c in positions.items():
            if other in ignore or other in self.state.stacked:
                continue
            ahead = max(0.0, (c[0] - p[0]) * u[0] + (c[1] - p[1]) * u[1])
            if point_segment_distance(c, p, q) < 2 * self.r + 0.5 + AIM_ERROR * ahead:
                return False
        return True
