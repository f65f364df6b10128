"""Carroll's Castle Croquet, clause by clause: one or more scenarios per CAR-01 … CAR-23.

Written from Carroll's text (shared/rules/carroll-castle-croquet.txt) and RULES-SPEC §3.
Events are CONTRACT.md dicts without `t`; `run` numbers them and folds them from a new game.
Default layout `ccn_hub`: castle 1 south, castles clockwise; soldiers moons/suns/crowns/arms,
sentinels ace/2/3/4.  Turn order: the four soldiers, then the four sentinels (CAR-05).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest

from referee.events import event_from_json
from referee.geometry import dist
from referee.layouts_carroll import build_layout, carroll_spots
from referee.rules.base import make_game

GAME = "carroll-castle-croquet"
S = {1: "moons", 2: "suns", 3: "crowns", 4: "arms"}
G = {1: "ace", 2: "2", 3: "3", 4: "4"}

# ------------------------------------------------------------------ event builders


def flick(coin: str) -> dict[str, Any]:
    return {"type": "flick", "coin": coin}


def cross(coin: str, line: str, direction: str, **kw: Any) -> dict[str, Any]:
    return {"type": "cross", "coin": coin, "line": line, "dir": direction, **kw}


def contact(a: str, b: str, moving: list[str] | None = None) -> dict[str, Any]:
    return {"type": "contact", "a": a, "b": b, "moving": [a] if moving is None else moving}


def hit(coin: str, piece: str) -> dict[str, Any]:
    return {"type": "hit", "coin": coin, "piece": piece}


def settled(positions: dict[str, tuple[float, float]] | None = None) -> dict[str, Any]:
    e: dict[str, Any] = {"type": "settled"}
    if positions:
        e["positions"] = {k: list(v) for k, v in positions.items()}
    return e


def place(coin: str, at: tuple[float, float], on: str | None = None) -> dict[str, Any]:
    e: dict[str, Any] = {"type": "place", "coin": coin, "at": list(at)}
    if on:
        e["on"] = on
    return e


def off_table(coin: str, at: tuple[float, float]) -> dict[str, Any]:
    return {"type": "off_table", "coin": coin, "at": list(at)}


def croquet(player: int, option: int | None = None) -> dict[str, Any]:
    e: dict[str, Any] = {"type": "declare", "player": player, "what": "croquet"}
    if option is not None:
        e["option"] = option
    return e


def pass_(player: int) -> dict[str, Any]:
    return {"type": "declare", "player": player, "what": "end_play"}


def shot(coin: str, *events: Any, positions: dict[str, Any] | None = None) -> list[Any]:
    """One stroke of `coin`: the flick, what happened while it moved, the settle."""
    return [flick(coin), *events, settled(positions)]


def passes(*players: int) -> list[Any]:
    return [pass_(p) for p in players]


def g1_out() -> list[Any]:
    """Round 1: the soldiers pass; sentinel 1 leaves its castle (and so may play again) and
    passes; sentinels 2-4 pass.  Afterwards: round 2, soldier 1 to play; ace off duty."""
    return [passes(1, 2, 3, 4), shot("ace", cross("ace", "gate-1", "-")), passes(1, 2, 3, 4)]


def moons_in_castle_2() -> list[Any]:
    """After g1_out: the Blue soldier comes out and enters castle 2 (safe: its own sentinel is
    off duty).  Afterwards: still soldier 1's turn, 1 stroke, next door-2."""
    return [g1_out(), shot("moons", cross("moons", "gate-1", "-")),
            shot("moons", cross("moons", "gate-2", "+"))]


def moons_captured_in_2() -> list[Any]:
    """The Blue soldier, inside castle 2, touches the Brown sentinel on duty (CAR-09).
    Afterwards: soldier 2's turn (round 2)."""
    return [moons_in_castle_2(), shot("moons", contact("moons", "2"))]


def flatten(parts: Any) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for part in parts:
        if isinstance(part, dict):
            out.append(part)
        else:
            out.extend(flatten(part))
    return out


@dataclass
class Result:
    state: Any
    per_event: list[list[Any]] = field(default_factory=list)

    @property
    def rulings(self) -> list[Any]:
        return [r for rs in self.per_event for r in rs]

    @property
    def summary(self) -> dict[str, Any]:
        return self.state.summary()

    @property
    def turn(self) -> dict[str, Any]:
        return self.summary["turn"]

    def soldier(self, p: int) -> dict[str, Any]:
        return self.summary["players"][str(p)]["soldier"]

    def sentinel(self, p: int) -> dict[str, Any]:
        return self.summary["players"][str(p)]["sentinel"]

    def find(self, kind: str, clause: str | None = None, coin: str | None = None,
             since: int = 0) -> list[Any]:
        return [r for rs in self.per_event[since:] for r in rs
                if r.kind == kind and (clause is None or r.clause == clause)
                and (coin is None or r.coin == coin)]

    @property
    def who(self) -> tuple[int, str, int]:
        """(player, coin, strokes left) of the turn."""
        return (self.turn["player"], self.turn["coin"], self.turn["flicks_left"])


def run(*parts: Any, **options: Any) -> Result:
    events = flatten(parts)
    state = make_game(GAME, options).new_state()
    res = Result(state)
    for n, e in enumerate(events):
        res.per_event.append(state.apply(event_from_json({"t": round(0.1 * (n + 1), 3), **e})))
    return res


def count(*parts: Any) -> int:
    return len(flatten(parts))


def course(player: int) -> list[tuple[str, dict[str, Any]]]:
    """The soldier's course (G-CAR-17) as (item, the event that scores it)."""
    s = S[player]
    items = [(f"out-{player}", cross(s, f"gate-{player}", "-"))]
    c = player
    for _ in range(3):
        c = c % 4 + 1
        items += [(f"in-{c}", cross(s, f"gate-{c}", "+")),
                  (f"door-{c}", cross(s, f"door-{c}", "+")),
                  (f"tower-{c}", hit(s, f"tower-{c}")),
                  (f"out-{c}", cross(s, f"gate-{c}", "-"))]
    return [*items, (f"in-{player}", cross(s, f"gate-{player}", "+")),
            (f"tower-{player}", hit(s, f"tower-{player}"))]


SPOTS = {n: carroll_spots(build_layout("ccn_hub"), n) for n in range(1, 5)}


# ------------------------------------------------------------------ CAR-01 … CAR-04: setup


def test_car_01_equipment_four_soldiers_four_sentinels_and_the_arches() -> None:
    """CAR-01: 8 balls (4 soldiers, 4 sentinels), 8 arches and 4 flags."""
    res = run()
    players = res.summary["players"]
    assert set(players) == {"1", "2", "3", "4"}
    assert [players[str(n)]["soldier"]["coin"] for n in range(1, 5)] == list(S.values())
    assert [players[str(n)]["sentinel"]["coin"] for n in range(1, 5)] == list(G.values())
    hub = build_layout("ccn_hub")
    roles = [p.role for p in hub.pieces.values()]
    assert roles.count("post") == 4 and roles.count("door") == 8 and roles.count("tower") == 4
    open_ = build_layout("carroll_open")
    roles = [p.role for p in open_.pieces.values()]
    assert roles.count("post") == 8 and roles.count("door") == 8 and roles.count("tower") == 4


def test_car_02_each_player_has_a_castle_gate_door_and_flag() -> None:
    """CAR-02: castles 1-4 each of a gate, a door and a flag, numbered clockwise (G-CAR-01)."""
    game = make_game(GAME)
    for n in range(1, 5):
        castle = game.layout.castles[n]
        assert (castle.gate, castle.door, castle.tower) == (f"gate-{n}", f"door-{n}",
                                                           f"tower-{n}")
    # "No. 3 has to invade castles 4, 1, 2"
    assert game.courses[3][1:13:4] == ["in-4", "in-1", "in-2"]


def test_car_03_soldier_just_within_gate_sentinel_half_way_to_door() -> None:
    """CAR-03: start points (§3.4 hub: soldier (0, -62.8), sentinel (0, -101.6)), ± 5 mm."""
    assert SPOTS[1].soldier_start == (0.0, -62.8)
    assert SPOTS[1].sentinel_start == (0.0, -101.6)
    res = run(place("moons", (0.0, -60.0)), place("ace", (3.0, -101.6)),
              place("suns", (-62.8 + 8.0, 0.0)))
    rejects = res.find("reject", "CAR-03")
    assert [r.coin for r in rejects] == ["suns"]
    assert res.soldier(1)["castle"] == 1 and res.sentinel(1)["on_duty"]


def test_car_04_gate_to_gate_longer_than_gate_to_door() -> None:
    """CAR-04: gate to next gate (6-8 yd) about 2-4 times gate to door (2-3 yd).  The open
    layouts keep the spirit (§3.4: 1.8); the compact hub shares its gateposts and does not."""
    ratios = {}
    for kind in ("ccn_hub", "carroll_open", "carroll_five"):
        layout = build_layout(kind)
        s1, s2 = carroll_spots(layout, 1), carroll_spots(layout, 2)
        ratios[kind] = dist(s1.gate_mid, s2.gate_mid) / dist(s1.gate_mid, s1.door_mid)
    assert ratios["carroll_open"] == pytest.approx(179.6 / 101.6, abs=0.01)
    assert ratios["carroll_five"] > 1.8
    assert ratios["ccn_hub"] < 1.0


# ------------------------------------------------------------------ CAR-05 turns


def test_car_05_soldiers_in_order_then_sentinels_then_again() -> None:
    """CAR-05: "The soldiers are played first, in the order given in the figure, then the
    sentinels in the same order, and so on." One stroke each when nothing happens."""
    order = []
    parts: list[Any] = []
    for coin in [*S.values(), *G.values(), "moons"]:
        parts.append(shot(coin))
    res = run(parts)
    for r in res.find("turn", "CAR-05"):
        order.append(r.coin)
    assert order == ["suns", "crowns", "arms", "ace", "2", "3", "4", "moons", "suns"]
    assert res.turn["round"] == 2 and res.who == (2, "suns", 1)


def test_car_05_wrong_ball_is_a_foul_and_goes_back() -> None:
    """CAR-05 with G-CCN-42: a ball out of turn is put back; no stroke is spent."""
    res = run(shot("suns", cross("suns", "gate-2", "-")))
    assert res.find("foul", "CAR-05", coin="suns")
    assert res.soldier(2)["next"] == "out-2"
    assert res.who == (1, "moons", 1)


def test_car_05_a_player_may_pass() -> None:
    """CAR-05 (passing allowed): end_play gives the turn to the next ball."""
    res = run(pass_(1))
    assert res.find("turn", "CAR-05")
    assert res.who == (2, "suns", 1)


# ------------------------------------------------------------------ CAR-06/07 course and win


def test_car_06_full_course_and_the_sentinels_touch_wins() -> None:
    """CAR-06: out of its castle, invade 2, 3, 4, re-enter, touch the flag; then the sentinel
    (which, out of the castle, must re-enter) touches it: player 1 wins."""
    strokes = [shot("moons", event) for _, event in course(1)]
    res = run(g1_out(), strokes)
    assert res.soldier(1)["finished"] and res.soldier(1)["next"] is None
    assert not res.summary["over"]
    res = run(g1_out(), strokes, passes(1, 2, 3, 4),
              shot("ace", cross("ace", "gate-1", "+")), shot("ace", hit("ace", "tower-1")))
    assert res.summary["over"] and res.summary["winner"] == 1
    (win,) = res.find("win", "CAR-06")
    assert win.coin == "ace"


def test_car_06_sentinel_off_duty_touching_the_flag_does_not_win() -> None:
    """CAR-06 / G-CAR-14: the sentinel must re-enter first (be on duty)."""
    strokes = [shot("moons", event) for _, event in course(1)]
    res = run(g1_out(), strokes, passes(1, 2, 3, 4), shot("ace", hit("ace", "tower-1")))
    assert not res.summary["over"]


def test_car_06_sentinel_before_soldier_has_no_effect() -> None:
    """G-CAR-14: the sentinel's touch must come after the soldier's."""
    res = run(passes(1, 2, 3, 4), shot("ace", hit("ace", "tower-1")))
    assert not res.summary["over"]
    assert res.find("score", "G-CAR-14", coin="ace")


def test_car_07_invasion_gate_door_either_way_flag_gate() -> None:
    """CAR-07: enter at the gate, go through the door (either way), touch the flag, come out
    at the gate again; each in its proper course may be played again (CAR-16)."""
    res = run(moons_in_castle_2(), shot("moons", cross("moons", "door-2", "-")),
              shot("moons", hit("moons", "tower-2")), shot("moons", cross("moons", "gate-2", "-")))
    items = [r.extra["item"] for r in res.find("score", coin="moons")]
    assert items == ["out-1", "in-2", "door-2", "tower-2", "out-2"]
    assert res.soldier(1)["next"] == "in-3" and res.soldier(1)["castle"] is None
    assert res.who == (1, "moons", 1)


def test_car_07_flag_before_door_and_flag_from_outside_do_not_count() -> None:
    """CAR-07: items only in order, the flag only from inside the castle."""
    res = run(moons_in_castle_2(), shot("moons", hit("moons", "tower-2")))
    assert res.soldier(1)["next"] == "door-2"
    assert res.who == (2, "suns", 1)  # nothing in its proper course: no further stroke
    res = run(g1_out(), shot("moons", cross("moons", "gate-1", "-")),
              shot("moons", hit("moons", "tower-2")))
    assert res.soldier(1)["next"] == "in-2"


# ------------------------------------------------------------------ CAR-08 gates and duty


def test_car_08_no_ball_enters_except_at_the_gate() -> None:
    """CAR-08: through a door from outside is not an entry; the soldier stays outside."""
    res = run(g1_out(), shot("moons", cross("moons", "gate-1", "-")),
              shot("moons", cross("moons", "door-2", "+")))
    assert res.soldier(1)["castle"] is None and res.soldier(1)["next"] == "in-2"


def test_car_08_entering_another_gate_from_inside_a_castle_is_illegal() -> None:
    """CAR-08 with CCN-51/52 (G-CAR-18): entering gate 3 while still inside castle 2 is void;
    the balls go back and the turn ends."""
    res = run(moons_in_castle_2(), shot("moons", cross("moons", "gate-3", "+")))
    assert res.find("illegal", "CCN-52", coin="moons")
    assert res.soldier(1)["castle"] == 2
    assert res.who == (2, "suns", 1)


def test_car_08_sentinel_on_duty_wherever_he_happen_to_be() -> None:
    """CAR-08: duty changes only through the own gate; wandering elsewhere keeps it on duty."""
    res = run(passes(1, 2, 3, 4), shot("ace", cross("ace", "door-1", "-")))
    assert res.sentinel(1)["on_duty"]
    assert res.who == (2, "2", 1)


# ------------------------------------------------------------------ CAR-09/10 capture


def test_car_09_soldier_and_sentinel_touch_within_the_sentinels_castle() -> None:
    """CAR-09: touching the Brown sentinel (on duty) inside castle 2: prisoner, turn ends."""
    res = run(moons_captured_in_2())
    (cap,) = res.find("capture", "CAR-09", coin="moons")
    assert cap.extra["captor"] == 2
    assert res.soldier(1)["status"] == "prisoner" and res.soldier(1)["prisoner_of"] == 2
    assert res.who == (2, "suns", 1)


def test_car_09_sentinel_playing_takes_a_prisoner_and_plays_again() -> None:
    """CAR-09 + CAR-16 (G-CAR-19): the Brown sentinel, played, touches the invader."""
    res = run(moons_in_castle_2(), pass_(1), passes(2, 3, 4, 1),
              shot("2", contact("2", "moons")))
    assert res.find("capture", "CAR-09", coin="moons")
    assert res.who == (2, "2", 1)


def test_car_09_no_capture_outside_the_castle_or_by_a_sentinel_off_duty() -> None:
    """CAR-09: both must be within the sentinel's castle, and the sentinel on duty."""
    res = run(g1_out(), shot("moons", cross("moons", "gate-1", "-"), contact("moons", "2")))
    assert not res.find("capture")
    # the Green sentinel is off duty: Brown soldier inside castle 1 touching it is safe
    res = run(g1_out(), pass_(1), shot("suns", cross("suns", "gate-2", "-")),
              pass_(2), passes(3, 4), shot("ace", contact("ace", "suns")))
    assert not res.find("capture")


def test_car_10_entering_while_both_sentinels_on_duty() -> None:
    """CAR-10 / G-CAR-11: taken at once on entry; the gate is credited, no further stroke."""
    res = run(shot("moons", cross("moons", "gate-1", "-")),
              shot("moons", cross("moons", "gate-2", "+")))
    assert res.find("capture", "CAR-10", coin="moons")
    score = res.find("score", "G-CAR-11", coin="moons")
    assert score and score[0].bonus == 0
    assert res.soldier(1)["course_done"] == 2
    assert res.who == (2, "suns", 1)


def test_car_10_no_capture_when_own_sentinel_is_off_duty() -> None:
    """CAR-10: "while its sentinel and his own are both on duty"."""
    res = run(moons_in_castle_2())
    assert not res.find("capture")
    assert res.soldier(1)["castle"] == 2


def test_car_10_passive_entry_is_captured_too() -> None:
    """G-CAR-11: a soldier knocked into a castle is taken as well (G-CAR-20)."""
    res = run(shot("moons", cross("moons", "gate-1", "-")), pass_(1), passes(2, 3, 4),
              shot("ace", contact("ace", "moons"), cross("moons", "gate-2", "+")))
    assert res.find("capture", "CAR-10", coin="moons")


# ------------------------------------------------------------------ CAR-11/12 prisoners


def test_car_11_prisoner_is_placed_behind_the_flag() -> None:
    """CAR-11 / G-CAR-03: behind tower 2 on the side away from its door."""
    res = run(moons_captured_in_2())
    (req,) = [r for r in res.find("place", "CAR-11") if r.coin == "moons"]
    spot = SPOTS[2].prisoners[(1 - 2) % 4 - 1]
    assert dist(req.at, spot) < 0.01
    assert dist(SPOTS[2].prisoners[0], (-290.925, 0.0)) < 0.01


def test_car_11_a_displaced_prisoner_is_put_back() -> None:
    """CAR-11: the prisoner is an obstacle; knocked, it is restored (and gives no croquet)."""
    res = run(moons_captured_in_2(), shot("suns", contact("suns", "moons", ["suns", "moons"])))
    assert any(r.coin == "moons" for r in res.find("place", "CAR-11", since=count(
        moons_captured_in_2())))
    assert not res.find("bonus", "CAR-19", coin="suns")


def test_car_12_a_prisoners_turn_is_skipped_and_it_may_not_be_flicked() -> None:
    """CAR-12: "He cannot move till released"."""
    res = run(moons_captured_in_2(), passes(2, 3, 4, 1, 2, 3, 4))
    assert res.find("turn", "CAR-12")
    assert res.who == (2, "suns", 1)
    res = run(moons_captured_in_2(), shot("moons"))
    assert res.find("foul", "CAR-12", coin="moons")
    assert res.who == (2, "suns", 1)


# ------------------------------------------------------------------ CAR-13/14/15 release


def rescue() -> list[Any]:
    """After moons_captured_in_2: the Green sentinel (off duty) re-enters (may play again),
    then on duty touches flag 2."""
    return [moons_captured_in_2(), passes(2, 3, 4),
            shot("ace", cross("ace", "gate-1", "+")), shot("ace", hit("ace", "tower-2"))]


def test_car_13_release_by_own_sentinel_on_duty_touching_the_flag() -> None:
    """CAR-13: "by his own sentinel (on duty) coming and touching the flag"."""
    res = run(rescue())
    assert res.find("rescue", "CAR-13", coin="moons")
    assert res.soldier(1)["status"] == "released"


def test_car_13_no_release_by_a_sentinel_off_duty() -> None:
    res = run(moons_captured_in_2(), passes(2, 3, 4), shot("ace", hit("ace", "tower-2")))
    assert not res.find("rescue")
    assert res.soldier(1)["status"] == "prisoner"


def test_car_13_release_when_the_captors_sentinel_leaves() -> None:
    """CAR-13: "or by the sentinel leaving the castle": every prisoner of castle 2 is free."""
    res = run(moons_captured_in_2(), passes(2, 3, 4, 1),
              shot("2", cross("2", "gate-2", "-")))
    assert res.find("release", "CAR-13", coin="moons")
    assert res.soldier(1)["status"] == "released"
    assert res.who == (2, "2", 1)  # and the sentinel may play again (CAR-16)


def test_car_14_the_rescuer_goes_back_to_its_start() -> None:
    """CAR-14: "his own sentinel is put back where he was at the beginning of the game".
    Touching a flag is no Rule IV event for a sentinel: that stroke earns nothing."""
    res = run(rescue())
    (req,) = res.find("place", "CAR-14", coin="ace")
    assert dist(req.at, SPOTS[1].sentinel_start) < 0.01
    assert res.sentinel(1)["on_duty"]
    assert res.who == (2, "2", 1)


def test_car_14_source_over_spec_a_stroke_earned_before_the_rescue_stands() -> None:
    """CAR-14 (source over spec): Carroll does not end the rescuer's turn.  Re-entering its
    castle in the same stroke (Rule IV) still lets it play again, from its start point."""
    res = run(moons_captured_in_2(), passes(2, 3, 4),
              shot("ace", cross("ace", "gate-1", "+"), hit("ace", "tower-2")))
    assert res.find("rescue", "CAR-13")
    assert res.who == (1, "ace", 1)
    assert res.find("place", "CAR-14", coin="ace")


def test_car_14_occupied_start_point_uses_the_nearest_free_point() -> None:
    """G-CAR-13: the start point is taken by a ball: the nearest free point on the axis."""
    res = run(moons_captured_in_2(), passes(2, 3, 4),
              shot("ace", cross("ace", "gate-1", "+")),
              shot("ace", hit("ace", "tower-2"), positions={"ace": (0.0, -250.0),
                                                            "arms": (0.0, -101.6)}))
    (req,) = res.find("place", "CAR-14", coin="ace")
    assert dist(req.at, (0.0, -101.6)) >= 19.05 - 1e-6
    assert abs(req.at[0]) < 1e-6 and -152.4 < req.at[1] < -50.8


def test_car_15_released_behind_the_door_next_the_flag_immune() -> None:
    """CAR-15 / G-CAR-04: behind door 2, still inside castle 2, next = its flag; immune."""
    res = run(rescue())
    (req,) = res.find("place", "CAR-15", coin="moons")
    assert dist(req.at, SPOTS[2].released[(1 - 2) % 4 - 1]) < 0.01
    assert dist(SPOTS[2].released[0], (-203.2, 0.0)) < 0.01
    soldier = res.soldier(1)
    assert (soldier["castle"], soldier["next"], soldier["immune"]) == (2, "tower-2", True)


def test_car_15_immune_until_after_its_next_turn() -> None:
    """CAR-15: "cannot be again taken prisoner until after his next turn"."""
    # touched by the Brown sentinel before its next turn: safe
    res = run(rescue(), shot("2", contact("2", "moons")))
    assert not res.find("capture", since=count(rescue()))
    assert res.find("score", "CAR-15", coin="moons")
    # its next turn (round 3), then touched again in the sentinel round: taken
    res = run(rescue(), passes(2, 3, 4), pass_(1), passes(2, 3, 4, 1),
              shot("2", contact("2", "moons")))
    assert res.find("capture", "CAR-09", coin="moons", since=count(rescue()))


def test_car_15_no_croquet_off_a_released_prisoner_who_has_not_played() -> None:
    """CAR-19 exception: "a released prisoner who has not played since his release"."""
    res = run(rescue(), shot("2", contact("2", "moons")))
    touches = res.find("bonus", "CAR-19", coin="2")
    assert touches and "released prisoner" in touches[0].text
    assert res.turn["croquet_due"] == []


# ------------------------------------------------------------------ CAR-16 play again


def test_car_16_first_stroke_after_release_may_be_played_again() -> None:
    """CAR-16: "or plays after being released, he may be played again"."""
    res = run(rescue(), passes(2, 3, 4), flick("moons"))
    assert res.find("bonus", "CAR-16", coin="moons")
    res = run(rescue(), passes(2, 3, 4), shot("moons"))
    assert res.who == (1, "moons", 1)


def test_car_16_one_more_stroke_however_many_events() -> None:
    """G-CAR-06: a stroke with several Rule IV events gives exactly one more stroke."""
    res = run(g1_out(), shot("moons", cross("moons", "gate-1", "-"),
                             cross("moons", "gate-2", "+"), cross("moons", "door-2", "+")))
    assert res.soldier(1)["next"] == "tower-2"
    assert res.who == (1, "moons", 1)


def test_car_16_sentinel_leaving_or_entering_may_be_played_again() -> None:
    """CAR-16: "when a sentinel enters or leaves his castle ... he may be played again"."""
    res = run(passes(1, 2, 3, 4), shot("ace", cross("ace", "gate-1", "-")))
    assert res.who == (1, "ace", 1)
    res = run(passes(1, 2, 3, 4), shot("ace", cross("ace", "gate-1", "-")),
              shot("ace", cross("ace", "gate-1", "+")))
    assert res.who == (1, "ace", 1) and res.sentinel(1)["on_duty"]


def test_car_16_a_knocked_ball_gets_no_stroke() -> None:
    """CAR-16: only the ball played may be played again; a knocked soldier still progresses."""
    res = run(shot("moons", contact("moons", "suns"), cross("suns", "gate-2", "-")))
    assert res.soldier(2)["next"] == "in-3"
    (score,) = res.find("score", coin="suns")
    assert score.bonus == 0


# ------------------------------------------------------------------ CAR-17/18 sentinels


def test_car_17_a_sentinel_may_not_leave_twice_in_one_turn() -> None:
    """CAR-17 / G-CAR-10: the second leave is a foul: the stroke is undone, the turn ends."""
    res = run(passes(1, 2, 3, 4), shot("ace", cross("ace", "gate-1", "-")),
              shot("ace", cross("ace", "gate-1", "+")),
              shot("ace", cross("ace", "gate-1", "-")))
    assert res.find("foul", "CAR-17", coin="ace")
    assert res.sentinel(1)["on_duty"]  # the second leave is rolled back
    assert res.who == (2, "2", 1)


def test_car_17_passive_double_crossing_is_allowed() -> None:
    """G-CAR-10: a knocked sentinel changes duty normally, however often."""
    res = run(shot("moons", contact("moons", "ace"), cross("ace", "gate-1", "-"),
                   cross("ace", "gate-1", "+"), cross("ace", "gate-1", "-")))
    assert not res.find("foul")
    assert not res.sentinel(1)["on_duty"]


def test_car_18_sentinels_ignore_other_arches() -> None:
    """CAR-18: no account is taken of a sentinel's going through any arch but its own gate."""
    res = run(passes(1, 2, 3, 4), shot("ace", cross("ace", "gate-2", "+"),
                                       cross("ace", "door-2", "+"), cross("ace", "door-1", "-")))
    assert res.sentinel(1)["on_duty"] and res.sentinel(2)["on_duty"]
    assert not res.find("duty") and not res.find("capture")
    assert res.who == (2, "2", 1)


# ------------------------------------------------------------------ CAR-19/20/21 croquet


def test_car_19_touching_a_ball_gives_a_croquet_off_it() -> None:
    """CAR-19: the player may use the touched ball to croquet his own with."""
    res = run(shot("moons", contact("moons", "suns")))
    assert res.turn["croquet_due"] == ["suns"] and res.who[2] == 1
    res = run(shot("moons", contact("moons", "suns")), croquet(1))
    (req,) = res.find("place", "CAR-19", coin="moons")
    assert req.extra["placement"] == "touch_ball"
    res = run(shot("moons", contact("moons", "suns")), croquet(1), shot("moons"))
    assert res.find("bonus", "CAR-19", coin="moons")[-1].extra.get("croquet") == "suns"


def test_car_19_the_croqueted_ball_must_not_move() -> None:
    """CAR-19: "but may not move it in doing so": it is put back, no penalty."""
    before = [shot("moons", contact("moons", "suns")), croquet(1)]
    res = run(before, shot("moons", contact("moons", "suns", ["moons", "suns"]),
                           cross("suns", "gate-2", "-")))
    assert res.soldier(2)["next"] == "out-2"  # its crossing is ignored
    assert any(r.coin == "suns" for r in res.find("place", "CAR-19", since=count(before)))


def test_car_19_own_sentinel_off_duty_may_be_moved() -> None:
    """CAR-19: "unless it be his own sentinel (not on duty)"."""
    res = run(g1_out(), shot("moons", contact("moons", "ace")), croquet(1),
              shot("moons", contact("moons", "ace", ["moons", "ace"])))
    assert not [r for r in res.find("place", "CAR-19") if r.coin == "ace"]


def test_car_19_no_croquet_off_a_sentinel_on_duty_or_a_prisoner() -> None:
    """CAR-19 exceptions: a sentinel on duty, a prisoner."""
    res = run(shot("moons", contact("moons", "2")))
    assert res.turn["croquet_due"] == [] and res.who == (2, "suns", 1)
    res = run(moons_captured_in_2(), shot("suns", contact("suns", "moons")))
    assert res.turn["croquet_due"] == []


def test_car_19_eligibility_is_checked_again_after_the_stroke() -> None:
    """G-CAR-07 (5): the Black soldier, touched, is then knocked into castle 3 and taken
    there (CAR-10) in the same stroke: no croquet off a prisoner."""
    res = run(shot("moons", contact("moons", "suns"), cross("suns", "gate-2", "-"),
                   cross("suns", "gate-3", "+")))
    assert res.find("capture", "CAR-10", coin="suns")
    assert res.turn["croquet_due"] == []
    assert res.who == (3, "crowns", 1)  # and the prisoner's turn is skipped (CAR-12)


def test_car_20_no_second_croquet_off_the_same_ball_in_a_turn() -> None:
    """CAR-20: "He may not croquet himself twice in one turn with the same ball"."""
    res = run(g1_out(), shot("moons", contact("moons", "suns")), croquet(1),
              shot("moons", cross("moons", "gate-1", "-")),  # Rule IV in the croquet stroke
              shot("moons", contact("moons", "suns")))
    assert res.turn["croquet_due"] == ["suns"]  # the Rule IV event cleared the set (G-CAR-09)
    res = run(shot("moons", contact("moons", "suns")), croquet(1),
              shot("moons", cross("moons", "gate-1", "-"), contact("moons", "suns")))
    # croqueted off suns, then a Rule IV event in the same stroke before touching it again
    assert res.turn["croquet_due"] == ["suns"]
    res = run(shot("moons", contact("moons", "suns")), croquet(1),
              shot("moons", contact("moons", "crowns")), croquet(1),
              shot("moons", contact("moons", "suns")))
    assert res.find("bonus", "CAR-20", coin="moons")
    assert res.who == (2, "suns", 1)


def test_car_21_croquet_gives_no_further_stroke() -> None:
    """CAR-21: "croqueting does not give ... the right of playing again"."""
    res = run(shot("moons", contact("moons", "suns")), croquet(1), shot("moons"))
    assert res.who == (2, "suns", 1)


def test_car_21_touch_and_rule_iv_event_give_one_following_stroke() -> None:
    """G-CAR-08: the one following stroke may be the croquet or a normal stroke."""
    res = run(shot("moons", cross("moons", "gate-1", "-"), contact("moons", "suns")))
    assert res.who == (1, "moons", 1) and res.turn["croquet_due"] == ["suns"]
    res = run(shot("moons", cross("moons", "gate-1", "-"), contact("moons", "suns")),
              shot("moons"))
    assert res.find("bonus", "G-CAR-08", coin="moons")
    assert res.who == (2, "suns", 1)


# ------------------------------------------------------------------ CAR-22/23


def test_car_22_colours_and_flags() -> None:
    """CAR-22: Blue/Green, Black/Brown, Orange/Yellow, Red/Pink; flags match the soldiers."""
    res = run()
    colours = [(res.soldier(n)["colour"], res.sentinel(n)["colour"]) for n in range(1, 5)]
    assert colours == [("Blue", "Green"), ("Black", "Brown"), ("Orange", "Yellow"),
                       ("Red", "Pink")]
    layout = make_game(GAME).layout
    assert layout.pieces["tower-1"].top == "ace-of-moons"
    assert layout.pieces["tower-4"].top == "ace-of-arms"


def test_car_23_five_players() -> None:
    """CAR-23 / G-CAR-16: ten balls, five castles at 72°, each invades the other four."""
    game = make_game(GAME, {"car_players": 5})
    state = game.new_state()
    summary = state.summary()
    assert set(summary["players"]) == {"1", "2", "3", "4", "5"}
    assert summary["players"]["5"]["soldier"]["coin"] == "null"
    assert summary["players"]["5"]["sentinel"]["coin"] == "5"
    assert summary["players"]["4"]["soldier"]["colour"] == "Green"
    assert game.courses[3][1::4][:4] == ["in-4", "in-5", "in-1", "in-2"]
    assert [c for c, _ in game.schedule][:5] == [1, 2, 3, 4, 5]
    assert [ph for _, ph in game.schedule] == ["soldier"] * 5 + ["sentinel"] * 5


@pytest.mark.parametrize("players", [4, 5])
def test_car_23_layouts_are_valid(players: int) -> None:
    game = make_game(GAME, {"car_players": players, "car_layout": "carroll_open"})
    assert len(game.layout.castles) == players
