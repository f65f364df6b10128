"""Golden transcripts: three long games, events → rulings and final state, through the CLI."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from referee.cli import main
from tests.rules.golden.regenerate import GAMES

GOLDEN = Path(__file__).parent / "golden"


@pytest.mark.parametrize("name", sorted(GAMES))
def test_golden_transcript(name: str, tmp_path, capsys) -> None:
    final = tmp_path / "final.json"
    code = main(["adjudicate", str(GOLDEN / f"{name}.events.jsonl"), "--game",
                 "castle-croquetnole", "--final-state", str(final)])
    assert code == 0
    printed = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    expected = [json.loads(line)
                for line in (GOLDEN / f"{name}.rulings.jsonl").read_text().splitlines()]
    assert printed == expected
    assert json.loads(final.read_text()) == json.loads(
        (GOLDEN / f"{name}.final.json").read_text())


def test_golden_games_cover_the_main_rulings() -> None:
    kinds: set[str] = set()
    for name in GAMES:
        for line in (GOLDEN / f"{name}.rulings.jsonl").read_text().splitlines():
            kinds.add(json.loads(line)["kind"])
    assert {"score", "bonus", "duty", "capture", "release", "rescue", "illegal", "foul",
            "place", "turn", "win"} <= kinds
