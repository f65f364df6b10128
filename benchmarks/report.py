"""The report: per-clip results summed per group (size × rate) into figures, JSON, Markdown.

Figures are named flatly (`<group>.<what>`) so floors and the README can point at them.
Identity metrics of a group are computed on all its clips as one sequence (ids prefixed by the
clip), which is how motmetrics and TrackEval combine sequences.
"""

from __future__ import annotations

import json
import platform
from collections import defaultdict
from pathlib import Path

import numpy as np

from benchmarks.metrics import identity
from benchmarks.run import TRACKERS, worst_paths
from benchmarks.vision_accuracy import KINDS

IDENTITY_KEYS = ("idf1", "hota", "mota", "num_switches", "recall", "precision", "deta", "assa")


def _ratio(a: float, b: float) -> float | None:
    return round(a / b, 4) if b else None


def _rms(values: list[float]) -> float | None:
    return round(float(np.sqrt(np.mean(np.square(values)))), 3) if values else None


def _p95(values: list[float]) -> float | None:
    return round(float(np.percentile(values, 95)), 3) if values else None


def _median(values: list[float]) -> float | None:
    return round(float(np.median(values)), 3) if values else None


def speed(result: dict) -> dict:
    """Frames per second of decoding alone and of our whole pipeline, and ms per stage."""
    n, s = result["frames"], result["stage_s"]
    total = s["decode"] + s["process"]
    ms = {k: round(1000 * s.get(k, 0.0) / n, 2)
          for k in ("decode", "detect", "track", "reconstruct", "other")}
    ms |= {"hough_detect": round(1000 * result["hough_detect_s"] / n, 2),
           "sort_track": round(1000 * s["sort"] / n, 3),
           "norfair_track": round(1000 * s["norfair"] / n, 3)}
    decode_fps = result["decoded_frames"] / result["decode_only_s"]
    return {"frames": n, "decode_only_fps": round(decode_fps, 1),
            "pipeline_fps": round(n / total, 2),
            "pipeline_to_decode": round(n / total / decode_fps, 4),
            "hough_pipeline_fps": round(n / (s["decode"] + result["hough_process_s"]), 2),
            "stage_ms": ms}


def _truth_of(tracker: str) -> str:
    """Coins placed while unseen are scored against every coin on the table, the rest
    against the coins in view."""
    return "present" if tracker == "ours-placed" else "truth"


def group_figures(results: list[dict], radius_mm: float) -> dict:
    """Every figure of one group of clips."""
    out: dict = {"clips": [r["clip"] for r in results]}
    rest = [e for r in results for e in r["rest_err_mm"]]
    moving = [e for r in results for e in r["moving_err_mm"]]
    paths = [e for r in results for e in r["path_err_mm"]]
    unseen = [e for r in results for e in r["unseen_path_err_mm"]]
    out["position"] = {"rest_rms_mm": _rms(rest), "rest_p95_mm": _p95(rest),
                       "rest_median_mm": _median(rest), "moving_rms_mm": _rms(moving),
                       "moving_p95_mm": _p95(moving), "moving_median_mm": _median(moving),
                       "rest_samples": len(rest), "moving_samples": len(moving),
                       "path_rms_mm": _rms(paths), "path_p95_mm": _p95(paths),
                       "path_median_mm": _median(paths), "path_samples": len(paths),
                       "unseen_path_median_mm": _median(unseen),
                       "unseen_path_samples": len(unseen),
                       "pathless_samples": sum(r["pathless"] for r in results)}
    out["worst_paths"] = worst_paths([{"clip": r["clip"], **w} for r in results
                                      for w in r["worst_paths"]])
    out["events"] = {}
    for name in ("ours", "hough+ours"):
        per_kind = {}
        for kind in KINDS:
            tp = sum(r["events"][name][kind]["tp"] for r in results)
            miss = sum(r["events"][name][kind]["miss"] for r in results)
            inv = sum(r["events"][name][kind]["invented"] for r in results)
            errs = [e for r in results for e in r["events"][name][kind]["t_err"]]
            per_kind[kind] = {"true": tp + miss, "found": tp, "invented": inv,
                              "recall": _ratio(tp, tp + miss),
                              "precision": _ratio(tp, tp + inv),
                              "t_err_ms_median": round(1000 * float(np.median(errs)), 2)
                              if errs else None}
        out["events"][name] = per_kind
    out["detection"] = {}
    for name in ("ours", "hough"):
        c = defaultdict(int)
        for r in results:
            for k, v in r["detection"][name].items():
                c[k] += v
        out["detection"][name] = {"recall": _ratio(c["tp"], c["tp"] + c["fn"]),
                                  "precision": _ratio(c["tp"], c["tp"] + c["fp"]), **c}
    out["identity"] = {}
    for name in TRACKERS:
        truth = [{(r["clip"], c): p for c, p in f.items()} for r in results
                 for f in r[_truth_of(name)]]
        hyps = [{(r["clip"], k): p for k, p in f.items()} for r in results
                for f in r["hyps"][name]]
        m = identity(truth, hyps, radius_mm)
        out["identity"][name] = {k: round(m[k], 4) for k in IDENTITY_KEYS}
    out["per_clip"] = {r["clip"]: {name: {k: round(v, 4) for k, v in identity(
        r[_truth_of(name)], r["hyps"][name], radius_mm).items() if k in ("idf1", "num_switches")}
        for name in TRACKERS} for r in results}
    out["speed"] = {r["clip"]: speed(r) for r in results}
    return out


def machine(jobs: int = 1) -> str:
    import os

    import cv2

    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    pinned = "one process pinned to one core" if jobs <= 1 else \
        f"{jobs} processes, each pinned to its own core"
    return (f"{cpu}, {os.cpu_count()} cores ({pinned}), Python "
            f"{platform.python_version()}, OpenCV {cv2.__version__}, NumPy {np.__version__}")


def flat(report: dict) -> dict[str, float]:
    """`group.section.name` → value for every number of the groups (what floors refer to)."""
    out: dict[str, float] = {}

    def walk(prefix: str, node) -> None:
        if isinstance(node, dict):
            for k, v in node.items():
                walk(f"{prefix}.{k}" if prefix else str(k), v)
        elif isinstance(node, int | float) and not isinstance(node, bool):
            out[prefix] = float(node)

    walk("", report["groups"])
    return out


def write_json(report: dict, out: Path) -> Path:
    path = out / "report.json"
    path.write_text(json.dumps(report, indent=1) + "\n")
    return path
