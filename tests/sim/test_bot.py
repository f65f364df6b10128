"""The bot plays a whole game that the rules engine accepts."""

from __future__ import annotations

from referee.layout import castle_croquetnole_layout
from referee.sim.bot import CroquetnoleBot, segment_polygon_distance
from referee.sim.script import Scenario, play


def test_the_bot_plays_a_game_to_its_end() -> None:
    layout = castle_croquetnole_layout()
    bots: list[CroquetnoleBot] = []

    def make() -> CroquetnoleBot:
        bots.append(CroquetnoleBot(layout))
        return bots[-1]

    session = play(Scenario("bot", "", (), layout, policy=make, max_policy_actions=400), 0)
    (bot,) = bots
    summary = bot.state.summary()
    assert summary["over"] and summary["winner"] in (1, 2, 3, 4)
    kinds = {r.kind for r in bot.rulings}
    assert "win" in kinds and "score" in kinds
    assert not kinds & {"reject", "foul", "illegal"}
    assert session.events[-1].type in ("settled", "place")


def test_the_bot_aims_through_openings() -> None:
    bot = CroquetnoleBot(castle_croquetnole_layout())
    (out,) = bot.goals("out-1")
    assert out.point_mm == (0.0, -50.8 + 28.0)
    assert {g.touches for g in bot.goals("tower-2")} == {"tower-2"}
    square = [(0.0, 0.0), (10.0, 0.0), (10.0, 10.0), (0.0, 10.0)]
    assert segment_polygon_distance((-5.0, 5.0), (15.0, 5.0), square) == 0.0
    assert segment_polygon_distance((-5.0, 15.0), (15.0, 15.0), square) == 5.0
