"""Does a change to vision change any result?  Record every frame's results, then compare.

    .venv/bin/python -m benchmarks.exact record DIR [--clips ...]   # the code before
    .venv/bin/python -m benchmarks.exact compare DIR [--clips ...]  # the code after

For each clip (the benchmark's 16 rendered clips by default, `python -m benchmarks` renders
them, and the bundled demo game through its calibration profile), every frame's detections
(centres, radii, streaks, looks, confidences), the tracker's assignment, the hands' mask and
the events the pipeline emitted are written to DIR (`record`), or compared with what DIR
holds (`compare`): the first frame where anything differs, and by how much, per clip.  A
speed change that is meant to change nothing must print "identical" for every clip; one that
is meant to change results is measured on the benchmark's figures instead.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from benchmarks.__main__ import full_clips, one_core
from benchmarks.clips import Clip, ClipData
from referee.vision.calibrated import load, pipeline_for
from referee.vision.capture import Frame, VideoFile
from referee.vision.pipeline import Pipeline

ROOT = Path(__file__).resolve().parents[1]
DEMO = ROOT / "sample_videos" / "demo-game"
FIELDS = ("center_mm", "radius_mm", "streak_mm", "streak_dir", "look", "confidence")


@dataclass
class Recorded:
    """One frame's results: the detections' arrays, the assignment, a digest of the hands'
    mask and the events as JSON."""

    detections: dict[str, list]
    assigned: dict[str, int]
    hands: str
    events: list[dict]


def _pipeline_of(name: str, cache: Path) -> tuple[Pipeline, VideoFile]:
    """The pipeline `referee analyze` would run on the clip, and its video."""
    if name == "demo-game":
        profile = load(DEMO / "calibration.json")
        video = VideoFile(DEMO / "video.mp4")
        return pipeline_for(profile, video.size, video.fps), video
    clip = clip_named(name)
    data = ClipData(clip, cache)
    return (Pipeline(data.mapping, data.layout, clip.size, clip.fps, tiles=data.tiles),
            VideoFile(data.video))


def clip_named(name: str) -> Clip:
    """A clip by its name (`Clip.name`: scenario-lookN-720p30), rendered if not cached."""
    m = re.fullmatch(r"(?P<scenario>[a-z-]+)-look(?P<look>\d+)-(?P<height>\d+)p(?P<fps>\d+)", name)
    if m is None:
        raise SystemExit(f"{name}: not a clip's name (scenario-lookN-720p30, or demo-game)")
    height = int(m["height"])
    return Clip(m["scenario"], int(m["look"]), (height * 16 // 9, height), float(m["fps"]))


def record_clip(name: str, cache: Path) -> list[Recorded]:
    """Every frame's results of one clip, as the pipeline gives them."""
    pipeline, video = _pipeline_of(name, cache)
    seen: dict[str, object] = {}
    detect = pipeline.detector.detect

    def kept_detect(*args, **kwargs):
        seen["detections"], seen["hands"] = out = detect(*args, **kwargs)
        return out
    pipeline.detector.detect = kept_detect
    bind = pipeline._bind

    def bound(frame: Frame):
        start = bind(frame)
        update = pipeline.tracker.update

        def kept_update(*args, **kwargs):
            seen["assigned"] = out = update(*args, **kwargs)
            return out
        pipeline.tracker.update = kept_update
        return start
    pipeline._bind = bound
    frames: list[Recorded] = []
    for frame in video:
        events = pipeline.process(frame)
        d, hands = seen["detections"], seen["hands"]
        frames.append(Recorded(
            {f: np.asarray(getattr(d, f)).tolist() for f in FIELDS},
            dict(seen["assigned"]),
            hashlib.sha1(np.packbits(np.asarray(hands) > 0)).hexdigest(),
            [e.to_json() for e in events]))
    end = video.frames_read / video.fps
    frames.append(Recorded({}, {}, "", [e.to_json() for e in pipeline.finish(end)]))
    return frames


def difference(before: Recorded, after: Recorded) -> str | None:
    """What differs between two frames' results (None: nothing)."""
    for f in FIELDS:
        a = np.asarray(before.detections.get(f, []), float)
        b = np.asarray(after.detections.get(f, []), float)
        if a.shape != b.shape:
            return f"{f}: {a.shape[0] if a.ndim else 0} detections, now " \
                   f"{b.shape[0] if b.ndim else 0}"
        if a.size and not np.array_equal(a, b):
            return f"{f}: up to {float(np.max(np.abs(a - b))):.3g} apart"
    if before.assigned != after.assigned:
        return f"assignment {before.assigned} -> {after.assigned}"
    if before.hands != after.hands:
        return "hands' mask"
    if before.events != after.events:
        return f"events {before.events} -> {after.events}"
    return None


def _path(out: Path, name: str) -> Path:
    return out / f"{name}.json"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.exact",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("mode", choices=("record", "compare"))
    parser.add_argument("dir", type=Path, help="where the recorded results are kept")
    parser.add_argument("--clips", nargs="*",
                        default=[c.name for c in full_clips(2)] + ["demo-game"],
                        help="clip names (default: the benchmark's and demo-game; any "
                             "scenario-lookN-720p30 is rendered into the cache if need be)")
    parser.add_argument("--cache", type=Path, default=ROOT / "benchmarks" / ".cache",
                        help="the benchmark's rendered clips")
    args = parser.parse_args(argv)
    one_core()
    args.dir.mkdir(parents=True, exist_ok=True)
    differing = 0
    for name in args.clips:
        frames = record_clip(name, args.cache)
        if args.mode == "record":
            _path(args.dir, name).write_text(json.dumps([f.__dict__ for f in frames]))
            print(f"{name}: {len(frames) - 1} frames recorded", flush=True)
            continue
        before = [Recorded(**f) for f in json.loads(_path(args.dir, name).read_text())]
        verdict = "identical"
        if len(before) != len(frames):
            verdict = f"{len(before) - 1} frames recorded, {len(frames) - 1} now"
        else:
            for k, (b, a) in enumerate(zip(before, frames, strict=True)):
                what = difference(b, a)
                if what is not None:
                    verdict = f"frame {k}: {what}"
                    break
        differing += verdict != "identical"
        print(f"{name}: {verdict}", flush=True)
    return 1 if differing else 0


if __name__ == "__main__":
    sys.exit(main())
