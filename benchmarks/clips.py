"""Benchmark clips: simulated scenarios rendered to video files in a cache, with their truth.

A clip is (scenario, look seed, size, fps).  The video is written once by the simulator's own
`write_video` (what `referee simulate --video` calls, with the size and look chosen here) into
the cache directory, under a hash of the simulator's sources, and reused; the simulator is
deterministic, so a cached clip is the clip.
The truth is the scenario's timeline (exact physics, table mm) and its events, plus the
renderer's per-frame `<stem>.truth.jsonl` (how much of each coin a hand hides).
"""

from __future__ import annotations

import hashlib
import json
import math
import os
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

import numpy as np

from calibration.accuracy import TABLE_MM, pack_of
from calibration.intrinsics import Intrinsics
from calibration.plane import TablePlane
from calibration.verify import TileCheck
from referee.events import Event, Lift, Place
from referee.layout import Layout, castle_croquetnole_layout
from referee.sim.camera import Camera
from referee.sim.look import Look
from referee.sim.render import write_video
from referee.sim.scenarios import scenario
from referee.sim.script import Session, play
from referee.vision.calibrated import mapping_from_camera
from referee.vision.detect import PixelMapping


def sim_fingerprint() -> str:
    """A hash of the simulator's and the layout's sources: rendered clips are kept under it,
    so a change to the renderer (or physics, or an encoder) renders the clips anew."""
    root = Path(__file__).resolve().parents[1] / "referee"
    digest = hashlib.sha256()
    for path in sorted([*(root / "sim").glob("*.py"), root / "layout.py"]):
        digest.update(path.name.encode() + path.read_bytes())
    return digest.hexdigest()[:12]


SCENARIO_SEED = 1
"""The players' errors; the same seed as the sample clips."""
HIDDEN = 0.5
"""A coin more than this share under a hand is not expected to be seen (not in the truth)."""


@dataclass(frozen=True)
class Clip:
    scenario: str
    look: int
    size: tuple[int, int] = (1280, 720)
    fps: float = 30.0

    @property
    def name(self) -> str:
        return f"{self.scenario}-look{self.look}-{self.size[1]}p{self.fps:g}"

    @property
    def group(self) -> str:
        """Clips of one size and rate are summed together in the report."""
        return f"{self.size[1]}p{self.fps:g}"


@dataclass
class Truth:
    """Per frame: the coins one should see, {coin: (x_mm, y_mm)}, and whether each moves."""

    positions: list[dict[str, tuple[float, float]]]
    moving: list[dict[str, bool]]
    events: list[Event]
    present: list[dict[str, tuple[float, float]]]
    """Every coin lying on the table, hidden by a hand or not (not one a hand lifts)."""
    held: list[set[str]] = field(default_factory=list)
    """The coins a hand holds, between their lift and their place (none: not given)."""

    def behind_hand(self, i: int) -> set[str]:
        """Frame `i`'s coins no camera sees: on the table under a hand, or in one."""
        held = self.held[i] if i < len(self.held) else set()
        return (set(self.present[i]) - set(self.positions[i])) | held


def remove_stale_partials(cache: Path, name: str) -> list[Path]:
    """Remove clip `name`'s partial renders left in `cache` by processes no longer running
    (a run killed while it rendered); those of a live process are its work in progress."""
    removed = []
    for path in cache.glob(f"{name}.partial-*"):
        pid = path.name.removeprefix(f"{name}.partial-").split(".")[0]
        if pid.isdigit() and not _running(int(pid)):
            path.unlink(missing_ok=True)
            removed.append(path)
    return removed


def _running(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # another user's process
    return True


class ClipData:
    """A rendered clip: its video path, camera mapping, layout and ground truth."""

    def __init__(self, clip: Clip, cache: Path) -> None:
        self.clip = clip
        self.layout: Layout = castle_croquetnole_layout()
        cache = cache / f"sim-{sim_fingerprint()}"
        self.video = cache / f"{clip.name}.mp4"
        look = Look.random(clip.look)
        self.camera = Camera(int(clip.size[0]), int(clip.size[1]), look.lens, look.pose)
        self.rendered = not (self.video.is_file()
                             and self.video.with_suffix(".truth.jsonl").is_file())
        """True when this run rendered the clip (False: it came from the cache)."""
        if self.rendered:
            cache.mkdir(parents=True, exist_ok=True)
            # one name per process: two runs rendering the same clip into one cache at once
            # would write over each other's files (the first to finish moved them away)
            partial = cache / f"{clip.name}.partial-{os.getpid()}.mp4"
            remove_stale_partials(cache, clip.name)
            # the video last: a clip is in the cache once its video and truth are
            files = [(partial.with_suffix(ext), self.video.with_suffix(ext))
                     for ext in (".truth.jsonl", ".camera.json", ".mp4")]
            try:
                write_video(partial, self.session.timeline, self.layout, look, clip.size,
                            clip.fps, progress=False)
            except BaseException:  # stopped or failed: leave no half-written clip behind
                for written, _ in files:
                    written.unlink(missing_ok=True)
                raise
            for written, kept in files:
                written.replace(kept)

    @cached_property
    def session(self) -> Session:
        return play(scenario(self.clip.scenario), seed=SCENARIO_SEED)

    @property
    def mapping(self) -> PixelMapping:
        return mapping_from_camera(self.camera)

    @property
    def tiles(self) -> TileCheck:
        """Where the tiles stand, read as a calibration of this camera would (vision's
        `tile_moved`): through the camera's own plane and lens."""
        look = Look.random(self.clip.look)
        lens = Intrinsics(self.camera.camera_matrix, self.camera.dist_coeffs.reshape(1, -1),
                          self.camera.size)
        return TileCheck(TablePlane(self.camera.homography_mm_to_px(), lens), self.layout,
                         TABLE_MM, pack_of(look), look.tiles.thickness_mm,
                         self.camera.center_mm)

    def truth(self, frames: int) -> Truth:
        """Truth for the first `frames` frames (a coin hidden by a hand is left out)."""
        rows = [json.loads(line) for line in
                self.video.with_suffix(".truth.jsonl").read_text().splitlines() if line]
        timeline = self.session.timeline
        positions, moving, present = [], [], []
        for i in range(frames):
            t = i / self.clip.fps
            now = {c.coin: c for c in timeline.at(t).coins}
            soon = {c.coin: c for c in timeline.at(t + 0.01).coins}
            hidden = {r["coin"]: r["occluded"] for r in rows[i]["coins"]} if i < len(rows) else {}
            there = {c: tuple(float(v) for v in p.center_mm) for c, p in now.items()
                     if p.visible and self.layout.on_table(p.center_mm)}
            seen = {c: p for c, p in there.items() if hidden.get(c, 0.0) <= HIDDEN}
            positions.append(seen)
            present.append(there)
            moving.append({c: bool(np.hypot(*np.subtract(soon[c].center_mm, now[c].center_mm))
                                   > 0.05) for c in seen})
        return Truth(positions, moving, list(self.session.events), present,
                     _held(self.session.events, frames, self.clip.fps))


def _held(events: list[Event], frames: int, fps: float) -> list[set[str]]:
    """Per frame, the coins a hand holds: from each true lift to the coin's next place."""
    spans: list[tuple[str, float, float]] = []
    lifted: dict[str, float] = {}
    for e in sorted(events, key=lambda e: e.t):
        if isinstance(e, Lift):
            lifted[e.coin] = e.t
        elif isinstance(e, Place) and e.coin in lifted:
            spans.append((e.coin, lifted.pop(e.coin), e.t))
    spans += [(coin, t, math.inf) for coin, t in lifted.items()]
    return [{coin for coin, t0, t1 in spans if t0 <= i / fps < t1} for i in range(frames)]
