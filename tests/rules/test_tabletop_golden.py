"""Tabletop Croquet golden transcripts: whole games, events → rulings and final state."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from referee.cli import main
from tests.rules.golden.regenerate_ttc import GAME, GAMES

GOLDEN = Path(__file__).parent / "golden"


@pytest.mark.parametrize("name", sorted(GAMES))
def test_golden_transcript(name: str, tmp_path, capsys) -> None:
    final = tmp_path / "final.json"
    _, options = GAMES[name]
    args = ["adjudicate", str(GOLDEN / f"{name}.events.jsonl"), "--game", GAME,
            "--final-state", str(final)]
    for key, value in options.items():
        args += ["--option", f"{key}={value}"]
    assert main(args) == 0
    printed = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    expected = [json.loads(line)
                for line in (GOLDEN / f"{name}.rulings.jsonl").read_text().splitlines()]
    assert printed == expected
    summary = json.loads(final.read_text())
    assert summary == json.loads((GOLDEN / f"{name}.final.json").read_text())
    assert summary["over"] is True and summary["winner"] is not None


def test_golden_games_cover_the_main_rulings() -> None:
    kinds: set[str] = set()
    clauses: set[str] = set()
    for name in GAMES:
        for line in (GOLDEN / f"{name}.rulings.jsonl").read_text().splitlines():
            ruling = json.loads(line)
            kinds.add(ruling["kind"])
            clauses.add(ruling["clause"])
    assert {"score", "bonus", "foul", "place", "turn", "win", "capture"} <= kinds
    assert {"TTC-16", "TTC-17", "TTC-19", "TTC-27", "TTC-28", "TTC-TM4", "TTC-TM6",
            "TTC-P1", "TTC-P3"} <= clauses
