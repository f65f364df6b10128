"""Camera intrinsics from chessboard or ChArUco views, with OpenCV's calibrateCamera.

Why: a cheap webcam bends straight lines most at the table's edges, where millimetres decide
calls.  Views come from a list of images or from frames sampled out of a video; each view is
either used or rejected with a reason (pattern not found, too few corners, or a reprojection
error far above the others), and the result reports the RMS and every view's error.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np

ImageSize = tuple[int, int]
"""(width, height) in pixels, as OpenCV takes it."""


@dataclass(frozen=True)
class Intrinsics:
    """A pinhole camera with lens distortion (OpenCV's model)."""

    camera_matrix: np.ndarray  # 3x3
    dist_coeffs: np.ndarray  # 1xN: k1 k2 p1 p2 [k3 ...]
    image_size: ImageSize
    rms_px: float = float("nan")
    guessed: bool = False
    """Guessed from the tiles' layout (`lens_guess`), not calibrated from a pattern: it leaves
    straight lines a pixel or so bent (the demo game's table sides)."""

    @property
    def fx(self) -> float:
        return float(self.camera_matrix[0, 0])

    @property
    def fy(self) -> float:
        return float(self.camera_matrix[1, 1])

    @property
    def cx(self) -> float:
        return float(self.camera_matrix[0, 2])

    @property
    def cy(self) -> float:
        return float(self.camera_matrix[1, 2])

    def undistort_points(self, points_px: np.ndarray) -> np.ndarray:
        """Distorted pixel positions (Nx2) → where an ideal pinhole camera would see them (Nx2)."""
        pts = np.asarray(points_px, np.float64).reshape(-1, 1, 2)
        if len(pts) == 0:
            return np.zeros((0, 2))
        out = cv2.undistortPointsIter(pts, self.camera_matrix, self.dist_coeffs, None,
                                      self.camera_matrix,
                                      (cv2.TERM_CRITERIA_COUNT | cv2.TERM_CRITERIA_EPS, 50, 1e-9))
        return out.reshape(-1, 2)

    def distort_points(self, points_px: np.ndarray) -> np.ndarray:
        """Ideal pinhole pixel positions (Nx2) → where this lens puts them (Nx2)."""
        pts = np.asarray(points_px, np.float64).reshape(-1, 2)
        if len(pts) == 0:
            return np.zeros((0, 2))
        k_inv = np.linalg.inv(self.camera_matrix)
        rays = cv2.convertPointsToHomogeneous(pts).reshape(-1, 3) @ k_inv.T
        out, _ = cv2.projectPoints(rays.reshape(-1, 1, 3), np.zeros(3), np.zeros(3),
                                   self.camera_matrix, self.dist_coeffs)
        return out.reshape(-1, 2)

    def undistort_image(self, image: np.ndarray) -> np.ndarray:
        return cv2.undistort(image, self.camera_matrix, self.dist_coeffs)

    def to_json(self) -> dict[str, Any]:
        return {
            "camera_matrix": [[float(v) for v in row] for row in self.camera_matrix],
            "dist_coeffs": [float(v) for v in np.ravel(self.dist_coeffs)],
            "image_size": [int(self.image_size[0]), int(self.image_size[1])],
            "rms_px": None if not np.isfinite(self.rms_px) else float(self.rms_px),
            "guessed": self.guessed,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Intrinsics:
        """Inverse of `to_json`; raises ValueError naming what is wrong."""
        try:
            k = np.array(data["camera_matrix"], np.float64)
            d = np.array(data["dist_coeffs"], np.float64).reshape(1, -1)
            w, h = (int(v) for v in data["image_size"])
            rms = data.get("rms_px")
            guessed = data.get("guessed", False)
        except (KeyError, TypeError, ValueError) as exc:
            raise ValueError(f"intrinsics: malformed ({exc!r})") from None
        if k.shape != (3, 3) or d.shape[1] not in (4, 5, 8, 12, 14) or w <= 0 or h <= 0:
            raise ValueError("intrinsics: camera_matrix must be 3x3, dist_coeffs 4/5/8/12/14 "
                             "numbers and image_size positive")
        if not isinstance(guessed, bool):
            raise ValueError("intrinsics: guessed must be true or false")
        return cls(k, d, (w, h), float("nan") if rms is None else float(rms), guessed)


# ------------------------------------------------------------------------------ patterns


@dataclass(frozen=True)
class ChessboardPattern:
    """A chessboard by its *inner* corners (columns x rows) and its square side."""

    cols: int
    rows: int
    square_mm: float = 25.0

    def object_points(self) -> np.ndarray:
        grid = np.mgrid[0:self.cols, 0:self.rows].T.reshape(-1, 2)
        pts = np.zeros((len(grid), 3), np.float32)
        pts[:, :2] = grid * self.square_mm
        return pts


@dataclass(frozen=True)
class CharucoPattern:
    """A ChArUco board: squares across and down, square and marker sides, ArUco dictionary."""

    squares_x: int
    squares_y: int
    square_mm: float
    marker_mm: float
    dictionary: str = "DICT_6X6_250"
    min_corners: int = 6

    def board(self) -> cv2.aruco.CharucoBoard:
        dictionary = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, self.dictionary))
        return cv2.aruco.CharucoBoard((self.squares_x, self.squares_y), self.square_mm,
                                      self.marker_mm, dictionary)


Pattern = ChessboardPattern | CharucoPattern


@dataclass
class View:
    """One image's detected pattern: pixel corners and their board coordinates."""

    name: str
    image_px: np.ndarray  # Nx2 float32
    object_mm: np.ndarray  # Nx3 float32
    error_px: float = float("nan")  # RMS reprojection error once calibrated


@dataclass
class Rejected:
    name: str
    reason: str


@dataclass
class CalibrationResult:
    """Intrinsics plus the evidence: which views were used, which rejected and why."""

    intrinsics: Intrinsics
    views: list[View]
    rejected: list[Rejected] = field(default_factory=list)

    @property
    def rms_px(self) -> float:
        return self.intrinsics.rms_px

    def report(self) -> str:
        k = self.intrinsics
        lines = [f"intrinsics from {len(self.views)} view(s): fx={k.fx:.2f} fy={k.fy:.2f} "
                 f"cx={k.cx:.2f} cy={k.cy:.2f} rms={k.rms_px:.3f} px"]
        lines += [f"  used {v.name}: {v.error_px:.3f} px" for v in self.views]
        lines += [f"  rejected {r.name}: {r.reason}" for r in self.rejected]
        return "\n".join(lines)


# ----------------------------------------------------------------------------- detection

_SUBPIX = (cv2.TERM_CRITERIA_EPS | cv2.TERM_CRITERIA_COUNT, 30, 0.001)


def _gray(image: np.ndarray) -> np.ndarray:
    return image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)


def find_chessboard(image: np.ndarray, pattern: ChessboardPattern) -> np.ndarray | None:
    """The board's inner corners (Nx2, OpenCV's order) refined to sub-pixel, or None."""
    gray = _gray(image)
    size = (pattern.cols, pattern.rows)
    ok, corners = cv2.findChessboardCorners(
        gray, size, cv2.CALIB_CB_ADAPTIVE_THRESH | cv2.CALIB_CB_NORMALIZE_IMAGE)
    if ok:
        corners = cv2.cornerSubPix(gray, corners, (11, 11), (-1, -1), _SUBPIX)
        return corners.reshape(-1, 2).astype(np.float32)
    ok, corners = cv2.findChessboardCornersSB(
        gray, size, cv2.CALIB_CB_EXHAUSTIVE | cv2.CALIB_CB_ACCURACY)
    return corners.reshape(-1, 2).astype(np.float32) if ok else None


def find_charuco(image: np.ndarray, pattern: CharucoPattern) -> tuple[np.ndarray, np.ndarray]:
    """ChArUco corners seen in the image: (pixels Nx2, board ids N); N may be 0."""
    detector = cv2.aruco.CharucoDetector(pattern.board())
    corners, ids, _marker_corners, _marker_ids = detector.detectBoard(_gray(image))
    if corners is None or ids is None:
        return np.zeros((0, 2), np.float32), np.zeros(0, np.int32)
    return corners.reshape(-1, 2).astype(np.float32), ids.ravel().astype(np.int32)


def detect_view(name: str, image: np.ndarray, pattern: Pattern) -> View | Rejected:
    """Find the pattern in one image: a View, or Rejected with the reason."""
    if isinstance(pattern, ChessboardPattern):
        corners = find_chessboard(image, pattern)
        if corners is None:
            return Rejected(name, f"no {pattern.cols}x{pattern.rows} chessboard found")
        return View(name, corners, pattern.object_points())
    corners, ids = find_charuco(image, pattern)
    if len(ids) < pattern.min_corners:
        return Rejected(name, f"only {len(ids)} ChArUco corner(s) found, "
                              f"need {pattern.min_corners}")
    board_pts = pattern.board().getChessboardCorners()[ids].astype(np.float32)
    return View(name, corners, board_pts)


def detect_views(images: Iterable[tuple[str, np.ndarray]], pattern: Pattern
                 ) -> tuple[list[View], list[Rejected], ImageSize | None]:
    """Detect the pattern in every image; also returns the (common) image size."""
    views: list[View] = []
    rejected: list[Rejected] = []
    size: ImageSize | None = None
    for name, image in images:
        h, w = image.shape[:2]
        if size is None:
            size = (w, h)
        elif (w, h) != size:
            rejected.append(Rejected(name, f"image is {w}x{h}, the others {size[0]}x{size[1]}"))
            continue
        found = detect_view(name, image, pattern)
        (views if isinstance(found, View) else rejected).append(found)  # type: ignore[arg-type]
    return views, rejected, size


# --------------------------------------------------------------------------- calibration


def _calibrate_once(views: Sequence[View], size: ImageSize, flags: int
                    ) -> tuple[Intrinsics, np.ndarray]:
    obj = [v.object_mm.reshape(-1, 1, 3).astype(np.float32) for v in views]
    img = [v.image_px.reshape(-1, 1, 2).astype(np.float32) for v in views]
    k0 = np.eye(3)
    if flags & cv2.CALIB_FIX_ASPECT_RATIO:
        k0[0, 0] = k0[1, 1] = 1.0
    result = cv2.calibrateCameraExtended(obj, img, size, k0, np.zeros(5), flags=flags)
    rms, k, d = result[0], result[1], result[2]
    per_view = np.asarray(result[7]).ravel()
    return Intrinsics(k, d.reshape(1, -1), size, float(rms)), per_view


def calibrate_views(views: Sequence[View], image_size: ImageSize, *,
                    flags: int = cv2.CALIB_FIX_ASPECT_RATIO, min_views: int = 3,
                    max_view_error_px: float = 1.5, outlier_factor: float = 4.0,
                    rejected: Sequence[Rejected] = ()) -> CalibrationResult:
    """calibrateCamera on the views, dropping poor ones one at a time, worst first.

    A view is poor when its RMS reprojection error exceeds both `max_view_error_px` and
    `outlier_factor` times the median view's: a bad detection or a blurred frame.
    """
    views = list(views)
    dropped = list(rejected)
    if len(views) < min_views:
        raise ValueError(f"calibration needs {min_views} good views, got {len(views)}: "
                         + "; ".join(f"{r.name}: {r.reason}" for r in dropped))
    while True:
        intrinsics, errors = _calibrate_once(views, image_size, flags)
        for view, err in zip(views, errors, strict=True):
            view.error_px = float(err)
        median = float(np.median(errors))
        worst = int(np.argmax(errors))
        limit = max(max_view_error_px, outlier_factor * median)
        if errors[worst] <= limit or len(views) <= min_views:
            return CalibrationResult(intrinsics, views, dropped)
        dropped.append(Rejected(views[worst].name,
                                f"reprojection error {errors[worst]:.2f} px > {limit:.2f} px "
                                f"(median {median:.2f} px)"))
        del views[worst]


def calibrate_images(images: Iterable[tuple[str, np.ndarray]], pattern: Pattern,
                     **kwargs: Any) -> CalibrationResult:
    """Detect the pattern in named images and calibrate; see `calibrate_views`."""
    views, rejected, size = detect_views(images, pattern)
    if size is None:
        raise ValueError("calibration needs images, got none")
    return calibrate_views(views, size, rejected=rejected, **kwargs)


def read_images(paths: Iterable[str | Path]) -> Iterator[tuple[str, np.ndarray]]:
    """(name, BGR image) for each readable path; raises ValueError on an unreadable one."""
    for path in paths:
        image = cv2.imread(str(path), cv2.IMREAD_COLOR)
        if image is None:
            raise ValueError(f"{path}: cannot read as an image")
        yield Path(path).name, image


def sample_video(path: str | Path, every_s: float = 1.0, max_frames: int = 60
                 ) -> Iterator[tuple[str, np.ndarray]]:
    """Frames of a video, one every `every_s` seconds (named `file@12.0s`)."""
    cap = cv2.VideoCapture(str(path))
    if not cap.isOpened():
        raise ValueError(f"{path}: cannot open as a video")
    try:
        fps = cap.get(cv2.CAP_PROP_FPS) or 30.0
        step = max(1, round(every_s * fps))
        index = taken = 0
        while taken < max_frames:
            ok, frame = cap.read()
            if not ok:
                break
            if index % step == 0:
                taken += 1
                yield f"{Path(path).name}@{index / fps:.1f}s", frame
            index += 1
    finally:
        cap.release()
