"""The look of the piecepack in use: suit ink colours and tile-back colours (BGR).

Why: tower suits are recognised by ink colour.  The defaults are piecepackr's default suit
colours (red suns, black moons, green crowns, blue arms) and a light back with its orange
grid; another pack's colours (e.g. DARK_SUIT_BGR) can be passed in instead.
"""

from __future__ import annotations

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
