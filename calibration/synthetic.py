"""Synthetic overhead-camera images of a card table with tiles, with their exact ground truth.

Why: calibration is tested against known answers.  A scene is drawn top-down in table
millimetres (tile backs with their grid, towers showing an Ace face), then warped into the
camera image by a known homography (table mm → pixels), blended over a textured floor,
lit unevenly, optionally bent by a lens and given sensor noise.  Conventions match
`calibration.plane`: pixel centres at integer coordinates, table +y north = up in the image.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import cv2
import numpy as np

from calibration.intrinsics import Intrinsics
from calibration.pack import BGR, SUIT_BGR, TILE_BACK_BGR, TILE_FACE_BGR, TILE_GRID_BGR
from referee.layout import SUITS, Layout


@dataclass
class Scene:
    """What to draw: the table, its cloth, the tiles (from a layout) and the camera."""

    layout: Layout
    table_mm: tuple[float, float]
    corners_px: np.ndarray  # 4x2: where the table corners SW, SE, NE, NW land in the image
    image_size: tuple[int, int] = (1280, 720)  # width, height
    cloth_bgr: BGR = (40, 110, 35)
    floor_bgr: BGR = (60, 75, 95)
    light: float = 1.0  # overall brightness factor
    light_gradient: float = 0.25  # brightness change across the image (0: even)
    noise: float = 3.0  # sensor noise, grey levels (sigma)
    seed: int = 0
    px_per_mm: float = 2.0  # resolution of the top-down drawing
    missing: Sequence[str] = ()  # pieces of the layout not drawn
    tower_suits: dict[str, str] = field(default_factory=dict)  # override a tower's top suit
    tower_backs: Sequence[str] = ()  # towers showing a tile back instead of the Ace
    intrinsics: Intrinsics | None = None  # when given, the lens bends the image

    def homography_mm_to_px(self) -> np.ndarray:
        """The ideal (undistorted) table mm → pixel homography of this scene."""
        w, h = self.table_mm
        table = np.array([[-w / 2, -h / 2], [w / 2, -h / 2], [w / 2, h / 2], [-w / 2, h / 2]],
                         np.float32)
        return cv2.getPerspectiveTransform(table, np.asarray(self.corners_px, np.float32))


def _mm_to_texture(table_mm: tuple[float, float], s: float) -> np.ndarray:
    """Affine (3x3) table mm → top-down drawing pixels (y flipped, pixel centres on integers)."""
    w, h = table_mm
    return np.array([[s, 0, s * w / 2 - 0.5], [0, -s, s * h / 2 - 0.5], [0, 0, 1]])


def _poly(points_tex: np.ndarray) -> np.ndarray:
    return np.round(np.asarray(points_tex) * 16).astype(np.int32).reshape(-1, 1, 2)


def _to_tex(a: np.ndarray, pts_mm: np.ndarray) -> np.ndarray:
    pts = np.asarray(pts_mm, np.float64).reshape(-1, 2)
    return pts @ a[:2, :2].T + a[:2, 2]


def _suit_symbol(img: np.ndarray, a: np.ndarray, center_mm: np.ndarray, angle_deg: float,
                 size_mm: float, suit: str) -> None:
    """A simple, distinct shape per suit in its colour (enough for colour recognition)."""
    colour = SUIT_BGR[suit]
    r = size_mm / 2
    th = np.radians(angle_deg)
    rot = np.array([[np.cos(th), -np.sin(th)], [np.sin(th), np.cos(th)]])
    if suit == "suns":
        k = np.arange(16) * np.pi / 8
        rad = np.where(np.arange(16) % 2 == 0, r, r * 0.6)
        shape = np.c_[rad * np.cos(k), rad * np.sin(k)]
    elif suit == "moons":
        k = np.linspace(np.pi / 4, 7 * np.pi / 4, 24)
        outer = np.c_[r * np.cos(k), r * np.sin(k)]
        inner = np.c_[0.35 * r + 0.7 * r * np.cos(k[::-1]), 0.7 * r * np.sin(k[::-1])]
        shape = np.r_[outer, inner]
    elif suit == "crowns":
        shape = np.array([[-r, -r * 0.7], [r, -r * 0.7], [r, r * 0.8], [r / 2, 0], [0, r * 0.8],
                          [-r / 2, 0], [-r, r * 0.8]])
    else:  # arms: a cross
        q = r * 0.35
        shape = np.array([[-q, r], [q, r], [q, q], [r, q], [r, -q], [q, -q], [q, -r], [-q, -r],
                          [-q, -q], [-r, -q], [-r, q], [-q, q]])
    pts = _to_tex(a, shape @ rot.T + center_mm)
    cv2.fillPoly(img, [_poly(pts)], colour, cv2.LINE_AA, 4)


def draw_top_down(scene: Scene) -> np.ndarray:
    """The table seen from straight above, `px_per_mm` pixels a millimetre, north up."""
    s = scene.px_per_mm
    w, h = scene.table_mm
    img = np.empty((round(h * s), round(w * s), 3), np.uint8)
    img[:] = scene.cloth_bgr
    a = _mm_to_texture(scene.table_mm, s)
    for piece in scene.layout.pieces.values():
        if piece.name in scene.missing:
            continue
        corners = np.array(piece.footprint())
        cv2.fillPoly(img, [_poly(_to_tex(a, corners))], (90, 90, 90), cv2.LINE_AA, 4)
        inner = np.array(type(piece)(piece.name, piece.role, piece.center_mm,
                                     piece.size_mm - 1.0, piece.angle_deg).footprint())
        center = np.array(piece.center_mm)
        face_up = piece.role == "tower" and piece.name not in scene.tower_backs
        cv2.fillPoly(img, [_poly(_to_tex(a, inner))],
                     TILE_FACE_BGR if face_up else TILE_BACK_BGR, cv2.LINE_AA, 4)
        if face_up:
            suit = scene.tower_suits.get(piece.name) or _suit_of(piece.top)
            _suit_symbol(img, a, center, piece.angle_deg, piece.size_mm * 0.5, suit)
        else:  # the tile back: a 2x2 grid
            mid = (corners[[0, 1, 2, 3]] + corners[[1, 2, 3, 0]]) / 2
            for p, q in ((mid[0], mid[2]), (mid[1], mid[3])):
                seg = _to_tex(a, np.array([p, q]))
                cv2.line(img, tuple(_poly(seg[0:1]).ravel()), tuple(_poly(seg[1:2]).ravel()),
                         TILE_GRID_BGR, max(1, round(1.5 * s)), cv2.LINE_AA, 4)
    return img


def _suit_of(top: str | None) -> str:
    for suit in SUITS:
        if top and top.endswith(suit):
            return suit
    return SUITS[0]


def render(scene: Scene) -> np.ndarray:
    """The camera's BGR image of the scene."""
    width, height = scene.image_size
    rng = np.random.default_rng(scene.seed)
    top = draw_top_down(scene)
    a = _mm_to_texture(scene.table_mm, scene.px_per_mm)
    warp = scene.homography_mm_to_px() @ np.linalg.inv(a)  # drawing px → image px
    table = cv2.warpPerspective(top, warp, (width, height), flags=cv2.INTER_LINEAR,
                                borderMode=cv2.BORDER_REPLICATE).astype(np.float32)
    ones = np.ones(top.shape[:2], np.float32)
    alpha = cv2.warpPerspective(ones, warp, (width, height), flags=cv2.INTER_LINEAR,
                                borderMode=cv2.BORDER_CONSTANT, borderValue=0)[..., None]
    floor = np.empty((height, width, 3), np.float32)
    floor[:] = scene.floor_bgr
    grain = cv2.GaussianBlur(rng.normal(0, 25, (height, width)).astype(np.float32), (0, 0), 3)
    floor += grain[..., None]
    img = alpha * table + (1 - alpha) * floor
    yy, xx = np.mgrid[0:height, 0:width].astype(np.float32)
    ramp = 1 + scene.light_gradient * ((xx / width - 0.5) + 0.5 * (yy / height - 0.5))
    img *= scene.light * ramp[..., None]
    if scene.intrinsics is not None:
        grid = np.c_[xx.ravel(), yy.ravel()]
        ideal = scene.intrinsics.undistort_points(grid).reshape(height, width, 2)
        img = cv2.remap(img, ideal[..., 0].astype(np.float32), ideal[..., 1].astype(np.float32),
                        cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    img += rng.normal(0, scene.noise, img.shape).astype(np.float32)
    return np.clip(img, 0, 255).astype(np.uint8)


def aruco_scene_markers(image: np.ndarray, scene: Scene, marker_mm: float,
                        dictionary: str = "DICT_4X4_50", ids: Sequence[int] = (0, 1, 2, 3),
                        inset_mm: float = 0.0) -> np.ndarray:
    """Paste ArUco markers (north up) in the table's corners SW, SE, NE, NW of a rendered image."""
    from calibration.table_detect import aruco_marker_corners_mm

    d = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, dictionary))
    side = 200
    out = image.copy()
    hmg = scene.homography_mm_to_px()
    for marker_id, corners_mm in zip(ids, aruco_marker_corners_mm(scene.table_mm, marker_mm,
                                                                  inset_mm), strict=True):
        tag = cv2.aruco.generateImageMarker(d, marker_id, side)
        quiet = cv2.copyMakeBorder(tag, side // 6, side // 6, side // 6, side // 6,
                                   cv2.BORDER_CONSTANT, value=255)
        n = quiet.shape[0]
        b = side / 6
        src = np.array([[b, b], [b + side, b], [b + side, b + side], [b, b + side]],
                       np.float32) - 0.5
        dst = cv2.perspectiveTransform(corners_mm.reshape(-1, 1, 2), hmg).reshape(-1, 2)
        m = cv2.getPerspectiveTransform(src, dst.astype(np.float32))
        warped = cv2.warpPerspective(cv2.cvtColor(quiet, cv2.COLOR_GRAY2BGR), m,
                                     (out.shape[1], out.shape[0]), flags=cv2.INTER_LINEAR)
        mask = cv2.warpPerspective(np.ones((n, n), np.float32), m, (out.shape[1], out.shape[0]))
        out = (mask[..., None] * warped + (1 - mask[..., None]) * out).astype(np.uint8)
    return out
