"""The command-line contract (CONTRACT.md): `referee adjudicate` and friends."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from referee.cli import main

OPENING = [
    {"t": 1.0, "type": "flick", "coin": "moons"},
    {"t": 1.2, "type": "cross", "coin": "moons", "line": "gate-1", "dir": "-"},
    {"t": 2.0, "type": "settled"},
]


def write(tmp_path, rows, name="events.jsonl"):
    path = tmp_path / name
    path.write_text("\n".join(r if isinstance(r, str) else json.dumps(r) for r in rows) + "\n")
    return path


def test_adjudicate_prints_rulings_and_writes_the_final_state(tmp_path, capsys) -> None:
    final = tmp_path / "state.json"
    assert main(["adjudicate", str(write(tmp_path, OPENING)), "--final-state", str(final)]) == 0
    rulings = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert rulings[0]["kind"] == "score" and rulings[0]["bonus"] == 1
    for ruling in rulings:
        assert {"t", "kind", "clause", "text"} <= set(ruling)
    state = json.loads(final.read_text())
    assert state["turn"] == {"player": 1, "coin": "moons", "flicks_left": 1, "phase": "knight",
                             "round": 1}
    assert state["players"]["1"]["knight"]["next"] == "in-2"


def test_option_changes_the_ruling(tmp_path, capsys) -> None:
    final = tmp_path / "state.json"
    code = main(["adjudicate", str(write(tmp_path, OPENING)), "--option",
                 "own_gate_scores=false", "--final-state", str(final)])
    assert code == 0
    state = json.loads(final.read_text())
    assert state["turn"]["phase"] == "guard"  # no bonus for leaving home


@pytest.mark.parametrize(("rows", "message"), [
    ([OPENING[0], "{broken"], "events.jsonl:2: not valid JSON"),
    ([OPENING[0], {"t": 0.5, "type": "settled"}], "events.jsonl:2: time goes backwards"),
    ([{"t": 1, "type": "flick", "coin": "dragon"}], "events.jsonl:1: unknown coin 'dragon'"),
    ([{"t": 1, "type": "cross", "coin": "moons", "line": "gate-9", "dir": "+"}],
     "events.jsonl:1: unknown line 'gate-9'"),
])
def test_malformed_input_exits_2_with_one_line(tmp_path, capsys, rows, message) -> None:
    assert main(["adjudicate", str(write(tmp_path, rows))]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""  # nothing half-printed
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1 and message in lines[0]


def test_unknown_option_exits_2_listing_valid_ones(tmp_path, capsys) -> None:
    assert main(["adjudicate", str(write(tmp_path, OPENING)), "--option", "colour=red"]) == 2
    assert "valid options:" in capsys.readouterr().err


def test_unknown_game_and_missing_file(tmp_path, capsys) -> None:
    assert main(["adjudicate", str(write(tmp_path, OPENING)), "--game", "chess"]) == 2
    assert "valid games:" in capsys.readouterr().err
    assert main(["adjudicate", str(tmp_path / "nope.jsonl")]) == 2
    assert "cannot read" in capsys.readouterr().err


def test_console_script_help_lists_commands() -> None:
    out = subprocess.run([sys.executable, "-m", "referee", "--help"], capture_output=True,
                         text=True, check=True).stdout
    assert "adjudicate" in out
