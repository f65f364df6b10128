"""Without a calibrated lens, the lens is guessed from the tiles' layout when that brings
the layout truer to the template: under the demo game's strong barrel distortion (k1 -0.27)
the table's corners came out 20-29 px off without it."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np

from calibration.intrinsics import Intrinsics
from calibration.pipeline import calibrate_still
from calibration.profile import CalibrationProfile, load_profile
from referee.cli import main
from referee.layout import castle_croquetnole_layout
from referee.sim.look import Look
from referee.sim.render import Renderer
from referee.sim.scene import Scene

TEMPLATE = castle_croquetnole_layout()
ROOT = Path(__file__).resolve().parents[2]


class _Still:
    duration = 0.0

    def at(self, t: float) -> Scene:
        return Scene(coins=())


def _calibrated(seed: int) -> tuple[Look, CalibrationProfile, float]:
    """A simulated table of look `seed` calibrated with no lens given: the look, the profile
    and its table corners' largest error (px)."""
    look = Look.random(seed)
    renderer = Renderer(TEMPLATE, look, (1280, 720))
    truth_px = renderer.camera.project_mm_to_px(np.array(TEMPLATE.table))
    profile = calibrate_still(renderer.frame(_Still(), 0), TEMPLATE, (863.6, 863.6),
                              tile_thickness_mm=look.tiles.thickness_mm, faces=False)
    return look, profile, float(np.linalg.norm(profile.corners_px - truth_px, axis=1).max())


def test_the_lens_is_guessed_from_the_layout() -> None:
    look, profile, corner_px = _calibrated(8)  # k1 -0.27, the demo game's lens
    assert any("guessed from the tiles' layout" in note for note in profile.notes)
    assert profile.intrinsics is not None and profile.intrinsics.guessed
    assert Intrinsics.from_json(profile.intrinsics.to_json()).guessed  # the profile says so
    assert abs(float(profile.intrinsics.dist_coeffs.ravel()[0]) - look.lens.k1) < 0.03
    assert profile.layout_residual_mm is not None and profile.layout_residual_mm < 0.2
    assert corner_px < 1.5


def test_a_nearly_straight_lens_is_not_guessed() -> None:
    """k1 -0.02: the guess would bring the tiles 0.46 -> 0.28 mm nearer the template but
    the table's corners 0.4 -> 1.6 px further from the truth; it is not worth its gain."""
    look, profile, corner_px = _calibrated(1)
    assert abs(look.lens.k1) < 0.03
    assert not any("guessed from the tiles' layout" in note for note in profile.notes)
    assert profile.intrinsics is None
    assert corner_px < 1.0


def test_the_demo_games_lens_is_guessed_though_its_table_was_grown_to_the_tiles() -> None:
    """The demo game (k1 -0.27): its rim's outer edge unseen, the table is put where the
    tiles' spacing says, which fits them by construction (0.50 mm), so the guessed lens
    brings the layout only to 0.38 mm; but it straightens the table's sides (bowed 8.5 px
    without it), and the corners come out 2-3 px from the truth instead of 20-29 (1.9-2.4 px
    on an Intel Xeon; on an AMD EPYC, same libraries, one corner 3.18 px: the edge search's
    float sums differ by processor, as `test_the_demo_games_profile_is_what_its_command_makes`
    says)."""
    video = ROOT / "sample_videos" / "demo-game" / "video.mp4"
    capture = cv2.VideoCapture(str(video))
    ok, frame = capture.read()
    capture.release()
    assert ok
    camera = json.loads((video.parent / "video.camera.json").read_text())
    truth_px = cv2.projectPoints(
        np.array([[x, y, 0.0] for x, y in TEMPLATE.table]), np.array(camera["rvec"]),
        np.array(camera["tvec"]), np.array(camera["camera_matrix"]),
        np.array(camera["dist_coeffs"]))[0].reshape(-1, 2)
    profile = calibrate_still(frame, TEMPLATE, (863.6, 863.6), faces=False)
    assert any("guessed from the tiles' layout" in note for note in profile.notes)
    assert float(np.linalg.norm(profile.corners_px - truth_px, axis=1).max()) < 3.5


def test_the_demo_games_profile_is_what_its_command_makes(tmp_path: Path) -> None:
    """`sample_videos/README.md`'s command remakes the demo game's profile: its corners as
    committed, within 2.5 px of the truth.  (Sampling the sides densely under the guessed
    lens once lost the rim's 13 mm on the south side: two corners 9 px off.)  "As committed"
    is within 0.5 px: the same command and libraries give corners up to 0.25 px apart on
    another processor (the profile was made on an Intel Xeon; an AMD EPYC gives 0.24 px),
    and OpenCV 4.13 against 4.14 moves them as much."""
    demo = ROOT / "sample_videos" / "demo-game"
    out = tmp_path / "calibration.json"
    assert main(["calibrate", str(demo / "video.mp4"), "--layout", "castle-croquetnole",
                 "--out", str(out)]) == 0
    made, committed = load_profile(out), load_profile(demo / "calibration.json")
    assert made.intrinsics is not None and made.intrinsics.guessed
    np.testing.assert_allclose(made.corners_px, committed.corners_px, atol=0.5)
    camera = json.loads((demo / "video.camera.json").read_text())
    truth_px = cv2.projectPoints(
        np.array([[x, y, 0.0] for x, y in TEMPLATE.table]), np.array(camera["rvec"]),
        np.array(camera["tvec"]), np.array(camera["camera_matrix"]),
        np.array(camera["dist_coeffs"]))[0].reshape(-1, 2)
    assert float(np.linalg.norm(made.corners_px - truth_px, axis=1).max()) < 2.5
