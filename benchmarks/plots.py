"""PNG plots of the report: fps bars, position error histograms, trajectories against truth."""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np


def fps_bars(report: dict, out: Path) -> Path:
    rows = [(clip, s) for g in report["groups"].values() for clip, s in g["speed"].items()]
    fig, ax = plt.subplots(figsize=(max(6.0, 0.7 * len(rows) + 2), 4))
    x = np.arange(len(rows))
    for k, (key, label) in enumerate((("decode_only_fps", "decode only"),
                                      ("pipeline_fps", "ours (whole pipeline)"),
                                      ("hough_pipeline_fps", "HoughCircles + our tracker"))):
        ax.bar(x + (k - 1) * 0.27, [s[key] for _, s in rows], 0.27, label=label)
    ax.set_yscale("log")
    ax.set_xticks(x, [c for c, _ in rows], rotation=60, ha="right", fontsize=7)
    ax.set_ylabel("frames per second (one core, log)")
    ax.legend(fontsize=8, ncols=3, loc="lower center", bbox_to_anchor=(0.5, 1.0))
    fig.tight_layout()
    path = out / "fps.png"
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def error_histogram(group: str, results: list[dict], out: Path) -> Path:
    fig, ax = plt.subplots(figsize=(6, 3.5))
    bins = np.logspace(-2, 3, 51)
    for key, label in (("rest_err_mm", "resting"), ("moving_err_mm", "moving")):
        values = np.clip([e for r in results for e in r[key]], 1e-2, 1e3)
        if len(values):
            ax.hist(values, bins=bins, alpha=0.6, label=f"{label} ({len(values)} coin-frames)")
    ax.set_xscale("log")
    ax.set_xlabel("our centre − true centre (mm)")
    ax.set_ylabel("coin-frames")
    ax.set_title(f"position error, {group}")
    ax.legend(fontsize=8)
    fig.tight_layout()
    path = out / f"errors-{group}.png"
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def trajectories(group: str, result: dict, out: Path) -> Path:
    """The coins that move in one clip, x and y against frame: truth (line), ours (dots under
    the identity we gave), SORT and norfair (any identity, near the moving coins)."""
    truth = result["truth"]
    coins = sorted({c for f in truth for c in f})
    moved = [c for c in coins
             if np.ptp([f[c] for f in truth if c in f], axis=0).max() > 5.0] or coins[:1]
    fig, axes = plt.subplots(2, 1, figsize=(7, 6), sharex=True)
    for axis, ax in enumerate(axes):
        for k, c in enumerate(moved):
            colour = f"C{k}"
            frames = [i for i, f in enumerate(truth) if c in f]
            ax.plot(frames, [truth[i][c][axis] for i in frames], "-", color=colour, lw=1.2,
                    label=f"truth {c}")
            mine = [(i, f[c][axis]) for i, f in enumerate(result["hyps"]["ours"]) if c in f]
            if mine:
                ax.plot(*zip(*mine, strict=True), ".", color=colour, ms=4, label=f"ours as {c}")
        values = [truth[i][c][axis] for c in moved for i in range(len(truth)) if c in truth[i]]
        lo, hi = min(values) - 30.0, max(values) + 30.0
        for name, marker in (("sort", "x"), ("norfair", "+")):
            pts = [(i, p[axis]) for i, f in enumerate(result["hyps"][name]) for p in f.values()
                   if lo <= p[axis] <= hi and any(
                       c in truth[i] and np.hypot(*np.subtract(p, truth[i][c])) < 60.0
                       for c in moved)]
            if pts:
                ax.plot(*zip(*pts, strict=True), marker, color="grey", ms=3, alpha=0.5,
                        label=f"{name} (any id)")
        ax.set_ylabel(f"{'xy'[axis]} (mm)")
    axes[0].set_title(f"{result['clip']}: the coins that move")
    axes[0].legend(fontsize=7, loc="best")
    axes[1].set_xlabel("frame")
    fig.tight_layout()
    path = out / f"trajectories-{group}.png"
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path
