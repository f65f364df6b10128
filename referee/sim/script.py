"""Scripted players: flicks, hand placements and pauses played out on the simulated table.

A :class:`Scenario` is a list of actions.  :func:`play` runs them in order against the physics
and records three things: the contract's events (the ground truth), every coin's exact motion
and the players' hands, the last two wrapped in a :class:`ScriptedTimeline` that answers the
renderer's `at(t)` exactly at any instant.

Actions aim like a person does: a flick names a point to slide toward (and how far past it to
go), and the player's hand adds a little error (seeded, so a seed gives one session).
"""

from __future__ import annotations

import bisect
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

import numpy as np

from referee.events import Declare, Event, Face, Lift, Place
from referee.geometry import Point
from referee.layout import GUARDS, SUITS, Layout, castle_croquetnole_layout
from referee.sim.groundtruth import flick_events, round_point, round_t
from referee.sim.physics import Obstacle, PhysicsParams, Slide, Table, simulate
from referee.sim.scene import CoinPose, HandPose, Scene

LEAD_IN_S = 1.0
"""Every coin rests in view, no hand, before the first action (the referee binds identities)."""
TAIL_S = 1.0
REACH_S = 0.9
"""A hand reaches from the table edge to the coin in this time."""
FINGER_MS = 80.0
"""The fingertip rests against the coin this long before the flick."""
WITHDRAW_S = 0.6
PAUSE_S = 0.5
"""Players wait this long after the coins rest before the next action."""
FINGERTIP_RADIUS_MM = 7.0


# ------------------------------------------------------------------------------- actions


@dataclass(frozen=True)
class FlickAction:
    """Flick `coin` toward `toward_mm` to slide `beyond_mm` past it (or by heading and speed)."""

    coin: str
    toward_mm: Point | None = None
    beyond_mm: float = 0.0
    heading_deg: float | None = None
    """Direction of travel, counter-clockwise from +x (east), when `toward_mm` is not given."""
    speed_mm_s: float | None = None
    """Launch speed; by default the speed that slides to `toward_mm` + `beyond_mm`."""
    spin_deg_s: float | None = None
    """The coin's turn rate at launch (it dies with the speed); random when None."""
    exact: bool = False
    """No human error (staged flicks)."""
    player: int | None = None
    toward_coin: str | None = None
    """Aim at this coin's centre where it rests now (instead of `toward_mm`)."""


@dataclass(frozen=True)
class MoveAction:
    """A hand lifts `coin` (unless it is off the table) and puts it down at `to_mm`."""

    coin: str
    to_mm: Point | None = None
    """Where to put it; None returns a fallen coin to where it fell, just inside the edge."""
    on: str | None = None
    """A stack to put it on (e.g. a prisoner to a tower slot)."""
    player: int | None = None
    flip: bool = False
    """The hand turns the coin over: it is put down showing its other face (a `face` event
    at the place).  A flipped coin flipped again shows its setup face."""


@dataclass(frozen=True)
class PauseAction:
    seconds: float


@dataclass(frozen=True)
class DeclareAction:
    """A player declares something in the web UI (e.g. `end_play`); no hand, no motion."""

    player: int
    what: str
    kind: int | None = None


Action = FlickAction | MoveAction | PauseAction | DeclareAction


class Policy(Protocol):
    """A player that decides as it goes (a bot): the next action after seeing the events."""

    def next_action(self, events: Sequence[Event], t: float,
                    positions: Mapping[str, Point]) -> Action | None:
        """The next action, given every event so far and where the coins rest; None: stop."""
        ...


@dataclass(frozen=True)
class HumanError:
    """How far a player's flick strays: normal errors in heading and in speed."""

    heading_sd_deg: float = 0.3
    speed_sd: float = 0.02
    """Relative (0.02 = 2 %)."""
    spin_sd_deg_s: float = 150.0


@dataclass(frozen=True)
class Scenario:
    """A named, scripted session on a layout."""

    name: str
    description: str
    actions: tuple[Action, ...]
    layout: Layout = field(default_factory=castle_croquetnole_layout)
    params: PhysicsParams = field(default_factory=PhysicsParams)
    error: HumanError = field(default_factory=HumanError)
    setup: Mapping[str, Point] | None = None
    """Coin start positions; by default every coin in its castle's start zone."""
    policy: Callable[[], Policy] | None = None
    """After the scripted actions, a fresh policy plays on (until it returns None)."""
    max_policy_actions: int = 200
    verify: Callable[[Session], object] | None = None
    """Checks the played session (e.g. that a story happened); raises ValueError if not."""


def start_positions(layout: Layout) -> dict[str, Point]:
    """Every knight and guard on its castle's default spot (CONTRACT.md, RULES-SPEC §2.5.3)."""
    out: dict[str, Point] = {}
    for castle in layout.castles.values():
        out[castle.knight] = castle.knight_spot
        out[castle.guard] = castle.guard_spot
    return out


def table_of(layout: Layout, params: PhysicsParams) -> Table:
    """The physics table: the layout's outline, and every tile and stack as a fixed body."""
    obstacles = tuple(Obstacle(p.name, tuple(p.footprint())) for p in layout.pieces.values())
    return Table(tuple(layout.table), obstacles, params)


# ----------------------------------------------------------------------------- recording


def other_face(coin: str, face: str) -> str:
    """The face under `face` on `coin`: a guard's suit side, a knight's value side (the
    recommended set's knights are the null coins, RULES-SPEC G-CCN-51), or, for a coin already
    flipped, its setup face again."""
    if face != coin:
        return coin
    if coin in GUARDS:
        return SUITS[GUARDS.index(coin)]
    if coin in SUITS:
        return "null"
    raise ValueError(f"cannot flip {coin!r}: not a knight or a guard")


@dataclass(frozen=True)
class Span:
    """From `t0` on, a coin follows `slide` (None: out of view) standing on `on`, showing
    `face` (None: its setup face)."""

    t0: float
    slide: Slide | None
    on: str | None = None
    face: str | None = None


@dataclass(frozen=True)
class Gesture:
    """A hand's movement: fingertip keyframes (t, point, finger down), arm from one place."""

    arm_from_mm: Point
    keys: tuple[tuple[float, Point, bool], ...]

    @property
    def t_start(self) -> float:
        return self.keys[0][0]

    @property
    def t_end(self) -> float:
        return self.keys[-1][0]

    def at(self, t: float) -> HandPose:
        times = [k[0] for k in self.keys]
        i = bisect.bisect_right(times, t) - 1
        if i < 0:
            i = 0
        if i >= len(self.keys) - 1:
            _, p, down = self.keys[-1]
            return HandPose(p, self.arm_from_mm, down)
        (t0, p0, down0), (t1, p1, _) = self.keys[i], self.keys[i + 1]
        w = 0.0 if t1 <= t0 else (t - t0) / (t1 - t0)
        w = w * w * (3.0 - 2.0 * w)  # smoothstep: the hand eases in and out
        return HandPose((p0[0] + w * (p1[0] - p0[0]), p0[1] + w * (p1[1] - p0[1])),
                        self.arm_from_mm, down0)


@dataclass(frozen=True)
class ScriptedTimeline:
    """The exact scene at any time: implements `referee.sim.scene.SceneTimeline`."""

    spans: Mapping[str, tuple[Span, ...]]
    gestures: tuple[Gesture, ...]
    end_s: float
    _starts: dict[str, list[float]] = field(default_factory=dict, init=False, repr=False,
                                            compare=False)

    def __post_init__(self) -> None:
        self._starts.update({c: [s.t0 for s in spans] for c, spans in self.spans.items()})

    @property
    def duration(self) -> float:
        return self.end_s

    def coin_pose(self, coin: str, t: float) -> CoinPose:
        """One coin's exact pose at `t` (out of view while lifted or after a fall)."""
        spans = self.spans[coin]
        i = max(bisect.bisect_right(self._starts[coin], t) - 1, 0)
        span = spans[i]
        if span.slide is None:
            last = next((s.slide for s in reversed(spans[:i]) if s.slide is not None), None)
            p = last.position(span.t0) if last else (0.0, 0.0)
            angle = last.angle_deg(span.t0) if last else 0.0
            return CoinPose(coin, p, angle % 360.0, span.face or coin, span.on, visible=False)
        return CoinPose(coin, span.slide.position(t), span.slide.angle_deg(t) % 360.0,
                        span.face or coin, span.on, visible=True)

    def at(self, t: float) -> Scene:
        coins = tuple(self.coin_pose(c, t) for c in sorted(self.spans))
        hands = tuple(g.at(t) for g in self.gestures if g.t_start <= t <= g.t_end)
        return Scene(coins, hands)


@dataclass
class Session:
    """A played scenario: its ground-truth events, the timeline, and how it was made."""

    scenario: Scenario
    seed: int
    events: list[Event]
    timeline: ScriptedTimeline
    flicks: list[dict[str, Any]]
    """What each flick actually was (after the human error): coin, heading, speed, t."""

    def tracks(self, rate_hz: float) -> list[tuple[float, str, float, float]]:
        """Rows (t, coin, x_mm, y_mm) at `rate_hz` for every coin in view."""
        if rate_hz <= 0:
            raise ValueError(f"the track rate must be positive, got {rate_hz}")
        rows = []
        for k in range(math.floor(self.timeline.duration * rate_hz + 1e-9) + 1):
            t = k / rate_hz
            for pose in self.timeline.at(t).coins:
                if pose.visible:
                    rows.append((t, pose.coin, pose.center_mm[0], pose.center_mm[1]))
        return rows

    def metadata(self) -> dict[str, Any]:
        prm = self.scenario.params
        return {
            "scenario": self.scenario.name,
            "description": self.scenario.description,
            "seed": self.seed,
            "layout": self.scenario.layout.name,
            "game": self.scenario.layout.game,
            "duration_s": self.timeline.duration,
            "coins": sorted(self.timeline.spans),
            "physics": {"mu": prm.mu, "e_coin": prm.e_coin, "e_piece": prm.e_piece,
                        "coin_radius_mm": prm.coin_radius_mm, "g_mm_s2": prm.g_mm_s2},
            "human_error": vars(self.scenario.error),
            "flicks": self.flicks,
            "events": len(self.events),
        }


# ------------------------------------------------------------------------------- playing


class _Player:
    """Runs the actions one after another, keeping the table's state and the records."""

    def __init__(self, scenario: Scenario, seed: int) -> None:
        self.sc = scenario
        self.layout = scenario.layout
        self.table = table_of(scenario.layout, scenario.params)
        self.seed = seed
        self.rng = np.random.default_rng(seed)
        self.fell: dict[str, Point] = {}
        setup = dict(scenario.setup or start_positions(scenario.layout))
        self.cloth: dict[str, Point] = dict(setup)  # coins resting on the cloth
        self.stacked: dict[str, tuple[Point, str]] = {}
        self.angle: dict[str, float] = {c: float(self.rng.uniform(0.0, 360.0))
                                        for c in sorted(setup)}
        self.spans: dict[str, list[Span]] = {
            c: [Span(0.0, Slide.start(0.0, p, (0.0, 0.0), 1.0, self.angle[c]))]
            for c, p in sorted(setup.items())}
        self.face: dict[str, str] = {c: c for c in setup}
        """The face each coin shows now (its setup face until a hand flips it)."""
        self.gestures: list[Gesture] = []
        self.events: list[Event] = []
        self.flicks: list[dict[str, Any]] = []
        self.t = LEAD_IN_S

    # -- helpers ---------------------------------------------------------------------------
    def owner(self, coin: str) -> int:
        for castle in self.layout.castles.values():
            if coin in (castle.knight, castle.guard):
                return castle.number
        return 1

    def arm_from(self, player: int, near: Point) -> Point:
        """Where the arm of the player sitting behind castle `player` enters, near `near`."""
        castle = self.layout.castles.get(player)
        if castle is None:
            return (near[0], self.layout.table[0][1] - 80.0)
        tower = self.layout.pieces[castle.tower].center_mm
        outward = _unit(tower)
        best, best_depth = near, -math.inf
        for a, b, n in self.table.edges():  # the edge on the player's side
            depth = -(n[0] * outward[0] + n[1] * outward[1])
            if depth > best_depth:
                foot = _closest_on_segment(near, a, b)
                best, best_depth = (foot[0] - 80.0 * n[0], foot[1] - 80.0 * n[1]), depth
        return best

    def position(self, coin: str) -> Point:
        if coin in self.cloth:
            return self.cloth[coin]
        if coin in self.stacked:
            return self.stacked[coin][0]
        raise ValueError(f"coin {coin!r} is not on the table")

    # -- actions ---------------------------------------------------------------------------
    def flick(self, act: FlickAction) -> None:
        if act.coin not in self.cloth:
            raise ValueError(f"cannot flick {act.coin!r}: it is not resting on the cloth")
        p = self.cloth[act.coin]
        prm = self.sc.params
        toward = act.toward_mm
        if act.toward_coin is not None:
            toward = self.position(act.toward_coin)
        if toward is not None:
            dx, dy = toward[0] - p[0], toward[1] - p[1]
            heading = math.degrees(math.atan2(dy, dx))
            distance = math.hypot(dx, dy) + act.beyond_mm
            speed = act.speed_mm_s or prm.speed_for_distance(distance)
        elif act.heading_deg is not None and act.speed_mm_s is not None:
            heading, speed = act.heading_deg, act.speed_mm_s
        else:
            raise ValueError("a flick needs toward_mm, or heading_deg and speed_mm_s")
        if not speed > 0.0:
            raise ValueError(f"a flick of {act.coin!r} needs a positive speed, got {speed}")
        err = self.sc.error
        spin = act.spin_deg_s
        if spin is None:
            spin = float(self.rng.normal(0.0, err.spin_sd_deg_s))
        if not act.exact:
            heading += float(self.rng.normal(0.0, err.heading_sd_deg))
            speed *= 1.0 + float(self.rng.normal(0.0, err.speed_sd))
        u = (math.cos(math.radians(heading)), math.sin(math.radians(heading)))
        player = act.player or self.owner(act.coin)
        t_flick = self.t + REACH_S
        self.gestures.append(self._flick_gesture(player, p, u, t_flick))
        result = simulate(self.table, self.cloth, t_flick, {act.coin: (u[0] * speed, u[1] * speed)},
                          angles_deg={c: self.angle[c] for c in self.cloth},
                          spins_deg_per_mm={act.coin: spin / speed})
        resting = {c: q for c, (q, _) in self.stacked.items()}
        self.events += flick_events(result, [act.coin], self.layout.lines.values(), self.table,
                                    resting=resting, finger_ms=FINGER_MS)
        self.flicks.append({"coin": act.coin, "t": round_t(t_flick),
                            "heading_deg": round(heading, 6), "speed_mm_s": round(speed, 6)})
        gone = {e.coin: e.t for e in result.exits}
        for coin, slides in result.slides.items():
            moved = len(slides) > 1 or slides[0].moving
            if moved:
                self.spans[coin] += [Span(s.t0, s, face=self._shown(coin)) for s in slides]
            if coin in gone:
                self.spans[coin].append(Span(gone[coin], None, face=self._shown(coin)))
                self.fell[coin] = next(e.at_mm for e in result.exits if e.coin == coin)
                del self.cloth[coin]
            else:
                self.cloth[coin] = slides[-1].position(result.t_rest)
                self.angle[coin] = slides[-1].angle_deg(result.t_rest)
        self.t = max(result.t_rest, t_flick + WITHDRAW_S) + PAUSE_S

    def _flick_gesture(self, player: int, p: Point, u: Point, t_flick: float) -> Gesture:
        r = self.sc.params.coin_radius_mm
        back = r + FINGERTIP_RADIUS_MM
        touch = (p[0] - u[0] * back, p[1] - u[1] * back)
        hover = (p[0] - u[0] * (back + 25.0), p[1] - u[1] * (back + 25.0))
        follow = (p[0] - u[0] * (back - 6.0), p[1] - u[1] * (back - 6.0))
        arm = self.arm_from(player, p)
        down = t_flick - FINGER_MS / 1000.0
        return Gesture(arm, (
            (t_flick - REACH_S, arm, False),
            (down - 0.2, hover, False),
            (down, touch, True),
            (t_flick, touch, True),
            (t_flick + 0.04, follow, False),
            (t_flick + WITHDRAW_S, arm, False),
        ))

    def move(self, act: MoveAction) -> None:
        to_mm = act.to_mm
        if to_mm is None:
            if act.coin not in self.fell:
                raise ValueError(f"{act.coin!r} did not fall off: say where to put it")
            to_mm = self.layout.inset_from_edge(self.fell[act.coin],
                                                self.sc.params.coin_radius_mm)
        to_mm = round_point(to_mm)  # the event and the timeline agree to the last digit
        player = act.player or self.owner(act.coin)
        arm = self.arm_from(player, to_mm)
        t_reach = self.t + REACH_S
        on_table = act.coin in self.cloth or act.coin in self.stacked
        keys: list[tuple[float, Point, bool]] = [(self.t, arm, False)]
        if on_table:
            src = self.position(act.coin)
            keys += [(t_reach, src, True)]
            self.events.append(Lift(round_t(t_reach), act.coin))
            self.spans[act.coin].append(Span(t_reach, None, face=self._shown(act.coin)))
            self.cloth.pop(act.coin, None)
            self.stacked.pop(act.coin, None)
            t_reach += 0.7
        t_place = t_reach
        keys += [(t_place, to_mm, True), (t_place + WITHDRAW_S, arm, False)]
        self.gestures.append(Gesture(arm, tuple(keys)))
        self.events.append(Place(round_t(t_place), act.coin, round_point(to_mm), act.on))
        if act.flip:
            self.face[act.coin] = other_face(act.coin, self.face.get(act.coin, act.coin))
            self.events.append(Face(round_t(t_place), act.coin, self.face[act.coin]))
        angle = self.angle.get(act.coin, 0.0)
        self.spans[act.coin].append(
            Span(t_place, Slide.start(t_place, to_mm, (0.0, 0.0), 1.0, angle), act.on,
                 self._shown(act.coin)))
        self.fell.pop(act.coin, None)
        if act.on is None:
            self._check_room(act.coin, to_mm)
            self.cloth[act.coin] = to_mm
        else:
            self.stacked[act.coin] = (to_mm, act.on)
        self.t = t_place + WITHDRAW_S + PAUSE_S

    def _shown(self, coin: str) -> str | None:
        """The face a coin's next span shows: None while it shows its setup face (so the
        timelines of unflipped sessions are what they always were)."""
        face = self.face.get(coin, coin)
        return None if face == coin else face

    def _check_room(self, coin: str, p: Point) -> None:
        """A coin is put down on the table, clear of every other coin and every tile."""
        r = self.sc.params.coin_radius_mm
        if not self.table.contains(p):
            raise ValueError(f"cannot put {coin!r} at {p}: off the table")
        for other, q in self.cloth.items():
            if other != coin and math.dist(p, q) < 2 * r - 1e-6:
                raise ValueError(f"cannot put {coin!r} at {p}: it would overlap {other!r}")
        for ob in self.table.obstacles:
            if ob.distance(p) < r - 1e-6:
                raise ValueError(f"cannot put {coin!r} at {p}: it would overlap {ob.name!r}")

    def do(self, act: Action) -> None:
        if isinstance(act, FlickAction):
            self.flick(act)
        elif isinstance(act, MoveAction):
            self.move(act)
        elif isinstance(act, DeclareAction):
            self.events.append(Declare(round_t(self.t), act.player, act.what, act.kind))
            self.t += PAUSE_S
        else:
            self.t += act.seconds

    def run(self) -> Session:
        for act in self.sc.actions:
            self.do(act)
        if self.sc.policy is not None:
            policy = self.sc.policy()
            for _ in range(self.sc.max_policy_actions):
                positions = dict(self.cloth) | {c: q for c, (q, _) in self.stacked.items()}
                act = policy.next_action(self.events, self.t, positions)
                if act is None:
                    break
                self.do(act)
        end = self.t + TAIL_S
        timeline = ScriptedTimeline({c: tuple(s) for c, s in self.spans.items()},
                                    tuple(self.gestures), end)
        session = Session(self.sc, self.seed, self.events, timeline, self.flicks)
        if self.sc.verify is not None:
            self.sc.verify(session)
        return session


def play(scenario: Scenario, seed: int = 0) -> Session:
    """Play `scenario` with the players' errors drawn from `seed` (one seed, one session)."""
    return _Player(scenario, seed).run()


def _unit(v: Point) -> Point:
    n = math.hypot(v[0], v[1])
    return (v[0] / n, v[1] / n) if n > 0 else (0.0, -1.0)


def _closest_on_segment(p: Point, a: Point, b: Point) -> Point:
    ab = (b[0] - a[0], b[1] - a[1])
    u = ((p[0] - a[0]) * ab[0] + (p[1] - a[1]) * ab[1]) / (ab[0] ** 2 + ab[1] ** 2)
    u = min(max(u, 0.0), 1.0)
    return (a[0] + u * ab[0], a[1] + u * ab[1])
