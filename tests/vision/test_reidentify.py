"""Coins that exchanged names in a collision get them back by their looks at rest."""

from __future__ import annotations

import numpy as np

from referee.vision.kalman import MotionModel
from referee.vision.reidentify import closest_approach, exchange_time, exchanged
from referee.vision.track import Tracker

START = {"suns": np.array([0.562, 0.629, 0.681]), "arms": np.array([0.620, 0.661, 0.647]),
         "2": np.array([0.565, 0.644, 0.695]), "moons": np.array([0.543, 0.629, 0.618])}
"""Session-start looks of the fast-flick clip, look 108 (Suns and its guard 2 alike)."""


def test_two_coins_reading_as_each_other_exchange_their_names() -> None:
    now = {"suns": START["arms"] + 0.008, "arms": START["suns"] - 0.01,
           "moons": START["moons"] + 0.005}
    assert exchanged(["suns", "arms", "moons"], now, START) == [("suns", "arms")]


def test_coins_reading_as_themselves_keep_their_names() -> None:
    now = {c: look + 0.01 for c, look in START.items()}
    assert exchanged(list(START), now, START) == []


def test_a_knight_and_its_own_guard_are_too_alike_to_exchange() -> None:
    now = {"suns": START["2"], "2": START["suns"]}  # 0.02 apart: no clear fit either way
    assert exchanged(["suns", "2"], now, START) == []


def test_a_coin_that_did_not_move_is_not_exchanged() -> None:
    now = {"suns": START["arms"], "arms": START["suns"]}
    assert exchanged(["suns"], now, START) == []


def test_the_exchange_is_from_when_the_two_came_closest() -> None:
    a = [(0.0, 0.0, 0.0), (0.1, 10.0, 0.0), (0.2, 20.0, 0.0), (0.3, 30.0, 0.0)]
    b = [(0.1, 40.0, 0.0), (0.2, 21.0, 0.0), (0.3, 15.0, 0.0)]
    assert closest_approach(a, b, since=0.0) == 0.2
    assert closest_approach(a, [(0.5, 0.0, 0.0)], since=0.05) == 0.05  # never seen together


def test_a_contact_frame_seen_as_one_blob_exchanges_the_names_a_frame_before_the_closest() -> None:
    """Capture at look 218: striker 2 stops on Moons' old place, Moons leaves; the contact
    frame (0.3) shows one blob, taken by the striker.  The next frame, where they came
    closest as named, already had the names crossed: Moons kept the striker's place there."""
    moons = [(0.0, 0.0, 0.0), (0.1, 0.0, 0.0), (0.2, 0.0, 0.0),
             (0.4, -15.0, 0.0), (0.5, -15.0, 0.0)]            # the striker's stop
    striker = [(0.0, -80.0, 0.0), (0.1, -55.0, 0.0), (0.2, -35.0, 0.0), (0.3, -14.0, 0.0),
               (0.4, 12.0, 0.0), (0.5, 25.0, 0.0)]            # Moons leaving
    assert closest_approach(moons, striker, since=0.0) == 0.4
    assert exchange_time(moons, striker, since=0.0) == 0.3
    # named right up to the closest approach: the exchange stays after it
    assert exchange_time([*moons[:3], (0.4, 12.0, 0.0), (0.5, -15.0, 0.0)],
                         [*striker[:4], (0.4, -15.0, 0.0), (0.5, 25.0, 0.0)], since=0.0) == 0.4


def test_two_coins_that_never_met_exchange_their_names_where_an_arm_hid_both() -> None:
    """Capture at look 568: an arm sweeps over resting Moons and guard 2, 177 mm apart, and
    each comes out from under it with the other's name.  Their closest approach as named is
    the first frame both were seen in (any frame: they never moved); the exchange belongs
    where both were unseen, between Moons' last sighting (0.5) and its next (0.7), and the
    fragment of the arm taken for guard 2 (0.6) stays with one of them."""
    moons_place, guard_place = (-105.0, 140.0), (-254.0, 45.0)
    moons = [(t, *moons_place) for t in (0.1, 0.2, 0.3, 0.4, 0.5)] + \
        [(t, *guard_place) for t in (0.7, 0.8, 0.9)]
    guard = [(t, *guard_place) for t in (0.1, 0.2)] + [(0.6, -161.0, 73.0)] + \
        [(t, *moons_place) for t in (0.8, 0.9)]
    assert exchange_time(moons, guard, since=0.0) in (0.5, 0.6)


def test_the_tracker_exchanges_beliefs_and_the_observations_after_the_collision() -> None:
    tracker = Tracker({"suns": (0.0, 0.0), "arms": (100.0, 0.0)}, 0.0, MotionModel())
    suns, arms = tracker.tracks["suns"], tracker.tracks["arms"]
    suns_filter, arms_filter = suns.filter, arms.filter
    tracker.exchange("suns", "arms", since=0.0)
    assert tracker.tracks["suns"].filter is arms_filter
    assert tracker.tracks["arms"].filter is suns_filter
    assert tracker.tracks["suns"].position_mm == (100.0, 0.0)
