"""Intrinsics against the real OpenCV sample images and their published reference values.

REFERENCE.md (../shared/realdata): left*.jpg published fx=fy=535.9157 cx=342.2832 cy=235.5708,
RMS 0.3926 px; re-run right*.jpg fx=fy=541.64 cx=327.28 cy=247.07.  Tolerances: f within 1 %,
cx/cy within 3 px, rms < 0.6 px, all 13 views found.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from calibration.intrinsics import (
    CharucoPattern,
    ChessboardPattern,
    Intrinsics,
    View,
    calibrate_images,
    calibrate_views,
    detect_view,
    detect_views,
    find_charuco,
    read_images,
    sample_video,
)

BOARD = ChessboardPattern(9, 6, 25.0)
PUBLISHED = {
    "left": (535.9157, 342.2832, 235.5708),
    "right": (541.64, 327.28, 247.07),  # REFERENCE.md's re-run (no published left-only file)
}


def _images(folder: Path, side: str) -> list[Path]:
    return sorted((folder / "calib").glob(f"{side}*.jpg"))


@pytest.mark.parametrize("side", ["left", "right"])
def test_chessboard_calibration_matches_reference(opencv_samples: Path, side: str) -> None:
    result = calibrate_images(read_images(_images(opencv_samples, side)), BOARD)
    k = result.intrinsics
    f_ref, cx_ref, cy_ref = PUBLISHED[side]
    assert len(result.views) == 13 and not result.rejected, result.report()
    assert abs(k.fx - f_ref) / f_ref < 0.01 and abs(k.fy - f_ref) / f_ref < 0.01
    assert abs(k.cx - cx_ref) < 3.0 and abs(k.cy - cy_ref) < 3.0
    assert k.rms_px < 0.6
    assert k.image_size == (640, 480)
    assert all(np.isfinite(v.error_px) and v.error_px < 1.5 for v in result.views)


def test_left_distortion_close_to_published(opencv_samples: Path) -> None:
    result = calibrate_images(read_images(_images(opencv_samples, "left")), BOARD)
    k1, k2 = result.intrinsics.dist_coeffs.ravel()[:2]
    assert k1 == pytest.approx(-0.266373, abs=0.01)
    assert k2 == pytest.approx(-0.038589, abs=0.03)


def test_poor_views_rejected_with_reasons(opencv_samples: Path) -> None:
    views, rejected, size = detect_views(read_images(_images(opencv_samples, "left")), BOARD)
    assert size == (640, 480) and not rejected
    noisy = views[0]
    rng = np.random.default_rng(1)
    bad = View("planted-noise", noisy.image_px + rng.normal(0, 4.0, noisy.image_px.shape)
               .astype(np.float32), noisy.object_mm)
    blank = detect_view("blank", np.full((480, 640), 128, np.uint8), BOARD)
    assert not isinstance(blank, View) and "no 9x6 chessboard" in blank.reason
    result = calibrate_views([*views, bad], size, rejected=[blank])
    names = {r.name: r.reason for r in result.rejected}
    assert set(names) == {"blank", "planted-noise"}
    assert "reprojection error" in names["planted-noise"]
    assert len(result.views) == 13 and result.rms_px < 0.6


def test_too_few_views_is_an_error() -> None:
    with pytest.raises(ValueError, match="needs 3 good views"):
        calibrate_views([], (640, 480))


def test_video_frames_sampled(opencv_samples: Path, tmp_path: Path) -> None:
    path = tmp_path / "board.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 2.0, (640, 480))
    for _name, image in read_images(_images(opencv_samples, "left")):
        writer.write(image)
        writer.write(image)  # two frames per image at 2 fps: one sample per image at 1 s
    writer.release()
    frames = list(sample_video(path, every_s=1.0))
    assert len(frames) == 13 and frames[1][0] == "board.avi@1.0s"
    result = calibrate_images(frames, BOARD)
    assert len(result.views) == 13
    assert abs(result.intrinsics.fx - 535.9157) / 535.9157 < 0.01


def test_unreadable_inputs(tmp_path: Path) -> None:
    junk = tmp_path / "junk.jpg"
    junk.write_bytes(b"not an image")
    with pytest.raises(ValueError, match="cannot read"):
        list(read_images([junk]))
    with pytest.raises(ValueError, match="cannot open"):
        list(sample_video(tmp_path / "missing.mp4"))


def test_charuco_on_real_photo(opencv_samples: Path) -> None:
    image = cv2.imread(str(opencv_samples / "aruco" / "choriginal.jpg"))
    pattern = CharucoPattern(5, 7, 40.0, 20.0, "DICT_6X6_250")
    corners_px, ids = find_charuco(image, pattern)
    assert corners_px.shape == (24, 2)
    assert len(ids) == 24 and sorted(ids) == list(range(24))
    view = detect_view("choriginal", image, pattern)
    assert isinstance(view, View)
    # The published tutorial camera puts the board ~0.40 m away; reprojection RMS ~0.22 px.
    fs = cv2.FileStorage(str(opencv_samples / "aruco" / "tutorial_camera_charuco.yml"),
                         cv2.FILE_STORAGE_READ)
    k, d = fs.getNode("camera_matrix").mat(), fs.getNode("distortion_coefficients").mat()
    ok, rvec, tvec = cv2.solvePnP(view.object_mm, view.image_px, k, d)
    assert ok
    np.testing.assert_allclose(tvec.ravel(), [-91, -189, 399], atol=5)
    back, _ = cv2.projectPoints(view.object_mm, rvec, tvec, k, d)
    rms = float(np.sqrt(((back.reshape(-1, 2) - view.image_px) ** 2).sum(1).mean()))
    assert rms < 0.4


def test_intrinsics_json_and_point_round_trip() -> None:
    k = Intrinsics(np.array([[536.0, 0, 342], [0, 536.0, 235], [0, 0, 1]]),
                   np.array([[-0.266, -0.04, 0.0018, -0.0003, 0.25]]), (640, 480), 0.4)
    back = Intrinsics.from_json(k.to_json())
    np.testing.assert_allclose(back.camera_matrix, k.camera_matrix)
    assert back.image_size == (640, 480) and back.rms_px == pytest.approx(0.4)
    pts = np.array([[20.0, 30.0], [600.0, 450.0], [342.0, 235.0], [500.0, 60.0]])
    np.testing.assert_allclose(k.distort_points(k.undistort_points(pts)), pts, atol=0.01)
    with pytest.raises(ValueError, match="3x3"):
        Intrinsics.from_json({**k.to_json(), "camera_matrix": [[1, 0], [0, 1]]})
    assert not back.guessed  # calibrated from a pattern
    older = {key: v for key, v in k.to_json().items() if key != "guessed"}
    assert not Intrinsics.from_json(older).guessed
    assert Intrinsics.from_json({**k.to_json(), "guessed": True}).guessed
    with pytest.raises(ValueError, match="guessed"):
        Intrinsics.from_json({**k.to_json(), "guessed": "yes"})


def _charuco_views(pattern: CharucoPattern, k: np.ndarray, dist: np.ndarray, count: int
                   ) -> list[tuple[str, np.ndarray]]:
    """A printed ChArUco board seen by a known camera from `count` poses (640x480)."""
    s, pad = 4.0, 80
    board = pattern.board().generateImage(
        (round(pattern.squares_x * pattern.square_mm * s),
         round(pattern.squares_y * pattern.square_mm * s)), marginSize=0)
    board = cv2.copyMakeBorder(board, pad, pad, pad, pad, cv2.BORDER_CONSTANT, value=255)
    mm_to_board = np.array([[s, 0, pad - 0.5], [0, s, pad - 0.5], [0, 0, 1]])
    yy, xx = np.mgrid[0:480, 0:640].astype(np.float32)
    ideal = cv2.undistortPoints(np.c_[xx.ravel(), yy.ravel()].reshape(-1, 1, 2), k, dist,
                                P=k).reshape(480, 640, 2)
    rng = np.random.default_rng(0)
    views = []
    for i in range(count):
        r = cv2.Rodrigues(rng.uniform([-0.5, -0.5, -0.3], [0.5, 0.5, 0.3]))[0]
        t = np.array([-100, -140, 650]) + rng.uniform([-30, -30, -50], [30, 30, 50])
        h = k @ np.column_stack([r[:, 0], r[:, 1], t]) @ np.linalg.inv(mm_to_board)
        pinhole = cv2.warpPerspective(board, h, (640, 480), borderValue=128)
        seen = cv2.remap(pinhole, ideal[..., 0], ideal[..., 1], cv2.INTER_LINEAR,
                         borderValue=128)
        views.append((f"pose{i}", seen))
    return views


def test_charuco_calibration_recovers_a_known_camera() -> None:
    pattern = CharucoPattern(5, 7, 40.0, 20.0, "DICT_6X6_250")
    k = np.array([[800.0, 0, 330], [0, 800.0, 235], [0, 0, 1]])
    result = calibrate_images(_charuco_views(pattern, k, np.array([-0.2, 0.05, 0, 0, 0]), 8),
                              pattern)
    assert len(result.views) == 8 and result.rms_px < 0.5
    assert result.intrinsics.fx == pytest.approx(800.0, rel=0.01)
    assert abs(result.intrinsics.cx - 330) < 3 and abs(result.intrinsics.cy - 235) < 3
