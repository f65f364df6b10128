"""How fast the rules engine folds events, against reading the same events (one core).

    .venv/bin/python -m benchmarks.adjudicate_speed [--events 10000] [--repeat 5]

Baseline: parsing the JSONL text into typed events (what any consumer must do).  Reported:
the best-of-N seconds for each, events per second, and the ratio engine / parse.  The stream is
chaotic (fuzz) events, deterministic for the seed: wrong coins, rollbacks, scores, captures
and turns all happen, and the game does not end early (which would make the rest cheap).
"""

from __future__ import annotations

import argparse
import io
import json
import time

from referee.events import parse_events, write_events
from referee.rules import make_game, replay
from referee.rules.random_streams import chaotic_stream


def build_stream(n: int, seed: int = 7) -> list:
    """`n` chaotic events: every type, any coin, in any order (the engine's worst case:
    fouls, rollbacks and overrides-free refusals as well as scores and captures)."""
    return chaotic_stream(seed, n)


def best_of(repeat: int, fn) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args()
    events = build_stream(args.events)
    buffer = io.StringIO()
    write_events(events, buffer)
    text = buffer.getvalue()
    parse_s = best_of(args.repeat, lambda: list(parse_events(io.StringIO(text))))
    game = make_game("castle-croquetnole")
    fold_s = best_of(args.repeat, lambda: replay(game, events))
    over = replay(game, events).state.is_terminal()
    figures = {
        "events": len(events),
        "parse_s": round(parse_s, 4),
        "adjudicate_s": round(fold_s, 4),
        "adjudicate_events_per_s": round(len(events) / fold_s),
        "ratio_adjudicate_to_parse": round(fold_s / parse_s, 2),
        "under_one_second": fold_s < 1.0,
        "game_ended": over,
    }
    if args.json:
        print(json.dumps(figures))
        return
    print(f"{len(events)} events: parse {parse_s:.3f} s (baseline), adjudicate {fold_s:.3f} s "
          f"= {figures['adjudicate_events_per_s']} events/s, "
          f"{figures['ratio_adjudicate_to_parse']}x the parse time")


if __name__ == "__main__":
    main()
