"""`referee adjudicate`: fold an event file through a game's rules and print the rulings."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from referee.cli import UsageError
from referee.events import EventFormatError, read_numbered_events
from referee.rules.base import InvalidEventError, OptionError, make_game, parse_option_args

NAME = "adjudicate"
HELP = "adjudicate a JSONL file of physical events; print the rulings as JSON Lines"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("events", metavar="EVENTS.jsonl", help="physical events (CONTRACT.md)")
    parser.add_argument("--game", default="castle-croquetnole",
                        help="the game's rules (default: castle-croquetnole)")
    parser.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                        help="a house-rule option of RULES-SPEC §6; repeat for several")
    parser.add_argument("--layout", metavar="LAYOUT.json",
                        help="a table layout (default: the game's default layout)")
    parser.add_argument("--final-state", metavar="STATE.json",
                        help="write the final-state summary here")


def run(args: argparse.Namespace) -> int:
    try:
        options = parse_option_args(args.option)
        if args.layout:
            options["layout_file"] = args.layout
        game = make_game(args.game, options)
        events = read_numbered_events(args.events)
    except (OptionError, EventFormatError, ValueError) as exc:
        raise UsageError(str(exc)) from None
    state = game.new_state()
    out = sys.stdout
    for line, event in events:
        try:
            rulings = state.apply(event)
        except InvalidEventError as exc:
            raise UsageError(f"{args.events}:{line}: {exc}") from None
        for ruling in rulings:
            out.write(json.dumps(ruling.to_json(), separators=(",", ":")) + "\n")
    out.flush()
    if args.final_state:
        summary = state.summary()
        try:
            Path(args.final_state).write_text(json.dumps(summary, indent=2) + "\n",
                                              encoding="utf-8")
        except OSError as exc:
            raise UsageError(f"{args.final_state}: cannot write ({exc.strerror})") from None
    return 0
