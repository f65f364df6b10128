"""`benchmarks.resting_budget`: a look's first frames rendered again and read at rest."""

from __future__ import annotations

import numpy as np

from benchmarks.resting_budget import resting_errors, with_coins
from referee.sim.look import Look


def test_every_coin_is_read_at_rest_within_a_millimetre() -> None:
    errors, outward = resting_errors("tower-hit", Look.random(104))
    assert len(errors) == 8
    assert np.allclose(np.hypot(*outward.T), 1.0)
    assert np.hypot(*errors.T).max() < 1.0


def test_coins_thinner_than_vision_takes_them_read_toward_the_lens() -> None:
    """Vision puts a coin's face 3 mm up: a paper-thin coin's face is lower, seen nearer the
    point under the lens, so each coin reads toward it (radial error negative)."""
    errors, outward = resting_errors("tower-hit", with_coins(Look.random(104), thickness_mm=0.01))
    radial = np.einsum("ij,ij->i", errors, outward)
    assert radial.mean() < -0.4
