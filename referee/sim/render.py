"""Render a :class:`~referee.sim.scene.SceneTimeline` as an overhead webcam would film it.

How (and why it is fast enough for minutes of video on one core):

1. Once per video: a top-down *texture* of the table in mm (cloth, rim, floor, tiles, towers
   with their Ace tops, soft shadows) at ~1.5× the camera's finest scale; camera→texture maps
   (pinhole + OpenCV distortion, inverted once with `undistortPointsIter`) for `cv2.remap`;
   the static background warped through them; the light × vignetting gain map.
2. Per frame: coins and hands are drawn into the texture only inside small boxes around them,
   N times at sub-exposure instants `t + (k + ½)·exposure/N` and averaged (motion blur, N from
   how far things move), then only those boxes are remapped into the camera image.
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
from referee.sim.art import bgr, coin_sprite, hand_parts, suit_of, tile_sprite
from referee.sim.camera import Camera
from referee.sim.look import Look
from referee.sim.scene import CoinPose, HandPose, Scene, SceneTimeline

SIZES = {"720p": (1280, 720), "1080p": (1920, 1080)}
OVERSAMPLE = 1.5
"""Texture pixels per camera pixel at the camera's finest scale over the table."""
MARGIN_MM = 900.0
"""How far beyond the table the texture reaches (the floor seen around the table)."""
MAX_SUBSAMPLES = 48
STEP_PX = 0.8
"""Largest move between two sub-exposure samples, in texture px (keeps streaks continuous)."""

Box = tuple[int, int, int, int]  # x0, y0, x1, y1 in texture px, x1/y1 exclusive


# ------------------------------------------------------------------------------- helpers


def paste_sprite(img: np.ndarray, sprite: np.ndarray, center_px: tuple[float, float],
                 angle_deg: float = 0.0, scale: float = 1.0) -> None:
    """Alpha-blend a premultiplied BGRA sprite into `img` (uint8 or float32) in place.

    `angle_deg` turns it counter-clockwise as seen in the image (north up = seen from above).
    """
    sh, sw = sprite.shape[:2]
    sc = ((sw - 1) / 2.0, (sh - 1) / 2.0)
    reach = math.hypot(sw, sh) / 2.0 * scale + 1
    x0, y0 = max(math.floor(center_px[0] - reach), 0), max(math.floor(center_px[1] - reach), 0)
    x1 = min(math.ceil(center_px[0] + reach) + 1, img.shape[1])
    y1 = min(math.ceil(center_px[1] + reach) + 1, img.shape[0])
    if x1 <= x0 or y1 <= y0:
        return
    m = cv2.getRotationMatrix2D(sc, angle_deg, scale)
    m[0, 2] += center_px[0] - sc[0] - x0
    m[1, 2] += center_px[1] - sc[1] - y0
    warped = cv2.warpAffine(sprite, m, (x1 - x0, y1 - y0), flags=cv2.INTER_LINEAR,
                            borderMode=cv2.BORDER_CONSTANT, borderValue=0)
    roi = img[y0:y1, x0:x1]
    out = roi.astype(np.float32) * (1.0 - warped[..., 3:]) + warped[..., :3]
    roi[...] = out if img.dtype == np.float32 else np.clip(out + 0.5, 0, 255).astype(img.dtype)


def _fixed(pts_px: np.ndarray) -> np.ndarray:
    """Sub-pixel polygon vertices for cv2 drawing with shift=4."""
    return np.round(np.asarray(pts_px) * 16.0).astype(np.int32).reshape(-1, 1, 2)


def _fill(img: np.ndarray, pts_px: np.ndarray, color: tuple) -> None:
    cv2.fillPoly(img, [_fixed(pts_px)], color, cv2.LINE_AA, 4)


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
    """What one frame must redraw: a box, the items in it and its number of sub-samples."""

    box: Box
    items: set
    samples: int


# ------------------------------------------------------------------------------- renderer


class Renderer:
    """Renders frames of one table, one look, one camera size and frame rate."""

    def __init__(self, layout: Layout, look: Look, size: tuple[int, int] = (1280, 720),
                 fps: float = 30.0) -> None:
        self.layout = layout
        self.look = look
        self.fps = float(fps)
        self.camera = Camera(int(size[0]), int(size[1]), look.lens, look.pose)
        self.exposure_s = min(look.exposure_s, 1.0 / self.fps)
        self._nadir = self.camera.center_mm
        self._shadow_dir = np.array([math.cos(math.radians(look.shadow_azimuth_deg)),
                                     math.sin(math.radians(look.shadow_azimuth_deg))])
        self._sprites: dict[tuple[str, str], np.ndarray] = {}
        self._build_maps()
        self._texture = self._build_texture()
        self._build_background()
        self._gain = self._build_gain()

    # -- geometry --------------------------------------------------------------------------
    def tex_from_mm(self, pts_mm: np.ndarray) -> np.ndarray:
        """Table mm (N, 2) → texture px (col, row); rows grow southward."""
        p = np.asarray(pts_mm, dtype=np.float64).reshape(-1, 2)
        return np.column_stack([(p[:, 0] - self._x0) * self.ppm, (self._y1 - p[:, 1]) * self.ppm])

    def mm_from_tex(self, pts_px: np.ndarray) -> np.ndarray:
        p = np.asarray(pts_px, dtype=np.float64).reshape(-1, 2)
        return np.column_stack([p[:, 0] / self.ppm + self._x0, self._y1 - p[:, 1] / self.ppm])

    def _seen_at(self, pts_mm: np.ndarray, height_mm: float | np.ndarray) -> np.ndarray:
        """Texture px where raised points appear (parallax onto the cloth plane)."""
        return self.tex_from_mm(self.camera.parallax_to_ground(pts_mm, height_mm))

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
        u, v = np.meshgrid(np.arange(w, dtype=np.float64), np.arange(h, dtype=np.float64))
        ground = cam.px_to_mm(np.column_stack([u.ravel(), v.ravel()]))
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
        tex[...] = floor * (1.0 + 0.12 * _noise_field((th, tw), 120 * ppm, rng))[..., None]
        table_px = self.tex_from_mm(np.array(self.layout.table))
        table = np.zeros((th, tw), np.uint8)
        _fill(table, table_px, 255)
        # the table shades the floor around it
        under = cv2.GaussianBlur(table, (0, 0), 60 * ppm).astype(np.float32) / 255.0
        tex *= (1.0 - 0.55 * under)[..., None]
        cloth = np.asarray(bgr(look.cloth_rgb), np.float32)
        grain = _noise_field((th, tw), max(look.cloth_grain_mm * ppm, 1.0), rng)
        mottle = _noise_field((th, tw), 80 * ppm, rng)
        shade = 1.0 + look.cloth_grain * grain + look.cloth_mottle * mottle
        top = cloth * shade[..., None]
        m = table.astype(np.float32)[..., None] / 255.0
        tex = tex * (1.0 - m) + top * m
        rim = np.zeros((th, tw), np.uint8)
        cv2.polylines(rim, [_fixed(table_px)], True, 255,
                      max(1, round(2 * look.rim_mm * ppm)), cv2.LINE_AA, 4)
        rim = cv2.min(rim, table)
        _blend_mask(tex, rim, bgr(look.rim_rgb))
        self._draw_pieces(tex)
        return np.clip(tex + 0.5, 0, 255).astype(np.uint8)

    def _stack_height(self, name: str | None) -> float:
        piece = self.layout.pieces.get(name) if name else None
        return piece.layers * self.look.tiles.thickness_mm if piece else 0.0

    def _draw_pieces(self, tex: np.ndarray) -> None:
        look, tiles = self.look, self.look.tiles
        th, tw = tex.shape[:2]
        pieces = sorted(self.layout.pieces.values(), key=lambda p: p.layers)
        # soft shadows and contact shade, one blurred mask for all pieces
        cast = np.zeros((th, tw), np.uint8)
        contact = np.zeros((th, tw), np.uint8)
        for p in pieces:
            foot = np.array(p.footprint())
            z = p.layers * tiles.thickness_mm
            moved = foot + self._shadow_dir * z * look.shadow_slope
            hull = cv2.convexHull(self.tex_from_mm(np.vstack([foot, moved])).astype(np.float32))
            _fill(cast, hull.reshape(-1, 2), 255)
            _fill(contact, self.tex_from_mm(foot), 255)
        soft = max(look.shadow_soft_mm * self.ppm, 0.5)
        cast_f = cv2.GaussianBlur(cast, (0, 0), soft).astype(np.float32) / 255.0
        contact_f = cv2.GaussianBlur(contact, (0, 0), 1.5 * self.ppm).astype(np.float32) / 255.0
        tex *= (1.0 - look.shadow_strength * cast_f - 0.25 * contact_f)[..., None]
        edge = np.asarray(bgr(tiles.edge_rgb), np.float32)
        for p in pieces:
            foot = np.array(p.footprint())
            z = p.layers * tiles.thickness_mm
            side = np.zeros((th, tw), np.uint8)
            pts = np.vstack([self._seen_at(foot, 0.0), self._seen_at(foot, z)])
            _fill(side, cv2.convexHull(pts.astype(np.float32)).reshape(-1, 2), 255)
            _blend_mask(tex, side, tuple(edge * 0.78))
            for layer in range(1, p.layers):  # the seam between two stacked tiles
                seam = np.zeros((th, tw), np.uint8)
                cv2.polylines(seam, [_fixed(self._seen_at(foot, layer * tiles.thickness_mm))],
                              True, 255, max(1, round(0.5 * self.ppm)), cv2.LINE_AA, 4)
                _blend_mask(tex, seam, tuple(edge * 0.45))
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
        self._blur_pad = math.ceil(3 * self.look.optical_blur_px) + 1
        self._bg = self._lens_blur(self._bg_sharp)
        assert self._bg.shape[:2] == (cam.height_px, cam.width_px)

    def _lens_blur(self, img: np.ndarray) -> np.ndarray:
        s = self.look.optical_blur_px
        return cv2.GaussianBlur(img, (0, 0), s) if s > 0.05 else img.copy()

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

    def _hand_polys(self, hand: HandPose, shrink_mm: float, shadow: bool
                    ) -> list[tuple[np.ndarray, str]]:
        hl = self.look.hand
        out = []
        for part in hand_parts(hand.fingertip_mm, hand.arm_from_mm, hand.finger_down,
                               hl.scale, hl.hover_mm):
            outline, zs = part.outline(shrink_mm)
            if shadow:
                px = self.tex_from_mm(outline + zs[:, None] * self.look.shadow_slope *
                                      self._shadow_dir)
            else:
                px = self._seen_at(outline, zs)
            out.append((px, part.material))
        return out

    def _hand_box(self, hand: HandPose) -> np.ndarray:
        pts = np.vstack([p for p, _ in self._hand_polys(hand, 0.0, False)] +
                        [p for p, _ in self._hand_polys(hand, 0.0, True)])
        pad = 3 * self.look.shadow_soft_mm * self.ppm * 3 + 4
        return np.array([pts.min(axis=0) - pad, pts.max(axis=0) + pad])

    def _draw_coin(self, img: np.ndarray, c: CoinPose, origin: np.ndarray) -> None:
        base, top, low, high = self._coin_geometry(c)
        low, high = low - origin, high - origin
        r0 = self.layout.coin_mm / 2 * self.ppm * self._scale_at(base)
        r1 = self.layout.coin_mm / 2 * self.ppm * self._scale_at(top)
        edge = tuple(0.8 * v for v in bgr(self.look.coins.edge_rgb))
        d = high - low
        n = np.array([-d[1], d[0]]) / max(float(np.hypot(*d)), 1e-9)
        _fill(img, _circle_poly(low, r0), edge)
        _fill(img, np.array([low + n * r0, high + n * r1, high - n * r1, low - n * r0]), edge)
        paste_sprite(img, self._sprite(c.coin, c.face_up), (high[0], high[1]), c.angle_deg,
                     self._scale_at(top))

    def _draw_coin_shadow(self, mask: np.ndarray, c: CoinPose, origin: np.ndarray) -> None:
        base, top, low, _ = self._coin_geometry(c)
        r = self.layout.coin_mm / 2 * self.ppm * self._scale_at(base)
        off = self._seen_at(np.array([c.center_mm]) + self._shadow_dir * (top - base) *
                            self.look.shadow_slope, base)[0] - origin
        _fill(mask, _circle_poly(off, r), 255)
        _fill(mask, _circle_poly(low - origin, r + 0.6 * self.ppm), 160)

    def _draw_hand(self, img: np.ndarray, hand: HandPose, origin: np.ndarray) -> None:
        hl = self.look.hand
        skin, sleeve = np.array(bgr(hl.skin_rgb)), np.array(bgr(hl.sleeve_rgb))
        layers = ((0.0, 0.72), (2.5, 0.9), (6.5, 1.04))
        parts = [self._hand_polys(hand, s, False) for s, _ in layers]
        for i in range(len(parts[0])):
            for (_, k), polys in zip(layers, parts, strict=True):
                px, mat = polys[i]
                color = (skin if mat == "skin" else sleeve) * k
                _fill(img, px - origin, tuple(float(v) for v in np.clip(color, 0, 255)))

    def _draw_hand_shadow(self, mask: np.ndarray, hand: HandPose, origin: np.ndarray) -> None:
        for px, _ in self._hand_polys(hand, 0.0, True):
            _fill(mask, px - origin, 255)

    # -- one frame -------------------------------------------------------------------------
    def _plan(self, scene_at: Callable[[float], Scene], t: float) -> list[_Plan]:
        """Boxes to redraw this frame, each with its items and number of sub-samples."""
        probes = [scene_at(t + f * self.exposure_s) for f in (0.0, 0.25, 0.5, 0.75, 1.0)]
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
            for scene in probes:
                if key[0] == "coin":
                    c = next((c for c in scene.coins if c.coin == key[1]), None)
                    if c is None or not c.visible:
                        continue
                    corners.append(self._coin_box(c))
                    rim = self.layout.coin_mm / 2 * self.ppm
                    a = math.radians(c.angle_deg)
                    path.append(np.concatenate([self.tex_from_mm(np.array([c.center_mm]))[0],
                                                [rim * math.cos(a), rim * math.sin(a)]]))
                else:
                    if key[1] >= len(scene.hands):
                        continue
                    hand = scene.hands[key[1]]
                    corners.append(self._hand_box(hand))
                    path.append(np.concatenate([self.tex_from_mm(np.array([hand.fingertip_mm,
                                                                           hand.arm_from_mm]))
                                                .ravel()]))
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
            samples[key] = int(np.clip(math.ceil(travel / STEP_PX), 1, MAX_SUBSAMPLES))
            boxes.append(((x0, y0, x1, y1), {key}))
        gap = math.ceil(2 * (self._blur_pad + 3) * OVERSAMPLE) + 2
        return [_Plan(box, items, max(samples[k] for k in items))
                for box, items in _merge(boxes, gap)]

    def _render_box(self, plan: _Plan, scene_at: Callable[[float], Scene],
                    t: float) -> np.ndarray:
        """The averaged (motion-blurred) texture patch of one box, float32."""
        x0, y0, x1, y1 = plan.box
        origin = np.array([x0, y0], np.float64)
        static = self._texture[y0:y1, x0:x1]
        n = plan.samples
        scenes = [scene_at(t + (k + 0.5) * self.exposure_s / n) for k in range(n)]
        look = self.look
        base = static
        if look.shadow_strength > 0:
            shadow = np.zeros(static.shape[:2], np.float32)
            stride = max(1, n // 8)
            chosen = scenes[stride // 2::stride]
            for scene in chosen:
                mask = np.zeros(static.shape[:2], np.uint8)
                for c in scene.coins:
                    if c.visible and ("coin", c.coin) in plan.items:
                        self._draw_coin_shadow(mask, c, origin)
                for i, hand in enumerate(scene.hands):
                    if ("hand", i) in plan.items:
                        self._draw_hand_shadow(mask, hand, origin)
                shadow += mask
            shadow = cv2.GaussianBlur(shadow, (0, 0), max(look.shadow_soft_mm * self.ppm, 0.5))
            shadow *= look.shadow_strength / (255.0 * len(chosen))
            base = np.clip(static * (1.0 - shadow)[..., None] + 0.5, 0, 255).astype(np.uint8)
        accum = np.zeros(static.shape, np.float32)
        for scene in scenes:
            canvas = base.copy()
            coins = [c for c in scene.coins if c.visible and ("coin", c.coin) in plan.items]
            for c in sorted(coins, key=lambda c: self._stack_height(c.on)):
                self._draw_coin(canvas, c, origin)
            for i, hand in enumerate(scene.hands):
                if ("hand", i) in plan.items:
                    self._draw_hand(canvas, hand, origin)
            cv2.accumulate(canvas, accum)
        accum *= 1.0 / n
        return accum

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

    def render_linear(self, scene_at: Callable[[float], Scene], t: float) -> np.ndarray:
        """The scene as light on the sensor before gain, noise and compression (float32)."""
        frame = self._bg.copy()
        for plan in self._plan(scene_at, t):
            patch = self._render_box(plan, scene_at, t)
            inner, outer = self._camera_roi(plan.box)
            if inner[2] <= inner[0] or inner[3] <= inner[1]:
                continue
            u0, v0, u1, v1 = outer
            roi = self._bg_sharp[v0:v1, u0:u1].copy()
            m1 = self._map1[v0:v1, u0:u1] - np.array([plan.box[0], plan.box[1]], np.int16)
            cv2.remap(patch, m1, self._map2[v0:v1, u0:u1], cv2.INTER_LINEAR, dst=roi,
                      borderMode=cv2.BORDER_TRANSPARENT)
            roi = self._lens_blur(roi)
            a0, b0, a1, b1 = inner
            frame[b0:b1, a0:a1] = roi[b0 - v0:b1 - v0, a0 - u0:a1 - u0]
        return frame

    def exposure_gain(self, t: float) -> float:
        """Auto-exposure drift: a slow, smooth wander of the overall gain."""
        look = self.look
        if look.exposure_drift <= 0:
            return 1.0
        ph = np.random.default_rng([look.seed, 2]).uniform(0, 2 * math.pi, 2)
        w = 2 * math.pi / look.exposure_period_s
        return 1.0 + look.exposure_drift * (0.65 * math.sin(w * t + ph[0]) +
                                            0.35 * math.sin(2.7 * w * t + ph[1]))

    def finish(self, linear: np.ndarray, t: float, index: int) -> np.ndarray:
        """Light, exposure, sensor noise and JPEG: linear float32 → BGR uint8."""
        look = self.look
        img = linear * self._gain
        img *= self.exposure_gain(t)
        if look.read_noise > 0 or look.shot_noise > 0:
            h, w = img.shape[:2]
            cv2.setRNGSeed(int(look.seed * 1_000_003 + index) & 0x7FFFFFFF)
            luma = np.empty((h, w), np.float32)
            cv2.randn(luma, 0.0, 1.0)
            chroma = np.empty((h // 2 + 1, w // 2 + 1, 3), np.float32)
            cv2.randn(chroma, 0.0, 0.6)
            chroma = cv2.resize(chroma, (w, h), interpolation=cv2.INTER_LINEAR)
            level = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
            sigma = cv2.sqrt(np.maximum(level, 0) * look.shot_noise**2 + look.read_noise**2)
            img += (chroma + luma[..., None]) * sigma[..., None]
        out = np.clip(img + 0.5, 0, 255).astype(np.uint8)
        if look.jpeg_quality < 100:
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

        return self.finish(self.render_linear(scene_at, t), t, index)

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
                progress: bool = True) -> Path:
    """Render a timeline to a video file (.mp4 → mp4v, .avi → MJPG) plus `<stem>.camera.json`.

    Both codecs are written and read back by this OpenCV build; mp4v files are ~10× smaller.
    """
    import json

    path = Path(path)
    renderer = Renderer(layout, look, size, fps)
    fourcc = "MJPG" if path.suffix.lower() == ".avi" else "mp4v"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*fourcc), fps, renderer.camera.size)
    if not writer.isOpened():
        raise OSError(f"cannot write {fourcc} video to {path}")
    try:
        for frame in renderer.frames(timeline, progress=progress):
            writer.write(frame)
    finally:
        writer.release()
    truth = dict(renderer.camera.to_json(), fps=fps, exposure_s=renderer.exposure_s,
                 look_seed=look.seed)
    path.with_suffix(".camera.json").write_text(json.dumps(truth, indent=1) + "\n")
    return path
