"""Calibration: camera intrinsics, the table plane, the tile layout fit and the saved profile.

Pixels stay inside this package and vision; everything it hands on is in table millimetres
(ARCHITECTURE.md).  Modules: `intrinsics` (OpenCV camera calibration from chessboard or
ChArUco views), `plane` (the pixel ↔ table-mm mapping), `table_detect` (the table's corners),
`layout_fit` (tiles found and named against the game's layout), `profile` (the versioned JSON
file) and `verify` (has the camera or a tile moved since).
"""
