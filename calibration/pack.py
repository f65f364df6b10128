"""The look of the piecepack in use: suit ink colours and tile-back colours (BGR).

Why: tower suits are recognised by ink colour.  These defaults are the synthetic pack's (dark
red suns, black moons, dark green crowns, dark blue arms; a light back with piecepackr's
orange grid); a real pack's colours can be measured and passed in instead.
"""

from __future__ import annotations

BGR = tuple[int, int, int]

SUIT_BGR: dict[str, BGR] = {
    "suns": (20, 30, 170),
    "moons": (25, 25, 25),
    "crowns": (40, 120, 10),
    "arms": (150, 50, 10),
}
TILE_BACK_BGR: BGR = (235, 240, 242)
TILE_GRID_BGR: BGR = (0, 159, 230)  # piecepackr's orange grid, #E69F00
TILE_FACE_BGR: BGR = (225, 235, 240)
