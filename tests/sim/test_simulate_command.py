"""`referee simulate` writes deterministic ground truth."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from referee.cli import main
from referee.events import read_events


def test_simulate_writes_events_tracks_and_metadata(tmp_path: Path) -> None:
    out = tmp_path / "a"
    assert main(["simulate", "--scenario", "strike", "--seed", "4", "--out", str(out),
                 "--rate", "20"]) == 0
    events = read_events(out / "events.jsonl")
    assert events[0].type == "flick" and events[-1].type == "settled"
    with (out / "tracks.csv").open() as handle:
        rows = list(csv.DictReader(handle))
    assert list(rows[0]) == ["t", "coin", "x_mm", "y_mm"]
    assert float(rows[8]["t"]) == pytest.approx(0.05)
    meta = json.loads((out / "meta.json").read_text())
    assert meta["scenario"] == "strike" and meta["seed"] == 4 and meta["track_rate_hz"] == 20
    assert meta["flicks"][0]["coin"] == "moons"
    assert meta["files"] == ["events.jsonl", "tracks.csv", "rulings.jsonl", "meta.json"]
    rulings = [json.loads(line) for line in (out / "rulings.jsonl").read_text().splitlines()]
    assert [r["kind"] for r in rulings] == ["score", "bonus", "bonus"]  # out-1, the strike
    assert rulings[1]["clause"] == "CCN-40" and rulings[1]["bonus"] == 2


def test_same_seed_same_files(tmp_path: Path) -> None:
    for name in ("a", "b"):
        main(["simulate", "--scenario", "capture", "--seed", "9", "--out", str(tmp_path / name)])
    for f in ("events.jsonl", "tracks.csv", "rulings.jsonl", "meta.json"):
        assert (tmp_path / "a" / f).read_bytes() == (tmp_path / "b" / f).read_bytes()
    main(["simulate", "--scenario", "capture", "--seed", "10", "--out", str(tmp_path / "c")])
    assert (tmp_path / "c" / "events.jsonl").read_bytes() != \
        (tmp_path / "a" / "events.jsonl").read_bytes()


def test_usage_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--scenario", "strike"]) == 2
    assert "--out" in capsys.readouterr().err
    assert main(["simulate", "--out", str(tmp_path), "--rate", "0"]) == 2
    assert main(["simulate", "--list"]) == 0
    assert "off-table" in capsys.readouterr().out


def test_video_options_reach_the_renderer(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    import referee.commands.simulate as command

    calls: list[dict[str, object]] = []
    monkeypatch.setattr(command, "_renderer",
                        lambda: lambda timeline, layout, path, **kw: calls.append(kw))
    base = ["simulate", "--scenario", "strike", "--seed", "4", "--out", str(tmp_path),
            "--video", str(tmp_path / "v.mp4")]
    assert main(base) == 0
    assert main([*base, "--size", "1080p", "--fps", "60", "--look", "7"]) == 0
    assert calls == [{"seed": 4, "size": (1280, 720), "fps": 30.0},
                     {"seed": 7, "size": (1920, 1080), "fps": 60.0}]
    assert main([*base, "--fps", "0"]) == 2
    assert "--fps" in capsys.readouterr().err
