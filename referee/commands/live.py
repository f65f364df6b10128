"""`referee live --camera N --calibration PROFILE`: referee a game at the table.

The camera must be there (else one clear line and exit 2); the session records its video so
it can be replayed.  Frames become events in the vision pipeline
(`referee.vision.source.camera_source(index, calibration=…, record_to=…) -> SessionSource`).
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from referee.cli import UsageError
from referee.commands.demo import add_serve_arguments, serve
from referee.commands.replay import load_calibration, vision_source

NAME = "live"
HELP = "referee a game at the table from a USB webcam and serve the web UI"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--camera", type=int, required=True, metavar="N",
                        help="the camera's index (0 for the first webcam)")
    parser.add_argument("--calibration", metavar="PROFILE.json",
                        help="the calibration profile made by `referee calibrate`")
    parser.add_argument("--record-dir", default=None, metavar="DIR",
                        help="where the session's video is recorded (default: beside --db)")
    add_serve_arguments(parser)


def camera_present(index: int) -> bool:
    """True if camera `index` opens and gives a frame."""
    if index < 0:
        return False
    if not Path(f"/dev/video{index}").exists() and Path("/dev").is_dir():
        return False
    import cv2

    cap = cv2.VideoCapture(index)
    try:
        return bool(cap.isOpened() and cap.read()[0])
    finally:
        cap.release()


def run(args: argparse.Namespace) -> int:
    if not camera_present(args.camera):
        raise UsageError(f"no camera {args.camera} found (is the webcam plugged in? "
                         f"try another --camera index)")
    calibration = load_calibration(args.calibration)
    if calibration is None:
        raise UsageError("--calibration PROFILE.json is needed (make one with "
                         "`referee calibrate`)")
    record_dir = Path(args.record_dir) if args.record_dir else Path(args.db).parent / "videos"
    record_to = record_dir / time.strftime("live-%Y%m%d-%H%M%S.mp4")
    source = vision_source("camera_source", args.camera, calibration=calibration,
                           record_to=str(record_to))
    return serve(args, source, label=f"live camera {args.camera}", calibration=calibration)
