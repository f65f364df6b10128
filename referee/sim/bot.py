"""A simple bot that plays Castle Croquetnole for all four players on the synthetic table.

It asks the rules engine (`state.summary()`) whose turn and coin it is and what the knight's
next course item is, aims at a point that achieves it (through a gate, a door, onto a tower's
face), going round an obstacle by one waypoint when the straight path is blocked, and flicks
with the player's human error.  It follows the engine's placement rulings (`pending_placements`:
coin, at, on) with a hand.  Guards make one short safe flick when the rules demand it (round 1)
and otherwise end their play.  It plays to win only in the sense of following the course; it is
a source of long, realistic sessions, not an opponent.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from referee.events import Event
from referee.geometry import Point, point_segment_distance
from referee.layout import Layout
from referee.rules.base import Ruling, make_game
from referee.sim.physics import Obstacle, PhysicsParams
from referee.sim.script import Action, DeclareAction, FlickAction, MoveAction

CLEARANCE_MM = 1.5
"""Room a planned path keeps from coins and tiles, beyond touching."""
OUTSIDE_GATE_MM = 28.0
INSIDE_GATE_MM = 40.0
INSIDE_DOOR_MM = 22.0
TOWER_PUSH_MM = 15.0
"""How far past a tower face the bot aims, so the coin arrives with speed and hits."""
NUDGE_MM = 12.0


@dataclass(frozen=True)
class Goal:
    """Where to flick to: a point, how far past it to slide, and the piece it may touch."""

    point_mm: Point
    beyond_mm: float = 0.0
    touches: str | None = None


def _sub(a: Point, b: Point) -> Point:
    return (a[0] - b[0], a[1] - b[1])


def _along(p: Point, n: Point, k: float) -> Point:
    return (p[0] + n[0] * k, p[1] + n[1] * k)


def _mid(a: Point, b: Point) -> Point:
    return ((a[0] + b[0]) / 2.0, (a[1] + b[1]) / 2.0)


def segment_polygon_distance(p: Point, q: Point, polygon: Sequence[Point]) -> float:
    """Distance between segment p–q and a convex polygon (0 when they meet)."""
    ob = Obstacle("_", tuple(polygon))
    n = len(ob.corners)
    for i in range(n):
        if _segments_cross(p, q, ob.corners[i], ob.corners[(i + 1) % n]):
            return 0.0
    return min(ob.distance(p), ob.distance(q),
               *(point_segment_distance(c, p, q) for c in ob.corners))


def _segments_cross(p1: Point, p2: Point, q1: Point, q2: Point) -> bool:
    def orient(a: Point, b: Point, c: Point) -> float:
        return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])

    d1, d2 = orient(q1, q2, p1), orient(q1, q2, p2)
    d3, d4 = orient(p1, p2, q1), orient(p1, p2, q2)
    return (d1 * d2 < 0) and (d3 * d4 < 0)


@dataclass
class CroquetnoleBot:
    """A `referee.sim.script.Policy` for Castle Croquetnole, driven by the rules engine."""

    layout: Layout
    params: PhysicsParams = field(default_factory=PhysicsParams)
    options: Mapping[str, Any] = field(default_factory=dict)
    rulings: list[Ruling] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.state = make_game("castle-croquetnole", dict(self.options)).new_state()
        self.applied = 0
        self.rejected = 0
        self.tries: dict[str, int] = {}
        self.r = self.params.coin_radius_mm
        self.waypoints = self._waypoints()

    # -- the policy ------------------------------------------------------------------------
    def next_action(self, events: Sequence[Event], t: float,
                    positions: Mapping[str, Point]) -> Action | None:
        new: list[Ruling] = []
        for event in events[self.applied:]:
            new += self.state.apply(event)
        self.rulings += new
        self.applied = len(events)
        self.rejected = self.rejected + 1 if any(r.kind == "reject" for r in new) else 0
        summary = self.state.summary()
        if summary["over"] or self.rejected >= 3:  # over, or the engine keeps refusing
            return None
        turn = summary["turn"]
        for request in summary["pending_placements"]:
            return self._place(request, positions)
        key = f"{turn['round']}:{turn['player']}:{turn['phase']}"
        self.tries[key] = self.tries.get(key, 0) + 1  # decisions, placements not counted
        steered = self.steer(summary, positions)
        if steered is not None:
            return steered
        coin, player = turn["coin"], turn["player"]
        if coin not in positions or self.state.stacked.get(coin):
            return DeclareAction(player, "end_play")
        if turn["phase"] == "guard":
            if turn["round"] > 1 or self.tries[key] > 1:
                return DeclareAction(player, "end_play")
            return self._nudge(coin, positions, player)
        nxt = summary["players"][str(player)]["knight"]["next"]
        if nxt is None:
            return DeclareAction(player, "end_play")
        return self._flick_for(coin, nxt, positions, player)

    def steer(self, summary: Mapping[str, Any], positions: Mapping[str, Point]) -> Action | None:
        """A story's override of the next decision (placements come first); None: play on."""
        return None

    # -- decisions -------------------------------------------------------------------------
    def _place(self, request: Mapping[str, Any], positions: Mapping[str, Point]) -> MoveAction:
        at = (float(request["at"][0]), float(request["at"][1]))
        coin = request["coin"]
        if request.get("on") is None:
            at = self._clear_spot(coin, at, positions)
        owner = next((c.number for c in self.layout.castles.values()
                      if coin in (c.knight, c.guard)), 1)
        return MoveAction(coin, at, request.get("on"), player=owner)

    def _nudge(self, coin: str, positions: Mapping[str, Point], player: int) -> Action:
        p = positions[coin]
        for k in range(16):
            a = math.radians(22.5 * k + 90.0)
            q = _along(p, (math.cos(a), math.sin(a)), NUDGE_MM)
            if self._clear(coin, p, q, positions):
                return FlickAction(coin, toward_mm=q, player=player)
        return DeclareAction(player, "end_play")

    def _flick_for(self, coin: str, item: str, positions: Mapping[str, Point],
                   player: int) -> Action:
        p = positions[coin]
        goal = self._best_goal(coin, item, p, positions)
        if goal is None:
            return DeclareAction(player, "end_play")
        return FlickAction(coin, toward_mm=goal.point_mm, beyond_mm=goal.beyond_mm, player=player)

    def _best_goal(self, coin: str, item: str, p: Point,
                   positions: Mapping[str, Point]) -> Goal | None:
        goals = self.goals(item)
        if item.startswith("door-"):  # through the door: the aim point on its other side
            door = self.layout.lines[self.layout.castles[int(item[5:])].door]
            goals = [g for g in goals if (door.side(g.point_mm) >= 0) != (door.side(p) >= 0)]
        goals = [g for g in goals if math.dist(p, g.point_mm) > 3.0] or goals
        direct = [g for g in goals if self._clear(coin, p, g.point_mm, positions, g.touches)]
        if direct:
            return min(direct, key=lambda g: math.dist(p, g.point_mm))
        best: tuple[float, Goal] | None = None
        for w in self.waypoints:
            if not self._clear(coin, p, w, positions):
                continue
            for g in goals:
                if self._clear(coin, w, g.point_mm, positions, g.touches):
                    length = math.dist(p, w) + math.dist(w, g.point_mm)
                    if best is None or length < best[0]:
                        best = (length, Goal(w))
        if best is not None:
            return best[1]
        return min(goals, key=lambda g: math.dist(p, g.point_mm))  # try anyway: it's croquet

    def goals(self, item: str) -> list[Goal]:
        """Aim points that achieve a course item (`out-i`, `in-j`, `door-j`, `tower-j`)."""
        what, _, num = item.partition("-")
        castle = self.layout.castles[int(num)]
        gate, door = self.layout.lines[castle.gate], self.layout.lines[castle.door]
        n = gate.normal  # + points into the castle
        if what == "out":
            return [Goal(_along(_mid(gate.a, gate.b), n, -OUTSIDE_GATE_MM))]
        if what == "in":
            return [Goal(_along(_mid(gate.a, gate.b), n, INSIDE_GATE_MM))]
        if what == "door":
            return [Goal(_along(_mid(door.a, door.b), n, INSIDE_DOOR_MM)),
                    Goal(_along(_mid(door.a, door.b), n, -INSIDE_DOOR_MM))]
        tower = self.layout.pieces[castle.tower]
        half = tower.size_mm / 2.0
        out = []
        for k in range(4):
            a = math.radians(tower.angle_deg + 90.0 * k)
            f = (math.cos(a), math.sin(a))
            face = _along(tower.center_mm, f, half + self.r + 0.5)
            out.append(Goal(face, TOWER_PUSH_MM, tower.name))
        return out

    # -- geometry --------------------------------------------------------------------------
    def _clear(self, coin: str, p: Point, q: Point, positions: Mapping[str, Point],
               touches: str | None = None) -> bool:
        """Can `coin` slide from p to q without touching a coin or a tile (but `touches`)?"""
        if self.layout.inset_from_edge(q, self.r + 5.0) != q:
            return False
        for piece in self.layout.pieces.values():
            if piece.name != touches and segment_polygon_distance(
                    p, q, piece.footprint()) < self.r + CLEARANCE_MM:
                return False
        return all(other == coin or other in self.state.stacked
                   or point_segment_distance(c, p, q) >= 2 * self.r + CLEARANCE_MM
                   for other, c in positions.items())

    def _clear_spot(self, coin: str, at: Point, positions: Mapping[str, Point]) -> Point:
        """`at`, or the nearest point around it clear of coins and tiles."""
        for ring in range(0, 41):
            for k in range(max(1, 8 * ring)):
                a = 2 * math.pi * k / max(1, 8 * ring)
                q = (at[0] + ring * math.cos(a), at[1] + ring * math.sin(a))
                if self._spot_free(coin, q, positions):
                    return q
        return at

    def _spot_free(self, coin: str, q: Point, positions: Mapping[str, Point]) -> bool:
        if self.layout.inset_from_edge(q, self.r) != q:
            return False
        if any(Obstacle(p.name, tuple(p.footprint())).distance(q) < self.r + 0.01
               for p in self.layout.pieces.values()):
            return False
        return all(other == coin or other in self.state.stacked
                   or math.dist(c, q) >= 2 * self.r + 0.01 for other, c in positions.items())

    def _waypoints(self) -> list[Point]:
        """Stepping stones: the hub, both sides of every gate and door, round every tower."""
        pts: list[Point] = [(0.0, 0.0)]
        for castle in self.layout.castles.values():
            gate, door = self.layout.lines[castle.gate], self.layout.lines[castle.door]
            n = gate.normal
            g, d = _mid(gate.a, gate.b), _mid(door.a, door.b)
            pts += [_along(g, n, -OUTSIDE_GATE_MM), _along(g, n, INSIDE_GATE_MM),
                    _along(d, n, -INSIDE_DOOR_MM - 3.0), _along(d, n, INSIDE_DOOR_MM)]
            tower = self.layout.pieces[castle.tower]
            reach = tower.size_mm / 2.0 + self.r + 14.0
            for k in range(8):
                a = math.radians(45.0 * k)
                scale = 1.0 if k % 2 == 0 else math.sqrt(2.0)
                pts.append(_along(tower.center_mm, (math.cos(a), math.sin(a)), reach * scale))
            side = _sub(gate.b, gate.a)
            for sgn in (-1.0, 1.0):  # the wasteland beside each castle
                pts.append(_along(_along(d, n, -60.0), _unit(side), sgn * 120.0))
        return pts


def _unit(v: Point) -> Point:
    n = math.hypot(v[0], v[1])
    return (v[0] / n, v[1] / n)
