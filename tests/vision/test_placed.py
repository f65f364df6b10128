"""Where the referee places each coin, frame by frame, seen or not (`Pipeline.placed_mm`)."""

from __future__ import annotations

import numpy as np

from referee.layout import castle_croquetnole_layout
from referee.vision.detections import Detections
from referee.vision.pipeline import MISSED_S, Pipeline
from referee.vision.track import Tracker
from tests.vision.test_detect import SIZE, mapping

FPS = 30.0


def _pipeline(start: dict[str, tuple[float, float]]) -> Pipeline:
    pipe = Pipeline(mapping(), castle_croquetnole_layout(), SIZE, FPS)
    pipe.tracker = Tracker(start, 0.0)
    return pipe


def _seen(pipe: Pipeline, k: int, centres: dict[str, tuple[float, float]],
          covered=lambda p: False) -> None:
    """Frame k: these coins seen where given, each observation kept as `process` keeps it."""
    coins = list(centres)
    detections = Detections(np.array([centres[c] for c in coins], float).reshape(-1, 2))
    assert pipe.tracker is not None
    assigned = pipe.tracker.update(k / FPS, detections, covered=covered)
    for coin, j in assigned.items():
        pipe.tracks[coin].append((k / FPS, *detections.center_mm[j]))


def test_a_coin_under_a_hand_is_placed_where_it_rests_however_long() -> None:
    pipe = _pipeline({"moons": (0.0, -209.55), "suns": (100.0, 0.0)})
    _seen(pipe, 1, {"moons": (0.0, -209.55), "suns": (100.0, 0.0)})
    for k in range(2, 40):
        _seen(pipe, k, {"suns": (100.0, 0.0)}, covered=lambda p: p[1] < -100.0)
    placed = pipe.placed_mm(39 / FPS)
    assert np.allclose(placed["moons"], (0.0, -209.55), atol=0.5)
    assert np.allclose(placed["suns"], (100.0, 0.0), atol=0.5)


def test_a_coin_whose_place_shows_empty_is_no_longer_placed() -> None:
    """A hand took it: once its place is in view and empty for MISSED_S, the referee no
    longer says it is there (a frame's miss alone does not do it)."""
    pipe = _pipeline({"moons": (0.0, -209.55)})
    _seen(pipe, 1, {"moons": (0.0, -209.55)})
    _seen(pipe, 2, {})
    assert "moons" in pipe.placed_mm(2 / FPS)
    k = 2 + int(np.ceil(MISSED_S * FPS))
    for i in range(3, k + 1):
        _seen(pipe, i, {})
    assert "moons" not in pipe.placed_mm(k / FPS)


def _hands_at(pipe: Pipeline, t: float, point_mm: tuple[float, float] | None) -> None:
    """Frame at t: the hands in view (a 40 px square over `point_mm`, or none)."""
    hand = np.zeros(pipe.detector.table_mask.shape, np.uint8)
    if point_mm is not None:
        at = pipe.detector.mapping.to_pixels(np.array([point_mm]))[0] - pipe.detector.roi[:2]
        hand[int(at[1]) - 20:int(at[1]) + 20, int(at[0]) - 20:int(at[0]) + 20] = 255
    pipe.hands_seen.update(hand, t)


def test_a_resting_coin_no_hand_came_over_is_placed_however_long_unseen() -> None:
    """Nothing took it: a sleeve of the cloth's colour over it shows as no hand at all
    (strike at look 111, 60 fps: Ace, unseen 0.2 s with no hand over its place).  Once a
    hand has been over the place, an empty place is a coin taken."""
    pipe = _pipeline({"moons": (0.0, -209.55)})
    _seen(pipe, 1, {"moons": (0.0, -209.55)})
    k = 2 + int(np.ceil(MISSED_S * FPS))
    for i in range(2, k + 1):
        _hands_at(pipe, i / FPS, (0.0, -150.0))  # an arm 60 mm off
        _seen(pipe, i, {})
    assert "moons" in pipe.placed_mm(k / FPS)
    _hands_at(pipe, (k + 1) / FPS, (0.0, -209.55))
    _seen(pipe, k + 1, {})
    _hands_at(pipe, (k + 2) / FPS, None)
    _seen(pipe, k + 2, {})
    assert "moons" not in pipe.placed_mm((k + 2) / FPS)


def test_a_coin_that_slid_over_the_edge_is_not_placed_at_once() -> None:
    """Last seen 7 mm from the table's south edge at 1.4 m/s, heading off it: it left the
    table the next frame, before its flick closes and says so (off-table, look 106)."""
    pipe = _pipeline({"arms": (210.0, -340.0), "suns": (100.0, 0.0)})
    for k, y in ((1, -341.0), (2, -388.0), (3, -425.0)):
        _seen(pipe, k, {"arms": (210.0, y), "suns": (100.0, 0.0)})
    _seen(pipe, 4, {"suns": (100.0, 0.0)})
    placed = pipe.placed_mm(4 / FPS)
    assert "arms" not in placed and "suns" in placed


def test_a_coin_sliding_along_the_edge_unseen_for_a_frame_is_still_placed() -> None:
    pipe = _pipeline({"arms": (100.0, -420.0)})
    for k, x in ((1, 100.0), (2, 140.0)):
        _seen(pipe, k, {"arms": (x, -420.0)})
    _seen(pipe, 3, {})
    assert "arms" in pipe.placed_mm(3 / FPS)


def test_a_coin_off_the_table_is_not_placed() -> None:
    pipe = _pipeline({"arms": (210.0, -425.0)})
    _seen(pipe, 1, {"arms": (210.0, -425.0)})
    pipe.off_table.add("arms")
    assert pipe.placed_mm(1 / FPS) == {}


def test_nothing_is_placed_before_the_session_start() -> None:
    assert Pipeline(mapping(), castle_croquetnole_layout(), SIZE, FPS).placed_mm(0.0) == {}
