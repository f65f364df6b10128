"""The tracker's identities through a strike, on detections with known answers."""

from __future__ import annotations

import numpy as np

from referee.vision.detections import Detections
from referee.vision.kalman import MotionModel
from referee.vision.track import Tracker

RADIUS = 9.525
DT = 1 / 60


def seen(*centres: tuple[float, float]) -> Detections:
    return Detections(np.array(centres, float), np.full(len(centres), RADIUS))


def test_the_striker_stops_at_the_coin_it_strikes_and_the_struck_coin_leaves() -> None:
    """Suns slides at 2.7 m/s into Arms at rest; a frame later Arms has left (5 mm on) and
    Suns stands short of it: the striker's speed must not carry its name onto Arms."""
    tracker = Tracker({"suns": (76.0, 0.0), "arms": (210.0, 0.0)}, 0.0, MotionModel())
    for k, x in enumerate((76.0, 121.0, 166.0), start=1):
        tracker.update(k * DT, seen((x, 0.0), (210.0, 0.0)))
    assigned = tracker.update(4 * DT, seen((215.0, 0.0), (191.0, 0.0)))
    assert assigned == {"suns": 1, "arms": 0}


def test_a_coin_sliding_past_a_resting_one_keeps_its_speed_in_the_gate() -> None:
    tracker = Tracker({"suns": (76.0, 40.0), "arms": (210.0, 0.0)}, 0.0, MotionModel())
    for k, x in enumerate((76.0, 121.0, 166.0), start=1):
        tracker.update(k * DT, seen((x, 40.0), (210.0, 0.0)))  # 40 mm aside: no contact
    assigned = tracker.update(4 * DT, seen((210.0, 0.0), (211.0, 40.0)))
    assert assigned == {"suns": 1, "arms": 0}


def streak(centre: tuple[float, float], length_mm: float) -> Detections:
    """One blob blurred along the table's x axis, `length_mm` beyond a coin's diameter."""
    return Detections(np.array([centre], float), np.array([RADIUS]),
                      np.array([length_mm]), np.array([[1.0, 0.0]]))


def launched(tracker: Tracker, dt: float) -> None:
    """Suns at rest at (-209, 0) for three frames, then its launch frame: a 33 mm streak
    (about 1 m/s at least within one exposure) centred 2.5 mm on."""
    for k in range(1, 4):
        tracker.update(k * dt, seen((-209.0, 0.0)))
    tracker.update(4 * dt, streak((-206.5, 0.0), 33.0))


def test_a_launched_coin_is_the_streak_ahead_not_the_fingertip_where_it_rested() -> None:
    """Fast flick at look 101: a frame after the launch a fingertip fragment lies 12 mm
    behind the coin's place and the coin's streak 95 mm ahead; the launch streak says the
    coin moved at least its length on, so the fragment is not it."""
    tracker = Tracker({"suns": (-209.0, 0.0)}, 0.0, MotionModel())
    dt = 1 / 30
    launched(tracker, dt)
    fragment_and_coin = seen((-221.7, -1.3)).extended(streak((-111.7, 0.3), 37.0))
    assert tracker.update(5 * dt, fragment_and_coin) == {"suns": 1}


def test_a_launched_coin_may_stop_at_once_against_a_coin_on_its_line() -> None:
    """With Arms resting 25 mm ahead on the streak's line the coin may have struck it and
    stopped within the frame: it is taken near its launch."""
    tracker = Tracker({"suns": (-209.0, 0.0), "arms": (-184.0, 0.0)}, 0.0, MotionModel())
    dt = 1 / 30
    for k in range(1, 4):
        tracker.update(k * dt, seen((-209.0, 0.0), (-184.0, 0.0)))
    tracker.update(4 * dt, streak((-206.5, 0.0), 33.0).extended(seen((-184.0, 0.0))))
    assigned = tracker.update(5 * dt, seen((-203.0, 0.0), (-170.0, 0.0)))
    assert assigned["suns"] == 0
