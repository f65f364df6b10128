"""The clip cache: a killed render's partial files go; a live one's stay."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from benchmarks.clips import remove_stale_partials


def test_partial_renders_of_dead_processes_are_removed_and_live_ones_kept(
        tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True, check=True)
    dead = int(done.stdout)
    name = "strike-look100-720p30"
    stale = [tmp_path / f"{name}.partial-{dead}{ext}"
             for ext in (".mp4", ".truth.jsonl", ".camera.json")]
    live = tmp_path / f"{name}.partial-{os.getpid()}.mp4"
    other = tmp_path / f"gate-run-look100-720p30.partial-{dead}.mp4"
    for path in (*stale, live, other):
        path.write_text("")
    assert sorted(remove_stale_partials(tmp_path, name)) == sorted(stale)
    assert live.exists() and other.exists()
