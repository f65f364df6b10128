"""Carroll's Castle Croquet golden transcripts: events → rulings and final state, via the CLI.

`referee adjudicate EVENTS.jsonl --game carroll-castle-croquet` must print exactly the
recorded rulings and write exactly the recorded summary (regenerate with
`python -m tests.rules.golden.regenerate_carroll` after a deliberate change).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from referee.cli import main
from tests.rules.golden.regenerate_carroll import GAME, GAMES

GOLDEN = Path(__file__).parent / "golden"


@pytest.mark.parametrize("name", sorted(GAMES))
def test_carroll_golden_transcript(name: str, tmp_path: Path, capsys) -> None:
    final = tmp_path / "final.json"
    options = [f"--option={k}={v}" for k, v in GAMES[name][1].items()]
    code = main(["adjudicate", str(GOLDEN / f"{name}.events.jsonl"), "--game", GAME,
                 *options, "--final-state", str(final)])
    assert code == 0
    printed = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    expected = [json.loads(line)
                for line in (GOLDEN / f"{name}.rulings.jsonl").read_text().splitlines()]
    assert printed == expected
    summary = json.loads(final.read_text())
    assert summary == json.loads((GOLDEN / f"{name}.final.json").read_text())
    assert summary["over"] and summary["winner"] is not None


def test_carroll_golden_games_cover_the_main_rulings() -> None:
    kinds: set[str] = set()
    clauses: set[str] = set()
    for name in GAMES:
        for line in (GOLDEN / f"{name}.rulings.jsonl").read_text().splitlines():
            ruling = json.loads(line)
            kinds.add(ruling["kind"])
            clauses.add(ruling["clause"])
    assert {"score", "bonus", "duty", "capture", "release", "rescue", "illegal", "foul",
            "place", "turn", "win"} <= kinds
    assert {"CAR-05", "CAR-06", "CAR-07", "CAR-08", "CAR-09", "CAR-10", "CAR-11", "CAR-12",
            "CAR-13", "CAR-14", "CAR-15", "CAR-16", "CAR-17", "CAR-19", "CAR-20"} <= clauses
