"""How one synthetic table looks: cloth, light, lens, sensor, piece designs, hand.

Every field is drawn at random by :meth:`Look.random` so that vision is tested against many
tables, not tuned to one; :meth:`Look.clean` is a fixed, noise-free look for measuring tests.
Colours are RGB tuples in 0–255 (the renderer converts to OpenCV's BGR).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace

import numpy as np

from referee.layout import CARD_TABLE_MM
from referee.sim.camera import CameraPose, Lens

RGB = tuple[int, int, int]

PIECEPACKR_SUITS: dict[str, RGB] = {
    "suns": (0xD5, 0x5E, 0x00), "moons": (0x00, 0x00, 0x00),
    "crowns": (0x00, 0x9E, 0x73), "arms": (0x56, 0xB4, 0xE9),
}
"""piecepackr's default suit colours (red, black, green, blue); its fifth colour is #E69F00."""
DARK_SUITS: dict[str, RGB] = {
    "suns": (0x8B, 0x00, 0x00), "moons": (0x10, 0x10, 0x10),
    "crowns": (0x00, 0x64, 0x00), "arms": (0x00, 0x00, 0x8B),
}
"""piecepackr's "piecepack suits" configuration: darkred, black, darkgreen, darkblue."""
NEUTRAL_INK: RGB = (0xE6, 0x9F, 0x00)

CLOTHS: tuple[RGB, ...] = (
    (38, 92, 52), (30, 70, 48), (44, 60, 98), (90, 30, 38), (40, 40, 44), (120, 96, 66),
    (70, 80, 60), (28, 52, 80), (150, 140, 120),
)
"""Card-table tops: green and blue felt, burgundy, black vinyl, tan, olive, navy, beige."""
SKINS: tuple[RGB, ...] = (
    (241, 194, 165), (224, 172, 138), (198, 134, 96), (161, 102, 70), (120, 75, 52),
    (88, 56, 40), (232, 190, 160),
)
SLEEVES: tuple[RGB, ...] = (
    (40, 50, 90), (150, 30, 35), (60, 60, 60), (200, 200, 195), (30, 90, 60), (190, 150, 70),
)


@dataclass(frozen=True)
class CoinDesign:
    """The art of the coins: disc colour, suit inks and symbol style, and the coin's edge."""

    disc_rgb: RGB = (246, 243, 235)
    suit_rgb: dict[str, RGB] = field(default_factory=lambda: dict(PIECEPACKR_SUITS))
    symbols: str = "piecepack"  # piecepack (sun/moon/crown/arms) | cards (♥♠♣♦)
    inverted: bool = False  # suit-coloured disc with a light symbol
    value_ink: str = "suit"  # suit | neutral
    neutral_rgb: RGB = NEUTRAL_INK
    edge_rgb: RGB = (200, 190, 170)
    dot: bool = True  # the orientation dot above the symbol
    thickness_mm: float = 3.0


@dataclass(frozen=True)
class TileDesign:
    """The art of the tiles: back with its 2×2 grid, face, and the tile's edge."""

    back_rgb: RGB = (250, 248, 242)
    grid_rgb: RGB = NEUTRAL_INK
    grid_mm: float = 2.2
    border_rgb: RGB = (190, 190, 190)
    face_rgb: RGB = (250, 248, 242)
    edge_rgb: RGB = (215, 205, 185)
    thickness_mm: float = 4.5


@dataclass(frozen=True)
class HandLook:
    skin_rgb: RGB = (224, 172, 138)
    sleeve_rgb: RGB = (40, 50, 90)
    scale: float = 1.0
    hover_mm: float = 35.0
    """Height of the palm above the cloth (the fingertip comes down to it when flicking)."""


@dataclass(frozen=True)
class Look:
    """Everything random about a rendered table (all measures in mm, px or 0–1 fractions)."""

    seed: int = 0
    # the table
    cloth_rgb: RGB = CLOTHS[0]
    cloth_grain: float = 0.04
    cloth_grain_mm: float = 1.5
    cloth_mottle: float = 0.03
    rim_rgb: RGB = (30, 28, 26)
    rim_mm: float = 18.0
    floor_rgb: RGB = (95, 75, 60)
    # light
    light_rgb: tuple[float, float, float] = (1.0, 1.0, 1.0)
    brightness: float = 1.0
    gradient: float = 0.15
    gradient_deg: float = 30.0
    hotspot: float = 0.15
    hotspot_xy: tuple[float, float] = (0.4, 0.35)
    hotspot_radius: float = 0.5
    vignetting: float = 0.25
    shadow_azimuth_deg: float = 225.0
    shadow_slope: float = 0.35
    shadow_strength: float = 0.35
    shadow_soft_mm: float = 2.0
    # the sensor
    exposure_s: float = 1.0 / 60.0
    exposure_drift: float = 0.03
    exposure_period_s: float = 7.0
    read_noise: float = 2.0
    shot_noise: float = 0.35
    temporal_noise: float = 0.4
    """The share of the noise variance that changes every frame (webcams denoise over time;
    the rest is a fixed pattern).  Temporal noise is what makes video files big."""
    jpeg_quality: int = 85
    optical_blur_px: float = 0.7
    sharpen: float = 0.3
    """Strength of the webcam's unsharp mask (0 = none): bright halos along dark edges."""
    saturation: float = 0.9
    """Webcams render colours a little washed out (1 = as the pieces are)."""
    black_level: float = 6.0
    """Lifted blacks (digital numbers) of the webcam's tone curve."""
    gamma: float = 1.0
    """Tone curve exponent applied to the 0–1 output (< 1 brightens the shadows)."""
    # the pieces and the player
    coins: CoinDesign = field(default_factory=CoinDesign)
    tiles: TileDesign = field(default_factory=TileDesign)
    hand: HandLook = field(default_factory=HandLook)
    # the camera
    pose: CameraPose = field(default_factory=CameraPose)
    lens: Lens = field(default_factory=lambda: Lens(k1=-0.08, k2=0.02))

    @classmethod
    def clean(cls) -> Look:
        """A noise-free, evenly lit, undistorted top-down look for measuring tests."""
        return cls(gradient=0.0, hotspot=0.0, vignetting=0.0, exposure_drift=0.0,
                   read_noise=0.0, shot_noise=0.0, jpeg_quality=100, optical_blur_px=0.0,
                   cloth_grain=0.0, cloth_mottle=0.0, shadow_strength=0.0,
                   saturation=1.0, black_level=0.0, gamma=1.0, sharpen=0.0,
                   lens=Lens(), pose=CameraPose())

    def with_(self, **changes: object) -> Look:
        """A copy with some fields changed (a short alias of dataclasses.replace)."""
        return replace(self, **changes)

    @classmethod
    def random(cls, seed: int) -> Look:
        """A plausible webcam-over-card-table look drawn from `seed` (same seed, same look)."""
        rng = np.random.default_rng(seed)

        def pick(options: tuple) -> object:
            return options[int(rng.integers(len(options)))]

        def jitter(rgb: RGB, amount: float) -> RGB:
            return tuple(int(np.clip(c + rng.normal(0, amount), 0, 255)) for c in rgb)

        palette = dict(PIECEPACKR_SUITS if rng.random() < 0.6 else DARK_SUITS)
        palette = {s: jitter(c, 8) for s, c in palette.items()}
        disc = pick(((246, 243, 235), (235, 222, 196), (214, 180, 130), (250, 250, 250)))
        coins = CoinDesign(
            disc_rgb=jitter(disc, 4), suit_rgb=palette,
            symbols="piecepack" if rng.random() < 0.6 else "cards",
            inverted=bool(rng.random() < 0.25),
            value_ink="suit" if rng.random() < 0.7 else "neutral",
            edge_rgb=jitter((190, 175, 150), 15), dot=bool(rng.random() < 0.8),
            thickness_mm=float(rng.uniform(2.5, 3.5)),
        )
        back = pick(((250, 248, 242), (236, 226, 200), (205, 170, 120), (245, 245, 245)))
        tiles = TileDesign(
            back_rgb=jitter(back, 4), grid_rgb=jitter(pick((NEUTRAL_INK, (40, 40, 40),
                                                            (120, 60, 30), (40, 70, 150))), 10),
            grid_mm=float(rng.uniform(1.2, 3.0)), face_rgb=jitter(back, 4),
            edge_rgb=jitter((205, 190, 160), 15), thickness_mm=float(rng.uniform(3.5, 5.0)),
        )
        hand = HandLook(skin_rgb=jitter(pick(SKINS), 6), sleeve_rgb=jitter(pick(SLEEVES), 12),
                        scale=float(rng.uniform(0.88, 1.12)),
                        hover_mm=float(rng.uniform(25, 50)))
        hfov = float(rng.uniform(66, 78))
        half_vfov = math.atan(math.tan(math.radians(hfov) / 2) * 9 / 16)
        fill = float(rng.uniform(0.8, 0.97))  # the table's share of the image height
        pose = CameraPose(
            height_mm=CARD_TABLE_MM / 2 / fill / math.tan(half_vfov),
            tilt_deg=float(rng.uniform(0, 14)),
            azimuth_deg=float(rng.uniform(0, 360)), yaw_deg=float(rng.normal(0, 3)),
            target_mm=(float(rng.normal(0, 15)), float(rng.normal(0, 15))),
        )
        k1 = float(rng.uniform(-0.3, 0.02))
        # barrel lenses need k2 > 0: with k2 ≥ 0.643·k1² the radial map r(1 + k1 r² + k2 r⁴)
        # keeps a slope ≥ 0.3 at every radius, so the image never folds over itself
        k2 = (0.643 * k1 * k1 if k1 < 0 else 0.0) + float(rng.uniform(0.0, 0.05))
        lens = Lens(hfov_deg=hfov, k1=k1, k2=k2, p1=float(rng.normal(0, 0.0015)),
                    p2=float(rng.normal(0, 0.0015)), k3=0.0,
                    principal_offset_px=(float(rng.normal(0, 6)), float(rng.normal(0, 6))))
        pose = _frame_the_table(pose, lens)
        warm = float(rng.uniform(-0.08, 0.1))
        return cls(
            seed=seed,
            cloth_rgb=jitter(pick(CLOTHS), 10), cloth_grain=float(rng.uniform(0.015, 0.07)),
            cloth_grain_mm=float(rng.uniform(0.8, 2.5)), cloth_mottle=float(rng.uniform(0, 0.06)),
            rim_rgb=jitter(pick(((30, 28, 26), (70, 45, 30), (20, 20, 20), (120, 90, 60))), 6),
            rim_mm=float(rng.uniform(10, 25)),
            floor_rgb=jitter(pick(((95, 75, 60), (60, 55, 50), (130, 110, 90), (40, 40, 45))), 10),
            light_rgb=(1.0 + warm, 1.0, 1.0 - warm), brightness=float(rng.uniform(0.85, 1.1)),
            gradient=float(rng.uniform(0, 0.3)), gradient_deg=float(rng.uniform(0, 360)),
            hotspot=float(rng.uniform(0, 0.3)),
            hotspot_xy=(float(rng.uniform(0.1, 0.9)), float(rng.uniform(0.1, 0.9))),
            hotspot_radius=float(rng.uniform(0.3, 0.8)), vignetting=float(rng.uniform(0.05, 0.45)),
            shadow_azimuth_deg=float(rng.uniform(0, 360)),
            shadow_slope=float(rng.uniform(0.1, 0.7)),
            shadow_strength=float(rng.uniform(0.15, 0.5)),
            shadow_soft_mm=float(rng.uniform(1.0, 4.0)),
            exposure_s=float(rng.choice([1 / 30, 1 / 60, 1 / 100, 1 / 125])),
            exposure_drift=float(rng.uniform(0, 0.06)),
            exposure_period_s=float(rng.uniform(3, 15)),
            read_noise=float(rng.uniform(0.5, 2.5)), shot_noise=float(rng.uniform(0.1, 0.4)),
            jpeg_quality=int(rng.integers(55, 96)), optical_blur_px=float(rng.uniform(0.4, 1.1)),
            saturation=float(rng.uniform(0.75, 1.0)), black_level=float(rng.uniform(0, 14)),
            gamma=float(rng.uniform(0.85, 1.05)),
            coins=coins, tiles=tiles, hand=hand, pose=pose, lens=lens,
            # drawn last, so that older seeds keep their looks
            temporal_noise=float(rng.uniform(0.2, 0.5)),
            sharpen=float(rng.uniform(0.0, 0.6)),
        )


def _frame_the_table(pose: CameraPose, lens: Lens, margin_px: float = 12.0) -> CameraPose:
    """Raise the camera until the whole card table is in view (a referee must see the edges)."""
    from referee.sim.camera import Camera

    h = CARD_TABLE_MM / 2
    corners = [(-h, -h), (h, -h), (h, h), (-h, h), (0.0, -h), (h, 0.0), (0.0, h), (-h, 0.0)]
    for _ in range(20):
        cam = Camera(1280, 720, lens, pose)
        px = cam.project_mm_to_px(corners)
        inside = ((px[:, 0] > margin_px) & (px[:, 0] < 1280 - margin_px) &
                  (px[:, 1] > margin_px) & (px[:, 1] < 720 - margin_px))
        if inside.all():
            break
        pose = replace(pose, height_mm=pose.height_mm * 1.04)
    return pose
