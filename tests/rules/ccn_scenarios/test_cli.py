"""`referee adjudicate` as a black box: rulings on stdout, the final state, exit 2 on bad input."""

from __future__ import annotations

import json

import pytest

from referee.cli import main

from .builder import advance, contact, run, shot, stream, to_jsonl


def write(tmp_path, text, name="events.jsonl"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def adjudicate(path, *extra):
    return main(["adjudicate", str(path), "--game", "castle-croquetnole", *extra])


def test_cli_rulings_and_final_state(tmp_path, capsys):
    """The CLI prints one ruling per line and writes the CONTRACT.md final-state summary."""
    events = stream(advance(1, 2), shot("moons", contact("moons", "2")))
    path = write(tmp_path, to_jsonl(events))
    state_path = tmp_path / "state.json"
    assert adjudicate(path, "--final-state", str(state_path)) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines() if line.strip()]
    assert any(r["kind"] == "capture" and r["clause"] == "CCN-28" for r in lines)
    assert all({"t", "kind", "clause", "text"} <= set(r) for r in lines)
    summary = json.loads(state_path.read_text(encoding="utf-8"))
    assert summary["game"] == "castle-croquetnole"
    assert summary["over"] is False
    assert summary["winner"] is None
    assert set(summary["turn"]) >= {"player", "coin", "flicks_left", "phase", "round"}
    assert sorted(summary["players"]) == ["1", "2", "3", "4"]
    knight = summary["players"]["1"]["knight"]
    assert set(knight) >= {"coin", "status", "castle", "prisoner_of", "next"}
    assert knight["status"] == "prisoner"
    assert knight["prisoner_of"] == 2
    assert summary["players"]["2"]["guard"] == {**summary["players"]["2"]["guard"],
                                                "coin": "2", "on_duty": True}
    assert summary == run(advance(1, 2), shot("moons", contact("moons", "2"))).summary


def test_cli_option_changes_the_result(tmp_path, capsys):
    """--option KEY=VALUE reaches the rules (own_gate_scores=false: no bonus for leaving)."""
    path = write(tmp_path, to_jsonl(stream(advance(1, 1))))
    state_path = tmp_path / "state.json"
    assert adjudicate(path, "--option", "own_gate_scores=false",
                      "--final-state", str(state_path)) == 0
    capsys.readouterr()
    summary = json.loads(state_path.read_text(encoding="utf-8"))
    assert summary["turn"]["phase"] == "guard"


def assert_exit_2(tmp_path, capsys, text, line):
    path = write(tmp_path, text)
    assert adjudicate(path) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err
    assert str(path) in err or path.name in err
    assert f":{line}" in err


GOOD = stream(shot("moons"))


def test_cli_exit_2_not_json(tmp_path, capsys):
    """Malformed input: a line that is not JSON names the file and line; exit 2."""
    text = to_jsonl(GOOD[:1]) + "{not json\n" + to_jsonl(GOOD[1:])
    assert_exit_2(tmp_path, capsys, text, 2)


def test_cli_exit_2_missing_field(tmp_path, capsys):
    """Malformed input: a cross without its line."""
    bad = {"t": 0.15, "type": "cross", "coin": "moons", "dir": "-"}
    text = to_jsonl([GOOD[0], bad, GOOD[1]])
    assert_exit_2(tmp_path, capsys, text, 2)


def test_cli_exit_2_time_goes_backwards(tmp_path, capsys):
    """Malformed input: `t` must not decrease."""
    events = stream(shot("moons"), shot("ace"))
    events[3] = {**events[3], "t": 0.05}
    assert_exit_2(tmp_path, capsys, to_jsonl(events), 4)


def test_cli_exit_2_bad_direction(tmp_path, capsys):
    """Malformed input: a crossing direction other than + or -."""
    bad = {"t": 0.15, "type": "cross", "coin": "moons", "line": "gate-1", "dir": "out"}
    assert_exit_2(tmp_path, capsys, to_jsonl([GOOD[0], bad, GOOD[1]]), 2)


def test_cli_exit_2_unknown_event_type(tmp_path, capsys):
    """Malformed input: an unknown event type."""
    bad = {"t": 0.15, "type": "teleport", "coin": "moons"}
    assert_exit_2(tmp_path, capsys, to_jsonl([GOOD[0], bad, GOOD[1]]), 2)


def test_cli_exit_2_unknown_coin(tmp_path, capsys):
    """Well-formed but meaningless for this game: a coin that is not in it (line 3)."""
    events = stream(shot("moons"), shot("bishops"))
    assert_exit_2(tmp_path, capsys, to_jsonl(events), 3)


@pytest.mark.parametrize("option", ["no_such_option=1", "own_gate_scores=maybe"])
def test_cli_exit_2_bad_option(tmp_path, capsys, option):
    """An unknown option or value is an error that lists the valid ones; exit 2."""
    path = write(tmp_path, to_jsonl(GOOD))
    assert adjudicate(path, "--option", option) == 2
    err = capsys.readouterr().err
    assert "own_gate_scores" in err or "true" in err
