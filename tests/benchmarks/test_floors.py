"""The reduced benchmark (one short clip, one look) against the committed floors.

Fails when a figure falls below its floor, and when one beats its floor by a wide margin
(the floor should then be raised: `python -m benchmarks --quick --update-floors`).
"""

from __future__ import annotations

import json

import pytest

from benchmarks import floors as fl
from benchmarks.__main__ import QUICK, build
from benchmarks.report import flat


@pytest.fixture(scope="module")
def figures(tmp_path_factory: pytest.TempPathFactory) -> dict[str, float]:
    tmp = tmp_path_factory.mktemp("bench")
    report, _ = build(QUICK, tmp / "cache", tmp / "report", "python -m benchmarks --quick",
                      log=lambda *_: None)
    assert (tmp / "report" / "report.md").is_file() and (tmp / "report" / "fps.png").is_file()
    return flat(report)


def test_quick_figures_are_at_or_above_their_floors(figures: dict[str, float]) -> None:
    verdict = fl.check(figures, "quick")
    assert fl.load()["quick"], "benchmarks/floors.json has no quick floors"
    assert not verdict.missing, "\n".join(verdict.missing)
    assert not verdict.below, "\n".join(verdict.below)


def test_quick_floors_are_not_far_below_what_is_measured(figures: dict[str, float]) -> None:
    verdict = fl.check(figures, "quick")
    assert not verdict.raise_, ("raise the floor (python -m benchmarks --quick --update-floors):\n"
                                + "\n".join(verdict.raise_))


def test_update_raises_floors_and_refuses_to_lower_them(tmp_path) -> None:
    path = tmp_path / "floors.json"
    name = "720p30.identity.ours.idf1"
    changed, refused = fl.update({name: 0.90}, "quick", ["720p30"], path)
    assert changed == {name: (None, 0.898)} and not refused
    changed, refused = fl.update({name: 0.80}, "quick", ["720p30"], path)
    assert not changed and refused
    assert json.loads(path.read_text())["quick"][name]["floor"] == 0.898
    changed, refused = fl.update({name: 0.899}, "quick", ["720p30"], path)
    assert not changed and not refused  # still meets it, within the tolerance: it stays
    fl.update({name: 0.95}, "quick", ["720p30"], path)
    data = json.loads(path.read_text())
    assert data["quick"][name]["floor"] == 0.948 and len(data["history"]) == 2


def test_a_floor_is_lowered_only_with_a_reason_kept_in_the_history(tmp_path) -> None:
    path = tmp_path / "floors.json"
    name = "720p30.identity.ours.idf1"
    fl.update({name: 0.95}, "quick", ["720p30"], path)
    changed, refused = fl.update({name: 0.90}, "quick", ["720p30"], path,
                                 lower_because="a new clip with a harder look")
    assert changed == {name: (0.948, 0.898)} and not refused
    data = json.loads(path.read_text())
    assert data["quick"][name]["floor"] == 0.898
    assert data["history"][-1]["lowered_because"] == "a new clip with a harder look"


def test_a_reason_lowers_only_the_floors_that_were_missed(tmp_path) -> None:
    path = tmp_path / "floors.json"
    missed, met = "720p30.identity.ours.idf1", "720p30.identity.ours.mota"
    fl.update({missed: 0.95, met: 0.95}, "quick", ["720p30"], path)
    changed, _ = fl.update({missed: 0.90, met: 0.949}, "quick", ["720p30"], path,
                           lower_because="a harder look")
    assert changed == {missed: (0.948, 0.898)}
    assert json.loads(path.read_text())["quick"][met]["floor"] == 0.948


def test_check_sees_a_fall_a_wide_beat_and_a_ceiling(tmp_path) -> None:
    path = tmp_path / "floors.json"
    fl.update({"g.identity.ours.idf1": 0.9, "g.position.rest_rms_mm": 2.0}, "quick", ["g"], path)
    assert fl.check({"g.identity.ours.idf1": 0.89, "g.position.rest_rms_mm": 2.0},
                    "quick", path).below
    assert fl.check({"g.identity.ours.idf1": 0.9, "g.position.rest_rms_mm": 2.5},
                    "quick", path).below
    wide = fl.check({"g.identity.ours.idf1": 0.99, "g.position.rest_rms_mm": 1.0}, "quick", path)
    assert len(wide.raise_) == 2 and wide.ok
    assert fl.check({"g.identity.ours.idf1": 0.9}, "quick", path).missing


def test_event_floors_of_the_full_run_allow_one_event(tmp_path) -> None:
    path = tmp_path / "floors.json"
    figures = {"g.events.ours.cross.recall": 0.75, "g.events.ours.cross.found": 3.0,
               "g.events.ours.cross.true": 4.0, "g.events.ours.cross.invented": 1.0,
               "g.events.ours.cross.precision": 0.75}
    fl.update(figures, "full", ["g"], path, event_slack=True)
    floors = json.loads(path.read_text())["full"]
    assert floors["g.events.ours.cross.recall"]["floor"] == 0.5
    assert floors["g.events.ours.cross.precision"]["floor"] == 0.5
    assert fl.check(figures, "full", path).ok and not fl.check(figures, "full", path).raise_
    assert fl.check(figures | {"g.events.ours.cross.recall": 0.25}, "full", path).below
