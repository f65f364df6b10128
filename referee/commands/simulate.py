"""`referee simulate`: play a named scenario on the synthetic table and write its ground truth.

Writes into `--out DIR`: `events.jsonl` (the physical events, CONTRACT.md), `tracks.csv`
(t,coin,x_mm,y_mm at `--rate` Hz), `rulings.jsonl` (what the rules engine rules on those events,
as `referee adjudicate` writes it) and `meta.json` (scenario, seed, physics, the flicks as
played).  The same scenario and seed give byte-identical files.

Video: the command builds a :class:`referee.sim.scene.SceneTimeline` (`build_session`); with
`--video FILE` it hands that timeline to the renderer named in `RENDERER`, which is looked up
only then, so the ground truth never depends on the renderer.
"""

from __future__ import annotations

import argparse
import csv
import importlib
import json
from collections.abc import Callable
from pathlib import Path

from referee.cli import UsageError
from referee.events import write_events
from referee.rules.base import Ruling, make_game, replay
from referee.sim.scenarios import SCENARIOS, scenario
from referee.sim.script import Session, play

NAME = "simulate"
HELP = "play a scripted scenario on the synthetic table; write events, tracks, rulings, metadata"

RENDERER = "referee.sim.render:render_video"
"""The video hook: `render_video(timeline, layout, out_path, *, seed, size, fps) -> None`, with
`seed` the look's (`Look.random(seed)`)."""
VIDEO_SIZES = {"720p": (1280, 720), "1080p": (1920, 1080)}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--scenario", default="gate-run", choices=sorted(SCENARIOS),
                        metavar="NAME",
                        help="the scenario to play: " + ", ".join(SCENARIOS)
                        + " (default: gate-run)")
    parser.add_argument("--seed", type=int, default=0,
                        help="seed of the players' errors (default: 0)")
    parser.add_argument("--out", metavar="DIR",
                        help="write events.jsonl, tracks.csv, rulings.jsonl and meta.json here")
    parser.add_argument("--rate", type=float, default=30.0, metavar="HZ",
                        help="samples per second of tracks.csv (default: 30)")
    parser.add_argument("--video", metavar="FILE",
                        help="also render the session to a video: .mp4 (H.264) or .avi (MJPG)")
    parser.add_argument("--size", choices=sorted(VIDEO_SIZES), default="720p",
                        help="the video's resolution (default: 720p)")
    parser.add_argument("--fps", type=float, default=30.0,
                        help="the video's frame rate (default: 30)")
    parser.add_argument("--look", type=int, metavar="N",
                        help="seed of the video's random look: table, light, camera, coins, "
                        "hand (default: the --seed)")
    parser.add_argument("--list", action="store_true",
                        help="list the scenarios with a line about each, and exit")


def build_session(name: str, seed: int) -> Session:
    """Play the named scenario: its events, tracks and `timeline` (a SceneTimeline)."""
    try:
        return play(scenario(name), seed)
    except ValueError as exc:
        raise UsageError(str(exc)) from None


def run(args: argparse.Namespace) -> int:
    if args.list:
        for name, make in SCENARIOS.items():
            print(f"{name:12s} {' '.join(make().description.split())}")
        return 0
    if not args.out:
        raise UsageError("say where to write the ground truth with --out DIR")
    if not args.rate > 0:
        raise UsageError(f"--rate must be positive, got {args.rate}")
    if not args.fps > 0:
        raise UsageError(f"--fps must be positive, got {args.fps}")
    session = build_session(args.scenario, args.seed)
    out = Path(args.out)
    try:
        out.mkdir(parents=True, exist_ok=True)
        write_outputs(session, out, args.rate)
    except OSError as exc:
        raise UsageError(f"{out}: cannot write ({exc.strerror})") from None
    if args.video:
        render = _renderer()
        render(session.timeline, session.scenario.layout, Path(args.video),
               seed=args.seed if args.look is None else args.look,
               size=VIDEO_SIZES[args.size], fps=args.fps)
    print(f"{args.scenario} seed {args.seed}: {len(session.events)} events, "
          f"{session.timeline.duration:.2f} s, written to {out}")
    return 0


def write_outputs(session: Session, out: Path, rate_hz: float) -> None:
    """events.jsonl, tracks.csv and meta.json of a played session."""
    write_events(session.events, out / "events.jsonl")
    with (out / "tracks.csv").open("w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle, lineterminator="\n")
        writer.writerow(("t", "coin", "x_mm", "y_mm"))
        for t, coin, x, y in session.tracks(rate_hz):
            writer.writerow((f"{t:.6f}", coin, f"{x + 0.0:.6f}", f"{y + 0.0:.6f}"))
    with (out / "rulings.jsonl").open("w", encoding="utf-8") as handle:
        for ruling in session_rulings(session):
            handle.write(json.dumps(ruling.to_json(), separators=(",", ":")) + "\n")
    meta = session.metadata() | {"track_rate_hz": rate_hz,
                                 "files": ["events.jsonl", "tracks.csv", "rulings.jsonl",
                                           "meta.json"]}
    (out / "meta.json").write_text(json.dumps(meta, indent=1) + "\n", encoding="utf-8")


def session_rulings(session: Session) -> list[Ruling]:
    """The rules engine's rulings on the session's events, under the game's default options
    (a single-situation scenario may break turn order: the engine then says so)."""
    return replay(make_game(session.scenario.layout.game), session.events).rulings


def _renderer() -> Callable[..., object]:
    """The renderer's entry point, imported only when a video is asked for."""
    module_name, _, attr = RENDERER.partition(":")
    try:
        return getattr(importlib.import_module(module_name), attr)
    except (ImportError, AttributeError):
        raise UsageError(f"video rendering is not available ({RENDERER} not found)") from None
