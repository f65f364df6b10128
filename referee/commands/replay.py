"""`referee replay VIDEO`: serve the web referee over a recorded session.

An events file (`.jsonl`) replays today; a video needs the vision pipeline, which provides
`referee.vision.source.video_source(path, speed=…, calibration=…) -> SessionSource`.
"""

from __future__ import annotations

import argparse
import importlib
import json
from pathlib import Path
from typing import Any

from referee.cli import UsageError
from referee.commands.demo import add_serve_arguments, serve
from referee.events import EventFormatError
from referee.session import EventFileSource, SessionSource

NAME = "replay"
HELP = "serve the web referee over a recorded session (a video, or an events .jsonl file)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("video", metavar="VIDEO", help="a recorded video or an events .jsonl")
    parser.add_argument("--calibration", metavar="PROFILE.json",
                        help="the calibration profile of the camera that recorded the video")
    parser.add_argument("--speed", type=float, default=1.0,
                        help="replay speed, × real time (default 1)")
    add_serve_arguments(parser)


def load_calibration(path: str | None) -> dict[str, Any] | None:
    """The calibration profile as JSON data (stored with the session), or None."""
    if path is None:
        return None
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as exc:
        raise UsageError(f"{path}: cannot read ({exc.strerror})") from None
    except (json.JSONDecodeError, UnicodeDecodeError):
        raise UsageError(f"{path}: not a JSON calibration profile") from None
    if not isinstance(data, dict):
        raise UsageError(f"{path}: not a JSON calibration profile")
    from calibration.profile import ProfileError, profile_from_json

    try:  # every problem now, named by the file (the source reads it again later)
        profile_from_json(data, path)
    except ProfileError as exc:
        raise UsageError(str(exc)) from None
    return data


def vision_source(factory: str, *args: Any, **kwargs: Any) -> SessionSource:
    """A source from the vision pipeline, or a one-line error while it is not there."""
    try:
        module = importlib.import_module("referee.vision.source")
        make = getattr(module, factory)
    except (ImportError, AttributeError):
        raise UsageError("the vision pipeline (referee.vision.source) is not available yet; "
                         "replay an events .jsonl file instead") from None
    return make(*args, **kwargs)  # type: ignore[no-any-return]


def run(args: argparse.Namespace) -> int:
    path = Path(args.video)
    if not path.is_file():
        raise UsageError(f"{args.video}: no such file")
    calibration = load_calibration(args.calibration)
    if path.suffix.lower() in (".jsonl", ".json"):
        try:
            source: SessionSource = EventFileSource(path, speed=args.speed)
        except (EventFormatError, ValueError) as exc:
            raise UsageError(str(exc)) from None
    else:
        source = vision_source("video_source", str(path), speed=args.speed,
                               calibration=calibration)
    return serve(args, source, label=f"replay {path.name}", calibration=calibration)
