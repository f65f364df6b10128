"""Learning the coins' faces when calibration's still shows the session start.

Why: CONTRACT.md starts a session with every coin on its castle's start spot showing its
setup face, so the still `referee calibrate` reads from the start of a session video shows each
coin where the fitted layout says it lies.  If most start spots hold a coin, their looks are
learned (`calibration.faces.learn_faces`); otherwise (a still of the tiles only, coins still
being set out) there is no session start and vision falls back on the built-in model.
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np

from calibration.faces import (
    PATCH_PX,
    SPAN,
    FaceModels,
    coin_patch,
    learn_faces,
    patch_centre,
)
from calibration.plane import TablePlane
from referee.layout import Layout

PRESENT_SHARE = 0.75
"""A start spot holds a coin when this share of the coin's middle stands off the cloth."""
QUORUM = 0.75
"""This share of the start spots holding a coin makes the still a session start."""
_OFF_CLOTH = 18.0  # weighted Lab distance from the cloth around the coin (as faces.patch_centre)


def start_spots_mm(layout: Layout) -> dict[str, tuple[float, float]]:
    """Every knight and guard on its castle's start spot (RULES-SPEC §2.5.3), carried by the
    fitted layout's towers."""
    out: dict[str, tuple[float, float]] = {}
    for castle in layout.castles.values():
        out[castle.knight] = (float(castle.knight_spot[0]), float(castle.knight_spot[1]))
        out[castle.guard] = (float(castle.guard_spot[0]), float(castle.guard_spot[1]))
    return out


def coin_presence(patch: np.ndarray) -> float:
    """The share of a coin patch's middle (within 0.6 coin radii) that differs from the cloth
    seen round it (beyond 1.12 radii): about 1 for a coin, about 0 for bare cloth."""
    lab = cv2.cvtColor(patch, cv2.COLOR_BGR2LAB).astype(np.float32)
    size = patch.shape[0]
    yy, xx = np.mgrid[0:size, 0:size].astype(np.float32)
    c = (size - 1) / 2
    r = np.hypot(xx - c, yy - c) / (size / SPAN / 2)
    cloth = np.median(lab[r > 1.12], axis=0)
    away = np.linalg.norm((lab - cloth) * np.float32([0.6, 1.0, 1.0]), axis=2)
    return float(np.mean(away[r < 0.6] > _OFF_CLOTH))


def locate_coin(image: np.ndarray, plane: TablePlane, near_mm: Sequence[float],
                coin_mm: float, reach_mm: float | None = None) -> np.ndarray:
    """Where the coin set out near `near_mm` lies (table mm): the patch re-centred on what
    differs from the cloth (`faces.patch_centre`) until it settles, at most `reach_mm`
    (default half a coin) from where it was looked for.  Players put coins in their start
    zone, not exactly on its spot."""
    start = np.asarray(near_mm, np.float64)
    reach = coin_mm / 2 if reach_mm is None else reach_mm
    mm_per_px = coin_mm * SPAN / PATCH_PX
    at = start.copy()
    for _ in range(4):
        lab = cv2.cvtColor(coin_patch(image, plane, at, coin_mm), cv2.COLOR_BGR2LAB)
        cx, cy = patch_centre(lab.astype(np.float32))
        c = (PATCH_PX - 1) / 2
        step = np.array([cx - c, c - cy]) * mm_per_px  # patch rows run south
        at = at + step
        away = float(np.linalg.norm(at - start))
        if away > reach:
            at = start + (at - start) * reach / away
        if float(np.linalg.norm(step)) < 0.2:
            break
    return at


def learn_session_start(image: np.ndarray, plane: TablePlane, layout: Layout,
                        pack: str = "piecepackr") -> tuple[FaceModels | None, str]:
    """The coins' faces learned from a still of the session start, and a note saying so.

    None (and a note why) when too few start spots hold a coin: vision then reads faces with
    the built-in model.  Each coin is looked for within half a coin of its spot
    (`locate_coin`).  Coins whose spot looks empty are named in the note; they are learned with
    the rest (a dark coin on a dark cloth may not stand out, but is there by contract).
    """
    spots = start_spots_mm(layout)
    if not spots:
        return None, "the layout has no start spots: coin faces are left to the built-in model"
    spots = {coin: tuple(locate_coin(image, plane, at, layout.coin_mm))
             for coin, at in spots.items()}
    present = {coin: coin_presence(coin_patch(image, plane, at, layout.coin_mm)) >= PRESENT_SHARE
               for coin, at in spots.items()}
    empty = sorted(c for c, here in present.items() if not here)
    if len(spots) - len(empty) < QUORUM * len(spots):
        return None, (f"no session start in this still ({len(spots) - len(empty)} of "
                      f"{len(spots)} start spots hold a coin): coin faces are left to the "
                      "built-in model")
    models = learn_faces([image], plane, spots, coin_mm=layout.coin_mm, pack=pack)
    note = f"coin faces learned at the session start ({len(spots)} coins)"
    if empty:
        note += f"; no coin stood out on the start spot of {', '.join(empty)}"
    return models, note
