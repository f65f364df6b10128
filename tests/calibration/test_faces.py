"""Coin faces (calibration.faces, calibration.face_reader, calibration.session_start) on the
simulator's rendered frames, over every random look of a fixed range (none left out).

The session start is every coin on its start spot showing its setup face; the faces are
learned from three frames and read in another (new noise, every coin turned).  A flip is a
coin rendered with `face_up` its other face (a knight shows a value, a guard its suit).  The
asserted floors are the rates measured on LOOKS, rounded down: they may only go up.

Measure the figures of docs/calibration.md:  .venv/bin/python -m tests.calibration.test_faces 0 30
Refit the built-in side model:  .venv/bin/python -m tests.calibration.test_faces --fit-side 12 40
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from calibration.face_reader import COINS, CoinFaces, FaceReading
from calibration.faces import (
    DESCRIPTOR_LEN,
    VALUE,
    FaceModel,
    FaceModels,
    builtin_face,
    coin_patch,
    coin_patches,
    faces_from_json,
    fit_side_model,
    learn_faces,
    look_distance,
    look_of,
    looks_of,
    other_face,
    side_features,
)
from calibration.intrinsics import Intrinsics
from calibration.plane import TablePlane
from calibration.profile import ProfileError, profile_from_json
from calibration.session_start import (
    PRESENT_SHARE,
    QUORUM,
    coin_presence,
    learn_session_start,
    locate_coin,
    start_spots_mm,
)
from referee.layout import SUITS, castle_croquetnole_layout
from referee.sim.look import DARK_SUITS, Look
from referee.sim.render import Renderer
from referee.sim.scene import CoinPose, Scene

LAYOUT = castle_croquetnole_layout()
STARTS = start_spots_mm(LAYOUT)
LOOKS = range(0, 12)
"""Looks 0–11, every one: piecepack and card symbols, light and dark inks, inverted coins."""


class _Still:
    """A timeline that never changes: the given coins, no hands."""

    duration = 1.0

    def __init__(self, coins: tuple[CoinPose, ...]) -> None:
        self.coins = coins

    def at(self, t: float) -> Scene:
        return Scene(coins=self.coins)


def _pack(look: Look) -> str:
    dark = all(np.abs(np.subtract(look.coins.suit_rgb[s], DARK_SUITS[s])).max() < 40
               for s in SUITS)
    return "dark" if dark else "piecepackr"


def _table(seed: int) -> dict:
    """One look: the learned models, and patches at the start, turned, flipped and bare."""
    look = Look() if seed == 0 else Look.random(seed)
    renderer = Renderer(LAYOUT, look, (1280, 720))
    cam = renderer.camera
    plane = TablePlane(cam.homography_mm_to_px(),
                       Intrinsics(cam.camera_matrix, cam.dist_coeffs.reshape(1, -1), cam.size))
    rng = np.random.default_rng(seed)

    def coins(flipped: bool) -> tuple[CoinPose, ...]:
        def face(coin: str) -> str:
            if not flipped:
                return coin
            other = other_face(coin)
            return "null" if other == VALUE else other
        return tuple(CoinPose(c, p, float(rng.uniform(0, 360)), face(c))
                     for c, p in sorted(STARTS.items()))

    start = coins(False)
    frames = [renderer.frame(_Still(start), i) for i in range(3)]
    models = learn_faces(frames, plane, STARTS, coin_mm=LAYOUT.coin_mm, pack=_pack(look))
    again = renderer.frame(_Still(coins(False)), 4)
    flipped = renderer.frame(_Still(coins(True)), 5)
    bare = renderer.frame(_Still(()), 6)

    def patches(frame: np.ndarray) -> dict[str, np.ndarray]:
        return {c: coin_patch(frame, plane, p, LAYOUT.coin_mm) for c, p in STARTS.items()}

    return {"models": models, "pack": _pack(look), "again": patches(again),
            "flipped": patches(flipped), "start": patches(frames[0]), "bare": patches(bare),
            "frame": again, "plane": plane}


COUNTS = {"start": 8, "start_any": 8, "false_flip": 8, "flip_guard": 4, "flip_knight": 4,
          "knight_suit": 4, "knight_side": 4, "identify": 8, "identify_flipped": 8,
          "builtin_flip": 8,
          "spots_held": 8, "bare_spots_held": 8, "session_start": 1, "bare_session_start": 1}
"""How many trials each rate has per look."""


def measure(seeds: range) -> dict[str, float]:
    """The rates of docs/calibration.md over `seeds` (random looks, every one)."""
    counts = dict.fromkeys(COUNTS, 0)
    for seed in seeds:
        t = _table(seed)
        models: FaceModels = t["models"]
        reader = CoinFaces(models)
        builtin = CoinFaces(None, t["pack"])
        for coin, patch in t["again"].items():
            counts["start"] += models.classify(patch, coin)[0] == coin
            counts["start_any"] += models.classify(patch)[0] == coin
            counts["false_flip"] += reader.check(coin, patch).flipped is True
            reading = reader.identify(patch, COINS)
            counts["identify"] += reading.coin == coin and reading.flipped is False
            counts["builtin_flip"] += builtin.check(coin, patch).flipped is False
            if coin in SUITS:
                suit, side, _conf = builtin_face(patch, models.pack)
                counts["knight_suit"] += suit == coin
                counts["knight_side"] += side == "suit"
        for coin, patch in t["flipped"].items():
            flipped = reader.check(coin, patch).flipped
            assert flipped in (None, models.is_flipped(coin, patch))
            counts["flip_knight" if coin in SUITS else "flip_guard"] += flipped is True
            counts["identify_flipped"] += reader.identify(patch, COINS).coin == coin
            counts["builtin_flip"] += builtin.check(coin, patch).flipped is True
        for frame, key in (("start", "spots_held"), ("bare", "bare_spots_held")):
            held = sum(coin_presence(p) >= PRESENT_SHARE for p in t[frame].values())
            counts[key] += held
            counts[key.replace("spots_held", "session_start")] += held >= QUORUM * len(STARTS)
    n = len(seeds)
    per = dict(COUNTS, builtin_flip=16)
    return {k: counts[k] / (per[k] * n) for k in counts}


@pytest.fixture(scope="module")
def rates() -> dict[str, float]:
    return measure(LOOKS)


# Floors: the rates measured on LOOKS (see measure), rounded down; ceilings rounded up.
# Measured: start 97.9 %, start_any 96.9 %, flip_guard 95.8 %, flip_knight 93.8 %,
# knight_suit 97.9 %, knight_side 93.8 %, identify 92.7 %, builtin_flip 92.7 %,
# spots_held 100 %, session_start 100 %; false_flip 2.1 %, bare table 0 %.  (Since a coin
# is rendered in one blend, without its side's colour fringing its top: flip_knight and
# identify one trial fewer, knight_side, builtin_flip and spots_held one or more up.)
FLOORS = {"start": 0.97, "start_any": 0.96, "flip_guard": 0.95, "flip_knight": 0.93,
          "knight_suit": 0.97, "knight_side": 0.93, "identify": 0.92, "builtin_flip": 0.92,
          "spots_held": 0.98, "session_start": 1.0}
CEILINGS = {"false_flip": 0.025, "bare_spots_held": 0.0, "bare_session_start": 0.0}


@pytest.mark.parametrize("key", sorted(FLOORS))
def test_rate_at_least_its_floor(rates: dict[str, float], key: str) -> None:
    assert rates[key] >= FLOORS[key], rates


@pytest.mark.parametrize("key", sorted(CEILINGS))
def test_error_rate_at_most_its_ceiling(rates: dict[str, float], key: str) -> None:
    assert rates[key] <= CEILINGS[key], rates


@pytest.fixture(scope="module")
def first_table() -> dict:
    return _table(LOOKS[0])


def test_faces_round_trip_in_the_profile(first_table: dict) -> None:
    models: FaceModels = first_table["models"]
    back, problems = faces_from_json(json.loads(json.dumps(models.to_json())))
    assert problems == [] and back is not None
    for coin, patch in first_table["again"].items():
        face, confidence = back.classify(patch, coin)
        assert face == models.classify(patch, coin)[0]
        assert confidence == pytest.approx(models.classify(patch, coin)[1], abs=1e-3)


def test_reader_takes_crops_or_descriptors_alike(first_table: dict) -> None:
    reader = CoinFaces(first_table["models"])
    assert reader.learned
    for coin, patch in first_table["again"].items():
        by_crop = reader.identify(patch)
        by_descriptor = reader.identify(CoinFaces.descriptor(patch))
        assert by_crop == by_descriptor
        assert isinstance(by_crop, FaceReading) and 0.0 <= by_crop.confidence <= 1.0
        assert reader.identify(patch, [coin]).coin == coin  # one candidate: that coin
    with pytest.raises(ValueError, match="descriptor"):
        reader.identify(np.zeros(5))
    with pytest.raises(ValueError, match="candidate"):
        reader.identify(first_table["again"]["moons"], [])


def test_looks_measured_together_are_each_ones_own(first_table: dict) -> None:
    """`coin_patches`, `looks_of` and `CoinFaces.crops` and `descriptors` (a coin read at
    nine points around its centre at once, `check_around`) give what one patch at a time
    gives; measured in one batch or three, the looks are the same to the last bit."""
    frame, plane = first_table["frame"], first_table["plane"]
    centres = [np.add(p, (dx, 0.25)) for p in STARTS.values() for dx in (-0.25, 0.0, 0.25)]
    patches = coin_patches(frame, plane, centres, LAYOUT.coin_mm)
    one_by_one = [coin_patch(frame, plane, c, LAYOUT.coin_mm) for c in centres]
    assert np.array_equal(patches, np.array(one_by_one))
    together = np.array([look.vector() for look in looks_of(patches)])
    alone = np.array([look_of(patch).vector() for patch in one_by_one])
    assert together.shape == (len(centres), DESCRIPTOR_LEN)
    assert together == pytest.approx(alone, abs=1e-4)
    reader = CoinFaces(first_table["models"], coin_mm=LAYOUT.coin_mm)
    crops = reader.crops(frame, plane, centres)
    assert np.array_equal(crops, patches)
    in_one = reader.descriptors(crops)
    assert in_one == pytest.approx(alone, abs=1e-4)
    assert np.array_equal(in_one, np.concatenate([reader.descriptors(crops[k:k + 8])
                                                  for k in range(0, len(crops), 8)]))


@pytest.mark.parametrize("q", [0.5, 0.97])
def test_each_patchs_quantile_is_numpys_over_its_own_pixels(q: float) -> None:
    """The disc's median and the ink's 97th percentile, taken over each patch's own pixels
    (a different set in each, as its centre moves) in one sort, are numpy's."""
    from calibration.faces import _masked_quantile

    rng = np.random.default_rng(5)
    values = rng.normal(size=(4, 32, 32, 3)).astype(np.float32)
    mask = rng.random((4, 32, 32)) < np.array([0.1, 0.5, 0.9, 0.01])[:, None, None]
    got = _masked_quantile(values, mask, mask.sum(axis=(1, 2)), q)
    want = [np.percentile(v[m], 100 * q, axis=0) for v, m in zip(values, mask, strict=True)]
    assert got == pytest.approx(np.array(want), abs=1e-6)


def test_reader_learns_a_face_seen_after_a_flip(first_table: dict) -> None:
    reader = CoinFaces(faces_from_json(first_table["models"].to_json())[0])
    patch = first_table["flipped"]["moons"]
    reader.learn("moons", "3", patch)  # the players said: moons shows its 3
    reading = reader.check("moons", patch)
    assert reading.face == "3" and reading.flipped is True
    assert "3" in reader.models.coins["moons"].learned


def test_builtin_reader_without_a_session_start(first_table: dict) -> None:
    """With no learned faces the reader falls back on the built-in model: a knight's suit side
    read alone is that knight; with its suit's guard also a candidate, the unflipped reading at
    half confidence."""
    table = first_table
    reader = CoinFaces(None, table["pack"])
    assert not reader.learned
    patch = table["again"]["moons"]
    alone = reader.identify(patch, ["moons"])
    both = reader.identify(patch, ["moons", "ace"])
    assert (alone.coin, alone.face, alone.flipped) == ("moons", "moons", False)
    assert both.coin == "moons" and both.confidence == pytest.approx(alone.confidence / 2)


def test_profile_faces_section_is_optional_and_validated(tmp_path: object) -> None:
    from tests.calibration.test_calib_profile import _profile  # a minimal valid profile

    profile = _profile()
    data = profile.to_json()
    assert "faces" not in data and profile_from_json(data).faces is None
    assert not CoinFaces.from_profile(profile).learned  # the built-in model
    data["faces"] = {"pack": "piecepackr", "coins": {"moons": {"setup": "moons",
                                                              "faces": {"moons": [1.0]}}}}
    with pytest.raises(ProfileError, match="faces"):
        profile_from_json(data)


def displaced_start(seeds: range, off_mm: float = 6.0) -> tuple[float, float, float]:
    """Coins set out `off_mm` from their start spots (random directions): (share read right
    among all faces when learned by `learn_session_start`, the same when learned at the spots
    themselves, median error of `locate_coin` in mm)."""
    located = nominal = total = 0
    errors = []
    for seed in seeds:
        look = Look() if seed == 0 else Look.random(seed)
        renderer = Renderer(LAYOUT, look, (1280, 720))
        cam = renderer.camera
        plane = TablePlane(cam.homography_mm_to_px(), Intrinsics(
            cam.camera_matrix, cam.dist_coeffs.reshape(1, -1), cam.size))
        rng = np.random.default_rng(100 + seed)
        turns = rng.uniform(0, 2 * np.pi, len(STARTS))
        moved = {c: (p[0] + off_mm * np.cos(a), p[1] + off_mm * np.sin(a))
                 for (c, p), a in zip(sorted(STARTS.items()), turns, strict=True)}

        def frame(index: int, moved: dict = moved, rng: np.random.Generator = rng,
                  renderer: Renderer = renderer) -> np.ndarray:
            coins = tuple(CoinPose(c, moved[c], float(rng.uniform(0, 360)), c)
                          for c in sorted(moved))
            return renderer.frame(_Still(coins), index)

        start, again = frame(0), frame(3)
        models, _note = learn_session_start(start, plane, LAYOUT, _pack(look))
        at_spots = learn_faces([start], plane, STARTS, coin_mm=LAYOUT.coin_mm, pack=_pack(look))
        assert models is not None
        for coin, where in moved.items():
            found = locate_coin(start, plane, STARTS[coin], LAYOUT.coin_mm)
            errors.append(float(np.linalg.norm(found - np.array(where))))
            patch = coin_patch(again, plane, where, LAYOUT.coin_mm)
            total += 1
            located += models.classify(patch)[0] == coin
            nominal += at_spots.classify(patch)[0] == coin
    return located / total, nominal / total, float(np.median(errors))


def test_coins_set_out_off_their_spots_are_found_in_their_start_zone() -> None:
    """Players put coins in the start zone, not on the spot: 6 mm off, looks 0–7 (every one).
    Measured: 93.8 % read right (nearest of all faces) when learned where they were found,
    62.5 % when learned at the spots; located within 0.47 mm (median)."""
    located, nominal, error = displaced_start(range(8))
    assert located >= 0.93 and nominal < located, (located, nominal)
    assert error < 1.0


SAMPLES = Path(__file__).resolve().parents[2] / "sample_videos"
CLIPS = ("gate-run", "strike", "capture", "off-table")
"""Every sample clip: each starts at the session start, so `referee calibrate` learns faces."""


def sample_clip_rates(folder: Path, every: int = 10) -> tuple[int, int, int]:
    """`referee calibrate` a sample clip, then read every resting, unhidden coin at its true
    place every `every` frames: (readings, coin identified among all 8, read as flipped)."""
    import csv

    import cv2

    from calibration.pipeline import calibrate_still
    from calibration.source import read_still

    still = read_still(folder / "video.mp4")
    profile = calibrate_still(still.image, LAYOUT, (863.6, 863.6))
    faces = CoinFaces.from_profile(profile)
    track: dict[str, dict[float, np.ndarray]] = {}
    with open(folder / "tracks.csv", encoding="utf-8") as f:
        for row in csv.DictReader(f):
            track.setdefault(row["coin"], {})[float(row["t"])] = np.array(
                [float(row["x_mm"]), float(row["y_mm"])])
    truth = [json.loads(line) for line in (folder / "video.truth.jsonl").read_text().split("\n")
             if line.strip()]
    cap = cv2.VideoCapture(str(folder / "video.mp4"))
    total = right = flipped = 0
    for frame_truth in truth:
        ok, frame = cap.read()
        if not ok:
            break
        if frame_truth["frame"] % every:
            continue
        for coin in frame_truth["coins"]:
            times = sorted(track[coin["coin"]])
            k = int(np.argmin(np.abs(np.subtract(times, frame_truth["t"]))))
            if (not coin["visible"] or coin["occluded"] > 0 or coin["face"] != coin["coin"]
                    or k == 0):
                continue
            here, before = track[coin["coin"]][times[k]], track[coin["coin"]][times[k - 1]]
            if np.linalg.norm(here - before) / (times[k] - times[k - 1]) > 20.0:
                continue  # moving: motion blur is vision's to handle
            crop = faces.crop(frame, profile.plane, here)
            total += 1
            right += faces.identify(crop, COINS).coin == coin["coin"]
            flipped += bool(faces.check(coin["coin"], crop).flipped)
    cap.release()
    return total, right, flipped


@pytest.mark.skipif(not (SAMPLES / CLIPS[0] / "video.mp4").is_file(),
                    reason="sample videos absent")
def test_faces_learned_by_calibration_read_the_sample_clips() -> None:
    """End to end on every sample clip: calibrated from its start (no lens), then every
    resting coin re-identified and not taken for flipped.  Measured 739/746 identified and
    3/746 read as flipped; floor 99 %, ceiling 1 %."""
    counts = np.array([sample_clip_rates(SAMPLES / clip) for clip in CLIPS]).sum(axis=0)
    total, right, flipped = (int(v) for v in counts)
    assert total > 600
    assert right / total >= 0.99, (right, total)
    assert flipped / total <= 0.01, (flipped, total)


def fit_side(seeds: range) -> None:
    """Refit the built-in side model (calibration.faces.SIDE_WEIGHTS) on `seeds` and print it."""
    looks, suit_side = [], []
    for seed in seeds:
        t = _table(seed)
        for kind in ("again", "flipped"):
            for coin, patch in t[kind].items():
                looks.append(look_of(patch))
                suit_side.append((coin in SUITS) == (kind == "again"))
    weights, bias = fit_side_model(looks, suit_side)
    scores = np.array([weights @ side_features(lk) + bias for lk in looks])
    print(f"SIDE_WEIGHTS = {[round(float(w), 4) for w in weights]}\nSIDE_BIAS = {bias:.4f}\n"
          f"SIDE_SPREAD = {scores.std():.3f}  # looks {seeds.start}-{seeds.stop - 1}")


if __name__ == "__main__":
    import sys

    args = [a for a in sys.argv[1:] if a != "--fit-side"]
    first, last = (int(a) for a in (args[:2] if len(args) > 1 else ("0", "30")))
    if "--fit-side" in sys.argv:
        fit_side(range(first, last))
    else:
        for key, rate in measure(range(first, last)).items():
            print(f"{key:18s} {rate:6.1%}")


def test_a_face_is_read_where_it_fits_best_around_the_centre() -> None:
    """`check_around`: each face matched at the centre where it fits best.  A look cut a
    little off the coin (its measured centre's error) may lie nearer the other face; cut where
    the coin is, it matches its own face closely, and that is the reading."""
    up = np.zeros(DESCRIPTOR_LEN)
    other = np.ones(DESCRIPTOR_LEN) * 4.0 / look_distance(up, np.ones(DESCRIPTOR_LEN))
    models = FaceModels(coins={"arms": FaceModel("arms", "arms", {"arms": list(up),
                                                                  "value": list(other)})})
    faces = CoinFaces(models)
    off_centre = up + 0.6 * (other - up)  # nearer the other face
    on_the_coin = up + 0.05 * (other - up)
    assert faces.check("arms", off_centre).flipped  # the centre alone reads it turned over
    reading = faces.check_around("arms", np.array([off_centre, on_the_coin]))
    assert (reading.face, reading.flipped) == ("arms", False)
    assert reading.confidence > 0.8  # (0.2 from its own face against 1.6 from the other)
    far = faces.check_around("arms", np.array([other + 0.02, off_centre]))
    assert (far.face, far.flipped) == ("value", True)
