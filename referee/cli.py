"""The `referee` command: one subcommand a module in `referee.commands`.

Each command module has `NAME`, `HELP`, `add_arguments(parser)` and `run(args) -> int`.
Errors a user can fix end with one line on stderr and exit status 2.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence

COMMANDS: tuple[str, ...] = (
    "adjudicate",
    "analyze",
    "calibrate",
    "demo",
    "live",
    "play",
    "replay",
    "simulate",
)
"""Modules of referee.commands, in the order `--help` lists them."""


class UsageError(Exception):
    """A problem the user can fix; printed as one line, exit status 2."""


def build_parser() -> argparse.ArgumentParser:
    from referee import __version__

    parser = argparse.ArgumentParser(
        prog="referee",
        description="A computer-vision referee for piecepack flicking games "
        "(Castle Croquetnole, Castle Croquet, Tabletop Croquet, Arithmetical Croquet).",
    )
    parser.add_argument("--version", action="version", version=f"referee {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMANDS:
        module = importlib.import_module(f"referee.commands.{name}")
        command = sub.add_parser(module.NAME, help=module.HELP, description=module.HELP)
        module.add_arguments(command)
        command.set_defaults(_run=module.run)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    # FFmpeg's decoder prints its complaints about a damaged video to stderr, many lines a
    # frame; the commands say in one line what they mean for the user (`VideoFile`).
    os.environ.setdefault("OPENCV_FFMPEG_LOGLEVEL", "-8")
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "_run", None):
        parser.print_help()
        return 2
    try:
        return int(args._run(args) or 0)
    except UsageError as exc:
        print(f"referee {args.command}: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"referee {args.command}: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
