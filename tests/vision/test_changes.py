"""The change gate: which tiles of the image detection measures again, on synthetic frames."""

from __future__ import annotations

import cv2
import numpy as np

from referee.vision.changes import REFRESH_EVERY, SETTLE_FRAMES, TILE, ChangeGate

SHAPE = (360, 640)  # camera pixels of the region
CLOTH = (80, 52, 28)


def cloth(seed: int, coin_at: tuple[float, float] | None = None) -> np.ndarray:
    """Navy cloth with sensor noise (σ 2 levels), and a light coin (radius 12 px) if asked."""
    image = np.empty((*SHAPE, 3), np.float32)
    image[:] = CLOTH
    if coin_at is not None:
        x, y = coin_at
        cv2.circle(image, (round(x * 16), round(y * 16)), 12 * 16, (225, 235, 240), -1,
                   cv2.LINE_AA, 4)
    image += np.random.default_rng(seed).normal(0.0, 2.0, image.shape)
    return np.clip(image, 0, 255).astype(np.uint8)


def tile_of(x: float, y: float) -> tuple[int, int]:
    return int(y) // (2 * TILE), int(x) // (2 * TILE)


def gate_after_first_frame(image: np.ndarray) -> ChangeGate:
    gate = ChangeGate(SHAPE, 15)
    assert gate.update(image).all()  # the first frame is measured everywhere
    return gate


def test_sensor_noise_alone_changes_no_tile() -> None:
    gate = gate_after_first_frame(cloth(0, (300.0, 200.0)))
    for seed in range(1, 6):
        assert not gate.update(cloth(seed, (300.0, 200.0))).any()


def test_a_coin_moved_by_a_pixel_is_measured_there_until_it_has_settled() -> None:
    gate = gate_after_first_frame(cloth(0, (300.0, 200.0)))
    fresh = gate.update(cloth(1, (301.0, 200.0)))
    assert fresh[tile_of(288.0, 200.0)] and fresh[tile_of(312.0, 200.0)]
    assert fresh.sum() <= 4 * 4  # its tiles and their neighbours, nothing far away
    assert not fresh[tile_of(50.0, 50.0)]
    for seed in range(2, 1 + SETTLE_FRAMES):  # still while it may be settling
        assert gate.update(cloth(seed, (301.0, 200.0)))[tile_of(312.0, 200.0)]
    assert not gate.update(cloth(9, (301.0, 200.0))).any()


def test_a_change_too_slow_to_see_between_two_frames_adds_up() -> None:
    base = cloth(0)
    gate = gate_after_first_frame(base)
    seen_at = None
    for k in range(1, 15):  # the light drifts by a level a frame in one corner
        image = base.copy()
        image[:64, :64] = np.clip(base[:64, :64].astype(int) + k, 0, 255)
        if gate.update(image)[0, 0]:
            seen_at = k
            break
    assert seen_at is not None and seen_at <= 8  # 3 channels × 6 levels > 15


def test_every_tile_is_measured_again_now_and_then() -> None:
    image = cloth(0)
    gate = gate_after_first_frame(image)
    refreshed = [k for k in range(2, 2 * REFRESH_EVERY + 1) if gate.update(image).all()]
    assert refreshed == [REFRESH_EVERY, 2 * REFRESH_EVERY]


def test_a_touched_region_is_measured_at_the_next_frame_only() -> None:
    image = cloth(0)
    gate = gate_after_first_frame(image)
    mask = np.zeros(SHAPE, np.uint8)
    mask[100, 500] = 255  # one pixel of the empty table changed
    gate.touch(mask)
    fresh = gate.update(image)
    assert fresh[tile_of(500, 100)] and fresh.sum() == 1
    assert not gate.update(image).any()


def test_the_boxes_of_the_tiles_reach_an_odd_edge() -> None:
    gate = ChangeGate((65, 97), 15)  # 2 × 3 tiles of 32 px; the last row and column odd
    assert gate.tiles == (2, 3)
    tiles = np.zeros(gate.tiles, bool)
    tiles[1, 2] = True
    (rows, cols), = gate.slices(tiles)
    assert (rows.start, rows.stop, cols.start, cols.stop) == (32, 65, 64, 97)
    assert gate.any_in(tiles, (70, 40, 71, 41)) and not gate.any_in(tiles, (0, 0, 64, 32))
