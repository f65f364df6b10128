"""A slide no frame showed, timed by the faint trace it left (`referee.vision.trace`).

Synthetic frames with known answers: a dark coin sliding over cloth of nearly its shade,
blurred over half a frame's exposure, changing each pixel it crosses by less than a third of
detection's threshold; then the same on frames rendered by the simulator (strike at look
415: near-black Moons on near-black cloth, unseen from its flick until it rests).
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from referee.layout import castle_croquetnole_layout
from referee.sim.look import Look
from referee.sim.render import Renderer
from referee.sim.scenarios import scenario
from referee.sim.script import play
from referee.vision.calibrated import mapping_from_camera
from referee.vision.capture import Frame
from referee.vision.hand_history import CELL_PX
from referee.vision.pipeline import Pipeline
from referee.vision.reconstruct import UNSEEN_CONFIDENCE, FlickWindow
from referee.vision.trace import RecentFrame, RecentFrames, trace_slide
from referee.vision.trajectory import Motion, Slide
from tests.vision.test_detect import SIZE, mapping

COIN_MM = 25.4
DECEL = 0.30 * 9806.65
FPS = 30.0
EXPOSURE_S = 1.0 / 60.0
FROM_MM, TO_MM = (0.0, 0.0), (400.0, 0.0)
T0, V0 = 0.1123, 1800.0
"""The true slide: it would run 551 mm, so a coin struck at 400 mm stopped it there."""
SHAPE = (200, 600)
"""Half-resolution frames: one half pixel a millimetre, x from -100 to 500 mm."""


def to_px(mm: np.ndarray) -> np.ndarray:
    """Table mm → the region's camera pixels (two a millimetre)."""
    return (np.asarray(mm, float) + np.array([100.0, 100.0])) * 2.0


def along(t: float) -> float:
    """Where the true coin's centre is along the path at time t (mm)."""
    dt = max(0.0, t - T0)
    t_hit = (V0 - math.sqrt(V0 * V0 - 2.0 * DECEL * TO_MM[0])) / DECEL
    dt = min(dt, t_hit)
    return V0 * dt - 0.5 * DECEL * dt * dt


def frames(noise: float = 3.0, coin: bool = True, seed: int = 0,
           half_mm=lambda xs, ys: (xs + 0.25 - 100.0, ys + 0.25 - 100.0),
           shape: tuple[int, int] = SHAPE, start: tuple[float, float] = FROM_MM
           ) -> list[RecentFrame]:
    """Frames 0-20 at 30 fps: cloth (40, 42, 38) with sensor noise, and the coin 8 levels
    darker in each channel, averaged over its exposure, sliding from `start` along +x.
    `half_mm`: a half-resolution pixel's centre (columns, rows) on the table, mm."""
    rng = np.random.default_rng(seed)
    ys, xs = np.mgrid[0:shape[0], 0:shape[1]]
    x_mm, y_mm = half_mm(xs, ys)
    out = []
    for k in range(21):
        t = k / FPS
        cover = np.zeros(shape)
        if coin:
            for f in np.linspace(-0.5, 0.5, 9):
                cx = start[0] + along(t + f * EXPOSURE_S)
                cover += np.hypot(x_mm - cx, y_mm - start[1]) <= COIN_MM / 2.0
            cover /= 9.0
        image = np.array([40.0, 42.0, 38.0]) - 8.0 * cover[..., None]
        image = image + rng.normal(0.0, noise, image.shape)
        out.append(RecentFrame(t, np.clip(np.rint(image), 0, 255).astype(np.uint8), None))
    return out


def traced(kept: list[RecentFrame]):
    return trace_slide(kept, to_px, CELL_PX, FROM_MM, TO_MM, COIN_MM, DECEL, FPS,
                       (kept[0].t, kept[-1].t))


def test_a_slide_too_faint_for_any_pixel_is_timed_by_its_trace() -> None:
    found = traced(frames())
    assert found is not None
    assert abs(found.t0 - T0) < 0.004
    assert abs(found.v0_mm_s - V0) < 0.03 * V0
    assert found.frames >= 5
    # Where it crossed a line 200 mm on: within 3 ms.
    def at_200_mm(t0: float, v0: float) -> float:
        return t0 + (v0 - math.sqrt(v0 * v0 - 2.0 * DECEL * 200.0)) / DECEL

    assert abs(at_200_mm(found.t0, found.v0_mm_s) - at_200_mm(T0, V0)) < 0.003
    assert found.spread_s < 0.01


def test_noise_alone_times_no_slide() -> None:
    for seed in range(3):
        assert traced(frames(coin=False, seed=seed)) is None


def test_a_hand_over_the_path_is_left_out() -> None:
    """A hand (bright, large) over the path ahead of the coin for four frames, where no coin
    was: its change is left out where the hand cells mark it (and a frame a hand covers
    wholly gives nothing, with no warning)."""
    kept = frames()
    grid = (SHAPE[0] * 2 // CELL_PX, SHAPE[1] * 2 // CELL_PX)
    ys, xs = np.mgrid[0:SHAPE[0], 0:SHAPE[1]]
    over = np.hypot(xs + 0.25 - 100.0 - 300.0, ys + 0.25 - 100.0) <= 60.0
    for k in range(1, 5):
        image = kept[k].image.copy()
        image[over] = (150, 160, 170)
        hands = np.zeros(grid, bool)
        hands[over[::CELL_PX // 2, ::CELL_PX // 2][:grid[0], :grid[1]]] = True
        kept[k] = RecentFrame(kept[k].t, image, hands)
    # and one frame a hand covers all over: nothing of it is read
    kept[0] = RecentFrame(kept[0].t, kept[0].image, np.ones(grid, bool))
    found = traced(kept)
    assert found is not None
    assert abs(found.t0 - T0) < 0.004


def test_the_frames_kept_are_the_last_seconds() -> None:
    ring = RecentFrames(0.5, 10.0)
    image = np.zeros((2, 2, 3), np.uint8)
    for k in range(12):
        ring.add(k / 10.0, image, None)
    assert [f.t for f in ring.between(0.0, 2.0)] == [0.7, 0.8, 0.9, 1.0, 1.1]
    assert [f.t for f in ring.between(0.75, 0.95)] == [0.8, 0.9]


LAYOUT = castle_croquetnole_layout()


def _with_frames() -> Pipeline:
    """A pipeline whose kept frames show the synthetic slide, from (-200, -100) along +x."""
    pipe = Pipeline(mapping(), LAYOUT, SIZE, FPS)
    h, w = pipe.detector.table_mask.shape
    x0, y0 = pipe.detector.roi[:2]

    def half_mm(xs, ys):
        full = np.stack([2.0 * xs + 0.5 + x0, 2.0 * ys + 0.5 + y0], axis=-1)
        mm = pipe.detector.mapping.to_table_mm(full.reshape(-1, 2)).reshape(full.shape)
        return mm[..., 0], mm[..., 1]

    for f in frames(half_mm=half_mm, shape=(h // 2, w // 2), start=(-200.0, -100.0)):
        pipe.recent.add(f.t, f.image, None)
    return pipe


def _drawn(slides: int) -> FlickWindow:
    """Moons' motion as a window draws it where no frame saw its launch: from rest at
    (-200, -100), 50 ms late, to the contact 400 mm on, 60 ms late; then (`slides` 2) back
    off what it struck, first seen then."""
    start, end = (-200.0, -100.0), (200.0, -100.0)
    t_hit = T0 + (V0 - math.sqrt(V0 * V0 - 2.0 * DECEL * 400.0)) / DECEL
    t0, t1 = T0 + 0.05, t_hit + 0.06
    speed = 400.0 / (t1 - t0) + 0.5 * DECEL * (t1 - t0)
    launch = Slide(t0, start, (speed, 0.0), DECEL, t1)
    back = Slide(t1, end, (-300.0, 0.0), DECEL, t1 + 0.1)
    motion = Motion("moons", [launch, back][:slides], start, (185.0, -100.0) if slides == 2
                    else None, seen_from=t1)
    return FlickWindow({"moons": motion}, {}, 1.0 / FPS)


def test_a_launch_no_frame_saw_drawn_to_a_contact_is_timed_by_its_trace() -> None:
    traced: dict = {}
    window = _with_frames()._retimed(_drawn(2), traced)
    launch, rest, back = window.motions["moons"].slides
    assert abs(launch.t0 - T0) < 0.004
    t_hit = T0 + (V0 - math.sqrt(V0 * V0 - 2.0 * DECEL * 400.0)) / DECEL
    assert abs(launch.t_end - t_hit) < 0.004 and rest.speed0 == 0.0
    assert rest.t_end == back.t0  # at rest where it struck until it came back
    assert "moons" in traced


def test_a_launch_drawn_to_where_it_was_seen_sliding_on_is_left_as_drawn() -> None:
    """With no slide after it, the sighting at its end times it (off-table at look 203)."""
    traced: dict = {}
    drawn = _drawn(1)
    assert _with_frames()._retimed(drawn, traced).motions == drawn.motions
    assert not traced


@pytest.fixture(scope="module")
def strike_415():
    """The strike scenario at 720p30 under look 415 (the benchmark's): the truth and the
    events found."""
    session = play(scenario("strike"), seed=1)
    renderer = Renderer(LAYOUT, Look.random(415), (1280, 720), FPS)
    pipeline = Pipeline(mapping_from_camera(renderer.camera), LAYOUT, (1280, 720), FPS)
    got = []
    for i, image in enumerate(renderer.frames(session.timeline)):
        got += pipeline.process(Frame(i, i / FPS, image))
    got += pipeline.finish(i / FPS)
    return session, got


def test_a_near_black_coin_unseen_all_along_its_slide_has_its_crossings_on_time(
        strike_415) -> None:
    """Moons, flicked at 1.8 m/s through four gates, is seen again only as it comes back
    off Crowns: its launch was drawn from the last frame that showed it at rest, its flick
    56 ms late and its crossings 58-84 ms late; timed by its trace, each is within 10 ms, as
    sure as a drawn slide, with the trace's evidence."""
    session, got = strike_415
    kinds = ("flick", "cross")
    truth = [e for e in session.events if e.type in kinds and e.coin == "moons"]
    found = [e for e in got if e.type in kinds and e.coin == "moons"]
    assert [(e.type, getattr(e, "line", None)) for e in found] == \
        [(e.type, getattr(e, "line", None)) for e in truth]
    for true, seen in zip(truth, found, strict=True):
        assert abs(seen.t - true.t) < 0.010, (true, seen)
        assert seen.confidence == UNSEEN_CONFIDENCE and seen.evidence["trace_frames"] >= 3


def test_its_strike_and_what_followed_are_found_on_time(strike_415) -> None:
    """Its strike on Crowns, Crowns' hit on tower 3 and Crowns' contact back on it: each
    within 25 ms (the drawn launch put them 94-106 ms late)."""
    session, got = strike_415
    kinds = ("contact", "hit")
    truth = [e for e in session.events if e.type in kinds]
    found = [e for e in got if e.type in kinds]
    assert [(e.type, e.to_json().get("a", e.to_json().get("coin"))) for e in found] == \
        [(e.type, e.to_json().get("a", e.to_json().get("coin"))) for e in truth]
    for true, seen in zip(truth, found, strict=True):
        assert abs(seen.t - true.t) < 0.025, (true, seen)


def test_a_frame_no_slide_puts_on_the_path_adds_no_evidence() -> None:
    """`_scored` over the frames that can see a slide is the same, to the last bit, with
    frames before every start and after every stop added among them (they are skipped)."""
    from types import SimpleNamespace

    from referee.vision.trace import _scored

    rng = np.random.default_rng(4)
    s = np.arange(-38.0, 241.0, 1.0)
    times = [0.5, 0.52, *(1.0 + k / 30.0 for k in range(12)), 3.0]
    sums = np.concatenate([np.zeros((len(times), 1)),
                           np.cumsum(rng.normal(size=(len(times), len(s))), axis=1)], axis=1)
    T0, V0 = np.meshgrid(np.arange(0.95, 1.1, 0.005), np.arange(900.0, 2000.0, 40.0),
                         indexing="ij")
    frames = [SimpleNamespace(t=t) for t in times]
    seeing = [k for k, t in enumerate(times) if 0.6 < t < 2.0]
    for exposure_s in (0.25 / 30, 1.0 / 30):
        every = _scored(frames, sums, s, T0, V0, 38.1, 240.0, 2942.0, exposure_s)
        only = _scored([frames[k] for k in seeing], sums[seeing], s, T0, V0, 38.1, 240.0,
                       2942.0, exposure_s)
        assert np.array_equal(every[0], only[0]) and np.array_equal(every[1], only[1])
        assert np.abs(every[0]).max() > 1.0  # (the seeing frames were scored)
