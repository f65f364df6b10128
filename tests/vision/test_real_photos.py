"""The coin detector on a real photograph (../shared/realdata): sweets on white paper.

OpenCV's `smarties.png` (413×356): twelve whole sweets, 26-28 px in radius, red, orange,
green, blue and brown, shaded, with glints and soft shadows, two of them touching and five
within a few millimetres of each other.  The photo is set in white paper (the paper it was
taken on is white to saturation), seen as a top-down camera at the scale where a sweet is a
coin; the session starts as a game does, with the sweets at known places (`learn_empty_table`),
and the detector finds them in the same photo.  The places given are the centres OpenCV's
HoughCircles finds (../shared/realdata/REFERENCE.md, whole pixels), so a centre is right within
the rounding of both: 3 px, a millimetre at this scale.
"""

from __future__ import annotations

import itertools
from pathlib import Path

import cv2
import numpy as np
import pytest

from referee.layout import COIN_DIAMETER_MM, Layout
from referee.vision.detect import CoinDetector, PixelMapping

REALDATA = Path(__file__).resolve().parents[2] / ".." / "shared" / "realdata"
PHOTO = REALDATA / "opencv-samples" / "circles" / "smarties.png"
RADIUS_PX = 27.0
BORDER_PX = 60
SWEETS = {  # whole sweets: centre (px, from REFERENCE.md) and colour (by eye)
    (32, 230): "red", (100, 260): "red", (220, 306): "red", (286, 214): "red",
    (134, 328): "orange", (206, 210): "orange", (152, 274): "brown",
    (270, 116): "green", (386, 170): "green",
    (294, 320): "blue", (348, 238): "blue", (376, 82): "blue",
}
TOUCHING = {(100, 260), (152, 274)}
"""Two sweets that touch: one blob, measured apart; they share its look."""
HUDDLE = {(32, 230), (100, 260), (152, 274), (134, 328), (220, 306)}
"""Five sweets within a few millimetres of each other: the closing joins them into one blob
of a hand's area."""
CENTRE_PX = 3.0

pytestmark = pytest.mark.skipif(not PHOTO.exists(), reason="../shared/realdata not present")


def on_white_paper() -> np.ndarray:
    photo = cv2.imread(str(PHOTO))
    return cv2.copyMakeBorder(photo, BORDER_PX, BORDER_PX, BORDER_PX, BORDER_PX,
                              cv2.BORDER_CONSTANT, value=(255, 255, 255))


def photo_mapping(size: tuple[int, int]) -> PixelMapping:
    """Top-down, the photo's centre at the table's, a sweet's radius a coin's."""
    scale = RADIUS_PX / (COIN_DIAMETER_MM / 2.0)
    centre = np.array(size, float) / 2.0
    return PixelMapping(lambda px: (np.asarray(px, float) - centre) / scale,
                        lambda mm: np.asarray(mm, float) * scale + centre)


def detect_sweets() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """What the detector finds in the photo: centres (px), looks, and the hands' mask."""
    image = on_white_paper()
    size = (image.shape[1], image.shape[0])
    mapping = photo_mapping(size)
    w, h = mapping.to_table_mm(np.array([size], float))[0]
    layout = Layout(name="paper", game="castle-croquetnole",
                    table=[(-w, -h), (w, -h), (w, h), (-w, h)])
    detector = CoinDetector(mapping, layout, size)
    places = mapping.to_table_mm(np.array(list(SWEETS), float) + BORDER_PX)
    detector.learn_empty_table(image, [tuple(p) for p in places])
    detections, hands = detector.detect(image)
    return mapping.to_pixels(detections.center_mm) - BORDER_PX, detections.look, hands


@pytest.fixture(scope="module")
def found() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    return detect_sweets()


def matched(centres: np.ndarray) -> dict[tuple[int, int], int]:
    """Each sweet's detection: the nearest centre."""
    return {p: int(np.argmin(np.hypot(*(centres - p).T))) for p in SWEETS}


def test_every_whole_sweet_is_found_once_where_it_is(found) -> None:
    centres, _, _ = found
    assert len(centres) == len(SWEETS)
    match = matched(centres)
    assert len(set(match.values())) == len(SWEETS)
    for p, j in match.items():
        assert np.hypot(*(centres[j] - p)) <= CENTRE_PX, (p, centres[j])


def test_five_sweets_close_together_are_sweets_not_a_hand(found) -> None:
    centres, _, hands = found
    assert not hands.any()
    match = matched(centres)
    for p in HUDDLE:
        assert np.hypot(*(centres[match[p]] - p)) <= CENTRE_PX, p


def test_sweets_of_one_colour_look_alike_and_unlike_the_others(found) -> None:
    """Each sweet's look (its mean colour, the exposure taken out) is nearer every other sweet
    of its colour than any sweet of another: the colour tells them apart, as it tells the
    suits' coins apart.  (The touching pair shares its blob's look.)"""
    centres, looks, _ = found
    match = matched(centres)
    alone = [p for p in SWEETS if p not in TOUCHING]
    same, other = [], []
    for p, q in itertools.combinations(alone, 2):
        d = float(np.linalg.norm(looks[match[p]] - looks[match[q]]))
        (same if SWEETS[p] == SWEETS[q] else other).append(d)
    assert max(same) < min(other)
