"""A strike on frames rendered by the simulator at 60 fps: the striker and the struck coin keep
their names, and every event of the strike is found.

The clip is the `fast-flick` scenario (Suns at 3 m/s through four lines into Arms, which hits
tower 4 and rebounds into Suns) at 720p60 under the look the benchmark uses for it (110). Its
strike once swapped the two coins (the striker was gated where its speed would carry it,
through Arms): `Tracker._stops`.
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
from referee.vision.pipeline import Pipeline

LAYOUT = castle_croquetnole_layout()
FPS = 60.0
KINDS = ("flick", "cross", "contact", "hit")


def key(e) -> tuple:
    return (e.type, getattr(e, "coin", None) or getattr(e, "a", None),
            getattr(e, "line", None) or getattr(e, "piece", None) or getattr(e, "b", None))


@pytest.fixture(scope="module")
def analysed():
    """The truth, the events found, and each frame's greatest distance of a coin the tracker
    names from where that coin is."""
    session = play(scenario("fast-flick"), seed=1)
    renderer = Renderer(LAYOUT, Look.random(110), (1280, 720), FPS)
    pipeline = Pipeline(mapping_from_camera(renderer.camera), LAYOUT, (1280, 720), FPS)
    got, off_mm = [], []
    for i, image in enumerate(renderer.frames(session.timeline)):
        got += pipeline.process(Frame(i, i / FPS, image))
        assert pipeline.tracker is not None
        truth = {c.coin: c.center_mm for c in session.timeline.at(i / FPS).coins}
        off_mm.append(max(math.dist(pipeline.tracker.tracks[c].position_mm, truth[c])
                          for c in ("suns", "arms")))
    got += pipeline.finish(i / FPS)
    return session, got, off_mm


def test_every_event_of_the_strike_is_found_on_time(analysed) -> None:
    session, got, _ = analysed
    truth = sorted((e for e in session.events if e.type in KINDS), key=lambda e: e.t)
    seen = sorted((e for e in got if e.type in KINDS), key=lambda e: e.t)
    assert [key(e) for e in seen] == [key(e) for e in truth]
    for true, found in zip(truth, seen, strict=True):
        assert abs(true.t - found.t) < 0.015, (true, found)


def test_the_striker_and_the_struck_coin_keep_their_names_through_the_strike(
        analysed) -> None:
    _, _, off_mm = analysed
    assert max(off_mm) < 10.0  # never the other coin (they part by 20 mm and more)


def test_the_striker_and_the_struck_coin_end_where_they_came_to_rest(analysed) -> None:
    session, got, _ = analysed
    truth = [e for e in session.events if e.type == "settled"][-1].positions
    seen = [e for e in got if e.type == "settled"][-1].positions
    for coin in ("suns", "arms"):
        assert math.dist(seen[coin], truth[coin]) < 1.5, coin
