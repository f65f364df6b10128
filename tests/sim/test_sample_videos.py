"""The bundled sample clips: their ground truth is exactly what their documented command makes,
the demo game shows every moment the referee must rule on, and the videos are small and decode
with OpenCV (as vision reads them)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import cv2
import pytest

from referee.cli import main
from referee.events import read_events
from referee.sim.story import MOMENTS, check_story, count_moments

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "sample_videos"
GROUND_TRUTH = ("events.jsonl", "tracks.csv", "meta.json")
BUDGET_BYTES = 25_000_000


def documented_commands() -> dict[str, list[str]]:
    """Clip folder → the `referee simulate …` words its README row gives."""
    text = (SAMPLES / "README.md").read_text(encoding="utf-8")
    found = {}
    for command in re.findall(r"`referee (simulate [^`]+)`", text):
        words = command.split()
        if "--out" not in words:
            continue  # a mention of the command, not a clip's recipe
        found[words[words.index("--out") + 1].split("/")[-1]] = words
    return found


def ruling_facts(path: Path) -> list[dict[str, object]]:
    """A rulings file without its wording: what was ruled, by which clause, on whom, when."""
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    return [{k: v for k, v in row.items() if k not in ("text", "rule")} for row in rows]


def test_every_clip_folder_is_documented() -> None:
    folders = {p.name for p in SAMPLES.iterdir() if p.is_dir()}
    assert folders and folders == set(documented_commands())
    assert "demo-game" in folders


@pytest.mark.parametrize("clip", sorted(documented_commands()))
def test_the_command_reproduces_the_ground_truth(clip: str, tmp_path) -> None:
    words = documented_commands()[clip]
    out = words.index("--out")
    words[out + 1] = str(tmp_path)
    video = words.index("--video")
    del words[video:video + 2]  # rendering is tested elsewhere; the truth is what matters here
    assert main(words) == 0
    for name in GROUND_TRUTH:
        assert (tmp_path / name).read_bytes() == (SAMPLES / clip / name).read_bytes(), name
    # the engine's rulings: the same decisions (their wording may be edited)
    made, committed = tmp_path / "rulings.jsonl", SAMPLES / clip / "rulings.jsonl"
    assert ruling_facts(made) == ruling_facts(committed)
    assert (SAMPLES / clip / "video.mp4").stat().st_size > 100_000


def test_the_demo_game_shows_every_moment() -> None:
    """From the committed ground truth alone: scores, a capture, a release, a strike, a coin off
    the table, a win, 60-120 s."""
    demo = SAMPLES / "demo-game"
    meta = json.loads((demo / "meta.json").read_text(encoding="utf-8"))
    assert meta["scenario"] == "demo-game" and meta["game"] == "castle-croquetnole"
    rulings = check_story(read_events(demo / "events.jsonl"), meta["duration_s"])
    counts = count_moments(rulings)
    assert all(counts[name] >= 1 for name in MOMENTS), counts
    assert rulings[-1].kind == "win"
    committed = ruling_facts(demo / "rulings.jsonl")
    assert [r.kind for r in rulings] == [row["kind"] for row in committed]


@pytest.mark.parametrize("clip", sorted(documented_commands()))
def test_the_video_decodes_with_opencv(clip: str) -> None:
    folder = SAMPLES / clip
    frames = len((folder / "video.truth.jsonl").read_text(encoding="utf-8").splitlines())
    meta = json.loads((folder / "meta.json").read_text(encoding="utf-8"))
    assert frames == int(meta["duration_s"] * 30 + 1e-9) + 1  # 30 fps, both ends
    cap = cv2.VideoCapture(str(folder / "video.mp4"))
    try:
        assert cap.isOpened()
        assert int(cap.get(cv2.CAP_PROP_FRAME_COUNT)) == frames
        assert cap.get(cv2.CAP_PROP_FPS) == pytest.approx(30.0)
        ok, first = cap.read()
        assert ok and first.shape == (720, 1280, 3)
        cap.set(cv2.CAP_PROP_POS_FRAMES, frames - 1)
        ok, last = cap.read()
        assert ok and last.shape == first.shape
    finally:
        cap.release()


def test_the_clips_fit_the_budget() -> None:
    total = sum(p.stat().st_size for p in SAMPLES.rglob("*") if p.is_file())
    assert total < BUDGET_BYTES, f"sample_videos/ holds {total / 1e6:.1f} MB"
