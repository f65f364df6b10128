"""Does a recorded session replay as it was seen live?  The recorder's H.264 settings against
the camera's own frames.

    .venv/bin/python -m benchmarks.recording [--settings ultrafast:23,clips:23] [--json]

Live vision reads the camera's frames as they come; a dispute is replayed from the session's
recording (`referee.vision.source.Recorder`).  Each clip here is rendered by the simulator in
memory as an MJPEG webcam gives its frames (`Renderer`, each frame through JPEG at the look's
quality), run through the pipeline as live play runs it, then written with each setting (the
recorder's own ffmpeg command, at that preset and CRF; `clips`: the benchmark clips' writer),
read back and run again, as a replay.  Per setting: the recording's size, the encoder's CPU
time, how far the replay's coin centres and flicks' paths lie from the live run's, each run's
error against the truth (moving coins, paths) and its fast coins' (over 1 m/s) lag behind the
truth along their path, and whether the replay finds the live run's events (same type, coins
and piece within 50 ms, as `benchmarks.vision_accuracy`).
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from benchmarks.clips import HIDDEN, SCENARIO_SEED, Clip
from benchmarks.run import Instrumented, Timer, path_at
from benchmarks.vision_accuracy import KINDS, match
from referee.events import Event
from referee.layout import castle_croquetnole_layout
from referee.sim.encode import VideoWriter
from referee.sim.look import Look
from referee.sim.render import Renderer
from referee.sim.scenarios import scenario
from referee.sim.script import play
from referee.vision.calibrated import mapping_from_camera
from referee.vision.capture import Frame, VideoFile
from referee.vision.pipeline import Pipeline
from referee.vision.reconstruct import FlickWindow
from referee.vision.source import RECORD_CRF, RECORD_PRESET, recording_command

CLIPS = (Clip("fast-flick", 110, fps=60.0), Clip("fast-flick", 108), Clip("strike", 102),
         Clip("gate-run", 100))
"""Fast coins at both frame rates (a 3 m/s flick), a strike and a slide through gates."""
CLIPS_WRITER = "clips"
"""The setting's preset for the benchmark clips' writer (`referee.sim.encode`)."""
SETTINGS = (("ultrafast", 23), ("ultrafast", 20), ("superfast", 20), (CLIPS_WRITER, 23))
"""The recorder's; two that spend more bits or time; and the benchmark clips' own encoding."""
FAST_MM_S = 1000.0
"""Coins faster than this are "fast": their lag behind the truth is what coding costs."""

Centres = list[dict[str, tuple[float, float]]]


@dataclass
class Run:
    """One pass of the pipeline over a clip's frames: coin centres per frame and events."""

    centres: Centres
    events: list[Event]
    windows: list[FlickWindow]


@dataclass
class Measured:
    """One setting's figures, summed over the clips."""

    setting: str
    megabytes: float = 0.0
    seconds: float = 0.0
    encode_cpu_s: float = 0.0
    frames: int = 0
    rest_apart: list[float] = field(default_factory=list)
    moving_apart: list[float] = field(default_factory=list)
    paths_apart: list[float] = field(default_factory=list)
    rest_error: list[float] = field(default_factory=list)
    moving_error: list[float] = field(default_factory=list)
    paths_error: list[float] = field(default_factory=list)
    lag: list[float] = field(default_factory=list)
    events: dict[str, int] = field(default_factory=lambda: {"same": 0, "lost": 0,
                                                            "invented": 0})
    event_dt: list[float] = field(default_factory=list)

    def summary(self) -> dict:
        def rms(x: list[float]) -> float | None:
            return round(float(np.sqrt(np.mean(np.square(x)))), 3) if x else None

        def p95(x: list[float]) -> float | None:
            return round(float(np.percentile(x, 95)), 3) if x else None

        def most(x: list[float]) -> float | None:
            return round(max(x), 3) if x else None

        return {
            "setting": self.setting,
            "MB_per_minute": round(60.0 * self.megabytes / self.seconds, 2) if self.seconds
            else None,
            "encode_ms_per_frame": round(1000.0 * self.encode_cpu_s / self.frames, 2)
            if self.frames else None,
            "rest_apart_rms_mm": rms(self.rest_apart),
            "moving_apart_p95_mm": p95(self.moving_apart),
            "moving_apart_max_mm": most(self.moving_apart),
            "paths_apart_p95_mm": p95(self.paths_apart),
            "paths_apart_max_mm": most(self.paths_apart),
            "rest_error_rms_mm": rms(self.rest_error),
            "moving_error_p95_mm": p95(self.moving_error),
            "paths_error_p95_mm": p95(self.paths_error),
            "fast_lag_mean_mm": round(float(np.mean(self.lag)), 3) if self.lag else None,
            "fast_coin_frames": len(self.lag),
            "events": dict(self.events),
            "event_dt_max_ms": round(1000.0 * max(self.event_dt), 1) if self.event_dt
            else None,
        }


def run(frames: list[np.ndarray], clip: Clip, mapping, layout) -> Run:
    """The pipeline over frames, as `referee analyze` runs it."""
    pipeline = Instrumented(Pipeline(mapping, layout, clip.size, clip.fps), Timer())
    windows: list[FlickWindow] = []
    pipeline.pipeline.on_window = windows.append
    centres: Centres = []
    events: list[Event] = []
    for i, image in enumerate(frames):
        found, seen = pipeline.process(Frame(i, i / clip.fps, image))
        events += found
        centres.append(seen)
    events += pipeline.finish(len(frames) / clip.fps)
    return Run(centres, events, windows)


def recorded(frames: list[np.ndarray], clip: Clip, preset: str, crf: int, work: Path
             ) -> tuple[list[np.ndarray], int, float]:
    """The frames as a recording with these settings reads back, its size (bytes) and the
    encoder's CPU seconds.  Preset `clips`: written as the benchmark clips are
    (`referee.sim.encode`: x264 medium, one file, no fragments) at this CRF."""
    import imageio_ffmpeg

    path = work / f"{clip.name}-{preset}-{crf}.mp4"
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    if preset == CLIPS_WRITER:
        with VideoWriter(path, clip.size, clip.fps, crf) as writer:
            for image in frames:
                writer.write(image)
    else:
        proc = subprocess.Popen(recording_command(imageio_ffmpeg.get_ffmpeg_exe(), str(path),
                                                  clip.fps, clip.size, preset, crf),
                                stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL)
        assert proc.stdin is not None
        for image in frames:
            proc.stdin.write(np.ascontiguousarray(image).tobytes())
        proc.stdin.close()
        if proc.wait() != 0:
            raise SystemExit(f"ffmpeg failed on {path.name}")
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    video = VideoFile(path)  # read back as `referee replay` reads a recording
    try:
        back = [frame.image for frame in video]
    finally:
        video.close()
    if len(back) != len(frames):
        raise SystemExit(f"{path.name}: {len(back)} frames read back of {len(frames)}")
    size = path.stat().st_size
    path.unlink()
    return back, size, cpu


def truth_of(renderer: Renderer, timeline, frames: int, fps: float, layout
             ) -> tuple[Centres, list[dict]]:
    """Each frame's coins on the table one should see (table mm; as `ClipData.truth`, none
    more than HIDDEN under a hand) and their velocities (mm/s)."""
    positions, velocities = [], []
    for i in range(frames):
        t = i / fps
        hidden = {row["coin"]: row["occluded"] for row in renderer.frame_truth(timeline, i)}
        now = {c.coin: c for c in timeline.at(t).coins if c.visible}
        soon = {c.coin: c for c in timeline.at(t + 0.001).coins if c.visible}
        positions.append({c: tuple(p.center_mm) for c, p in now.items()
                          if layout.on_table(p.center_mm) and hidden.get(c, 0.0) <= HIDDEN})
        velocities.append({c: np.subtract(soon[c].center_mm, now[c].center_mm) / 0.001
                           for c in positions[-1] if c in soon})
    return positions, velocities


def compare(live: Run, replay: Run, truth: Centres, velocity: list[dict], fps: float,
            into: Measured) -> None:
    """The replay's centres, flicks' paths and events against the live run's, and its fast
    coins' lag."""
    for i, (seen_live, seen_replay, at, v) in enumerate(zip(
            live.centres, replay.centres, truth, velocity, strict=True)):
        for coin in at:
            if coin in v and np.hypot(*v[coin]) > 0.0:
                on_live, on_replay = (path_at(r.windows, coin, i / fps) for r in (live, replay))
                if on_live is not None and on_replay is not None:
                    into.paths_apart.append(float(np.hypot(*np.subtract(on_replay, on_live))))
                if on_replay is not None:
                    into.paths_error.append(float(np.hypot(*np.subtract(on_replay, at[coin]))))
        for coin, p in seen_replay.items():
            speed = float(np.hypot(*v[coin])) if coin in v else 0.0
            if coin in seen_live:
                apart = float(np.hypot(*np.subtract(p, seen_live[coin])))
                (into.moving_apart if speed > 0.0 else into.rest_apart).append(apart)
            if coin in at:
                error = float(np.hypot(*np.subtract(p, at[coin])))
                (into.moving_error if speed > 0.0 else into.rest_error).append(error)
            if speed > FAST_MM_S and coin in at:
                into.lag.append(-float(np.subtract(p, at[coin]) @ v[coin]) / speed)
    for kind in KINDS:
        same, lost, invented, dt = match([e for e in live.events if e.type == kind],
                                         [e for e in replay.events if e.type == kind])
        into.events["same"] += same
        into.events["lost"] += lost
        into.events["invented"] += invented
        into.event_dt += dt


def label(preset: str, crf: int) -> str:
    if preset == CLIPS_WRITER:
        return f"the benchmark clips' writer (x264 medium) CRF {crf}"
    return f"{preset} CRF {crf}" + (" (the recorder's)" if (preset, crf) ==
                                    (RECORD_PRESET, RECORD_CRF) else "")


def measure(clips: tuple[Clip, ...], settings: tuple[tuple[str, int], ...],
            mjpeg: bool = True) -> list[dict]:
    layout = castle_croquetnole_layout()
    live_figures = Measured("live (the camera's frames)")
    figures = {s: Measured(label(*s)) for s in settings}
    with tempfile.TemporaryDirectory() as tmp:
        for clip in clips:
            session = play(scenario(clip.scenario), seed=SCENARIO_SEED)
            renderer = Renderer(layout, Look.random(clip.look), clip.size, clip.fps, jpeg=mjpeg)
            frames = list(renderer.frames(session.timeline))
            mapping = mapping_from_camera(renderer.camera)
            truth, velocity = truth_of(renderer, session.timeline, len(frames), clip.fps,
                                       layout)
            live = run(frames, clip, mapping, layout)
            compare(live, live, truth, velocity, clip.fps, live_figures)
            live_figures.seconds += len(frames) / clip.fps
            for (preset, crf), into in figures.items():
                back, size, cpu = recorded(frames, clip, preset, crf, Path(tmp))
                compare(live, run(back, clip, mapping, layout), truth, velocity, clip.fps, into)
                into.megabytes += size / 1e6
                into.seconds += len(frames) / clip.fps
                into.encode_cpu_s += cpu
                into.frames += len(frames)
    return [live_figures.summary()] + [m.summary() for m in figures.values()]


def table(rows: list[dict]) -> str:
    head = ("| recording | MB/min | encode ms/frame | resting apart RMS mm | moving apart "
            "p95 / max mm | paths apart p95 / max mm | resting error RMS mm | "
            "moving / paths error p95 mm | "
            "fast coins' lag mm | events same / lost / invented | event Δt max ms |\n"
            "|---|---|---|---|---|---|---|---|---|---|---|")
    lines = [head]
    for r in rows:
        e = r["events"]
        lines.append(f"| {r['setting']} | {r['MB_per_minute'] or '-'}"
                     f" | {r['encode_ms_per_frame'] or '-'} | {r['rest_apart_rms_mm']} | "
                     f"{r['moving_apart_p95_mm']} / {r['moving_apart_max_mm']} | "
                     f"{r['paths_apart_p95_mm']} / {r['paths_apart_max_mm']} | "
                     f"{r['rest_error_rms_mm']} | "
                     f"{r['moving_error_p95_mm']} / {r['paths_error_p95_mm']} | "
                     f"{r['fast_lag_mean_mm']} | {e['same']} / {e['lost']} / {e['invented']} "
                     f"| {r['event_dt_max_ms']} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--settings", default=",".join(f"{p}:{c}" for p, c in SETTINGS),
                        help="x264 preset:crf pairs, comma-separated")
    parser.add_argument("--clips", default=",".join(f"{c.scenario}:{c.look}:{c.fps:g}"
                                                     for c in CLIPS),
                        help="scenario:look:fps triples, comma-separated")
    parser.add_argument("--raw", action="store_true",
                        help="the camera's frames uncompressed (as the benchmark clips are "
                             "rendered), not through an MJPEG webcam's JPEG")
    parser.add_argument("--json", action="store_true", help="print JSON")
    args = parser.parse_args(argv)
    try:
        settings = tuple((p, int(c)) for p, c in (s.split(":") for s in args.settings.split(",")))
        clips = tuple(Clip(name, int(look), fps=float(fps)) for name, look, fps in
                      (c.split(":") for c in args.clips.split(",")))
        for clip in clips:
            scenario(clip.scenario)
    except (ValueError, KeyError) as exc:
        parser.error(f"--settings: preset:crf pairs; --clips: scenario:look:fps triples ({exc})")
    cv2.setNumThreads(1)
    start = time.monotonic()
    rows = measure(clips, settings, mjpeg=not args.raw)
    print(json.dumps(rows, indent=2) if args.json else table(rows))
    print(f"({', '.join(c.name for c in clips)}; {time.monotonic() - start:.0f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
