"""The peers work as their papers say on cases with one right answer."""

from __future__ import annotations

import numpy as np

from benchmarks.metrics import identity
from benchmarks.peers import Norfair, Sort
from referee.vision.detections import Detections


def crossing_paths(frames: int = 40) -> list[dict[str, tuple[float, float]]]:
    """Two coins sliding at 300 mm/s (10 mm a frame) on parallel lines 60 mm apart."""
    return [{"a": (10.0 * i, 0.0), "b": (400.0 - 10.0 * i, 60.0)} for i in range(frames)]


def test_sort_and_norfair_keep_two_sliding_coins_apart() -> None:
    truth = crossing_paths()
    for tracker in (Sort(), Norfair()):
        hyps = [tracker.update(Detections(np.array(list(f.values())))) for f in truth]
        m = identity(truth, hyps, 9.5)
        assert m["num_switches"] == 0 and m["idf1"] > 0.9, type(tracker).__name__


def test_sort_starts_a_new_track_after_a_long_gap() -> None:
    sort = Sort(max_age=3)
    ids = set()
    for i in range(20):
        seen = Detections(np.array([[0.0, 0.0]])) if not 5 <= i < 12 else Detections.empty()
        ids |= set(sort.update(seen))
    assert len(ids) == 2
