"""The TUD sequences shipped with motmetrics (shared/realdata/motmetrics-tud), as metric input.

Used to check our metric glue against published figures: boxes are matched by IoU ≥ 0.5
(motmetrics' `compare_to_groundtruth(..., 'iou', distth=0.5)`), so the distance is 1 − IoU
and the HOTA similarity is the IoU itself.  Needs only NumPy (the TrackEval reference script
imports it from a separate environment).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

REALDATA = Path(__file__).resolve().parents[2] / "shared" / "realdata" / "motmetrics-tud"
SEQUENCES = ("TUD-Campus", "TUD-Stadtmitte")


def realdata_dir() -> Path:
    """shared/realdata/motmetrics-tud beside the checkout (or /work/shared as a fallback)."""
    return REALDATA if REALDATA.is_dir() else Path("/work/shared/realdata/motmetrics-tud")


def _load(path: Path) -> dict[int, tuple[list[int], np.ndarray]]:
    rows = np.loadtxt(path, delimiter=",", ndmin=2)
    frames: dict[int, tuple[list[int], np.ndarray]] = {}
    for f in np.unique(rows[:, 0]).astype(int):
        sel = rows[rows[:, 0] == f]
        frames[int(f)] = ([int(i) for i in sel[:, 1]], sel[:, 2:6])
    return frames


def iou(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """IoU of boxes (x, y, w, h), every row of `a` against every row of `b`."""
    a0, a1 = a[:, None, :2], a[:, None, :2] + a[:, None, 2:4]
    b0, b1 = b[None, :, :2], b[None, :, :2] + b[None, :, 2:4]
    inter = np.prod(np.clip(np.minimum(a1, b1) - np.maximum(a0, b0), 0, None), axis=2)
    union = np.prod(a[:, None, 2:4], axis=2) + np.prod(b[None, :, 2:4], axis=2) - inter
    return np.where(union > 0, inter / np.where(union > 0, union, 1), 0.0)


def sequence(name: str, root: Path | None = None) -> tuple[list, list]:
    """(distance frames, similarity frames) of one TUD sequence: (gt ids, hyp ids, matrix)."""
    root = root or realdata_dir()
    gt, hyp = _load(root / name / "gt.txt"), _load(root / name / "test.txt")
    empty: tuple[list[int], np.ndarray] = ([], np.zeros((0, 4)))
    dist_frames, sim_frames = [], []
    for f in sorted(set(gt) | set(hyp)):
        (g, gb), (h, hb) = gt.get(f, empty), hyp.get(f, empty)
        s = iou(gb, hb) if len(g) and len(h) else np.zeros((len(g), len(h)))
        dist_frames.append((g, h, np.where(s >= 0.5, 1.0 - s, np.nan)))
        sim_frames.append((g, h, s))
    return dist_frames, sim_frames
