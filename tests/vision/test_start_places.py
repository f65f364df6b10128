"""The empty table under each coin at the session start, on frames the simulator rendered."""

from __future__ import annotations

import cv2
import numpy as np

from referee.layout import castle_croquetnole_layout
from referee.sim.look import Look
from referee.sim.render import Renderer
from referee.sim.scenarios import scenario
from referee.sim.script import play
from referee.vision.calibrated import mapping_from_camera
from referee.vision.changes import colour_distance
from referee.vision.detect import CoinDetector, _scaled
from referee.vision.pipeline import start_spots

LAYOUT = castle_croquetnole_layout()


def test_the_cloth_inpainted_under_a_coin_beside_a_tower_is_the_cloth_it_leaves() -> None:
    """Strike at look 177: a cream coin 12 px across on beige cloth, beside tower 1 under
    a strong light.  The cloth under it is inpainted at the session start; drawn from the
    tower's side and shadow beside it, the fill took their shade into the hole (its blob
    6 mm long toward the tower, and when Moons was flicked away the bare cloth there read
    as a ghost Moons was held on: 31 % of the hole beyond the threshold).  Drawn from the
    cloth beyond that band, the fill is the bare cloth Moons leaves, but for its rim."""
    session = play(scenario("strike"), seed=1)
    renderer = Renderer(LAYOUT, Look.random(177), (1280, 720), 30.0)
    detector = CoinDetector(mapping_from_camera(renderer.camera), LAYOUT, (1280, 720))
    spots = start_spots(LAYOUT)
    detector.learn_empty_table(renderer.frame(session.timeline, 0), spots.values())
    left = renderer.frame(session.timeline, 80)  # Moons slid away at 1.9 s, no hand in view
    bare = cv2.blur(detector._crop(left), (3, 3))
    model = _scaled(detector._background_u8, detector._gain(bare))
    centre = detector.mapping.to_pixels(np.array([spots["moons"]]))[0] - detector.roi[:2]
    hole = np.zeros(bare.shape[:2], np.uint8)
    cv2.circle(hole, (round(centre[0]), round(centre[1])),
               int(np.ceil(detector.coin_r_px + 3)), 255, -1)
    differs = colour_distance(bare, model)[hole > 0] > detector.config.threshold
    assert differs.mean() < 0.12
