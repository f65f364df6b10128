"""Regenerate the Carroll's Castle Croquet golden transcripts (only after a deliberate change).

    .venv/bin/python -m tests.rules.golden.regenerate_carroll

Each game is a plausible random game (referee.rules.carroll_streams) of players of low skill,
so it passes through captures on touch and on entry, rescues, releases behind the door,
croquets, second crossings, illegal entries, balls off the table and a win.  The files:
NAME.events.jsonl (the input), NAME.rulings.jsonl (what `referee adjudicate --game
carroll-castle-croquet` prints) and NAME.final.json (the summary).  Review the diff of the
rulings before committing: the transcript is the engine's judgement.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from referee.events import write_events
from referee.rules import make_game, replay
from referee.rules.carroll_streams import plausible_game

HERE = Path(__file__).parent
GAME = "carroll-castle-croquet"
GAMES: dict[str, tuple[int, dict[str, Any]]] = {
    "car-game-4": (10, {}),
    "car-game-5": (9, {"car_players": 5}),
}
"""Golden game name → (seed of its random game, skill 0.4; the game's options)."""


def main() -> None:
    for name, (seed, options) in GAMES.items():
        events = list(plausible_game(seed, skill=0.4, game=make_game(GAME, options)))
        result = replay(make_game(GAME, options), events)
        write_events(events, HERE / f"{name}.events.jsonl")
        with (HERE / f"{name}.rulings.jsonl").open("w", encoding="utf-8") as out:
            for ruling in result.rulings:
                out.write(json.dumps(ruling.to_json(), separators=(",", ":")) + "\n")
        (HERE / f"{name}.final.json").write_text(
            json.dumps(result.state.summary(), indent=2) + "\n", encoding="utf-8")
        print(f"{name}: {len(events)} events, {len(result.rulings)} rulings")


if __name__ == "__main__":
    main()
