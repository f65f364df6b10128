"""Slides and their fits: the physics the reconstruction relies on, against exact answers."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from referee.layout import castle_croquetnole_layout
from referee.vision.reconstruct import (
    INFERRED_CONFIDENCE,
    FlickWindow,
    piece_obstacle,
    reconstruct,
)
from referee.vision.trajectory import (
    Motion,
    Slide,
    _struck_after_first,
    fit_motion,
    optimal_partition,
    quadratic_roots,
)

DECEL = 0.3 * 9806.65


def test_slide_stops_after_v_squared_over_2a() -> None:
    slide = Slide(1.0, (0.0, 0.0), (1200.0, 0.0), DECEL, 5.0)
    assert slide.t_stop == pytest.approx(1.0 + 1200.0 / DECEL)
    end = slide.position(10.0)
    assert end[0] == pytest.approx(1200.0 ** 2 / (2 * DECEL))
    assert np.allclose(slide.velocity(slide.t_stop + 0.1), 0.0)


def test_a_slide_says_when_it_has_slid_a_distance_and_a_motion_where_it_is_at_many_times(
        ) -> None:
    slide = Slide(1.0, (0.0, 0.0), (1200.0, 0.0), DECEL, 5.0)
    for t in (1.0, 1.05, 1.2):
        assert slide.t_at(slide.travelled(t)) == pytest.approx(t)
    assert slide.t_at(1e6) == pytest.approx(slide.t_stop)  # never that far: its stop
    bounce = Slide(1.1, tuple(slide.position(1.1)), (-300.0, 200.0), DECEL, 5.0)
    motion = Motion("moons", [replace(slide, t_end=1.1), bounce], (0.0, 0.0), None)
    t = np.linspace(0.9, 1.6, 71)
    assert np.array_equal(motion.positions(t), [motion.position(ti) for ti in t])


def test_quadratic_roots_in_range() -> None:
    assert quadratic_roots(-1.0, 0.0, 1.0, 0.0, 5.0) == pytest.approx([1.0])
    assert quadratic_roots(2.0, -3.0, 1.0, 0.0, 5.0) == pytest.approx([1.0, 2.0])
    assert quadratic_roots(1.0, 0.0, 1.0, -5.0, 5.0) == []
    assert quadratic_roots(-4.0, 2.0, 0.0, 0.0, 5.0) == pytest.approx([2.0])


def sample(slides: list[Slide], fps: float, t_end: float, noise: float, seed: int = 0):
    rng = np.random.default_rng(seed)
    t = np.arange(slides[0].t0 + 1e-3, t_end, 1.0 / fps)
    p = []
    for ti in t:
        s = [sl for sl in slides if sl.t0 <= ti][-1]
        p.append(s.position(ti) + rng.normal(0.0, noise, 2))
    return t, np.asarray(p)


def test_fit_recovers_the_flick_time_and_speed_to_sub_frame() -> None:
    true = Slide(2.0137, (10.0, -200.0), (300.0, 1500.0), DECEL, 9.0)
    t, p = sample([true], 30.0, true.t_stop + 0.2, 0.3)
    motion = fit_motion("moons", t, p, (10.0, -200.0), tuple(true.position(9.0)), DECEL)
    assert len(motion.slides) == 1
    fitted = motion.slides[0]
    assert fitted.t0 == pytest.approx(true.t0, abs=0.002)  # 2 ms at 30 fps (33 ms frames)
    assert np.hypot(*(np.asarray(fitted.v0) - true.v0)) < 15.0


def test_a_bounce_is_one_break_at_the_right_instant() -> None:
    first = Slide(1.0, (0.0, 0.0), (0.0, 1500.0), DECEL, 1.2)
    p_hit = first.position(1.2)
    second = Slide(1.2, (float(p_hit[0]), float(p_hit[1])), (100.0, -600.0), DECEL, 5.0)
    t, p = sample([first, second], 60.0, second.t_stop, 0.3)
    assert len(optimal_partition(t, p, 0.3)) == 2
    t, p = sample([first, second], 60.0, 1.6, 0.3)  # with the resting tail
    motion = fit_motion("moons", t, p, (0.0, 0.0), tuple(second.position(5.0)), DECEL)
    assert len(motion.breaks()) == 1
    assert motion.breaks()[0] == pytest.approx(1.2, abs=0.004)


def test_after_an_impact_the_path_follows_its_frames_and_stays_continuous() -> None:
    """A strike at 30 fps: 2 m/s into the struck coin, then a slow slide off at an angle.
    Fitted one slide after another, the second was pinned to the end of the first and kept
    its own velocity, shifted by their gap (median worst error over these six noise draws
    0.58 mm; the fast-flick clips: 1.7 mm along all of it); fitted together, 0.18 mm."""
    first = Slide(1.0, (0.0, 0.0), (2000.0, 0.0), DECEL, 1.1)
    p_hit = first.position(1.1)
    second = Slide(1.1, (float(p_hit[0]), float(p_hit[1])), (-250.0, 350.0), DECEL, 5.0)
    worst = []
    for seed in range(6):
        t, p = sample([first, second], 30.0, second.t_stop + 0.2, 0.3, seed)
        motion = fit_motion("suns", t, p, (0.0, 0.0), tuple(second.position(5.0)), DECEL)
        assert len(motion.slides) == 2
        before, after = motion.slides
        assert np.hypot(*(before.position(after.t0) - np.asarray(after.p0))) < 1e-6
        late = t[t > 1.1]
        truth = np.array([second.position(ti) for ti in late])
        fitted = np.array([motion.position(ti) for ti in late])
        worst.append(float(np.hypot(*(fitted - truth).T).max()))
    assert max(worst) < 0.75 and float(np.median(worst)) < 0.3


def test_the_fingertips_drift_before_a_flick_is_not_its_start() -> None:
    true = Slide(1.9, (0.0, -209.6), (0.0, 1750.0), DECEL, 9.0)
    t, p = sample([true], 30.0, true.t_stop + 0.2, 0.3)
    # The finger rests behind the coin for four frames: its tip drags the blob back 3–6 mm.
    drift_t = 1.9 - np.arange(4, 0, -1) / 30.0
    drift_p = np.array([[0.0, -209.9], [0.0, -212.7], [0.0, -215.3], [0.0, -215.2]])
    motion = fit_motion("moons", np.concatenate([drift_t, t]), np.vstack([drift_p, p]),
                        (0.0, -209.6), tuple(true.position(9.0)), DECEL)
    assert not motion.breaks()
    assert motion.t_start == pytest.approx(1.9, abs=0.003)


def test_a_fingertip_seen_behind_the_place_is_not_the_start_however_fast_it_moved() -> None:
    """Capture at look 224: Suns (-209.5, 0) flicked 26 mm east at 9.9 s; the two frames
    before, its blob merged with the fingertip behind it, then the fingertip alone, 14 mm
    west (10.6 mm in a frame: faster than a drift).  Nothing leaves rest backwards: the
    flick starts at 9.9 s, not 50 ms before."""
    t = np.arange(292, 303) / 30.0
    x = [-209.3, -209.3, -209.4, -209.5, -209.5, -213.2, -223.8, -190.2, -185.4, -183.5,
         -183.5]
    p = np.array([[xi, 0.0] for xi in x])
    motion = fit_motion("suns", t, p, (-209.4, 0.0), (-183.5, 0.0), DECEL)
    assert motion.t_start == pytest.approx(9.9, abs=0.02)


def test_a_fingertip_alone_behind_the_place_is_not_fitted_however_few_frames_follow() -> None:
    """Capture at look 460: Suns (-209.6, 0.2) flicked 26 mm east at 9.9 s; the next two
    frames read the fingertip alone, 11.7 mm west, then the coin 1.7 mm short of its rest.
    Too few frames for a piece of their own: the one slide was fitted through the
    fingertip (7.3 mm RMS), and the flick read 67 ms late.  A reading 3.4 mm behind,
    within a fingertip's drag, is kept (`test_a_coin_pushed_along_reads_behind_and_is_kept`)."""
    t = np.array([9.9333, 9.9667, 10.0, 10.0333, 10.0667, 10.1, 10.1333])
    x = [-221.01, -221.33, -185.53, -183.83, -183.84, -183.84, -183.84]
    p = np.array([[xi, 0.2] for xi in x])
    motion = fit_motion("suns", t, p, (-209.6, 0.2), (-183.83, 0.2), DECEL,
                        rested_until=9.8667)
    assert motion.t_start == pytest.approx(9.9, abs=0.005)
    assert motion.slides[0].rms_mm < 0.3


def test_a_short_flick_seen_once_on_its_way_starts_when_that_frame_says() -> None:
    """Capture at look 446: Ace flicked 15.4 mm west at 7.9 s, seen on its way in one
    frame only (7.967 s, 13.6 mm on; the fingertip's frames before put aside).  Started
    from the frames at rest, the solver stopped where the slide ended before that frame,
    a plateau, and the flick read 0.13 s early (0.6 mm RMS against 0.06)."""
    readings = {226: -44.4, 227: -44.4, 228: -44.41, 229: -44.38, 230: -44.41, 231: -44.41,
                233: -44.26, 239: -58.02, 240: -59.87, 241: -59.77, 242: -59.82, 243: -59.8,
                244: -59.8}
    t = np.array(sorted(readings)) / 30.0
    p = np.array([[readings[k], -254.0] for k in sorted(readings)])
    motion = fit_motion("ace", t, p, (-44.4, -254.0), (-59.8, -254.0), DECEL,
                        rested_until=233 / 30.0)
    assert motion.t_start == pytest.approx(7.9, abs=0.005)
    assert motion.slides[0].rms_mm < 0.2


def test_a_drag_before_the_fingertip_alone_is_the_finger_s_too() -> None:
    """Capture at look 422: Ace flicked 15.3 mm west at 7.9 s; the frame before the
    flick read its blob dragged 1.3 mm toward the finger, the next two the fingertip alone,
    12 mm behind.  The drag made a slow piece of its own with the frame after the flick,
    and the flick read 0.13 s early: the readings up to the fingertip's last are the
    finger's."""
    readings = {231: (-44.08, -254.24), 232: (-44.08, -254.26), 233: (-43.65, -253.01),
                234: (-33.6, -260.99), 237: (-34.05, -262.22), 238: (-52.1, -253.02),
                239: (-57.39, -253.24), 240: (-59.4, -253.92), 241: (-59.41, -253.92),
                242: (-59.4, -253.92), 243: (-59.4, -253.92)}
    t = np.array(sorted(readings)) / 30.0
    p = np.array([readings[k] for k in sorted(readings)])
    motion = fit_motion("ace", t[2:], p[2:], (-44.08, -254.27), (-59.4, -253.92), DECEL,
                        rested_until=232 / 30.0)
    assert not motion.breaks()
    assert motion.t_start == pytest.approx(7.9, abs=0.01)


def test_a_coin_seen_beyond_where_it_came_to_rest_bounced_there() -> None:
    """Moons, seen first past where it rests (flicked at tower 2 under the fingers, hit it and
    came back 4 mm: demo-game, 58.8 s): three points fit one quadratic, but no slide passes
    its own resting place, so the motion is two slides with the break at the far point."""
    t = np.array([58.7, 58.8, 58.833, 58.867, 58.9])
    p = np.array([[-180.5, 0.0], [-216.3, 0.3], [-212.9, 0.2], [-212.5, 0.3], [-212.4, 0.3]])
    decel = 0.3 * 9806.65
    motion = fit_motion("moons", t, p, (-180.5, 0.0), (-212.4, 0.3), decel, 0.3)
    assert len(motion.slides) == 2
    first, back = motion.slides
    assert first.v0[0] < 0.0 < back.v0[0]  # west, then east again
    assert 58.8 <= back.t0 <= 58.833
    # 2.1 mm past its rest (tower 3, 70.8 s), with the pipeline's 0.8 mm noise for blurred
    # centres: the coin is slow and sharp there, so still a bounce.
    t3 = np.array([70.7, 70.8, 70.833, 70.867, 70.9, 70.933])
    p3 = np.array([[-0.5, 167.6], [-0.3, 213.7], [0.0, 217.1], [0.0, 215.0], [0.0, 215.1],
                   [0.0, 215.1]])
    bounced = fit_motion("moons", t3, p3, (-0.5, 167.6), (0.0, 215.1), decel, 0.8)
    assert len(bounced.slides) == 2
    # Seen only on its way (never past its rest): one slide.
    straight = fit_motion("moons", t[:2], p[:2], (-180.5, 0.0), (-216.3, 0.3), decel, 0.3)
    assert len(straight.slides) == 1


def test_a_coin_seen_once_after_a_bounce_short_of_its_rest_is_split_at_the_bounce() -> None:
    """Capture at look 350: Moons, struck by guard 2, hits door 3 at 12.167 s and comes back;
    one frame sees it 2.6 mm short of where it rests, the next at rest.  That frame still
    moved: kept, it and the rest sample show the turn (taken for at rest within 3.2 mm, with
    the rest sample dropped, one slide fitted the four left and the hit was lost)."""
    t = np.array([12.1, 12.1333, 12.1667, 12.2, 12.2333])
    p = np.array([[-103.88, 140.78], [-94.17, 149.6], [-88.15, 157.75], [-87.98, 161.48],
                  [-89.24, 163.73]])
    motion = fit_motion("moons", t, p, (-106.34, 141.08), (-89.24, 163.73), DECEL, 0.8,
                        rested_until=12.0667)
    *_, before, after = motion.slides
    assert 12.1667 <= after.t0 <= 12.2
    assert before.v0[0] > 0.0 > after.v0[0]  # east, then back west off the door


def test_a_coin_seen_beside_the_straight_way_to_its_rest_turned_there() -> None:
    """Capture at look 203: Moons, struck by guard 2, seen leaving (12.1 s), then 7.6 mm
    beside the straight way from its place to where it rests as it hits door 3 (12.167 s),
    then once coming back before an arm hid it.  Three frames fit one quadratic, and never
    past its rest along the way: the hit was lost.  No slide turns: it struck something
    there.  Frames as far off a straight way that never turn are none of this."""
    t = np.array([12.1, 12.1667, 12.2])
    p = np.array([[-103.7, 141.7], [-84.8, 155.4], [-90.2, 158.7]])
    start, end = (-105.1, 140.5), (-89.0, 162.6)
    motion = fit_motion("moons", t, p, start, end, DECEL, 0.8, rested_until=12.0667)
    before, after = motion.slides
    assert 12.1667 <= after.t0 <= 12.2
    assert before.v0[0] > 0.0 > after.v0[0]  # east to the door, then back west
    # On its way all along, its middle frame 4 mm beside it (a blurred centre): one slide.
    straight = np.array([[-103.7, 141.7], [-99.2, 155.4], [-91.0, 159.9]])
    assert len(fit_motion("moons", t, straight, start, end, DECEL, 0.8,
                          rested_until=12.0667).slides) == 1


def test_a_striker_stopped_dead_by_the_coin_it_struck_stands_where_it_is_seen_at_rest(
        ) -> None:
    """Capture at look 381: guard 2 slows by friction, 17 mm a frame at its last frame in
    motion, strikes Moons head-on and stops dead (1 mm on in the next frame).  Friction's
    slide fitted through all its frames runs on to 12.5 mm past its rest, and a dispute
    drew that path: the slide ends where it reaches its rest, and it stands there."""
    t = np.array([11.9, 11.9667, 12.0, 12.0333, 12.0667, 12.1, 12.1333, 12.1667, 12.2])
    p = np.array([[-253.9, 44.6], [-198.2, 79.8], [-174.4, 93.7], [-152.9, 107.4],
                  [-134.8, 118.9], [-120.3, 127.8], [-119.3, 127.8], [-119.3, 127.8],
                  [-119.3, 127.8]])
    start, end = (-253.86, 44.57), (-119.32, 127.81)
    motion = fit_motion("2", t, p, start, end, DECEL, 0.8, rested_until=11.8667)
    way = np.subtract(end, start) / np.hypot(*np.subtract(end, start))
    grid = np.linspace(motion.t_start, 12.3, 200)
    beyond = [float((motion.position(ti) - np.asarray(end)) @ way) for ti in grid]
    assert max(beyond) < 1.0
    assert np.hypot(*(motion.position(12.3) - np.asarray(end))) < 1.0
    assert 12.0667 <= motion.t_end <= 12.1333  # stopped at the strike, not by friction
    assert np.allclose(motion.slides[-1].v0, 0.0)
    # A coin friction stopped, with the same noise, is one slide ending at its rest.
    true = Slide(11.9, start, (900.0, 560.0), DECEL, 13.0)
    t2, p2 = sample([true], 30.0, true.t_stop + 0.2, 0.3)
    natural = fit_motion("2", t2, p2, start, tuple(true.position(13.0)), DECEL, 0.8)
    assert len(natural.slides) == 1


def test_the_hand_drawn_back_behind_the_place_before_a_flick_is_not_the_coin_leaving(
        ) -> None:
    """Capture at look 177: the flicking finger, drawn back, streaks 45 mm behind Moons and
    then 28 mm, on the line of the flick to come, and is read as Moons; then Moons slides
    on through its place.  No slide from rest comes back towards it: the flick is the
    slide from its place (truth 5.9 s), not a slide backwards from 5.71 s and a bounce."""
    t = np.array([5.8667, 5.9333, 6.0333, 6.0667, 6.1, 6.1333, 6.1667, 6.2, 6.2333, 6.2667,
                  6.3])
    p = np.array([[-109.5, -33.6], [-107.0, -15.7], [-103.0, 101.3], [-103.7, 116.1],
                  [-105.4, 126.3], [-103.9, 133.9], [-106.5, 139.2], [-103.3, 140.8],
                  [-103.6, 140.6], [-104.4, 140.0], [-103.6, 138.8]])
    start, end = (-103.29, 11.64), (-103.03, 140.22)
    motion = fit_motion("moons", t, p, start, end, DECEL, 0.8, rested_until=5.7)
    assert motion.breaks() == []
    assert motion.t_start == pytest.approx(5.9, abs=0.01)
    # Going away from its place behind it, then through it: flicked back into something
    # and back off it, no hand's to drop.
    away = p.copy()
    away[:2] = p[1::-1]
    bounced = fit_motion("moons", t, away, start, end, DECEL, 0.8, rested_until=5.7)
    assert bounced.t_start < 5.87


def test_a_coin_seen_once_between_two_impacts_is_split_after_that_frame() -> None:
    """Fast flick at look 203: Suns, drawn through its contact with Arms at 2.05 s, is
    seen once coming back (2.133 s), then after it struck post 34 (2.1425 s).  Its frames
    at the contact left out of the partition, the first piece took two frames, one of them
    after the post: the post hit was lost.  The first piece's line runs through where the
    coin set off, and may be that one frame."""
    t = np.array([2.0497, 2.1333, 2.1667, 2.2, 2.2333, 2.2667, 2.3, 2.3333, 2.3667, 2.4,
                  2.4333, 2.4667, 2.5])
    p = np.array([[191.47, -0.17], [94.93, 17.86], [88.66, 3.91], [94.89, -17.32],
                  [99.12, -34.7], [103.21, -48.32], [105.32, -60.14], [108.2, -66.87],
                  [109.53, -72.31], [109.75, -73.71], [109.78, -73.69], [109.83, -73.73],
                  [109.87, -73.73]])
    motion = fit_motion("suns", t, p, (191.467, -0.1745), (109.8755, -73.763), DECEL, 0.8,
                        rested_until=2.0497)
    before, after = motion.slides
    assert after.t0 == pytest.approx(2.1425, abs=0.003)
    assert before.rms_mm < 0.5 and after.rms_mm < 0.8
    assert before.v0[1] > 0.0 > after.v0[1]  # north-west to the post, then south off it


def test_two_frames_read_off_a_fast_coin_s_line_do_not_split_it_from_its_place() -> None:
    """Strike at look 189: Moons at 2.5 m/s, its first two frames read 5 mm off its line.
    The partition's first piece runs through the resting place, measured against one line
    through the place and those frames together: against the line of the two frames alone,
    extended 60 mm back, the place read 5 mm off, the first frame was split off, and a
    post hit invented."""
    t = np.array([1.8667, 1.9333, 2.0333, 2.0667, 2.1, 2.1333, 2.1667, 2.2])
    p = np.array([[-0.15, -209.59], [5.01, -151.82], [4.69, 8.19], [1.28, 44.58],
                  [1.63, 87.12], [1.03, 128.88], [0.11, 164.25], [-0.95, 189.99]])
    bounds = optimal_partition(t[1:], p[1:], 0.8, 10, DECEL, (-0.22, -209.75))
    assert bounds[0][1] >= 2


def test_a_coin_leaving_the_view_is_not_pulled_back_by_its_last_partial_frame() -> None:
    """Off the table at 1.6 m/s: the last frame saw only part of the streak (the rest past
    the edge), its centre 6 mm short (off-table, look 107); the slide follows the others."""
    true = Slide(1.9, (210.0, 0.0), (0.0, -1800.0), DECEL, 9.0)
    t, p = sample([true], 30.0, 2.12, 0.3, seed=3)
    p[-1] += (0.0, 6.0)
    motion = fit_motion("arms", t, p, (210.0, 0.0), None, DECEL)
    fitted = np.array([motion.position(ti) for ti in t])
    truth = np.array([true.position(ti) for ti in t])
    assert np.hypot(*(fitted - truth).T).max() < 1.0  # fitted with it: 5.8 mm
    assert motion.t_end == pytest.approx(t[-1])  # it was still seen then


def test_a_launch_within_the_first_frames_exposure_does_not_pull_the_slide_ahead() -> None:
    """The first moving frame's exposure began at rest: its centre, the mean over the
    exposure, reads ahead of the coin at mid-exposure (gate-run at 1080p: 3.4 mm, which
    pulled the fitted slide 0.4-1 mm ahead over the next five frames)."""
    true = Slide(2.0, (0.0, -210.0), (0.0, 1100.0), DECEL, 9.0)
    t, p = _launched(true)
    motion = fit_motion("moons", t, p, (0.0, -210.0), tuple(true.position(9.0)), DECEL)
    fitted = np.array([motion.position(ti) for ti in t])
    truth = np.array([true.position(ti) for ti in t])
    assert np.hypot(*(fitted - truth).T).max() < 0.3  # fitted with it: 1.3 mm
    assert motion.seen_from == pytest.approx(t[1])


def test_a_launch_read_3_mm_ahead_at_60_fps_is_dropped_at_the_pipelines_noise() -> None:
    """Gate-run at 720p60, look 100: the launch frame read 3.19 mm ahead; with the noise
    width the pipeline fits with (0.8 mm) it was kept, and the slide was 0.74 mm off."""
    true = Slide(1.8996, (0.0, -209.55), (0.0, 1100.0), DECEL, 9.0)
    t, p = _launched(true, fps=60.0, ahead_mm=3.19, before_s=-0.0004)
    motion = fit_motion("moons", t, p, (0.0, -209.55), tuple(true.position(9.0)), DECEL,
                        noise_mm=0.8)
    assert motion.seen_from == pytest.approx(t[1])
    fitted = np.array([motion.position(ti) for ti in t[1:]])
    truth = np.array([true.position(ti) for ti in t[1:]])
    assert np.hypot(*(fitted - truth).T).max() < 0.3


def _launched(true: Slide, fps: float = 30.0, ahead_mm: float = 3.4, before_s: float = 0.01
              ) -> tuple[np.ndarray, np.ndarray]:
    """Frames every 1/fps from `before_s` before the launch (each at mid-exposure), 0.2 mm
    of noise; the first reads `ahead_mm` ahead, the blur of a launch within its exposure."""
    rng = np.random.default_rng(5)
    t = true.t0 - before_s + np.arange(8) / fps
    p = np.array([true.position(ti) for ti in t]) + rng.normal(0.0, 0.2, (len(t), 2))
    p[0] += ahead_mm * np.asarray(true.v0) / np.hypot(*true.v0)
    return t, p


def test_a_coin_pushed_along_reads_behind_and_is_kept() -> None:
    """A first frame behind the path (a finger pushing the coin along) is no launch blur:
    it stays in the fit and the slide starts later."""
    true = Slide(2.0, (0.0, -210.0), (0.0, 1100.0), DECEL, 9.0)
    t, p = _launched(true)
    p[0] -= 2 * 3.4 * np.asarray(true.v0) / np.hypot(*true.v0)  # 3.4 mm behind instead
    kept = fit_motion("moons", t, p, (0.0, -210.0), tuple(true.position(9.0)), DECEL)
    assert kept.seen_from == pytest.approx(t[0])


def test_a_coin_first_seen_far_along_keeps_its_first_frame() -> None:
    """Moons hidden under the hand at its start and first seen 340 mm along (the strike
    sample clip): that frame is no launch within its exposure, whatever it reads, and stays
    in the fit (dropped, the slides fitted to the rest spanned the strike that followed)."""
    true = Slide(2.0, (0.0, -210.0), (0.0, 2600.0), DECEL, 9.0)
    t = 2.15 + np.arange(8) / 30.0
    p = np.array([true.position(ti) for ti in t])
    p[0] += 3.4 * np.asarray(true.v0) / np.hypot(*true.v0)
    motion = fit_motion("moons", t, p, (0.0, -210.0), tuple(true.position(9.0)), DECEL)
    assert motion.seen_from == pytest.approx(t[0])


def test_a_struck_coins_first_piece_heading_on_is_its_launch_not_a_fingertip() -> None:
    """Moons at rest, struck between two frames (the one between them lost in the striker's
    blob), 14 mm on at 216 mm/s over the gap, then off door 3 and back (the capture sample
    clip, 12.1 s): its first piece heads where it goes on, so it is the launch, and the
    rebound stays a break of its own."""
    t = np.array([12.067, 12.133, 12.167, 12.2, 12.233])
    p = np.array([[-105.5, 139.5], [-94.5, 148.8], [-87.2, 156.9], [-89.5, 159.9],
                  [-90.5, 162.8]])
    motion = fit_motion("moons", t, p, (-105.5, 139.5), (-90.5, 162.8), DECEL)
    assert len(motion.breaks()) == 1
    assert 12.133 < motion.breaks()[0] < 12.2  # (the hit: 12.167)


def test_a_coin_hidden_at_its_launch_and_seen_far_on_is_one_slide_from_its_rest() -> None:
    """Fast flick, look 108: Suns seen at rest at 1.867 s, hidden by the hand in its launch
    frame (1.9 s), then 99 mm on.  The frame at rest is the anchored slide's (it holds its
    place until it starts), not a piece of the partition's: a quadratic through it and the
    slide's frames fits neither, and the flick was cut into a slow piece up to its first
    streak and the slide after it, its start 28 ms early."""
    true = Slide(1.9, (-209.5, 0.0), (3000.0, 0.0), DECEL, 9.0)
    t = np.concatenate([[1.8667], 1.9333 + np.arange(7) / 30.0])
    p = np.array([true.position(ti) for ti in t])
    motion = fit_motion("suns", t, p, (-209.5, 0.0), None, DECEL)
    assert len(motion.slides) == 1
    assert motion.t_start == pytest.approx(1.9, abs=0.002)


@pytest.mark.parametrize(("frames", "end"), [
    ([(37.5, -251.7), (38.3, -259.0), (42.2, -264.1), (43.8, -266.1), (44.2, -266.5),
      (44.2, -266.6), (44.3, -266.5)], (44.2, -266.5)),  # look 289
    ([(38.2, -251.2), (38.4, -259.1), (42.2, -263.9), (44.1, -266.3), (44.1, -266.5),
      (44.1, -266.6), (44.1, -266.6)], (44.1, -266.6)),  # look 168
])
def test_a_coin_first_seen_once_before_it_struck_a_tower_was_struck_after_that_frame(
        frames: list[tuple[float, float]], end: tuple[float, float]) -> None:
    """Tower hit at looks 289 and 168: Moons, flicked under the fingers at 4.6 s toward
    tower 1, seen first 2.6 mm short of it (4.733 s), then coming off it (the hit at 4.743
    s).  Fitted as one slide from its resting place it bent 5.5 mm RMS: the hit was lost and
    it "settled" 3.9 mm from where it rests.  The one frame before the impact and the slide
    after, run back to its line, give the impact and the launch (at the pipeline's noise
    for blurred centres, 0.8 mm)."""
    t = 4.7333 + np.arange(len(frames)) / 30.0
    motion = fit_motion("moons", t, np.array(frames), (100.0, -199.5), end, DECEL, 0.8)
    assert motion.breaks() == [pytest.approx(4.7427, abs=0.002)]
    assert motion.t_start == pytest.approx(4.6, abs=0.012)
    assert np.hypot(*(motion.position(9.0) - np.asarray(end))) < 0.5
    # Seen on its way only: one slide from its rest (`test_a_coin_hidden_at_its_launch...`).
    way = fit_motion("moons", t[:1], np.array(frames[:1]), (100.0, -199.5), None, DECEL, 0.8)
    assert len(way.slides) == 1


def test_a_coin_first_seen_coming_off_a_tower_hit_it_unseen() -> None:
    """Tower hit at look 545: Moons, flicked under the fingers at 4.6 s toward tower 1, is
    first seen coming off its east face 3 mm away (the hit at 4.743 s, no frame before it).
    Fitted as one slide from its resting place it bent 3.7 mm RMS and the hit was lost.
    That slide, run back, meets the tower's face, and the bounce's law, run back through
    it, points at the resting place: the way there and the hit, a frame before the first
    sighting, are the slide before.  With no piece behind it, it stays one slide."""
    layout = castle_croquetnole_layout()
    t = 4.7667 + np.arange(6) / 30.0
    frames = np.array([(37.7, -259.2), (42.1, -263.9), (44.2, -266.7), (44.2, -266.9),
                       (44.2, -266.9), (44.2, -267.0)])
    start, end = (100.7, -200.1), (44.2, -267.0)
    motion = fit_motion("moons", t, frames, start, end, DECEL, 0.8, rested_until=4.5667,
                        obstacle=piece_obstacle(layout))
    assert motion.breaks() == [pytest.approx(4.743, abs=0.01)]
    hit = motion.position(motion.breaks()[0])
    assert hit[0] == pytest.approx(25.4 + layout.coin_mm / 2, abs=0.2)  # on the east face
    assert motion.t_start == pytest.approx(4.6, abs=0.02)
    window = FlickWindow({"moons": motion}, {}, 1 / 30)
    hits = [e for e in reconstruct(window, layout) if e.type == "hit"]
    assert [(e.piece, e.confidence) for e in hits] == [("tower-1", INFERRED_CONFIDENCE)]
    alone = fit_motion("moons", t, frames, start, end, DECEL, 0.8, rested_until=4.5667,
                       obstacle=lambda centre, direction, reach: None)
    assert len(alone.slides) == 1


def test_a_coin_first_seen_coming_back_is_not_split_into_a_launch_faster_than_any_flick(
        ) -> None:
    """Strike at look 177: cream Moons on beige cloth, unseen along its whole slide, first
    seen coming back off Crowns.  Its next frames meet the line from its resting place a
    few millimetres beyond that frame, a fraction of a frame on: a slide through both would
    have left rest at 17 m/s.  No flick is that fast (MAX_SPEED_MM_S): no break there."""
    t = 2.2 + np.arange(5) / 30.0
    p = np.array([[-0.7, 191.3], [-1.6, 186.5], [-0.8, 174.7], [-1.9, 164.6], [-1.6, 160.1]])
    assert _struck_after_first(t, p, 4, (0.58, -210.77), DECEL, 0.8) is None


@pytest.mark.parametrize(("rested_until", "breaks"), [(4.55, 1), (4.65, 0)])
def test_no_impact_is_put_after_a_first_frame_that_would_start_it_before_it_left_rest(
        rested_until: float, breaks: int) -> None:
    """Fast flick at look 245: Suns, first seen coming back off Arms, took the slide from its
    resting place through that frame for the one before an impact, and "left" 0.18 s
    before it was last seen at rest.  A coin leaves rest only after it was last seen there."""
    frames = [(37.5, -251.7), (38.3, -259.0), (42.2, -264.1), (43.8, -266.1), (44.2, -266.5),
              (44.2, -266.6), (44.3, -266.5)]
    t = 4.7333 + np.arange(len(frames)) / 30.0
    motion = fit_motion("moons", t, np.array(frames), (100.0, -199.5), (44.2, -266.5), DECEL,
                        0.8, rested_until=rested_until)
    assert len(motion.breaks()) == breaks


def test_a_launch_frame_read_off_its_line_is_no_impact_after_it() -> None:
    """Strike at look 301: Moons' first frame, its launch blurred with the fingertip, read
    3.4 mm off the line of the frames after; without it they fit one slide far better, but
    the "impact" would turn the coin by 4 degrees (the flick put 0.11 s early).  An impact
    right after the first frame turns it by more than 20 degrees."""
    t = 1.9333 + np.arange(6) / 30.0
    p = np.array([[3.4, -153.2], [0.4, -98.2], [0.4, -45.6], [-0.1, 2.5], [-0.5, 48.3],
                  [-0.3, 90.6]])
    assert _struck_after_first(t, p, len(t), (-0.49, -209.8), DECEL, 0.8) is None


@pytest.mark.parametrize("frames", [1, 3])
def test_a_coin_seen_only_about_an_impact_left_rest_no_sooner_than_last_seen_there(
        frames: int) -> None:
    """Fast flick at look 245: Suns, flicked unseen at 1.9 s, seen once 376 mm on just
    before it struck Arms, then coming back.  One frame fits a slide from rest for any
    start time: the fit kept the coin at rest through it (speed 0, 377 mm off); with the
    frames after the impact, it "started" 0.5 s after them (368 mm RMS).  A coin leaves
    rest after it was last seen there (`rested_until`) and before the first frame that saw
    it gone."""
    t = 2.0333 + np.arange(frames) / 30.0
    p = np.array([[166.8, 1.1], [174.1, 4.3], [132.3, 11.9]][:frames])
    motion = fit_motion("suns", t, p, (-209.8, 0.1), None, DECEL, 0.8, rested_until=1.9)
    assert 1.9 <= motion.t_start <= 1.9 + 1e-3
    if frames == 1:
        assert np.hypot(*(motion.position(t[0]) - p[0])) < 0.1


def test_a_first_frame_read_a_little_off_rest_is_not_where_the_coin_was_seen_gone() -> None:
    """Capture at look 300: Moons, struck by guard 2 at 12.099 s, read 2.0 mm off its rest
    at 12.1 s (the striker's blob merged into it).  Taken for the first frame that saw it
    gone, it bounded the start before the fit's own (12.104 s): refitted between that and
    when it was last seen at rest (11.867 s), the strike was lost and Moons read as flicked
    out of turn.  A coin is seen gone only farther than a fingertip drags its blob."""
    t = 12.1 + np.arange(6) / 30.0
    p = np.array([[-103.66, 139.07], [-95.58, 149.73], [-85.57, 157.24], [-88.22, 160.66],
                  [-88.63, 160.39], [-88.29, 160.61]])
    motion = fit_motion("moons", t, p, (-105.44, 140.45), (-88.46, 160.50), DECEL, 0.8,
                        rested_until=11.8667)
    assert motion.t_start == pytest.approx(12.104, abs=0.003)
    assert motion.breaks() == [pytest.approx(12.167, abs=0.003)]
