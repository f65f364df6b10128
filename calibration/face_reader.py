"""Vision's use of the coins' faces: which coin a crop shows, and whether it is flipped.

Why: the tracker loses coins (a hand over them, a fast strike) and must give them their names
back, and a flip (a coin turned over) changes the game.  The calibration profile holds each
coin's looks learned at the session start (`calibration.faces`), or none, in which case the
built-in model of the standard faces reads a suit and a side.  This module is the one small
interface vision calls; it takes crops (or their descriptors) and gives `FaceReading`s.

    faces = CoinFaces.from_profile(profile)            # learned faces, or the built-in model
    crop = faces.crop(frame_bgr, mapping, centre_mm)   # mapping: anything with to_pixels(mm)
    reading = faces.identify(crop, candidates=("moons", "ace"))
    reading = faces.check(coin="moons", seen=crop)     # reading.flipped
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

import numpy as np

from calibration.faces import (
    DESCRIPTOR_LEN,
    VALUE,
    CoinLook,
    FaceModel,
    FaceModels,
    ToPixels,
    builtin_face_of,
    coin_patch,
    coin_patches,
    look_distance,
    look_of,
    looks_of,
    other_face,
)
from referee.geometry import COIN_DIAMETER_MM
from referee.layout import GUARDS, SUITS

if TYPE_CHECKING:
    from calibration.profile import CalibrationProfile

COINS = tuple(SUITS) + tuple(GUARDS)
"""Every coin's name: the four knights (by suit) and the four guards (by value)."""
UNSURE_DISTANCE = 10.0
"""A coin's look this far from both its faces (`look_distance`: units of one coin's spread
between frames) is neither.  On the simulator's looks 0–29 (`tests.calibration.test_faces`)
only 2 of 120 flipped knights (read against their derived value face) lie beyond it."""


@dataclass(frozen=True)
class FaceReading:
    """What one crop shows.

    `coin`: the coin it is (None when the built-in model cannot choose between a knight and
    its suit's guard); `face`: the face up (a suit, a guard's value "ace"…"4", or VALUE for a
    knight's value side); `flipped`: whether that is not the coin's setup face (None with
    `coin` None); `confidence` 0–1: the margin over the next reading.
    """

    coin: str | None
    face: str
    flipped: bool | None
    confidence: float


class CoinFaces:
    """The coins' faces of one table: learned at its session start, or the built-in model."""

    def __init__(self, models: FaceModels | None = None, pack: str = "piecepackr",
                 coin_mm: float = COIN_DIAMETER_MM) -> None:
        self.models = models if models is not None else FaceModels(pack=pack)
        self.coin_mm = float(coin_mm)

    @classmethod
    def from_profile(cls, profile: CalibrationProfile) -> CoinFaces:
        """The faces of a `CalibrationProfile`: its learned `faces`, else the built-in model
        for its pack."""
        return cls(profile.faces, profile.pack, profile.layout.coin_mm)

    @property
    def learned(self) -> bool:
        """Whether any coin's look was learned on this table (else the built-in model)."""
        return any(m.learned for m in self.models.coins.values())

    def crop(self, frame: np.ndarray, mapping: ToPixels, centre_mm: Sequence[float]
             ) -> np.ndarray:
        """The coin at `centre_mm` (table mm, where it stands) cut from a BGR frame: a 32×32
        patch, rectified and north up (`calibration.faces.coin_patch`)."""
        return coin_patch(frame, mapping, centre_mm, self.coin_mm)

    @staticmethod
    def descriptor(crop: np.ndarray) -> np.ndarray:
        """A crop's rotation-invariant descriptor (DESCRIPTOR_LEN floats), to keep per track
        and compare later instead of the crop."""
        return look_of(crop).vector()

    def crops(self, frame: np.ndarray, mapping: ToPixels,
              centres_mm: Sequence[Sequence[float]] | np.ndarray) -> np.ndarray:
        """`crop` at each of `centres_mm` (N×2): N×32×32×3, the corners of all mapped to
        pixels at once (`calibration.faces.coin_patches`)."""
        return coin_patches(frame, mapping, centres_mm, self.coin_mm)

    @staticmethod
    def descriptors(crops: np.ndarray) -> np.ndarray:
        """`descriptor` of each of N crops (N×DESCRIPTOR_LEN), measured together
        (`calibration.faces.looks_of`): a coin read at nine points around its centre
        (`check_around`) costs about three readings, not nine."""
        return np.array([look.vector() for look in looks_of(crops)])

    def identify(self, seen: np.ndarray, candidates: Iterable[str] | None = None
                 ) -> FaceReading:
        """Which of `candidates` (default: every coin) a crop or descriptor shows, and its face.

        Learned faces: the nearest face of any candidate coin; confidence is the margin over
        the nearest face of another coin.  Built-in model: a suit side is its suit's knight
        or (flipped) its suit's guard, a value side the guard or (flipped) the knight; where
        both are candidates the unflipped reading is given at half confidence, or `coin`
        None when the model cannot read a suit.
        """
        vec = _as_vector(seen)
        pool = list(candidates if candidates is not None else COINS)
        if not pool:
            raise ValueError("identify needs at least one candidate coin")
        learned = {c: self.models.coins[c] for c in pool
                   if c in self.models.coins and self.models.coins[c].faces}
        if learned:
            # A derived face is a copy of another coin's learned look (a guard's suit side is
            # its knight's): on a tie the learned, unflipped reading wins, and the copy is no
            # rival (the look cannot tell them apart; the tracker's identity must).
            scored = sorted((look_distance(vec, np.asarray(v)), face not in model.learned,
                             coin, face)
                            for coin, model in learned.items()
                            for face, v in model.faces.items())
            best, _derived, coin, face = scored[0]
            best_vec = np.asarray(learned[coin].faces[face])
            rival = next((d for d, _x, c, f in scored if c != coin and not np.allclose(
                np.asarray(learned[c].faces[f]), best_vec)), best + 3.0)
            return FaceReading(coin, face, face != learned[coin].setup, _margin(best, rival))
        return self._builtin(vec, pool)

    def check(self, coin: str, seen: np.ndarray) -> FaceReading:
        """The face a known coin shows (`flipped`: not its setup face), e.g. after a flick.

        With learned faces, a look farther than UNSURE_DISTANCE from both of the coin's faces
        (motion blur, a hand's shadow, the table's rim in the crop) is neither: `flipped` is
        None and the confidence 0, a question rather than a guess.
        """
        model = self.models.coins.get(coin)
        if model is not None and model.setup in model.faces and len(model.faces) > 1:
            vec = _as_vector(seen)
            reading = self.identify(vec, [coin])
            nearest = min(look_distance(vec, np.asarray(v)) for v in model.faces.values())
            if nearest > UNSURE_DISTANCE:
                return replace(reading, flipped=None, confidence=0.0)
            return replace(reading, confidence=self._two_face_margin(coin, vec))
        return self._builtin(_as_vector(seen), [coin])

    def check_around(self, coin: str, looks: np.ndarray) -> FaceReading:
        """`check` on a coin's looks cut at its measured centre (`looks[0]`) and at points
        around it within that centre's error: each of its faces is matched where it fits
        best, and the margin is between those best fits.

        A small coin's reading turns with its centre: the demo game's Arms knight, 14 px
        wide, read its value side at 0.23 at one centre and its suit at 0.21 at another
        0.2 mm off.  Each face aligned on its own, the reading is the face that fits the coin
        anywhere it may be (the demo game's false flips 0.16-0.23 → at most 0.22; the true
        flips of `tests.vision.test_flips` 0.25-0.87 → 0.26-0.87)."""
        model = self.models.coins.get(coin)
        if model is None or model.setup not in model.faces or len(model.faces) < 2:
            return self.check(coin, looks[0])
        best = {face: min(look_distance(_as_vector(look), np.asarray(vec)) for look in looks)
                for face, vec in model.faces.items()}
        near, far = sorted(best, key=best.__getitem__)[:2]
        if best[near] > UNSURE_DISTANCE:
            return FaceReading(coin, near, None, 0.0)
        return FaceReading(coin, near, near != model.setup, _margin(best[near], best[far]))

    def learn(self, coin: str, face: str, seen: np.ndarray) -> None:
        """Record a face of a coin once it is known (a flip confirmed by the players)."""
        model = self.models.coins.setdefault(coin, FaceModel(coin, coin))
        model.faces[face] = [float(v) for v in _as_vector(seen)]
        if face not in model.learned:
            model.learned.append(face)

    # -- helpers ---------------------------------------------------------------------------
    def _two_face_margin(self, coin: str, vec: np.ndarray) -> float:
        faces = self.models.coins[coin].faces.values()
        d = sorted(look_distance(vec, np.asarray(v)) for v in faces)
        return _margin(d[0], d[1])

    def _builtin(self, vec: np.ndarray, pool: list[str]) -> FaceReading:
        suit, side, conf = builtin_face_of(CoinLook.from_vector(vec), self.models.pack)
        guard = GUARDS[SUITS.index(suit)]
        if side == "suit":
            options = [(suit, suit, False), (guard, suit, True)]
        else:
            options = [(guard, guard, False), (suit, VALUE, True)]
        fits = [o for o in options if o[0] in pool]
        if len(fits) == 1:
            coin, face, flipped = fits[0]
            return FaceReading(coin, face, flipped, conf)
        if len(fits) == 2:
            coin, face, flipped = fits[0]
            return FaceReading(coin, face, flipped, 0.5 * conf)
        if len(pool) == 1 and pool[0] in COINS:  # the suit read is not this coin's: its side
            coin = pool[0]
            flipped = (side == "suit") != (coin in SUITS)
            return FaceReading(coin, other_face(coin) if flipped else coin, flipped, 0.5 * conf)
        return FaceReading(None, suit if side == "suit" else VALUE, None, conf)


def _as_vector(seen: np.ndarray) -> np.ndarray:
    """A descriptor from a crop (H×W×3) or a descriptor given as is."""
    arr = np.asarray(seen)
    if arr.ndim == 1:
        if len(arr) != DESCRIPTOR_LEN:
            raise ValueError(f"a coin descriptor has {DESCRIPTOR_LEN} numbers, got {len(arr)}")
        return arr.astype(np.float64)
    if arr.ndim == 3 and arr.shape[2] == 3:
        return look_of(arr).vector()
    raise ValueError(f"expected a BGR crop (H×W×3) or a descriptor, got shape {arr.shape}")


def _margin(near: float, far: float) -> float:
    """How sure a reading nearest one look (`near` from it) is against the next (`far`):
    0 (as near both) to 1 (on it)."""
    return float(np.clip((far - near) / max(far, 1e-6), 0.0, 1.0))
