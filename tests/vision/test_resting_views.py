"""A resting coin's last clear view: still there while the part of it in view is unchanged."""

from __future__ import annotations

import cv2
import numpy as np

from referee.vision.resting_views import RestingViews

GREY, SKIN = (90, 110, 95), (120, 160, 210)  # BGR
RADIUS, THRESHOLD = 9.0, 30
PLACE = np.array([40.0, 40.0])


def image(coin: bool = True, covered: float = 0.0, shade: float = 1.0) -> np.ndarray:
    """Cloth with a coin (white, with a dark symbol) at PLACE; `covered`: the share of its
    width a finger of skin covers from the right; `shade`: the light on it."""
    img = np.empty((80, 80, 3), np.float32)
    img[:] = GREY
    if coin:
        cv2.circle(img, (40, 40), 9, (230, 235, 235), -1)
        cv2.circle(img, (40, 40), 3, (30, 30, 120), -1)
    if covered:
        x0 = round(40 + RADIUS - 2 * RADIUS * covered)
        img[:, x0:] = SKIN
    return np.clip(img * shade, 0, 255).astype(np.uint8)


def change(frame: np.ndarray) -> np.ndarray:
    return cv2.absdiff(frame, image(coin=False)).astype(np.int32).sum(axis=2).clip(0, 255)


def remembered(seen: bool = True) -> RestingViews:
    views = RestingViews(RADIUS, THRESHOLD)
    clear = image()
    views.remember(PLACE[None], np.array([seen]), clear, change(clear), (1.0, 1.0, 1.0),
                   np.zeros(clear.shape[:2], np.uint8))
    return views


def test_an_unchanged_coin_shows_and_a_finger_over_a_third_of_it_does_not_hide_it() -> None:
    views = remembered()
    assert views.still_shows(PLACE, image(), (1.0, 1.0, 1.0))
    assert views.still_shows(PLACE, image(covered=0.35), (1.0, 1.0, 1.0))


def test_a_coin_mostly_covered_or_gone_does_not_show() -> None:
    views = remembered()
    assert not views.still_shows(PLACE, image(covered=0.7), (1.0, 1.0, 1.0))
    assert not views.still_shows(PLACE, image(coin=False), (1.0, 1.0, 1.0))


def test_an_arms_shade_and_the_exposure_are_allowed_for() -> None:
    views = remembered()
    assert views.still_shows(PLACE, image(shade=0.9), (1.0, 1.0, 1.0))
    brighter = (1.1, 1.1, 1.1)
    assert views.still_shows(PLACE, image(shade=1.1), brighter)


def test_no_view_is_taken_of_a_place_no_blob_was_measured_at() -> None:
    """A track held where a coin left the table (over the edge, onto the floor beside it)
    is no coin's view: nothing is kept there."""
    assert not remembered(seen=False).still_shows(PLACE, image(), (1.0, 1.0, 1.0))
