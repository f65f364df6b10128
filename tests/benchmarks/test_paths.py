"""The benchmark's reconstructed-path figure: where a flick's fitted motion puts a coin."""

from __future__ import annotations

import numpy as np
import pytest

from benchmarks.run import path_at
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
