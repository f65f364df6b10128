"""Regenerate the Castle Croquetnole golden transcripts (run only after a deliberate change).

    .venv/bin/python -m tests.rules.golden.regenerate

Each game is a plausible random game (referee.rules.random_streams) of four players of low
skill, so it is long and passes through captures, rescues, releases, illegal entries, coins
off the table, croquets and a win.  The files: NAME.events.jsonl (the input),
NAME.rulings.jsonl (what `referee adjudicate` prints) and NAME.final.json (the summary).
Review the diff of the rulings before committing: the transcript is the engine's judgement.
"""

from __future__ import annotations

import json
from pathlib import Path

from referee.events import write_events
from referee.rules import make_game, replay
from referee.rules.random_streams import plausible_game

HERE = Path(__file__).parent
GAMES = {"ccn-long-11": 11, "ccn-long-14": 14, "ccn-long-15": 15}
"""Golden game name → the seed of its random game (skill 0.3)."""


def main() -> None:
    for name, seed in GAMES.items():
        events = list(plausible_game(seed, skill=0.3, max_events=5000))
        result = replay(make_game("castle-croquetnole"), events)
        write_events(events, HERE / f"{name}.events.jsonl")
        with (HERE / f"{name}.rulings.jsonl").open("w", encoding="utf-8") as out:
            for ruling in result.rulings:
                out.write(json.dumps(ruling.to_json(), separators=(",", ":")) + "\n")
        (HERE / f"{name}.final.json").write_text(
            json.dumps(result.state.summary(), indent=2) + "\n", encoding="utf-8")
        print(f"{name}: {len(events)} events, {len(result.rulings)} rulings")


if __name__ == "__main__":
    main()
