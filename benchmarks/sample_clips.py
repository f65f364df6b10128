"""The bundled sample videos as a user meets them: `referee calibrate` on the video, then
`referee analyze` with that profile (not the simulator's exact camera), against each clip's
ground truth.

    .venv/bin/python -m benchmarks.sample_clips [CLIP ...] [--json]

Per clip and event type: found / true + invented (an event matches a true one of the same
type, coins, line, piece or stack and direction within 50 ms, as in
`benchmarks.vision_accuracy`; a lift or a place, which a hand does over the coin, within 50 ms
of the time its coin was hidden, which the event's evidence gives); and whether the rules
engine, folding vision's events, ends in the same final state as it does on the true events
(the scoreboard a player would see).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import sys
import tempfile
from pathlib import Path

from benchmarks.final_states import judged, row
from referee.cli import main as referee
from referee.events import read_events

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "sample_videos"


def measure(clip: str, work: Path) -> dict:
    video = SAMPLES / clip / "video.mp4"
    profile, found = work / f"{clip}.profile.json", work / f"{clip}.events.jsonl"
    for argv in (["calibrate", str(video), "--layout", "castle-croquetnole", "--out",
                  str(profile)],
                 ["analyze", str(video), "--calibration", str(profile), "--out", str(found),
                  "--quiet"]):
        with contextlib.redirect_stdout(io.StringIO()) as said:
            status = referee(argv)
        if status != 0:
            raise SystemExit(f"referee {' '.join(argv)} failed:\n{said.getvalue()}")
    return judged(clip, read_events(SAMPLES / clip / "events.jsonl"), read_events(found))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("clips", nargs="*", help="sample clips (default: all)")
    parser.add_argument("--json", action="store_true", help="print JSON")
    args = parser.parse_args(argv)
    clips = args.clips or sorted(p.name for p in SAMPLES.iterdir()
                                 if (p / "video.mp4").is_file())
    with tempfile.TemporaryDirectory() as tmp:
        results = [measure(clip, Path(tmp)) for clip in clips]
    if args.json:
        print(json.dumps(results, indent=2))
        return 0
    for r in results:
        print(row(r, 10))
    return 0


if __name__ == "__main__":
    sys.exit(main())
