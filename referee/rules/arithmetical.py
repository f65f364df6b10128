"""Arithmetical Croquet (Carroll 1872, as written down by Slattery 1998): RULES-SPEC §5.

A purely mental game: each player names numbers that walk an imaginary ball along the number
line through the hoops 10, 20, …, 90 to the peg at 100.  The only events are declarations:
``Declare(t, player, what="number", value=N)`` (the number named, i.e. the new position) and
``Declare(t, player, what="pass")``.

The module has two layers:

* pure move rules on an immutable, hashable :class:`Position` (`judge_step`, `successors`,
  `play_step`, `play_pass`), shared by the referee and by the solver
  (`referee.rules.arithmetical_solver`);
* :class:`ArcState`, the referee: it folds events into a position and explains every decision
  as a :class:`~referee.rules.base.Ruling`.

The reading of the source text (../shared/rules/arithmetical-croquet.txt, the source of truth)
is documented in docs/arithmetical-croquet.md.  Where the spec is silent or self-contradictory
the source text wins, namely:

* a pass bars nothing (G-ARC-04/09), so it also clears the passer's "last step": the spec's
  state table says a pass "leaves his state unchanged", which would let the old step keep
  barring; rule 4 bars by "whatever *step* one player takes", and a pass is no step;
* with ``arc_no_repeat_global`` the number a player *must* play to come out of a hoop
  (rule 3, "the number so ordered") is exempt from the no-repeat ban, otherwise a player who
  went into a hoop with step e could never come out with the ordered step e.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, NamedTuple

from referee.events import Declare, Event, Override
from referee.rules.base import (
    InvalidEventError,
    Option,
    OptionError,
    Ruling,
    register,
    resolve_options,
)

NAME = "arithmetical-croquet"
HOOPS: tuple[int, ...] = (10, 20, 30, 40, 50, 60, 70, 80, 90)
PEG = 100
MAX_STEP = 8
PASS = 0
"""The move code of a pass (steps are 1..8)."""

# Outcomes of a legal step.
ADVANCE = "advance"
INTO = "into"            # into a hoop (ARC-05)
OUT = "out"              # out of a hoop with the ordered step: takes it (ARC-05)
STRADDLE = "straddle"    # over a hoop to the same distance above it: takes it (ARC-04)
WIN = "win"              # names 100 (ARC-03)
OVERSHOOT = "overshoot"  # misses the peg once (ARC-08)
LOSE = "lose"            # misses the peg twice (ARC-09)

OPTIONS: tuple[Option, ...] = (
    Option("arc_zone_includes_overshoot", False, kind=bool, where="G-ARC-05"),
    Option("arc_pass_instead_of_losing", True, kind=bool, where="G-ARC-08"),
    Option("arc_no_repeat_global", False, kind=bool, where="G-ARC-10"),
    Option("arc_max_turns", None, kind=int, where="G-ARC-12", allow_off=True),
)

RULE_WORDS: dict[str, str] = {
    "ARC-01": "The first player names a (positive whole) number not greater than 8: "
              "the second does the same",
    "ARC-02": "the first then names a higher number, not advancing more than 8 beyond his "
              "last; and so on alternately",
    "ARC-03": "whoever names 100, which is the 'winning peg', wins the game.",
    "ARC-04": "To 'take' a hoop, it is necessary to go, from a number below it, to one the "
              "same distance above it: … to go to any other number above 20 would 'miss it' "
              "and would be considered an illegal move.",
    "ARC-05": "It is also lawful to 'take' a hoop by playing 'into' it, in one turn, and out "
              "of it, to the same distance above it in the next turn … A player 'in' a hoop "
              "may not play out of it with any other than the number so ordered.",
    "ARC-06": "Whatever step one player takes, bars the other from taking an equal step, or "
              "the difference between it and 9",
    "ARC-07": "But a player has no 'barring' power when 'in' a hoop, or when at any number "
              "between 90 and 100, unless the other player is also at such a number.",
    "ARC-08": "The 'winning peg' may be 'missed' once. Once past 100, play proceeds in the "
              "opposite direction with the player decreasing his number according to the "
              "same rules as above.",
    "ARC-09": "Missing the 'peg' twice loses the game.",
    "ARC-10": "When one player is 'in' a hoop, the other can keep him in, by playing the "
              "number he needs for coming out, so as to bar him from using it.",
    "ARC-11": "And he may thus go on playing the 2 barring numbers alternately: but he may "
              "not play either twice running",
    "§5.1": "(spec) ARC is a purely mental game, so it needs no tracking. Inputs are "
            "declarations.",
    "G-ARC-08": "(spec) A player is never forced to make a losing move: he may pass if every "
                "legal move loses (or no legal move exists).",
    "G-ARC-10": "(option arc_no_repeat_global) no player may play the same step twice running.",
    "G-ARC-11": "(spec) Strict alternation, with a pass counting as a turn.",
    "G-ARC-12": "(option arc_max_turns) if reached, the player closer to 100 wins.",
}


# ---------------------------------------------------------------------------- rules values


@dataclass(frozen=True)
class ArcRules:
    """The house rules in force (RULES-SPEC §6, ARC rows), parsed once."""

    zone_includes_overshoot: bool = False
    pass_instead_of_losing: bool = True
    no_repeat_global: bool = False
    max_turns: int | None = None

    @classmethod
    def from_options(cls, options: dict[str, Any]) -> ArcRules:
        max_turns = options["arc_max_turns"]
        if max_turns is not None and max_turns < 1:
            raise OptionError(f"option arc_max_turns: {max_turns!r} must be at least 1 or off")
        return cls(options["arc_zone_includes_overshoot"], options["arc_pass_instead_of_losing"],
                   options["arc_no_repeat_global"], max_turns)


class Side(NamedTuple):
    """One player's ball.  `req` is set exactly while the ball is in a hoop (pos is a hoop)."""

    pos: int = 0
    missed: bool = False
    """True once the peg was missed; the ball then moves down toward 100 (dir = −1)."""
    req: int | None = None
    """In a hoop: the step that must bring it out (the step it came in with)."""
    last_step: int | None = None
    """The step of this player's latest turn; None after a pass or before his first turn."""
    keepin: bool = False
    """That step was a keep-in play (ARC-11): made while the other was in a hoop, equal to the
    other's required step or its difference from 9, and not itself into a hoop."""


class Position(NamedTuple):
    """A whole game position: both balls, whose turn (0 or 1), turns played and the result."""

    sides: tuple[Side, Side] = (Side(), Side())
    mover: int = 0
    turns: int = 0
    over: bool = False
    winner: int | None = None
    """0 or 1 once won; None while playing or after a drawn turn limit."""
    end_clause: str | None = None


def direction(side: Side) -> int:
    return -1 if side.missed else 1


def in_zone(side: Side, rules: ArcRules) -> bool:
    """At a number "between 90 and 100" (ARC-07 b, G-ARC-05)."""
    return 91 <= side.pos <= 99 or (rules.zone_includes_overshoot and side.pos > PEG)


def bars(position: Position, rules: ArcRules) -> tuple[int, ...]:
    """The steps the player to move is barred from by the other's last step (ARC-06/07)."""
    opp = position.sides[1 - position.mover]
    step = opp.last_step
    if step is None or opp.req is not None:  # a pass, or the step into a hoop (ARC-07 a)
        return ()
    if in_zone(opp, rules) and not in_zone(position.sides[position.mover], rules):
        return ()  # ARC-07 b
    return (min(step, 9 - step), max(step, 9 - step))


def barring_exemption(position: Position, rules: ArcRules) -> str | None:
    """Why the other's last step bars nothing, in words, or None."""
    opp = position.sides[1 - position.mover]
    if opp.last_step is None:
        return None
    if opp.req is not None:
        return f"player {2 - position.mover} is in hoop {opp.pos} and has no barring power"
    if in_zone(opp, rules) and not in_zone(position.sides[position.mover], rules):
        return (f"player {2 - position.mover} is at {opp.pos}, between 90 and 100, and has "
                "no barring power")
    return None


def target(side: Side, step: int) -> int:
    """The number named by taking `step` from `side`."""
    return side.pos - step if side.missed else side.pos + step


def _structural(side: Side, step: int) -> str:
    """The outcome of `step` by the lay of the course alone, or an illegal code "!CLAUSE"."""
    if side.req is not None:
        return OUT if step == side.req else "!ARC-05"
    if side.missed:
        n = side.pos - step
        return WIN if n == PEG else (LOSE if n < PEG else ADVANCE)
    n = side.pos + step
    hoop = (side.pos // 10 + 1) * 10
    if hoop < n and hoop < PEG:
        return STRADDLE if n - hoop == hoop - side.pos else "!ARC-04"
    if n == PEG:
        return WIN
    if n > PEG:
        return OVERSHOOT
    return INTO if n % 10 == 0 else ADVANCE


def keepin_ban(position: Position) -> int | None:
    """The keep-in step the mover played last turn and may not play again now (ARC-11)."""
    me, opp = position.sides[position.mover], position.sides[1 - position.mover]
    if me.keepin and opp.req is not None and me.last_step in (opp.req, 9 - opp.req):
        return me.last_step
    return None


def repeat_ban(position: Position, rules: ArcRules) -> int | None:
    """The step the mover may not repeat now (ARC-11, or any step with arc_no_repeat_global)."""
    if rules.no_repeat_global and position.sides[position.mover].req is None:
        return position.sides[position.mover].last_step
    return keepin_ban(position)


def judge_step(position: Position, step: int, rules: ArcRules) -> str:
    """The outcome of the mover taking `step` (1..8), or "!CLAUSE" naming the rule broken.

    The ordered step out of a hoop is exempt from arc_no_repeat_global (see the module doc).
    """
    me = position.sides[position.mover]
    outcome = _structural(me, step)
    if outcome[0] == "!":
        return outcome
    if step in bars(position, rules):
        return "!ARC-10" if me.req is not None else "!ARC-06"
    if step == repeat_ban(position, rules):
        return "!ARC-11" if step == keepin_ban(position) else "!G-ARC-10"
    return outcome


def legal_steps(position: Position, rules: ArcRules) -> list[tuple[int, str]]:
    """Every legal step of the mover with its outcome (losing steps included)."""
    if position.over:
        return []
    found = []
    for step in range(1, MAX_STEP + 1):
        outcome = judge_step(position, step, rules)
        if outcome[0] != "!":
            found.append((step, outcome))
    return found


def may_pass(position: Position, rules: ArcRules,
             steps: list[tuple[int, str]] | None = None) -> bool:
    """A pass is allowed when no legal (non-losing, by default) step exists (ARC-10, G-ARC-08)."""
    if position.over:
        return False
    if steps is None:
        steps = legal_steps(position, rules)
    if rules.pass_instead_of_losing:
        return all(outcome == LOSE for _, outcome in steps)
    return not steps


def _finish_turn(position: Position, sides: tuple[Side, Side], winner: int | None,
                 end_clause: str | None, rules: ArcRules) -> Position:
    turns = position.turns + 1
    over = end_clause is not None
    if not over and rules.max_turns is not None and turns >= rules.max_turns:
        over, end_clause = True, "G-ARC-12"
        gap = [abs(PEG - side.pos) for side in sides]
        winner = None if gap[0] == gap[1] else (0 if gap[0] < gap[1] else 1)
    return Position(sides, 1 - position.mover, turns, over, winner, end_clause)


def play_step(position: Position, step: int, outcome: str, rules: ArcRules) -> Position:
    """The position after the mover takes the legal `step` whose outcome is `outcome`."""
    mover = position.mover
    me, opp = position.sides[mover], position.sides[1 - mover]
    keepin = opp.req is not None and step in (opp.req, 9 - opp.req) and outcome != INTO
    moved = Side(target(me, step), me.missed or outcome == OVERSHOOT,
                 step if outcome == INTO else None, step, keepin)
    sides = (moved, opp) if mover == 0 else (opp, moved)
    if outcome == WIN:
        return _finish_turn(position, sides, mover, "ARC-03", rules)
    if outcome == LOSE:
        return _finish_turn(position, sides, 1 - mover, "ARC-09", rules)
    return _finish_turn(position, sides, None, None, rules)


def play_pass(position: Position, rules: ArcRules) -> Position:
    """The position after the mover passes: his ball stays, and he bars nothing (G-ARC-09)."""
    me = position.sides[position.mover]._replace(last_step=None, keepin=False)
    opp = position.sides[1 - position.mover]
    sides = (me, opp) if position.mover == 0 else (opp, me)
    return _finish_turn(position, sides, None, None, rules)


def successors(position: Position, rules: ArcRules) -> Iterator[tuple[int, Position]]:
    """Every legal move (a step 1..8, or PASS) with the position it leads to."""
    steps = legal_steps(position, rules)
    for step, outcome in steps:
        yield step, play_step(position, step, outcome, rules)
    if may_pass(position, rules, steps):
        yield PASS, play_pass(position, rules)


def move_name(position: Position, move: int) -> str:
    """How a player declares `move`: the number he names, or "pass"."""
    if move == PASS:
        return "pass"
    return str(target(position.sides[position.mover], move))


# ---------------------------------------------------------------------------- JSON


def side_to_json(side: Side) -> dict[str, Any]:
    return {"pos": side.pos, "missed": side.missed, "req": side.req,
            "last_step": side.last_step, "keepin": side.keepin}


def side_from_json(data: dict[str, Any]) -> Side:
    return Side(int(data["pos"]), bool(data["missed"]),
                None if data["req"] is None else int(data["req"]),
                None if data["last_step"] is None else int(data["last_step"]),
                bool(data["keepin"]))


def position_to_json(position: Position) -> dict[str, Any]:
    return {"sides": [side_to_json(side) for side in position.sides],
            "mover": position.mover, "turns": position.turns, "over": position.over,
            "winner": position.winner, "end_clause": position.end_clause}


def position_from_json(data: dict[str, Any]) -> Position:
    first, second = (side_from_json(side) for side in data["sides"])
    return Position((first, second), int(data["mover"]), int(data["turns"]),
                    bool(data["over"]), data["winner"], data["end_clause"])


# ---------------------------------------------------------------------------- the referee


def _step_of(side: Side, number: int) -> int:
    return side.pos - number if side.missed else number - side.pos


def _hoop_ahead(side: Side) -> int:
    """The next hoop above the ball: the one a straddle goes through (ARC-04)."""
    return (side.pos // 10 + 1) * 10


class ArcState:
    """The referee's state: a position folded from declarations, with rulings as data."""

    def __init__(self, rules: ArcRules, options: dict[str, Any],
                 position: Position | None = None, events: int = 0) -> None:
        self.rules = rules
        self.options = options
        self.position = position if position is not None else Position()
        self.events = events
        """How many events were applied (rejected ones too); ruling ids count on it."""

    # -- the protocol

    def apply(self, event: Event) -> list[Ruling]:
        """Fold one event; return the rulings it caused, ids "<event index>.<n>" (0-based)."""
        index = self.events
        rulings = self._judge(event)
        self.events += 1
        for number, ruling in enumerate(rulings):
            ruling.id = f"{index}.{number}"
            ruling.of = index
        return rulings

    def is_terminal(self) -> bool:
        return self.position.over

    def to_json(self) -> dict[str, Any]:
        return {"game": NAME, "options": dict(self.options), "events": self.events,
                "position": position_to_json(self.position)}

    def summary(self) -> dict[str, Any]:
        """The final-state summary (docs/arithmetical-croquet.md, "Final-state summary")."""
        position, rules = self.position, self.rules
        steps = legal_steps(position, rules)
        mover = position.mover
        players: dict[str, Any] = {}
        for index, side in enumerate(position.sides):
            to_move = index == mover and not position.over
            players[str(index + 1)] = {
                "pos": side.pos, "dir": direction(side), "missed": int(side.missed),
                "in_hoop": side.pos if side.req is not None else None,
                "needs": side.pos + side.req if side.req is not None else None,
                "last_step": side.last_step,
                "barred": list(bars(position, rules)) if to_move else [],
                "no_repeat": repeat_ban(position, rules) if to_move else None,
            }
        winner = None if position.winner is None else position.winner + 1
        return {
            "game": NAME, "over": position.over, "winner": winner,
            "result": None if not position.over else ("draw" if winner is None else "win"),
            "end_clause": position.end_clause, "turns": position.turns,
            "turn": {"player": None if position.over else mover + 1,
                     "number": position.turns + 1,
                     "may_pass": may_pass(position, rules, steps)},
            "players": players,
            "legal_moves": [target(position.sides[mover], step) for step, _ in steps],
            "options": dict(self.options),
        }

    # -- judging

    def _ruling(self, event: Event, kind: str, clause: str, text: str,
                player: int | None = None, **extra: Any) -> Ruling:
        return Ruling(event.t, kind, clause, text, rule=RULE_WORDS.get(clause, ""),
                      player=player, extra=extra)

    def _judge(self, event: Event) -> list[Ruling]:
        if isinstance(event, Override):
            return [self._ruling(event, "reject", "§5.1",
                                 "Arithmetical Croquet rulings are exact arithmetic, so they "
                                 f"cannot be overruled (ruling {event.ruling}); the declaration "
                                 "stream is the game.")]
        if not isinstance(event, Declare):
            return [self._ruling(event, "reject", "§5.1",
                                 f"Arithmetical Croquet is played by naming numbers; a "
                                 f"{event.type} event means nothing here.")]
        if event.player not in (1, 2):
            raise InvalidEventError(
                f"arithmetical croquet has players 1 and 2, not {event.player!r}")
        player = event.player
        position = self.position
        if event.what not in ("number", "pass"):
            return [self._ruling(event, "reject", "§5.1",
                                 f"A '{event.what}' declaration means nothing in Arithmetical "
                                 "Croquet; name a number or pass.", player)]
        if position.over:
            return [self._ruling(event, "reject", position.end_clause or "ARC-03",
                                 f"The game is over ({self._result_words()}); nothing more "
                                 "may be played.", player)]
        if player != position.mover + 1:
            return [self._ruling(event, "reject", "ARC-02",
                                 f"It is player {position.mover + 1}'s turn, not player "
                                 f"{player}'s: the players name numbers alternately.", player)]
        if event.what == "pass":
            return self._judge_pass(event, player)
        return self._judge_number(event, player)

    def _result_words(self) -> str:
        winner = self.position.winner
        return "drawn" if winner is None else f"player {winner + 1} won"

    def _judge_pass(self, event: Declare, player: int) -> list[Ruling]:
        position, rules = self.position, self.rules
        steps = legal_steps(position, rules)
        if not may_pass(position, rules, steps):
            side = position.sides[position.mover]
            playable = [target(side, step) for step, outcome in steps if outcome != LOSE]
            return [self._ruling(event, "reject", "G-ARC-08",
                                 f"Player {player} may not pass: he can name "
                                 + ", ".join(str(n) for n in playable) + ".",
                                 player, legal=playable)]
        me = position.sides[position.mover]
        if me.req is not None:
            clause = "ARC-10"
            said = f"Player {player} is kept in hoop {me.pos} and passes"
        elif steps:
            clause = "G-ARC-08"
            said = f"Player {player} passes rather than miss the peg a second time"
        else:
            clause = "G-ARC-08"
            said = f"Player {player} has no legal number and passes"
        self.position = play_pass(position, rules)
        return self._after_move(event, clause, said, None, None)

    def _judge_number(self, event: Declare, player: int) -> list[Ruling]:
        position, rules = self.position, self.rules
        me = position.sides[position.mover]
        number = event.value
        if number is None:
            return [self._ruling(event, "reject", "ARC-02",
                                 "A number declaration needs the number named (value).",
                                 player)]
        if isinstance(number, bool) or not isinstance(number, int):
            return [self._ruling(event, "reject", "ARC-02",
                                 f"Player {player} must name a whole number, not {number!r}.",
                                 player)]
        step = _step_of(me, number)
        first = me.last_step is None and me.pos == 0
        clause = "ARC-08" if me.missed else ("ARC-01" if first else "ARC-02")
        if step < 1:
            way = "lower" if me.missed else "higher"
            return [self._ruling(event, "reject", clause,
                                 f"Player {player} must name a {way} number than {me.pos}; "
                                 f"{number} is not.", player, named=number)]
        if step > MAX_STEP:
            return [self._ruling(event, "reject", clause,
                                 f"Player {player} may not move more than 8 from {me.pos}; "
                                 f"{number} is {step} away.", player, named=number)]
        outcome = judge_step(position, step, rules)
        if outcome[0] == "!":
            code = outcome[1:]
            return [self._ruling(event, "reject", code, self._why_illegal(code, step, number),
                                 player, named=number, step=step,
                                 legal=[target(me, s) for s, _ in legal_steps(position, rules)])]
        self.position = play_step(position, step, outcome, rules)
        rulings: list[Ruling] = []
        if outcome in (STRADDLE, OUT):
            hoop = me.pos if outcome == OUT else _hoop_ahead(me)
            how = (f"coming out of it to {number}" if outcome == OUT
                   else f"going from {me.pos} to {number}")
            rulings.append(self._ruling(
                event, "score", "ARC-05" if outcome == OUT else "ARC-04",
                f"Player {player} takes hoop {hoop}, {how}.", player, hoop=hoop))
        said = {
            ADVANCE: f"Player {player} names {number}",
            INTO: f"Player {player} names {number}, into hoop {number}; he must come out "
                  f"with {number + step}",
            OUT: f"Player {player} names {number}, out of hoop {me.pos}",
            STRADDLE: f"Player {player} names {number}, through hoop "
                      f"{_hoop_ahead(me)}",
            OVERSHOOT: f"Player {player} names {number}, missing the peg once; he now "
                       "plays down toward 100",
            WIN: "", LOSE: "",
        }[outcome]
        move_clause = {ADVANCE: clause, INTO: "ARC-05", OUT: "ARC-05", STRADDLE: "ARC-04",
                       OVERSHOOT: "ARC-08", WIN: "ARC-03", LOSE: "ARC-09"}[outcome]
        return rulings + self._after_move(event, move_clause, said, number, step)

    def _why_illegal(self, code: str, step: int, number: int) -> str:
        position = self.position
        me, opp = position.sides[position.mover], position.sides[1 - position.mover]
        player, other = position.mover + 1, 2 - position.mover
        if code == "ARC-05":
            return (f"Player {player} is in hoop {me.pos} and may only come out with "
                    f"{me.pos + (me.req or 0)}, the number so ordered.")
        if code == "ARC-04":
            hoop = _hoop_ahead(me)
            if hoop - me.pos > MAX_STEP // 2:
                return (f"From {me.pos}, {number} would miss hoop {hoop}, which is too far "
                        f"to straddle; name {hoop} or less.")
            return (f"From {me.pos}, {number} would miss hoop {hoop}; only "
                    f"{2 * hoop - me.pos} takes it.")
        if code == "ARC-10":
            return (f"Player {player} is kept in hoop {me.pos}: player {other}'s step of "
                    f"{opp.last_step} bars the step of {step} he needs.")
        if code == "ARC-06":
            last = opp.last_step or 0
            return (f"Player {other}'s step of {last} bars player {player} from a step of "
                    f"{min(last, 9 - last)} or {max(last, 9 - last)}.")
        if code == "ARC-11":
            return (f"Player {player} kept player {other} in with a step of {step} last turn "
                    "and may not play it twice running.")
        return (f"Player {player} stepped {step} last turn and may not repeat it "
                "(arc_no_repeat_global).")

    def _after_move(self, event: Event, clause: str, said: str, number: int | None,
                    step: int | None) -> list[Ruling]:
        """The ruling that ends a turn: the win, or whose turn it is and under what bars."""
        position, rules = self.position, self.rules
        mover_before = 2 - position.mover
        if position.over:
            return [self._win_ruling(event, mover_before, number)]
        nxt = position.mover + 1
        side = position.sides[position.mover]
        steps = legal_steps(position, rules)
        barred = bars(position, rules)
        free = barring_exemption(position, rules)
        if side.req is not None and not steps:
            next_clause = "ARC-10"
            state = (f"player {nxt} to play, kept in hoop {side.pos}: the step of {side.req} "
                     "he needs is barred, so he must pass")
        elif barred:
            next_clause = "ARC-06"
            state = f"player {nxt} to play, barred from steps {barred[0]} and {barred[1]}"
        elif free:
            next_clause = "ARC-07"
            state = f"player {nxt} to play, unbarred: {free}"
        else:
            next_clause = clause
            state = f"player {nxt} to play, unbarred"
        if steps and may_pass(position, rules, steps):
            state += " (every legal number misses the peg twice, so he may pass)"
        return [self._ruling(event, "turn", next_clause, f"{said}; {state}.", nxt,
                             move_clause=clause, named=number, step=step, bars=list(barred),
                             legal=[target(side, s) for s, _ in steps],
                             may_pass=may_pass(position, rules, steps))]

    def _win_ruling(self, event: Event, mover: int, number: int | None) -> Ruling:
        position = self.position
        clause = position.end_clause or "ARC-03"
        winner = None if position.winner is None else position.winner + 1
        if clause == "ARC-03":
            text = f"Player {mover} names 100, the winning peg, and wins."
        elif clause == "ARC-09":
            text = (f"Player {mover} misses the peg a second time, naming {number}, and loses; "
                    f"player {winner} wins.")
        else:
            far = [abs(PEG - side.pos) for side in position.sides]
            limit = self.rules.max_turns
            if winner is None:
                text = (f"The limit of {limit} turns is reached with both players {far[0]} "
                        "from the peg: the game is drawn.")
            else:
                text = (f"The limit of {limit} turns is reached; player {winner} is closer to "
                        f"100 ({far[winner - 1]} against {far[2 - winner]}) and wins.")
        return self._ruling(event, "win", clause, text, winner, named=number)


@register(NAME)
class ArithmeticalCroquet:
    """The game: its options (RULES-SPEC §6, ARC rows); it makes referee states."""

    name = NAME

    def __init__(self, options: dict[str, Any] | None = None) -> None:
        given = dict(options or {})
        if "layout_file" in given:
            raise OptionError("arithmetical-croquet is played without a table: it takes no "
                              "layout")
        self.options: dict[str, Any] = resolve_options(OPTIONS, given)
        self.rules = ArcRules.from_options(self.options)

    def new_state(self) -> ArcState:
        return ArcState(self.rules, self.options)

    def state_from_json(self, data: dict[str, Any]) -> ArcState:
        """The state `ArcState.to_json` wrote; it must come from a game with the same options."""
        if data.get("game") != NAME:
            raise InvalidEventError(f"not an {NAME} state: game is {data.get('game')!r}")
        if data.get("options", self.options) != self.options:
            raise OptionError("the saved state was played with other options: "
                              f"{data.get('options')!r}")
        return ArcState(self.rules, self.options, position_from_json(data["position"]),
                        int(data["events"]))
