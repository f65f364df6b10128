"""The scoreboard a player would see, across random looks: each scripted scenario filmed by
the simulated webcam under several looks, run through vision with the camera's own mapping,
and its events folded by the rules engine, against the same fold of the true events.

    .venv/bin/python -m benchmarks.final_states [--scenarios capture strike ...]
        [--looks 8] [--first 100] [--fps 30] [--cache benchmarks/.cache] [--jobs 2]

Per clip: found / true + invented for each event type, lifts and places included (matched
as in `benchmarks.vision_accuracy`), and whether the final state is the true one (`same`:
every field equal, but a place the players are asked to put a coin on, which vision
measures and the true events give exactly, within the engine's own placement tolerance);
then how many clips of each scenario end there, how many are right in every event, and
each event type's recall and precision over them all.  Clips are rendered once into the
cache (about 10 s each), shared with `python -m benchmarks`.  With `--jobs`, clips are
rendered and run that many at once (the lines come out in the same order).
"""

from __future__ import annotations

import argparse
import math
import os
import sys
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from benchmarks.clips import Clip, ClipData
from benchmarks.vision_accuracy import KINDS, SCENARIOS, match
from referee.events import Event
from referee.rules import make_game, replay
from referee.vision.capture import VideoFile
from referee.vision.pipeline import Pipeline, run

ROOT = Path(__file__).resolve().parents[1]
TYPES = (*KINDS, "lift", "place")


def final_state(events: list[Event]) -> dict:
    """The final-state summary of Castle Croquetnole folded over `events`."""
    return replay(make_game("castle-croquetnole", {}), events).state.summary()


PLACE_MM = 2.0
"""How near two places to put a coin must be to be the same instruction (the engine's
`eps_place`, RULES-SPEC §1.2)."""


def same(true: object, found: object, key: str = "") -> bool:
    """Are two final-state summaries the same, the places asked for (`at`) within
    PLACE_MM of each other?"""
    if isinstance(true, dict) and isinstance(found, dict):
        return true.keys() == found.keys() and all(same(true[k], found[k], k) for k in true)
    if key == "at" and isinstance(true, list) and isinstance(found, list):
        return len(true) == len(found) == 2 and \
            math.dist(true, found) <= PLACE_MM
    if isinstance(true, list) and isinstance(found, list):
        return len(true) == len(found) and all(same(a, b) for a, b in zip(true, found,
                                                                           strict=True))
    return true == found


def judged(clip: str, truth: list[Event], found: list[Event]) -> dict:
    """A clip's found / true + invented events of each type, and whether the rules engine
    ends in the same state on vision's events as on the true ones."""
    counts = {}
    for kind in TYPES:
        t = [e for e in truth if e.type == kind]
        g = [e for e in found if e.type == kind]
        if t or g:
            tp, _, invented, _ = match(t, g)
            counts[kind] = {"found": tp, "true": len(t), "invented": invented}
    return {"clip": clip, "events": counts,
            "same_final_state": same(final_state(truth), final_state(found))}


def row(result: dict, width: int) -> str:
    """One clip's line: its counts and its verdict."""
    cells = "  ".join(f"{k} {v['found']}/{v['true']}+{v['invented']}"
                      for k, v in result["events"].items())
    verdict = "same final state" if result["same_final_state"] else "final state differs"
    return f"{result['clip']:{width}s} {cells}  — {verdict}"


def measure(data: ClipData) -> dict:
    """One clip's event counts and whether its final state is the true one."""
    clip = data.clip
    video = VideoFile(data.video)
    try:
        found = list(run(video, Pipeline(data.mapping, data.layout, clip.size, clip.fps,
                                         tiles=data.tiles)))
    finally:
        video.close()
    return judged(clip.name, list(data.session.events), found)


def _measured(clip: Clip, cache: Path) -> dict:
    """`measure` of a clip named by its description (a worker renders it if need be)."""
    return measure(ClipData(clip, cache))


def parsed(argv: list[str] | None = None) -> tuple[argparse.Namespace, list[Clip]]:
    """The command line, and the clips it names: each scenario under each look."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenarios", nargs="+", default=list(SCENARIOS))
    parser.add_argument("--looks", type=int, default=8, help="random looks per scenario")
    parser.add_argument("--first", type=int, default=100, help="the first look's seed")
    parser.add_argument("--fps", type=float, default=30.0, choices=(30.0, 60.0),
                        help="the webcam's frame rate (720p either way)")
    parser.add_argument("--cache", type=Path, default=ROOT / "benchmarks" / ".cache")
    parser.add_argument("--jobs", type=int, default=1,
                        help="clips rendered and run at once (one process each)")
    args = parser.parse_args(argv)
    return args, [Clip(scenario, look, fps=args.fps) for scenario in args.scenarios
                  for look in range(args.first, args.first + args.looks)]


def main(argv: list[str] | None = None) -> int:
    args, clips = parsed(argv)
    same: Counter[str] = Counter()
    right = 0
    events: dict[str, Counter[str]] = {}
    with ProcessPoolExecutor(max(1, min(args.jobs, os.cpu_count() or 1))) as pool:
        for clip, r in zip(clips, pool.map(_measured, clips, [args.cache] * len(clips)),
                           strict=True):
            same[clip.scenario] += r["same_final_state"]
            right += all(v["found"] == v["true"] and not v["invented"]
                         for v in r["events"].values())
            for kind, v in r["events"].items():
                events.setdefault(kind, Counter()).update(v)
            print(row(r, 28), flush=True)
    total = sum(same.values())
    print(f"the true final state in {total} of {len(args.scenarios) * args.looks} clips: "
          + ", ".join(f"{s} {same[s]}/{args.looks}" for s in args.scenarios))
    print(f"every event right in {right} clips; " + totals(events))
    return 0


def totals(events: dict[str, Counter[str]]) -> str:
    """Each event type's recall and precision over all the clips (found / true, found /
    found + invented)."""
    cells = []
    for kind in (k for k in TYPES if k in events):
        c = events[kind]
        recall = c["found"] / c["true"] if c["true"] else math.nan
        precision = c["found"] / (c["found"] + c["invented"]) if c["found"] + c[
            "invented"] else math.nan
        cells.append(f"{kind} {c['found']}/{c['true']}+{c['invented']} "
                     f"(R {recall:.4f}, P {precision:.4f})")
    return "; ".join(cells)


if __name__ == "__main__":
    sys.exit(main())
