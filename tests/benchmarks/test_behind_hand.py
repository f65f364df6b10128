"""The coins no camera sees (under a hand or in one), and identity scored without them."""

from __future__ import annotations

import pytest

from benchmarks.clips import Truth, _held
from benchmarks.metrics import identity
from benchmarks.run import in_view
from referee.events import Lift, Place

FPS = 10.0
RADIUS = 9.525


def test_a_coin_is_held_from_its_lift_to_its_place_and_for_good_if_never_put_down() -> None:
    events = [Lift(0.2, coin="moons"), Place(0.5, coin="moons", at=(100.0, 0.0)),
              Lift(0.7, coin="suns")]
    held = _held(events, 9, FPS)
    assert [sorted(h) for h in held] == [[], [], ["moons"], ["moons"], ["moons"], [], [],
                                         ["suns"], ["suns"]]


def test_identity_in_view_leaves_out_a_lifted_coin_still_placed_and_one_put_down_unseen(
        ) -> None:
    # moons: at rest (0, 0) in frames 0-1, lifted under the hand in 2-3, put down at (100, 0)
    # in frame 4 under the hand, in view from frame 5; suns rests in view throughout.
    positions = [{"moons": (0.0, 0.0)}] * 2 + [{}] * 3 + [{"moons": (100.0, 0.0)}] * 2
    positions = [p | {"suns": (50.0, 50.0)} for p in positions]
    present = [{"moons": (0.0, 0.0)}] * 2 + [{}] * 2 + [{"moons": (100.0, 0.0)}] * 3
    present = [p | {"suns": (50.0, 50.0)} for p in present]
    truth = Truth(positions, [{c: False for c in p} for p in positions], [], present,
                  [set(), set(), {"moons"}, {"moons"}, set(), set(), set()])
    # the referee keeps moons where it lay while the hand covers it, and finds it once shown
    placed = [{"moons": (0.0, 0.0)}] * 4 + [{}] + [{"moons": (100.0, 0.0)}] * 2
    placed = [p | {"suns": (50.0, 50.0)} for p in placed]
    assert [sorted(truth.behind_hand(k)) for k in range(7)] == [
        [], [], ["moons"], ["moons"], ["moons"], [], []]
    every_coin = identity(present, placed, RADIUS)
    assert every_coin["idf1"] < 1.0  # two frames placed, lifted; one unplaced, put down
    seen = identity(positions, in_view(placed, truth), RADIUS)
    assert seen["idf1"] == pytest.approx(1.0)
    # a coin in view placed wrong still counts
    wrong = [dict(p) for p in placed]
    wrong[6]["moons"] = (130.0, 0.0)
    assert identity(positions, in_view(wrong, truth), RADIUS)["idf1"] < 1.0
