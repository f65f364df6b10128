"""`referee demo | replay | live`: one clear line and exit 2 for what a user can fix."""

from __future__ import annotations

from pathlib import Path

import pytest

from referee.cli import COMMANDS, main


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
