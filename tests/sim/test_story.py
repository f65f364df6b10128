"""The demo game's story: steered beats that make every moment happen, checked by the engine."""

from __future__ import annotations

import pytest

from referee.cli import main
from referee.commands.simulate import build_session
from referee.rules.base import Ruling
from referee.sim.scenarios import SCENARIOS, scenario
from referee.sim.script import Scenario, play
from referee.sim.story import MOMENTS, check_story, count_moments, moment_of


@pytest.mark.parametrize("seed", [0, 3, 8])
def test_the_demo_game_shows_every_moment_and_ends_in_a_win(seed: int) -> None:
    session = build_session("demo-game", seed)  # check_story runs inside: it would raise
    rulings = check_story(session.events, session.timeline.duration)
    counts = count_moments(rulings)
    assert set(counts) == set(MOMENTS) and min(counts.values()) >= 1
    kinds = [r.kind for r in rulings]
    assert kinds[-1] == "win" and "rescue" in kinds
    # the story's order: captured, rescued (released), then a strike and a fall
    first = {name: next(r.t for r in rulings if moment_of(r) == name) for name in MOMENTS}
    assert first["score"] < first["capture"] < first["release"] < first["strike"] \
        < first["off_table"]
    assert 60.0 <= session.timeline.duration <= 120.0


def test_the_story_holds_for_seeds_0_to_5() -> None:
    """Steering, not luck: the beats' aims leave room for the players' errors."""
    for seed in range(6):
        play(scenario("demo-game"), seed)  # raises if the story did not happen


def test_a_session_without_the_moments_fails_loudly() -> None:
    session = build_session("gate-run", 1)
    with pytest.raises(ValueError, match="no capture") as info:
        check_story(session.events, session.timeline.duration)
    assert "no strike" in str(info.value) and "not won" in str(info.value)
    assert "lasted" in str(info.value)


def test_a_failed_verification_stops_the_command(capsys: pytest.CaptureFixture[str],
                                                 monkeypatch: pytest.MonkeyPatch,
                                                 tmp_path) -> None:
    def refuse(_session: object) -> None:
        raise ValueError("the story did not happen")

    with pytest.raises(ValueError, match="did not happen"):
        play(Scenario("x", "", (), verify=refuse), 0)
    monkeypatch.setitem(SCENARIOS, "refused", lambda: Scenario("refused", "", (), verify=refuse))
    assert main(["simulate", "--scenario", "refused", "--out", str(tmp_path)]) == 2
    assert "did not happen" in capsys.readouterr().err
    assert not (tmp_path / "events.jsonl").exists()


def test_moments_are_read_from_rulings() -> None:
    def ruling(kind: str, clause: str, bonus: int | None = None) -> Ruling:
        return Ruling(0.0, kind, clause, "", bonus=bonus)

    assert moment_of(ruling("bonus", "CCN-40", 2)) == "strike"
    assert moment_of(ruling("bonus", "CCN-40", 0)) is None  # a strike that paid nothing
    assert moment_of(ruling("place", "CCN-50")) == "off_table"
    assert moment_of(ruling("foul", "CCN-49")) == "off_table"
    assert moment_of(ruling("capture", "CCN-28")) == "capture"
    assert moment_of(ruling("turn", "CCN-12")) is None
