"""Where a flick leaves each moved coin, as the scoreboard puts it, against the simulator's
truth: the coin's sightings at rest after its motion (what `settled` reports) beside where
its last slide's fit stops (what it reported before).

    .venv/bin/python -m benchmarks.settled_places [--looks 4] [--first 376] [--jobs 2]
        [--scenarios capture strike ...] [--cache benchmarks/.cache]

Per moved coin whose window saw it come to rest: the distance from its true place half a
second after the window settled to each estimate.  A coin more than 20 mm off by both is
left out (a hand moved it again since).  Clips are rendered into the cache once, shared with
`benchmarks.final_states`.
"""

from __future__ import annotations

import math
import os
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np

from benchmarks.clips import Clip, ClipData
from benchmarks.final_states import parsed
from referee.vision.capture import VideoFile
from referee.vision.pipeline import Pipeline, run
from referee.vision.reconstruct import FlickWindow

SETTLED_AFTER_S = 0.5
"""The truth is read this long after a window settled (the coins at rest by then)."""
MOVED_AGAIN_MM = 20.0


def errors(clip: Clip, cache: Path) -> list[tuple[str, str, float, float]]:
    """(clip, coin, fit's stop error, sightings' error) for each moved coin that came to rest
    in view, in millimetres."""
    data = ClipData(clip, cache)
    pipeline = Pipeline(data.mapping, data.layout, clip.size, clip.fps, tiles=data.tiles)
    windows: list[FlickWindow] = []
    pipeline.on_window = windows.append
    for _ in run(VideoFile(data.video), pipeline):
        pass
    out = []
    for window in windows:
        t = (window.t_settled or 0.0) + SETTLED_AFTER_S
        truth = {c.coin: c.center_mm for c in data.session.timeline.at(t).coins}
        for coin, motion in window.motions.items():
            if motion.end_mm is None or coin not in truth:
                continue
            slide = motion.slides[-1]
            fit = math.dist(slide.position(slide.t_stop), truth[coin])
            seen = math.dist(motion.end_mm, truth[coin])
            if min(fit, seen) <= MOVED_AGAIN_MM:
                out.append((clip.name, coin, fit, seen))
    return out


def main(argv: list[str] | None = None) -> int:
    args, clips = parsed(argv)
    rows: list[tuple[str, str, float, float]] = []
    with ProcessPoolExecutor(max(1, min(args.jobs, os.cpu_count() or 1))) as pool:
        for found in pool.map(errors, clips, [args.cache] * len(clips)):
            rows += found
    for name, coin, fit, seen in rows:
        if abs(fit - seen) > 1.0:
            print(f"{name:28s} {coin:7s} fit's stop {fit:5.2f} mm, sightings {seen:5.2f} mm")
    for label, k in (("the last slide's fit stops", 2), ("the sightings at rest", 3)):
        e = np.array([r[k] for r in rows])
        print(f"{label}: median {np.median(e):.2f} mm, 95th percentile "
              f"{np.percentile(e, 95):.2f} mm, largest {e.max():.2f} mm ({len(e)} coins)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
