"""The renderer: sizes, determinism, geometry, motion blur, suit colours and occlusion.

Each test measures a property in rendered pixels against what the camera model or the scene
predicts, with tiny hand-written timelines (a coin at rest, a coin sliding at constant speed).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import cv2
import numpy as np
import pytest

from referee.layout import castle_croquetnole_layout
from referee.sim.camera import CameraPose, Lens
from referee.sim.look import PIECEPACKR_SUITS, CoinDesign, Look
from referee.sim.render import Renderer, write_video
from referee.sim.scene import CoinPose, HandPose, Scene

LAYOUT = castle_croquetnole_layout()
COIN_TOP_MM = CoinDesign().thickness_mm


@dataclass(frozen=True)
class Still:
    """Coins (and hands) that never move."""

    coins: tuple[CoinPose, ...] = ()
    hands: tuple[HandPose, ...] = ()
    duration: float = 1.0

    def at(self, t: float) -> Scene:
        return Scene(self.coins, self.hands)


@dataclass(frozen=True)
class Sliding:
    """One coin sliding at constant velocity (no spin), plus optional still coins."""

    start_mm: tuple[float, float]
    velocity_mm_s: tuple[float, float]
    face: str = "suns"
    others: tuple[CoinPose, ...] = field(default_factory=tuple)
    duration: float = 1.0

    def at(self, t: float) -> Scene:
        x = self.start_mm[0] + self.velocity_mm_s[0] * t
        y = self.start_mm[1] + self.velocity_mm_s[1] * t
        return Scene((CoinPose(self.face, (x, y), 0.0, self.face), *self.others))


@pytest.fixture(scope="module")
def clean() -> Renderer:
    """Noise-free, evenly lit, straight down, no distortion, 720p30, 1/60 s exposure."""
    return Renderer(LAYOUT, Look.clean(), (1280, 720), 30.0)


def diff_mask(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return np.abs(a.astype(np.int32) - b.astype(np.int32)).sum(axis=2)


def test_frames_have_the_webcam_sizes() -> None:
    timeline = Still((CoinPose("moons", (0.0, 0.0), 0.0, "moons"),))
    for size in ((1280, 720), (1920, 1080)):
        frame = Renderer(LAYOUT, Look.random(5), size, 60.0).frame(timeline, 0)
        assert frame.shape == (size[1], size[0], 3)
        assert frame.dtype == np.uint8


def test_a_seed_gives_the_same_frames_and_another_seed_other_frames() -> None:
    timeline = Sliding((-100.0, 0.0), (800.0, 300.0))
    a = [Renderer(LAYOUT, Look.random(7)).frame(timeline, i) for i in (0, 3)]
    b = [Renderer(LAYOUT, Look.random(7)).frame(timeline, i) for i in (0, 3)]
    c = Renderer(LAYOUT, Look.random(8)).frame(timeline, 0)
    assert all(np.array_equal(x, y) for x, y in zip(a, b, strict=True))
    assert not np.array_equal(a[0], a[1])  # the coin moved and the noise changed
    assert diff_mask(a[0], c).mean() > 20


def test_random_looks_vary_cloth_light_camera_and_designs() -> None:
    looks = [Look.random(s) for s in range(12)]
    assert len({lk.cloth_rgb for lk in looks}) == 12
    assert len({round(lk.pose.tilt_deg, 3) for lk in looks}) == 12
    assert len({lk.hand.skin_rgb for lk in looks}) > 3
    assert {lk.coins.symbols for lk in looks} == {"piecepack", "cards"}
    assert len({lk.jpeg_quality for lk in looks}) > 4


def test_a_coin_appears_where_the_camera_projects_its_top_face() -> None:
    """On a tower (12 mm up) under a tilted camera the top face is pixels from its foot."""
    blue = (30, 60, 200)  # a disc colour found nowhere else on the table
    look = Look.clean().with_(pose=CameraPose(height_mm=1150.0, tilt_deg=20.0, azimuth_deg=40.0),
                              lens=Lens(hfov_deg=70.0, k1=-0.15, k2=0.03),
                              coins=CoinDesign(disc_rgb=blue, dot=False))
    renderer = Renderer(LAYOUT, look)
    tower = LAYOUT.pieces["tower-3"]
    coin = CoinPose("null", tower.center_mm, 0.0, "null", on="tower-3")
    frame = renderer.frame(Still((coin,)), 0).astype(np.float64)
    near = np.linalg.norm(frame - np.array(blue[::-1], np.float64), axis=2) < 50
    ys, xs = np.nonzero(near)
    hull = cv2.convexHull(np.column_stack([xs, ys]).astype(np.float32))
    m = cv2.moments(hull)
    centroid = np.array([m["m10"] / m["m00"], m["m01"] / m["m00"]])
    top = 2 * look.tiles.thickness_mm + look.coins.thickness_mm
    predicted = renderer.camera.project_mm_to_px(tower.center_mm, top)[0]
    foot = renderer.camera.project_mm_to_px(tower.center_mm, 0.0)[0]
    assert np.linalg.norm(foot - predicted) > 3.0
    assert np.linalg.norm(centroid - predicted) < 0.4


def test_a_straight_table_edge_bows_as_the_lens_distortion_predicts() -> None:
    k1 = -0.35
    look = Look.clean().with_(lens=Lens(hfov_deg=70.0, k1=k1))
    renderer = Renderer(LAYOUT, look)
    frame = renderer.frame(Still(()), 0).astype(np.float64)
    # the inner edge of the table's rim: cloth (green) meets rim (dark) along y = const
    y_mm = LAYOUT.table[0][1] + look.rim_mm
    xs_mm = np.linspace(-390.0, 390.0, 41)
    line_px = renderer.camera.project_mm_to_px(np.column_stack([xs_mm, np.full_like(xs_mm,
                                                                                    y_mm)]))
    cloth_g, rim_g = look.cloth_rgb[1], look.rim_rgb[1]
    half = (cloth_g + rim_g) / 2.0
    errors = []
    for u, _ in line_px:
        col = round(u)
        v_pred = float(np.interp(col, line_px[:, 0], line_px[:, 1]))
        g = frame[:, col, 1]
        r0 = int(v_pred) - 6
        seg = g[r0:r0 + 13]
        k = int(np.nonzero((seg[:-1] >= half) & (seg[1:] < half))[0][0])  # cloth above rim
        v_meas = r0 + k + (seg[k] - half) / (seg[k] - seg[k + 1])
        errors.append(v_meas - v_pred)
    sagitta = line_px[20, 1] - line_px[0, 1]
    assert sagitta > 8.0  # the edge bends strongly toward the image centre at its ends
    assert np.max(np.abs(errors)) < 0.35
    assert abs(np.mean(errors)) < 0.15


@pytest.mark.parametrize(("speed_mm_s", "exposure_s"), [(1500.0, 1 / 60), (600.0, 1 / 120),
                                                         (3000.0, 1 / 30)])
def test_motion_blur_streak_is_speed_times_exposure(speed_mm_s: float, exposure_s: float) -> None:
    """Blur convolves the coin's profile with a box of length L = speed × exposure.

    Convolution adds variances, so L² / 12 = Var(streak) − Var(coin), measured on the coin's
    rows of the difference against an empty table: exact for any coin art.  The reference
    coin creeps 1.5 px, so that both see the same average resampling softness (a coin at rest
    is a little sharper or softer depending on where it falls between pixels).
    """
    look = Look.clean().with_(exposure_s=exposure_s)
    renderer = Renderer(LAYOUT, look)
    cam = renderer.camera
    px_per_mm = cam.px_per_mm((0.0, 0.0), COIN_TOP_MM)
    slow = 1.5 / (exposure_s * px_per_mm)

    def centred(speed: float) -> Sliding:  # at the table's free middle at t = 0.5 s
        return Sliding((-speed * 0.5, 0.0), (speed, 0.0))

    frame = 15  # t = 0.5 s at 30 fps: the exposure is centred on the frame's time
    reference = renderer.frame(centred(slow), frame)
    moving = renderer.frame(centred(speed_mm_s), frame)
    empty = renderer.frame(Still(()), frame)
    row = round(cam.project_mm_to_px((0.0, 0.0), COIN_TOP_MM)[0][1])

    def moments(frame: np.ndarray) -> tuple[float, float, float]:
        # signed (linear in coverage, unlike |difference|) over a band of rows
        band = frame[row - 2:row + 3].astype(np.float64) - empty[row - 2:row + 3]
        w = band.sum(axis=(0, 2))
        x = np.arange(len(w), dtype=np.float64)
        mean = float((w * x).sum() / w.sum())
        return float(w.sum()), mean, float((w * (x - mean) ** 2).sum() / w.sum())

    mass_r, mean_r, var_r = moments(reference)
    mass_m, mean_m, var_m = moments(moving)
    measured = math.sqrt(1.5**2 + 12.0 * (var_m - var_r))
    expected = speed_mm_s * exposure_s * px_per_mm
    assert measured == pytest.approx(expected, rel=0.04, abs=0.3)
    assert mean_m == pytest.approx(mean_r, abs=0.2)  # the streak is centred on the frame time
    u = cam.project_mm_to_px((0.0, 0.0), COIN_TOP_MM)[0][0]
    assert mean_r == pytest.approx(u, abs=0.3)  # …which is where the coin is at that time
    assert mass_m == pytest.approx(mass_r, rel=0.03)  # blur spreads the coin, keeps its light


def test_suit_sides_show_the_suit_colours(clean: Renderer) -> None:
    look = Look.clean().with_(pose=CameraPose(height_mm=600.0))
    renderer = Renderer(LAYOUT, look)
    spots = {"suns": (-60.0, 0.0), "moons": (-20.0, 0.0), "crowns": (20.0, 0.0),
             "arms": (60.0, 0.0)}
    coins = tuple(CoinPose(s, p, 0.0, s) for s, p in spots.items())
    frame = renderer.frame(Still(coins), 0).astype(np.float64)
    disc = np.array(look.coins.disc_rgb[::-1], np.float64)
    r_px = LAYOUT.coin_mm / 2 * renderer.camera.px_per_mm((0.0, 0.0), COIN_TOP_MM)
    ink = {}
    for suit, p in spots.items():
        u, v = renderer.camera.project_mm_to_px(p, COIN_TOP_MM)[0]
        yy, xx = np.mgrid[0:frame.shape[0], 0:frame.shape[1]]
        inside = (xx - u) ** 2 + (yy - v) ** 2 < (0.6 * r_px) ** 2
        px = frame[inside]
        far = px[np.linalg.norm(px - disc, axis=1) > 80]
        assert len(far) > 20, suit
        ink[suit] = far.mean(axis=0)[::-1]  # RGB
    r, g, b = ink["suns"]
    assert r > g + 50 and r > b + 80  # red
    r, g, b = ink["crowns"]
    assert g > r + 60 and g > b + 10  # green
    r, g, b = ink["arms"]
    assert b > r + 60 and b > g + 10  # blue
    assert max(ink["moons"]) < 90 and np.ptp(ink["moons"]) < 30  # black
    assert PIECEPACKR_SUITS["suns"][0] > 200


def test_a_flipped_coin_shows_its_other_face(clean: Renderer) -> None:
    """Same coin, same place: the suit side and the value side differ where the art is."""
    suit = clean.frame(Still((CoinPose("moons", (0.0, 0.0), 0.0, "moons"),)), 0)
    value = clean.frame(Still((CoinPose("moons", (0.0, 0.0), 0.0, "ace"),)), 0)
    turned = clean.frame(Still((CoinPose("moons", (0.0, 0.0), 90.0, "moons"),)), 0)
    u, v = (round(c) for c in clean.camera.project_mm_to_px((0.0, 0.0), COIN_TOP_MM)[0])
    window = (slice(v - 7, v + 8), slice(u - 7, u + 8))
    assert diff_mask(suit[window], value[window]).mean() > 40
    assert diff_mask(suit[window], turned[window]).mean() > 20  # the art turns with the coin


def test_a_hand_reaching_over_a_coin_hides_it(clean: Renderer) -> None:
    coin = CoinPose("crowns", (0.0, 20.0), 0.0, "crowns")
    hand = HandPose(fingertip_mm=(0.0, 100.0), arm_from_mm=(0.0, -600.0))
    seen = clean.frame(Still((coin,)), 0).astype(np.float64)
    hidden = clean.frame(Still((coin,), (hand,)), 0).astype(np.float64)
    u, v = clean.camera.project_mm_to_px(coin.center_mm, COIN_TOP_MM)[0]
    r = LAYOUT.coin_mm / 2 * clean.camera.px_per_mm(coin.center_mm, COIN_TOP_MM)
    patch = (slice(round(v - 0.6 * r), round(v + 0.6 * r) + 1),
             slice(round(u - 0.6 * r), round(u + 0.6 * r) + 1))
    skin = np.array(clean.look.hand.skin_rgb[::-1], np.float64)
    disc = np.array(clean.look.coins.disc_rgb[::-1], np.float64)
    assert np.linalg.norm(seen[patch].mean(axis=(0, 1)) - disc) < 120
    truth = clean.frame_truth(Still((coin,), (hand,)), 0)[0]
    assert truth["occluded"] > 0.9 and truth["visible"]
    assert clean.frame_truth(Still((coin,)), 0)[0]["occluded"] == 0.0
    np.testing.assert_allclose(truth["center_px"], (u, v), atol=1e-3)
    occluded = hidden[patch].reshape(-1, 3)
    mean = occluded.mean(axis=0)
    cosine = float(mean @ skin / (np.linalg.norm(mean) * np.linalg.norm(skin)))
    assert cosine > 0.995 and 0.7 < np.linalg.norm(mean) / np.linalg.norm(skin) < 1.1  # skin
    assert np.all(np.linalg.norm(occluded - disc, axis=1) > 60)  # nothing of the coin


def test_a_hand_far_from_a_coin_leaves_it_whole_under_a_turned_camera() -> None:
    # a turned camera's rectangle round the hand's box reaches over the coin: the hand,
    # drawn after the coin, must not paint the empty table there (off-table 569)
    turned = Renderer(LAYOUT, Look.clean().with_(pose=CameraPose(yaw_deg=20.0)))
    coin = CoinPose("crowns", (0.0, -40.0), 0.0, "crowns")
    hand = HandPose(fingertip_mm=(150.0, -160.0), arm_from_mm=(-600.0, -160.0))
    alone = turned.frame(Still((coin,)), 0).astype(np.int16)
    beside = turned.frame(Still((coin,), (hand,)), 0).astype(np.int16)
    u, v = turned.camera.project_mm_to_px(coin.center_mm, COIN_TOP_MM)[0]
    r = 1.5 * LAYOUT.coin_mm / 2 * turned.camera.px_per_mm(coin.center_mm, COIN_TOP_MM)
    near = (slice(round(v - r), round(v + r) + 1), slice(round(u - r), round(u + r) + 1))
    assert np.abs(beside[near] - alone[near]).max() <= 1
    assert turned.frame_truth(Still((coin,), (hand,)), 0)[0]["occluded"] == 0.0


def test_sensor_noise_has_the_looks_standard_deviation(clean: Renderer) -> None:
    noisy = Renderer(LAYOUT, Look.clean().with_(read_noise=3.0))
    still = Still(())
    d = noisy.frame(still, 0).astype(np.float64) - clean.frame(still, 0)
    flat = d[300:420, 250:330]  # plain cloth between the castles
    assert flat.std() == pytest.approx(3.0, rel=0.08)
    assert abs(flat.mean()) < 0.3
    # a share `temporal_noise` of the variance is drawn afresh each frame, the rest is fixed
    change = noisy.frame(still, 1).astype(np.float64) - noisy.frame(still, 0)
    expected = math.sqrt(2 * noisy.look.temporal_noise) * 3.0
    assert change[300:420, 250:330].std() == pytest.approx(expected, rel=0.08)


def test_auto_exposure_drifts_smoothly_within_its_amplitude() -> None:
    renderer = Renderer(LAYOUT, Look.random(3).with_(exposure_drift=0.05, exposure_period_s=4.0))
    gains = np.array([renderer.exposure_gain(t) for t in np.arange(0.0, 20.0, 1 / 30)])
    assert gains.min() >= 0.95 - 1e-9 and gains.max() <= 1.05 + 1e-9
    assert gains.max() - gains.min() > 0.04
    assert np.abs(np.diff(gains)).max() < 0.005  # no jumps between frames


def test_a_clip_is_written_and_reads_back(tmp_path) -> None:
    timeline = Sliding((-100.0, 0.0), (500.0, 0.0), duration=0.3)
    path = write_video(tmp_path / "clip.mp4", timeline, LAYOUT, Look.random(11), (1280, 720),
                       30.0, progress=False)
    cap = cv2.VideoCapture(str(path))
    frames = []
    while True:
        ok, frame = cap.read()
        if not ok:
            break
        frames.append(frame)
    cap.release()
    assert len(frames) == 10
    assert frames[0].shape == (720, 1280, 3)
    assert path.with_suffix(".camera.json").exists()
    rows = path.with_suffix(".truth.jsonl").read_text().splitlines()
    assert len(rows) == 10 and '"center_px"' in rows[0]
    assert path.stat().st_size < 1_000_000  # H.264 (CRF 23): well under 0.1 MB/s at 720p30
    assert math.isfinite(float(frames[-1].mean()))
