"""Ground-truth events agree with the exact trajectories, for every scenario and a few seeds."""

from __future__ import annotations

import io
import itertools
import math
from collections import Counter

import numpy as np
import pytest

from referee.events import Contact, Cross, Hit, OffTable, Settled, parse_events, write_events
from referee.geometry import point_in_polygon, segment_crossing
from referee.sim.groundtruth import contact_onsets, flick_events
from referee.sim.physics import Obstacle, PhysicsParams, Table, position_at, simulate
from referee.sim.scenarios import SCENARIOS, scenario
from referee.sim.script import Session, play, table_of

SEEDS = (0, 1, 2)
R = PhysicsParams().coin_radius_mm
D = 2 * R
_SESSIONS: dict[tuple[str, int], Session] = {}


def session(name: str, seed: int) -> Session:
    if (name, seed) not in _SESSIONS:
        _SESSIONS[(name, seed)] = play(scenario(name), seed)
    return _SESSIONS[(name, seed)]


def center(s: Session, coin: str, t: float) -> tuple[float, float]:
    return s.timeline.coin_pose(coin, t).center_mm


CASES = [(name, seed) for name in SCENARIOS for seed in SEEDS]


@pytest.mark.parametrize(("name", "seed"), CASES)
def test_crossings_agree_with_the_tracks(name: str, seed: int) -> None:
    s = session(name, seed)
    lines = s.scenario.layout.lines
    for ev in s.events:
        if isinstance(ev, Cross):
            line = lines[ev.line]
            before, after = center(s, ev.coin, ev.t - 1e-6), center(s, ev.coin, ev.t + 1e-6)
            hit = segment_crossing(before, after, line.a, line.b, line.normal)
            assert hit is not None and hit.dir == ev.dir, ev
            assert ev.at is not None and math.dist(hit.point, ev.at) < 1e-2


@pytest.mark.parametrize(("name", "seed"), CASES)
def test_no_crossing_is_missed(name: str, seed: int) -> None:
    """Sampling every 0.5 ms with the rules' own predicate finds exactly the reported crossings."""
    s = session(name, seed)
    lines = s.scenario.layout.lines.values()
    found: Counter[tuple[str, str, str]] = Counter()
    flicks = [e.t for e in s.events if e.type == "flick"]
    settles = [e.t for e in s.events if e.type == "settled"]
    for t0, t1 in zip(flicks, settles, strict=True):
        ts = np.append(np.arange(t0, t1, 5e-4), t1)
        for coin in s.timeline.spans:
            poses = [s.timeline.coin_pose(coin, float(t)) for t in ts]
            for p, q in itertools.pairwise(poses):
                if not (p.visible and q.visible):
                    continue
                for line in lines:
                    c = segment_crossing(p.center_mm, q.center_mm, line.a, line.b, line.normal)
                    if c is not None:
                        found[(coin, line.name, c.dir)] += 1
    reported = Counter((e.coin, e.line, e.dir) for e in s.events if isinstance(e, Cross))
    assert found == reported


@pytest.mark.parametrize(("name", "seed"), CASES)
def test_contacts_and_hits_agree_with_distances(name: str, seed: int) -> None:
    s = session(name, seed)
    pieces = s.scenario.layout.pieces
    for ev in s.events:
        if isinstance(ev, Contact):
            assert math.dist(center(s, ev.a, ev.t), center(s, ev.b, ev.t)) == pytest.approx(
                D, abs=1e-5)
            assert math.dist(center(s, ev.a, ev.t - 1e-3), center(s, ev.b, ev.t - 1e-3)) > D
            assert set(ev.moving) <= {ev.a, ev.b} and ev.moving
        elif isinstance(ev, Hit):
            ob = Obstacle(ev.coin, tuple(pieces[ev.piece].footprint()))
            assert ob.distance(center(s, ev.coin, ev.t)) == pytest.approx(R, abs=1e-5)
            assert ob.distance(center(s, ev.coin, ev.t - 1e-3)) > R


@pytest.mark.parametrize(("name", "seed"), CASES)
def test_event_stream_is_well_formed(name: str, seed: int) -> None:
    s = session(name, seed)
    buf = io.StringIO()
    write_events(s.events, buf)
    parsed = list(parse_events(buf.getvalue().splitlines()))
    assert [e.type for e in parsed] == [e.type for e in s.events]
    open_flick = False
    for ev in s.events:
        if ev.type == "flick":
            assert not open_flick
            open_flick = True
        elif ev.type == "settled":
            assert open_flick
            open_flick = False
        elif ev.type in ("cross", "contact", "hit", "off_table"):
            assert open_flick
    assert not open_flick
    table = s.scenario.layout.table
    for ev in s.events:
        if isinstance(ev, Settled):
            assert ev.positions
            for coin, p in ev.positions.items():
                assert math.dist(center(s, coin, ev.t + 1e-3), p) < 1e-5
                assert point_in_polygon(p, table)
        if isinstance(ev, OffTable):
            assert min(abs(abs(ev.at[0]) - 431.8), abs(abs(ev.at[1]) - 431.8)) < 1e-6
            assert not s.timeline.coin_pose(ev.coin, ev.t + 1e-3).visible


def kinds(s: Session) -> list[tuple]:
    out = []
    for e in s.events:
        if isinstance(e, Cross):
            out.append(("cross", e.coin, e.line, e.dir))
        elif isinstance(e, Contact):
            out.append(("contact", *sorted((e.a, e.b))))
        elif isinstance(e, Hit):
            out.append(("hit", e.coin, e.piece))
        elif e.type in ("off_table", "lift", "place", "flick"):
            out.append((e.type, e.coin))  # type: ignore[attr-defined]
    return out


@pytest.mark.parametrize("seed", SEEDS)
def test_scenarios_tell_their_story(seed: int) -> None:
    assert kinds(session("gate-run", seed)) == [
        ("flick", "moons"), ("cross", "moons", "door-1", "-"), ("cross", "moons", "gate-1", "-"),
        ("flick", "moons"), ("cross", "moons", "gate-2", "+")]
    strike = kinds(session("strike", seed))
    assert strike[:7] == [
        ("flick", "moons"), ("cross", "moons", "door-1", "-"), ("cross", "moons", "gate-1", "-"),
        ("cross", "moons", "gate-3", "+"), ("cross", "moons", "door-3", "+"),
        ("contact", "crowns", "moons"), ("hit", "crowns", "tower-3")]
    cap = kinds(session("capture", seed))
    assert ("contact", "2", "moons") in cap and cap[-2:] == [("lift", "moons"), ("place", "moons")]
    assert ("cross", "moons", "gate-2", "+") in cap
    assert ("hit", "moons", "tower-1") in kinds(session("tower-hit", seed))
    off = kinds(session("off-table", seed))
    assert off == [("flick", "arms"), ("off_table", "arms"), ("place", "arms")]
    touch = kinds(session("touching", seed))
    assert not [k for k in touch if k[0] in ("contact", "hit")]
    assert ("cross", "suns", "gate-1", "-") in touch


def test_on_line_stops_a_hair_past_the_line() -> None:
    s = session("on-line", 0)
    settled = [e for e in s.events if isinstance(e, Settled)]
    assert settled[0].positions["moons"][1] == pytest.approx(-152.2, abs=1e-6)
    assert settled[1].positions["crowns"][1] == pytest.approx(152.6, abs=1e-6)
    assert kinds(s) == [("flick", "moons"), ("cross", "moons", "door-1", "-"),
                        ("flick", "crowns")]


def test_same_seed_same_events_other_seed_other_flicks() -> None:
    a, b = play(scenario("capture"), 5), play(scenario("capture"), 5)
    assert [e.to_json() for e in a.events] == [e.to_json() for e in b.events]
    assert play(scenario("capture"), 6).flicks != a.flicks


# ----------------------------------------------------------------- onsets and pushing

BOX = ((-1000.0, -1000.0), (1000.0, -1000.0), (1000.0, 1000.0), (-1000.0, 1000.0))


def wall_at(x: float) -> Obstacle:
    """A tile whose west face is at x."""
    return Obstacle("wall", ((x, -100.0), (x + 50.0, -100.0), (x + 50.0, 100.0), (x, 100.0)))


@pytest.mark.parametrize(("wall_gap_mm", "onset"), [(30.0, True), (0.3, False)])
def test_touching_pair_pulled_apart_and_pushed_together(wall_gap_mm: float, onset: bool) -> None:
    """b rests against a and is flicked away into a wall; it rebounds into a.  The second
    impact is a new contact only if the gap between them exceeded ε_contact meanwhile."""
    b0 = (D, 0.0)
    table = Table(BOX, (wall_at(b0[0] + R + wall_gap_mm),))
    res = simulate(table, {"a": (0.0, 0.0), "b": b0}, 0.0, {"b": (900.0, 0.0)})
    assert [i.kind for i in res.impacts][:2] == ["piece", "coin"]
    onsets = contact_onsets(res, {"a": (0.0, 0.0), "b": b0}, table)
    assert [i.kind == "coin" for i in onsets].count(True) == (1 if onset else 0)


def test_pushing_a_touching_coin_is_not_a_contact_but_a_new_one_is() -> None:
    table = Table(BOX)
    pos = {"a": (0.0, 0.0), "b": (D, 0.0), "c": (200.0, 0.0)}
    res = simulate(table, pos, 0.0, {"a": (1500.0, 0.0)})
    events = flick_events(res, ["a"], [], table)
    contacts = [e for e in events if isinstance(e, Contact)]
    assert [(e.a, e.b, e.moving) for e in contacts] == [("b", "c", ("b",))]


def test_layout_table_builds_every_piece() -> None:
    s = scenario("strike")
    table = table_of(s.layout, s.params)
    assert {o.name for o in table.obstacles} == set(s.layout.pieces)
    assert position_at(session("strike", 0).timeline.spans["ace"][0].slide and
                       [session("strike", 0).timeline.spans["ace"][0].slide], 0.0) == \
        s.layout.castles[1].guard_spot


@pytest.mark.parametrize("seed", SEEDS)
def test_the_rules_engine_reads_the_ground_truth(seed: int) -> None:
    """The capture scenario is a legal game opening that the engine rules a capture."""
    from referee.rules.base import make_game

    state = make_game("castle-croquetnole", {}).new_state()
    rulings = [r for e in session("capture", seed).events for r in state.apply(e)]
    kinds = [r.kind for r in rulings]
    assert kinds.count("score") == 2 and "capture" in kinds and "foul" not in kinds
    place = next(r for r in rulings if r.kind == "place")
    assert place.coin == "moons" and place.on == "tower-2"
    assert session("capture", seed).events[-1].at == pytest.approx(place.at, abs=0.01)
