"""`referee calibrate`: table plane, fitted layout and (optionally) lens from one image or video.

CONTRACT.md: `referee calibrate SOURCE --layout castle-croquetnole --out PROFILE.json
[--corners "x,y x,y x,y x,y"] [--table-mm W,H]`; `--verify PROFILE.json` checks a new still
against a saved profile instead (exit 1 when the camera moved or a tile was knocked).  When the
still shows the session start (every coin on its start spot), the coins' faces are learned
into the profile (calibration.session_start); otherwise a note says vision will use the
built-in model.
"""

from __future__ import annotations

import argparse
import json
import re
from pathlib import Path
from typing import TYPE_CHECKING

from referee.cli import UsageError

if TYPE_CHECKING:  # the heavy imports (OpenCV) wait until the command runs
    from calibration.intrinsics import Intrinsics
    from calibration.profile import CalibrationProfile
    from referee.layout import Layout

NAME = "calibrate"
HELP = ("calibrate the camera over the table from an image or video (its first still second); "
        "write the calibration profile (with each coin's faces when the still shows the "
        "session start) and report its residuals and every layout problem")

LAYOUTS = ("castle-croquetnole", "castle-croquetnole-corners")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("source", metavar="SOURCE", help="an image or a video of the table")
    parser.add_argument("--layout", default="castle-croquetnole", metavar="NAME|LAYOUT.json",
                        help=f"the layout template: {', '.join(LAYOUTS)} or a layout JSON file "
                             "(default: castle-croquetnole)")
    parser.add_argument("--out", metavar="PROFILE.json", help="where to write the profile")
    parser.add_argument("--corners", metavar='"x,y x,y x,y x,y"',
                        help="the table's corners in pixels, SW SE NE NW (skips detection)")
    parser.add_argument("--table-mm", metavar="W,H",
                        help="the table's size in mm (default: the layout's table)")
    parser.add_argument("--aruco", action="store_true",
                        help="find the table by ArUco markers 0-3 in its SW, SE, NE, NW corners")
    parser.add_argument("--marker-mm", type=float, default=60.0,
                        help="ArUco corner marker side in mm (default 60)")
    parser.add_argument("--marker-inset-mm", type=float, default=10.0,
                        help="gap from the table's edges to each corner marker (default 10)")
    parser.add_argument("--tile-thickness-mm", type=float, default=4.5,
                        help="a tile's thickness, to place raised tile tops where the tiles "
                             "stand (used with intrinsics; default 4.5)")
    parser.add_argument("--suit-colours", choices=("piecepackr", "dark"), default="piecepackr",
                        help="the pack's suit inks: piecepackr's default (red, black, green, "
                             "blue) or its dark 'piecepack suits' set")
    parser.add_argument("--intrinsics", metavar="FILE.json",
                        help="camera intrinsics (a profile, or an intrinsics object) to use")
    parser.add_argument("--chessboard", metavar="COLSxROWS",
                        help="calibrate the lens first from chessboard views (inner corners)")
    parser.add_argument("--charuco", metavar="SQUARESxSQUARES",
                        help="calibrate the lens first from ChArUco views (squares across x "
                             "down, e.g. 5x7; with --square-mm, --marker-mm, --aruco-dict)")
    parser.add_argument("--square-mm", type=float, default=25.0,
                        help="chessboard / ChArUco square side in mm (default 25)")
    parser.add_argument("--charuco-marker-mm", type=float, default=None,
                        help="ChArUco marker side in mm (default: half the square)")
    parser.add_argument("--aruco-dict", default="DICT_6X6_250",
                        help="ChArUco board's ArUco dictionary (default DICT_6X6_250)")
    parser.add_argument("--views", nargs="+", metavar="IMAGE|VIDEO", default=[],
                        help="board images, or one video to sample a frame a second from")
    parser.add_argument("--verify", metavar="PROFILE.json",
                        help="check SOURCE against this profile: did the camera or a tile move?")


def _table_mm(text: str) -> tuple[float, float]:
    match = re.fullmatch(r"\s*([0-9.]+)\s*[,x]\s*([0-9.]+)\s*", text)
    try:
        if not match:
            raise ValueError
        w, h = float(match.group(1)), float(match.group(2))
    except ValueError:
        raise UsageError(f"--table-mm must be W,H in millimetres, got {text!r}") from None
    if not (100 <= w <= 10000 and 100 <= h <= 10000):
        raise UsageError(f"--table-mm {w:g},{h:g}: each side must be 100-10000 mm")
    return (w, h)


def _template(name: str, table_mm: tuple[float, float] | None) -> Layout:
    from referee.layout import LayoutError, castle_croquetnole_layout, load_layout

    if name in LAYOUTS:
        orientation = "corners" if name.endswith("corners") else "sides"
        kwargs = {"table_mm": table_mm} if table_mm else {}
        return castle_croquetnole_layout(orientation, **kwargs)
    if not Path(name).is_file():
        raise UsageError(f"--layout {name!r}: not a known layout ({', '.join(LAYOUTS)}) "
                         "nor a layout file")
    try:
        return load_layout(name)
    except LayoutError as exc:
        raise UsageError(str(exc)) from None


def _intrinsics(args: argparse.Namespace) -> Intrinsics | None:
    from calibration.intrinsics import (
        CharucoPattern,
        ChessboardPattern,
        calibrate_images,
        read_images,
        sample_video,
    )

    if args.chessboard or args.charuco:
        kind = "--chessboard" if args.chessboard else "--charuco"
        match = re.fullmatch(r"(\d+)x(\d+)", args.chessboard or args.charuco)
        if not match or not args.views:
            raise UsageError(f"{kind} needs COLSxROWS (e.g. 9x6 inner corners, or 5x7 ChArUco "
                             "squares) and --views")
        cols, rows = int(match.group(1)), int(match.group(2))
        pattern: ChessboardPattern | CharucoPattern
        if args.chessboard:
            pattern = ChessboardPattern(cols, rows, args.square_mm)
        else:
            import cv2

            if not hasattr(cv2.aruco, args.aruco_dict):
                raise UsageError(f"--aruco-dict {args.aruco_dict!r} is not an ArUco dictionary")
            marker = args.charuco_marker_mm or args.square_mm / 2
            pattern = CharucoPattern(cols, rows, args.square_mm, marker, args.aruco_dict)
        try:
            if len(args.views) == 1 and Path(args.views[0]).suffix.lower() in (
                    ".mp4", ".avi", ".mov", ".mkv", ".webm"):
                views = sample_video(args.views[0])
            else:
                views = read_images(args.views)
            result = calibrate_images(views, pattern)
        except ValueError as exc:
            raise UsageError(str(exc)) from None
        print(result.report())
        return result.intrinsics
    if args.intrinsics:
        try:
            data = json.loads(Path(args.intrinsics).read_text(encoding="utf-8"))
            from calibration.intrinsics import Intrinsics as Camera

            return Camera.from_json(data.get("intrinsics") or data)
        except (OSError, ValueError, AttributeError) as exc:
            raise UsageError(f"{args.intrinsics}: cannot read intrinsics ({exc})") from None
    return None


def run(args: argparse.Namespace) -> int:
    from calibration.pipeline import calibrate_still
    from calibration.profile import ProfileError, load_profile
    from calibration.source import read_still
    from calibration.table_detect import CornerMarkers, TableNotFound, parse_corners
    from calibration.verify import verify

    if args.verify:
        try:
            profile = load_profile(args.verify)
            still = read_still(args.source)
        except (ProfileError, ValueError) as exc:
            raise UsageError(str(exc)) from None
        report = verify(profile, still.image)
        print(report.report())
        for event in report.events():
            print(json.dumps(event))
        return 0 if report.ok else 1

    if not args.out:
        raise UsageError("--out PROFILE.json is required (or --verify PROFILE.json)")
    corners = None
    if args.corners is not None:
        try:
            corners = parse_corners(args.corners)
        except ValueError as exc:
            raise UsageError(str(exc)) from None
    given_mm = _table_mm(args.table_mm) if args.table_mm else None
    template = _template(args.layout, given_mm)
    xs = [p[0] for p in template.table]
    ys = [p[1] for p in template.table]
    table_mm = given_mm or (max(xs) - min(xs), max(ys) - min(ys))
    intrinsics = _intrinsics(args)
    try:
        still = read_still(args.source)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    h, w = still.image.shape[:2]
    if corners is not None and ((corners < -0.5).any() or (corners[:, 0] > w).any()
                                or (corners[:, 1] > h).any()):
        raise UsageError(f"--corners lie outside the {w}x{h} image")
    if intrinsics is not None and tuple(intrinsics.image_size) != (w, h):
        raise UsageError(f"the intrinsics are for {intrinsics.image_size[0]}x"
                         f"{intrinsics.image_size[1]} images, SOURCE is {w}x{h}")
    if not 0 <= args.tile_thickness_mm <= 30:
        raise UsageError(f"--tile-thickness-mm must be 0-30, got {args.tile_thickness_mm:g}")
    markers = CornerMarkers(args.marker_mm, args.marker_inset_mm) if args.aruco else None
    try:
        profile = calibrate_still(still.image, template, table_mm, source=str(args.source),
                                  source_kind=still.kind, source_t_s=still.t_s,
                                  template_name=args.layout, corners_px=corners,
                                  markers=markers, intrinsics=intrinsics,
                                  tile_thickness_mm=args.tile_thickness_mm,
                                  pack=args.suit_colours)
    except TableNotFound as exc:
        raise UsageError(f"{args.source}: {exc} (give --corners \"x,y x,y x,y x,y\")") from None
    except ValueError as exc:
        raise UsageError(f"{args.source}: {exc}") from None
    try:
        profile.save(args.out)
    except OSError as exc:
        raise UsageError(f"{args.out}: cannot write ({exc.strerror})") from None
    _print_summary(profile, args.out)
    return 0


def _print_summary(profile: CalibrationProfile, out: str) -> None:
    res = profile.plane_residuals
    corners = " ".join(f"{x:.2f},{y:.2f}" for x, y in profile.corners_px)
    print(f"table ({profile.corners_method}): corners SW SE NE NW {corners}")
    if res is not None:
        print(f"plane residuals: rms {res.rms_px:.3f} px / {res.rms_mm:.3f} mm, max "
              f"{res.max_px:.3f} px / {res.max_mm:.3f} mm over {res.count} points")
    if profile.layout_residual_mm is not None:
        print(f"layout: tiles rms {profile.layout_residual_mm:.2f} mm from the template")
    for note in profile.notes:
        print(f"note: {note}")
    print(f"problems: {len(profile.problems)}")
    for problem in profile.problems:
        print(f"  {problem.text}")
    print(f"wrote {out}")
