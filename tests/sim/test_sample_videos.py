"""The bundled sample clips' ground truth is exactly what their documented command makes."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from referee.cli import main

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "sample_videos"


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


def test_every_clip_folder_is_documented() -> None:
    folders = {p.name for p in SAMPLES.iterdir() if p.is_dir()}
    assert folders and folders == set(documented_commands())


@pytest.mark.parametrize("clip", sorted(documented_commands()))
def test_the_command_reproduces_the_ground_truth(clip: str, tmp_path) -> None:
    words = documented_commands()[clip]
    out = words.index("--out")
    words[out + 1] = str(tmp_path)
    video = words.index("--video")
    del words[video:video + 2]  # rendering is tested elsewhere; the truth is what matters here
    assert main(words) == 0
    for name in ("events.jsonl", "tracks.csv", "meta.json"):
        assert (tmp_path / name).read_bytes() == (SAMPLES / clip / name).read_bytes(), name
    assert (SAMPLES / clip / "video.mp4").stat().st_size > 100_000
