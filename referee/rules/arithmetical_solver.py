"""Solve Arithmetical Croquet: who wins from a position with best play, and by which numbers.

The game graph is finite and acyclic, so a memoised depth-first search over the full position
is exact (no retrograde pass is needed):

* every step moves the mover's ball strictly forward along its course, measured by
  (missed, pos) before the peg is missed and (missed, −pos) after; a pass moves no ball;
* two passes in a row cannot be followed by a third: a pass bars nothing, so the player after
  a pass is unbarred, and an unbarred player can always step (he only passes when a keep-in
  ban of ARC-11 leaves him nothing but losing steps, and then his opponent, unbarred in turn,
  comes out of his hoop).
So along any line of play the pair of ball measures grows at least every third turn; no
position can recur.  The search still checks this: it raises :class:`CycleError` if it ever
meets a position that is on its own stack, rather than return a wrong value.

Values are from the point of view of the player to move: +1 win, 0 draw (only possible with
``arc_max_turns``), −1 loss, with the number of turns to the end under best play (the winner
hurries, the loser holds out).  The search is iterative (the longest games run to hundreds of
turns) and keys its table on a canonical form of the position that drops what cannot affect the
future (e.g. a bar only matters as the pair {b, 9 − b}).  Under ``arc_max_turns`` the turn number
is part of the key, and positions the limit cannot reach are settled from the unlimited table.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass, replace
from typing import Any

from referee.rules.arithmetical import (
    PASS,
    ArcRules,
    Position,
    move_name,
    successors,
)

WIN, DRAW, LOSS = 1, 0, -1


class CycleError(RuntimeError):
    """The search met a position on its own stack: the game graph is not acyclic after all."""


@dataclass(frozen=True)
class Analysis:
    """The solved value of a position for the player to move (numbered 1 or 2)."""

    player: int | None
    value: int
    """WIN (+1), DRAW (0) or LOSS (−1) for the player to move; 0 too once the game is over."""
    turns: int
    """Turns to the end of the game with best play."""
    winner: int | None
    """The player (1 or 2) who wins with best play, or None for a draw."""
    winning_moves: tuple[str, ...]
    """The declarations (numbers, or "pass") that keep the mover's best value."""
    best_move: str | None
    """The move the computer plays: fastest win, else a draw, else the longest defence."""

    def to_json(self) -> dict[str, Any]:
        return {"player": self.player, "value": self.value, "turns": self.turns,
                "winner": self.winner, "winning_moves": list(self.winning_moves),
                "best_move": self.best_move}


def canonical_key(position: Position, rules: ArcRules) -> tuple[Any, ...]:
    """What of `position` can still matter, from the mover's side (the solver's table key)."""
    mover = position.mover
    me, opp = position.sides[mover], position.sides[1 - mover]
    if me.req is not None:
        my_ban = None  # in a hoop: only the ordered step, never banned by a repeat rule
    elif rules.no_repeat_global or (me.keepin and opp.req is not None):
        my_ban = me.last_step
    else:
        my_ban = None
    if opp.req is not None or opp.last_step is None:
        opp_step: int | None = None
    elif rules.no_repeat_global or opp.keepin:
        opp_step = opp.last_step
    else:
        opp_step = min(opp.last_step, 9 - opp.last_step)
    turns = position.turns if rules.max_turns is not None else 0
    return (me.pos, me.missed, me.req, my_ban,
            opp.pos, opp.missed, opp.req, opp_step, opp.keepin and opp_step is not None,
            turns)


def _terminal_value(child: Position, mover: int) -> int:
    if child.winner is None:
        return DRAW
    return WIN if child.winner == mover else LOSS


def _better(value: int, turns: int, best_value: int, best_turns: int) -> bool:
    """Whether (value, turns) is a better result for the mover than the best so far."""
    if value != best_value:
        return value > best_value
    return turns < best_turns if value == WIN else turns > best_turns


class Solver:
    """Solves positions of one rule set, keeping its table in memory between calls."""

    def __init__(self, rules: ArcRules,
                 key: Callable[[Position, ArcRules], Hashable] = canonical_key) -> None:
        self.rules = rules
        self.key = key
        """How positions are told apart in the table (tests pass a finer key to check ours)."""
        self.table: dict[Hashable, tuple[int, int]] = {}
        self.unlimited: Solver | None = None
        if rules.max_turns is not None:
            free = replace(rules, max_turns=None)
            self.unlimited = solver_for(free) if key is canonical_key else Solver(free, key)
        """Under a turn limit: the same game without it, to settle positions it cannot reach."""

    def _without_limit(self, position: Position) -> tuple[int, int] | None:
        """The value if the turn limit cannot matter from `position`, else None.

        Without the limit the winner forces his win within `turns` turns; if that is no more
        than the turns left, no line of that strategy reaches the limit, so the value and its
        length are the same with the limit.
        """
        if self.unlimited is None or self.rules.max_turns is None:
            return None
        value, turns = self.unlimited.value(position)
        return (value, turns) if turns <= self.rules.max_turns - position.turns else None

    def value(self, position: Position) -> tuple[int, int]:
        """(value, turns to the end) for the player to move; (0, 0) at a finished game."""
        if position.over:
            return DRAW, 0
        key = self.key(position, self.rules)
        if key not in self.table:
            settled = self._without_limit(position)
            if settled is not None:
                self.table[key] = settled
            else:
                self._search(position, key)
        return self.table[key]

    def _child_value(self, child: Position, mover: int) -> tuple[int, int] | None:
        if child.over:
            return _terminal_value(child, mover), 1
        found = self.table.get(self.key(child, self.rules))
        if found is None:
            return None
        return -found[0], found[1] + 1

    def _search(self, root: Position, root_key: Hashable) -> None:
        """Fill the table for `root` and everything below it (iterative, post-order)."""
        rules, table, key_of = self.rules, self.table, self.key
        on_stack = {root_key}
        stack: list[tuple[Position, Hashable, list[Position]]] = [
            (root, root_key, [child for _, child in successors(root, rules)])]
        while stack:
            position, key, children = stack[-1]
            pushed = False
            for child in children:
                if child.over:
                    continue
                child_key = key_of(child, rules)
                if child_key in table:
                    continue
                settled = self._without_limit(child)
                if settled is not None:
                    table[child_key] = settled
                    continue
                if child_key in on_stack:
                    raise CycleError(f"position {child} recurs in its own line of play")
                on_stack.add(child_key)
                stack.append((child, child_key,
                              [grand for _, grand in successors(child, rules)]))
                pushed = True
                break
            if pushed:
                continue
            best = (LOSS - 1, 0)
            for child in children:
                result = self._child_value(child, position.mover)
                assert result is not None
                if _better(*result, *best):
                    best = result
            table[key] = best
            on_stack.discard(key)
            stack.pop()

    def analyse(self, position: Position) -> Analysis:
        """The value of `position`, its winner with best play, and the moves that achieve it."""
        if position.over:
            winner = None if position.winner is None else position.winner + 1
            return Analysis(None, DRAW, 0, winner, (), None)
        value, turns = self.value(position)
        scored = []
        for move, child in successors(position, self.rules):
            result = self._child_value(child, position.mover)
            if result is None:
                self.value(child)
                result = self._child_value(child, position.mover)
            assert result is not None
            scored.append((move, result))
        keeping = tuple(move_name(position, move) for move, result in scored
                        if result[0] == value)
        best_move, best = None, (LOSS - 1, 0)
        for move, result in scored:
            if _better(*result, *best):
                best_move, best = move, result
        mover = position.mover + 1
        winner = {WIN: mover, LOSS: 3 - mover, DRAW: None}[value]
        return Analysis(mover, value, turns, winner, keeping if value != LOSS else (),
                        None if best_move is None else move_name(position, best_move))


_SOLVERS: dict[ArcRules, Solver] = {}


def solver_for(rules: ArcRules) -> Solver:
    """The shared solver of a rule set (its table is cached for the process)."""
    if rules not in _SOLVERS:
        _SOLVERS[rules] = Solver(rules)
    return _SOLVERS[rules]


def analyse(position: Position, rules: ArcRules) -> Analysis:
    """Solve `position` under `rules` with the process-wide cached table."""
    return solver_for(rules).analyse(position)


__all__ = ["DRAW", "LOSS", "PASS", "WIN", "Analysis", "CycleError", "Solver", "analyse",
           "canonical_key", "solver_for"]
