"""Measure calibration's accuracy against known answers and print the figures.

    .venv/bin/python -m calibration.accuracy [--realdata ../shared/realdata] [--sim-looks 6]

Why: the figures quoted in docs/calibration.md must come from one command anyone can rerun.
It reports (1) intrinsics on OpenCV's real sample images against REFERENCE.md's values,
(2) automatic table corners and tile centres on calibration's own synthetic scenes, and
(3) the same on the simulator's independent renderer (rim, lens, tilt, raised tiles).
"""

from __future__ import annotations

import argparse
import math
from pathlib import Path

import numpy as np

from calibration.intrinsics import ChessboardPattern, calibrate_images, read_images
from calibration.pipeline import calibrate_still
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
    for seed in range(first, first + looks):
        look = Look() if seed == 0 else Look.random(seed)
        renderer = Renderer(template, look, (1280, 720))
        cam = renderer.camera
        lens = Intrinsics(cam.camera_matrix, cam.dist_coeffs.reshape(1, -1), cam.size)
        truth_px = cam.project_mm_to_px(np.array(template.table))
        try:
            profile = calibrate_still(renderer.frame(_Still(), 0), template, TABLE_MM,
                                      intrinsics=lens,
                                      tile_thickness_mm=look.tiles.thickness_mm)
        except TableNotFound as exc:
            print(f"simulator look {seed}: table not found ({exc})")
            continue
        corner = float(np.linalg.norm(profile.corners_px - truth_px, axis=1).max())
        tile = max(_tile_errors(profile.layout, template))
        print(f"simulator look {seed} (tilt {look.pose.tilt_deg:.1f}°, k1 {look.lens.k1:+.3f}): "
              f"corners max {corner:.2f} px, tiles max {tile:.2f} mm, "
              f"problems {len(profile.problems)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--realdata", type=Path,
                        default=Path(__file__).resolve().parents[2] / "shared" / "realdata")
    parser.add_argument("--sim-looks", type=int, default=6)
    parser.add_argument("--sim-first", type=int, default=0, help="the first look's seed")
    args = parser.parse_args()
    intrinsics_figures(args.realdata)
    synthetic_figures()
    simulator_figures(args.sim_looks, args.sim_first)


if __name__ == "__main__":
    main()
