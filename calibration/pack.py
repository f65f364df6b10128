"""The look of the piecepack in use: suit ink colours and tile-back colours (BGR).

Why: tower suits are recognised by ink colour.  The defaults are piecepackr's default suit
colours (red suns, black moons, green crowns, blue arms) and a light back with its orange
grid; another pack's colours (e.g. DARK_SUIT_BGR) can be passed in instead.
"""

from __future__ import annotations

from collections.abc import Mapping

import cv2
import numpy as np

BGR = tuple[int, int, int]

SUIT_BGR: dict[str, BGR] = {  # piecepackr's default suit colours #D55E00 #000000 #009E73 #56B4E9
    "suns": (0x00, 0x5E, 0xD5),
    "moons": (0x00, 0x00, 0x00),
    "crowns": (0x73, 0x9E, 0x00),
    "arms": (0xE9, 0xB4, 0x56),
}
DARK_SUIT_BGR: dict[str, BGR] = {  # piecepackr's "piecepack suits": darkred, black, ...
    "suns": (0x00, 0x00, 0x8B),
    "moons": (0x10, 0x10, 0x10),
    "crowns": (0x00, 0x64, 0x00),
    "arms": (0x8B, 0x00, 0x00),
}
SUIT_SETS: dict[str, dict[str, BGR]] = {"piecepackr": SUIT_BGR, "dark": DARK_SUIT_BGR}
"""The suit colour sets by name (`referee calibrate --suit-colours`)."""
TILE_BACK_BGR: BGR = (235, 240, 242)
TILE_GRID_BGR: BGR = (0, 159, 230)  # piecepackr's orange grid, #E69F00
TILE_FACE_BGR: BGR = (225, 235, 240)


_WHITE_LAB = np.array([255.0, 128.0, 128.0])


def ink_costs(ink_lab: np.ndarray, colours: Mapping[str, BGR],
              lightness_weight: float = 0.5) -> dict[str, float]:
    """How far an ink colour is from each suit's ink, both seen as a step away from white
    paper (OpenCV 8-bit Lab; the ink white-balanced against its paper).

    Blur mixes a thin or small symbol with its paper, so the ink is seen only part of the way
    from white to its colour: each suit's step is fitted with a share in [0.2, 1] first.
    `lightness_weight` < 1 lets hue count more than darkness.
    """
    weight = np.array([lightness_weight, 1.0, 1.0])
    seen = (np.asarray(ink_lab, np.float64) - _WHITE_LAB) * weight
    costs = {}
    for name, bgr in colours.items():
        lab = cv2.cvtColor(np.uint8([[bgr]]), cv2.COLOR_BGR2LAB).astype(np.float64)[0, 0]
        step = (lab - _WHITE_LAB) * weight
        share = float(np.clip(seen @ step / max(float(step @ step), 1e-6), 0.2, 1.0))
        costs[name] = float(np.linalg.norm(seen - share * step))
    return costs
