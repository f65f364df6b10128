"""Piecepack art as sprites: coin faces (suit or value side) and tile backs and faces.

Sprites are drawn at 4× supersampling and shrunk, in BGR float32 with a premultiplied alpha
channel (0–1), upright (north up) with the piece centre at the sprite centre, so the renderer
can rotate and place them with one `cv2.warpAffine`.  The look follows piecepackr's default
configuration (suits ♥♠♣♦ or sun/moon/crown/arms in red, black, green and blue; tile backs with
a 2×2 grid) with the colours and styles chosen by the :class:`~referee.sim.look.Look`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from referee.layout import GUARDS, SUITS
from referee.sim.look import PIECEPACKR_SUITS, RGB, CoinDesign, TileDesign

SS = 4  # supersampling factor
VALUES = ("null", "ace", "2", "3", "4", "5")
VALUE_TEXT = {"null": "n", "ace": "A", "2": "2", "3": "3", "4": "4", "5": "5"}


def bgr(rgb: RGB) -> tuple[float, float, float]:
    return (float(rgb[2]), float(rgb[1]), float(rgb[0]))


def _pts(center: tuple[float, float], size: float, rel: list[tuple[float, float]]) -> np.ndarray:
    return np.array([[center[0] + x * size, center[1] + y * size] for x, y in rel], np.int32)


def _circle(img: np.ndarray, c: tuple[float, float], r: float, color: tuple) -> None:
    cv2.circle(img, (round(c[0]), round(c[1])), max(1, round(r)), color, -1, cv2.LINE_AA)


def draw_suit(img: np.ndarray, suit: str, center: tuple[float, float], size: float,
              ink: tuple, paper: tuple, style: str = "piecepack") -> None:
    """Draw a suit symbol of height ~`size` px centred on `center` (image px, y down)."""
    cx, cy = center
    poly = lambda rel: cv2.fillPoly(img, [_pts(center, size, rel)], ink, cv2.LINE_AA)  # noqa: E731
    if style == "cards":
        if suit == "suns":  # heart
            _circle(img, (cx - 0.2 * size, cy - 0.12 * size), 0.23 * size, ink)
            _circle(img, (cx + 0.2 * size, cy - 0.12 * size), 0.23 * size, ink)
            poly([(-0.42, -0.04), (0.42, -0.04), (0.0, 0.45)])
        elif suit == "moons":  # spade
            _circle(img, (cx - 0.2 * size, cy + 0.08 * size), 0.21 * size, ink)
            _circle(img, (cx + 0.2 * size, cy + 0.08 * size), 0.21 * size, ink)
            poly([(-0.4, 0.04), (0.4, 0.04), (0.0, -0.46)])
            poly([(0.0, 0.1), (-0.15, 0.46), (0.15, 0.46)])
        elif suit == "crowns":  # club
            for dx, dy in ((0.0, -0.22), (-0.22, 0.08), (0.22, 0.08)):
                _circle(img, (cx + dx * size, cy + dy * size), 0.19 * size, ink)
            poly([(0.0, 0.0), (-0.15, 0.46), (0.15, 0.46)])
        else:  # diamond
            poly([(0.0, -0.48), (0.33, 0.0), (0.0, 0.48), (-0.33, 0.0)])
        return
    if suit == "suns":
        for k in range(12):
            a = 2 * math.pi * k / 12
            da = math.radians(11)
            poly([(0.31 * math.cos(a - da), 0.31 * math.sin(a - da)),
                  (0.5 * math.cos(a), 0.5 * math.sin(a)),
                  (0.31 * math.cos(a + da), 0.31 * math.sin(a + da))])
        _circle(img, center, 0.3 * size, ink)
    elif suit == "moons":
        _circle(img, center, 0.42 * size, ink)
        _circle(img, (cx + 0.2 * size, cy - 0.12 * size), 0.36 * size, paper)
    elif suit == "crowns":
        poly([(-0.42, 0.2), (-0.46, -0.28), (-0.22, -0.02), (0.0, -0.38), (0.22, -0.02),
              (0.46, -0.28), (0.42, 0.2)])
        poly([(-0.42, 0.24), (0.42, 0.24), (0.42, 0.38), (-0.42, 0.38)])
        for dx, dy in ((-0.46, -0.3), (0.0, -0.42), (0.46, -0.3)):
            _circle(img, (cx + dx * size, cy + dy * size), 0.07 * size, ink)
    else:  # arms: a fleur-de-lis
        poly([(0.0, -0.5), (0.13, -0.22), (0.1, 0.08), (0.0, 0.14), (-0.1, 0.08), (-0.13, -0.22)])
        for side in (-1, 1):
            poly([(side * 0.08, 0.08), (side * 0.22, -0.2), (side * 0.42, -0.18),
                  (side * 0.46, -0.02), (side * 0.36, 0.02), (side * 0.34, -0.08),
                  (side * 0.26, -0.06), (side * 0.18, 0.1)])
        poly([(-0.3, 0.08), (0.3, 0.08), (0.3, 0.17), (-0.3, 0.17)])
        poly([(0.0, 0.17), (-0.16, 0.44), (0.16, 0.44)])


def draw_value(img: np.ndarray, value: str, center: tuple[float, float], size: float,
               ink: tuple) -> None:
    """Draw a value (n, A, 2–5) of cap height ~`size` px centred on `center`."""
    text = VALUE_TEXT.get(value, value[:1].upper())
    font = cv2.FONT_HERSHEY_DUPLEX
    thick = max(1, round(size * 0.12))
    (w, h), _ = cv2.getTextSize(text, font, 1.0, thick)
    scale = size / max(h, 1)
    thick = max(1, round(size * 0.12))
    (w, h), _ = cv2.getTextSize(text, font, scale, thick)
    org = (round(center[0] - w / 2), round(center[1] + h / 2))
    cv2.putText(img, text, org, font, scale, ink, thick, cv2.LINE_AA)


def convex_coverage(shape: tuple[int, int], polygon_px: np.ndarray,
                    origin: tuple[float, float] = (0.0, 0.0)) -> np.ndarray:
    """Anti-aliased coverage (0–1, float32) of a convex polygon on a pixel grid.

    Pixel (i, j) has its centre at (origin x + j, origin y + i).  Coverage is 0.5 + the signed
    distance to the nearest edge, clipped: exact for straight edges, so edges land where the
    geometry says to a few hundredths of a pixel (OpenCV's LINE_AA fills spill ~0.6 px out).
    """
    p = np.asarray(polygon_px, dtype=np.float64).reshape(-1, 2)
    area = float(np.sum(p[:, 0] * np.roll(p[:, 1], -1) - np.roll(p[:, 0], -1) * p[:, 1]))
    sign = 1.0 if area > 0 else -1.0
    ys = (np.arange(shape[0], dtype=np.float32) + np.float32(origin[1]))[:, None]
    xs = (np.arange(shape[1], dtype=np.float32) + np.float32(origin[0]))[None, :]
    inside = np.full(shape, np.inf, np.float32)
    for a, b in zip(p, np.roll(p, -1, axis=0), strict=True):
        e = b - a
        length = float(np.hypot(*e))
        if length < 1e-9:
            continue
        # inward normal for a counter-clockwise polygon in x-right, y-down pixel axes
        nx, ny = (-e[1] / length * sign, e[0] / length * sign)
        d = (xs - np.float32(a[0])) * np.float32(nx) + (ys - np.float32(a[1])) * np.float32(ny)
        np.minimum(inside, d, out=inside)
    return np.clip(inside + 0.5, 0.0, 1.0)


def disc_coverage(n: int, center: float, radius: float) -> np.ndarray:
    """Anti-aliased coverage (float32) of a disc on an n×n grid, centre (center, center)."""
    yy, xx = np.mgrid[0:n, 0:n].astype(np.float32)
    return np.clip(radius - np.hypot(xx - center, yy - center) + 0.5, 0.0, 1.0)


def rounded_square_coverage(n: int, center: float, half: float, corner: float) -> np.ndarray:
    """Anti-aliased coverage (float32) of a square with rounded corners on an n×n grid."""
    yy, xx = np.mgrid[0:n, 0:n].astype(np.float32)
    qx = np.abs(xx - center) - (half - corner)
    qy = np.abs(yy - center) - (half - corner)
    outside = np.hypot(np.maximum(qx, 0), np.maximum(qy, 0)) + np.minimum(np.maximum(qx, qy), 0)
    return np.clip(corner - outside + 0.5, 0.0, 1.0)


def _finish(canvas: np.ndarray, mask: np.ndarray, out_px: int) -> np.ndarray:
    """Shrink a supersampled canvas and mask into a premultiplied BGRA float32 sprite."""
    small = cv2.resize(canvas, (out_px, out_px), interpolation=cv2.INTER_AREA).astype(np.float32)
    alpha = cv2.resize(mask, (out_px, out_px), interpolation=cv2.INTER_AREA).astype(np.float32)
    alpha /= 255.0
    return np.dstack([small * alpha[..., None], alpha])


def suit_of(coin: str, face: str) -> str:
    """The suit of a coin: its suit face, else (a guard named by its value) its castle's suit."""
    for name in (face, coin):
        if name in SUITS:
            return name
    if coin in GUARDS:
        return SUITS[GUARDS.index(coin)]
    return SUITS[sum(map(ord, coin)) % 4]


def coin_sprite(face: str, suit: str, design: CoinDesign, px_per_mm: float,
                diameter_mm: float) -> np.ndarray:
    """The top face of a coin showing `face` (a suit or a value) of a coin of suit `suit`."""
    out = math.ceil(diameter_mm * px_per_mm) + 3
    n = out * SS
    scale = px_per_mm * SS
    c = ((n - 1) / 2, (n - 1) / 2)
    r = diameter_mm / 2 * scale
    suit_ink = bgr(design.suit_rgb.get(suit, (0, 0, 0)))
    disc = bgr(design.disc_rgb)
    if face in SUITS:
        paper, ink = (suit_ink, disc) if design.inverted else (disc, suit_ink)
    else:
        value_ink = suit_ink if design.value_ink == "suit" else bgr(design.neutral_rgb)
        paper, ink = (value_ink, disc) if design.inverted else (disc, value_ink)
    canvas = np.zeros((n, n, 3), np.uint8)
    canvas[...] = paper  # the disc's edge comes from the analytic mask, not from cv2.circle
    mask = (disc_coverage(n, c[0], r) * 255.0 + 0.5).astype(np.uint8)
    if face in SUITS:
        draw_suit(canvas, face, (c[0], c[1] + 0.06 * r), 1.05 * r, ink, paper, design.symbols)
    else:
        draw_value(canvas, face, (c[0], c[1] + 0.06 * r), 1.0 * r, ink)
    if design.dot:
        _circle(canvas, (c[0], c[1] - 0.78 * r), 0.09 * r, ink)
    # a bevelled rim and a slightly domed shading
    yy, xx = np.mgrid[0:n, 0:n].astype(np.float32)
    rr = np.hypot(xx - c[0], yy - c[1]) / r
    shade = 1.0 - 0.06 * rr**2 - 0.18 * np.clip((rr - 0.9) / 0.1, 0, 1)
    canvas = np.clip(canvas * shade[..., None], 0, 255).astype(np.uint8)
    return _finish(canvas, mask, out)


def tile_sprite(top: str | None, design: TileDesign, px_per_mm: float, size_mm: float,
                suit_rgb: dict[str, RGB] | None = None) -> np.ndarray:
    """A tile's top: its back (`top` None) or a face like "ace-of-moons" with the value big."""
    out = math.ceil(size_mm * px_per_mm) + 3
    n = out * SS
    scale = px_per_mm * SS
    half = size_mm / 2 * scale
    c = (n - 1) / 2
    x0, x1 = round(c - half), round(c + half)
    corner = round(1.8 * scale)
    canvas = np.zeros((n, n, 3), np.uint8)
    paper = bgr(design.back_rgb if top is None else design.face_rgb)
    canvas[...] = paper
    mask = (rounded_square_coverage(n, c, half, corner) * 255.0 + 0.5).astype(np.uint8)
    border = max(1, round(0.35 * scale))
    inset = round(1.2 * scale)
    cv2.rectangle(canvas, (x0 + inset, x0 + inset), (x1 - inset, x1 - inset),
                  bgr(design.border_rgb), border, cv2.LINE_AA)
    if top is None:
        w = max(1, round(design.grid_mm * scale / 2))
        cv2.rectangle(canvas, (round(c) - w, x0 + inset), (round(c) + w, x1 - inset),
                      bgr(design.grid_rgb), -1)
        cv2.rectangle(canvas, (x0 + inset, round(c) - w), (x1 - inset, round(c) + w),
                      bgr(design.grid_rgb), -1)
    else:
        value, _, suit = top.partition("-of-")
        ink = bgr((suit_rgb or PIECEPACKR_SUITS).get(suit, (0, 0, 0)))
        draw_value(canvas, value, (c, c + 0.1 * half), 0.95 * half, ink)
        draw_suit(canvas, suit, (c - 0.55 * half, c - 0.55 * half), 0.55 * half, ink, paper)
    return _finish(canvas, mask, out)



# ------------------------------------------------------------------------------- the hand


@dataclass(frozen=True)
class Capsule:
    """One part of a hand: a capsule from `a` to `b` (table mm) at heights `za`, `zb` mm."""

    a: tuple[float, float]
    b: tuple[float, float]
    radius_mm: float
    za: float
    zb: float
    material: str  # skin | sleeve

    def outline(self, shrink_mm: float = 0.0) -> tuple[np.ndarray, np.ndarray]:
        """Outline points (N, 2) in mm with a height for each, the radius less `shrink_mm`."""
        a, b = np.asarray(self.a), np.asarray(self.b)
        r = max(self.radius_mm - shrink_mm, 0.5)
        d = b - a
        base = math.atan2(d[1], d[0]) if float(d @ d) > 1e-18 else 0.0
        c, s = math.cos(base), math.sin(base)
        rot = np.array([[c, s], [-s, c]])  # rows: unit circle turned by `base`
        pts = np.concatenate([b + r * (_HALF_A @ rot), a + r * (_HALF_B @ rot)])
        zs = np.concatenate([np.full(len(_HALF_A), self.zb), np.full(len(_HALF_B), self.za)])
        return pts, zs


def capsule_outlines(parts: list[Capsule], shrinks_mm: tuple[float, ...]
                     ) -> tuple[np.ndarray, np.ndarray]:
    """All outlines at once: points (len(parts), len(shrinks), N, 2) and heights (…, N).

    The same as :meth:`Capsule.outline` for every part and shrink, vectorized for speed.
    """
    a = np.array([p.a for p in parts])
    b = np.array([p.b for p in parts])
    d = b - a
    base = np.arctan2(d[:, 1], d[:, 0])
    c, s = np.cos(base), np.sin(base)
    rot = np.stack([np.stack([c, s], -1), np.stack([-s, c], -1)], -2)  # (P, 2, 2)
    unit = np.concatenate([_HALF_A, _HALF_B])  # (N, 2)
    turned = np.einsum("nk,pkj->pnj", unit, rot)  # (P, N, 2)
    radii = np.maximum(np.array([p.radius_mm for p in parts])[:, None] -
                       np.asarray(shrinks_mm)[None, :], 0.5)  # (P, S)
    half = len(_HALF_A)
    centres = np.concatenate([np.repeat(b[:, None], half, 1), np.repeat(a[:, None], half, 1)],
                             axis=1)  # (P, N, 2)
    pts = centres[:, None] + radii[:, :, None, None] * turned[:, None]
    z = np.concatenate([np.repeat(np.array([[p.zb] for p in parts]), half, 1),
                        np.repeat(np.array([[p.za] for p in parts]), half, 1)], axis=1)
    zs = np.broadcast_to(z[:, None], pts.shape[:3])
    return pts, zs


_STEPS = 7
_HALF_A = np.column_stack([np.cos(np.linspace(-math.pi / 2, math.pi / 2, _STEPS + 1)),
                           np.sin(np.linspace(-math.pi / 2, math.pi / 2, _STEPS + 1))])
_HALF_B = -_HALF_A


def hand_parts(fingertip_mm: tuple[float, float], arm_from_mm: tuple[float, float],
               finger_down: bool, scale: float, hover_mm: float) -> list[Capsule]:
    """A right hand with the index finger out, seen from above, as capsules in table mm.

    `fingertip_mm` is the centre of the index finger's pad (the scripts put it one fingertip
    radius, 7 mm, behind the coin's edge), `arm_from_mm` where the arm comes from.

    Parts come in drawing order (sleeve, forearm, thumb, back of the hand, curled fingers,
    index); the renderer draws each one several times with shrinking radii and rising
    brightness, which gives the rounded look of a real hand.
    """
    s = scale
    f = np.asarray(fingertip_mm, dtype=np.float64)
    arm_from = np.asarray(arm_from_mm, dtype=np.float64)
    d = f - arm_from
    u = d / max(float(np.hypot(*d)), 1e-9)
    n = np.array([-u[1], u[0]])  # the thumb's side (left of the pointing direction)
    tip_z = 4.0 if finger_down else 0.6 * hover_mm
    knuckle = f - u * 68 * s
    palm = knuckle - u * 42 * s - n * 18 * s
    wrist = palm - u * 48 * s
    back = arm_from - wrist
    a = back / max(float(np.hypot(*back)), 1e-9) if float(np.hypot(*back)) > 1 else -u
    far = arm_from + a * 700.0

    def rise(p: np.ndarray) -> float:
        return hover_mm + 25 + min(0.35 * float(np.hypot(*(p - wrist))), 400.0)

    def cap(p: np.ndarray, q: np.ndarray, r: float, zp: float, zq: float,
            mat: str = "skin") -> Capsule:
        return Capsule((float(p[0]), float(p[1])), (float(q[0]), float(q[1])), r, zp, zq, mat)

    sleeve = wrist + a * 170 * s
    fore = wrist + a * 200 * s
    parts = [cap(sleeve, far, 44 * s, rise(sleeve), rise(far), "sleeve"),
             cap(wrist + a * 10 * s, fore, 29 * s, rise(wrist), rise(fore)),
             # the thumb, tucked along the side of the hand
             cap(palm + n * 30 * s - u * 18 * s, knuckle + n * 16 * s - u * 2 * s, 10 * s,
                 hover_mm + 8, hover_mm + 2),
             # the back of the hand, wider at the knuckles than at the wrist
             cap(palm - u * 16 * s - n * 3 * s, palm + u * 6 * s - n * 8 * s, 36 * s,
                 hover_mm + 20, hover_mm + 16)]
    for j in (1, 2, 3):  # the curled fingers: knuckle bumps folded under, beside the index
        k = knuckle - n * (17 * j) * s - u * (5 * j) * s
        parts.append(cap(k - u * 8 * s, k + u * 6 * s, 9.0 * s, hover_mm + 6, hover_mm))
    # the index finger: its pad (radius ~7.5 mm) is centred on the fingertip point, as the
    # scripted players aim it (they touch a coin's edge with it)
    parts.append(cap(knuckle - u * 6 * s, f, 7.5 * s, hover_mm, tip_z + 4))
    return parts
