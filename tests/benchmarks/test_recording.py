"""The recording benchmark's measures: a replay read back as the recorder writes it, and its
coins compared with the live run's."""

from pathlib import Path

import numpy as np
import pytest

from benchmarks.clips import Clip
from benchmarks.recording import CLIPS_WRITER, Measured, Run, compare, recorded
from referee.events import Flick


@pytest.mark.parametrize("preset", ["ultrafast", CLIPS_WRITER])
def test_a_recording_reads_back_every_frame_close_to_what_the_camera_gave(
        tmp_path: Path, preset: str) -> None:
    clip = Clip("strike", 100, size=(160, 96), fps=30.0)
    ramp = np.linspace(40, 200, 160, dtype=np.float32)
    frames = [np.dstack([np.tile(ramp + k, (96, 1))] * 3).astype(np.uint8) for k in range(12)]
    back, size, cpu = recorded(frames, clip, preset, 23, tmp_path)
    assert len(back) == len(frames) and size > 0 and cpu >= 0.0
    assert max(float(np.abs(a.astype(int) - b).mean())
               for a, b in zip(back, frames, strict=True)) < 3.0
    assert not list(tmp_path.iterdir()), "the recording is removed once read"


def test_a_replay_behind_the_live_run_is_measured_apart_and_lagging() -> None:
    truth = [{"ace": (0.0, 0.0), "2": (50.0, 0.0)}, {"ace": (20.0, 0.0), "2": (50.0, 0.0)}]
    velocity = [{"ace": np.array([1200.0, 0.0]), "2": np.zeros(2)},
                {"ace": np.array([1200.0, 0.0]), "2": np.zeros(2)}]
    live = Run([{"ace": (0.1, 0.0), "2": (50.0, 0.0)}, {"ace": (20.1, 0.0), "2": (50.0, 0.0)}],
               [Flick(0.5, "ace")], [])
    replay = Run([{"ace": (-0.4, 0.0), "2": (50.0, 0.3)}, {"ace": (19.6, 0.0)}], [], [])
    into = Measured("test")
    compare(live, replay, truth, velocity, 30.0, into)
    assert np.allclose(into.moving_apart, [0.5, 0.5]) and np.allclose(into.rest_apart, [0.3])
    assert np.allclose(into.lag, [0.4, 0.4]), "0.4 mm behind the truth along the path"
    assert np.allclose(into.moving_error, [0.4, 0.4]) and np.allclose(into.rest_error, [0.3])
    assert into.events == {"same": 0, "lost": 1, "invented": 0}
