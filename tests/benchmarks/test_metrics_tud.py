"""Our metric glue against published figures on real sequences (TUD, shipped by motmetrics).

MOT figures: motmetrics' own expected values (its tests/test_metrics.py, REFERENCE.md).
HOTA: TrackEval 1.3.0's output on the same input (`benchmarks/trackeval_reference.py`).
"""

from __future__ import annotations

import pytest

from benchmarks.metrics import hota, mot
from benchmarks.tud import realdata_dir, sequence

pytestmark = pytest.mark.skipif(not realdata_dir().is_dir(), reason="shared/realdata missing")

MOT_TUD = {  # idf1, idp, idr, recall, precision, FP, FN, IDs, FM, MOTA, MOTP
    "TUD-Campus": (0.5577, 0.7297, 0.4513, 0.5822, 0.9414, 13, 150, 7, 7, 0.5265, 0.2772),
    "TUD-Stadtmitte": (0.6446, 0.8198, 0.5311, 0.6090, 0.9399, 45, 452, 7, 6, 0.5640, 0.3459),
}
HOTA_TUD = {  # hota, deta, assa, loca
    "TUD-Campus": (0.391397, 0.418047, 0.369121, 0.770052),
    "TUD-Stadtmitte": (0.397849, 0.392268, 0.408841, 0.737521),
}


@pytest.mark.parametrize("name", sorted(MOT_TUD))
def test_motmetrics_glue_reproduces_published_figures(name: str) -> None:
    got = mot(sequence(name)[0])
    keys = ("idf1", "idp", "idr", "recall", "precision", "num_false_positives", "num_misses",
            "num_switches", "num_fragmentations", "mota", "motp")
    assert [round(got[k], 4) for k in keys] == pytest.approx(MOT_TUD[name], abs=1e-4)


@pytest.mark.parametrize("name", sorted(HOTA_TUD))
def test_hota_matches_trackeval(name: str) -> None:
    got = hota(sequence(name)[1])
    assert [got[k] for k in ("hota", "deta", "assa", "loca")] == pytest.approx(
        HOTA_TUD[name], abs=2e-6)


def test_hota_of_a_perfect_tracker_is_one_and_of_a_swapped_one_less() -> None:
    import numpy as np

    frames = [(["a", "b"], [1, 2], np.eye(2)) for _ in range(10)]
    assert hota(frames)["hota"] == pytest.approx(1.0)
    swapped = frames[:5] + [(["a", "b"], [2, 1], np.eye(2)) for _ in range(5)]
    assert hota(swapped)["assa"] < 0.7
