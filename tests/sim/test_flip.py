"""Flipped coins: a hand puts a coin down showing its other face (issue 4).

The pose shows the other face from the place on (and keeps it through a flick), the ground
truth has the `face` event at the place, and the renderer draws another sprite there.
"""

from __future__ import annotations

import numpy as np
import pytest

from referee.events import Face, Flick, Place
from referee.layout import castle_croquetnole_layout
from referee.sim.look import Look
from referee.sim.render import Renderer
from referee.sim.scenarios import scenario
from referee.sim.script import MoveAction, Scenario, other_face, play, start_positions

LAYOUT = castle_croquetnole_layout()


def test_the_other_face_of_a_knight_and_of_a_guard() -> None:
    assert other_face("moons", "moons") == "null"  # knights are the null coins (G-CCN-51)
    assert other_face("ace", "ace") == "moons"      # a guard's other side is its suit
    assert other_face("4", "4") == "arms"
    assert other_face("moons", "null") == "moons"   # flipped again: the setup face
    with pytest.raises(ValueError):
        other_face("castle", "castle")


def test_the_flip_scenario_shows_the_value_side_after_the_place() -> None:
    s = play(scenario("flip"), 1)
    place = next(e for e in s.events if isinstance(e, Place))
    flick = next(e for e in s.events if isinstance(e, Flick))
    assert s.timeline.coin_pose("moons", place.t - 1.0).face_up == "moons"
    for t in (place.t + 0.01, flick.t + 0.1, s.timeline.duration):
        assert s.timeline.coin_pose("moons", t).face_up == "null", t
    for pose in s.timeline.at(s.timeline.duration).coins:
        if pose.coin != "moons":
            assert pose.face_up == pose.coin


def test_the_face_event_is_in_the_ground_truth_at_the_place() -> None:
    s = play(scenario("flip"), 1)
    faces = [e for e in s.events if isinstance(e, Face)]
    place = next(e for e in s.events if isinstance(e, Place))
    assert faces == [Face(place.t, "moons", "null")]
    assert s.events.index(faces[0]) == s.events.index(place) + 1


def test_a_guard_flipped_twice_shows_its_setup_face_again() -> None:
    spot = start_positions(LAYOUT)["ace"]
    s = play(Scenario("x", "", (MoveAction("ace", spot, flip=True),
                                MoveAction("ace", spot, flip=True))), 0)
    faces = [e for e in s.events if isinstance(e, Face)]
    assert [(e.coin, e.face) for e in faces] == [("ace", "moons"), ("ace", "ace")]
    assert s.timeline.coin_pose("ace", (faces[0].t + faces[1].t) / 2).face_up == "moons"
    assert s.timeline.coin_pose("ace", s.timeline.duration).face_up == "ace"


def test_a_move_without_flip_keeps_the_face() -> None:
    s = play(scenario("tower-hit"), 0)
    assert not [e for e in s.events if isinstance(e, Face)]
    assert all(p.face_up == p.coin for p in s.timeline.at(s.timeline.duration).coins)


def test_the_rendered_coin_differs_after_the_flip() -> None:
    s = play(scenario("flip"), 1)
    place = next(e for e in s.events if isinstance(e, Place))
    renderer = Renderer(LAYOUT, Look.random(2), (1280, 720), 30.0)
    before_sprite = renderer._sprite("moons", "moons")
    after_sprite = renderer._sprite("moons", "null")
    assert not np.array_equal(before_sprite, after_sprite)
    # the coin's pixels, before the lift and after the hand has gone (same place, same angle)
    centre = renderer.camera.project_mm_to_px(np.array([place.at], float))[0]
    (x, y), r = np.rint(centre).astype(int), 12

    def patch(t: float) -> np.ndarray:  # three frames' mean: less of the sensor's noise
        frames = [renderer.frame(s.timeline, round(t * 30) + k) for k in range(3)]
        return np.mean([f[y - r:y + r + 1, x - r:x + r + 1] for f in frames], axis=0)

    still = np.abs(patch(0.1) - patch(0.5)).mean()  # the noise alone
    flipped = np.abs(patch(0.5) - patch(place.t + 0.9)).mean()
    assert flipped > 3 * still, (flipped, still)
