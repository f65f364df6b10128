"""Without a calibrated lens, the lens is guessed from the tiles' layout when that brings
the layout truer to the template: under the demo game's strong barrel distortion (k1 -0.27)
the table's corners came out 20-29 px off without it."""

from __future__ import annotations

import numpy as np
import pytest

from calibration.pipeline import calibrate_still
from referee.layout import castle_croquetnole_layout
from referee.sim.look import Look
from referee.sim.render import Renderer
from referee.sim.scene import Scene

TEMPLATE = castle_croquetnole_layout()


class _Still:
    duration = 0.0

    def at(self, t: float) -> Scene:
        return Scene(coins=())


@pytest.mark.parametrize("seed", [8, 1])
def test_the_lens_is_guessed_from_the_layout(seed: int) -> None:
    look = Look.random(seed)
    renderer = Renderer(TEMPLATE, look, (1280, 720))
    truth_px = renderer.camera.project_mm_to_px(np.array(TEMPLATE.table))
    profile = calibrate_still(renderer.frame(_Still(), 0), TEMPLATE, (863.6, 863.6),
                              tile_thickness_mm=look.tiles.thickness_mm, faces=False)
    assert any("guessed from the tiles' layout" in note for note in profile.notes)
    assert profile.intrinsics is not None
    assert abs(float(profile.intrinsics.dist_coeffs.ravel()[0]) - look.lens.k1) < 0.03
    assert profile.layout_residual_mm is not None and profile.layout_residual_mm < 0.2
    assert float(np.linalg.norm(profile.corners_px - truth_px, axis=1).max()) < 1.5
