"""Render a :class:`~referee.sim.scene.SceneTimeline` as an overhead webcam would film it.

How (and why it is fast enough for minutes of video on one core):

1. Once per video: a top-down *texture* of the table in mm (cloth, rim, floor, tiles, towers
   with their Ace tops, soft shadows) at ~1.5× the camera's finest scale; camera→texture maps
   (pinhole + OpenCV distortion, inverted once with `undistortPointsIter`) for `cv2.remap`;
   the static background warped through them; the light × vignetting gain map.
2. Per frame: coins and hands are drawn into the texture only inside small boxes around them,
   N times at sub-exposure instants `t + ((k + ½)/N − ½)·exposure` (the exposure is centred on
   the frame's time t = index / fps) and averaged (motion blur, N from how far things move),
   then only those boxes are remapped into the camera image.
3. Then lens softness, light, auto-exposure drift, sensor noise and JPEG compression.

Raised faces (coin tops ~3 mm, tower tops ~9 mm, the hand) are drawn where the camera sees
them: a plane parallel to the table maps onto the cloth by a scaling about the nadir
(:meth:`Camera.parallax_to_ground`), so the texture stays a single plane and stays exact.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from referee.layout import Layout
from referee.sim.art import (
    bgr,
    capsule_outlines,
    coin_sprite,
    convex_coverage,
    disc_coverage,
    hand_parts,
    suit_of,
    tile_sprite,
)
from referee.sim.camera import Camera
from referee.sim.encode import VideoWriter
from referee.sim.look import Look
from referee.sim.scene import CoinPose, HandPose, Scene, SceneTimeline

SIZES = {"720p": (1280, 720), "1080p": (1920, 1080)}
OVERSAMPLE = 1.5
"""Texture pixels per camera pixel at the camera's finest scale over the table."""
MARGIN_MM = 900.0
"""How far beyond the table the texture reaches (the floor seen around the table)."""
MAX_SUBSAMPLES = 48
SHARPEN_SIGMA_PX = 1.2
"""Radius of the webcam's unsharp mask (its halos are a pixel or two wide)."""
MAP_STEP = 8
"""The camera→table map is computed exactly every MAP_STEP px and interpolated between."""
STEP_PX = 0.8
"""Largest move between two sub-exposure samples, in texture px (keeps streaks continuous)."""

HAND_SHADING = ((0.0, 0.74), (1.5, 0.84), (3.5, 0.92), (6.5, 0.99), (11.0, 1.05))
"""(shrink mm, brightness) of the passes that round each part of the hand."""
MAX_HAND_SUBSAMPLES = 12
HAND_SCALE = 0.5
"""Hands and moving shadows are drawn at this fraction of the texture's resolution."""
Box = tuple[int, int, int, int]  # x0, y0, x1, y1 in texture px, x1/y1 exclusive


# ------------------------------------------------------------------------------- helpers


def paste_sprite(img: np.ndarray, sprite: np.ndarray, center_px: tuple[float, float],
                 angle_deg: float = 0.0, scale: float = 1.0) -> None:
    """Alpha-blend a premultiplied BGRA sprite into `img` (uint8 or float32) in place.

    `angle_deg` turns it counter-clockwise as seen in the image (north up = seen from above).
    """
    sh, sw = sprite.shape[:2]
    reach = math.hypot(sw, sh) / 2.0 * scale + 1
    x0, y0 = max(math.floor(center_px[0] - reach), 0), max(math.floor(center_px[1] - reach), 0)
    x1 = min(math.ceil(center_px[0] + reach) + 1, img.shape[1])
    y1 = min(math.ceil(center_px[1] + reach) + 1, img.shape[0])
    if x1 <= x0 or y1 <= y0:
        return
    warped = warped_sprite(sprite, (center_px[0] - x0, center_px[1] - y0), angle_deg, scale,
                           (y1 - y0, x1 - x0))
    roi = img[y0:y1, x0:x1]
    out = roi.astype(np.float32) * (1.0 - warped[..., 3:]) + warped[..., :3]
    roi[...] = out if img.dtype == np.float32 else np.clip(out + 0.5, 0, 255).astype(img.dtype)


def warped_sprite(sprite: np.ndarray, center_px: tuple[float, float], angle_deg: float,
                  scale: float, shape: tuple[int, int]) -> np.ndarray:
    """A premultiplied BGRA sprite turned, scaled and centred at `center_px` on a transparent
    window of `shape` (rows, columns)."""
    sh, sw = sprite.shape[:2]
    sc = ((sw - 1) / 2.0, (sh - 1) / 2.0)
    m = cv2.getRotationMatrix2D(sc, angle_deg, scale)
    m[0, 2] += center_px[0] - sc[0]
    m[1, 2] += center_px[1] - sc[1]
    return cv2.warpAffine(sprite, m, (shape[1], shape[0]), flags=cv2.INTER_LINEAR,
                          borderMode=cv2.BORDER_CONSTANT, borderValue=0)


def _fixed(pts_px: np.ndarray) -> np.ndarray:
    """Sub-pixel polygon vertices for cv2 drawing with shift=4."""
    return np.round(np.asarray(pts_px) * 16.0).astype(np.int32).reshape(-1, 1, 2)


def _fill(img: np.ndarray, pts_px: np.ndarray, color: tuple) -> None:
    cv2.fillPoly(img, [_fixed(pts_px)], color, cv2.LINE_AA, 4)


def _local(shape: tuple[int, ...], pts_px: np.ndarray, pad: float) -> tuple[slice, slice,
                                                                              np.ndarray]:
    """The rows, columns and origin of a small window around some points (clipped)."""
    lo = np.floor(np.min(pts_px, axis=0) - pad).astype(int)
    hi = np.ceil(np.max(pts_px, axis=0) + pad).astype(int) + 1
    x0, y0 = max(lo[0], 0), max(lo[1], 0)
    x1, y1 = min(hi[0], shape[1]), min(hi[1], shape[0])
    return slice(y0, max(y1, y0)), slice(x0, max(x1, x0)), np.array([x0, y0], np.float64)


def _fill_blend(img: np.ndarray, pts_px: np.ndarray, color_bgr: tuple,
                outline_px: int = 0) -> None:
    """Anti-aliased fill (or closed outline `outline_px` wide) of a polygon on a float image."""
    rows, cols, origin = _local(img.shape, pts_px, outline_px + 2)
    shape = (rows.stop - rows.start, cols.stop - cols.start)
    if shape[0] * shape[1] == 0:
        return
    if outline_px:
        mask = np.zeros(shape, np.uint8)
        cv2.polylines(mask, [_fixed(pts_px - origin)], True, 255, outline_px, cv2.LINE_AA, 4)
    else:  # convex: exact edges
        mask = (convex_coverage(shape, pts_px, (origin[0], origin[1])) * 255 + 0.5).astype(
            np.uint8)
    _blend_mask(img[rows, cols], mask, color_bgr)


def _blend_mask(img: np.ndarray, mask_u8: np.ndarray, color_bgr: tuple) -> None:
    """img (float32) ← img·(1−m) + color·m, with m the 0–255 mask."""
    m = mask_u8.astype(np.float32)[..., None] / 255.0
    img *= 1.0 - m
    img += m * np.asarray(color_bgr, np.float32)


def _noise_field(shape: tuple[int, int], cell_px: float, rng: np.random.Generator) -> np.ndarray:
    """Smooth noise of unit-ish amplitude with features ~`cell_px` across (float32)."""
    h, w = shape
    gh, gw = max(2, math.ceil(h / cell_px) + 2), max(2, math.ceil(w / cell_px) + 2)
    small = rng.standard_normal((gh, gw)).astype(np.float32)
    big = cv2.resize(small, (round(gw * cell_px), round(gh * cell_px)),
                     interpolation=cv2.INTER_CUBIC)
    return big[:h, :w]


def _inset(polygon: np.ndarray, d: float) -> np.ndarray:
    """A convex polygon with every edge moved `d` inward (its corners stay mitred)."""
    p = np.asarray(polygon, dtype=np.float64)
    area = float(np.sum(p[:, 0] * np.roll(p[:, 1], -1) - np.roll(p[:, 0], -1) * p[:, 1]))
    e = np.roll(p, -1, axis=0) - p
    e /= np.linalg.norm(e, axis=1, keepdims=True)
    inward = np.column_stack([-e[:, 1], e[:, 0]]) * (1.0 if area > 0 else -1.0)
    a = p + inward * d  # a point on each moved edge, whose direction is e
    out = []
    for i in range(len(p)):
        j = i - 1  # the previous edge
        m = np.column_stack([e[j], -e[i]])
        s = np.linalg.solve(m, a[i] - a[j])
        out.append(a[j] + e[j] * s[0])
    return np.array(out)


def _bilinear(grid: np.ndarray, xs: np.ndarray, ys: np.ndarray) -> np.ndarray:
    """Sample a (H, W, C) grid at the outer product of fractional columns `xs` and rows `ys`."""
    x0 = np.minimum(np.floor(xs).astype(int), grid.shape[1] - 2)
    y0 = np.minimum(np.floor(ys).astype(int), grid.shape[0] - 2)
    fx = (xs - x0)[None, :, None]
    fy = (ys - y0)[:, None, None]
    g00 = grid[y0][:, x0]
    g01 = grid[y0][:, x0 + 1]
    g10 = grid[y0 + 1][:, x0]
    g11 = grid[y0 + 1][:, x0 + 1]
    top = g00 + (g01 - g00) * fx
    bottom = g10 + (g11 - g10) * fx
    return top + (bottom - top) * fy


def _merge(boxes: list[tuple[Box, set]], gap: int) -> list[tuple[Box, set]]:
    """Merge boxes that come within `gap` px of each other; their item sets are united."""
    out = list(boxes)
    merged = True
    while merged:
        merged = False
        for i in range(len(out)):
            for j in range(i + 1, len(out)):
                (a, ia), (b, ib) = out[i], out[j]
                if (a[0] - gap < b[2] and b[0] - gap < a[2] and a[1] - gap < b[3]
                        and b[1] - gap < a[3]):
                    box = (min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3]))
                    out[i] = (box, ia | ib)
                    del out[j]
                    merged = True
                    break
            if merged:
                break
    return out


@dataclass
class _Plan:
    """What one frame must redraw: a box, the items in it, and per item its own box and
    number of sub-exposure samples."""

    box: Box
    items: set
    item_boxes: dict
    item_samples: dict

    @property
    def samples(self) -> int:
        return max(self.item_samples.values())


# ------------------------------------------------------------------------------- renderer


class Renderer:
    """Renders frames of one table, one look, one camera size and frame rate."""

    def __init__(self, layout: Layout, look: Look, size: tuple[int, int] = (1280, 720),
                 fps: float = 30.0, jpeg: bool = True) -> None:
        self.jpeg = jpeg
        """Round-trip each frame through JPEG at the look's quality (an MJPEG webcam)."""
        self.layout = layout
        self.look = look
        self.fps = float(fps)
        self.camera = Camera(int(size[0]), int(size[1]), look.lens, look.pose)
        self.exposure_s = min(look.exposure_s, 1.0 / self.fps)
        self._nadir = self.camera.center_mm
        self._shadow_dir = np.array([math.cos(math.radians(look.shadow_azimuth_deg)),
                                     math.sin(math.radians(look.shadow_azimuth_deg))])
        self._sprites: dict[tuple[str, str], np.ndarray] = {}
        self._hand_cache: dict[HandPose, tuple[list, list, np.ndarray]] = {}
        self._build_maps()
        self._edge_bgr = tuple(0.8 * v for v in bgr(look.coins.edge_rgb))
        self._texture = self._build_texture()
        self._build_background()
        self._gain = self._build_gain()
        self._bg *= self._gain
        level = cv2.max(cv2.cvtColor(self._bg, cv2.COLOR_BGR2GRAY), 0.0)
        self._sigma = cv2.sqrt(level * look.shot_noise**2 + look.read_noise**2)
        self._sigma_mean = float(self._sigma.mean())
        self._still_cache: dict = {}
        self._fixed_noise = None
        if (look.read_noise > 0 or look.shot_noise > 0) and look.temporal_noise < 1.0:
            # the part of the noise a webcam's temporal denoising leaves the same every frame
            self._fixed_noise = self._noise(-1, math.sqrt(1.0 - look.temporal_noise))
        self._tone = None
        if look.black_level != 0.0 or look.gamma != 1.0:
            x = np.arange(256, dtype=np.float64) / 255.0
            curve = look.black_level + (255.0 - look.black_level) * x**look.gamma
            self._tone = np.clip(curve + 0.5, 0, 255).astype(np.uint8)

    # -- geometry --------------------------------------------------------------------------
    def tex_from_mm(self, pts_mm: np.ndarray) -> np.ndarray:
        """Table mm (N, 2) → texture px (col, row); rows grow southward."""
        p = np.asarray(pts_mm, dtype=np.float64).reshape(-1, 2)
        return np.column_stack([(p[:, 0] - self._x0) * self.ppm, (self._y1 - p[:, 1]) * self.ppm])

    def mm_from_tex(self, pts_px: np.ndarray) -> np.ndarray:
        p = np.asarray(pts_px, dtype=np.float64).reshape(-1, 2)
        return np.column_stack([p[:, 0] / self.ppm + self._x0, self._y1 - p[:, 1] / self.ppm])

    def _seen_at(self, pts_mm: np.ndarray, height_mm: float | np.ndarray) -> np.ndarray:
        """Texture px where raised points appear (parallax onto the cloth plane).

        The same as `tex_from_mm(camera.parallax_to_ground(...))`, inlined for speed.
        """
        p = np.asarray(pts_mm, dtype=np.float64).reshape(-1, 2)
        c = self._nadir
        s = (c[2] / (c[2] - np.asarray(height_mm, dtype=np.float64))).reshape(-1, 1)
        g = c[:2] + (p - c[:2]) * s
        return (g - (self._x0, self._y1)) * (self.ppm, -self.ppm)

    def _scale_at(self, height_mm: float) -> float:
        return float(self._nadir[2] / (self._nadir[2] - height_mm))

    def _build_maps(self) -> None:
        cam = self.camera
        w, h = cam.size
        xs = np.array(self.layout.table)[:, 0]
        ys = np.array(self.layout.table)[:, 1]
        probes = [(float(x), float(y)) for x in (xs.min(), 0.0, xs.max())
                  for y in (ys.min(), 0.0, ys.max())]
        finest = max(cam.px_per_mm(p) for p in probes)
        self.ppm = float(np.clip(OVERSAMPLE * finest, 1.0, 4.0))
        # exact on a coarse grid (every MAP_STEP px), bilinear in between: the map is smooth
        gu = np.arange(0, w + MAP_STEP, MAP_STEP, dtype=np.float64)
        gv = np.arange(0, h + MAP_STEP, MAP_STEP, dtype=np.float64)
        cu, cv = np.meshgrid(gu, gv)
        grid_px = np.column_stack([cu.ravel(), cv.ravel()])
        coarse = cam.px_to_mm(grid_px)
        # where the inverse distortion did not converge (a lens folding over itself), the
        # pixel sees nothing: better a blank corner than a wrong one
        ok = np.isfinite(coarse).all(axis=1)
        back = np.full_like(grid_px, np.inf)
        if ok.any():
            back[ok] = cam.project_mm_to_px(coarse[ok])
        coarse[np.linalg.norm(back - grid_px, axis=1) > 0.05] = np.nan
        coarse = coarse.reshape(len(gv), len(gu), 2)
        ground = _bilinear(coarse, np.arange(w) / MAP_STEP, np.arange(h) / MAP_STEP)
        ground = ground.reshape(-1, 2)
        ok = np.isfinite(ground).all(axis=1)
        lo = np.maximum(ground[ok].min(axis=0), [xs.min() - MARGIN_MM, ys.min() - MARGIN_MM])
        hi = np.minimum(ground[ok].max(axis=0), [xs.max() + MARGIN_MM, ys.max() + MARGIN_MM])
        self._x0, self._y1 = float(lo[0]) - 5.0, float(hi[1]) + 5.0
        self.texture_size = (math.ceil((hi[0] - lo[0] + 10) * self.ppm) + 1,
                             math.ceil((hi[1] - lo[1] + 10) * self.ppm) + 1)
        tex = self.tex_from_mm(np.where(ok[:, None], ground, 0.0))
        tex[~ok] = -1e4
        mx = tex[:, 0].reshape(h, w).astype(np.float32)
        my = tex[:, 1].reshape(h, w).astype(np.float32)
        self._map1, self._map2 = cv2.convertMaps(mx, my, cv2.CV_16SC2)

    # -- the static table ------------------------------------------------------------------
    def _build_texture(self) -> np.ndarray:
        look = self.look
        tw, th = self.texture_size
        rng = np.random.default_rng([look.seed, 1])
        ppm = self.ppm
        tex = np.empty((th, tw, 3), np.float32)
        floor = np.asarray(bgr(look.floor_rgb), np.float32)
        tex[...] = floor * (1.0 + 0.06 * _noise_field((th, tw), 250 * ppm, rng))[..., None]
        table_px = self.tex_from_mm(np.array(self.layout.table))
        table = (convex_coverage((th, tw), table_px) * 255.0 + 0.5).astype(np.uint8)
        # the table shades the floor around it
        small = cv2.resize(table, (tw // 8 + 1, th // 8 + 1), interpolation=cv2.INTER_AREA)
        under = cv2.resize(cv2.GaussianBlur(small, (0, 0), 60 * ppm / 8), (tw, th),
                           interpolation=cv2.INTER_LINEAR).astype(np.float32) / 255.0
        tex *= (1.0 - 0.55 * under)[..., None]
        cloth = np.asarray(bgr(look.cloth_rgb), np.float32)
        grain = _noise_field((th, tw), max(look.cloth_grain_mm * ppm, 1.0), rng)
        mottle = _noise_field((th, tw), 80 * ppm, rng)
        shade = 1.0 + look.cloth_grain * grain + look.cloth_mottle * mottle
        # the table's top: the cloth inset by the rim's width, the rim around it; laid on
        # the floor in one blend, so that the table's edge pixels mix rim and floor only (a
        # second blend of the rim over cloth already laid there would leave a fringe of
        # cloth along the edge, and move the edge a fraction of a pixel inward)
        inner_px = self.tex_from_mm(_inset(np.array(self.layout.table), look.rim_mm))
        inner = convex_coverage((th, tw), inner_px)[..., None]
        rim = np.asarray(bgr(look.rim_rgb), np.float32)
        top = cloth * shade[..., None] * inner + rim * (1.0 - inner)
        m = table.astype(np.float32)[..., None] / 255.0
        tex = tex * (1.0 - m) + top * m
        self._draw_pieces(tex)
        return np.clip(tex + 0.5, 0, 255).astype(np.uint8)

    def _stack_height(self, name: str | None) -> float:
        piece = self.layout.pieces.get(name) if name else None
        return piece.layers * self.look.tiles.thickness_mm if piece else 0.0

    def _draw_pieces(self, tex: np.ndarray) -> None:
        look, tiles = self.look, self.look.tiles
        pieces = sorted(self.layout.pieces.values(), key=lambda p: p.layers)
        # soft shadows and contact shade, one blurred mask for all pieces
        if not pieces:
            return
        soft = max(look.shadow_soft_mm * self.ppm, 0.5)
        everything = self.tex_from_mm(np.vstack([p.footprint() for p in pieces]))
        rows, cols, origin = _local(tex.shape, everything, 4 * soft + 30 * self.ppm)
        shape = (rows.stop - rows.start, cols.stop - cols.start)
        cast = np.zeros(shape, np.uint8)
        contact = np.zeros(shape, np.uint8)
        for p in pieces:
            foot = np.array(p.footprint())
            z = p.layers * tiles.thickness_mm
            moved = foot + self._shadow_dir * z * look.shadow_slope
            hull = cv2.convexHull(self.tex_from_mm(np.vstack([foot, moved])).astype(np.float32))
            _fill(cast, hull.reshape(-1, 2) - origin, 255)
            _fill(contact, self.tex_from_mm(foot) - origin, 255)
        cast_f = cv2.GaussianBlur(cast, (0, 0), soft).astype(np.float32) / 255.0
        contact_f = cv2.GaussianBlur(contact, (0, 0), 1.5 * self.ppm).astype(np.float32) / 255.0
        tex[rows, cols] *= (1.0 - look.shadow_strength * cast_f - 0.25 * contact_f)[..., None]
        edge = np.asarray(bgr(tiles.edge_rgb), np.float32)
        for p in pieces:
            foot = np.array(p.footprint())
            z = p.layers * tiles.thickness_mm
            pts = np.vstack([self._seen_at(foot, 0.0), self._seen_at(foot, z)])
            _fill_blend(tex, cv2.convexHull(pts.astype(np.float32)).reshape(-1, 2),
                        tuple(edge * 0.78))
            for layer in range(1, p.layers):  # the seam between two stacked tiles
                _fill_blend(tex, self._seen_at(foot, layer * tiles.thickness_mm),
                            tuple(edge * 0.45), max(1, round(0.5 * self.ppm)))
            sprite = tile_sprite(p.top if p.is_stack else None, tiles, self.ppm, p.size_mm,
                                 look.coins.suit_rgb)
            center = self._seen_at(np.array([p.center_mm]), z)[0]
            paste_sprite(tex, sprite, (center[0], center[1]), p.angle_deg, self._scale_at(z))

    def _build_background(self) -> None:
        cam = self.camera
        floor = bgr(self.look.floor_rgb)
        self._border = tuple(0.6 * c for c in floor)
        self._bg_sharp = cv2.remap(self._texture, self._map1, self._map2, cv2.INTER_LINEAR,
                                   borderMode=cv2.BORDER_CONSTANT,
                                   borderValue=self._border).astype(np.float32)
        self._blur_pad = math.ceil(3 * self.look.optical_blur_px) + 1 + (
            math.ceil(3 * SHARPEN_SIGMA_PX) if self.look.sharpen > 0 else 0)
        self._bg = self._lens_blur(self._bg_sharp)
        assert self._bg.shape[:2] == (cam.height_px, cam.width_px)

    def _lens_blur(self, img: np.ndarray) -> np.ndarray:
        """Lens softness, then the webcam's sharpening (an unsharp mask): one linear filter,
        so the static background and the redrawn boxes can be filtered apart."""
        look = self.look
        out = cv2.GaussianBlur(img, (0, 0), look.optical_blur_px) \
            if look.optical_blur_px > 0.05 else img.copy()
        if look.sharpen > 0:
            soft = cv2.GaussianBlur(out, (0, 0), SHARPEN_SIGMA_PX)
            out = cv2.addWeighted(out, 1.0 + look.sharpen, soft, -look.sharpen, 0.0)
        return out

    def _build_gain(self) -> np.ndarray:
        """Light × vignetting × white balance per camera pixel (float32, H×W×3)."""
        look = self.look
        w, h = self.camera.size
        y, x = np.mgrid[0:h, 0:w].astype(np.float32)
        xn, yn = x / w, y / h
        a = math.radians(look.gradient_deg)
        gain = 1.0 + look.gradient * ((xn - 0.5) * math.cos(a) + (yn - 0.5) * math.sin(a))
        hx, hy = look.hotspot_xy
        d2 = ((xn - hx) * w / h) ** 2 + (yn - hy) ** 2
        gain *= 1.0 + look.hotspot * np.exp(-d2 / (2 * look.hotspot_radius**2))
        k = self.camera.camera_matrix
        r2 = ((x - k[0, 2]) ** 2 + (y - k[1, 2]) ** 2) / (k[0, 2] ** 2 + k[1, 2] ** 2)
        gain *= 1.0 - look.vignetting * r2 ** 1.1
        gain *= look.brightness / max(float(gain.mean()), 1e-6) if look.gradient or \
            look.hotspot or look.vignetting else look.brightness
        wb = np.array(look.light_rgb[::-1], np.float32)
        return (gain[..., None] * wb).astype(np.float32)

    # -- coins and hands -------------------------------------------------------------------
    def _sprite(self, coin: str, face: str) -> np.ndarray:
        suit = suit_of(coin, face)
        key = (face, suit)
        if key not in self._sprites:
            self._sprites[key] = coin_sprite(face, suit, self.look.coins, self.ppm,
                                             self.layout.coin_mm)
        return self._sprites[key]

    def _coin_geometry(self, c: CoinPose) -> tuple[float, float, np.ndarray, np.ndarray]:
        base = self._stack_height(c.on)
        top = base + self.look.coins.thickness_mm
        pts = np.array([c.center_mm, c.center_mm])
        seen = np.vstack([self._seen_at(pts[:1], base), self._seen_at(pts[:1], top)])
        return base, top, seen[0], seen[1]

    def _coin_box(self, c: CoinPose) -> np.ndarray:
        """Texture px corners (2, 2) bounding the coin, its side and its shadow."""
        base, top, low, high = self._coin_geometry(c)
        r = self.layout.coin_mm / 2 * self.ppm * self._scale_at(top) + 3
        shadow = self._seen_at(np.array([c.center_mm]) + self._shadow_dir *
                               (top - base) * self.look.shadow_slope, base)[0]
        pts = np.vstack([low, high, shadow])
        pad = r + 3 * self.look.shadow_soft_mm * self.ppm
        return np.array([pts.min(axis=0) - pad, pts.max(axis=0) + pad])

    def _hand_geometry(self, hand: HandPose) -> tuple[list, list, np.ndarray]:
        """The hand's polygons in texture px: (body layers, shadow polygons, bounding box).

        Body layers are, per part, the outline at each shading level with its material.
        Cached per pose: a frame asks for the same pose for its box, shadow and drawing.
        """
        if hand in self._hand_cache:
            return self._hand_cache[hand]
        hl = self.look.hand
        parts = hand_parts(hand.fingertip_mm, hand.arm_from_mm, hand.finger_down, hl.scale,
                           hl.hover_mm)
        shrinks = tuple(shrink for shrink, _ in HAND_SHADING)
        pts, zs = capsule_outlines(parts, shrinks)  # (P, S, N, 2), (P, S, N)
        seen = self._seen_at(pts.reshape(-1, 2), zs.reshape(-1)).reshape(pts.shape)
        ground, zground = pts[:, 0], zs[:, 0]
        shadow_pts = self.tex_from_mm(ground.reshape(-1, 2) + zground.reshape(-1, 1) *
                                      self.look.shadow_slope * self._shadow_dir)
        shadow_pts = shadow_pts.reshape(ground.shape)
        body = [(list(seen[i]), part.material) for i, part in enumerate(parts)]
        shadows = list(shadow_pts)
        seen, shadow_pts = seen.reshape(-1, 2), shadow_pts.reshape(-1, 2)
        allp = np.vstack([seen, shadow_pts])
        pad = 3 * self.look.shadow_soft_mm * self.ppm + 4
        box = np.array([allp.min(axis=0) - pad, allp.max(axis=0) + pad])
        if len(self._hand_cache) > 256:
            self._hand_cache.clear()
        self._hand_cache[hand] = (body, shadows, box)
        return body, shadows, box

    def _hand_box(self, hand: HandPose) -> np.ndarray:
        return self._hand_geometry(hand)[2]

    def _draw_coin(self, img: np.ndarray, c: CoinPose, origin: np.ndarray) -> None:
        """Draw a coin on a float32 image: its silhouette (its disc swept from its foot up to
        its top) covers the image once; inside it the top, and the side where the top does
        not reach.  One blend, so the edge where the top's rim and the side's meet (the side
        of the coin turned away from the camera) mixes the top with the cloth only."""
        base, top, low, high = self._coin_geometry(c)
        low, high = low - origin, high - origin
        r_low, r_high = (self.layout.coin_mm / 2 * self.ppm * self._scale_at(z)
                         for z in (base, top))
        rows, cols, corner = _local(img.shape, np.vstack([low, high]), r_high + 2)
        shape = (rows.stop - rows.start, cols.stop - cols.start)
        if shape[0] * shape[1] == 0:
            return
        ys = np.arange(shape[0], dtype=np.float32)[:, None] + np.float32(corner[1])
        xs = np.arange(shape[1], dtype=np.float32)[None, :] + np.float32(corner[0])
        # the swept discs' union: its signed distance is the nearest disc's (a disc every
        # pixel along the sweep, so the gaps between them are far below a pixel's hundredth)
        inside = np.full(shape, -np.inf, np.float32)
        for f in np.linspace(0.0, 1.0, max(2, math.ceil(float(np.hypot(*(high - low)))) + 2)):
            x, y = low + (high - low) * f
            r = r_low + (r_high - r_low) * f
            np.maximum(inside, r - np.hypot(xs - np.float32(x), ys - np.float32(y)), out=inside)
        cover = np.clip(inside + 0.5, 0.0, 1.0)[..., None]
        face = warped_sprite(self._sprite(c.coin, c.face_up),
                             (high[0] - corner[0], high[1] - corner[1]), c.angle_deg,
                             self._scale_at(top), shape)
        alpha = face[..., 3:]
        roi = img[rows, cols]
        roi *= 1.0 - np.maximum(cover, alpha)
        roi += np.clip(cover - alpha, 0.0, 1.0) * np.asarray(self._edge_bgr, np.float32)
        roi += face[..., :3]

    def _draw_coin_shadow(self, mask: np.ndarray, c: CoinPose, origin: np.ndarray,
                          q: float = 1.0) -> None:
        base, top, low, _ = self._coin_geometry(c)
        r = self.layout.coin_mm / 2 * self.ppm * self._scale_at(base)
        off = self._seen_at(np.array([c.center_mm]) + self._shadow_dir * (top - base) *
                            self.look.shadow_slope, base)[0] - origin
        _fill(mask, _circle_poly(off * q, r * q), 255)
        _fill(mask, _circle_poly((low - origin) * q, (r + 0.6 * self.ppm) * q), 160)

    def _draw_hand(self, canvas: np.ndarray, mask: np.ndarray, hand: HandPose,
                   origin: np.ndarray, q: float = 1.0) -> None:
        """Draw a hand's shaded colour on a black canvas (so, premultiplied) and its mask."""
        hl = self.look.hand
        colors = {mat: [tuple(float(v) for v in np.clip(np.array(bgr(rgb)) * k, 0, 255))
                        for _, k in HAND_SHADING]
                  for mat, rgb in (("skin", hl.skin_rgb), ("sleeve", hl.sleeve_rgb))}
        for layers, mat in self._hand_geometry(hand)[0]:
            _fill(mask, (layers[0] - origin) * q, 255)
            for px, color in zip(layers, colors[mat], strict=True):
                _fill(canvas, (px - origin) * q, color)

    def _draw_hand_shadow(self, mask: np.ndarray, hand: HandPose, origin: np.ndarray,
                          q: float = 1.0) -> None:
        for px in self._hand_geometry(hand)[1]:
            _fill(mask, (px - origin) * q, 255)

    # -- one frame -------------------------------------------------------------------------
    def _plan(self, scene_at: Callable[[float], Scene], t: float) -> list[_Plan]:
        """Boxes to redraw this frame, each with its items and number of sub-samples."""
        probes = [scene_at(t + f * self.exposure_s) for f in (-0.5, -0.25, 0.0, 0.25, 0.5)]
        tw, th = self.texture_size
        boxes: list[tuple[Box, set]] = []
        samples: dict[tuple[str, object], int] = {}
        keys: list[tuple[str, object]] = []
        for c in probes[2].coins:
            keys.append(("coin", c.coin))
        for i in range(len(probes[2].hands)):
            keys.append(("hand", i))
        for key in keys:
            corners, path = [], []
            poses: list[CoinPose | HandPose] = []
            for scene in probes:
                if key[0] == "coin":
                    c = next((c for c in scene.coins if c.coin == key[1]), None)
                    if c is not None and c.visible:
                        poses.append(c)
                elif key[1] < len(scene.hands):
                    poses.append(scene.hands[key[1]])
            if poses and all(pose == poses[0] for pose in poses):
                poses = poses[:1]  # at rest: one box, one sample
            for pose in poses:
                if isinstance(pose, CoinPose):
                    corners.append(self._coin_box(pose))
                    rim = self.layout.coin_mm / 2 * self.ppm
                    a = math.radians(pose.angle_deg)
                    path.append(np.concatenate([self.tex_from_mm(np.array([pose.center_mm]))[0],
                                                [rim * math.cos(a), rim * math.sin(a)]]))
                else:
                    corners.append(self._hand_box(pose))
                    path.append(self.tex_from_mm(np.array([pose.fingertip_mm,
                                                           pose.arm_from_mm])).ravel())
            if not corners:
                continue
            allc = np.vstack(corners)
            x0, y0 = np.floor(allc.min(axis=0)).astype(int)
            x1, y1 = np.ceil(allc.max(axis=0)).astype(int) + 1
            x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, tw), min(y1, th)
            if x1 <= x0 or y1 <= y0:
                continue
            travel = 0.0
            for p, q in itertools.pairwise(path):
                dp = q - p
                travel += float(np.max(np.hypot(dp[0::2], dp[1::2])))
            cap = MAX_SUBSAMPLES if key[0] == "coin" else MAX_HAND_SUBSAMPLES
            samples[key] = int(np.clip(math.ceil(travel / STEP_PX), 1, cap))
            boxes.append(((x0, y0, x1, y1), {key}))
        item_boxes = {next(iter(items)): box for box, items in boxes}
        gap = math.ceil(2 * (self._blur_pad + 3) * OVERSAMPLE) + 2
        return [_Plan(box, items, {k: item_boxes[k] for k in items},
                      {k: samples[k] for k in items})
                for box, items in _merge(boxes, gap)]

    def _times(self, t: float, n: int) -> list[float]:
        """Sub-exposure instants: the middles of n equal slices of the exposure around t.

        The exposure is centred on the frame's time, so a coin moving steadily shows its
        ground-truth position at that time in the middle of its streak.
        """
        return [t + ((k + 0.5) / n - 0.5) * self.exposure_s for k in range(n)]

    def _render_box(self, plan: _Plan, scene_at: Callable[[float], Scene],
                    t: float) -> np.ndarray:
        """The averaged (motion-blurred) texture patch of one box, float32.

        Layers, each averaged over its own sub-samples: shadows (soft, so a few samples at
        half resolution), coins (full resolution, per group of overlapping coins), hands
        (half resolution, premultiplied colour and coverage composited over the coins).
        """
        x0, y0, x1, y1 = plan.box
        origin = np.array([x0, y0], np.float64)
        patch = self._texture[y0:y1, x0:x1].astype(np.float32)
        coins = {k for k in plan.items if k[0] == "coin"}
        hands = sorted(k[1] for k in plan.items if k[0] == "hand")
        if self.look.shadow_strength > 0:
            patch *= (1.0 - self._shadow_layer(plan, scene_at, t, origin, patch.shape[:2]))[
                ..., None]
        groups = _merge([(plan.item_boxes[k], {k}) for k in coins], 0)
        for gbox, keys in groups:
            n = max(plan.item_samples[k] for k in keys)
            rows = slice(gbox[1] - y0, gbox[3] - y0)
            cols = slice(gbox[0] - x0, gbox[2] - x0)
            base = patch[rows, cols].copy()
            accum = np.zeros_like(base)
            local = np.array([gbox[0], gbox[1]], np.float64)
            for time in self._times(t, n):
                canvas = base.copy()
                drawn = [c for c in scene_at(time).coins
                         if c.visible and ("coin", c.coin) in keys]
                for c in sorted(drawn, key=lambda c: self._stack_height(c.on)):
                    self._draw_coin(canvas, c, local)
                accum += canvas
            patch[rows, cols] = accum * (1.0 / n)
        for i in hands:
            color, alpha = self._hand_layer(i, plan, scene_at, t, origin, patch.shape[:2])
            patch *= (1.0 - alpha)[..., None]
            patch += color
        return patch

    def _shadow_layer(self, plan: _Plan, scene_at: Callable[[float], Scene], t: float,
                      origin: np.ndarray, shape: tuple[int, int]) -> np.ndarray:
        """How much light the moving things take from the cloth in a box (0–1, float32)."""
        look, q = self.look, HAND_SCALE
        small = (max(1, math.ceil(shape[0] * q)), max(1, math.ceil(shape[1] * q)))
        n = min(plan.samples, 4)
        shadow = np.zeros(small, np.float32)
        for time in self._times(t, n):
            scene = scene_at(time)
            mask = np.zeros(small, np.uint8)
            for c in scene.coins:
                if c.visible and ("coin", c.coin) in plan.items:
                    self._draw_coin_shadow(mask, c, origin, q)
            for i, hand in enumerate(scene.hands):
                if ("hand", i) in plan.items:
                    self._draw_hand_shadow(mask, hand, origin, q)
            shadow += mask
        shadow = cv2.GaussianBlur(shadow, (0, 0), max(look.shadow_soft_mm * self.ppm * q, 0.5))
        shadow *= look.shadow_strength / (255.0 * n)
        return _upscale(shadow, shape, q)

    def _hand_layer(self, index: int, plan: _Plan, scene_at: Callable[[float], Scene],
                    t: float, origin: np.ndarray, shape: tuple[int, int]
                    ) -> tuple[np.ndarray, np.ndarray]:
        """A hand averaged over the exposure: premultiplied colour and coverage, full size.

        Drawn at HAND_SCALE resolution: a hand is soft and big, and this keeps it cheap.
        """
        q = HAND_SCALE
        small = (max(1, math.ceil(shape[0] * q)), max(1, math.ceil(shape[1] * q)))
        n = plan.item_samples[("hand", index)]
        color = np.zeros((*small, 3), np.float32)
        alpha = np.zeros(small, np.float32)
        for time in self._times(t, n):
            scene = scene_at(time)
            if index >= len(scene.hands):
                continue
            canvas = np.zeros((*small, 3), np.uint8)
            mask = np.zeros(small, np.uint8)
            self._draw_hand(canvas, mask, scene.hands[index], origin, q)
            color += canvas
            alpha += mask
        color *= 1.0 / n
        alpha *= 1.0 / (255.0 * n)
        # skin is soft: no cartoon edges between the parts
        color = cv2.GaussianBlur(color, (0, 0), 0.6)
        alpha = cv2.GaussianBlur(alpha, (0, 0), 0.6)
        return _upscale(color, shape, q), _upscale(alpha, shape, q)

    @staticmethod
    def _sees_box(m1: np.ndarray, shape: tuple[int, ...], spill_px: int) -> np.ndarray:
        """Camera pixels whose texture coordinates (relative to a box) fall in its patch,
        or within `spill_px` of one that does."""
        x, y = m1[..., 0], m1[..., 1]
        seen = ((x >= 0) & (x < shape[1]) & (y >= 0) & (y < shape[0])).view(np.uint8)
        seen = cv2.dilate(seen, np.ones((2 * spill_px + 1,) * 2, np.uint8))
        return seen.view(bool)[..., None]

    def _camera_roi(self, box: Box) -> tuple[tuple[int, int, int, int], tuple[int, ...]]:
        """Camera px rectangle seeing a texture box: the inner part and the padded one."""
        x0, y0, x1, y1 = box
        xs, ys = np.linspace(x0, x1, 5), np.linspace(y0, y1, 5)
        edge = np.array([(x, y) for x in xs for y in (y0, y1)] +
                        [(x, y) for y in ys for x in (x0, x1)], np.float64)
        px = self.camera.project_mm_to_px(self.mm_from_tex(edge))
        w, h = self.camera.size
        u0, v0 = np.floor(px.min(axis=0)).astype(int) - 1
        u1, v1 = np.ceil(px.max(axis=0)).astype(int) + 2
        inner = (max(u0, 0), max(v0, 0), min(u1, w), min(v1, h))
        p = self._blur_pad
        outer = (max(u0 - p, 0), max(v0 - p, 0), min(u1 + p, w), min(v1 + p, h))
        return inner, outer

    def render_light(self, scene_at: Callable[[float], Scene], t: float) -> np.ndarray:
        """The scene as light on the sensor (lit, vignetted) before exposure, noise, JPEG.

        Boxes whose items all rest are reused from earlier frames while their poses hold.
        """
        frame = self._bg.copy()
        cache: dict = {}
        for plan in self._plan(scene_at, t):
            inner, outer = self._camera_roi(plan.box)
            if inner[2] <= inner[0] or inner[3] <= inner[1]:
                continue
            key = None
            if plan.samples == 1 and all(kind == "coin" for kind, _ in plan.items):
                mid = scene_at(t)
                key = (plan.box, tuple(c for c in mid.coins if ("coin", c.coin) in plan.items))
            a0, b0, a1, b1 = inner
            if key is not None and key in self._still_cache:
                lit, seen = cache[key] = self._still_cache[key]
                np.copyto(frame[b0:b1, a0:a1], lit, where=seen)
                continue
            patch = self._render_box(plan, scene_at, t)
            u0, v0, u1, v1 = outer
            roi = self._bg_sharp[v0:v1, u0:u1].copy()
            m1 = self._map1[v0:v1, u0:u1] - np.array([plan.box[0], plan.box[1]], np.int16)
            cv2.remap(patch, m1, self._map2[v0:v1, u0:u1], cv2.INTER_LINEAR, dst=roi,
                      borderMode=cv2.BORDER_TRANSPARENT)
            roi = self._lens_blur(roi)
            lit = roi[b0 - v0:b1 - v0, a0 - u0:a1 - u0] * self._gain[b0:b1, a0:a1]
            # a turned camera's rectangle reaches past the box: paste only what sees it
            # (and the lens blur's spill past it), or a box drawn later paints the empty
            # table over what an earlier one drew
            seen = self._sees_box(m1[b0 - v0:b1 - v0, a0 - u0:a1 - u0], patch.shape,
                                  self._blur_pad)
            np.copyto(frame[b0:b1, a0:a1], lit, where=seen)
            if key is not None:
                cache[key] = (lit, seen)
        self._still_cache = cache  # keep only what this frame used
        return frame

    def _noise(self, seed: int, fraction: float) -> np.ndarray:
        """A field of sensor noise with per-pixel standard deviation `fraction`·sigma.

        Demosaicing and denoising leave noise a little correlated: it is drawn at half
        resolution (colour noise at a quarter) and upsampled, which is also 4× cheaper.
        Bilinear 2× (4×) upsampling keeps 0.625 (0.656) of the standard deviation; 0.937 of
        the noise is shared by the three channels and 0.35 is not.
        """
        h, w = self.camera.height_px, self.camera.width_px
        cv2.setRNGSeed(int(self.look.seed * 1_000_003 + seed) & 0x7FFFFFFF)
        luma = np.empty((max(h // 2, 1), max(w // 2, 1)), np.float32)
        cv2.randn(luma, 0.0, fraction * 0.937 / 0.625)
        luma = cv2.resize(luma, (w, h), interpolation=cv2.INTER_LINEAR)
        luma *= self._sigma
        chroma = np.empty((max(h // 4, 1), max(w // 4, 1), 3), np.float32)
        cv2.randn(chroma, 0.0, fraction * 0.35 / 0.656 * self._sigma_mean)
        chroma = cv2.resize(chroma, (w, h), interpolation=cv2.INTER_LINEAR)
        return cv2.add(chroma, cv2.merge([luma, luma, luma]))

    def exposure_gain(self, t: float) -> float:
        """Auto-exposure drift: a slow, smooth wander of the overall gain."""
        look = self.look
        if look.exposure_drift <= 0:
            return 1.0
        ph = np.random.default_rng([look.seed, 2]).uniform(0, 2 * math.pi, 2)
        w = 2 * math.pi / look.exposure_period_s
        return 1.0 + look.exposure_drift * (0.65 * math.sin(w * t + ph[0]) +
                                            0.35 * math.sin(2.7 * w * t + ph[1]))

    def finish(self, light: np.ndarray, t: float, index: int) -> np.ndarray:
        """Exposure drift, sensor noise and JPEG: float32 light → BGR uint8."""
        look = self.look
        gain = self.exposure_gain(t)
        if look.saturation != 1.0:
            gray = cv2.cvtColor(light, cv2.COLOR_BGR2GRAY)
            light = cv2.addWeighted(light, look.saturation, cv2.merge([gray, gray, gray]),
                                    1.0 - look.saturation, 0.0)
        if look.read_noise > 0 or look.shot_noise > 0:
            noise = self._noise(index, math.sqrt(look.temporal_noise))
            if self._fixed_noise is not None:
                noise += self._fixed_noise
            out = cv2.addWeighted(light, gain, noise, 1.0, 0.0, dtype=cv2.CV_8U)
        else:
            out = cv2.addWeighted(light, gain, light, 0.0, 0.0, dtype=cv2.CV_8U)
        if self._tone is not None:
            out = cv2.LUT(out, self._tone)
        if self.jpeg and look.jpeg_quality < 100:
            ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, look.jpeg_quality])
            out = cv2.imdecode(buf, cv2.IMREAD_COLOR) if ok else out
        return out

    def frame(self, timeline: SceneTimeline, index: int) -> np.ndarray:
        """Frame `index` (at t = index / fps) as BGR uint8."""
        t = index / self.fps
        end = float(timeline.duration)
        cache: dict[float, Scene] = {}

        def scene_at(s: float) -> Scene:
            s = min(max(s, 0.0), end)
            if s not in cache:
                cache[s] = timeline.at(s)
            return cache[s]

        return self.finish(self.render_light(scene_at, t), t, index)

    def frame_truth(self, timeline: SceneTimeline, index: int) -> list[dict]:
        """Ground truth of frame `index` in pixels, one row per coin at the frame's time.

        `center_px` is the projected centre of the coin's top face, `radius_px` its radius
        there, `occluded` the share of that face a hand hides (0–1), for scoring detectors.
        """
        t = index / self.fps
        scene = timeline.at(min(max(t, 0.0), float(timeline.duration)))
        rows = []
        for c in scene.coins:
            top = self._stack_height(c.on) + self.look.coins.thickness_mm
            center = self.camera.project_mm_to_px(c.center_mm, top)[0]
            radius = self.layout.coin_mm / 2 * self.camera.px_per_mm(c.center_mm, top)
            rows.append({"coin": c.coin, "face": c.face_up, "visible": c.visible,
                         "center_px": [round(float(center[0]), 3), round(float(center[1]), 3)],
                         "radius_px": round(radius, 3),
                         "occluded": round(self._occluded(c, scene.hands), 3)
                         if c.visible else 1.0})
        return rows

    def _occluded(self, c: CoinPose, hands: tuple[HandPose, ...]) -> float:
        """The share of a coin's top face under a hand (measured in the texture, 4× fine)."""
        if not hands:
            return 0.0
        _, top, _, high = self._coin_geometry(c)
        r = self.layout.coin_mm / 2 * self.ppm * self._scale_at(top)
        q = 4.0
        n = math.ceil(2 * r * q) + 4
        origin = high - (n - 1) / 2 / q
        disc = disc_coverage(n, (n - 1) / 2, r * q)
        mask = np.zeros((n, n), np.uint8)
        for hand in hands:
            for layers, _ in self._hand_geometry(hand)[0]:
                _fill(mask, (layers[0] - origin) * q, 255)
        return float((disc * (mask / 255.0)).sum() / max(disc.sum(), 1e-9))

    def frame_count(self, timeline: SceneTimeline) -> int:
        return math.floor(float(timeline.duration) * self.fps + 1e-9) + 1

    def frames(self, timeline: SceneTimeline, start: int = 0, stop: int | None = None,
               progress: bool = False) -> Iterator[np.ndarray]:
        """Frames start..stop-1 (all by default), optionally with a tqdm progress bar."""
        stop = self.frame_count(timeline) if stop is None else stop
        indices = range(start, stop)
        if progress:
            from tqdm import tqdm

            indices = tqdm(indices, unit="frame", desc="render")
        for i in indices:
            yield self.frame(timeline, i)


def _upscale(small: np.ndarray, shape: tuple[int, int], q: float) -> np.ndarray:
    """Back to full size an image drawn with coordinates scaled by q (pixel centres kept)."""
    m = np.array([[1.0 / q, 0.0, 0.0], [0.0, 1.0 / q, 0.0]])
    return cv2.warpAffine(small, m, (shape[1], shape[0]), flags=cv2.INTER_LINEAR,
                          borderMode=cv2.BORDER_REPLICATE)


def _circle_poly(center: np.ndarray, radius: float, steps: int = 24) -> np.ndarray:
    a = np.linspace(0, 2 * math.pi, steps, endpoint=False)
    return np.column_stack([center[0] + radius * np.cos(a), center[1] + radius * np.sin(a)])


# ------------------------------------------------------------------------------- outputs


def render_frames(timeline: SceneTimeline, layout: Layout, look: Look,
                  size: tuple[int, int] = (1280, 720), fps: float = 30.0,
                  start: int = 0, stop: int | None = None) -> list[np.ndarray]:
    """Frames of a timeline as BGR uint8 arrays (for tests and notebooks)."""
    return list(Renderer(layout, look, size, fps).frames(timeline, start, stop))


def write_video(path: str | Path, timeline: SceneTimeline, layout: Layout, look: Look,
                size: tuple[int, int] = (1280, 720), fps: float = 30.0,
                progress: bool = True, jpeg: bool = False) -> Path:
    """Render a timeline to a video file (.mp4 → H.264, .avi → MJPG; `referee.sim.encode`)
    plus `<stem>.camera.json` (the camera's ground truth) and `<stem>.truth.jsonl` (per frame:
    each coin's centre and radius in pixels and how much a hand hides it, from
    :meth:`Renderer.frame_truth`).

    Both are read back by OpenCV's `VideoCapture`.  The video codec is the compression here: the
    per-frame JPEG of `Look` costs bits (its blocks) and is off unless `jpeg` is set.
    """
    import dataclasses
    import json

    path = Path(path)
    renderer = Renderer(layout, look, size, fps, jpeg=jpeg)
    truth_rows = []
    with VideoWriter(path, renderer.camera.size, fps) as writer:
        for i, frame in enumerate(renderer.frames(timeline, progress=progress)):
            writer.write(frame)
            truth_rows.append(json.dumps({"frame": i, "t": round(i / fps, 6),
                                          "coins": renderer.frame_truth(timeline, i)}))
    path.with_suffix(".truth.jsonl").write_text("\n".join(truth_rows) + "\n")
    truth = dict(renderer.camera.to_json(), fps=fps, exposure_s=renderer.exposure_s,
                 exposure="centred on frame index / fps", look_seed=look.seed,
                 look=dataclasses.asdict(look))
    path.with_suffix(".camera.json").write_text(json.dumps(truth, indent=1) + "\n")
    return path


def render_video(timeline: SceneTimeline, layout: Layout, out_path: str | Path, *,
                 seed: int = 0, size: tuple[int, int] = (1280, 720), fps: float = 30.0,
                 progress: bool = True) -> None:
    """The `referee simulate --video` hook: a clip in the look `Look.random(seed)`."""
    write_video(out_path, timeline, layout, Look.random(seed), size, fps, progress=progress)
