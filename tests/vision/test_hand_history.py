"""Where hands have been: a coin back where no hand came slid there."""

from __future__ import annotations

import numpy as np

from referee.vision.hand_history import CELL_PX, HandHistory


def test_a_place_a_hand_covered_is_known_from_then_on() -> None:
    history = HandHistory((100, 160))
    hands = np.zeros((100, 160), np.uint8)
    hands[40:60, 20:30] = 255
    history.update(hands, 2.0)
    history.update(np.zeros_like(hands), 2.5)  # a frame without a hand forgets nothing
    assert history.came((25.0, 50.0), 4.0, since=1.0)
    assert not history.came((25.0, 50.0), 4.0, since=2.1)  # not since it was hidden
    assert not history.came((120.0, 50.0), 20.0, since=1.0)  # too far
    assert history.came((60.0, 50.0), 32.0, since=1.0)  # within reach


def test_one_pixel_of_a_hand_marks_its_cell() -> None:
    history = HandHistory((64, 64))
    hands = np.zeros((64, 64), np.uint8)
    hands[CELL_PX * 3 + 5, CELL_PX * 2 + 7] = 255
    history.update(hands, 1.0)
    assert np.count_nonzero(np.isfinite(history.covered_at)) == 1
    assert history.covered_at[3, 2] == 1.0


def test_a_point_off_the_grid_or_hands_never_shown_may_have_had_a_hand() -> None:
    history = HandHistory((64, 64))
    assert history.came((30.0, 30.0), 8.0, since=0.0)  # no hands shown yet: unknown
    history.update(np.zeros((1, 1), np.uint8), 0.5)  # a detector that finds no hands
    assert history.came((30.0, 30.0), 8.0, since=0.0)
    history.update(np.zeros((64, 64), np.uint8), 1.0)
    assert history.came((500.0, 500.0), 8.0, since=0.0)
    assert not history.came((30.0, 30.0), 8.0, since=0.0)


def test_a_hand_first_there_in_the_frame_a_coin_shows_did_not_put_it_down() -> None:
    """Strike at look 415: near-black Moons slides unseen 370 mm and shows at rest as the
    next player's hand reaches it, 44 mm off, having been 95 mm off the frame before.  A
    hand that puts a coin down covers its place before it shows there: asked before the
    frame it shows in, no hand came (it was read as lifted and put down)."""
    history = HandHistory((100, 160))
    far, near = np.zeros((100, 160), np.uint8), np.zeros((100, 160), np.uint8)
    far[40:60, 100:110] = 255
    near[40:60, 30:40] = 255
    history.update(far, 2.3)
    history.update(near, 2.333)
    assert history.came((25.0, 50.0), 8.0, since=1.9)
    assert not history.came((25.0, 50.0), 8.0, since=1.9, before=2.333)
    history.update(near, 2.367)  # still there the frame after: it was before that one
    assert history.came((25.0, 50.0), 8.0, since=1.9, before=2.367)
