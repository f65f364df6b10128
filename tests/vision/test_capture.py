"""A recorded video that ends early (a recording cut short, a damaged file) is read as far as it
goes and says so in one line, in the referee's words rather than the decoder's."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from referee.events import read_events
from referee.vision.capture import VideoFile

ROOT = Path(__file__).resolve().parents[2]
DEMO = ROOT / "sample_videos" / "demo-game"


def _cut(video: Path, share: float, out: Path) -> Path:
    """The first `share` of a video file's bytes: its header promises every frame."""
    data = video.read_bytes()
    out.write_bytes(data[:int(len(data) * share)])
    return out


def test_a_whole_video_is_not_cut_short() -> None:
    video = VideoFile(ROOT / "sample_videos" / "gate-run" / "video.mp4")
    assert sum(1 for _ in video) == video.frame_count
    assert video.cut_short() is None


def test_a_video_cut_short_says_where_it_ends(tmp_path: Path) -> None:
    video = VideoFile(_cut(ROOT / "sample_videos" / "gate-run" / "video.mp4", 0.5,
                           tmp_path / "cut.mp4"))
    frames = sum(1 for _ in video)
    assert 0 < frames < video.frame_count
    note = video.cut_short()
    assert note is not None and f"ends after {frames} of the {video.frame_count} frames" in note


def test_analyze_writes_a_cut_short_videos_events_with_one_note(tmp_path: Path) -> None:
    cut = _cut(DEMO / "video.mp4", 0.04, tmp_path / "cut.mp4")
    out = tmp_path / "events.jsonl"
    done = subprocess.run(
        [sys.executable, "-m", "referee", "analyze", str(cut), "--calibration",
         str(DEMO / "calibration.json"), "--out", str(out), "--quiet"],
        capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "cut short or damaged" in lines[0], lines  # no decoder chatter
    events = read_events(out)
    assert events and max(e.t for e in events) < 10.0
