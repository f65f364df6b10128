"""Vision against the simulator's ground truth: event recall/precision, timing, positions.

    .venv/bin/python -m benchmarks.vision_accuracy [--looks 2] [--fps 30 60] [--json]

For each scenario × random look × frame rate, the scenario is played (exact physics), filmed by
the simulated webcam at 1280×720, and run through the vision pipeline with the simulated
camera's own mapping.  Reported per event type: recall and precision (an event matches a true
one of the same type, coins, line/piece and direction within 50 ms; `uncertain` events count
as neither found nor invented: they are questions to the players), the median and worst timing
error of matched crossings, the position error of resting coins (RMS) and of moving coins
(p95), and the pipeline's seconds per frame (rendering excluded).
"""

from __future__ import annotations

import argparse
import json
import math
import time
from collections import defaultdict

import numpy as np

from referee.events import Event
from referee.layout import castle_croquetnole_layout
from referee.sim.look import Look
from referee.sim.render import Renderer
from referee.sim.scenarios import scenario
from referee.sim.script import play
from referee.vision.calibrated import mapping_from_camera
from referee.vision.capture import Frame
from referee.vision.pipeline import Pipeline

SCENARIOS = ("gate-run", "strike", "capture", "tower-hit", "off-table", "fast-flick")
KINDS = ("flick", "cross", "contact", "hit", "off_table")


def key(e: Event) -> tuple:
    if e.type == "cross":
        return ("cross", e.coin, e.line, e.dir)
    if e.type == "contact":
        return ("contact", *sorted((e.a, e.b)))
    if e.type == "hit":
        return ("hit", e.coin, e.piece)
    if e.type == "place":
        return ("place", e.coin, e.on)
    return (e.type, e.coin)


def _when(f: Event) -> tuple[float, float]:
    """The times a found event stands for: its own; for a hand's lift or place, which
    happen under the hand, the interval the coin was hidden (its evidence) as well."""
    if f.type in ("lift", "place") and f.evidence and "hidden_from" in f.evidence:
        return (min(f.t, f.evidence["hidden_from"]), max(f.t, f.evidence["hidden_until"]))
    return (f.t, f.t)


def match(truth: list[Event], found: list[Event]) -> tuple[int, int, int, list[float]]:
    """(true positives, misses, inventions, timing errors) for one event type: within
    50 ms of the found event's time (a lift or place: of the time its coin was hidden)."""
    used: set[int] = set()
    tp, errors = 0, []
    for t in truth:
        best = None
        for j, f in enumerate(found):
            lo, hi = _when(f)
            if j in used or key(f) != key(t) or not lo - 0.05 <= t.t <= hi + 0.05:
                continue
            if best is None or abs(f.t - t.t) < abs(found[best].t - t.t):
                best = j
        if best is not None:
            used.add(best)
            tp += 1
            errors.append(abs(found[best].t - t.t))
    invented = sum(1 for j, f in enumerate(found) if j not in used and not f.uncertain)
    return tp, len(truth) - tp, invented, errors


def run_one(name: str, look_seed: int, fps: float, stats: dict) -> None:
    layout = castle_croquetnole_layout()
    session = play(scenario(name), seed=1)
    renderer = Renderer(layout, Look.random(look_seed), (1280, 720), fps)
    pipeline = Pipeline(mapping_from_camera(renderer.camera), layout, (1280, 720), fps)
    found: list[Event] = []
    spent = 0.0
    frames = 0
    for i, image in enumerate(renderer.frames(session.timeline)):
        t = i / fps
        start = time.perf_counter()
        found += pipeline.process(Frame(i, t, image))
        spent += time.perf_counter() - start
        frames += 1
        scene = session.timeline.at(t)
        if pipeline.tracker is None:
            continue
        for pose in scene.coins:
            track = pipeline.tracker.tracks.get(pose.coin)
            if not pose.visible or pose.on or track is None or not track.observations:
                continue
            if abs(track.observations[-1].t - t) > 1e-9:
                continue
            err = math.dist(track.observations[-1].center_mm, pose.center_mm)
            moving = np.hypot(*np.subtract(session.timeline.at(t + 0.01).coins[
                [c.coin for c in scene.coins].index(pose.coin)].center_mm, pose.center_mm)) > 0.05
            stats["moving_err" if moving else "rest_err"].append(err)
    found += pipeline.finish(frames / fps)
    stats["seconds"] += spent
    stats["frames"] += frames
    for kind in KINDS:
        tp, miss, inv, errs = match([e for e in session.events if e.type == kind],
                                    [e for e in found if e.type == kind])
        stats[kind]["tp"] += tp
        stats[kind]["miss"] += miss
        stats[kind]["invented"] += inv
        stats[kind]["t_err"] += errs


def summarise(stats: dict) -> dict:
    out: dict = {}
    for kind in KINDS:
        s = stats[kind]
        truth = s["tp"] + s["miss"]
        reported = s["tp"] + s["invented"]
        out[kind] = {"true": truth, "found": s["tp"], "invented": s["invented"],
                     "recall": round(s["tp"] / truth, 4) if truth else None,
                     "precision": round(s["tp"] / reported, 4) if reported else None,
                     "t_err_ms_median": round(1000 * float(np.median(s["t_err"])), 2)
                     if s["t_err"] else None,
                     "t_err_ms_max": round(1000 * max(s["t_err"]), 2) if s["t_err"] else None}
    rest, moving = np.asarray(stats["rest_err"]), np.asarray(stats["moving_err"])
    out["rest_rms_mm"] = round(float(np.sqrt(np.mean(rest ** 2))), 3) if len(rest) else None
    out["moving_p95_mm"] = round(float(np.percentile(moving, 95)), 3) if len(moving) else None
    out["pipeline_s_per_frame"] = round(stats["seconds"] / max(1, stats["frames"]), 4)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--looks", type=int, default=2, help="random looks per scenario")
    parser.add_argument("--fps", type=float, nargs="+", default=[30.0])
    parser.add_argument("--scenarios", nargs="+", default=list(SCENARIOS))
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    report = {}
    for fps in args.fps:
        stats: dict = defaultdict(list)
        stats.update({k: {"tp": 0, "miss": 0, "invented": 0, "t_err": []} for k in KINDS})
        stats["seconds"], stats["frames"] = 0.0, 0
        for name in args.scenarios:
            for look in range(args.looks):
                run_one(name, 100 + look, fps, stats)
        report[f"{fps:g}fps"] = summarise(stats)
    if args.json:
        print(json.dumps(report, indent=1))
        return
    for rate, r in report.items():
        print(f"== 1280x720 at {rate}, {len(args.scenarios)} scenarios x {args.looks} looks")
        for kind in KINDS:
            k = r[kind]
            print(f"  {kind:9} true {k['true']:3}  found {k['found']:3}  invented "
                  f"{k['invented']:3}  recall {k['recall']}  precision {k['precision']}  "
                  f"timing median {k['t_err_ms_median']} ms, max {k['t_err_ms_max']} ms")
        print(f"  resting coins RMS {r['rest_rms_mm']} mm; moving coins p95 "
              f"{r['moving_p95_mm']} mm; pipeline {r['pipeline_s_per_frame']} s/frame")


if __name__ == "__main__":
    main()
