"""The whole pipeline on frames rendered by the simulator: frames → events, against truth.

The clip is the `gate-run` scenario at 720p30 under one random look; the mapping is the
simulated camera's own (calibration is tested on its own in tests/calibration).  Figures held
(tighten, never loosen): the flicked coin and every crossing found, in order, each within
15 ms; no invented flick, crossing, lift or place; resting coins within 1.5 mm.
"""

from __future__ import annotations

import math

import pytest

from referee.layout import castle_croquetnole_layout
from referee.sim.look import Look
from referee.sim.render import Renderer
from referee.sim.scenarios import scenario
from referee.sim.script import play
from referee.vision.calibrated import mapping_from_camera
from referee.vision.capture import Frame
from referee.vision.pipeline import Pipeline, run, start_spots

LAYOUT = castle_croquetnole_layout()


@pytest.fixture(scope="module")
def analysed():
    session = play(scenario("gate-run"), seed=1)
    renderer = Renderer(LAYOUT, Look.random(3), (1280, 720), 30.0)
    pipeline = Pipeline(mapping_from_camera(renderer.camera), LAYOUT, (1280, 720), 30.0)
    frames = (Frame(i, i / 30.0, image) for i, image in enumerate(renderer.frames(
        session.timeline)))
    return session, list(run(frames, pipeline))


def test_flicks_and_crossings_found_in_order_and_on_time(analysed) -> None:
    session, got = analysed
    truth = [e for e in session.events if e.type in ("flick", "cross")]
    seen = [e for e in got if e.type in ("flick", "cross")]
    assert [(e.type, e.coin, getattr(e, "line", None), getattr(e, "dir", None))
            for e in seen] == [(e.type, e.coin, getattr(e, "line", None),
                                getattr(e, "dir", None)) for e in truth]
    for true, found in zip(truth, seen, strict=True):
        assert abs(true.t - found.t) < 0.015, (true, found)


def test_nothing_invented(analysed) -> None:
    _, got = analysed
    assert not [e for e in got if e.type in ("lift", "place", "contact", "off_table")]


def test_the_session_starts_with_where_each_coin_rests(analysed) -> None:
    """The first event gives the rules vision's own reading of every coin at the start (to
    compare with its readings after each flick), each within 1.5 mm of its spot."""
    _, got = analysed
    first = got[0]
    assert (first.type, first.t) == ("settled", 0.0)
    spots = start_spots(LAYOUT)
    assert first.positions.keys() == spots.keys()
    for coin, p in first.positions.items():
        assert math.dist(p, spots[coin]) < 1.5, coin


def test_resting_positions(analysed) -> None:
    session, got = analysed
    truth = [e for e in session.events if e.type == "settled"][-1].positions
    seen = [e for e in got if e.type == "settled"][-1].positions
    for coin, p in truth.items():
        assert math.dist(seen[coin], p) < 1.5, coin


@pytest.fixture(scope="module")
def struck():
    """A knight flicked through four lines into a resting coin, which hits a tower; the
    flicking finger rests behind the coin first (its tip merges into the coin's blob) and
    the hand then withdraws past a guard."""
    session = play(scenario("strike"), seed=1)
    renderer = Renderer(LAYOUT, Look.random(100), (1280, 720), 30.0)
    pipeline = Pipeline(mapping_from_camera(renderer.camera), LAYOUT, (1280, 720), 30.0)
    frames = (Frame(i, i / 30.0, image) for i, image in enumerate(renderer.frames(
        session.timeline)))
    return session, list(run(frames, pipeline))


def test_a_strike_is_one_flick_on_time_with_its_contact_and_hit(struck) -> None:
    session, got = struck
    for kind in ("flick", "cross", "hit"):
        truth = [e for e in session.events if e.type == kind]
        seen = [e for e in got if e.type == kind]
        assert len(seen) == len(truth), kind
        for true, found in zip(truth, seen, strict=True):
            assert abs(true.t - found.t) < 0.005, (true, found)
    first = next(e for e in session.events if e.type == "contact")
    assert any(e.type == "contact" and {e.a, e.b} == {first.a, first.b}
               and abs(e.t - first.t) < 0.005 for e in got)


def test_no_ghost_where_the_flicked_coin_stood(struck) -> None:
    session, got = struck
    truth = [e for e in session.events if e.type == "settled"][-1].positions
    seen = [e for e in got if e.type == "settled"][-1].positions
    for coin, p in truth.items():
        assert math.dist(seen[coin], p) < 1.5, coin
