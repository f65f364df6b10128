"""Where a resting coin's error comes from: one scenario's first frames rendered again with one
part of the look taken away at a time, each through a fresh pipeline, and the error of every
coin at rest against the truth.

    .venv/bin/python -m benchmarks.resting_budget [--scenario tower-hit] [--look 104]

The frames go to the pipeline as rendered (no video codec), so "as filmed" differs a little
from the clip's own reading.  Each coin's error is split into its radial part (away from the
point under the lens: the coin's height and side wall act along it) and the rest; a bias
steady from frame to frame is what the resting figure of `python -m benchmarks` is made of.
"""

from __future__ import annotations

import argparse
import dataclasses
import math
from collections.abc import Callable

import numpy as np

from benchmarks.clips import SCENARIO_SEED
from benchmarks.run import Instrumented, Timer
from referee.layout import castle_croquetnole_layout
from referee.sim.look import Look
from referee.sim.render import Renderer
from referee.sim.scenarios import scenario
from referee.sim.script import play
from referee.vision.calibrated import mapping_from_camera
from referee.vision.capture import Frame
from referee.vision.pipeline import Pipeline

FRAMES = 3
"""Frames rendered and run: the session starts on the first, the coins rest in all."""
SIZE, FPS = (1280, 720), 30.0


def with_coins(look: Look, **kw: float) -> Look:
    """The look with its coins changed (`CoinDesign` fields)."""
    return dataclasses.replace(look, coins=dataclasses.replace(look.coins, **kw))


CHANGES: dict[str, Callable[[Look], Look]] = {
    "no sensor noise, no cloth texture": lambda k: dataclasses.replace(
        k, read_noise=0.0, shot_noise=0.0, cloth_grain=0.0, cloth_mottle=0.0),
    "no cast shadows": lambda k: dataclasses.replace(k, shadow_strength=0.0),
    "no lens distortion": lambda k: dataclasses.replace(k, lens=dataclasses.replace(
        k.lens, k1=0.0, k2=0.0, p1=0.0, p2=0.0, k3=0.0)),
    "even light": lambda k: dataclasses.replace(k, gradient=0.0, hotspot=0.0, vignetting=0.0),
    "no sharpening by the webcam": lambda k: dataclasses.replace(k, sharpen=0.0),
    "no optical blur": lambda k: dataclasses.replace(k, optical_blur_px=0.0),
    "coins 3.0 mm thick, as vision takes them": lambda k: with_coins(k, thickness_mm=3.0),
}
"""Each a part of the look taken away (the others as the look has them)."""


def resting_errors(name: str, look: Look) -> tuple[np.ndarray, np.ndarray]:
    """(N, 2) each coin's error (mm) after FRAMES frames of `name` under `look`, and (N, 2)
    the unit vector from the point under the lens to each coin."""
    layout = castle_croquetnole_layout()
    timeline = play(scenario(name), SCENARIO_SEED).timeline
    renderer = Renderer(layout, look, SIZE, FPS)
    mapping = mapping_from_camera(renderer.camera)
    ours = Instrumented(Pipeline(mapping, layout, SIZE, FPS), Timer())
    for i, image in enumerate(renderer.frames(timeline, 0, FRAMES)):
        ours.process(Frame(i, i / FPS, image))
    found = ours.last.center_mm  # every detection of the last frame
    truth = np.array([c.center_mm for c in timeline.at(0.0).coins], float)
    nearest = np.argmin(np.linalg.norm(found[None] - truth[:, None], axis=2), axis=1)
    outward = truth - np.asarray(mapping.camera_mm, float)[:2]
    return found[nearest] - truth, outward / np.hypot(*outward.T)[:, None]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenario", default="tower-hit")
    parser.add_argument("--look", type=int, default=104)
    args = parser.parse_args()
    base = Look.random(args.look)
    variants = {"as filmed": base, **{k: f(base) for k, f in CHANGES.items()}}
    variants["all of these at once"] = base
    for f in CHANGES.values():
        variants["all of these at once"] = f(variants["all of these at once"])
    print(f"{args.scenario} at look {args.look}: coins at rest after {FRAMES} frames (mm)")
    print(f"{'':42s} {'RMS':>6s} {'radial':>7s} {'across':>7s}")
    for label, look in variants.items():
        errors, outward = resting_errors(args.scenario, look)
        radial = np.einsum("ij,ij->i", errors, outward)
        across = errors[:, 0] * -outward[:, 1] + errors[:, 1] * outward[:, 0]
        rms = math.sqrt(float(np.mean(np.sum(errors ** 2, axis=1))))
        print(f"{label:42s} {rms:6.3f} {math.sqrt(float(np.mean(radial ** 2))):7.3f} "
              f"{math.sqrt(float(np.mean(across ** 2))):7.3f}")


if __name__ == "__main__":
    main()
