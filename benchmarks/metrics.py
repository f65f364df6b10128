"""Identity metrics: CLEAR-MOT and IDF1 by motmetrics, HOTA as TrackEval computes it.

A sequence is a list of frames; each frame is (truth ids, hypothesis ids, distances) with the
distance matrix (truth × hypothesis) holding NaN where a pair may not match.  The same glue
scores boxes (1 − IoU, TUD sequences: `tests/benchmarks/test_metrics_tud.py` checks it against
motmetrics' own published figures) and coins (table mm within a radius).

HOTA (Luiten et al., IJCV 2021) needs a similarity in [0, 1]; for coins it is 1 − d / radius.
motmetrics 1.4 has no HOTA and TrackEval's PyPI release requires the non-headless OpenCV, which
would replace ours, so `hota` follows TrackEval's `metrics/hota.py` line by line; the test
checks it against TrackEval's output on the TUD sequences.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np
from scipy.optimize import linear_sum_assignment

if not hasattr(np, "asfarray"):  # motmetrics 1.4 calls np.asfarray, gone in NumPy 2
    np.asfarray = lambda a, dtype=float: np.asarray(a, dtype=dtype)  # type: ignore[attr-defined]

import motmetrics as mm

Frame = tuple[Sequence, Sequence, np.ndarray]
MOT_METRICS = ("idf1", "idp", "idr", "recall", "precision", "num_unique_objects",
               "mostly_tracked", "partially_tracked", "mostly_lost", "num_false_positives",
               "num_misses", "num_switches", "num_fragmentations", "mota", "motp")
ALPHAS = np.arange(0.05, 0.99, 0.05)


def accumulate(frames: Iterable[Frame]) -> mm.MOTAccumulator:
    """motmetrics' accumulator; ids of any hashable type are numbered (it stores floats)."""
    acc = mm.MOTAccumulator(auto_id=True)
    gt_index: dict = {}
    hyp_index: dict = {}
    for gt, hyp, dist in frames:
        acc.update([gt_index.setdefault(g, len(gt_index)) for g in gt],
                   [hyp_index.setdefault(h, len(hyp_index)) for h in hyp],
                   np.asarray(dist, float).reshape(len(gt), len(hyp)))
    return acc


def mot(frames: Iterable[Frame]) -> dict[str, float]:
    """CLEAR-MOT and identity metrics of one sequence (motmetrics)."""
    summary = mm.metrics.create().compute(accumulate(frames), metrics=list(MOT_METRICS))
    return {k: float(summary[k].iloc[0]) for k in MOT_METRICS}


def hota(frames: Sequence[tuple[Sequence, Sequence, np.ndarray]]) -> dict[str, float]:
    """HOTA, DetA, AssA, LocA averaged over α = 0.05 … 0.95 (TrackEval's algorithm).

    Each frame gives truth ids, hypothesis ids and a similarity matrix in [0, 1].
    """
    gt_index = {g: i for i, g in enumerate(sorted({g for f in frames for g in f[0]}, key=str))}
    hyp_index = {h: i for i, h in enumerate(sorted({h for f in frames for h in f[1]}, key=str))}
    ids = [(np.array([gt_index[g] for g in gt], int), np.array([hyp_index[h] for h in hyp], int),
            np.asarray(sim, float).reshape(len(gt), len(hyp))) for gt, hyp, sim in frames]
    n_gt, n_hyp = len(gt_index), len(hyp_index)
    potential = np.zeros((n_gt, n_hyp))
    gt_count, hyp_count = np.zeros((n_gt, 1)), np.zeros((1, n_hyp))
    for g, h, sim in ids:
        denom = sim.sum(0)[np.newaxis, :] + sim.sum(1)[:, np.newaxis] - sim
        sim_iou = np.zeros_like(sim)
        mask = denom > np.finfo(float).eps
        sim_iou[mask] = sim[mask] / denom[mask]
        potential[g[:, None], h[None, :]] += sim_iou
        gt_count[g] += 1
        hyp_count[0, h] += 1
    alignment = potential / (gt_count + hyp_count - potential)
    tp, fn, fp, loc = (np.zeros(len(ALPHAS)) for _ in range(4))
    matches = np.zeros((len(ALPHAS), n_gt, n_hyp))
    for g, h, sim in ids:
        if len(g) == 0 or len(h) == 0:
            fn += len(g)
            fp += len(h)
            continue
        rows, cols = linear_sum_assignment(-(alignment[g[:, None], h[None, :]] * sim))
        for a, alpha in enumerate(ALPHAS):
            ok = sim[rows, cols] >= alpha - np.finfo(float).eps
            r, c = rows[ok], cols[ok]
            tp[a] += len(r)
            fn[a] += len(g) - len(r)
            fp[a] += len(h) - len(r)
            if len(r):
                loc[a] += sim[r, c].sum()
                matches[a, g[r], h[c]] += 1
    ass = np.zeros(len(ALPHAS))
    for a in range(len(ALPHAS)):
        m = matches[a]
        ass[a] = np.sum(m * m / np.maximum(1, gt_count + hyp_count - m)) / max(1.0, tp[a])
    det = tp / np.maximum(1, tp + fn + fp)
    loc_a = np.maximum(1e-10, loc) / np.maximum(1e-10, tp)
    return {"hota": float(np.mean(np.sqrt(det * ass))), "deta": float(np.mean(det)),
            "assa": float(np.mean(ass)), "loca": float(np.mean(loc_a))}


def point_frames(truth: Sequence[dict[str, tuple[float, float]]],
                 hyps: Sequence[dict[object, tuple[float, float]]], radius_mm: float
                 ) -> tuple[list[Frame], list[Frame]]:
    """Per-frame (distance, similarity) inputs for points matched within `radius_mm`."""
    dist_frames, sim_frames = [], []
    for gt, hyp in zip(truth, hyps, strict=True):
        g, h = list(gt), list(hyp)
        d = np.zeros((len(g), len(h)))
        if g and h:
            d = np.linalg.norm(np.array([gt[k] for k in g])[:, None, :]
                               - np.array([hyp[k] for k in h])[None, :, :], axis=2)
        dist_frames.append((g, h, np.where(d <= radius_mm, d, np.nan)))
        sim_frames.append((g, h, np.clip(1.0 - d / radius_mm, 0.0, 1.0)))
    return dist_frames, sim_frames


def identity(truth: Sequence[dict[str, tuple[float, float]]],
             hyps: Sequence[dict[object, tuple[float, float]]], radius_mm: float
             ) -> dict[str, float]:
    """motmetrics' figures and HOTA for one clip's point tracks."""
    dist_frames, sim_frames = point_frames(truth, hyps, radius_mm)
    return mot(dist_frames) | hota(sim_frames)
