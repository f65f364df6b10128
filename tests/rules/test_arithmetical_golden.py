"""Golden transcript of one full Arithmetical Croquet game: events → rulings, compared exactly.

The game opens with a scripted keep-in (ARC-04/05/06/07/10/11 and rejected declarations),
then both players take their largest non-losing step, which brings an overshoot of the peg
(ARC-08) before the win.  Rebuild the three files after a deliberate change of the rulings with
``.venv/bin/python tests/rules/test_arithmetical_golden.py`` and review the diff.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from referee.cli import main
from referee.events import Declare, Event, Flick, write_events
from referee.rules.arithmetical import LOSE, legal_steps, target
from referee.rules.base import make_game

GOLDEN = Path(__file__).parent / "golden"
NAME = "arithmetical-game"

OPENING: tuple[tuple[int, str, int | None], ...] = (
    (1, "number", 7),    # ARC-01
    (2, "pass", None),   # he has numbers to name: rejected (G-ARC-08)
    (2, "number", 10),   # more than 8: rejected
    (2, "number", 2),    # barred by 7 (ARC-06)
    (2, "number", 5),
    (1, "number", 13),   # 7 → 13 takes hoop 10 (ARC-04)
    (2, "number", 10),   # into hoop 10 with 5 (ARC-05, ARC-07 a)
    (1, "number", 18),   # keeps him in with 5 (ARC-10)
    (2, "number", 15),   # barred (ARC-10)
    (2, "pass", None),
    (1, "number", 22),   # keeps in with 4, taking hoop 20
    (1, "number", 26),   # not his turn
    (2, "pass", None),
    (1, "number", 26),   # 4 twice running (ARC-11)
    (1, "croquet", None),
    (1, "number", 27),   # keeps in with 5
    (2, "pass", None),
    (1, "number", 30),   # into hoop 30: cannot keep in any more
    (2, "number", 15),   # out of hoop 10 (ARC-05)
)


def largest_safe_step_events() -> list[Event]:
    """The scripted opening, then each player's largest non-losing step to the end."""
    game = make_game("arithmetical-croquet")
    state = game.new_state()
    events: list[Event] = []

    def push(event: Event) -> None:
        events.append(event)
        state.apply(event)

    for index, (player, what, value) in enumerate(OPENING):
        push(Declare(float(index), player, what, value=value))
        if index == 3:
            push(Flick(3.5, "moons"))
    clock = float(len(OPENING))
    while not state.is_terminal():
        position = state.position
        safe = [step for step, outcome in legal_steps(position, state.rules) if outcome != LOSE]
        player = position.mover + 1
        if safe:
            value = target(position.sides[position.mover], max(safe))
            push(Declare(clock, player, "number", value=value))
        else:
            push(Declare(clock, player, "pass"))
        clock += 1.0
    push(Declare(clock, 1, "number", value=5))  # after the end: rejected
    return events


def regenerate() -> None:
    """Rewrite the golden events, rulings and final state (review the diff before committing)."""
    events = largest_safe_step_events()
    write_events(events, GOLDEN / f"{NAME}.events.jsonl")
    state = make_game("arithmetical-croquet").new_state()
    lines = []
    for event in events:
        lines.extend(json.dumps(r.to_json(), separators=(",", ":")) for r in state.apply(event))
    (GOLDEN / f"{NAME}.rulings.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    (GOLDEN / f"{NAME}.final.json").write_text(json.dumps(state.summary(), indent=2) + "\n",
                                               encoding="utf-8")


def _read_jsonl(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def test_golden_game_through_adjudicate(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    final = tmp_path / "final.json"
    code = main(["adjudicate", str(GOLDEN / f"{NAME}.events.jsonl"), "--game",
                 "arithmetical-croquet", "--final-state", str(final)])
    assert code == 0
    printed = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert printed == _read_jsonl(GOLDEN / f"{NAME}.rulings.jsonl")
    assert json.loads(final.read_text()) == json.loads(
        (GOLDEN / f"{NAME}.final.json").read_text())


def test_golden_events_are_what_the_script_plays() -> None:
    events = [json.dumps(e.to_json(), separators=(",", ":")) for e in largest_safe_step_events()]
    assert events == (GOLDEN / f"{NAME}.events.jsonl").read_text().splitlines()


def test_golden_game_covers_the_clauses() -> None:
    rulings = _read_jsonl(GOLDEN / f"{NAME}.rulings.jsonl")
    clauses = {r["clause"] for r in rulings} | {r.get("move_clause") for r in rulings}
    assert {"ARC-01", "ARC-02", "ARC-03", "ARC-04", "ARC-05", "ARC-06", "ARC-07", "ARC-08",
            "ARC-10", "ARC-11", "G-ARC-08", "§5.1"} <= clauses
    assert {r["kind"] for r in rulings} == {"turn", "score", "reject", "win"}


if __name__ == "__main__":
    regenerate()
    sys.exit(0)
