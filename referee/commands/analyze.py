"""`referee analyze`: a recorded video → the physical events of the contract (and tracks)."""

from __future__ import annotations

import argparse
import csv
import sys
from pathlib import Path

from tqdm import tqdm

from referee.cli import UsageError
from referee.events import write_events

NAME = "analyze"
HELP = "find, track and rebuild every flick of a video; write its physical events (JSONL)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("video", metavar="VIDEO", help="a recorded session (mp4, avi, …)")
    parser.add_argument("--calibration", required=True, metavar="PROFILE.json",
                        help="the calibration profile of this camera and table")
    parser.add_argument("--out", required=True, metavar="EVENTS.jsonl",
                        help="where to write the events")
    parser.add_argument("--tracks", metavar="TRACKS.csv",
                        help="also write every coin's centre per frame (t,coin,x_mm,y_mm)")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")


def run(args: argparse.Namespace) -> int:
    from calibration.profile import ProfileError
    from referee.vision.calibrated import load, pipeline_for
    from referee.vision.capture import VideoError, VideoFile

    try:
        profile = load(args.calibration)
    except (ProfileError, OSError, ValueError) as exc:
        raise UsageError(str(exc).splitlines()[0]) from None
    try:
        video = VideoFile(args.video)
    except VideoError as exc:
        raise UsageError(str(exc)) from None
    if tuple(video.size) != tuple(profile.image_size):
        raise UsageError(f"{args.video}: the video is {video.size[0]}x{video.size[1]} but the "
                         f"calibration was made at {profile.image_size[0]}x"
                         f"{profile.image_size[1]}")
    pipeline = pipeline_for(profile, video.size, video.fps)
    events = []
    rows: list[tuple[float, str, float, float]] = []
    last_t = 0.0
    bar = tqdm(total=video.frame_count or None, unit="frame", disable=args.quiet,
               desc="analyze")
    try:
        for frame in video:
            last_t = frame.t
            events += pipeline.process(frame)
            if args.tracks and pipeline.tracker is not None:
                for coin, track in pipeline.tracker.tracks.items():
                    if track.observations and track.observations[-1].t == frame.t:
                        x, y = track.observations[-1].center_mm
                        rows.append((frame.t, coin, x, y))
            bar.update(1)
    except VideoError as exc:
        raise UsageError(str(exc)) from None
    finally:
        bar.close()
        video.close()
    events += pipeline.finish(last_t)
    events.sort(key=lambda e: e.t)
    short = video.cut_short()
    if short:
        print(f"note: {short}; its events up to there are written", file=sys.stderr)
    try:
        write_events(events, args.out)
        if args.tracks:
            with Path(args.tracks).open("w", newline="", encoding="utf-8") as handle:
                writer = csv.writer(handle)
                writer.writerow(["t", "coin", "x_mm", "y_mm"])
                writer.writerows((f"{t:.4f}", c, f"{x:.2f}", f"{y:.2f}") for t, c, x, y in rows)
    except OSError as exc:
        raise UsageError(f"cannot write ({exc.strerror}): {exc.filename}") from None
    return 0
