"""One clip through our pipeline and the peers, timed per stage, scored against its truth.

Timing hooks wrap the pipeline from the outside (instance attributes over its detector's
`detect`, its tracker's `update` and its `_close`, where flicks are reconstructed), so
referee/vision is measured as it is.  Two passes over the video file: decoding alone (the
physical limit for recorded video) and the pipeline, decoding included.  In the second pass
the same frames also go through the pipeline with HoughCircles for a detector; our detector's
detections are recorded and then fed to SORT and norfair, so every tracker sees the same ones.

Times are CPU seconds of the process (`time.process_time`, every thread), which the caller
pins to one core: other work on a shared machine then does not count, and fps = frames / CPU
seconds is what one free core would do.
"""

from __future__ import annotations

import time
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np
from scipy.optimize import linear_sum_assignment

from benchmarks.clips import ClipData, Truth
from benchmarks.peers import HoughDetector, Norfair, Sort
from benchmarks.vision_accuracy import KINDS, match
from referee.events import Event
from referee.vision.capture import Frame
from referee.vision.detections import Detections
from referee.vision.pipeline import Pipeline
from referee.vision.reconstruct import FlickWindow

Positions = dict[Any, tuple[float, float]]
TRACKERS = ("ours", "ours-placed", "ours-in-view", "sort", "norfair", "hough+ours")
"""Hypotheses scored for identity.  "ours" is each coin's detection this frame;
"ours-placed" adds, for every coin without one, where the pipeline places it (a resting coin
under a hand, one missed for a frame: `Pipeline.placed_mm`): what the referee believes each
frame, every coin named.  It is scored against every coin on the table, seen or hidden by a
hand (`Truth.present`): a coin a hand took away but still placed where it lay counts
against it.  "ours-in-view" is the same belief scored only where a camera could see: without
the coins under a hand or in one (`Truth.behind_hand`), against the coins in view."""
WORST_PATHS = 10
"""Seen coin-frames with the farthest paths listed per clip and per group."""


@dataclass
class Timer:
    """CPU seconds spent per stage, summed over frames."""

    seconds: dict[str, float] = field(default_factory=lambda: defaultdict(float))

    def wrap(self, stage: str, fn: Callable) -> Callable:
        def timed(*args, **kwargs):
            start = time.process_time()
            try:
                return fn(*args, **kwargs)
            finally:
                self.seconds[stage] += time.process_time() - start
        return timed


class Instrumented:
    """A Pipeline with timers and a record of each frame's detections and assignments."""

    def __init__(self, pipeline: Pipeline, timer: Timer) -> None:
        self.pipeline, self.timer = pipeline, timer
        self.last: Detections = Detections.empty()
        self.assigned: dict[str, int] = {}
        self._detect = timer.wrap("detect", pipeline.detector.detect)
        pipeline.detector.detect = self._record_detect
        pipeline._close = timer.wrap("reconstruct", pipeline._close)
        bind = pipeline._bind

        def bound(frame: Frame) -> dict[str, tuple[float, float]]:
            start = bind(frame)
            update = timer.wrap("track", pipeline.tracker.update)

            def record_update(*args, **kwargs):
                self.assigned = update(*args, **kwargs)
                return self.assigned
            pipeline.tracker.update = record_update
            return start
        pipeline._bind = bound

    def _record_detect(self, image: np.ndarray, *args, **kwargs):
        detections, hands = self._detect(image, *args, **kwargs)
        self.last = detections
        return detections, hands

    def process(self, frame: Frame) -> tuple[list[Event], Positions]:
        """The frame's events and each coin's detected centre this frame."""
        out = self.timer.wrap("process", self.pipeline.process)(frame)
        centres = self.last.center_mm
        return out, {c: (float(centres[j][0]), float(centres[j][1]))
                     for c, j in self.assigned.items()}

    def finish(self, t: float) -> list[Event]:
        return self.timer.wrap("process", self.pipeline.finish)(t)


def path_at(windows: list[FlickWindow], coin: str, t: float) -> np.ndarray | None:
    """Where the reconstructed flicks put a moving coin at time t (None: no flick's
    motion of it spans t, within a frame either side)."""
    for window in windows:
        motion = window.motions.get(coin)
        if motion is not None and \
                motion.t_start - window.frame_dt <= t <= motion.t_end + window.frame_dt:
            return motion.position(t)
    return None


def moving_samples(truth: Truth, found: list[Positions], windows: list[FlickWindow],
                   fps: float) -> list[dict]:
    """Every coin-frame in which a coin moves: its detection's distance from the truth
    (None: not detected) and its reconstructed path's (None: no flick's motion spans it)."""
    out = []
    for k, (gt, mov, mine) in enumerate(zip(truth.positions, truth.moving, found,
                                            strict=True)):
        for coin, p in gt.items():
            if mov[coin]:
                at = path_at(windows, coin, k / fps)
                out.append({"coin": coin, "frame": k,
                            "detected_mm": _distance(mine.get(coin), p),
                            "path_mm": _distance(at, p)})
    return out


def in_view(placed: list[Positions], truth: Truth) -> list[Positions]:
    """Each frame's placed coins without those no camera sees (`Truth.behind_hand`): a coin
    lifted under a hand is still placed where it lay until the hand leaves its place, and one
    put down under a hand is not placed until it shows."""
    return [{c: p for c, p in frame.items() if c not in truth.behind_hand(k)}
            for k, frame in enumerate(placed)]


def worst_paths(samples: list[dict], n: int = WORST_PATHS) -> list[dict]:
    """The `n` seen coin-frames whose reconstructed path lies farthest from the truth: what
    a group's path p95 is made of (a few hundred coin-frames, so its top few)."""
    seen = [s for s in samples if s["path_mm"] is not None and s["detected_mm"] is not None]
    return sorted(seen, key=lambda s: -s["path_mm"])[:n]


def _distance(a: Any, b: Any) -> float | None:
    return None if a is None else float(np.hypot(*np.subtract(a, b)))


def decode_seconds(path: str) -> tuple[int, float]:
    """Frames and CPU seconds to decode the whole file (cv2.VideoCapture, nothing else)."""
    start = time.process_time()
    cap = cv2.VideoCapture(path)
    n = 0
    while cap.read()[0]:
        n += 1
    cap.release()
    return n, time.process_time() - start


def detection_counts(truth: list[Positions], found: list[np.ndarray], radius: float
                     ) -> dict[str, int]:
    """Detector scores: a detection within `radius` of a coin one should see is a hit."""
    tp = fp = fn = 0
    for gt, det in zip(truth, found, strict=True):
        g = np.array(list(gt.values())).reshape(-1, 2)
        hits = 0
        if len(g) and len(det):
            cost = np.linalg.norm(g[:, None, :] - det[None, :, :], axis=2)
            rows, cols = linear_sum_assignment(cost)
            hits = int(np.sum(cost[rows, cols] <= radius))
        tp, fp, fn = tp + hits, fp + len(det) - hits, fn + len(g) - hits
    return {"tp": tp, "fp": fp, "fn": fn}


def event_counts(truth: list[Event], found: list[Event]) -> dict[str, dict]:
    out = {}
    for kind in KINDS:
        tp, miss, invented, errors = match([e for e in truth if e.type == kind],
                                           [e for e in found if e.type == kind])
        out[kind] = {"tp": tp, "miss": miss, "invented": invented, "t_err": errors}
    return out


def run_clip(data: ClipData) -> dict:
    """Every figure of one clip (raw counts and per-frame tracks, summarised by the report)."""
    clip = data.clip
    n_decoded, decode_s = decode_seconds(str(data.video))
    timer, hough_timer = Timer(), Timer()
    ours = Instrumented(Pipeline(data.mapping, data.layout, clip.size, clip.fps,
                                 tiles=data.tiles), timer)
    hough_pipeline = Pipeline(data.mapping, data.layout, clip.size, clip.fps)
    hough_pipeline.detector = HoughDetector(data.mapping, data.layout, clip.size)
    hough = Instrumented(hough_pipeline, hough_timer)
    windows: list[FlickWindow] = []
    ours.pipeline.on_window = windows.append
    found: dict[str, list[Event]] = {"ours": [], "hough+ours": []}
    hyps: dict[str, list[Positions]] = {name: [] for name in TRACKERS}
    detections: dict[str, list[Detections]] = {"ours": [], "hough": []}
    cap = cv2.VideoCapture(str(data.video))
    i = 0
    while True:
        start = time.process_time()
        ok, image = cap.read()
        timer.seconds["decode"] += time.process_time() - start
        if not ok:
            break
        frame = Frame(i, i / clip.fps, image)
        for name, runner in (("ours", ours), ("hough+ours", hough)):
            events, centres = runner.process(frame)
            found[name] += events
            hyps[name].append(centres)
        hyps["ours-placed"].append(ours.pipeline.placed_mm(frame.t) | hyps["ours"][-1])
        detections["ours"].append(ours.last)
        detections["hough"].append(hough.last)
        i += 1
    cap.release()
    found["ours"] += ours.finish(i / clip.fps)
    found["hough+ours"] += hough.finish(i / clip.fps)
    for name, tracker in (("sort", Sort()), ("norfair", Norfair())):
        update = timer.wrap(name, tracker.update)
        hyps[name] = [update(d) for d in detections["ours"]]
    truth = data.truth(i)
    hyps["ours-in-view"] = in_view(hyps["ours-placed"], truth)
    radius = data.layout.coin_mm / 2.0
    rest = [_distance(mine[coin], p)
            for gt, mov, mine in zip(truth.positions, truth.moving, hyps["ours"], strict=True)
            for coin, p in gt.items() if coin in mine and not mov[coin]]
    samples = moving_samples(truth, hyps["ours"], windows, clip.fps)
    on_path = [s for s in samples if s["path_mm"] is not None]
    stage_s = dict(timer.seconds)
    stage_s["other"] = stage_s["process"] - sum(stage_s.get(k, 0.0) for k in
                                                 ("detect", "track", "reconstruct"))
    return {
        "clip": clip.name, "group": clip.group, "rendered": data.rendered,
        "frames": i, "decoded_frames": n_decoded,
        "decode_only_s": decode_s, "stage_s": stage_s,
        "hough_process_s": hough_timer.seconds["process"],
        "hough_detect_s": hough_timer.seconds["detect"],
        "rest_err_mm": rest,
        "moving_err_mm": [s["detected_mm"] for s in samples if s["detected_mm"] is not None],
        "path_err_mm": [s["path_mm"] for s in on_path if s["detected_mm"] is not None],
        "unseen_path_err_mm": [s["path_mm"] for s in on_path if s["detected_mm"] is None],
        "pathless": len(samples) - len(on_path),
        "worst_paths": worst_paths(samples),
        "events": {name: event_counts(truth.events, f) for name, f in found.items()},
        "detection": {name: detection_counts(truth.positions, [d.center_mm for d in dets],
                                             radius) for name, dets in detections.items()},
        "truth": truth.positions, "present": truth.present, "hyps": hyps,
    }
