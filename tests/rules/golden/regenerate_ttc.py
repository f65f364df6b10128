"""Regenerate the Tabletop Croquet golden transcripts (run only after a deliberate change).

    .venv/bin/python -m tests.rules.golden.regenerate_ttc

Each game is a plausible random game (referee.rules.tabletop_streams) of players of modest
skill, played to the end: a plain four-player game on the standard course, a six-player team
game with rovers, and a five-player poison game on the compact card-table course.  The files:
NAME.events.jsonl (the input), NAME.rulings.jsonl (what `referee adjudicate` prints) and
NAME.final.json (the summary).  Review the diff of the rulings before committing: the
transcript is the engine's judgement.
"""

from __future__ import annotations

import json
from pathlib import Path

from referee.events import write_events
from referee.rules import make_game, replay
from referee.rules.tabletop import TabletopCroquet
from referee.rules.tabletop_streams import plausible_game

HERE = Path(__file__).parent
GAME = "tabletop-croquet"
GAMES: dict[str, tuple[int, dict[str, str]]] = {
    "ttc-four-players": (4, {"players": "4"}),
    "ttc-team-six": (1, {"players": "6", "ttc_team": "true"}),
    "ttc-poison-compact": (2, {"players": "5", "ttc_poison": "true",
                               "ttc_layout": "compact_diagonal"}),
}
"""Golden game name → (the seed of its random game at skill 0.4, the game's options)."""


def main() -> None:
    for name, (seed, options) in GAMES.items():
        events = list(plausible_game(seed, skill=0.4, game=TabletopCroquet(options)))
        result = replay(make_game(GAME, options), events)
        assert result.state.is_terminal(), f"{name}: the game did not finish"
        write_events(events, HERE / f"{name}.events.jsonl")
        with (HERE / f"{name}.rulings.jsonl").open("w", encoding="utf-8") as out:
            for ruling in result.rulings:
                out.write(json.dumps(ruling.to_json(), separators=(",", ":")) + "\n")
        (HERE / f"{name}.final.json").write_text(
            json.dumps(result.state.summary(), indent=2) + "\n", encoding="utf-8")
        print(f"{name}: {len(events)} events, {len(result.rulings)} rulings")


if __name__ == "__main__":
    main()
