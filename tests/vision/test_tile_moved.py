"""A tile knocked out of its place is reported (`tile_moved`, CONTRACT.md) with how far, and
again when it is put back; the flick and the hand's move around it are read as before.

Clips rendered by the simulator (the `tower-hit` scenario at 720p30, look 104: Moons lifted
onto tower 2 by hand at 1.9-2.6 s, then flicked into tower 1 at 4.6 s) in which a tile jumps
out of its place at a given moment: the frames from then on are rendered from a layout with
that tile moved, while vision keeps the registered one.  The tiles are read as a calibration
of this camera would (`calibration.verify.TileCheck`)."""

from __future__ import annotations

import dataclasses

import pytest

from calibration.accuracy import TABLE_MM, pack_of
from calibration.intrinsics import Intrinsics
from calibration.plane import TablePlane
from calibration.verify import TileCheck
from referee.events import Event, TileMoved
from referee.layout import castle_croquetnole_layout
from referee.sim.look import Look
from referee.sim.render import Renderer
from referee.sim.scenarios import scenario
from referee.sim.script import play
from referee.vision.calibrated import mapping_from_camera
from referee.vision.capture import Frame
from referee.vision.pipeline import Pipeline

LAYOUT = castle_croquetnole_layout()
LOOK = Look.random(104)
FPS = 30.0


def key(e: Event) -> tuple:
    return (e.type, getattr(e, "coin", None), getattr(e, "piece", None))


@pytest.fixture(scope="module")
def session():
    return play(scenario("tower-hit"), seed=1)


def analysed(session, piece: str, by_mm: tuple[float, float], out_s: float,
             back_s: float = float("inf")) -> list[Event]:
    """Vision's events on the clip with `piece` moved by `by_mm` from `out_s` to `back_s`."""
    moved = LAYOUT.pieces[piece]
    knocked = dataclasses.replace(LAYOUT, pieces={**LAYOUT.pieces, piece: dataclasses.replace(
        moved, center_mm=(moved.center_mm[0] + by_mm[0], moved.center_mm[1] + by_mm[1]))})
    placed = Renderer(LAYOUT, LOOK, (1280, 720), FPS)
    out = Renderer(knocked, LOOK, (1280, 720), FPS)
    camera = placed.camera
    lens = Intrinsics(camera.camera_matrix, camera.dist_coeffs.reshape(1, -1), camera.size)
    tiles = TileCheck(TablePlane(camera.homography_mm_to_px(), lens), LAYOUT, TABLE_MM,
                      pack_of(LOOK), LOOK.tiles.thickness_mm, camera.center_mm)
    pipeline = Pipeline(mapping_from_camera(camera), LAYOUT, (1280, 720), FPS, tiles=tiles)
    found: list[Event] = []
    count = placed.frame_count(session.timeline)
    for i in range(count):
        renderer = out if out_s <= i / FPS < back_s else placed
        found += pipeline.process(Frame(i, i / FPS, renderer.frame(session.timeline, i)))
    return found + pipeline.finish((count - 1) / FPS)


def test_a_door_knocked_beside_the_hand_is_reported_and_the_play_read_as_before(session):
    """door-2-a jumps 5 mm at 2.0 s, beside tower 2 where the hand is putting Moons down."""
    found = analysed(session, "door-2-a", (3.0, 4.0), out_s=2.0)
    moved = [e for e in found if isinstance(e, TileMoved)]
    assert [e.piece for e in moved] == ["door-2-a"]
    assert moved[0].by_mm == pytest.approx(5.0, abs=0.5)
    assert 2.0 <= moved[0].t <= 3.0
    truth = sorted(key(e) for e in session.events if e.type != "settled")
    assert sorted(key(e) for e in found if e.type not in ("settled", "tile_moved")) == truth


def test_a_post_knocked_and_put_back_is_reported_both_times(session):
    """post-34 moves 2.5 mm at 1.0 s, away from all play, and is back at 3.5 s: the second
    `tile_moved` says it is within 2 mm of its place (the rules then clear it)."""
    found = analysed(session, "post-34", (-2.0, 1.5), out_s=1.0, back_s=3.5)
    moved = [e for e in found if isinstance(e, TileMoved)]
    assert [e.piece for e in moved] == ["post-34", "post-34"]
    assert moved[0].by_mm == pytest.approx(2.5, abs=0.4) and moved[1].by_mm <= 1.0
    assert 1.0 <= moved[0].t <= 2.0 and 3.5 <= moved[1].t <= 4.5
    truth = sorted(key(e) for e in session.events if e.type != "settled")
    assert sorted(key(e) for e in found if e.type not in ("settled", "tile_moved")) == truth
