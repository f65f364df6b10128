"""The peers work as their papers say on cases with one right answer."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from benchmarks.metrics import identity
from benchmarks.peers import HoughDetector, Norfair, Sort, hough_circles
from benchmarks.tud import realdata_dir
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


REAL = realdata_dir().parent


@pytest.mark.skipif(not (REAL / "opencv-samples").is_dir(), reason="shared/realdata missing")
def test_the_hough_baseline_counts_real_coins_and_candies() -> None:
    """The baseline's recipe, with the benchmark's settings, on real photos (REFERENCE.md):
    24 touching coins of radius ~24 px; 14 candies of radius 26–28 px, the 12 whole ones at
    the published centres."""
    coins = cv2.imread(str(REAL / "opencv-samples/circles/water_coins.jpg"))
    assert len(hough_circles(coins, 24.0)) == 24
    candies = hough_circles(cv2.imread(str(REAL / "opencv-samples/circles/smarties.png")), 27.0)
    assert len(candies) == 14
    whole = np.array([(32, 230), (100, 260), (134, 328), (152, 274), (206, 210), (220, 306),
                      (270, 116), (286, 214), (294, 320), (348, 238), (376, 82), (386, 170)])
    nearest = np.linalg.norm(whole[:, None, :] - candies[None, :, :2], axis=2).min(axis=1)
    assert nearest.max() < 3.0


def test_the_hough_baseline_runs_in_our_pipeline() -> None:
    """The baseline "HoughCircles + our tracker" swaps a `Pipeline`'s detector: it must
    answer all the pipeline asks of one (`python -m benchmarks` stopped when it did not)."""
    from referee.vision.pipeline import Pipeline, start_spots
    from referee.vision.source import Frame
    from tests.vision.test_detect import LAYOUT, LIGHT_COIN, SIZE, frame, mapping

    pipeline = Pipeline(mapping(), LAYOUT, SIZE, 30.0)
    pipeline.detector = HoughDetector(mapping(), LAYOUT, SIZE)
    image = frame({p: LIGHT_COIN for p in start_spots(LAYOUT).values()}, 0)
    for i in range(3):
        pipeline.process(Frame(i, i / 30.0, image))
    assert pipeline.tracker is not None
