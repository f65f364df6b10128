"""The benchmark's reconstructed-path figure: where a flick's fitted motion puts a coin."""

from __future__ import annotations

import numpy as np
import pytest

from benchmarks.clips import Truth
from benchmarks.run import moving_samples, path_at, worst_paths
from referee.vision.reconstruct import FlickWindow
from referee.vision.trajectory import Motion, Slide

DECEL = 0.3 * 9806.65


def test_a_coin_s_path_is_its_flick_s_motion_within_a_frame_of_it_and_nowhere_else() -> None:
    slide = Slide(1.0, (0.0, 0.0), (600.0, 0.0), DECEL, 1.3)
    end = slide.position(slide.t_stop)
    window = FlickWindow({"moons": Motion("moons", [slide], (0.0, 0.0),
                                          (float(end[0]), float(end[1])))},
                         {"suns": (100.0, 100.0)}, 1.0 / 30.0)
    assert path_at([window], "moons", 1.1) == pytest.approx(slide.position(1.1))
    assert np.allclose(path_at([window], "moons", 0.98), (0.0, 0.0))  # a frame before
    assert path_at([window], "moons", 0.9) is None
    assert path_at([window], "moons", slide.t_stop + 0.1) is None
    assert path_at([window], "suns", 1.1) is None  # at rest in this flick


def test_each_moving_coin_frame_is_measured_and_the_farthest_seen_paths_are_listed() -> None:
    slide = Slide(0.0, (0.0, 0.0), (600.0, 0.0), DECEL, 0.3)
    end = slide.position(slide.t_stop)
    fps = 30.0
    window = FlickWindow({"moons": Motion("moons", [slide], (0.0, 0.0),
                                          (float(end[0]), float(end[1])))}, {}, 1.0 / fps)
    frames = range(4)
    on_path = [tuple(slide.position(k / fps)) for k in frames]
    true = [(x + 0.1 * k, y) for k, (x, y) in enumerate(on_path)]  # the path 0.1 mm a frame off
    truth = Truth([{"moons": p, "suns": (90.0, 0.0)} for p in true],
                  [{"moons": True, "suns": False} for _ in frames], [], [])
    found = [{"moons": (x, y + 0.5)} if k != 2 else {} for k, (x, y) in enumerate(true)]
    samples = moving_samples(truth, found, [window], fps)
    assert [s["frame"] for s in samples] == [0, 1, 2, 3]  # the resting coin is left out
    assert [s["detected_mm"] for s in samples] == pytest.approx([0.5, 0.5, None, 0.5])
    assert [s["path_mm"] for s in samples] == pytest.approx([0.0, 0.1, 0.2, 0.3])
    worst = worst_paths(samples, n=2)  # frame 2 was not seen: not among them
    assert [(w["frame"], w["path_mm"]) for w in worst] == [(3, pytest.approx(0.3)),
                                                           (1, pytest.approx(0.1))]
