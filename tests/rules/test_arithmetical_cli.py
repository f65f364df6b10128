"""The command line for Arithmetical Croquet: `referee play` and `referee adjudicate`."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from referee.cli import main


def play(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], typed: str,
         *args: str) -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO(typed))
    code = main(["play", "arithmetical-croquet", *args])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_play_solve_prints_the_opening_value(monkeypatch: pytest.MonkeyPatch,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = play(monkeypatch, capsys, "", "--solve")
    assert code == 0
    assert "with best play player 1 wins in 71 turns" in out
    assert "Player 1's winning opening numbers: 1" in out


@pytest.mark.parametrize("limit, words", [
    ("1", "player 1 wins in 1 turn.\nPlayer 1's winning opening numbers: 1, 2, 3, 4, 5"),
    ("4", "player 2 wins in 4 turns.\nEvery opening number of player 1 loses"),
])
def test_play_solve_under_a_turn_limit(monkeypatch: pytest.MonkeyPatch,
                                       capsys: pytest.CaptureFixture[str], limit: str,
                                       words: str) -> None:
    code, out, _ = play(monkeypatch, capsys, "", "--solve", "--option", f"arc_max_turns={limit}")
    assert code == 0
    assert f"(arc_max_turns={limit}): with best play {words}" in out


def test_play_two_people_with_bad_input_and_end_of_input(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    typed = "3\nfoo\n3\n\nhelp\nmoves\n2.5\npass\n4\n"
    code, out, _ = play(monkeypatch, capsys, typed, "--computer", "none")
    assert code == 0
    assert "Player 1 names 3; player 2 to play, barred from steps 3 and 6." in out
    assert "Not understood: 'foo'." in out
    assert "Not allowed (ARC-06): Player 1's step of 3 bars player 2" in out
    assert "Not understood: '2.5'." in out
    assert "Not allowed (G-ARC-08): Player 2 may not pass" in out
    assert "Player 2 names 4;" in out
    assert out.rstrip().endswith("End of input: the game is left unfinished.")


def test_play_against_the_computer_with_hints(monkeypatch: pytest.MonkeyPatch,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = play(monkeypatch, capsys, "hint\n9\n2\nquit\n", "--hint")
    assert code == 0
    assert "Hint: you win with best play (in 71 turns): 1." in out
    assert "Not allowed (ARC-01)" in out
    assert "Computer (player 2) names" in out
    assert out.rstrip().endswith("Game abandoned.")


def test_the_computer_playing_both_sides_finishes_with_the_first_player_winning(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = play(monkeypatch, capsys, "", "--computer", "both")
    assert code == 0
    assert out.count("Computer (player") == 71
    assert out.rstrip().endswith("Player 1 names 100, the winning peg, and wins.")


def test_play_refuses_other_games_and_bad_options(monkeypatch: pytest.MonkeyPatch,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    assert main(["play", "castle-croquetnole"]) == 2
    assert "playable: arithmetical-croquet" in capsys.readouterr().err
    assert main(["play", "--option", "arc_max_turns=zero"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "arc_max_turns" in err


def test_play_as_a_real_process_reads_stdin() -> None:
    done = subprocess.run([sys.executable, "-m", "referee", "play", "--computer", "1"],
                          input="", capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0
    assert "Computer (player 1) names 1." in done.stdout
    assert "End of input" in done.stdout


def _events(tmp_path: Path, rows: list[dict[str, object]]) -> Path:
    path = tmp_path / "events.jsonl"
    path.write_text("\n".join(json.dumps(row) for row in rows) + "\n", encoding="utf-8")
    return path


def test_adjudicate_with_the_final_state(tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    rows: list[dict[str, object]] = [
        {"t": 0, "type": "declare", "player": 1, "what": "number", "value": 7},
        {"t": 1, "type": "declare", "player": 2, "what": "number", "value": 2},
        {"t": 2, "type": "declare", "player": 2, "what": "number", "value": 5},
    ]
    final = tmp_path / "final.json"
    code = main(["adjudicate", str(_events(tmp_path, rows)), "--game", "arithmetical-croquet",
                 "--option", "arc_max_turns=40", "--final-state", str(final)])
    assert code == 0
    rulings = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [(r["kind"], r["clause"]) for r in rulings] == [
        ("turn", "ARC-06"), ("reject", "ARC-06"), ("turn", "ARC-06")]
    summary = json.loads(final.read_text())
    assert summary["players"]["2"]["pos"] == 5 and summary["turn"]["player"] == 1
    assert summary["options"]["arc_max_turns"] == 40


@pytest.mark.parametrize("row, words", [
    ({"t": 0, "type": "declare", "player": 3, "what": "number", "value": 7}, "players 1 and 2"),
    ({"t": 0, "type": "declare", "player": 1, "what": "number", "value": 2.5}, "whole number"),
])
def test_adjudicate_refuses_meaningless_events_with_one_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], row: dict[str, object],
        words: str) -> None:
    code = main(["adjudicate", str(_events(tmp_path, [row])), "--game", "arithmetical-croquet"])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and words in err
