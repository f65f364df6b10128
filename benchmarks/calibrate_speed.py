"""How long `referee calibrate` takes on a 720p video, on one core, against decoding it.

    .venv/bin/python -m benchmarks.calibrate_speed [--video sample_videos/gate-run/video.mp4]

Pinned to one core (and OpenCV to one thread).  Baseline: decoding the video's first two
seconds (calibration reads about that much to find its still second).  Reported: best of N
seconds for each and their ratio, and calibration's CPU seconds (what a busy machine does not
inflate); the issue asks for under 5 s.
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
import time
from contextlib import redirect_stdout
from io import StringIO
from pathlib import Path

import cv2

from referee.cli import main as referee

ROOT = Path(__file__).resolve().parents[1]


def decode_seconds(path: Path, seconds: float) -> float:
    start = time.perf_counter()
    cap = cv2.VideoCapture(str(path))
    fps = cap.get(cv2.CAP_PROP_FPS) or 30.0
    for _ in range(int(seconds * fps)):
        ok, _frame = cap.read()
        if not ok:
            break
    cap.release()
    return time.perf_counter() - start


def calibrate_seconds(path: Path) -> tuple[float, float]:
    """(wall seconds, CPU seconds of this process) for one `referee calibrate` of `path`."""
    with tempfile.TemporaryDirectory() as tmp:
        start, cpu = time.perf_counter(), time.process_time()
        with redirect_stdout(StringIO()):
            code = referee(["calibrate", str(path), "--layout", "castle-croquetnole", "--out",
                            str(Path(tmp) / "profile.json")])
        spent, cpu = time.perf_counter() - start, time.process_time() - cpu
    if code != 0:
        raise SystemExit(f"referee calibrate failed on {path} (exit {code})")
    return spent, cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--video", type=Path, default=ROOT / "sample_videos/gate-run/video.mp4")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    cv2.setNumThreads(1)
    decode = min(decode_seconds(args.video, 2.0) for _ in range(args.repeat))
    runs = [calibrate_seconds(args.video) for _ in range(args.repeat)]
    calibrate = min(wall for wall, _cpu in runs)
    cpu = min(c for _wall, c in runs)
    figures = {"video": str(args.video.relative_to(ROOT) if args.video.is_relative_to(ROOT)
                             else args.video),
               "decode_2s_s": round(decode, 3), "calibrate_s": round(calibrate, 3),
               "calibrate_cpu_s": round(cpu, 3),
               "ratio": round(calibrate / decode, 1), "under_5_s": calibrate < 5.0}
    if args.json:
        print(json.dumps(figures))
        return
    print(f"{figures['video']}: calibrate {calibrate:.2f} s on one core, {cpu:.2f} s of CPU "
          f"({figures['ratio']}x decoding its first 2 s, {decode:.3f} s)")


if __name__ == "__main__":
    main()
