"""The Arithmetical Croquet solver against plain minimax, and its answer for the opening."""

from __future__ import annotations

import random
from collections.abc import Hashable

import pytest

from referee.rules.arithmetical import (
    HOOPS,
    PASS,
    ArcRules,
    Position,
    Side,
    legal_steps,
    move_name,
    successors,
)
from referee.rules.arithmetical_solver import (
    DRAW,
    LOSS,
    WIN,
    Analysis,
    CycleError,
    Solver,
    analyse,
)

RULE_SETS = (
    ArcRules(),
    ArcRules(zone_includes_overshoot=True),
    ArcRules(pass_instead_of_losing=False),
    ArcRules(no_repeat_global=True),
)


class TreeTooBig(Exception):
    """The brute force gave up: the position's game tree is larger than its budget."""


def brute_force(position: Position, rules: ArcRules, budget: list[int] | None = None
                ) -> tuple[int, int]:
    """Plain minimax over the whole tree, no table: (value for the mover, turns to the end)."""
    if budget is not None:
        budget[0] -= 1
        if budget[0] < 0:
            raise TreeTooBig
    results = []
    for _, child in successors(position, rules):
        if child.over:
            value = DRAW if child.winner is None else (
                WIN if child.winner == position.mover else LOSS)
            results.append((value, 1))
        else:
            value, turns = brute_force(child, rules, budget)
            results.append((-value, turns + 1))
    best_value = max(value for value, _ in results)
    turns = [t for value, t in results if value == best_value]
    return best_value, (min(turns) if best_value == WIN else max(turns))


def small_trees(positions: list[Position], rules: ArcRules, count: int,
                budget: int = 800) -> list[tuple[Position, tuple[int, int]]]:
    """The first `count` positions whose whole game tree has at most `budget` nodes."""
    solved = []
    for position in positions:
        try:
            solved.append((position, brute_force(position, rules, [budget])))
        except TreeTooBig:
            continue
        if len(solved) == count:
            break
    return solved


def random_side(rng: random.Random, low: int) -> Side:
    """A ball somewhere late on the course: before the peg, in hoop 90, or past the peg."""
    kind = rng.random()
    if kind < 0.2:
        req = rng.randint(1, 8)
        return Side(90, False, req, rng.choice([req, None]))
    last = rng.choice([None, *range(1, 9)])
    if kind < 0.45:
        return Side(rng.randint(101, 108), True, None, last, rng.random() < 0.3)
    pos = rng.randint(low, 99)
    if pos in HOOPS:
        pos += 1
    return Side(pos, False, None, last, rng.random() < 0.3)


def late_positions(count: int, seed: int, low: int = 93) -> list[Position]:
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        position = Position((random_side(rng, low), random_side(rng, low)), rng.randint(0, 1))
        if any(True for _ in successors(position, ArcRules())):
            found.append(position)
    return found


RULE_IDS = ("default", "zone_overshoot", "no_pass_instead", "no_repeat_global")


@pytest.mark.parametrize("rules", RULE_SETS, ids=RULE_IDS)
def test_solver_matches_brute_force_from_late_positions(rules: ArcRules) -> None:
    solver = Solver(rules)
    cases = small_trees(late_positions(120, seed=7), rules, count=30)
    assert len(cases) >= 20
    for position, expected in cases:
        assert solver.value(position) == expected, position


def test_solver_matches_brute_force_with_a_turn_limit() -> None:
    rules = ArcRules(max_turns=14)
    solver = Solver(rules)
    positions = [p._replace(turns=8) for p in late_positions(100, seed=11, low=84)]
    cases = small_trees(positions, rules, count=30)
    assert len(cases) >= 20
    for position, expected in cases:
        assert solver.value(position) == expected, position
    assert any(expected[0] == DRAW for _, expected in cases)


def test_a_turn_limit_beyond_the_forced_win_changes_nothing() -> None:
    assert Solver(ArcRules(max_turns=200)).value(Position()) == (WIN, 71)
    late = Position((Side(96), Side(97, last_step=2)), 0, turns=50)
    assert Solver(ArcRules(max_turns=52)).value(late) == Solver(ArcRules()).value(late)


def _full_key(position: Position, rules: ArcRules) -> Hashable:
    return position if rules.max_turns is not None else position._replace(turns=0)


@pytest.mark.parametrize("rules", RULE_SETS, ids=RULE_IDS)
def test_the_canonical_table_key_loses_nothing(rules: ArcRules) -> None:
    """Solve mid-game positions with the whole position as key, and compare every entry."""
    start = Position((Side(81), Side(76, last_step=3)), 0)
    exact = Solver(rules, key=_full_key)
    exact.value(start)
    canonical = Solver(rules)
    assert len(canonical.table) == 0
    for position in list(exact.table)[::7]:
        assert isinstance(position, Position)
        assert canonical.value(position) == exact.table[position]


def test_winning_moves_lead_to_lost_positions_for_the_other() -> None:
    rules = ArcRules()
    solver = Solver(rules)
    for position in late_positions(40, seed=3, low=80):
        analysis = solver.analyse(position)
        for move, child in successors(position, rules):
            name = move_name(position, move)
            wins = (child.winner == position.mover if child.over
                    else solver.value(child)[0] == LOSS)
            assert (name in analysis.winning_moves) == (wins and analysis.value == WIN)


def test_the_opening_first_player_wins_naming_1() -> None:
    analysis = analyse(Position(), ArcRules())
    assert analysis == Analysis(player=1, value=WIN, turns=71, winner=1, winning_moves=("1",),
                                best_move="1")
    assert analysis.to_json()["winning_moves"] == ["1"]


def test_finished_games_and_passes() -> None:
    done = Position((Side(100), Side(50)), 1, 9, True, 0, "ARC-03")
    assert analyse(done, ArcRules()).winner == 1
    kept = Position((Side(20, req=3, last_step=3), Side(34, last_step=3, keepin=True)), 0)
    assert [move for move, _ in successors(kept, ArcRules())] == [PASS]
    assert analyse(kept, ArcRules()).winning_moves in ((), ("pass",))
    assert legal_steps(kept, ArcRules()) == []


def test_a_cycle_would_be_reported_not_mis_scored() -> None:
    """A key that merges positions from different turns creates a cycle; the search says so."""
    solver = Solver(ArcRules(), key=lambda position, rules: position.sides[0].pos // 50)
    with pytest.raises(CycleError):
        solver.value(Position((Side(95), Side(95)), 0))
