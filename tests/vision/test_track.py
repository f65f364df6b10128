"""The tracker's identities through a strike, on detections with known answers."""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np
import pytest

from referee.vision.detections import Detections
from referee.vision.kalman import MotionModel
from referee.vision.track import Tracker

RADIUS = 9.525
DT = 1 / 60


def seen(*centres: tuple[float, float]) -> Detections:
    return Detections(np.array(centres, float), np.full(len(centres), RADIUS))


def test_the_striker_stops_at_the_coin_it_strikes_and_the_struck_coin_leaves() -> None:
    """Suns slides at 2.7 m/s into Arms at rest; a frame later Arms has left (5 mm on) and
    Suns stands short of it: the striker's speed must not carry its name onto Arms."""
    tracker = Tracker({"suns": (76.0, 0.0), "arms": (210.0, 0.0)}, 0.0, MotionModel())
    for k, x in enumerate((76.0, 121.0, 166.0), start=1):
        tracker.update(k * DT, seen((x, 0.0), (210.0, 0.0)))
    assigned = tracker.update(4 * DT, seen((215.0, 0.0), (191.0, 0.0)))
    assert assigned == {"suns": 1, "arms": 0}


def test_two_coins_that_touched_do_not_pass_through_each_other() -> None:
    """Strike at look 261: Moons at 1 m/s strikes Crowns, which hits tower 3 a centimetre on
    and comes back onto Moons within the frame.  The next frame shows Crowns back near its
    place and Moons coming back: each took the other's blob, ahead of its speed, and
    Moons "crossed" door 3 back.  Coins do not pass through each other."""
    tracker = Tracker({"moons": (0.0, 50.0), "crowns": (-0.1, 209.3)}, 0.0, MotionModel())
    for k, y in enumerate((54.0, 92.0, 130.0, 164.9), start=1):
        tracker.update(k * DT, seen((0.0, y), (-0.1, 209.3)))
    tracker.update(5 * DT, seen((-0.8, 192.1), (-0.2, 214.3)))
    assigned = tracker.update(6 * DT, seen((0.9, 209.2), (-1.4, 184.9)))
    assert assigned == {"moons": 1, "crowns": 0}


def test_a_striker_stopped_dead_does_not_take_the_blob_of_the_coin_it_struck() -> None:
    """Capture at look 415: guard 2 slides into Moons at rest and stops dead; in the frame
    of the strike the two are one blob (Moons unseen), and in the next Moons is 14 mm on
    and guard 2 where it stopped.  Its speed put guard 2 nearer Moons' blob: each took the
    other's, and the strike read as Moons flicked out of turn into guard 2.  Coins do
    not pass through each other, even when the one struck was unseen for a frame."""
    dt = 1 / 30
    place = (-105.5, 140.3)
    tracker = Tracker({"2": (-253.7, 44.3), "moons": place}, 0.0, MotionModel())
    for k in range(1, 4):
        tracker.update(k * dt, seen((-253.7, 44.3), place))
    for k, p in enumerate(((-224.9, 63.0), (-200.0, 79.0), (-175.6, 93.5), (-154.1, 107.4),
                           (-135.8, 118.3)), start=4):
        tracker.update(k * dt, seen(p, place))
    tracker.update(9 * dt, seen((-118.3, 129.7)))  # one blob: Moons merged into it
    assigned = tracker.update(10 * dt, seen((-94.4, 150.2), (-119.0, 127.8)))
    assert assigned == {"2": 1, "moons": 0}


def test_a_coin_sliding_past_a_resting_one_keeps_its_speed_in_the_gate() -> None:
    tracker = Tracker({"suns": (76.0, 40.0), "arms": (210.0, 0.0)}, 0.0, MotionModel())
    for k, x in enumerate((76.0, 121.0, 166.0), start=1):
        tracker.update(k * DT, seen((x, 40.0), (210.0, 0.0)))  # 40 mm aside: no contact
    assigned = tracker.update(4 * DT, seen((210.0, 0.0), (211.0, 40.0)))
    assert assigned == {"suns": 1, "arms": 0}


def streak(centre: tuple[float, float], length_mm: float) -> Detections:
    """One blob blurred along the table's x axis, `length_mm` beyond a coin's diameter."""
    return Detections(np.array([centre], float), np.array([RADIUS]),
                      np.array([length_mm]), np.array([[1.0, 0.0]]))


def launched(tracker: Tracker, dt: float) -> None:
    """Suns at rest at (-209, 0) for three frames, then its launch frame: a 33 mm streak
    (about 1 m/s at least within one exposure) centred 2.5 mm on."""
    for k in range(1, 4):
        tracker.update(k * dt, seen((-209.0, 0.0)))
    tracker.update(4 * dt, streak((-206.5, 0.0), 33.0))


def test_a_launched_coin_is_the_streak_ahead_not_the_fingertip_where_it_rested() -> None:
    """Fast flick at look 101: a frame after the launch a fingertip fragment lies 12 mm
    behind the coin's place and the coin's streak 95 mm ahead; the launch streak says the
    coin moved at least its length on, so the fragment is not it."""
    tracker = Tracker({"suns": (-209.0, 0.0)}, 0.0, MotionModel())
    dt = 1 / 30
    launched(tracker, dt)
    fragment_and_coin = seen((-221.7, -1.3)).extended(streak((-111.7, 0.3), 37.0))
    assert tracker.update(5 * dt, fragment_and_coin) == {"suns": 1}


def test_a_launched_coin_may_stop_at_once_against_a_coin_on_its_line() -> None:
    """With Arms resting 25 mm ahead on the streak's line the coin may have struck it and
    stopped within the frame: it is taken near its launch."""
    tracker = Tracker({"suns": (-209.0, 0.0), "arms": (-184.0, 0.0)}, 0.0, MotionModel())
    dt = 1 / 30
    for k in range(1, 4):
        tracker.update(k * dt, seen((-209.0, 0.0), (-184.0, 0.0)))
    tracker.update(4 * dt, streak((-206.5, 0.0), 33.0).extended(seen((-184.0, 0.0))))
    assigned = tracker.update(5 * dt, seen((-203.0, 0.0), (-170.0, 0.0)))
    assert assigned["suns"] == 0


def _at_rest_then(tracker: Tracker, dt: float, look: np.ndarray, then: Detections
                  ) -> dict[str, int]:
    """Moons at rest, seen whole with its look for three frames, then `then`."""
    for k in range(1, 4):
        tracker.update(k * dt, Detections(np.array([[0.0, -209.5]]), np.array([RADIUS]),
                                          look=look[None], confidence=np.array([1.0])))
    return tracker.update(4 * dt, then)


def _blob(centre: tuple[float, float], look: np.ndarray, confidence: float,
          streak_mm: float = 0.0, direction: tuple[float, float] = (0.0, 0.0)
          ) -> Detections:
    return Detections(np.array([centre]), np.array([RADIUS]), np.array([streak_mm]),
                      np.array([direction]), look[None], np.array([confidence]),
                      hand_look=np.array([np.inf]))


def test_an_arm_s_fragment_sweeping_past_a_resting_coin_is_not_it_leaving() -> None:
    """Off-table at look 113: an arm sweeping past Moons leaves blobs of about its look
    80-110 mm away; a part of a coin's size (0.59 of it), or a streak whose line misses
    Moons's place, is no coin leaving rest."""
    look = np.array([0.35, 0.3, 0.3])
    dt = 1 / 30
    for fragment in (_blob((78.6, -197.3), look + 0.1, 0.59),
                     _blob((143.7, -210.4), look + 0.1, 1.0, 27.3, (0.0, 1.0))):
        tracker = Tracker({"moons": (0.0, -209.5)}, 0.0, MotionModel(),
                          looks={"moons": look})
        assert _at_rest_then(tracker, dt, look, fragment) == {}


def test_a_coin_leaving_rest_is_taken_by_its_streak_or_seen_whole_and_sharp() -> None:
    """...while the coin itself, blurred along a line through its place or seen whole with
    its own look (a short exposure: the strike at look 102, first seen 113 mm on), is."""
    look = np.array([0.35, 0.3, 0.3])
    dt = 1 / 30
    for coin in (_blob((0.0, -96.0), look + 0.1, 1.0, 30.0, (0.0, 1.0)),
                 _blob((0.0, -96.0), look + 0.05, 1.0)):
        tracker = Tracker({"moons": (0.0, -209.5)}, 0.0, MotionModel(),
                          looks={"moons": look})
        assert _at_rest_then(tracker, dt, look, coin) == {"moons": 0}


def test_a_coin_leaving_rest_unseen_for_frames_is_taken_by_its_streak_far_on() -> None:
    """Strike at look 270: Moons, a dark coin on navy cloth, flicked at 1.6 m/s, unseen for
    four frames, then a 26 mm streak 212 mm on, its line through Moons' place.  Priced at a
    frame's distance (21 against a miss's 20) it was left, the flick found only at its end
    (0.39 s late, every crossing with it).  Its distance is priced per frame unseen; a
    streak so far on one frame after rest is still too far, and so is one nearer the hands'
    colour than the coin's (look 181: a sleeve's streak 293 mm from Ace, unseen three
    frames, 0.15 from its look and 0.11 from the hands': a flick, a hit and a fall
    invented)."""
    look = np.array([0.2, 0.2, 0.3])
    dt = 1 / 30

    def unseen_then(seen: Detections) -> dict[str, int]:
        tracker = Tracker({"moons": (0.0, -209.5)}, 0.0, MotionModel(), looks={"moons": look})
        _at_rest_then(tracker, dt, look, Detections.empty())
        for k in range(5, 8):
            tracker.update(k * dt, Detections.empty())
        return tracker.update(8 * dt, seen)

    far_on = _blob((3.4, 2.5), look + 0.1, 1.0, 26.0, (0.0, 1.0))
    assert unseen_then(far_on) == {"moons": 0}
    tracker = Tracker({"moons": (0.0, -209.5)}, 0.0, MotionModel(), looks={"moons": look})
    assert _at_rest_then(tracker, dt, look, far_on) == {}
    sleeve = replace(far_on, hand_look=np.array([0.1]))
    assert unseen_then(sleeve) == {}


def test_a_resting_coin_seen_in_part_off_its_place_is_held_where_it_rests() -> None:
    """Gate-run at look 139: an arm arriving in a sleeve of the cloth's colour hid part of
    Suns, whose rest (0.40 of it) read 5.5 mm off; taken, Suns "slid" and the arm's pieces
    carried it off.  Seen in part and off its place, the coin has not moved; seen whole
    there, or in part on its place, it is taken as ever."""
    look = np.array([0.14, 0.3, 0.52])
    dt = 1 / 30
    part_off = _blob((-5.5, -209.5), look + 0.05, 0.40)
    tracker = Tracker({"moons": (0.0, -209.5)}, 0.0, MotionModel(), looks={"moons": look})
    assert _at_rest_then(tracker, dt, look, part_off) == {}
    assert tracker.tracks["moons"].position_mm == (0.0, -209.5)
    for taken in (_blob((-5.5, -209.5), look, 0.9), _blob((-1.0, -209.5), look, 0.40)):
        tracker = Tracker({"moons": (0.0, -209.5)}, 0.0, MotionModel(),
                          looks={"moons": look})
        assert _at_rest_then(tracker, dt, look, taken) == {"moons": 0}
    # Back from under a hand, its first glimpse beside the hand leaving it is the coin, as
    # far off as part of it there can be centred (strike at 720p60, look 111: held for it,
    # the coin took an arm's piece 48 mm off)...
    tracker = Tracker({"moons": (0.0, -209.5)}, 0.0, MotionModel(), looks={"moons": look})
    _at_rest_then(tracker, dt, look, Detections.empty())
    tracker.update(5 * dt, Detections.empty(), covered=lambda p: True)
    assert tracker.update(6 * dt, part_off, covered=lambda p: False) == {"moons": 0}
    # ...but not a third of a coin 8.6 mm off, farther than any part of it there could be
    # centred (tower-hit at look 138: the hand had lifted Moons, a flick was invented).
    tracker = Tracker({"moons": (0.0, -209.5)}, 0.0, MotionModel(), looks={"moons": look})
    _at_rest_then(tracker, dt, look, Detections.empty())
    hand_piece = _blob((40.0, -240.0), look + 0.3, 1.0)  # (a blob the frame before)
    tracker.update(5 * dt, hand_piece, covered=lambda p: True)
    fragment = _blob((0.3, -218.1), look + 0.05, 0.37)
    assert tracker.update(6 * dt, fragment, covered=lambda p: False) == {}


def test_a_sliding_coin_missed_for_a_frame_is_not_taken_for_one_at_rest() -> None:
    """Gate-run at look 122: Moons launched (a 13.5 mm streak 33 mm on), missed the next
    frame (its blob half the hand's), so held still by its filter; seen again 61 mm on as
    part of a coin, it is still the sliding coin, not one that must leave rest whole."""
    look = np.array([0.35, 0.3, 0.3])
    dt = 1 / 30
    tracker = Tracker({"moons": (0.8, -207.6)}, 0.0, MotionModel(), looks={"moons": look})
    for k in range(1, 4):
        tracker.update(k * dt, _blob((0.8, -207.6), look, 1.0))
    tracker.update(4 * dt, _blob((-2.0, -174.7), look + 0.05, 1.0, 13.5, (0.05, -1.0)))
    tracker.update(5 * dt, Detections.empty())
    assert tracker.update(6 * dt, _blob((-1.0, -114.0), look + 0.1, 0.42)) == {"moons": 0}


def test_a_coin_back_off_what_it_struck_is_its_streak_though_it_reads_like_the_hands() -> None:
    """Fast flick at look 277: Suns, of the skin's colour, struck Arms at 2.8 m/s and came
    back; its streak back read 0.23 from its look and 0.06 from the hands', as a hand's
    fragment does, and it was lost for the two frames before it hit a post (the hit with
    them).  A streak whose line runs through where the sliding coin was last seen is the
    coin; one off that line, or after a sighting blurred only by a fingertip merged into it
    (tower hit at look 196), still reads as the hand."""
    look = np.array([0.5, 0.6, 0.8])
    dt = 1 / 30

    def after_strike(seen: Detections, last_streak: float = 32.7) -> dict[str, int]:
        tracker = Tracker({"suns": (-209.5, 0.0)}, 0.0, MotionModel(), looks={"suns": look})
        for k, x in enumerate((-209.5, -209.5, -209.5), start=1):
            tracker.update(k * dt, _blob((x, 0.0), look, 1.0))
        for k, x in enumerate((-120.0, -30.0, 60.0, 150.0), start=4):
            tracker.update(k * dt, _blob((x, 0.0), look, 1.0, 80.0, (1.0, 0.0)))
        tracker.update(8 * dt, _blob((173.2, 4.5), look, 1.0, last_streak, (-0.98, 0.17)))
        return tracker.update(9 * dt, seen)

    def back(centre: tuple[float, float], direction: tuple[float, float]) -> Detections:
        return replace(_blob(centre, look + 0.13, 1.0, 32.7, direction),
                       hand_look=np.array([0.055]))

    assert after_strike(back((132.6, 11.6), (-0.98, 0.17))) == {"suns": 0}
    assert after_strike(back((132.6, 11.6), (0.0, 1.0))) == {}
    assert after_strike(back((132.6, 11.6), (-0.98, 0.17)), last_streak=9.6) == {}


def test_a_striker_merged_in_one_blob_with_the_coin_it_meets_is_neither() -> None:
    """Capture at look 125: Two slides at 540 mm/s into Moons at rest; in the frame they meet,
    one long blob holds both, centred between where Two stops and where Moons rests.  Moons
    took it (a 9 mm move toward Two before the contact: an invented flick); neither does,
    and both are held there for that frame."""
    dt = 1 / 30
    tracker = Tracker({"two": (-100.0, 0.0), "moons": (0.0, 0.0)}, 0.0, MotionModel())
    for k, x in enumerate((-100.0, -82.0, -64.0, -46.0, -28.0), start=1):
        tracker.update(k * dt, seen((x, 0.0), (0.0, 0.0)))
    merged = Detections(np.array([[-9.5, 0.0]]), np.array([RADIUS]), np.array([19.0]),
                        np.array([[1.0, 0.0]]))
    assert tracker.update(6 * dt, merged) == {}
    assert tracker.tracks["moons"].observations[-1].center_mm == (0.0, 0.0)
    assert tracker.update(7 * dt, seen((-19.0, 0.0), (12.0, 0.0))) == {"two": 0, "moons": 1}


def test_two_coins_seen_touching_then_as_one_blob_between_them_are_neither() -> None:
    """Strike at look 252: Moons strikes Crowns, which hits a tower and comes back onto it;
    the frame after they were seen touching, one streak lies between them.  Moons took it
    (12 mm forward and back again: an invented second contact and a bounce); neither does."""
    dt = 1 / 30
    tracker = Tracker({"moons": (0.0, 90.0), "crowns": (0.0, 209.6)}, 0.0, MotionModel())
    for k, y in enumerate((90.0, 129.0, 165.0), start=1):
        tracker.update(k * dt, seen((0.0, y), (0.0, 209.6)))
    tracker.update(4 * dt, seen((0.0, 188.4), (0.0, 212.5)))
    merged = Detections(np.array([[0.2, 200.0]]), np.array([RADIUS]), np.array([27.4]),
                        np.array([[0.0, 1.0]]))
    assert tracker.update(5 * dt, merged) == {}
    assert tracker.update(6 * dt, seen((-2.6, 175.3), (1.2, 209.1))) == {"moons": 0, "crowns": 1}


def test_a_coin_put_down_is_taken_at_once_only_whole_and_with_its_own_look() -> None:
    """Tower-hit at look 105: a hand carries Moons 100 mm and puts it down; the first frame
    it shows clear of the finger it is taken, if whole and within 0.03 of its own look (an
    arm's withdrawing edge leaves one-frame blobs, but none of a coin's own look and size);
    a blob less like it waits for a second sighting, and so does one farther than a flick
    under the fingers or a short carry (strike at look 131: a hand's last frame in view left
    a blob of Ace's look 350 mm from it)."""
    look = np.array([0.35, 0.3, 0.3])
    dt = 1 / 30
    for blob, taken in ((_blob((100.0, -200.0), look + 0.01, 1.0), {"moons": 0}),
                        (_blob((100.0, -200.0), look + 0.05, 1.0), {}),
                        (_blob((100.0, -200.0), look + 0.01, 0.6), {}),
                        (_blob((129.0, 65.0), look + 0.01, 1.0), {})):
        tracker = Tracker({"moons": (0.0, -209.5)}, 0.0, MotionModel(),
                          looks={"moons": look})
        for k in range(1, 4):
            tracker.update(k * dt, _blob((0.0, -209.5), look, 1.0))
        for k in range(4, 30):  # under the hand, lifted, carried
            tracker.update(k * dt, Detections.empty(), covered=lambda p: True)
        assert tracker.update(30 * dt, blob, covered=lambda p: False) == taken


def test_a_coin_out_from_under_the_fingers_is_taken_at_once_if_far_nearer_it_than_the_hands(
        ) -> None:
    """Gate run at 720p60, look 100: Moons, flicked at 0.7 m/s from under the finger, is
    seen whole 35 mm on while the finger still covers its place, 0.044 from its look (as
    near Ace's: that look's coins read alike) and 0.29 from the hands' colour.  Six times
    nearer the coin than the hands, it is the coin, that frame; a blob about as near the
    hands' colour as the coin's, or one with no hand in view to compare it with, waits for a
    second sighting (an arm's withdrawing edge leaves one-frame blobs)."""
    look = np.array([0.35, 0.3, 0.3])
    off = look + 0.044 / math.sqrt(3.0)
    for hand_look, taken in ((0.29, {"moons": 0}), (0.12, {}), (np.inf, {})):
        tracker = Tracker({"moons": (0.0, -4.8)}, 0.0, MotionModel(), looks={"moons": look})
        for k in range(1, 4):
            tracker.update(k * DT, _blob((0.0, -4.8), look, 1.0))
        for k in range(4, 6):  # the finger over it, the coin leaving unseen
            tracker.update(k * DT, Detections.empty(), covered=lambda p: True)
        blob = replace(_blob((-35.0, -3.9), off, 1.0), hand_look=np.array([hand_look]))
        assert tracker.update(6 * DT, blob,
                              covered=lambda p: math.hypot(*p) < 2.0 * RADIUS) == taken


def test_a_coin_out_from_under_the_fingers_is_taken_at_once_if_far_nearer_the_coins_than_hands(
        ) -> None:
    """Gate run at 1080p30, look 100: Moons, flicked from under the finger, is seen whole 44
    mm on, 0.103 from its own look (its look moves 0.02-0.1 over the cloth: that look's
    coins read within 0.06 of each other) and 0.30 from the hands' colour: only three times
    nearer.  But it is 0.06 from Ace's, five times nearer the game's coins than the hands':
    a coin, not a piece of the arm, and with Ace seen at rest where it lies, Moons.  Nearer
    the hands' colour, or with no coin's look that near, it waits for a second sighting."""
    moons = np.array([0.35, 0.3, 0.3])
    ace = moons + np.array([0.06, 0.0, 0.0])
    seen = moons + np.array([0.09, 0.05, 0.0])  # 0.103 from Moons' look, 0.058 from Ace's
    cases = ((0.304, True, {"moons": 0, "ace": 1}), (0.2, True, {"ace": 1}),
             (0.304, False, {}))
    for hand_look, with_ace, taken in cases:
        looks = {"moons": moons, "ace": ace} if with_ace else {"moons": moons}
        start = {"moons": (-0.3, -4.7), "ace": (-44.4, -253.8)} if with_ace else \
            {"moons": (-0.3, -4.7)}
        tracker = Tracker(start, 0.0, MotionModel(), looks=looks)
        at_rest = _blob((-44.4, -253.8), ace, 1.0) if with_ace else Detections.empty()
        for k in range(1, 4):
            tracker.update(k / 30, _blob((-0.3, -4.7), moons, 1.0).extended(at_rest))
        tracker.update(4 / 30, at_rest, covered=lambda p: math.hypot(p[0] + 0.3, p[1] + 4.7)
                       < 2.0 * RADIUS)  # the finger over it, the coin leaving unseen
        blob = replace(_blob((-44.7, -3.8), seen, 1.0), hand_look=np.array([hand_look]))
        assert tracker.update(5 / 30, blob.extended(at_rest), covered=lambda p: math.hypot(
            p[0] + 0.3, p[1] + 4.7) < 2.0 * RADIUS) == taken


def test_a_coin_blurred_along_a_line_back_to_the_fingers_is_taken_if_nearer_the_coins(
        ) -> None:
    """Strike at look 102: Moons, flicked from under the finger, is seen in the flick's first
    frame 58 mm on, blurred 1.0 of a radius beyond its width (short of a streak) along the
    line back to where the finger hid it, 0.184 from the coins' looks and 0.345 from the
    hands' colour: under twice as near, no sharp blob would be taken so.  Drawn out along
    that line it is the coin; the same blob sharp, or blurred across that line, waits for a
    second sighting."""
    look = np.array([0.35, 0.3, 0.3])
    off = look + 0.184 / math.sqrt(3.0)
    cases = ((RADIUS, (0.0, 1.0), {"moons": 0}), (0.0, (0.0, 0.0), {}),
             (RADIUS, (1.0, 0.0), {}))
    for streak_mm, direction, taken in cases:
        tracker = Tracker({"moons": (0.0, -209.4)}, 0.0, MotionModel(), looks={"moons": look})
        for k in range(1, 4):
            tracker.update(k / 30, _blob((0.0, -209.4), look, 1.0))
        tracker.update(4 / 30, Detections.empty(), covered=lambda p: True)
        blob = replace(_blob((0.1, -150.9), off, 1.0, streak_mm, direction),
                       hand_look=np.array([0.345]))
        assert tracker.update(5 / 30, blob, covered=lambda p: math.hypot(
            p[0], p[1] + 209.4) < 2.0 * RADIUS) == taken


def test_a_coin_blurred_along_a_line_from_its_place_under_the_hand_is_it_leaving() -> None:
    """Fast flick at 720p60, look 110: Suns, seen at rest the frame before, is 49 mm on with
    the hand still over its place, blurred 0.95 of a radius beyond its width along the line
    through that place, 0.110 from its look and 0.231 from the hands' colour.  It is Suns
    leaving rest; the same blob sharp, or nearer the hands' colour, is no coin leaving."""
    look = np.array([0.35, 0.3, 0.3])
    off = look + 0.110 / math.sqrt(3.0)
    cases = ((0.95 * RADIUS, 0.231, {"suns": 0}), (0.0, 0.231, {}),
             (0.95 * RADIUS, 0.1, {}))
    for streak_mm, hand_look, taken in cases:
        tracker = Tracker({"suns": (-209.6, 0.0)}, 0.0, MotionModel(), looks={"suns": look})
        for k in range(1, 4):
            tracker.update(k / 60, _blob((-209.6, 0.0), look, 1.0))
        blob = replace(_blob((-160.6, 0.3), off, 1.0, streak_mm, (-1.0, 0.0)),
                       hand_look=np.array([hand_look]))
        assert tracker.update(4 / 60, blob, covered=lambda p: math.hypot(
            p[0] + 209.6, p[1]) < 2.0 * RADIUS) == taken


def test_a_coin_put_down_far_from_where_it_was_lost_is_taken_however_far() -> None:
    """Off-table at look 203: Arms, flicked off the table unseen (cream on beige), is put
    back on the table's edge 2.2 s later, 423 mm from where it was lost.  Seen whole with
    its own look, twice, it is Arms: beyond where a hand carries a coin, every place is as
    likely (priced by distance, the pair cost more than leaving Arms unpaired, for ever).
    A streak that far is no coin put down."""
    look = np.array([0.6, 0.62, 0.66])
    dt = 1 / 30
    for blob, taken in ((_blob((210.0, -423.4), look - 0.05, 1.0), {"arms": 0}),
                        (_blob((210.0, -423.4), look - 0.05, 1.0, 30.0, (0.0, 1.0)), {})):
        tracker = Tracker({"arms": (210.6, -0.3)}, 0.0, MotionModel(), looks={"arms": look})
        for k in range(1, 4):
            tracker.update(k * dt, _blob((210.6, -0.3), look, 1.0))
        for k in range(4, 70):  # under the hand, flicked off unseen, picked up, carried
            hand_over = k < 10
            tracker.update(k * dt, Detections.empty(), covered=lambda p, h=hand_over: h)
        tracker.update(70 * dt, blob)
        assert tracker.update(71 * dt, blob) == taken


def test_two_coins_that_meet_are_told_apart_by_their_looks() -> None:
    """Capture at look 152: guard 2 (a pale coin) strikes Moons (a dark one) at 630 mm/s and
    stops dead; Moons, its blob lost in the striker's for the frame of the contact, is seen
    14 mm on, just where 2's speed would carry 2.  A sharp blob of Moons' look (0.05 from
    it, 0.40 from 2's) is not 2: the names were exchanged for three frames, and Moons
    "flicked" before the strike."""
    two, moons = np.array([0.267, 0.472, 0.633]), np.array([0.207, 0.285, 0.222])

    def looks(*centres_looks: tuple[tuple[float, float], np.ndarray, float]) -> Detections:
        return Detections(np.array([c for c, _, _ in centres_looks], float),
                          np.full(len(centres_looks), RADIUS),
                          look=np.array([lk for _, lk, _ in centres_looks]),
                          confidence=np.array([conf for _, _, conf in centres_looks]))

    dt = 1 / 30
    tracker = Tracker({"two": (-100.0, 0.0), "moons": (0.0, 0.0)}, 0.0, MotionModel(),
                      looks={"two": two, "moons": moons}, sizes={"moons": 0.64})
    for k, x in enumerate((-100.0, -79.0, -58.0, -37.0), start=1):
        tracker.update(k * dt, looks(((x, 0.0), two, 1.0), ((0.0, 0.0), moons, 0.64)))
    assert tracker.update(5 * dt, looks(((-16.0, 0.0), two, 1.0))) == {"two": 0}
    after = looks(((14.0, 0.0), moons, 0.62), ((-19.0, 0.0), two, 1.0))
    assert tracker.update(6 * dt, after) == {"two": 1, "moons": 0}


def test_a_coin_leaving_rest_is_its_streak_not_the_fingertip_left_behind() -> None:
    """Strike at look 163: a fingertip merged into Moons at rest dragged its blob 3 mm
    back; in the launch frame the blob splits into Moons' streak, its back end on the
    place, and the fingertip 11 mm behind the place.  The fingertip was taken, and Moons'
    whole slide through four gates was lost.  Nothing leaves a resting coin backwards from
    the streak that leaves it: the coin is the streak."""
    tracker = Tracker({"moons": (0.0, -209.6)}, 0.0, MotionModel())
    dt = 1 / 30
    for k, y in enumerate((-209.6, -209.6, -214.1, -213.4, -212.7, -212.7), start=1):
        tracker.update(k * dt, seen((0.0, y)))
    launch = Detections(np.array([[0.0, -197.0]]), np.array([RADIUS]), np.array([25.4]),
                        np.array([[0.0, 1.0]]))
    assert tracker.update(7 * dt, seen((0.2, -224.1)).extended(launch)) == {"moons": 1}


def test_a_launch_blob_joined_to_the_fingertip_says_nothing_of_which_way_the_coin_went(
) -> None:
    """Capture at look 212: Suns' launch frame is one blob of the coin leaving and the
    fingertip behind it, 16.6 mm beyond a coin's length, its centre 2.3 mm behind the place
    (toward the finger).  Read as a launch that way, Suns 11 mm on the other way, sharp, was
    "behind" it and not taken, and its 26 mm flick was lost.  But where a blob like the coin
    lies on the launch's line beyond a fingertip's reach, the sharp blob behind is the
    fingertip (strike at look 111)."""
    def launched_back(tracker: Tracker) -> None:
        for k in range(1, 4):
            tracker.update(k / 30, seen((-209.5, 0.0)))
        tracker.update(4 / 30, streak((-211.8, 0.0), 16.6))

    tracker = Tracker({"suns": (-209.5, 0.0)}, 0.0, MotionModel())
    launched_back(tracker)
    assert tracker.update(5 / 30, seen((-198.6, 0.1))) == {"suns": 0}
    tracker = Tracker({"suns": (-209.5, 0.0)}, 0.0, MotionModel())
    launched_back(tracker)
    assert tracker.update(5 / 30, seen((-198.6, 0.1), (-240.0, 0.2))) == {"suns": 1}


def test_a_coin_launched_with_a_short_streak_is_not_the_fingertip_behind_its_place() -> None:
    """Fast flick at look 166: the launch frame caught only 10 mm of Suns' streak (too short
    to bound how far it went on); a frame later the fingertip lay 11 mm behind the place
    it left and Suns' streak 100 mm ahead.  The fingertip was taken and every crossing
    lost: nothing leaves its place backwards from its launch."""
    tracker = Tracker({"suns": (-211.3, 0.0)}, 0.0, MotionModel())
    dt = 1 / 30
    for k in range(1, 4):
        tracker.update(k * dt, seen((-211.3, 0.0)))
    tracker.update(4 * dt, streak((-203.9, 0.0), 10.4))
    fingertip_and_coin = seen((-222.2, -0.7)).extended(streak((-111.0, 0.3), 23.5))
    assert tracker.update(5 * dt, fingertip_and_coin) == {"suns": 1}


def test_a_streak_beside_a_resting_coin_s_place_is_the_finger_not_the_coin() -> None:
    """Gate run at look 380: a fingertip merged into Moons at rest blurred its blob a
    little; then Moons, pale on pale cloth, slid away unseen while the finger, drawn back,
    streaked 34 mm along a line 16 mm beside Moons' place, touching the hand and reading
    3.4 times nearer the hands' colour than Moons' look.  It was taken for Moons' launch,
    and two frames later again (the finger over the place, Moons under a hand); hits on
    two posts and a crossing 19 mm off were invented.  A coin leaves rest along a line
    through its place; a streak whose line runs through it is still the coin leaving."""
    look = np.array([0.8, 0.75, 0.7])
    dt = 1 / 30

    def finger(centre: tuple[float, float]) -> Detections:
        return Detections(np.array([centre]), np.array([RADIUS]), np.array([34.3]),
                          np.array([[0.0, -1.0]]), (look - 0.3)[None], np.array([1.0]),
                          np.array([1.0]), np.array([0.154]))

    def resting() -> Tracker:
        tracker = Tracker({"moons": (0.2, -4.3)}, 0.0, MotionModel(), looks={"moons": look})
        for k, blur in enumerate((0.0, 0.0, 0.2), start=1):
            tracker.update(k * dt, _blob((0.2, -4.3 - 0.1 * k), look, 1.0, blur, (0.0, -1.0)))
        return tracker

    tracker = resting()
    assert tracker.update(4 * dt, finger((16.4, -22.4))) == {}
    assert tracker.update(5 * dt, Detections.empty(), covered=lambda p: True) == {}
    assert tracker.update(6 * dt, finger((12.4, -27.0)), covered=lambda p: True) == {}
    assert tracker.update(8 * dt, _blob((-77.0, -2.9), look, 1.0)) == {"moons": 0}
    tracker = resting()
    leaving = replace(finger((-20.0, -4.5)), streak_dir=np.array([[-1.0, 0.0]]))
    assert tracker.update(4 * dt, leaving) == {"moons": 0}


def test_a_fingertip_behind_a_coin_unseen_for_a_frame_is_not_it_leaving() -> None:
    """Capture at look 214: Suns at rest went under the flicking finger, then was unseen
    for a frame; then a fingertip 14 mm behind its place showed as 0.51 of a coin, 0.32
    from Suns' look and 0.30 from the hands', while Suns itself showed whole and sharp 21
    mm on.  The filter's belief, grown while Suns was unseen, let the fingertip into round
    1's gate, and the flick was read 67 ms late.  A coin leaves rest as a streak through
    its place or seen whole with its own look, in either round."""
    look = np.array([0.8, 0.6, 0.3])
    dt = 1 / 30
    tracker = _resting("suns", (-209.6, 0.0), look, dt)
    assert tracker.update(4 * dt, Detections.empty(), covered=lambda p: True) == {}
    assert tracker.update(5 * dt, Detections.empty()) == {}  # the finger off its place
    frame = Detections(np.array([[-225.3, 1.0], [-189.8, 0.0]]), np.full(2, RADIUS),
                       np.zeros(2), np.zeros((2, 2)), np.stack([look + 0.185, look]),
                       np.array([0.51, 1.0]), np.zeros(2), np.array([0.30, 0.16]))
    assert tracker.update(6 * dt, frame, covered=lambda p: p[0] < -200.0) == {"suns": 1}


SKIN = np.array([0.5, 0.6, 0.8])
"""A look of the skin's colour (Suns at looks 306, 342)."""


def _resting(coin: str, place: tuple[float, float], look: np.ndarray, dt: float,
             **kwargs) -> Tracker:
    """A tracker of one coin seen at rest, whole and with its look, for three frames."""
    tracker = Tracker({coin: place}, 0.0, MotionModel(), looks={coin: look}, **kwargs)
    for k in range(1, 4):
        tracker.update(k * dt, _blob(place, look, 1.0))
    return tracker


def _where_flicked(point: tuple[float, float], since: float) -> bool:
    """A hand came only to where Suns rested (x < -150), before it was last seen (0.1 s)."""
    return point[0] < -150.0 and since < 0.1


@pytest.mark.parametrize("hand_came", [_where_flicked, None])
def test_a_blob_where_no_hand_came_is_no_piece_of_a_hand_however_it_reads(hand_came) -> None:
    """Fast flick at look 306: Suns, of the skin's colour, flicked at 2.9 m/s and unseen in
    flight, was first seen again 300 mm on, coming back off Arms, as 0.35 of a coin; at
    look 203, after 0.27 s, as 0.68 of one, 0.06 from its look and 0.09 from the hands';
    at look 245, seen sliding, then lost to a blob 0.04 from the hands' colour.  Each was
    taken for a piece of an arm (a coin in part off its rest, a blob of the hands' colour)
    and lost for up to 0.2 s, its crossings with it.  Where no hand came since the coin
    was last seen, no piece of a hand can be; where one came (no hand history: `None`),
    they still read as one.  (Sleeves are no hands: `test_a_sleeve_where_no_hand_came...`)
    """
    look = SKIN
    dt = 1 / 30
    taken = {"suns": 0} if hand_came else {}

    def tracker() -> Tracker:
        return _resting("suns", (-209.5, 0.0), look, dt, hand_came=hand_came)

    def part(centre: tuple[float, float], shown: float, hands: float) -> Detections:
        """A blob 0.078 from Suns' look."""
        return replace(_blob(centre, look + 0.045, shown), hand_look=np.array([hands]))

    leaving = tracker()  # lost from rest for 0.23 s
    for k in range(4, 10):
        leaving.update(k * dt, Detections.empty())
    assert leaving.update(10 * dt, part((92.4, 18.1), 0.35, 0.1)) == taken
    vague = tracker()  # lost for longer (LOST_S), seen twice
    for k in range(4, 11):
        vague.update(k * dt, Detections.empty())
    vague.update(11 * dt, part((99.1, -34.7), 0.68, 0.09))
    assert vague.update(12 * dt, part((103.2, -48.3), 0.68, 0.09)) == taken
    sliding = tracker()  # seen sliding and back off Arms, then a blob of the hands' colour
    for k, x in enumerate((-120.0, -30.0, 60.0, 150.0), start=4):
        sliding.update(k * dt, _blob((x, 0.0), look, 1.0, 80.0, (1.0, 0.0)))
    sliding.update(8 * dt, _blob((173.2, 4.5), look, 1.0, 9.6, (-0.98, 0.17)))
    assert sliding.update(9 * dt, replace(_blob((132.3, 11.9), look + 0.1, 1.0),
                                          hand_look=np.array([0.04]))) == taken


def test_a_coin_a_hand_hid_is_no_streak_far_off_where_no_hand_came() -> None:
    """Gate run at look 170: a hand passing over Suns hid it for a frame; a blurred blob of
    about its look 330 mm off, where no hand had come, its line nowhere near Suns' place,
    was taken for it: a flick, two hits and a fall invented.  A coin a hand hid comes out
    from under the fingers (its streak's line through its place) or is carried and put
    down whole; only one no hand hid slid where no hand came."""
    dt = 1 / 30
    tracker = _resting("suns", (-209.5, 0.0), SKIN, dt, hand_came=_where_flicked)
    tracker.update(4 * dt, Detections.empty(), covered=lambda p: True)
    far_off = _blob((76.3, 152.9), SKIN + 0.05, 1.0, 29.1, (1.0, 0.0))
    assert tracker.update(5 * dt, far_off) == {}


def test_a_sleeve_where_no_hand_came_is_still_no_coin() -> None:
    """Gate run at look 181: an arm reaching over the table past Ace, hidden by it for
    three frames, left a sleeve's streak 400 mm on, its line through Ace's place, 0.17 from
    Ace's look and 0.10 from the hands'.  The hands' mask holds skin, not sleeves: no hand
    came there, yet it is no coin that slid (a flick, two hits and a lift invented).  A
    blob where no hand came is the coin only if it reads nearer its look than the hands'."""
    look = np.array([0.2, 0.2, 0.3])
    dt = 1 / 30
    tracker = Tracker({"moons": (0.0, -209.5)}, 0.0, MotionModel(), looks={"moons": look},
                      hand_came=lambda point, since: False)
    _at_rest_then(tracker, dt, look, Detections.empty())
    for k in range(5, 8):
        tracker.update(k * dt, Detections.empty())
    sleeve = replace(_blob((3.4, 190.5), look + 0.0964, 1.0, 23.5, (0.0, 1.0)),
                     hand_look=np.array([0.101]))
    assert tracker.update(8 * dt, sleeve) == {}


@pytest.mark.parametrize(("from_look", "taken"), [(0.853, {}), (0.5, {"moons": 0})])
def test_a_streak_far_from_a_hidden_coin_s_look_is_a_hand_s_piece_where_no_hand_came(
        from_look: float, taken: dict[str, int]) -> None:
    """Capture at look 602: a grey sleeve sweeping over beige cloth, read as the cloth's
    shadow, left no hand where it passed; Moons, hidden under it, took one of its streaks
    122 mm off, its line through Moons' place, 0.853 from Moons' look and 0.07 from the
    hands', and guard 2 then took Moons' place (a lift and a place of the wrong coin).
    Where no hand came, a blob of the hands' colour may be the coin only if its blur could
    have drifted its look that far (SLIDE_LOOK): a coin of the skin's colour."""
    look = np.array([0.8, 0.75, 0.6])
    dt = 1 / 30
    tracker = _resting("moons", (-90.3, 161.9), look, dt,
                       hand_came=lambda point, since: False)
    tracker.update(4 * dt, Detections.empty(), covered=lambda p: True)
    tracker.update(5 * dt, Detections.empty(), covered=lambda p: True)
    piece = replace(_blob((-212.1, 141.7), look - from_look / math.sqrt(3.0), 0.5, 19.1,
                          (-0.99, -0.13)), hand_look=np.array([0.07]))
    assert tracker.update(6 * dt, piece, covered=lambda p: p[0] > -150.0) == taken


def test_no_coin_slid_that_a_hand_may_have_carried_nor_onto_or_off_a_tower() -> None:
    """Capture at look 284: Moons, lifted, unseen for 0.9 s, took an arm's streak 90 mm
    off where no hand had come (a flick invented, the lift lost): a hand over its place
    since, long enough ago to carry it off, may have.  At look 307: Moons, on tower 2 and
    lost for 0.2 s, took a blob on tower 1's top 360 mm off: no coin slides onto a tower's
    top, nor off one (only a hand puts it there)."""
    look = np.array([0.2, 0.2, 0.3])
    dt = 1 / 30

    def lost_then(frames: int, blob: Detections, hand_came, on_stack=None) -> dict[str, int]:
        tracker = _resting("moons", (-90.0, 162.0), look, dt, hand_came=hand_came,
                           on_stack=on_stack)
        for k in range(4, 4 + frames):
            tracker.update(k * dt, Detections.empty())
        seen = tracker.update((4 + frames) * dt, blob)  # (a sharp blob: seen twice)
        return seen or tracker.update((5 + frames) * dt, blob)

    streak = replace(_blob((-152.7, 77.1), look + 0.05, 1.0, 38.4, (0.0, 1.0)),
                     hand_look=np.array([0.23]))
    at_its_place = lambda point, since: math.dist(point, (-90.0, 162.0)) < 40.0  # noqa: E731
    assert lost_then(27, streak, at_its_place) == {}
    assert lost_then(27, streak, lambda point, since: False) == {"moons": 0}
    on_tower = replace(_blob((14.0, -243.3), look + 0.04, 0.54), hand_look=np.array([0.4]))
    top = lambda point: point[1] < -200.0  # noqa: E731
    assert lost_then(5, on_tower, lambda point, since: False, top) == {}
    assert lost_then(5, on_tower, lambda point, since: False) == {"moons": 0}


@pytest.mark.parametrize("on_tower", [True, False])
def test_a_blob_of_the_hands_colour_on_a_tower_s_top_is_the_hand_s(on_tower: bool) -> None:
    """Capture at 60 fps, look 306: Moons, just put on tower 2, was taken at a blob of the
    hands' colour 5 mm off on the tower's top, where the hands' history had no hand since
    (a lift and a place invented).  Only a hand puts a coin on a tower's top: a blob of its
    colour there is the hand's, wherever the mask saw it."""
    look = np.array([0.2, 0.2, 0.3])
    dt = 1 / 60
    tracker = _resting("moons", (-241.9, 12.5), look, dt,
                       hand_came=lambda point, since: False, on_stack=lambda point: on_tower)
    hand = replace(_blob((-236.4, 10.7), look + 0.25, 1.0), hand_look=np.array([0.18]))
    assert tracker.update(4 * dt, hand) == ({} if on_tower else {"moons": 0})


@pytest.mark.parametrize("hand_came", [_where_flicked, None])
def test_a_sliding_coin_lost_for_frames_is_found_far_on_where_no_hand_came(hand_came) -> None:
    """Fast flick at look 342: Suns, seen once sliding (a 25 mm streak), lost for two
    frames, then seen sharp (a short exposure) 280 mm on, where no hand had come: priced
    at the distance, 28 against a miss's 20, it was left, and found only after it had
    struck Arms and come back (its contacts and three crossings lost).  Lost for frames,
    it slid as far in each, as a coin leaving rest does; where a hand came, a blob so far
    is still no coin of it."""
    dt = 1 / 30
    tracker = _resting("suns", (-209.4, 0.0), SKIN, dt, hand_came=hand_came)
    tracker.update(4 * dt, _blob((-113.9, -0.4), SKIN, 1.0, 25.4, (1.0, 0.0)))
    for k in (5, 6):
        tracker.update(k * dt, Detections.empty())
    far_on = replace(_blob((166.2, -0.6), SKIN + 0.06, 0.75), hand_look=np.array([0.31]))
    assert tracker.update(7 * dt, far_on) == ({"suns": 0} if hand_came else {})


@pytest.mark.parametrize("edge_known", [True, False])
def test_a_coin_unseen_from_its_launch_is_taken_once_at_the_table_s_edge(edge_known) -> None:
    """Off-table at look 203: Arms, cream on beige, flicked at 1.9 m/s, unseen from its
    launch, seen once 0.27 s later at the table's edge, 2.8 mm from falling off, then gone.
    That blob, one frame where no hand came, read 0.52 from its look (a third of it hangs
    over what lies beyond the edge) and 0.66 from the hands': priced by a hand's reach, it
    was left unpaired and the fall read as a lift.  Where the edge is not known, a blob
    that far from its look is no coin."""
    look = np.array([0.6, 0.62, 0.66])
    dt = 1 / 30
    edge_y = -431.8
    tracker = _resting("arms", (210.6, -0.3), look, dt,
                       hand_came=lambda point, since: point[1] > -50.0,
                       on_table=(lambda p: p[1] > edge_y) if edge_known else None)
    for k in range(4, 11):  # the finger's flick, and Arms unseen on its way
        tracker.update(k * dt, Detections.empty(), covered=lambda p, h=k < 6: h)
    at_edge = replace(_blob((210.4, -427.1), look + np.array([0.3, 0.3, 0.3]), 0.7),
                      hand_look=np.array([0.66]))
    assert tracker.update(11 * dt, at_edge) == ({"arms": 0} if edge_known else {})


@pytest.mark.parametrize("border_known", [True, False])
def test_a_coin_put_back_on_the_table_s_border_is_read_against_the_border(border_known
                                                                          ) -> None:
    """Off-table at look 171: Arms, put back where it fell, on the table's wooden border:
    its blurred rim took in the wood's brown, its look read 0.41 from the one learned on
    the beige cloth, and it was never found again (the put-back lost).  As it would read on
    the wood, it is itself; where the table's colour there is not known, it is no coin."""
    look = np.array([0.85, 0.90, 0.88])
    cloth, wood = np.array([0.62, 0.58, 0.50]), np.array([0.25, 0.2, 0.15])
    on_border = look + 0.6 * (wood - cloth)  # its rim's share of the wood
    dt = 1 / 30
    tracker = Tracker({"arms": (210.6, -0.3)}, 0.0, MotionModel(), looks={"arms": look},
                      table_look=(lambda p: wood if p[1] < -410.0 else cloth)
                      if border_known else None)
    for k in range(1, 4):
        tracker.update(k * dt, _blob((210.6, -0.3), look, 1.0))
    tracker.tracks["arms"].hidden = tracker.tracks["arms"].gone = True  # off the table
    for k in range(4, 70):
        tracker.update(k * dt, Detections.empty())
    put_back = _blob((210.2, -422.0), on_border, 1.0)
    tracker.update(70 * dt, put_back)
    assert tracker.update(71 * dt, put_back) == ({"arms": 0} if border_known else {})


def test_a_coin_seen_whole_where_no_hand_came_is_not_the_slide_off_its_place() -> None:
    """Fast flick at look 424: Suns, pale on tan cloth, flicked at 2.6 m/s, unseen in
    flight, struck Arms and came back along its own line as streaks, which no coin took
    (Suns was lost where it rested, 380 mm off).  Their line runs back through Arms'
    place, so they were read as Arms' slide, and Arms' own blob, nudged 10 mm and whole,
    as a fingertip left behind: the two coins exchanged names for eight frames.  A coin
    seen itself, where no hand came, is not a slide elsewhere."""
    dt = 1 / 30
    suns, arms = np.array([0.8, 0.75, 0.6]), np.array([0.7, 0.7, 0.55])
    tracker = Tracker({"suns": (-209.3, 0.1), "arms": (209.5, 0.0)}, 0.0, MotionModel(),
                      looks={"suns": suns, "arms": arms},
                      hand_came=lambda point, since: point[0] < -150.0)
    for k in range(1, 4):
        tracker.update(k * dt, _blob((-209.3, 0.1), suns, 1.0).extended(
            _blob((209.5, 0.0), arms, 1.0)))
    for k in range(4, 8):  # Suns under the flicking finger, then unseen in flight
        tracker.update(k * dt, _blob((209.5, 0.0), arms, 1.0), covered=lambda p: p[0] < -150)
    tracker.update(8 * dt, _blob((207.1, -0.1), arms, 1.0, 19.0, (-1.0, 0.0)))  # struck
    back = suns + np.array([-0.15, -0.12, 0.17])  # blurred over the cloth: 0.26 off, and
    # 0.09 from the hands' colour (skin, of the cloth's)
    for k, (nudged, centre, direction) in enumerate((
            ((210.6, -3.8), (174.7, 5.0), (-0.985, 0.173)),
            ((210.4, -8.6), (133.6, 11.7), (-1.0, 0.004)),
            ((210.3, -10.4), (91.4, 18.0), (-0.997, 0.072))), start=9):
        streak = replace(_blob(centre, back, 1.0, 14.0, direction), hand_look=np.array([0.09]))
        frame = _blob(nudged, arms, 1.0).extended(streak)
        assigned = tracker.update(k * dt, frame)
        assert assigned.get("arms") == 0, f"frame {k}: {assigned}"


def test_a_striker_unseen_for_a_frame_and_the_coin_it_struck_in_one_blob_keep_their_names(
) -> None:
    """Strike at look 343: black Moons, seen sliding at 1.2 m/s, was lost for a frame; the
    next showed it and Crowns, which it had just struck, as one streak 4.9 mm on from the
    middle between where Moons must stop and Crowns' place.  Crowns took it, as leaving
    backwards from its place, and a frame on each took the other's blob: the recoil contact
    was lost and the two exchanged names.  The striker's path runs on while it is unseen,
    and the blob of the two is neither's."""
    dt = 1 / 30
    place = (0.1, 209.6)
    tracker = Tracker({"moons": (-0.4, 3.8), "crowns": place}, 0.0, MotionModel())
    for k, y in enumerate((3.8, 3.8, 3.8, 49.1, 91.1, 129.7), start=1):
        tracker.update(k * dt, seen((-0.3, y), place))
    tracker.update(7 * dt, seen(place))  # Moons unseen
    both = Detections(np.array([[-0.3, 204.9]]), np.array([RADIUS]), np.array([20.0]),
                      np.array([[0.0, 1.0]]))
    assert tracker.update(8 * dt, both) == {}
    assert tracker.update(9 * dt, seen((1.2, 209.6), (-1.1, 186.8))) == {"moons": 1, "crowns": 0}
