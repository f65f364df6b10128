"""Flips read by the pipeline (issue 6): a coin put down showing its other face is a `face`
event, and no other coin's is.

The clip is the `flip` scenario (Moons lifted, turned over, put back on its spot, then flicked
out through door 1 and gate 1) rendered at 720p30 under random looks, with the camera's own
mapping.  The coins' faces are learned from the clip's first frame as `referee calibrate` does
from a still of the session start (`calibration.session_start.learn_session_start`).

Measure the figures of docs/vision.md ("Flips"): looks 0–9, faces learned (or `builtin`),
then false flips on six scenarios without a flip under the first three looks (`--others`):
    .venv/bin/python -m tests.vision.test_flips 0 10 learned --others
"""

from __future__ import annotations

import sys

import numpy as np
import pytest

from calibration.face_reader import CoinFaces
from calibration.intrinsics import Intrinsics
from calibration.plane import TablePlane
from calibration.session_start import learn_session_start
from referee import events as ev
from referee.layout import SUITS, castle_croquetnole_layout
from referee.sim.look import DARK_SUITS, Look
from referee.sim.render import Renderer
from referee.sim.scenarios import scenario
from referee.sim.script import Session, play
from referee.vision.calibrated import mapping_from_camera
from referee.vision.capture import Frame
from referee.vision.pipeline import Pipeline, run

LAYOUT = castle_croquetnole_layout()
SIZE = (1280, 720)
FPS = 30.0


def _pack(look: Look) -> str:
    """The suit inks a player would name to `referee calibrate --suit-colours`."""
    dark = all(np.abs(np.subtract(look.coins.suit_rgb[s], DARK_SUITS[s])).max() < 40
               for s in SUITS)
    return "dark" if dark else "piecepackr"


def analyse(look: int, seed: int = 1, *, faces: str | None = "learned",
            name: str = "flip") -> tuple[Session, list[ev.Event]]:
    """Scenario `name` played with `seed`, rendered under `Look.random(look)`, through the
    pipeline with the faces `learned` at the session start, the `builtin` model, or none."""
    session = play(scenario(name), seed)
    the_look = Look.random(look)
    renderer = Renderer(LAYOUT, the_look, SIZE, FPS)
    cam = renderer.camera
    images = renderer.frames(session.timeline)
    first = next(images)
    reader = None
    if faces == "learned":
        plane = TablePlane(cam.homography_mm_to_px(),
                           Intrinsics(cam.camera_matrix, cam.dist_coeffs.reshape(1, -1),
                                      cam.size))
        models, _note = learn_session_start(first, plane, LAYOUT, _pack(the_look))
        reader = CoinFaces(models, _pack(the_look), LAYOUT.coin_mm)
    elif faces == "builtin":
        reader = CoinFaces(None, _pack(the_look), LAYOUT.coin_mm)
    pipeline = Pipeline(mapping_from_camera(cam), LAYOUT, SIZE, FPS, faces=reader)

    def frames():
        yield Frame(0, 0.0, first)
        for i, image in enumerate(images, start=1):
            yield Frame(i, i / FPS, image)

    return session, list(run(frames(), pipeline))


@pytest.fixture(scope="module")
def flipped():
    return analyse(3)


def test_the_flipped_knight_is_one_face_event(flipped) -> None:
    session, got = flipped
    truth = next(e for e in session.events if isinstance(e, ev.Face))
    faces = [e for e in got if isinstance(e, ev.Face)]
    assert [(e.coin, e.face) for e in faces] == [("moons", "value")]  # its value side
    # seen when the hand has let go of it: after the place, before the flick
    assert truth.t <= faces[0].t < truth.t + 0.8, (faces[0], truth)
    assert faces[0].confidence is not None and faces[0].confidence >= 0.3


def test_no_faces_no_face_events() -> None:
    _, got = analyse(3, faces=None)
    assert not [e for e in got if isinstance(e, ev.Face)]


OTHERS = ("gate-run", "strike", "capture", "tower-hit", "off-table", "touching")
"""Scenarios without a flip: every `face` event on them is a false flip."""


def measure(looks: range, faces: str = "learned", seed: int = 1,
            others: tuple[str, ...] = (), other_looks: range = range(0)
            ) -> dict[str, object]:
    """Over `looks` of the `flip` scenario: flips reported for the flipped coin (and how
    late), false ones (another coin, or the flipped one again); then false flips on
    `others` (scenarios without a flip) under `other_looks`."""
    counts: dict[str, object] = {"faces": faces, "clips": 0, "flip_reported": 0,
                                 "false_flips": 0, "late_s": [], "other_clips": 0,
                                 "other_false_flips": 0}
    for name in ("flip", *others):
        for look in (looks if name == "flip" else other_looks):
            session, got = analyse(look, seed, faces=faces, name=name)
            found = [e for e in got if isinstance(e, ev.Face)]
            truth = [e for e in session.events if isinstance(e, ev.Face)]
            hit = [e for e in found if truth and e.coin == truth[0].coin and e.face != e.coin]
            if name == "flip":
                counts["clips"] += 1
                counts["flip_reported"] += bool(hit)
                counts["false_flips"] += len(found) - min(len(hit), 1)
                if hit:
                    counts["late_s"].append(round(hit[0].t - truth[0].t, 2))
            else:
                counts["other_clips"] += 1
                counts["other_false_flips"] += len(found)
            print(f"{name} look {look}: " + (", ".join(
                f"{e.coin}→{e.face} at {e.t:.2f} s (conf {e.confidence})" for e in found)
                or "no face event"), flush=True)
    return counts


if __name__ == "__main__":
    lo, hi = (int(a) for a in sys.argv[1:3]) if len(sys.argv) > 2 else (0, 10)
    mode = sys.argv[3] if len(sys.argv) > 3 else "learned"
    print(measure(range(lo, hi), mode, others=OTHERS if "--others" in sys.argv else (),
                  other_looks=range(lo, min(hi, lo + 3))))
