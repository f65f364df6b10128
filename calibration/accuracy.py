"""Measure calibration's accuracy against known answers and print the figures.

    .venv/bin/python -m calibration.accuracy [--realdata ../shared/realdata] [--sim-looks 6]
                                             [--sim-first 0] [--planted]

Why: the figures quoted in docs/calibration.md must come from one command anyone can rerun.
It reports (1) intrinsics on OpenCV's real sample images against REFERENCE.md's values,
(2) automatic table corners and tile centres on calibration's own synthetic scenes, and
(3) the same on the simulator's independent renderer (rim, lens, tilt, raised tiles).
"""

from __future__ import annotations

import argparse
import math
from dataclasses import replace
from pathlib import Path

import numpy as np

from calibration.intrinsics import ChessboardPattern, calibrate_images, read_images
from calibration.pipeline import calibrate_still
from calibration.problems import Problem
from calibration.synthetic import Scene, render
from calibration.table_detect import TableNotFound
from referee.layout import Layout, castle_croquetnole_layout

TABLE_MM = (863.6, 863.6)
PUBLISHED = {"left": (535.9157, 342.2832, 235.5708), "right": (541.64, 327.28, 247.07)}
POSES = [[[300, 660], [1010, 640], [900, 110], [380, 90]],
         [[180, 700], [1100, 690], [930, 40], [350, 60]],
         [[420.37, 600.37], [880.37, 610.37], [860.37, 180.37], [400.37, 170.37]],
         [[250, 560], [900, 690], [1080, 120], [420, 40]]]
LOOKS = [{}, {"cloth_bgr": (120, 60, 30), "floor_bgr": (190, 190, 185)},
         {"cloth_bgr": (200, 205, 210), "floor_bgr": (40, 45, 50), "light_gradient": 0.5},
         {"cloth_bgr": (60, 60, 60), "floor_bgr": (80, 100, 120), "light": 0.6, "noise": 5.0}]


def pack_of(look: object) -> str:
    """The suit colour set (`calibration.pack.SUIT_SETS`) a simulator look inks its pieces
    with: piecepackr's dark set, or its default (the player says which, `--suit-colours`)."""
    from referee.sim.look import DARK_SUITS

    suits = look.coins.suit_rgb  # type: ignore[attr-defined]
    dark = all(np.abs(np.subtract(suits[s], DARK_SUITS[s])).max() < 40 for s in DARK_SUITS)
    return "dark" if dark else "piecepackr"


def _tile_errors(fitted: Layout, truth: Layout) -> list[float]:
    return [math.dist(fitted.pieces[n].center_mm, truth.pieces[n].center_mm)
            for n in truth.pieces]


def intrinsics_figures(realdata: Path) -> None:
    folder = realdata / "opencv-samples" / "calib"
    if not folder.is_dir():
        print(f"intrinsics: {folder} absent, skipped")
        return
    for side, (f_ref, cx_ref, cy_ref) in PUBLISHED.items():
        result = calibrate_images(read_images(sorted(folder.glob(f"{side}*.jpg"))),
                                  ChessboardPattern(9, 6, 25.0))
        k = result.intrinsics
        print(f"intrinsics {side}: {len(result.views)}/13 views, fx {k.fx:.2f} "
              f"({100 * (k.fx - f_ref) / f_ref:+.2f} %), cx {k.cx:.2f} ({k.cx - cx_ref:+.2f} px), "
              f"cy {k.cy:.2f} ({k.cy - cy_ref:+.2f} px), rms {k.rms_px:.3f} px")


def synthetic_figures() -> None:
    template = castle_croquetnole_layout()
    corners, tiles = [], []
    for i, pose in enumerate(POSES):
        for j, look in enumerate(LOOKS):
            scene = Scene(template, TABLE_MM, np.array(pose, float), seed=10 * i + j,
                          **look)  # type: ignore[arg-type]
            profile = calibrate_still(render(scene), template, TABLE_MM)
            corners.append(float(np.linalg.norm(profile.corners_px - scene.corners_px,
                                                axis=1).max()))
            tiles.append(max(_tile_errors(profile.layout, template)))
    print(f"synthetic ({len(corners)} scenes): table corners max {max(corners):.2f} px "
          f"(median {np.median(corners):.2f}); tile centres max {max(tiles):.2f} mm "
          f"(median of scene maxima {np.median(tiles):.2f})")


def simulator_figures(looks: int, first: int = 0) -> None:
    from calibration.intrinsics import Intrinsics
    from referee.sim.look import Look
    from referee.sim.render import Renderer
    from referee.sim.scene import Scene as SimScene

    class _Still:
        duration = 0.0

        def at(self, t: float) -> SimScene:
            return SimScene(coins=())

    template = castle_croquetnole_layout()
    corners, tiles, problems, worst_look = [], [], 0, -1
    for seed in range(first, first + looks):
        look = Look() if seed == 0 else Look.random(seed)
        renderer = Renderer(template, look, (1280, 720))
        cam = renderer.camera
        lens = Intrinsics(cam.camera_matrix, cam.dist_coeffs.reshape(1, -1), cam.size)
        truth_px = cam.project_mm_to_px(np.array(template.table))
        try:
            profile = calibrate_still(renderer.frame(_Still(), 0), template, TABLE_MM,
                                      intrinsics=lens, pack=pack_of(look),
                                      tile_thickness_mm=look.tiles.thickness_mm)
        except TableNotFound as exc:
            print(f"simulator look {seed}: table not found ({exc})")
            corners.append(math.inf)
            tiles.append(math.inf)
            continue
        corner = float(np.linalg.norm(profile.corners_px - truth_px, axis=1).max())
        tile = max(_tile_errors(profile.layout, template))
        if not tiles or tile > max(tiles):
            worst_look = seed
        corners.append(corner)
        tiles.append(tile)
        problems += len(profile.problems)
        print(f"simulator look {seed} (tilt {look.pose.tilt_deg:.1f}°, k1 {look.lens.k1:+.3f}): "
              f"corners max {corner:.2f} px, tiles max {tile:.2f} mm, "
              f"problems {len(profile.problems)}")
    if tiles:
        print(f"simulator looks {first}-{first + looks - 1}: table corners < 1 px in "
              f"{sum(c < 1.0 for c in corners)} of {looks} (worst {max(corners):.2f} px); "
              f"tile centres <= 1.0 mm in {sum(t <= 1.0 for t in tiles)} of {looks} "
              f"(worst {max(tiles):.2f} mm, look {worst_look}; median of look maxima "
              f"{np.median(tiles):.2f} mm); {problems} false problem(s)")


PLANTED = {("missing", "door-2-b"): None, ("off_place", "door-3-a"): 6.0,
           ("off_place", "post-12"): 4.0, ("opening_narrow", "gate-1"): 4.0,
           ("wrong_top", "tower-3"): None}
"""The problems `planted_layouts` sets up, with their true sizes (mm; None: no size)."""
REVERSED = {("castles_reversed", "castles"): 2.0}
"""Castles numbered anticlockwise: towers 2 and 4 show each other's suits."""


def planted_layouts(template: Layout) -> list[tuple[Layout, dict[tuple[str, str], float | None]]]:
    """Two set-ups with every kind of problem the issue names, and the problems expected.

    First: door-2-b missing, door-3-a 6 mm north of its place, post-12 4 mm east (gate-1 4 mm
    too narrow, post-12 itself 4 mm off), tower-3 topped by the Ace of suns.  Second: the
    castles numbered anticlockwise (towers 2 and 4 swapped).
    """
    pieces = dict(template.pieces)
    del pieces["door-2-b"]
    x, y = pieces["door-3-a"].center_mm
    pieces["door-3-a"] = replace(pieces["door-3-a"], center_mm=(x, y + 6.0))
    x, y = pieces["post-12"].center_mm
    pieces["post-12"] = replace(pieces["post-12"], center_mm=(x + 4.0, y))
    pieces["tower-3"] = replace(pieces["tower-3"], top="ace-of-suns")
    swapped = dict(template.pieces)
    swapped["tower-2"] = replace(swapped["tower-2"], top=template.pieces["tower-4"].top)
    swapped["tower-4"] = replace(swapped["tower-4"], top=template.pieces["tower-2"].top)
    return [(replace(template, pieces=pieces), PLANTED),
            (replace(template, pieces=swapped), REVERSED)]


def planted_misses(found: list[Problem], expected: dict[tuple[str, str], float | None],
                   size_mm: float = 0.5) -> list[str]:
    """What is wrong with the problems found: an expected one missing or mis-sized (beyond
    `size_mm`), or one not planted."""
    by_key = {(p.kind, p.subject): p for p in found}
    out = [f"not reported: {k[0]} {k[1]}" for k in expected if k not in by_key]
    out += [f"{k[0]} {k[1]}: size {by_key[k].size:.2f}, planted {v:.2f}"
            for k, v in expected.items() if k in by_key and v is not None
            and abs((by_key[k].size or 0.0) - v) > size_mm]
    out += [f"false: {p.text}" for k, p in by_key.items() if k not in expected]
    return out


def planted_figures(looks: int, first: int = 0) -> None:
    """Planted problems on the simulator's renderer: each must be reported, with its size."""
    from calibration.intrinsics import Intrinsics
    from referee.sim.look import Look
    from referee.sim.render import Renderer
    from referee.sim.scene import Scene as SimScene

    class _Still:
        duration = 0.0

        def at(self, t: float) -> SimScene:
            return SimScene(coins=())

    template = castle_croquetnole_layout()
    right = 0
    for seed in range(first, first + looks):
        look = Look() if seed == 0 else Look.random(seed)
        misses = []
        for layout, expected in planted_layouts(template):
            renderer = Renderer(layout, look, (1280, 720))
            cam = renderer.camera
            lens = Intrinsics(cam.camera_matrix, cam.dist_coeffs.reshape(1, -1), cam.size)
            try:
                profile = calibrate_still(renderer.frame(_Still(), 0), template, TABLE_MM,
                                          intrinsics=lens, pack=pack_of(look),
                                          tile_thickness_mm=look.tiles.thickness_mm)
                misses += planted_misses(profile.problems, expected)
            except TableNotFound as exc:
                misses.append(f"table not found ({exc})")
        right += not misses
        print(f"planted problems, look {seed}: " + ("all reported with their sizes"
                                                    if not misses else "; ".join(misses)))
    print(f"planted problems on simulator looks {first}-{first + looks - 1}: all reported, "
          f"sizes within 0.5 mm, nothing else, in {right} of {looks}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--realdata", type=Path,
                        default=Path(__file__).resolve().parents[2] / "shared" / "realdata")
    parser.add_argument("--sim-looks", type=int, default=6)
    parser.add_argument("--sim-first", type=int, default=0, help="the first look's seed")
    parser.add_argument("--planted", action="store_true",
                        help="also plant problems on each simulated look (twice the time)")
    args = parser.parse_args()
    intrinsics_figures(args.realdata)
    synthetic_figures()
    simulator_figures(args.sim_looks, args.sim_first)
    if args.planted:
        planted_figures(args.sim_looks, args.sim_first)


if __name__ == "__main__":
    main()
