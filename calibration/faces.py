"""Coin faces: what each coin looks like on this table, so that a flip is recognised.

Why: a coin's two faces (a suit symbol; a value numeral or blank) must be told apart to see a
flip.  At the session start every coin lies on its start spot showing its setup face, so its
look on *this* table (light, camera, pack) is learned there (`learn_faces`).  Without a
session start, a built-in model of the standard faces reads the suit from the ink colour
(calibration.pack.SUIT_SETS) and the side from the ink's area and strength (`builtin_face`).

A coin's patch is cut from the frame through the table plane: a square of table millimetres
around the coin warped to a fixed size, so it is rectified.  Its descriptor is rotation
invariant (ink shares in rings around the centre, the ink's and the disc's colours), so a coin
turned by a flick keeps its look.  OpenCV and numpy only.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

import cv2
import numpy as np

from calibration.pack import SUIT_SETS, ink_costs
from calibration.plane import TablePlane
from referee.geometry import COIN_DIAMETER_MM
from referee.layout import GUARDS, SUITS

PATCH_PX = 32
"""A coin patch's side in pixels (the coin is ~14 px across in a 1280×720 table view)."""
SPAN = 1.25
"""A patch covers this many coin diameters."""
VALUE = "value"
"""The face name of a value side whose numeral is not known (a knight's other face)."""
RINGS = (0.0, 0.2, 0.35, 0.5, 0.65, 0.8)
"""Ring edges, as fractions of the coin's radius (the rim beyond 0.8 is left out)."""
_WEIGHT = np.array([0.6, 1.0, 1.0], np.float32)  # Lab distance weights (lightness counts less)
# per-feature scales of the learned distance, about the spread of one coin's look between
# frames (measured on rendered tables): ring shares, strong ink, ink colour (L a b, relative
# to the disc), disc colour (L a b: lighting varies across the table), contrast, harmonics
_SCALE = np.array([0.12, 0.08, 0.06, 0.05, 0.04, 0.03, 6.0, 5.0, 5.0, 10.0, 4.0, 4.0, 5.0,
                   0.13, 0.1, 0.07])
DESCRIPTOR_LEN = len(_SCALE)
"""How many numbers a coin's descriptor (`CoinLook.vector`) holds."""


def other_face(coin: str) -> str:
    """The face under a coin's setup face: a guard's suit, or a knight's (unknown) value."""
    if coin in GUARDS:
        return SUITS[GUARDS.index(coin)]
    return VALUE


def suit_of_coin(coin: str) -> str | None:
    if coin in SUITS:
        return coin
    if coin in GUARDS:
        return SUITS[GUARDS.index(coin)]
    return None


def is_suit_face(face: str) -> bool:
    return face in SUITS


class ToPixels(Protocol):
    """Anything that maps table mm (N×2) to image pixels: a TablePlane, vision's mapping."""

    def to_pixels(self, points_mm: np.ndarray) -> np.ndarray: ...


def coin_patch(frame: np.ndarray, plane: ToPixels, center_mm: Sequence[float],
               coin_mm: float = COIN_DIAMETER_MM, size: int = PATCH_PX) -> np.ndarray:
    """The coin at `center_mm` seen from straight above: a `size`² BGR patch, north up.

    Four points around the coin are mapped to pixels through the plane (lens included) and the
    square between them warped to the patch; the coin's disc fills 1/SPAN of it.
    """
    return coin_patches(frame, plane, [center_mm], coin_mm, size)[0]


def coin_patches(frame: np.ndarray, plane: ToPixels, centers_mm: Sequence[Sequence[float]]
                 | np.ndarray, coin_mm: float = COIN_DIAMETER_MM, size: int = PATCH_PX
                 ) -> np.ndarray:
    """`coin_patch` at each of `centers_mm` (N×2): N×`size`×`size`×3.  The corners of all
    are mapped to pixels at once (the lens model's cost is per call, not per point)."""
    half = coin_mm * SPAN / 2
    centers = np.asarray(centers_mm, np.float64).reshape(-1, 2)
    corners = np.array([[-half, half], [half, half], [half, -half], [-half, -half]])
    src_px = plane.to_pixels((centers[:, None, :] + corners).reshape(-1, 2))
    src_px = np.asarray(src_px, np.float32).reshape(-1, 4, 2)
    dst = np.array([[0, 0], [size, 0], [size, size], [0, size]], np.float32) - 0.5
    out = np.empty((len(centers), size, size, frame.shape[2]), frame.dtype)
    for patch, quad in zip(out, src_px, strict=True):
        warp = cv2.getPerspectiveTransform(quad, dst)
        cv2.warpPerspective(frame, warp, (size, size), dst=patch, flags=cv2.INTER_LINEAR,
                            borderMode=cv2.BORDER_REPLICATE)
    return out


def patch_centre(lab: np.ndarray) -> tuple[float, float]:
    """The coin's centre in its patch (Lab, float32): the centroid of what differs from the
    cloth around it.

    Corrects the coin top's parallax (it stands a coin's thickness above the table plane) and
    small errors in the given position.
    """
    cx, cy = _patch_centres(lab[None])[0]
    return float(cx), float(cy)


def _patch_centres(labs: np.ndarray) -> np.ndarray:
    """`patch_centre` of N patches (N×S×S×3 Lab, float32) at once: N×2 (x, y)."""
    size = labs.shape[1]
    yy, xx = _grid(size)
    c = (size - 1) / 2
    r = np.hypot(xx - c, yy - c) / (size / SPAN / 2)
    cloth = np.median(labs[:, r > 1.12], axis=1)
    differs = (np.linalg.norm((labs - cloth[:, None, None]) * _WEIGHT, axis=3) > 18.0) \
        & (r < 1.2)
    count = differs.sum(axis=(1, 2))
    clear = count >= 0.5 * np.pi * (size / SPAN / 2) ** 2
    # where the coin is not clear from the cloth, the given position is trusted
    sums = np.stack([(xx * differs).sum(axis=(1, 2)), (yy * differs).sum(axis=(1, 2))], 1)
    return np.where(clear[:, None], sums / np.maximum(count, 1)[:, None], c)


@functools.lru_cache(maxsize=4)
def _grid(size: int) -> tuple[np.ndarray, np.ndarray]:
    """A patch's pixel rows and columns (yy, xx), float32, read-only: made once per size,
    not twice per coin read."""
    yy, xx = np.mgrid[0:size, 0:size].astype(np.float32)
    yy.setflags(write=False)
    xx.setflags(write=False)
    return yy, xx


@dataclass(frozen=True)
class CoinLook:
    """What a patch shows: the disc's colour, the ink's colour and where the ink is."""

    disc_lab: np.ndarray  # the majority colour inside the coin (Lab)
    ink_lab: np.ndarray  # the ink's colour: its strongest pixels (Lab)
    rings: np.ndarray  # ink share in each ring (soft: 0–1 per pixel)
    strength: float  # the share of strong ink (full contrast) in the coin
    contrast: float  # the ink's distance from the disc (Lab, weighted)
    angular: np.ndarray  # |Fourier| of the ink around the centre, harmonics 1–3, over mass

    def vector(self) -> np.ndarray:
        """The look as one descriptor (DESCRIPTOR_LEN floats), what profiles store."""
        return np.concatenate([self.rings, [self.strength], self.ink_lab - self.disc_lab,
                               self.disc_lab, [self.contrast], self.angular])

    @classmethod
    def from_vector(cls, vector: Sequence[float] | np.ndarray) -> CoinLook:
        """The look a descriptor (`vector()`) was made from."""
        v = np.asarray(vector, np.float64).reshape(-1)
        if len(v) != DESCRIPTOR_LEN:
            raise ValueError(f"a coin descriptor has {DESCRIPTOR_LEN} numbers, got {len(v)}")
        n = len(RINGS) - 1
        disc = v[n + 4:n + 7]
        return cls(disc, v[n + 1:n + 4] + disc, v[:n], float(v[n]), float(v[n + 7]),
                   v[n + 8:n + 11])


def look_of(patch: np.ndarray) -> CoinLook:
    """The rotation-invariant look of a coin patch (see `coin_patch`)."""
    return looks_of(patch[None])[0]


def looks_of(patches: np.ndarray) -> list[CoinLook]:
    """`look_of` each of N patches (N×S×S×3 BGR), measured together: the numpy work on one
    small patch is mostly the cost of each call, so nine at once cost about three times one
    (the nine looks of `CoinFaces.check_around`)."""
    n, size = patches.shape[:2]
    lab = cv2.cvtColor(patches.reshape(n * size, size, 3), cv2.COLOR_BGR2LAB)
    lab = lab.reshape(n, size, size, 3).astype(np.float32)
    centres = _patch_centres(lab)
    yy, xx = _grid(size)
    dx, dy = xx - centres[:, 0, None, None], yy - centres[:, 1, None, None]
    r = np.hypot(dx, dy) / (size / SPAN / 2)  # in coin radii
    inside = r < RINGS[-1]
    count = inside.sum(axis=(1, 2))
    disc = _masked_quantile(lab, inside, count, 0.5)
    dist = np.linalg.norm((lab - disc[:, None, None]) * _WEIGHT, axis=3)
    # the ink's contrast: a robust maximum, so that thin blurred strokes read weaker
    contrast = np.maximum(_masked_quantile(dist[..., None], inside, count, 0.97)[:, 0], 12.0)
    ink = np.clip((dist - 8.0) / np.maximum(contrast - 8.0, 1.0)[:, None, None], 0.0, 1.0)
    rings = np.stack([_masked_mean(ink, (r >= a) & (r < b))
                      for a, b in itertools.pairwise(RINGS)], 1)
    # the ink's colour: its strongest pixels (blur mixes thin strokes with the disc)
    core = inside & (dist >= 0.7 * contrast[:, None, None])
    n_core = core.sum(axis=(1, 2))
    ink_lab = np.where((n_core >= 2)[:, None], (lab * core[..., None]).sum(axis=(1, 2))
                       / np.maximum(n_core, 1)[:, None], disc)
    strong = _masked_mean((dist > 40.0).astype(np.float32), inside)
    w = ink * inside
    mass = np.maximum(w.sum(axis=(1, 2)), 1e-6)
    around = np.where(r > 0, (dx + 1j * dy) / np.maximum(np.hypot(dx, dy), 1e-12), 1.0)
    harmonic = w.astype(np.complex64)  # w·e^{ikθ}, k = 1, 2, 3
    angular = np.empty((n, 3))
    for k in range(3):
        harmonic = harmonic * around
        angular[:, k] = np.abs(harmonic.sum(axis=(1, 2))) / mass
    return [CoinLook(disc[i].astype(np.float64), ink_lab[i].astype(np.float64),
                     rings[i].astype(np.float64), float(strong[i]), float(contrast[i]),
                     angular[i].astype(np.float64)) for i in range(n)]


def _masked_mean(values: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """The mean of each patch's `values` (N×S×S) where `mask`: N."""
    return (values * mask).sum(axis=(1, 2)) / np.maximum(mask.sum(axis=(1, 2)), 1)


def _masked_quantile(values: np.ndarray, mask: np.ndarray, count: np.ndarray, q: float
                     ) -> np.ndarray:
    """Each patch's `q` quantile of `values` (N×S×S×C) where `mask` (`count` pixels each),
    per channel, interpolated linearly as numpy's default: N×C.  The pixels outside sort
    last."""
    n, channels = values.shape[0], values.shape[3]
    flat = np.where(mask[..., None], values, np.inf).reshape(n, -1, channels)
    ranked = np.sort(flat, axis=1)
    at = q * (np.maximum(count, 1) - 1)
    lo = np.floor(at).astype(int)
    hi = np.minimum(lo + 1, np.maximum(count, 1) - 1)
    rows = np.arange(n)
    low, high = ranked[rows, lo], ranked[rows, hi]
    return low + (high - low) * (at - lo)[:, None]


# ------------------------------------------------------------------------- the built-in model


def builtin_face(patch: np.ndarray, pack: str = "piecepackr") -> tuple[str, str, float]:
    """The standard faces' model: (suit, side, confidence), side "suit" or VALUE.

    The suit is the ink colour nearest the pack's suit colours, white-balanced against the
    disc; on an inverted coin (a light symbol on a suit-coloured disc) the disc is the suit
    colour.  The side is a linear discriminant of where the ink lies and its shape
    (`side_score_of`): a suit symbol is a compact solid shape in the middle, a numeral thin
    strokes reaching further out.
    """
    return builtin_face_of(look_of(patch), pack)


def builtin_face_of(look: CoinLook, pack: str = "piecepackr") -> tuple[str, str, float]:
    """`builtin_face` on a look already measured (e.g. from a stored descriptor)."""
    colours = SUIT_SETS[pack]
    light, dark = look.disc_lab, look.ink_lab
    if dark[0] > light[0]:  # inverted: the light ink is the reference white
        light, dark = dark, light
    balanced = dark.copy()
    balanced[0] *= 255.0 / max(float(light[0]), 1.0)
    balanced[1:] -= light[1:] - 128.0
    # Lightness counts for little: blurred at 14 px, a dark red, green or blue symbol is
    # nearly as dark as a black one, and only its hue tells it (SUIT_LIGHTNESS_WEIGHT).
    cost = ink_costs(balanced, colours, SUIT_LIGHTNESS_WEIGHT)
    ranked = sorted(cost, key=cost.__getitem__)
    suit = ranked[0]
    margin = cost[ranked[1]] - cost[ranked[0]]
    side_score = side_score_of(look)
    side = "suit" if side_score > 0.0 else VALUE
    confidence = float(np.clip(margin / 30.0, 0.0, 1.0)) * float(
        np.clip(abs(side_score) / SIDE_SPREAD, 0.2, 1.0))
    return suit, side, confidence


SUIT_LIGHTNESS_WEIGHT = 0.1
"""The weight of lightness against hue when the built-in model reads a suit, chosen on the
simulator's looks 12–39 among 0.5 (before), 0.3, 0.2, 0.1, 0.05 and 0; the knights' suit read
on looks 0–11 (`python -m tests.calibration.test_faces 0 12`) rose from 83 % to 98 %."""


def side_features(look: CoinLook) -> np.ndarray:
    """What tells a suit side from a value side: where the ink lies (ring shares), how much
    of it is strong, its contrast, and its shape (angular harmonics): a suit symbol is a
    compact solid shape in the middle, a numeral thin strokes reaching further out."""
    return np.concatenate([look.rings, [look.strength, look.contrast], look.angular])


def fit_side_model(looks: Sequence[CoinLook], suit_side: Sequence[bool]
                   ) -> tuple[np.ndarray, float]:
    """Fisher's linear discriminant of suit sides against value sides: (weights, bias) with
    `weights @ side_features(look) + bias > 0` for a suit side."""
    x = np.array([side_features(lk) for lk in looks])
    y = np.asarray(suit_side, bool)
    mu_suit, mu_value = x[y].mean(axis=0), x[~y].mean(axis=0)
    within = np.cov(np.vstack([x[y] - mu_suit, x[~y] - mu_value]).T)
    weights = np.linalg.solve(within + 1e-6 * np.eye(x.shape[1]), mu_suit - mu_value)
    return weights, float(-weights @ (mu_suit + mu_value) / 2)


def side_score_of(look: CoinLook) -> float:
    """The built-in side model's score: > 0 a suit side, < 0 a value side."""
    return float(SIDE_WEIGHTS @ side_features(look) + SIDE_BIAS)


# The built-in side model, `fit_side_model` on the simulator's random looks 12–39 (suit and
# value sides of every coin; refit with `python -m tests.calibration.test_faces --fit-side`);
# measured on looks 0–11, which it never saw.
SIDE_WEIGHTS = np.array([-20.6504, 25.1015, -9.6625, -41.8348, -11.3472, 8.3268, 0.0006, -9.8264,
                         -14.8429, 3.2468])
SIDE_BIAS = 12.7752
SIDE_SPREAD = 4.694
"""The spread (standard deviation) of the side score over the looks it was fitted on."""


# --------------------------------------------------------------------------- learned models


@dataclass
class FaceModel:
    """One coin's learned faces: descriptor vectors by face name (setup face first)."""

    coin: str
    setup: str
    faces: dict[str, list[float]] = field(default_factory=dict)
    learned: list[str] = field(default_factory=list)  # faces seen on this table (not derived)

    def to_json(self) -> dict[str, Any]:
        return {"setup": self.setup, "learned": list(self.learned),
                "faces": {k: [round(float(v), 4) for v in vec] for k, vec in self.faces.items()}}


@dataclass
class FaceModels:
    """Every coin's FaceModel, and the pack (suit colours) for the built-in model."""

    coins: dict[str, FaceModel] = field(default_factory=dict)
    pack: str = "piecepackr"

    def _candidates(self, learned_only: bool = False) -> dict[str, list[np.ndarray]]:
        out: dict[str, list[np.ndarray]] = {}
        for model in self.coins.values():
            for name, vec in model.faces.items():
                if learned_only and name not in model.learned:
                    continue  # derived faces are copies of another coin's learned face
                out.setdefault(name, []).append(np.asarray(vec))
        return out

    def classify(self, patch: np.ndarray, coin: str | None = None) -> tuple[str, float]:
        """The face a patch shows: (face name, confidence 0–1).

        The nearest learned face of any coin, or with `coin` (when the tracker knows which
        coin it is) the nearer of that coin's faces; with no learned faces, the built-in
        model (a suit name, or VALUE for a value side).
        """
        if coin is not None and coin in self.coins:
            cands = {k: [np.asarray(v)] for k, v in self.coins[coin].faces.items()}
        else:
            cands = self._candidates(learned_only=True)
        if not cands:
            suit, side, conf = builtin_face(patch, self.pack)
            return (suit if side == "suit" else VALUE), conf
        vec = look_of(patch).vector()
        dist = {name: min(look_distance(vec, v) for v in vs) for name, vs in cands.items()}
        ranked = sorted(dist, key=dist.__getitem__)
        best = ranked[0]
        second = dist[ranked[1]] if len(ranked) > 1 else dist[best] + 3.0
        return best, float(np.clip((second - dist[best]) / max(second, 1e-6), 0.0, 1.0))

    def is_flipped(self, coin: str, patch: np.ndarray) -> bool:
        """Whether `coin` shows the face other than its setup face."""
        model = self.coins.get(coin)
        if model is None or model.setup not in model.faces:
            _suit, side, _conf = builtin_face(patch, self.pack)
            return (side == "suit") != is_suit_face(coin)
        vec = look_of(patch).vector()
        other = [v for k, v in model.faces.items() if k != model.setup]
        d_setup = look_distance(vec, np.asarray(model.faces[model.setup]))
        if other:
            return min(look_distance(vec, np.asarray(v)) for v in other) < d_setup
        _suit, side, _conf = builtin_face(patch, self.pack)
        return (side == "suit") != is_suit_face(model.setup)

    def learn(self, coin: str, face: str, patch: np.ndarray) -> None:
        """Record a face of a coin seen on this table (e.g. its other face after a flip)."""
        model = self.coins.setdefault(coin, FaceModel(coin, coin))
        model.faces[face] = [float(v) for v in look_of(patch).vector()]
        if face not in model.learned:
            model.learned.append(face)

    def to_json(self) -> dict[str, Any]:
        return {"pack": self.pack, "patch_px": PATCH_PX,
                "coins": {c: m.to_json() for c, m in sorted(self.coins.items())}}


def look_distance(a: np.ndarray, b: np.ndarray) -> float:
    """How unlike two descriptors are, in units of one coin's spread between frames."""
    return float(np.linalg.norm((np.asarray(a) - np.asarray(b)) / _SCALE))


def learn_faces(frames: Sequence[np.ndarray] | np.ndarray, plane: TablePlane,
                coins_mm: Mapping[str, Sequence[float]], *, coin_mm: float = COIN_DIAMETER_MM,
                pack: str = "piecepackr") -> FaceModels:
    """Learn every coin's setup face from session-start frames (each coin on its start spot).

    `coins_mm` maps coin names (their setup faces) to their centres in table mm.  Several
    frames are averaged.  A coin's other face is derived where the pack tells it: a guard's
    suit side looks like the knight of its suit; a knight's value side is half its suit's guard
    (same ink), half the knight plus the mean suit-to-value step (VALUE_BLEND), until it is
    seen (`FaceModels.learn`).
    """
    stack = [frames] if isinstance(frames, np.ndarray) else list(frames)
    models = FaceModels(pack=pack)
    for coin, centre in coins_mm.items():
        vecs = [look_of(coin_patch(f, plane, centre, coin_mm)).vector() for f in stack]
        models.coins[coin] = FaceModel(coin, coin, {coin: [float(v) for v in
                                                          np.mean(vecs, axis=0)]}, [coin])
    twins = {}
    for coin in models.coins:
        suit = suit_of_coin(coin)
        twins[coin] = next((c for c in models.coins if c != coin and suit_of_coin(c) == suit
                            and is_suit_face(c) != is_suit_face(coin)), None)
    # a knight's value side: its numeral is unknown, so its look is the knight's own plus the
    # mean step from a suit side to its suit's value side on this table, blended with its
    # suit's guard (same ink)
    steps = [np.subtract(models.coins[g].faces[g], models.coins[k].faces[k])
             for k, g in twins.items() if g is not None and is_suit_face(k)]
    for coin, model in models.coins.items():
        twin = twins[coin]
        if twin is None:
            continue
        look = np.asarray(models.coins[twin].faces[twin])
        if is_suit_face(coin) and steps:
            look = VALUE_BLEND * look + (1 - VALUE_BLEND) * (
                np.asarray(model.faces[coin]) + np.mean(steps, axis=0))
        model.faces[other_face(coin)] = [float(v) for v in look]
    return models


VALUE_BLEND = 0.5
"""A knight's derived value side: this share its suit's guard, the rest the mean step."""


def faces_from_json(data: Any) -> tuple[FaceModels | None, list[str]]:
    """The profile's `faces` section (None: no faces) and the problems found in it."""
    if data is None:
        return None, []
    problems: list[str] = []
    if not isinstance(data, dict) or not isinstance(data.get("coins"), dict):
        return None, ["'faces' must be an object with 'coins'"]
    pack = data.get("pack", "piecepackr")
    if pack not in SUIT_SETS:
        problems.append(f"'faces.pack' must be one of {', '.join(SUIT_SETS)}, got {pack!r}")
        pack = "piecepackr"
    models = FaceModels(pack=pack)
    n = len(_SCALE)
    for coin, raw in data["coins"].items():
        where = f"'faces.coins.{coin}'"
        if not isinstance(raw, dict) or not isinstance(raw.get("faces"), dict):
            problems.append(f"{where} needs 'setup' and 'faces'")
            continue
        faces: dict[str, list[float]] = {}
        for name, vec in raw["faces"].items():
            ok = (isinstance(vec, list) and len(vec) == n and all(
                isinstance(v, int | float) and not isinstance(v, bool) and np.isfinite(v)
                for v in vec))
            if not ok:
                problems.append(f"{where}.faces.{name} must be {n} finite numbers")
                continue
            faces[str(name)] = [float(v) for v in vec]
        setup = raw.get("setup", coin)
        if not isinstance(setup, str):
            problems.append(f"{where}.setup must be a face name")
            continue
        learned = raw.get("learned", [])
        if not isinstance(learned, list) or not all(isinstance(x, str) for x in learned):
            problems.append(f"{where}.learned must be a list of face names")
            learned = []
        models.coins[str(coin)] = FaceModel(str(coin), setup, faces, list(learned))
    return models, problems
