"""`referee play arithmetical-croquet`: play in the terminal, against a person or the computer.

Every turn is one declaration folded through the same rules engine `referee adjudicate` uses;
the computer and the hints come from the solver (referee.rules.arithmetical_solver).
"""

from __future__ import annotations

import argparse
import sys
from typing import TextIO

from referee.cli import UsageError
from referee.events import Declare
from referee.rules.arithmetical import OPTIONS, ArcState, ArithmeticalCroquet
from referee.rules.arithmetical_solver import LOSS, WIN, Analysis, analyse
from referee.rules.base import OptionError, make_game, parse_option_args

NAME = "play"
HELP = "play Arithmetical Croquet in the terminal against a person or the computer"
GAMES_PLAYABLE = ("arithmetical-croquet",)
QUIT_WORDS = ("quit", "q", "exit")
COMPUTER_CHOICES: dict[str, frozenset[int]] = {
    "1": frozenset({1}), "2": frozenset({2}), "none": frozenset(), "both": frozenset({1, 2})}
COMMANDS_HELP = ("Name a number (e.g. 7), or type: pass, moves (the legal numbers), "
                 "hint (the solver's advice), help, quit.")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("game", nargs="?", default="arithmetical-croquet",
                        help="the game to play (only arithmetical-croquet is playable)")
    parser.add_argument("--computer", choices=tuple(COMPUTER_CHOICES), default="2",
                        help="which player the computer plays (default: 2)")
    parser.add_argument("--solve", action="store_true",
                        help="print the opening's value with best play and the winning moves")
    parser.add_argument("--hint", action="store_true",
                        help="show the solver's advice before every move of a person")
    parser.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                        help="a house-rule option of RULES-SPEC §6 (ARC rows); repeatable")


def run(args: argparse.Namespace) -> int:
    if args.game not in GAMES_PLAYABLE:
        raise UsageError(f"cannot play {args.game!r} in the terminal; playable: "
                         + ", ".join(GAMES_PLAYABLE))
    try:
        game = make_game(args.game, parse_option_args(args.option))
    except OptionError as exc:
        raise UsageError(str(exc)) from None
    assert isinstance(game, ArithmeticalCroquet)
    if args.solve:
        print(describe_opening(game))
        return 0
    computers = COMPUTER_CHOICES[args.computer]
    return play_game(game, computers, args.hint, sys.stdin, sys.stdout)


def describe_opening(game: ArithmeticalCroquet) -> str:
    """The opening's value with best play and the first player's winning numbers."""
    state = game.new_state()
    analysis = analyse(state.position, game.rules)
    defaults = {option.name: option.default for option in OPTIONS}
    changed = {k: v for k, v in game.options.items() if v != defaults[k]}
    rules = ", ".join(f"{k}={str(v).lower()}" for k, v in changed.items()) or "default options"
    if analysis.winner is None:
        head = f"with best play the game is drawn ({_turns(analysis.turns)})"
    else:
        head = f"with best play player {analysis.winner} wins in {_turns(analysis.turns)}"
    lines = [f"Arithmetical Croquet ({rules}): {head}."]
    if analysis.value == WIN:
        lines.append("Player 1's winning opening numbers: " + ", ".join(analysis.winning_moves))
    elif analysis.value == LOSS:
        lines.append("Every opening number of player 1 loses; the longest defence is "
                     f"{analysis.best_move}.")
    else:
        lines.append("Player 1's drawing opening numbers: " + ", ".join(analysis.winning_moves))
    return "\n".join(lines)


def _turns(count: int) -> str:
    return f"{count} turn" if count == 1 else f"{count} turns"


def hint_text(analysis: Analysis) -> str:
    """The solver's advice to the player to move, in one line."""
    if analysis.value == WIN:
        return (f"Hint: you win with best play (in {_turns(analysis.turns)}): "
                + " or ".join(analysis.winning_moves) + ".")
    if analysis.value == LOSS:
        return (f"Hint: with best play you lose in {_turns(analysis.turns)}; the longest "
                f"defence is {analysis.best_move}.")
    return "Hint: with best play the game is drawn: " + " or ".join(analysis.winning_moves) + "."


def status_line(state: ArcState) -> str:
    """Both balls, whose turn it is, the bars and the legal numbers, in one line."""
    summary = state.summary()
    parts = []
    for number, player in summary["players"].items():
        where = f"player {number} at {player['pos']}"
        if player["in_hoop"] is not None:
            where += f" (in hoop {player['in_hoop']}, needs {player['needs']})"
        if player["missed"]:
            where += " (missed the peg once: going down)"
        parts.append(where)
    mover = summary["turn"]["player"]
    barred = summary["players"][str(mover)]["barred"]
    legal = [str(n) for n in summary["legal_moves"]]
    if summary["turn"]["may_pass"]:
        legal.append("pass")
    bar_text = f"barred from steps {barred[0]} and {barred[1]}; " if barred else ""
    return (f"Turn {summary['turn']['number']}: " + ", ".join(parts)
            + f". Player {mover} to play; {bar_text}legal: " + ", ".join(legal) + ".")


def play_game(game: ArithmeticalCroquet, computers: frozenset[int], hints: bool,
              reader: TextIO, writer: TextIO) -> int:
    """Play one game; people type at `reader`.  End of input leaves the game unfinished."""
    state = game.new_state()

    def say(text: str) -> None:
        writer.write(text + "\n")
        writer.flush()

    say("Arithmetical Croquet: name numbers up to 8 beyond your last; hoops at 10, 20, …, 90; "
        "the peg is 100. " + COMMANDS_HELP)
    clock = 0.0
    while not state.is_terminal():
        say(status_line(state))
        player = state.position.mover + 1
        if player in computers:
            move = analyse(state.position, game.rules).best_move or "pass"
            say(f"Computer (player {player}) names {move}.")
        else:
            if hints:
                say(hint_text(analyse(state.position, game.rules)))
            writer.write(f"player {player}> ")
            writer.flush()
            line = reader.readline()
            if not line:
                say("")
                say("End of input: the game is left unfinished.")
                return 0
            move = line.strip().lower()
            if not move:
                continue
            if move in QUIT_WORDS:
                say("Game abandoned.")
                return 0
            if move in ("help", "?"):
                say(COMMANDS_HELP)
                continue
            if move == "hint":
                say(hint_text(analyse(state.position, game.rules)))
                continue
            if move == "moves":
                continue
            if move != "pass" and not _is_whole_number(move):
                say(f"Not understood: {line.strip()!r}. {COMMANDS_HELP}")
                continue
        event = (Declare(clock, player, "pass") if move == "pass"
                 else Declare(clock, player, "number", value=int(move)))
        clock += 1.0
        for ruling in state.apply(event):
            if ruling.kind == "reject":
                say(f"Not allowed ({ruling.clause}): {ruling.text}")
            else:
                say(ruling.text)
    return 0


def _is_whole_number(text: str) -> bool:
    return text.lstrip("-").isdigit() and len(text) < 10
