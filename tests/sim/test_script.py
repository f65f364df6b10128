"""Scripted players and the scene timeline the renderer reads."""

from __future__ import annotations

import math

import pytest

from referee.events import Flick, Lift, OffTable, Place
from referee.sim.scenarios import scenario
from referee.sim.scene import Scene, SceneTimeline
from referee.sim.script import (
    FINGER_MS,
    FINGERTIP_RADIUS_MM,
    LEAD_IN_S,
    FlickAction,
    MoveAction,
    Scenario,
    play,
    start_positions,
)


def test_timeline_is_a_scene_timeline() -> None:
    s = play(scenario("gate-run"), 0)
    timeline: SceneTimeline = s.timeline
    assert isinstance(timeline.at(0.0), Scene)
    assert timeline.duration > 0


def test_a_session_starts_with_every_coin_in_its_start_zone() -> None:
    s = play(scenario("strike"), 0)
    layout = s.scenario.layout
    scene = s.timeline.at(0.0)
    assert {c.coin for c in scene.coins} == {"moons", "suns", "crowns", "arms",
                                             "ace", "2", "3", "4"}
    for pose in scene.coins:
        assert pose.visible and pose.face_up == pose.coin
        assert pose.center_mm == start_positions(layout)[pose.coin]
    assert scene.hands == ()
    assert s.timeline.at(LEAD_IN_S * 0.9).hands == ()


def test_the_hand_reaches_in_presses_and_withdraws() -> None:
    s = play(scenario("gate-run"), 0)
    flick = next(e for e in s.events if isinstance(e, Flick))
    before = s.timeline.at(flick.t - 0.5).hands
    assert len(before) == 1 and not before[0].finger_down
    (hand,) = s.timeline.at(flick.t - FINGER_MS / 2000.0).hands
    assert hand.finger_down
    coin = s.timeline.coin_pose("moons", flick.t).center_mm
    assert math.dist(hand.fingertip_mm, coin) == pytest.approx(9.525 + FINGERTIP_RADIUS_MM)
    assert hand.arm_from_mm[1] < -431.8  # player 1 sits south, beyond the table's edge
    assert s.timeline.at(flick.t + 0.3).hands[0].finger_down is False
    assert s.timeline.at(flick.t + 1.0).hands == ()


def test_coins_turn_while_sliding_and_not_at_rest() -> None:
    s = play(scenario("gate-run"), 0)
    t_flick = s.flicks[0]["t"]
    settled = next(e.t for e in s.events if e.type == "settled")
    angles = [s.timeline.coin_pose("moons", t).angle_deg for t in
              (t_flick - 0.2, t_flick, t_flick + 0.1, settled, settled + 0.5)]
    assert angles[0] == angles[1]
    assert angles[2] != angles[1]
    assert angles[3] == pytest.approx(angles[4])


def test_poses_move_continuously() -> None:
    s = play(scenario("strike"), 1)
    t, step = 0.0, 1e-3
    prev = s.timeline.at(0.0)
    while t < s.timeline.duration:
        t += step
        now = s.timeline.at(t)
        for a, b in zip(prev.coins, now.coins, strict=True):
            if a.visible and b.visible:
                assert math.dist(a.center_mm, b.center_mm) < 3.0  # < 3 m/s
        prev = now


def test_lifted_and_fallen_coins_are_out_of_view() -> None:
    s = play(scenario("off-table"), 0)
    fall = next(e for e in s.events if isinstance(e, OffTable))
    place = next(e for e in s.events if isinstance(e, Place))
    assert not s.timeline.coin_pose("arms", (fall.t + place.t) / 2).visible
    after = s.timeline.coin_pose("arms", place.t + 0.01)
    assert after.visible and after.center_mm == place.at
    assert place.at[1] == pytest.approx(-431.8 + 9.525)
    rows = s.tracks(30.0)
    assert not [r for r in rows if r[1] == "arms" and fall.t < r[0] < place.t]
    moved = play(scenario("tower-hit"), 0)
    lift = next(e for e in moved.events if isinstance(e, Lift))
    put = next(e for e in moved.events if isinstance(e, Place))
    assert not moved.timeline.coin_pose("moons", (lift.t + put.t) / 2).visible


def test_a_prisoner_rests_on_the_tower() -> None:
    s = play(scenario("capture"), 0)
    place = s.events[-1]
    assert isinstance(place, Place) and place.on == "tower-2"
    pose = s.timeline.coin_pose("moons", s.timeline.duration)
    assert pose.on == "tower-2" and pose.visible


def test_tracks_rate_and_rows() -> None:
    s = play(scenario("gate-run"), 0)
    rows = s.tracks(10.0)
    times = sorted({r[0] for r in rows})
    assert times[0] == 0.0 and times[1] == pytest.approx(0.1)
    assert len(rows) == len(times) * 8
    with pytest.raises(ValueError, match="positive"):
        s.tracks(0.0)


def test_bad_actions_are_refused() -> None:
    with pytest.raises(ValueError, match="toward_mm"):
        play(Scenario("x", "", (FlickAction("moons"),)), 0)
    with pytest.raises(ValueError, match="did not fall"):
        play(Scenario("x", "", (MoveAction("moons"),)), 0)
    stacked = Scenario("x", "", (MoveAction("moons", (0.0, -254.0), on="tower-1"),
                                 FlickAction("moons", heading_deg=0.0, speed_mm_s=100.0)))
    with pytest.raises(ValueError, match="not resting on the cloth"):
        play(stacked, 0)
    with pytest.raises(ValueError, match="unknown scenario"):
        scenario("nope")


def test_placements_must_be_clear() -> None:
    with pytest.raises(ValueError, match="overlap 'suns'"):
        play(Scenario("x", "", (MoveAction("moons", (-209.55 + 10.0, 0.0)),)), 0)
    with pytest.raises(ValueError, match="overlap 'tower-1'"):
        play(Scenario("x", "", (MoveAction("moons", (0.0, -235.0)),)), 0)
    with pytest.raises(ValueError, match="off the table"):
        play(Scenario("x", "", (MoveAction("moons", (0.0, -500.0)),)), 0)
