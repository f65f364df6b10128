"""A fingertip taken for a coin is undone once the coin's slide is seen (`orphans`, and the
tracker's use of them), on detections with known answers taken from look 121 and look 111."""

from __future__ import annotations

import numpy as np
import pytest

from referee.vision.detections import Detections
from referee.vision.kalman import MotionModel
from referee.vision.orphans import Chain, Orphans
from referee.vision.track import Tracker

RADIUS = 9.525
COIN = np.array([0.55, 0.65, 0.72])
SKIN = COIN + 0.03  # a pale finger over pale coins (look 121): 0.05 from the coin's look


def blobs(*centres: tuple[float, float], looks: list[np.ndarray] | None = None) -> Detections:
    looks = looks or [COIN] * len(centres)
    return Detections(np.array(centres, float).reshape(-1, 2), np.full(len(centres), RADIUS),
                      look=np.array(looks), confidence=np.ones(len(centres)))


def chain(*points: tuple[float, float, float]) -> Chain:
    return Chain(list(points))


def test_a_straight_slide_losing_speed_is_a_slide() -> None:
    assert chain((0.0, 0, 0), (0.1, 100, 1), (0.2, 190, 0)).is_slide()


@pytest.mark.parametrize("points, why", [
    (((0.0, 0, 0), (0.1, 100, 0)), "two points fix no test of a line"),
    (((0.0, 0, 0), (0.1, 100, 10), (0.2, 190, 0)), "not straight"),
    (((0.0, 0, 0), (0.1, 10, 0), (0.2, 20, 0)), "too slow for a flicked coin"),
    (((0.0, 0, 0), (0.1, 50, 0), (0.2, 150, 0)), "speeding up: pushed, not sliding"),
    (((0.0, 0, 0), (0.1, 100, 0), (0.2, 50, 0)), "turned back"),
])
def test_what_is_no_slide(points: tuple[tuple[float, float, float], ...], why: str) -> None:
    assert not chain(*points).is_slide(), why


def test_a_streak_broken_in_two_pieces_still_makes_a_slide() -> None:
    """Off-table at look 263: a sage coin on sage cloth, flicked at 1.7 m/s, seen as two
    pieces of its streak 21 mm apart in each of two frames, then whole.  Linked crosswise
    (each pairing cost the same), both chains failed the third point and the slide to the
    table's edge was lost: the fall read as a lift.  A chain of one point goes on to each
    detection within reach."""
    orphans = Orphans()
    dt = 1 / 30
    frames = [[(209.6, -232.1), (211.1, -253.5)], [(210.0, -288.0), (208.4, -309.0)],
              [(210.2, -340.7)]]
    for k, centres in enumerate(frames, start=61):
        orphans.update(k * dt, np.array(centres), np.array([COIN] * len(centres)),
                       list(range(len(centres))))
    (slide,) = orphans.slides()
    assert [p[2] for p in slide.points] == [-232.1, -288.0, -340.7]


def test_free_detections_link_frame_to_frame_and_a_chain_outlives_one_missed_frame() -> None:
    orphans = Orphans()
    dt = 1 / 30
    hand = [(300.0, 300.0), (340.0, 290.0), (310.0, 330.0)]  # a fragment, jumping about
    for k, x in enumerate((0.0, 50.0, 95.0)):
        orphans.update(k * dt, np.array([[x, 0.0], hand[k]]), np.array([COIN, SKIN]), [4, 7])
    slides = orphans.slides()
    assert [s.index for s in slides] == [4]
    assert [p[1] for p in slides[0].points] == [0.0, 50.0, 95.0]
    orphans.update(3 * dt, np.zeros((0, 2)), np.zeros((0, 3)), [])  # missed once
    orphans.update(4 * dt, np.array([[170.0, 0.0]]), np.array([COIN]), [0])
    assert [p[1] for p in orphans.slides()[0].points] == [0.0, 50.0, 95.0, 170.0]
    orphans.update(5 * dt, np.zeros((0, 2)), np.zeros((0, 3)), [])
    orphans.update(6 * dt, np.zeros((0, 2)), np.zeros((0, 3)), [])
    orphans.update(7 * dt, np.array([[250.0, 0.0]]), np.array([COIN]), [0])
    assert orphans.slides() == []  # missed twice: a new chain of one


def test_a_slide_no_coin_took_goes_to_the_coin_whose_fingertip_was_followed() -> None:
    """Strike at look 111, 720p60: Moons rests; a fingertip stays 12 mm behind its place
    while the coin slides off north, unclaimed, 28 mm a frame.  Three frames of that slide
    give it to Moons, whose sightings since rest (the fingertip's) are replaced."""
    dt = 1 / 60
    tracker = Tracker({"moons": (0.0, -211.3)}, 0.0, MotionModel(), looks={"moons": COIN})
    for k in range(1, 5):
        tracker.update(k * dt, blobs((0.0, -211.3)))
    slide = [(0.0, -179.8), (0.0, -151.5), (-0.2, -123.4)]
    fingertip = [(0.2, -223.2), (0.5, -222.3), (1.3, -223.6)]
    for k, (tip, coin) in enumerate(zip(fingertip[:2], slide[:2], strict=True), start=5):
        assert tracker.update(k * dt, blobs(tip, coin, looks=[SKIN, COIN])) == {"moons": 0}
    assert tracker.update(7 * dt, blobs(fingertip[2], slide[2], looks=[SKIN, COIN])) == {
        "moons": 1}
    (rewrite,) = tracker.rewritten
    assert rewrite.coin == "moons"
    assert rewrite.dropped == pytest.approx([5 * dt, 6 * dt])
    assert [p[1:] for p in rewrite.added] == slide[:2]
    seen = [o.center_mm for o in tracker.tracks["moons"].observations]
    assert seen[-4:] == [(0.0, -211.3), *slide]
    assert tracker.tracks["moons"].filter.x[3] > 1000.0  # sliding north, fast


def test_a_coin_at_rest_in_view_is_not_given_a_slide_that_points_at_it() -> None:
    dt = 1 / 60
    tracker = Tracker({"moons": (0.0, -211.3)}, 0.0, MotionModel(), looks={"moons": COIN})
    for k in range(1, 5):
        tracker.update(k * dt, blobs((0.0, -211.3)))
    for k, y in enumerate((-179.8, -151.5, -123.4), start=5):
        assert tracker.update(k * dt, blobs((0.0, -211.3), (0.0, y))) == {"moons": 0}
    assert tracker.rewritten == []


def test_a_sliding_coin_loses_the_sightings_since_rest_that_lie_off_its_path() -> None:
    """Off-table at look 121: a fragment beside a tile, 10-30 mm from Arms' place, taken for
    Arms for five frames (it invented a hit on that tile); then Arms is seen sliding south
    from its place: those five sightings go."""
    dt = 1 / 30
    tracker = Tracker({"arms": (210.0, 0.0)}, 0.0, MotionModel(), looks={"arms": COIN})
    for k in range(1, 5):
        tracker.update(k * dt, blobs((210.0, 0.0)))
    fragment = [(221.0, 10.0), (240.0, 15.0), (240.0, 14.0), (240.0, 14.0), (219.0, 10.0)]
    for k, p in enumerate(fragment, start=5):
        assert tracker.update(k * dt, blobs(p)) == {"arms": 0}
    assert [o.center_mm for o in tracker.tracks["arms"].observations][-1] == fragment[-1]
    slide = [(211.0, -127.0), (212.0, -184.0), (210.0, -240.0)]
    for k, p in enumerate(slide, start=10):
        assert tracker.update(k * dt, blobs(p)) == {"arms": 0}
    (rewrite,) = tracker.rewritten
    assert rewrite.dropped == pytest.approx([k * dt for k in range(5, 10)])
    assert rewrite.added == []
    assert [o.center_mm for o in tracker.tracks["arms"].observations][-4:] == [
        (210.0, 0.0), *slide]


def test_a_coin_seen_away_and_soon_back_at_rest_on_its_place_never_left_it() -> None:
    """Off-table at 720p60, look 113: a dark sleeve sweeping over Moons leaves pieces of a
    coin's size and look, taken for Moons 48-170 mm off; a quarter of a second later Moons
    shows at rest on its place again.  No sliding coin comes back to its spot, nor does a
    hand put one back so soon: the sightings away go (they invented a flick)."""
    dt = 1 / 60
    place = (0.0, -210.0)
    tracker = Tracker({"moons": place}, 0.0, MotionModel(), looks={"moons": COIN})
    for k in range(1, 5):
        tracker.update(k * dt, blobs(place))
    away = {7: (-48.0, -230.0), 9: (-168.0, -210.0), 10: (-125.0, -185.0)}
    for k in range(5, 12):
        tracker.update(k * dt, blobs(away[k]) if k in away else blobs())
    assert tracker.tracks["moons"].observations[-1].center_mm == away[10]
    for k in range(12, 15):
        assert tracker.update(k * dt, blobs(place)) == {"moons": 0}
    (rewrite,) = tracker.rewritten
    assert rewrite.dropped == pytest.approx([k * dt for k in sorted(away)])
    assert all(o.center_mm == place for o in tracker.tracks["moons"].observations)


def test_a_coin_seen_in_part_still_a_while_then_back_whole_on_its_place_never_left_it() -> None:
    """Capture at look 229: a sleeve of the cloth's colour slides over Arms, whose upper
    part shows, its centre 3-6 mm north, still for four frames, then hidden, then whole on
    its place 0.4 s after it last rested there whole (a flick invented).  A rest within a
    coin's radius of the place is a part of it; one farther is a coin at rest elsewhere."""
    dt = 1 / 30
    place = (209.4, -0.2)
    tracker = Tracker({"arms": place}, 0.0, MotionModel(), looks={"arms": COIN})
    for k in range(1, 5):
        tracker.update(k * dt, blobs(place))
    part = {5: (210.0, 3.8), 6: (209.9, 3.1), 7: place, 8: (210.2, 4.8), 9: (210.2, 4.9),
            10: (210.2, 4.9), 11: (210.3, 5.7)}
    for k in range(5, 16):
        tracker.update(k * dt, blobs(part[k]) if k in part else blobs())
    for k in range(16, 19):
        assert tracker.update(k * dt, blobs(place)) == {"arms": 0}
    (rewrite,) = tracker.rewritten
    assert rewrite.dropped == pytest.approx([k * dt for k in sorted(part)])
    assert all(o.center_mm == place for o in tracker.tracks["arms"].observations)


def test_a_coin_that_came_to_rest_elsewhere_keeps_its_slide() -> None:
    dt = 1 / 60
    tracker = Tracker({"moons": (0.0, -210.0)}, 0.0, MotionModel(), looks={"moons": COIN})
    for k in range(1, 5):
        tracker.update(k * dt, blobs((0.0, -210.0)))
    for k, y in enumerate((-190.0, -172.0, -158.0, -150.0, -150.0, -150.0, -150.0), start=5):
        assert tracker.update(k * dt, blobs((0.0, y))) == {"moons": 0}
        assert tracker.rewritten == []
    assert len(tracker.tracks["moons"].observations) == 11


def streaks(*centres: tuple[float, float], look: np.ndarray) -> Detections:
    n = len(centres)
    return Detections(np.array(centres, float).reshape(-1, 2), np.full(n, RADIUS),
                      np.full(n, 25.0), np.tile([1.0, 0.0], (n, 1)), np.tile(look, (n, 1)),
                      np.ones(n))


def test_a_slide_seen_only_as_streaks_blurred_over_the_cloth_still_reads_as_its_coin() -> None:
    """Fast flick at look 227: a white Suns over dark blue cloth, flicked east at 2.9 m/s,
    shows as streaks reading 0.39 from its look; the fingertip merged into its blob before
    the flick, and left 12-20 mm west of its place, was followed.  The streaks' run is
    Suns' slide; the same run seen sharp at that look is not."""
    dt = 1 / 30
    blurred = COIN + np.array([-0.3, -0.2, 0.13])  # 0.38 from the coin's look
    for look, given in ((blurred, True), (None, False)):
        tracker = Tracker({"suns": (-209.6, 0.0)}, 0.0, MotionModel(), looks={"suns": COIN})
        for k in range(1, 5):
            tracker.update(k * dt, blobs((-209.6, 0.0)))
        fingertip = [(-221.4, 0.9), (-223.0, 1.4), (-229.3, 0.7)]
        slide = [(-111.3, 0.0), (-16.0, 0.2), (75.6, 0.3)]
        for k, (tip, at) in enumerate(zip(fingertip, slide, strict=True), start=5):
            seen = blobs(tip).extended(streaks(at, look=blurred) if look is not None
                                       else blobs(at, looks=[blurred]))
            assigned = tracker.update(k * dt, seen)
        assert (assigned == {"suns": 1}) == given
        assert bool(tracker.rewritten) == given


def test_a_long_run_of_streaks_reading_like_the_hands_is_still_a_coin_s_slide() -> None:
    """Strike at look 296: Moons' streak is found in every frame of its slide, but blurred
    it reads 0.04 from the hands' colour and 0.2 from its own look, as a hand's fragment
    does, so neither the tracker nor the lost slide took it (its crossings and contacts
    lost).  A run of streaks longer than a slide needs is no hand's fragment: the fourth
    gives the slide to Moons; three, a hand may still make."""
    dt = 1 / 30
    blurred = COIN + np.array([0.12, 0.12, 0.1])
    tracker = Tracker({"moons": (0.0, -209.5)}, 0.0, MotionModel(), looks={"moons": COIN})
    for k in range(1, 5):
        tracker.update(k * dt, blobs((0.0, -209.5)))
    tracker.update(5 * dt, blobs())
    slide = [(-0.7, -152.1), (-0.3, -97.7), (-0.5, -44.6), (-0.5, 3.7)]
    for k, at in enumerate(slide, start=6):
        seen = Detections(np.array([at]), np.array([RADIUS]), np.array([45.0]),
                          np.array([[0.0, 1.0]]), blurred[None], np.ones(1),
                          hand_look=np.array([0.04]))
        assigned = tracker.update(k * dt, seen)
        assert assigned == ({"moons": 0} if k == 9 else {})
