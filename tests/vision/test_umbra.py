"""The umbra learnt from shadows on paper: how deep this light's shadows go."""

from __future__ import annotations

import numpy as np

from referee.vision.umbra import DEEPEST_FLOOR_MAX, ENOUGH_PX, MARGIN, Umbra

FLOOR = 0.45
RNG = np.random.default_rng(0)


def shadow_on_paper(umbra: float, pixels: int, penumbra: float = 0.5) -> np.ndarray:
    """A cast shadow's dimmings: its umbra (with a percent of noise) and a soft edge rising
    from it towards the lit paper (`penumbra`: its share of the pixels)."""
    edge = int(pixels * penumbra)
    return np.concatenate([umbra + RNG.normal(0.0, 0.01, pixels - edge),
                           RNG.uniform(umbra, 0.97, edge)])


def test_the_fixed_floor_holds_until_enough_shadow_was_seen_on_paper() -> None:
    learnt = Umbra(FLOOR)
    learnt.add(shadow_on_paper(0.8, ENOUGH_PX // 2))
    assert learnt.umbra is None and learnt.deepest == FLOOR
    learnt.add(shadow_on_paper(0.8, ENOUGH_PX))
    assert abs(learnt.umbra - 0.78) <= 0.02


def test_a_shallow_light_s_shadows_are_no_deeper_than_its_umbra_less_the_margin() -> None:
    learnt = Umbra(FLOOR)
    learnt.add(shadow_on_paper(0.7, 20 * ENOUGH_PX))
    assert abs(learnt.deepest - (0.7 - MARGIN)) <= 0.03


def test_a_hand_s_blurred_edge_over_a_tile_does_not_pull_the_umbra_down() -> None:
    """A dark hand's edge crossing a tile blends paper and skin, dimmed alike: a few hundred
    pixels a frame at 0.45-0.55 (held-out tower hit 490), a tenth of the shadows there."""
    learnt = Umbra(FLOOR)
    learnt.add(shadow_on_paper(0.8, 20 * ENOUGH_PX))
    learnt.add(RNG.uniform(0.45, 0.55, 2 * ENOUGH_PX))
    assert learnt.umbra >= 0.77


def test_a_wide_penumbra_gives_its_deepest_common_dimming_not_its_peak() -> None:
    """A soft shadow on a narrow tile is mostly penumbra: the umbra is where the shadow's
    pixels begin to be common, deeper than their most common dimming."""
    learnt = Umbra(FLOOR)
    learnt.add(shadow_on_paper(0.6, 20 * ENOUGH_PX, penumbra=0.9))
    assert learnt.umbra <= 0.62


def test_the_paper_s_drift_with_the_exposure_is_no_shadow() -> None:
    learnt = Umbra(FLOOR)
    learnt.add(RNG.uniform(0.92, 0.97, 20 * ENOUGH_PX))
    assert learnt.umbra is None and learnt.deepest == FLOOR


def test_deep_shadows_keep_the_fixed_floor_and_faint_ones_a_capped_one() -> None:
    deep, faint = Umbra(FLOOR), Umbra(FLOOR)
    deep.add(shadow_on_paper(0.5, 20 * ENOUGH_PX))
    faint.add(shadow_on_paper(0.88, 20 * ENOUGH_PX))
    assert deep.deepest == FLOOR
    assert faint.deepest == DEEPEST_FLOOR_MAX


def test_the_deepest_shadow_in_use_moves_in_steps_not_every_frame() -> None:
    learnt = Umbra(FLOOR)
    learnt.add(np.full(10_000, 0.705))  # an umbra at 0.69 (the deepest dense bin)
    first = learnt.deepest
    assert abs(first - (0.69 - MARGIN)) < 1e-9
    learnt.add(np.full(3_000, 0.695))  # now 0.68: a hundredth deeper
    assert learnt.deepest == first and abs(learnt.says - (first - 0.01)) < 1e-9
    learnt.add(np.full(4_000, 0.665))  # now 0.65
    assert learnt.deepest == learnt.says < first - 0.03
