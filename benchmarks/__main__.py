"""Vision against the peers: `python -m benchmarks` writes the report and checks the floors.

    .venv/bin/python -m benchmarks                    # full report (about 10 min), README block
    .venv/bin/python -m benchmarks --quick            # the CI clip only (under a minute)
    .venv/bin/python -m benchmarks --update-floors    # ... and raise floors (never lowers one)

Clips are rendered once into `--cache` (deterministic).  The whole run is pinned to one core
with OpenCV on one thread, so every fps is a one-core figure.  Writes report.md, report.json
and PNG plots into `--out`; exit 1 when a figure is below its floor (benchmarks/floors.json).
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import cv2

from benchmarks import floors as fl
from benchmarks import markdown, plots, report
from benchmarks.clips import Clip, ClipData
from benchmarks.run import run_clip

ROOT = Path(__file__).resolve().parents[1]
SCENARIOS = ("gate-run", "strike", "tower-hit", "off-table", "fast-flick")
QUICK = [Clip("strike", 100)]


def full_clips(looks: int) -> list[Clip]:
    """Each scenario in `looks` looks of its own (no two clips share a look), at 720p30;
    gate-run at 1080p30 for speed and accuracy at the larger size; and every scenario once
    at 720p60, the rate the issue's tighter moving-coin figure is set for (gate-run in the
    look of its 720p30 and 1080p30 clips, the others in looks of their own)."""
    clips = [Clip(s, 100 + looks * i + k) for i, s in enumerate(SCENARIOS) for k in range(looks)]
    fresh = 100 + len(SCENARIOS) * looks
    at_60 = [Clip("gate-run", 100, fps=60.0), Clip("fast-flick", fresh, fps=60.0)]
    at_60 += [Clip(s, fresh + 1 + i, fps=60.0) for i, s in enumerate(SCENARIOS[1:-1])]
    return [*clips, Clip("gate-run", 100, (1920, 1080)), *at_60]


def one_core(core: int | None = None) -> None:
    """Pin this process to one core (the first it may use, or the `core`-th) and OpenCV to
    one thread."""
    if hasattr(os, "sched_setaffinity"):
        cores = sorted(os.sched_getaffinity(0))
        os.sched_setaffinity(0, {cores[(core or 0) % len(cores)]})
    cv2.setNumThreads(1)


def _worker_init(counter) -> None:
    with counter.get_lock():
        core = counter.value
        counter.value += 1
    one_core(core)


def _run(clip: Clip, cache: Path) -> tuple[dict, float]:
    start = time.perf_counter()
    return run_clip(ClipData(clip, cache)), time.perf_counter() - start


def run_all(clips: list[Clip], cache: Path, jobs: int, log=print) -> list[dict]:
    """Every clip's results, in order; with `jobs` > 1, one process per core, each pinned to
    its own core (so each figure is still a one-core figure)."""
    if jobs <= 1:
        done = [_run(c, cache) for c in clips]
    else:
        counter = mp.Value("i", 0)
        with ProcessPoolExecutor(jobs, mp_context=mp.get_context("fork"),
                                 initializer=_worker_init, initargs=(counter,)) as pool:
            order = sorted(range(len(clips)), key=lambda i: -clips[i].size[0])
            futures = {i: pool.submit(_run, clips[i], cache) for i in order}
            done = [futures[i].result() for i in range(len(clips))]
    for clip, (result, seconds) in zip(clips, done, strict=True):
        log(f"  {clip.name}: {result['frames']} frames, {seconds:.0f} s")
    return [r for r, _ in done]


def build(clips: list[Clip], cache: Path, out: Path, command: str, jobs: int = 1,
          log=print) -> tuple[dict, list[dict]]:
    """Run every clip; write report.json, report.md and the plots into `out`."""
    start = time.perf_counter()
    results = run_all(clips, cache, jobs, log)
    layout_radius = ClipData(clips[0], cache).layout.coin_mm / 2.0
    groups: dict[str, list[dict]] = {}
    for r in results:
        groups.setdefault(r["group"], []).append(r)
    rep = {"command": command, "machine": report.machine(jobs), "radius_mm": layout_radius,
           "groups": {g: report.group_figures(rs, layout_radius) for g, rs in groups.items()}}
    rep["wall_s"] = round(time.perf_counter() - start, 1)
    rep["clips_rendered"] = sum(bool(r["rendered"]) for r in results)
    rep["clips"] = len(results)
    out.mkdir(parents=True, exist_ok=True)
    report.write_json(rep, out)
    plots.fps_bars(rep, out)
    for g, rs in groups.items():
        plots.error_histogram(g, rs, out)
        plots.trajectories(g, rs[0], out)
    (out / "report.md").write_text(markdown.report_markdown(rep))
    return rep, results


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="the CI clip only")
    parser.add_argument("--looks", type=int, default=2, help="looks per scenario (full run)")
    parser.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "report",
                        help="where report.md, report.json and the plots go")
    parser.add_argument("--cache", type=Path, default=ROOT / "benchmarks" / ".cache",
                        help="rendered clips, kept between runs")
    parser.add_argument("--update-floors", action="store_true",
                        help="raise the floors to the measured figures (never lowers one)")
    parser.add_argument("--lower-floors", metavar="REASON",
                        help="set the floors to the measured figures even where that lowers "
                             "them; the reason goes into the floors' history")
    parser.add_argument("--no-readme", action="store_true",
                        help="do not rewrite the README's generated block (full run)")
    parser.add_argument("--readme", type=Path, default=ROOT / "README.md",
                        help="the README whose generated block a full run rewrites")
    parser.add_argument("--jobs", type=int, default=min(2, os.cpu_count() or 1),
                        help="clips run at once, each process pinned to its own core")
    args = parser.parse_args(argv)
    if args.quick:
        args.jobs = 1
    if args.jobs <= 1:
        one_core()
    command = "python -m benchmarks" + (" --quick" if args.quick else "") + (
        f" --looks {args.looks}" if args.looks != 2 and not args.quick else "")
    clips = QUICK if args.quick else full_clips(args.looks)
    section = "quick" if args.quick else "full"
    rep, _ = build(clips, args.cache, args.out, command, args.jobs,
                   log=lambda line: print(line, flush=True))
    print(f"report: {args.out / 'report.md'} ({rep['wall_s']:.0f} s)")
    if not args.quick and not args.no_readme and \
            markdown.update_readme(args.readme, markdown.readme_block(rep)):
        print(f"{args.readme}: generated block updated")
    figures = report.flat(rep)
    if not args.quick and args.looks != 2:
        print("floors hold for the default clips (--looks 2): not checked")
        return 0
    if args.update_floors or args.lower_floors:
        changed, refused = fl.update(figures, section, list(rep["groups"]),
                                     event_slack=section == "full",
                                     lower_because=args.lower_floors)
        for name, (old, new) in changed.items():
            print(f"floor {name}: {old} -> {new}")
        for line in refused:
            print(f"refused: {line}", file=sys.stderr)
        if refused:
            return 1
    verdict = fl.check(figures, section)
    for line in verdict.below + verdict.missing:
        print(f"BELOW FLOOR {line}", file=sys.stderr)
    for line in verdict.raise_:
        print(line)
    return 0 if verdict.ok else 1


if __name__ == "__main__":
    sys.exit(main())
