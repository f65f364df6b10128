"""`referee demo | replay | live`: one clear line and exit 2 for what a user can fix."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from referee.cli import COMMANDS, main

ROOT = Path(__file__).resolve().parents[2]


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    code = main(argv)
    return code, capsys.readouterr().err.strip()


def test_registered() -> None:
    assert {"demo", "replay", "live"} <= set(COMMANDS)


def test_live_without_a_camera_is_one_clear_line(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    code, err = run(["live", "--camera", "57", "--db", str(tmp_path / "s.db")], capsys)
    assert code == 2
    assert err == ("referee live: error: no camera 57 found (is the webcam plugged in? "
                   "try another --camera index)")


def test_replay_refusals(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "s.db")
    code, err = run(["replay", str(tmp_path / "none.mp4"), "--db", db], capsys)
    assert code == 2 and "no such file" in err and "\n" not in err
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"t": 1, "type": "flick"}\n')
    code, err = run(["replay", str(bad), "--db", db], capsys)
    assert code == 2 and "bad.jsonl:1" in err
    calib = tmp_path / "c.json"
    calib.write_text("[1, 2]")
    code, err = run(["replay", str(bad), "--calibration", str(calib), "--db", db], capsys)
    assert code == 2 and "calibration profile" in err
    profile = json.loads((ROOT / "sample_videos" / "demo-game" / "calibration.json").read_text())
    profile["table"]["corners_px"] = [[0, 0], [1, 1]]
    calib.write_text(json.dumps(profile))
    code, err = run(["replay", str(bad), "--calibration", str(calib), "--db", db], capsys)
    assert code == 2 and "\n" not in err and "c.json: 1 problem(s)" in err \
        and "corners_px" in err  # named by its file, every problem at once


def test_demo_refusals(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "s.db")
    code, err = run(["demo", "--port", "70000", "--db", db], capsys)
    assert code == 2 and "port" in err
    code, err = run(["demo", "--option", "nonsense=1", "--db", db, "--port", "0"], capsys)
    assert code == 2 and "unknown option" in err
    code, err = run(["demo", "--pin", "12", "--db", db, "--port", "0"], capsys)
    assert code == 2 and "PIN" in err
    code, err = run(["demo", "--speed", "0", "--db", db], capsys)
    assert code == 2 and "speed" in err


def test_replay_video_refusals(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "s.db")
    clip = Path(__file__).resolve().parents[2] / "sample_videos" / "strike" / "video.mp4"
    code, err = run(["replay", str(clip), "--db", db], capsys)
    assert code == 2 and "calibration profile is needed" in err and "\n" not in err
    fake = tmp_path / "fake.mp4"
    fake.write_bytes(b"not a video at all")
    calib = tmp_path / "c.json"
    calib.write_text('{"format": "piecepack-calibration"}')
    code, err = run(["replay", str(fake), "--calibration", str(calib), "--db", db], capsys)
    assert code == 2 and "\n" not in err and err.startswith("referee replay: error: ")


def test_demo_runs_the_sample_game_s_video_through_vision_or_replays_events(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The README's first command referees the bundled video with its bundled calibration
    profile (made by `referee calibrate` of that video); `--events` replays a stream."""
    from referee.commands import demo
    from referee.session import EventFileSource
    from referee.vision.source import VideoSource

    served: list[tuple[object, dict | None]] = []
    monkeypatch.setattr(demo, "serve", lambda args, source, label, calibration=None:
                        served.append((source, calibration)) or 0)
    db = str(tmp_path / "s.db")
    assert main(["demo", "--db", db]) == 0
    source, calibration = served[-1]
    assert isinstance(source, VideoSource) and calibration is not None
    assert Path(source.path) == demo.SAMPLE_VIDEO
    assert calibration["image_size"] == list(source.video.size)  # made of this very video
    assert main(["demo", "--db", db, "--events", str(demo.EXAMPLE)]) == 0
    assert isinstance(served[-1][0], EventFileSource) and served[-1][1] is None
