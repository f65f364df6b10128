"""`referee calibrate` end to end on synthetic stills and videos, `--verify`, and bad input."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from calibration.face_reader import CoinFaces
from calibration.profile import load_profile
from calibration.session_start import start_spots_mm
from calibration.source import read_still
from calibration.synthetic import Scene, render
from referee.cli import main
from referee.layout import castle_croquetnole_layout, with_piece_moved

TABLE_MM = (863.6, 863.6)
TEMPLATE = castle_croquetnole_layout()
CORNERS = np.array([[250.0, 560.0], [900.0, 690.0], [1080.0, 120.0], [420.0, 40.0]])
CAMERA_NUDGE_PX = [[4, -3], [5, -3], [4, -2], [3, -2]]


def _image(tmp_path: Path, name: str = "table.png", **kw: object) -> Path:
    scene = Scene(kw.pop("layout", TEMPLATE), TABLE_MM, kw.pop("corners", CORNERS), **kw)
    path = tmp_path / name
    cv2.imwrite(str(path), render(scene))
    return path


@pytest.fixture(scope="module")
def calibrated(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    folder = tmp_path_factory.mktemp("calibrated")
    image = _image(folder, seed=1)
    out = folder / "profile.json"
    assert main(["calibrate", str(image), "--layout", "castle-croquetnole",
                 "--out", str(out)]) == 0
    return image, out


def test_calibrate_writes_the_profile(calibrated: tuple[Path, Path],
                                      capsys: pytest.CaptureFixture[str]) -> None:
    _image_path, out = calibrated
    profile = load_profile(out)
    assert profile.corners_method == "auto" and profile.problems == []
    assert np.linalg.norm(profile.corners_px - CORNERS, axis=1).max() < 1.0
    assert profile.image_size == (1280, 720)
    assert profile.template == "castle-croquetnole"


def test_calibrate_reports_residuals_and_problems(tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    image = _image(tmp_path, missing=("door-1-a",), seed=2)
    out = tmp_path / "p.json"
    corners = " ".join(f"{x:g},{y:g}" for x, y in CORNERS)
    code = main(["calibrate", str(image), "--layout", "castle-croquetnole", "--out", str(out),
                 "--corners", corners, "--table-mm", "863.6,863.6"])
    text = capsys.readouterr().out
    assert code == 0
    assert "table (manual)" in text and "plane residuals: rms" in text
    assert "problems: 1" in text and "door-1-a is missing" in text
    assert json.loads(out.read_text())["problems"][0]["kind"] == "missing"


def test_calibrate_from_a_video_uses_its_first_still_second(tmp_path: Path) -> None:
    still = cv2.imread(str(_image(tmp_path, seed=3)))
    path = tmp_path / "setup.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 10.0, (1280, 720))
    for i in range(12):  # a hand sweeping across for 1.2 s, then nothing moves
        frame = still.copy()
        cv2.circle(frame, (200 + 80 * i, 400), 90, (120, 150, 200), -1)
        writer.write(frame)
    for _ in range(14):
        writer.write(still)
    writer.release()
    source = read_still(path)
    assert source.kind == "video" and 1.1 <= source.t_s <= 1.3 and source.frames == 10
    out = tmp_path / "v.json"
    assert main(["calibrate", str(path), "--out", str(out)]) == 0
    profile = load_profile(out)
    assert profile.source_kind == "video" and profile.problems == []


def test_a_still_without_coins_leaves_faces_to_the_builtin_model(
        calibrated: tuple[Path, Path]) -> None:
    _image_path, out = calibrated
    assert load_profile(out).faces is None
    notes = json.loads(out.read_text())["notes"]
    assert any("no session start" in n and "built-in model" in n for n in notes), notes


def _session_start_video(path: Path, frames: int = 7, fps: float = 5.0) -> None:
    """A still second of the simulator's table at the session start: every coin on its spot."""
    from referee.sim.look import Look
    from referee.sim.render import Renderer
    from referee.sim.scene import CoinPose, Scene

    class _Start:
        duration = 10.0
        coins = tuple(CoinPose(c, p, 0.0, c) for c, p in sorted(start_spots_mm(TEMPLATE).items()))

        def at(self, t: float) -> Scene:
            return Scene(coins=self.coins)

    renderer = Renderer(TEMPLATE, Look.random(2), (1280, 720), fps=fps)
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), fps, (1280, 720))
    for i in range(frames):
        writer.write(renderer.frame(_Start(), i))
    writer.release()


def test_session_start_video_learns_every_coins_faces(tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    video = tmp_path / "start.avi"
    _session_start_video(video)
    out = tmp_path / "start.json"
    assert main(["calibrate", str(video), "--out", str(out)]) == 0
    assert "coin faces learned at the session start (8 coins)" in capsys.readouterr().out
    profile = load_profile(out)
    assert profile.faces is not None
    assert set(profile.faces.coins) == set(start_spots_mm(TEMPLATE))
    reader = CoinFaces.from_profile(profile)
    assert reader.learned
    # --verify still reads the profile (with its faces) and finds nothing moved
    assert main(["calibrate", str(video), "--verify", str(out)]) == 0
    assert "nothing moved" in capsys.readouterr().out


def test_verify_nothing_moved(calibrated: tuple[Path, Path], tmp_path: Path,
                              capsys: pytest.CaptureFixture[str]) -> None:
    _image_path, out = calibrated
    again = _image(tmp_path, "again.png", seed=11)  # same scene, new sensor noise
    assert main(["calibrate", str(again), "--verify", str(out)]) == 0
    assert "nothing moved" in capsys.readouterr().out


def test_verify_moved_camera(calibrated: tuple[Path, Path], tmp_path: Path,
                             capsys: pytest.CaptureFixture[str]) -> None:
    _image_path, out = calibrated
    moved = _image(tmp_path, "moved.png", corners=CORNERS + np.array(CAMERA_NUDGE_PX))
    assert main(["calibrate", str(moved), "--verify", str(out)]) == 1
    text = capsys.readouterr().out
    assert "the camera moved" in text and "tile_moved" not in text


def test_verify_knocked_tile(calibrated: tuple[Path, Path], tmp_path: Path,
                             capsys: pytest.CaptureFixture[str]) -> None:
    _image_path, out = calibrated
    x, y = TEMPLATE.pieces["door-4-b"].center_mm
    knocked = _image(tmp_path, "knocked.png", layout=with_piece_moved(TEMPLATE, "door-4-b",
                                                                      (x - 3.0, y + 4.0)))
    assert main(["calibrate", str(knocked), "--verify", str(out)]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert any(line.strip().startswith("door-4-b was knocked") for line in lines), lines
    events = [json.loads(line) for line in lines if line.startswith("{")]
    assert [(e["type"], e["piece"]) for e in events] == [("tile_moved", "door-4-b")]
    assert events[0]["by_mm"] == pytest.approx(5.0, abs=0.2)  # knocked 5 mm, measured
    assert not any("camera moved" in line for line in lines)


@pytest.mark.parametrize(("argv", "message"), [
    (["--corners", "1,2 3,4"], "--corners needs 4 points"),
    (["--corners", "300,660 1010,640 900,110 x,90"], "point 4"),
    (["--corners", "3000,660 4010,640 3900,110 3380,90"], "outside the 1280x720 image"),
    (["--table-mm", "wide"], "--table-mm must be W,H"),
    (["--layout", "no-such-game"], "not a known layout"),
])
def test_bad_arguments_exit_2_with_one_line(calibrated: tuple[Path, Path], tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str],
                                            argv: list[str], message: str) -> None:
    image, _out = calibrated
    code = main(["calibrate", str(image), "--out", str(tmp_path / "x.json"), *argv])
    err = capsys.readouterr().err
    assert code == 2 and message in err and len(err.strip().splitlines()) == 1, err


@pytest.mark.parametrize(("content", "name"), [(b"not an image", "broken.png"),
                                               (b"\x00\x00\x00\x18ftypmp42 broken", "c.mp4")])
def test_unreadable_source_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                  content: bytes, name: str) -> None:
    path = tmp_path / name
    path.write_bytes(content)
    assert main(["calibrate", str(path), "--out", str(tmp_path / "x.json")]) == 2
    err = capsys.readouterr().err
    assert "cannot read as an image or a video" in err and len(err.strip().splitlines()) == 1


def test_no_table_found_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "floor.png"
    cv2.imwrite(str(path), np.full((480, 640, 3), 100, np.uint8))
    assert main(["calibrate", str(path), "--out", str(tmp_path / "x.json")]) == 2
    assert "--corners" in capsys.readouterr().err


def test_lens_from_chessboard_views_then_table_in_a_4_3_frame(
        opencv_samples: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    corners = np.array([[120.0, 440.0], [530.0, 450.0], [470.0, 60.0], [170.0, 50.0]])
    image = _image(tmp_path, corners=corners, image_size=(640, 480), px_per_mm=1.5)
    views = sorted(str(p) for p in (opencv_samples / "calib").glob("left*.jpg"))
    out = tmp_path / "lens.json"
    assert main(["calibrate", str(image), "--out", str(out), "--chessboard", "9x6",
                 "--views", *views]) == 0
    assert "intrinsics from 13 view(s)" in capsys.readouterr().out
    profile = load_profile(out)
    assert profile.intrinsics is not None
    assert profile.intrinsics.fx == pytest.approx(535.9157, rel=0.01)
    # The reused intrinsics file is accepted; a mismatched image size is not.
    again = tmp_path / "again.json"
    assert main(["calibrate", str(image), "--out", str(again), "--intrinsics", str(out),
                 "--corners", " ".join(f"{x:g},{y:g}" for x, y in corners)]) == 0
    wide = _image(tmp_path, "wide.png", seed=4)
    assert main(["calibrate", str(wide), "--out", str(again), "--intrinsics", str(out)]) == 2
    assert "640x480" in capsys.readouterr().err


def test_aruco_corner_markers_option(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from calibration.synthetic import aruco_scene_markers

    scene = Scene(TEMPLATE, TABLE_MM, CORNERS, seed=6)
    path = tmp_path / "markers.png"
    cv2.imwrite(str(path), aruco_scene_markers(render(scene), scene, 60.0, inset_mm=10.0))
    out = tmp_path / "m.json"
    assert main(["calibrate", str(path), "--out", str(out), "--aruco", "--marker-mm", "60",
                 "--marker-inset-mm", "10"]) == 0
    assert "over 16 points" in capsys.readouterr().out
    profile = load_profile(out)
    assert profile.corners_method == "aruco" and profile.problems == []
    assert profile.markers is not None and profile.markers.marker_mm == 60.0
    assert main(["calibrate", str(path), "--verify", str(out)]) == 0
    assert np.linalg.norm(profile.corners_px - CORNERS, axis=1).max() < 1.0


def test_charuco_views_through_the_cli(opencv_samples: Path, tmp_path: Path,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    photo = str(opencv_samples / "aruco" / "choriginal.jpg")
    code = main(["calibrate", photo, "--out", str(tmp_path / "x.json"), "--charuco", "5x7",
                 "--square-mm", "40", "--charuco-marker-mm", "20", "--views", photo])
    err = capsys.readouterr().err
    assert code == 2 and "needs 3 good views, got 1" in err and len(err.splitlines()) == 1
    assert main(["calibrate", photo, "--out", str(tmp_path / "x.json"), "--charuco", "5x7",
                 "--aruco-dict", "DICT_NOPE", "--views", photo]) == 2
    assert "not an ArUco dictionary" in capsys.readouterr().err
