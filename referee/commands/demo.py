"""`referee demo`: serve the web referee over the bundled sample game (no camera needed).

By default the game's video (`sample_videos/demo-game/video.mp4`) runs through vision, with
the calibration profile `referee calibrate` made of it beside it, as a recorded session would
(`referee replay`); `--events FILE` replays an event stream through the rules engine instead.

Also home of what `demo`, `replay` and `live` share: the serving arguments and the server.
A restart with the same `--db` resumes the unfinished session of the same source, so a
session killed with `kill -9` goes on where its store ends.
"""

from __future__ import annotations

import argparse
import json
import signal
import sys
import threading
from pathlib import Path
from typing import Any

from referee.cli import UsageError
from referee.events import EventFormatError
from referee.rules.base import OptionError, make_game, parse_option_args
from referee.session import EventFileSource, Referee, SessionSource
from referee.store import SessionStore

NAME = "demo"
HELP = "serve the web referee over the bundled sample game's video (no camera needed)"

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "castle-croquetnole-game.jsonl"
SAMPLE_VIDEO = ROOT / "sample_videos" / "demo-game" / "video.mp4"
SAMPLE_CALIBRATION = SAMPLE_VIDEO.with_name("calibration.json")
"""Made by `referee calibrate sample_videos/demo-game/video.mp4 --layout castle-croquetnole
--out sample_videos/demo-game/calibration.json` (sample_videos/README.md)."""
DEFAULT_DB = Path.home() / ".local" / "share" / "piecepack-referee" / "sessions.sqlite"


def add_serve_arguments(parser: argparse.ArgumentParser) -> None:
    """--host, --port, --db, --pin, --new, --game, --option."""
    parser.add_argument("--host", default="127.0.0.1",
                        help="address to serve on (default 127.0.0.1: this machine only)")
    parser.add_argument("--port", type=int, default=5000,
                        help="port (default 5000; 0 picks a free one)")
    parser.add_argument("--db", default=str(DEFAULT_DB), metavar="FILE",
                        help=f"the session store (SQLite; default {DEFAULT_DB})")
    parser.add_argument("--pin", default=None,
                        help="the table PIN (4–12 digits; default: $REFEREE_PIN or a random "
                             "one, printed at start)")
    parser.add_argument("--new", action="store_true",
                        help="start a new session instead of resuming an unfinished one")
    parser.add_argument("--game", default="castle-croquetnole", help=argparse.SUPPRESS)
    parser.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                        help="a house-rule option of RULES-SPEC §6; repeat for several")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--events", default=None, metavar="EVENTS.jsonl",
                        help="replay this event stream instead of the sample game's video "
                             f"(a whole four-player game: {EXAMPLE.relative_to(ROOT)})")
    parser.add_argument("--speed", type=float, default=1.0,
                        help="replay speed, × real time (default 1)")
    add_serve_arguments(parser)


def run(args: argparse.Namespace) -> int:
    if args.events is None:
        from referee.commands.replay import load_calibration, vision_source  # (it imports us)

        if not SAMPLE_VIDEO.is_file():
            raise UsageError(f"{SAMPLE_VIDEO}: the sample game's video is missing; "
                             f"give --events {EXAMPLE.relative_to(ROOT)} to replay its events")
        calibration = load_calibration(str(SAMPLE_CALIBRATION))
        source = vision_source("video_source", str(SAMPLE_VIDEO), speed=args.speed,
                               calibration=calibration)
        return serve(args, source, label="demo", calibration=calibration)
    try:
        events = EventFileSource(args.events, speed=args.speed)
    except (EventFormatError, ValueError) as exc:
        raise UsageError(str(exc)) from None
    return serve(args, events, label="demo")


def serve(args: argparse.Namespace, source: SessionSource | None, label: str,
          calibration: dict[str, Any] | None = None) -> int:
    """Open (or resume) the session of `source` and serve the web UI until interrupted."""
    from werkzeug.serving import make_server

    from web_ui import create_app

    if not 0 <= args.port < 65536:
        raise UsageError(f"--port {args.port} is not a port number")
    if args.pin is not None and not (args.pin.isdigit() and 4 <= len(args.pin) <= 12):
        raise UsageError("the table PIN must be 4 to 12 digits")
    try:
        options = parse_option_args(args.option)
        make_game(args.game, options)
    except OptionError as exc:
        raise UsageError(str(exc)) from None
    try:
        store = SessionStore(args.db)
    except Exception as exc:  # sqlite3 errors, permissions
        raise UsageError(f"{args.db}: cannot open the session store ({exc})") from None
    referee = Referee(store)
    resumed = None if (args.new or source is None) else referee.find_resumable(source)
    if resumed is not None and store.session(resumed).options != options:
        resumed = None
    if resumed is not None:
        runner = referee.open(resumed, source)
    else:
        runner = referee.new_session(args.game, options, source, label=label,
                                     calibration=calibration)
    config: dict[str, Any] = {"REFEREE": referee, "DATABASE": args.db}
    if args.pin:
        config["TABLE_PIN"] = args.pin
    try:
        app = create_app(config)
    except ValueError as exc:
        referee.close()
        raise UsageError(str(exc)) from None
    try:
        server = make_server(args.host, args.port, app, threaded=True)
    except OSError as exc:
        referee.close()
        raise UsageError(f"cannot serve on {args.host}:{args.port} ({exc.strerror or exc})"
                         ) from None
    url = f"http://{args.host}:{server.server_port}/"
    what = "resumed" if resumed is not None else "started"
    print(f"referee {args.command}: {what} session {runner.id}; serving {url} "
          f"(table PIN {app.config['TABLE_PIN']}); Ctrl-C stops", file=sys.stderr, flush=True)
    print(json.dumps({"url": url, "session": runner.id, "resumed": resumed is not None}),
          flush=True)

    def stop(*_: object) -> None:
        threading.Thread(target=server.shutdown, daemon=True).start()

    signal.signal(signal.SIGTERM, stop)
    try:
        server.serve_forever(poll_interval=0.2)
    except KeyboardInterrupt:
        pass
    finally:
        referee.close()
        server.server_close()
        store.close()
    return 0
