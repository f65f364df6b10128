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
