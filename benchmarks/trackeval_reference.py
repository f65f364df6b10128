"""TrackEval's HOTA on the TUD sequences: the reference `benchmarks.metrics.hota` is tested on.

    python3 -m venv /tmp/te && /tmp/te/bin/pip install trackeval==1.3.0
    PYTHONPATH=. /tmp/te/bin/python -m benchmarks.trackeval_reference

A separate environment because TrackEval's PyPI release requires the non-headless OpenCV.
Prints the figures held by tests/benchmarks/test_metrics_tud.py (HOTA_TUD).
"""

from __future__ import annotations

import json

import numpy as np
from trackeval.metrics import HOTA

from benchmarks.tud import SEQUENCES, sequence


def trackeval_hota(sim_frames: list) -> dict[str, float]:
    gts = sorted({g for f in sim_frames for g in f[0]})
    hyps = sorted({h for f in sim_frames for h in f[1]})
    gi, hi = {g: i for i, g in enumerate(gts)}, {h: i for i, h in enumerate(hyps)}
    data = {"num_timesteps": len(sim_frames), "num_gt_ids": len(gts), "num_tracker_ids": len(hyps),
            "gt_ids": [np.array([gi[g] for g in f[0]], int) for f in sim_frames],
            "tracker_ids": [np.array([hi[h] for h in f[1]], int) for f in sim_frames],
            "similarity_scores": [np.asarray(f[2], float) for f in sim_frames],
            "num_gt_dets": sum(len(f[0]) for f in sim_frames),
            "num_tracker_dets": sum(len(f[1]) for f in sim_frames)}
    res = HOTA().eval_sequence(data)
    return {k: round(float(np.mean(res[v])), 6)
            for k, v in (("hota", "HOTA"), ("deta", "DetA"), ("assa", "AssA"), ("loca", "LocA"))}


if __name__ == "__main__":
    print(json.dumps({name: trackeval_hota(sequence(name)[1]) for name in SEQUENCES}, indent=1))
