"""Lewis Carroll's Castle Croquet (1863?) as a table variant: the rules as a fold over events.

Every clause CAR-01…CAR-23 of RULES-SPEC §3 with the default resolutions of §3.3 and every
CAR option of §6, on Castle Croquetnole's engine: :class:`CarrollState` subclasses
:class:`~referee.rules.croquetnole.CroquetnoleState` and keeps its machinery (the event
history, overrides by re-folding, uncertain events, off-table returns, tiles, flips, hand
placements and the snapshot/rollback of a flick), overriding the hooks where Carroll's rules
differ from Hale-Evans's:

- turns: one ball per turn, all soldiers then all sentinels (CAR-05), not knight-then-guard;
- "may be played again" (CAR-16): a stroke with a Rule IV event gives *one* more stroke
  (G-CAR-06), not cumulative bonus flicks;
- capture by touch *or by entering* while both sentinels are on duty (CAR-09/10); prisoners
  wait behind the flag (CAR-11), are released behind the door and are immune until after
  their next turn (CAR-15);
- croquet off any eligible ball, which must not move, and which gives no continuation
  (CAR-19/20/21);
- a sentinel may not enter or leave twice in a turn (CAR-17), and ignores foreign arches
  (CAR-18);
- the win: the soldier touches its own flag after re-entering, *then* the sentinel on duty
  touches it (CAR-06, G-CAR-14).

The table's error rules (off table, illegal entry, knocked tiles) are Croquetnole's (G-CAR-18).
Where the spec and Carroll's text disagree, the text is followed (docs/carroll-castle-croquet.md).
"""

from __future__ import annotations

import copy
from typing import Any

from referee import events as ev
from referee.geometry import dist, in_contact
from referee.layout import Layout, load_layout
from referee.layouts_carroll import COLOURS_4, COLOURS_5, GAME, CarrollSpots, build_layout
from referee.layouts_carroll import carroll_spots as layout_spots
from referee.rules.base import OptionError, castle_roles, register, resolve_options
from referee.rules.carroll_options import OPTIONS
from referee.rules.carroll_text import CLAUSES
from referee.rules.croquetnole import (
    PLACE_ORDER,
    CastleCroquetnole,
    CroquetnoleState,
    _pt,
)
from referee.rules.croquetnole_model import Guard, Knight, Motion, Request, Turn, course_items
from referee.rules.croquetnole_options import OPTIONS as CCN_OPTIONS
from referee.rules.croquetnole_text import CLAUSES as CCN_CLAUSES

SOLDIER_STATUSES = ("in_play", "released", "prisoner")
"""`released` is RELEASED_UNPLAYED (§3.1): freed, and not yet played since."""
POINT_TOLERANCE_MM = 5.0
"""CAR-03/CAR-14: Carroll's spots are points, ± 5 mm."""

_CCN_NAMES = {opt.name for opt in CCN_OPTIONS}
_ITEM_WORDS = {"in": "enters gate", "out": "comes out at gate", "door": "goes through door",
               "tower": "touches the flag of castle"}


def _fresh_car() -> dict[str, Any]:
    """Carroll's per-turn and per-stroke state (kept beside Croquetnole's `Turn`)."""
    return {
        "started": False,        # a first flick has been made (CAR-03 setup checks end)
        "leaves": 0,             # CAR-17: the active sentinel's leaves this turn
        "enters": 0,             # CAR-17: … and enters
        "croqueted": [],         # CAR-20: balls croqueted off this turn (since a Rule IV event)
        "croquet_due": [],       # CAR-19: balls the last stroke may croquet off
        "croquet_only": False,   # G-CAR-08: the following stroke exists only as a croquet
        "croquet_ball": None,    # the ball named in a croquet declaration
        "stroke": _fresh_stroke(),
    }


def _fresh_stroke() -> dict[str, Any]:
    return {"touched": [], "croquet": None, "displaced": []}


class CarrollCastleCroquet(CastleCroquetnole):
    """The game: options and layout (immutable); it makes :class:`CarrollState` objects."""

    name = GAME

    def __init__(self, options: dict[str, Any] | None = None,
                 layout: Layout | None = None) -> None:
        given = dict(options or {})
        self.options = resolve_options(OPTIONS, given)
        o = self.options
        if layout is None:
            if o["layout_file"]:
                layout = load_layout(o["layout_file"])
            elif o["car_players"] == 5:
                if given.get("car_layout") == "ccn_hub":
                    raise OptionError("car_players=5 needs the open ring of five castles "
                                      "(G-CAR-16): the hub layout does not generalise; leave "
                                      "car_layout unset or give carroll_open")
                layout = build_layout("carroll_five", o["layout_orientation"])
            else:
                layout = build_layout(o["car_layout"], o["layout_orientation"])
        players = len(layout.castles)
        if players not in (4, 5):
            raise OptionError(f"Carroll's Castle Croquet needs 4 or 5 castles; the layout has "
                              f"{players}")
        if "car_players" in given and players != o["car_players"]:
            raise OptionError(f"car_players={o['car_players']} but the layout has {players} "
                              "castles")
        self.players = players
        self.layout = layout
        self.castles = sorted(layout.castles)
        self.knight_of, self.guard_of, self.role, self.line_role, self.tower_castle = \
            castle_roles(layout, "soldier", "sentinel")
        self.dummies: set[int] = set()
        self.playing = list(self.castles)
        self.schedule = ([(n, "soldier") for n in self.castles]
                         + [(n, "sentinel") for n in self.castles])
        self.courses = {n: course_items(n, players) for n in self.castles}
        self.spots: dict[int, CarrollSpots] = {n: layout_spots(layout, n) for n in self.castles}
        self.colours = COLOURS_4 if players == 4 else COLOURS_5
        engine = resolve_options(CCN_OPTIONS, {k: v for k, v in o.items() if k in _CCN_NAMES})
        engine.update(o)
        self.engine_options = engine
        """Croquetnole's options (its defaults) overlaid with this game's: what the inherited
        code reads."""
        r = layout.coin_mm / 2.0
        self.offtable_inset = (o["offtable_inset_mm"] if o["offtable_inset_mm"] is not None
                               else r + 0.5)

    def controller(self, castle: int) -> int:
        """Each player plays one castle."""
        return castle

    def new_state(self) -> CarrollState:
        return CarrollState(self)

    def state_from_json(self, data: dict[str, Any]) -> CarrollState:
        return CarrollState(self, data)


@register(GAME)
def make_carroll_castle_croquet(options: dict[str, Any] | None = None) -> CarrollCastleCroquet:
    return CarrollCastleCroquet(options)


class CarrollState(CroquetnoleState):
    """A position of Carroll's Castle Croquet; `apply(event)` folds one event into rulings."""

    GAME = GAME
    WIN_CLAUSE = "CAR-06"
    game: CarrollCastleCroquet

    def _options(self, game: Any) -> dict[str, Any]:
        return game.engine_options

    def rule_words(self, clause: str) -> str:
        return (CLAUSES.get(clause) or CCN_CLAUSES.get(clause) or ("", ""))[1]

    # ------------------------------------------------------------------ state as data
    def _reset(self) -> None:
        g = self.game
        self.knights = {g.knight_of[n]: Knight(g.knight_of[n], n, status="in_play", member=n)
                        for n in g.castles}
        self.guards = {g.guard_of[n]: Guard(g.guard_of[n], n, member=n) for n in g.castles}
        self.turn = Turn()
        self.motion: Motion | None = None
        self.positions: dict[str, list[float]] = {}
        for n in g.castles:  # CAR-03
            self.positions[g.knight_of[n]] = _pt(g.spots[n].soldier_start)
            self.positions[g.guard_of[n]] = _pt(g.spots[n].sentinel_start)
        self.stacked: dict[str, str] = {}
        self.pending: dict[str, Request] = {}
        self.over = False
        self.winner: int | None = None
        self.tiles_out: list[str] = []
        self.times_taken: dict[str, int] = {}
        self.car = _fresh_car()
        self._start_slot()

    def _core(self) -> dict[str, Any]:
        core = super()._core()
        core["car"] = copy.deepcopy(self.car)
        return core

    def _load_core(self, d: dict[str, Any]) -> None:
        super()._load_core(d)
        self.car = copy.deepcopy(d["car"])

    # ------------------------------------------------------------------ the summary
    def summary(self) -> dict[str, Any]:
        """The final-state summary (docs/carroll-castle-croquet.md, "The summary")."""
        g = self.game
        castle, phase = self._current()
        players: dict[str, Any] = {}
        for n in g.castles:
            k = self.knights[g.knight_of[n]]
            s = self.guards[g.guard_of[n]]
            items = g.courses[n]
            done = k.course - (1 if k.home_exit_pending else 0)
            if k.status == "prisoner":
                where, nxt = None, None
            else:
                where = k.member
                nxt = (f"out-{n}" if k.home_exit_pending
                       else items[k.course] if k.course < len(items) else None)
            players[str(n)] = {
                "soldier": {"coin": k.coin, "colour": g.colours[n][0], "status": k.status,
                            "castle": where, "prisoner_of": k.prisoner_of, "next": nxt,
                            "course_done": done, "course_length": len(items),
                            "finished": self._finished(k), "immune": self._immune(k)},
                "sentinel": {"coin": s.coin, "colour": g.colours[n][1], "on_duty": s.on_duty},
            }
        return {
            "game": GAME,
            "over": self.over,
            "winner": self.winner,
            "turn": {"player": castle, "coin": self.turn.coin, "phase": phase,
                     "round": self.turn.round, "flicks_left": self._strokes_left(),
                     "croquet_due": list(self.car["croquet_due"]),
                     "croquet_ball": self.car["croquet_ball"]},
            "players": players,
            "in_motion": self.motion is not None,
            "times_taken": {str(n): self.times_taken.get(str(n), 0) for n in g.castles},
            "pending_placements": [
                {"coin": r.coin, "kind": r.kind, "at": r.at, "on": r.on, "clause": r.clause}
                for r in sorted(self.pending.values(), key=lambda r: r.order)
            ],
        }

    def _strokes_left(self) -> int:
        free = self.o["car_croquet_and_continue"] and bool(self.car["croquet_due"])
        return max(0, self.turn.flicks_left) + (1 if free else 0)

    # ------------------------------------------------------------------ helpers
    def _name(self, coin: str) -> str:
        role, n = self.game.role[coin]
        colour = self.game.colours[n][0 if role == "soldier" else 1]
        return f"{colour} {role} ({coin})"

    def _on_tower(self, coin: str) -> bool:
        """A prisoner cannot move (CAR-12), wherever it is kept."""
        k = self.knights.get(coin)
        return k is not None and k.status == "prisoner"

    def _finished(self, k: Knight) -> bool:
        return not k.home_exit_pending and k.course >= len(self.game.courses[k.owner])

    @staticmethod
    def _immune(k: Knight) -> bool:
        return k.immunity in ("awaiting", "active")

    def _slot_index(self, owner: int, castle: int) -> int:
        """0.. for the prisoners of `castle`: their own fixed places behind its flag."""
        return (owner - castle) % self.game.players - 1

    def _prison(self, k: Knight, j: int) -> tuple[list[float] | None, str | None]:
        """Where a prisoner of castle j is kept: (spot, stack) by `car_prisoner_spot`."""
        if self.o["car_prisoner_spot"] == "on_tower":
            slot = ((k.owner - j) % self.game.players) % 4
            spot = self.layout.castles[j].tower_slots.get(slot)
            return (_pt(spot) if spot else None), self.layout.castles[j].tower
        return _pt(self.game.spots[j].prisoners[self._slot_index(k.owner, j)]), None

    # ------------------------------------------------------------------ turns
    def _start_slot(self) -> tuple[list[str], str | None]:
        """Open the current schedule slot: its ball gets one stroke (CAR-05).

        A prisoner's turn is skipped (CAR-12, G-CAR-15); a released soldier's immunity runs
        through this, its next turn (G-CAR-05).  Returns the notes of skipped turns.
        """
        g = self.game
        notes: list[str] = []
        while True:
            castle, phase = g.schedule[self.turn.slot]
            if phase == "sentinel":
                self.turn.coin = g.guard_of[castle]
                break
            k = self.knights[g.knight_of[castle]]
            if k.status != "prisoner":
                if k.immunity == "awaiting":
                    k.immunity = "active"
                self.turn.coin = k.coin
                break
            notes.append(f"{self._name(k.coin)} is a prisoner of castle {k.prisoner_of}: "
                         "its turn is skipped.")
            if not self._advance():
                return notes, None
        self.turn.flicks_left = 1
        self.turn.flicked = []
        self.car.update(leaves=0, enters=0, croqueted=[], croquet_due=[], croquet_only=False,
                        croquet_ball=None)
        return notes, None

    def _next_slot(self, announce: bool = True) -> None:
        """Close the active ball's turn and open the next (soldiers, then sentinels)."""
        g = self.game
        castle, phase = self._current()
        if phase == "soldier":
            k = self.knights[g.knight_of[castle]]
            if k.immunity == "active":
                k.immunity = "none"  # "until after his next turn" (G-CAR-05)
        if not self._advance():
            return
        notes, _ = self._start_slot()
        if self.over or not announce:
            return
        for note in notes:
            self._rule("turn", "CAR-12", note)
        new_castle, new_phase = self._current()
        self._rule("turn", "CAR-05",
                   f"Player {new_castle} to play, {new_phase} round {self.turn.round}: "
                   f"{self._name(self.turn.coin)}.", player=new_castle, coin=self.turn.coin)

    def _end_turn(self) -> None:
        """A turn is one ball's play: ending it is passing to the next slot."""
        self._next_slot()

    # ------------------------------------------------------------------ dispatch
    # ------------------------------------------------------------------ strokes
    def _on_flick(self, e: ev.Flick) -> None:
        if self.motion is not None:
            self._rule("foul", "§1.3",
                       "Warning: a ball was flicked before the last stroke settled; the earlier "
                       "stroke is closed here (no penalty).", coin=e.coin,
                       extra={"penalty": "none"})
            self._settle(None)
        if self.over:
            return
        # Outstanding placements are taken as carried out (players comply before flicking).
        for req in list(self.pending.values()):
            if req.at and req.kind not in ("flip", "tile"):
                self.positions[req.coin] = list(req.at)
            if req.on:
                self.stacked[req.coin] = req.on
        self.pending.clear()
        self.tiles_out.clear()
        self.car["started"] = True
        self.car["stroke"] = _fresh_stroke()

        coin = e.coin
        castle, _ = self._current()
        self.motion = Motion(coin, e.t, self._index, self._core(),
                             copy.deepcopy(self.positions))
        m = self.motion
        k = self.knights.get(coin)
        if k is not None and k.status == "prisoner":
            self._wrong_ball(coin, f"{self._name(coin)} is a prisoner of castle "
                             f"{k.prisoner_of} and cannot move till released.", "CAR-12")
            return
        if coin != self.turn.coin:
            self._wrong_ball(coin, f"it is player {castle}'s turn to play "
                             f"{self._name(self.turn.coin)}.", "CAR-05")
            return
        if self.o["enforce_flick_form"] and (
                (e.finger_ms is not None and e.finger_ms > self.o["push_ms"])
                or (e.touch_mm is not None and e.touch_mm > 10.0)):
            self.turn.flicks_left -= 1
            self.turn.flicked.append(coin)
            self.car.update(croquet_due=[], croquet_only=False, croquet_ball=None)
            self._rule("foul", "CCN-14",
                       "That was a push, not a flick: the stroke is spent and its effects are "
                       "void; the balls go back.", coin=coin, player=castle)
            m.void = "foul"
            return
        self._begin_stroke(coin)
        m.moved.append(coin)

    def _wrong_ball(self, coin: str, why: str, clause: str) -> None:
        """G-CCN-42 (wrong_coin_penalty): the stroke is void and the balls go back."""
        m = self.motion
        assert m is not None
        m.void = "foul"
        end = self.o["wrong_coin_penalty"] == "end_turn"
        self._rule("foul", clause,
                   f"Wrong ball: {why} The balls go back where they were"
                   + ("; the turn ends." if end else "; no stroke is spent."),
                   coin=coin, player=self._current()[0])
        if end:
            m.play_over = True
            m.snapshot["_end_turn"] = True

    def _begin_stroke(self, coin: str) -> None:
        """Spend the stroke; decide whether it is a croquet stroke (CAR-19, G-CAR-07/08)."""
        car = self.car
        player = self._player_of(coin)
        ball = car["croquet_ball"]
        implicit = False
        if ball is None and car["croquet_due"] and (car["croquet_only"]
                                                    or self.turn.flicks_left <= 0):
            ball = car["croquet_due"][0]
            implicit = True
        if ball is not None and self._not_croquetable(ball):
            self._rule("bonus", "G-CAR-07",
                       f"No croquet off {self._name(ball)}: it is {self._not_croquetable(ball)} "
                       "now; this is a normal stroke.", player=player, coin=coin, bonus=0)
            ball = None
        if ball is not None:
            car["stroke"]["croquet"] = ball
            car["croqueted"].append(ball)
            movable = self._croquet_ball_movable(coin, ball)
            self._rule("bonus", "CAR-19",
                       f"Croquet stroke: {self._name(coin)} is played from touching "
                       f"{self._name(ball)}"
                       + (" (the croquet it was due)" if implicit else "")
                       + ("; that ball may move: it is the player's own sentinel off duty."
                          if movable else "; that ball must not move."),
                       player=player, coin=coin, bonus=0, extra={"croquet": ball})
            if not self.o["car_croquet_and_continue"] or car["croquet_only"]:
                self.turn.flicks_left -= 1
        else:
            if car["croquet_due"]:
                self._rule("bonus", "G-CAR-08",
                           "The croquet is not taken: this is a normal stroke.",
                           player=player, coin=coin, bonus=0)
            self.turn.flicks_left -= 1
        car["croquet_due"] = []
        car["croquet_only"] = False
        car["croquet_ball"] = None
        self.turn.flicked.append(coin)
        k = self.knights.get(coin)
        if k is not None and k.status == "released":
            k.status = "in_play"
            self._again(coin, "CAR-16", f"{self._name(coin)} plays after being released.")

    def _again(self, coin: str, clause: str, text: str, kind: str = "bonus",
               **kw: Any) -> None:
        """A Rule IV event of `coin` (CAR-16): the active ball may be played again."""
        m = self.motion
        player = self._player_of(coin)
        if m is None or not self._is_active(coin):
            self._rule(kind, clause, text + " No extra stroke: it was not the ball played.",
                       player=player, coin=coin, bonus=0, **kw)
            return
        self.car["croqueted"] = []  # G-CAR-09
        n = 1
        if m.lost_flicks:
            text += " No extra stroke: the ball went off the table."
            n = 0
        elif self.o["car_bonus_mode"] == "play_again" and m.bonus_given >= 1:
            text += " It may be played again, once for this stroke (G-CAR-06)."
            n = 0
        else:
            text += " It may be played again."
        self.turn.flicks_left += n
        m.bonus_given += n
        self._rule(kind, clause, text, player=player, coin=coin, bonus=n, **kw)

    # ------------------------------------------------------------------ croquet
    def _not_croquetable(self, ball: str) -> str | None:
        """CAR-19: why no croquet may be taken off `ball` (None if it may)."""
        g = self.guards.get(ball)
        if g is not None:
            return "a sentinel on duty" if g.on_duty else None
        k = self.knights[ball]
        if k.status == "prisoner":
            return "a prisoner"
        if k.status == "released":
            return "a released prisoner who has not played since his release"
        return None

    def _croquet_ball_movable(self, coin: str, ball: str) -> bool:
        """CAR-19: only the player's own sentinel, off duty, may be moved by the croquet."""
        g = self.guards.get(ball)
        return g is not None and not g.on_duty and g.owner == self._player_of(coin)

    def _held_still(self, coin: str) -> bool:
        """`coin` is this croquet stroke's ball and must not move."""
        ball = self.car["stroke"]["croquet"]
        return (self.motion is not None and ball == coin
                and not self._croquet_ball_movable(self.motion.coin, ball))

    def _displaced(self, coin: str) -> None:
        if coin not in self.car["stroke"]["displaced"]:
            self.car["stroke"]["displaced"].append(coin)

    def _touch(self, a: str, b: str) -> None:
        """The active ball `a` touched `b` (CAR-19/20)."""
        st = self.car["stroke"]
        if b in st["touched"]:
            return
        player = self._player_of(a)
        why = self._not_croquetable(b)
        if why:
            self._rule("bonus", "CAR-19", f"{self._name(a)} touched {self._name(b)}: no croquet "
                       f"off {why}.", player=player, coin=a, bonus=0)
            return
        if b in self.car["croqueted"]:
            self._rule("bonus", "CAR-20", f"{self._name(a)} touched {self._name(b)} again: no "
                       "second croquet off it this turn until a Rule IV event.",
                       player=player, coin=a, bonus=0)
            return
        st["touched"].append(b)
        self._rule("bonus", "CAR-19", f"{self._name(a)} touched {self._name(b)}: it may croquet "
                   "off it after this stroke.", player=player, coin=a, bonus=0,
                   extra={"croquet_possible": b})

    def _croquet_rights(self, m: Motion) -> None:
        """After a stroke: which balls it may croquet off, and whether that adds a stroke."""
        car = self.car
        touched = [b for b in car["stroke"]["touched"]
                   if not self._not_croquetable(b) and b not in car["croqueted"]]
        if not touched:
            return
        car["croquet_due"] = touched
        coin = m.coin
        if not self.o["car_croquet_and_continue"] and m.bonus_given == 0:
            self.turn.flicks_left += 1
            car["croquet_only"] = True
        choices = ", ".join(f"{n + 1} = {self._name(b)}" for n, b in enumerate(touched))
        if car["croquet_only"]:
            then = " The croquet is the only following stroke (CAR-21: it gives no other)."
        elif self.o["car_croquet_and_continue"]:
            then = (" The croquet comes on top of the stroke(s) it may play again "
                    "(car_croquet_and_continue).")
        else:
            then = " The one following stroke may be the croquet or a normal stroke (G-CAR-08)."
        self._rule("bonus", "CAR-19",
                   f"{self._name(coin)} may croquet off {choices}: declare croquet (option = "
                   "the number) and put it touching that ball." + then,
                   player=self._player_of(coin), coin=coin, bonus=0,
                   extra={"croquet_due": touched})

    # ------------------------------------------------------------------ crossings
    def _on_cross(self, coin: str, line: str, direction: str) -> None:
        if self._on_tower(coin) or self._held_still(coin):
            self._displaced(coin)
            return
        if line not in self.game.line_role:
            return
        what, j = self.game.line_role[line]
        role, _ = self.game.role[coin]
        if role == "soldier":
            self._soldier_cross(self.knights[coin], what, j, direction)
        else:
            self._sentinel_cross(self.guards[coin], what, j, direction)

    def _soldier_cross(self, k: Knight, what: str, j: int, direction: str) -> None:
        i = k.owner
        if what == "door":
            if k.member == j and j != i:
                self._score(k, f"door-{j}")  # "through the door (either way)", CAR-07
            return
        if direction == "+":
            if k.member is None:
                k.member = j
                if j != i and self._entry_capture_due(k, j):
                    self._score(k, f"in-{j}", again=False)
                    self._capture(k, self.guards[self.game.guard_of[j]], "CAR-10")
                    return
                self._score(k, f"in-{j}")
            elif k.member == j:
                return
            elif self._is_active(k.coin):
                self._illegal_entry(k, j)
            elif self.o["passive_illegal_entry"] == "restore_passive_coin":
                assert self.motion is not None
                self._request(Request(k.coin, "spot", "CCN-51", PLACE_ORDER["rollback"],
                                      at=self.motion.positions.get(k.coin),
                                      why="where it was before it was knocked into the gate "
                                      "(passive_illegal_entry)"))
            return
        if k.member != j:
            return  # leaving a castle it is not in: neutral (CAR-08)
        k.member = None
        self._score(k, f"out-{j}")

    def _entry_capture_due(self, k: Knight, j: int) -> bool:
        """CAR-10: entering castle j while its sentinel and the soldier's own are on duty."""
        captor = self.guards[self.game.guard_of[j]]
        own = self.guards[self.game.guard_of[k.owner]]
        if not (captor.on_duty and own.on_duty):
            return False
        if self._immune(k):
            self._rule("score", "CAR-15", f"{self._name(k.coin)} enters castle {j} while both "
                       "sentinels are on duty, but it was released and cannot be taken "
                       "prisoner until after its next turn.", player=k.owner, coin=k.coin,
                       bonus=0)
            return False
        return True

    def _score(self, k: Knight, item: str, again: bool = True) -> bool:
        """CAR-06/07, G-CAR-17: `item` scores iff it is the soldier's next course item."""
        if k.status == "prisoner":
            return False
        items = self.game.courses[k.owner]
        if k.home_exit_pending:
            if item != f"out-{k.owner}":
                return False
            k.home_exit_pending = False
        elif k.course >= len(items) or items[k.course] != item:
            return False
        else:
            k.course += 1
        verb, _, castle = item.partition("-")
        own = castle == str(k.owner)
        nxt = self._next_item(k)
        if self._finished(k):
            tail = "; it has finished its course: now its sentinel, on duty, must touch the flag."
        else:
            tail = f"; next: {nxt}." if nxt else "."
        what = ("re-enters its own castle" if verb == "in" and own
                else "touches its own flag" if verb == "tower" and own
                else f"{_ITEM_WORDS[verb]} {castle}")
        text = f"{self._name(k.coin)} {what} in its proper course{tail}"
        clause = "CAR-06" if own else "CAR-07"
        if again:
            self._again(k.coin, clause, text, kind="score", extra={"item": item})
        else:
            self._rule("score", "G-CAR-11", text + " No extra stroke: it is taken prisoner "
                       "at once.", player=k.owner, coin=k.coin, bonus=0, extra={"item": item})
        return True

    def _next_item(self, k: Knight) -> str | None:
        if k.home_exit_pending:
            return f"out-{k.owner}"
        items = self.game.courses[k.owner]
        return items[k.course] if k.course < len(items) else None

    def _illegal_entry(self, k: Knight, j: int) -> None:
        """CCN-51/52 (G-CAR-18): the soldier went into gate j while inside another castle."""
        m = self.motion
        assert m is not None
        inside = k.member
        if self.o["illegal_rollback"] == "all_coins":
            moved, flicked = list(m.moved), list(self.turn.flicked)
            self._load_core(m.snapshot)
            self.motion = m
            self.turn.flicked = flicked
            coins = moved
        else:
            self.knights[k.coin] = Knight(**copy.deepcopy(m.snapshot["knights"][k.coin]))
            coins = [k.coin]
        self.turn.flicks_left = 0
        self.car["croquet_due"] = []
        m.void = "illegal"
        m.play_over = True
        m.snapshot["_rollback_coins"] = coins
        m.snapshot["_rollback_clause"] = "CCN-52"
        self._rule("illegal", "CCN-52",
                   f"Illegal: {self._name(k.coin)} went into gate {j} while still inside castle "
                   f"{inside}; no ball can enter or leave a castle except at the gate. The "
                   "stroke is void, the balls go back where they were, and its turn ends.",
                   player=k.owner, coin=k.coin, extra={"rollback": coins})

    def _sentinel_cross(self, g: Guard, what: str, j: int, direction: str) -> None:
        if what != "gate" or j != g.owner:
            return  # CAR-18: no account is taken of any arch but his own gate
        leaving = direction == "-" and g.on_duty
        entering = direction == "+" and not g.on_duty
        if not (leaving or entering):
            return
        active = self._is_active(g.coin)
        key = "leaves" if leaving else "enters"
        second = active and self.car[key] >= 1
        verb = "leave" if leaving else "enter"
        if second and self.o["car_second_crossing"] == "foul_rollback":
            self._second_crossing_foul(g, verb)
            return
        if active:
            self.car[key] += 1
        g.on_duty = entering
        g.member = g.owner if entering else None
        self._rule("duty", "CAR-08",
                   f"{self._name(g.coin)} {'leaves' if leaving else 're-enters'} its castle: "
                   f"{'off' if leaving else 'on'} duty.", player=g.owner, coin=g.coin,
                   extra={"on_duty": entering})
        if leaving:
            self._release_all(g.owner)
        if second:
            self._rule("bonus", "CAR-17", f"{self._name(g.coin)} already {verb}ed its castle "
                       "this turn: no extra stroke (car_second_crossing=no_bonus_only).",
                       player=g.owner, coin=g.coin, bonus=0)
        elif active:
            self._again(g.coin, "CAR-16", f"{self._name(g.coin)} "
                        f"{'left' if leaving else 'entered'} its castle.")

    def _second_crossing_foul(self, g: Guard, verb: str) -> None:
        """CAR-17 / G-CAR-10: roll the stroke back and end the turn."""
        m = self.motion
        assert m is not None
        moved, flicked = list(m.moved), list(self.turn.flicked)
        self._load_core(m.snapshot)
        self.motion = m
        self.turn.flicked = flicked
        self.turn.flicks_left = 0
        m.void = "foul"
        m.play_over = True
        m.snapshot["_rollback_coins"] = moved
        m.snapshot["_rollback_clause"] = "CAR-17"
        m.snapshot["_end_turn"] = True
        self._rule("foul", "CAR-17",
                   f"{self._name(g.coin)} may not {verb} its castle twice in one turn: the "
                   "stroke is void, the balls go back where they were and the turn ends.",
                   player=g.owner, coin=g.coin, extra={"rollback": moved})

    # ------------------------------------------------------------------ contacts
    def _on_contact(self, e: ev.Contact) -> None:
        if e.speed is not None and e.speed < self.o["v_hit_min"]:
            return  # §1.2: too slow to be a touch
        a, b = e.a, e.b
        for c in (a, b):
            if self._on_tower(c) and c in e.moving:
                self._displaced(c)
        if self._on_tower(a) or self._on_tower(b):
            return  # G-CAR-03: prisoners are obstacles only
        active = self.turn.coin
        held = next((c for c in (a, b) if self._held_still(c)), None)
        if held is not None:
            self._displaced(held)  # CAR-19: it must not move; it goes back (no penalty)
            if active not in (a, b):
                return
        self._captures(a, b)
        m = self.motion
        if m is None or m.void or active not in (a, b) or self._on_tower(active):
            return
        other = b if active == a else a
        if self._on_tower(other):
            return
        self._touch(active, other)

    def _captures(self, a: str, b: str) -> None:
        """CAR-09: a soldier and a sentinel on duty touch, both within the sentinel's castle."""
        for sc, gc in ((a, b), (b, a)):
            k, g = self.knights.get(sc), self.guards.get(gc)
            if k is None or g is None or k.status == "prisoner":
                continue
            j = g.owner
            if j == k.owner or k.member != j or not g.on_duty:
                continue
            if self._immune(k):
                self._rule("score", "CAR-15", f"{self._name(k.coin)} touched "
                           f"{self._name(g.coin)} in castle {j}, but it was released and "
                           "cannot be taken prisoner until after its next turn.",
                           player=k.owner, coin=k.coin, bonus=0)
                continue
            self._capture(k, g, "CAR-09")

    def _capture(self, k: Knight, g: Guard, clause: str, how: str | None = None) -> None:
        """CAR-09/10/11: the soldier becomes a prisoner, placed behind the flag."""
        j = g.owner
        was_active = self._is_active(k.coin)
        k.status = "prisoner"
        k.prisoner_of = j
        k.member = None
        k.immunity = "none"
        self.times_taken[str(k.owner)] = self.times_taken.get(str(k.owner), 0) + 1
        spot, stack = self._prison(k, j)
        if how is None and clause == "CAR-10":
            how = (f"entered castle {j} while its sentinel, {self._name(g.coin)}, and its own "
                   "were both on duty")
        elif how is None:
            how = f"and {self._name(g.coin)} touched within castle {j}"
        where = (f"on top of {stack}" if stack else f"behind the flag of castle {j}")
        self._rule("capture", clause,
                   f"{self._name(k.coin)} {how}: it is a prisoner; put it {where}."
                   + (" Its turn ends." if was_active else ""),
                   player=k.owner, coin=k.coin, at=tuple(spot) if spot else None, on=stack,
                   extra={"captor": j})
        if stack:
            self._request(Request(k.coin, "tower", "CAR-11", PLACE_ORDER["prisoner"], at=spot,
                                  on=stack, castle=j))
        else:
            self._request(Request(k.coin, "point", "CAR-11", PLACE_ORDER["prisoner"], at=spot,
                                  castle=j, why=f"behind the flag of castle {j} (a prisoner)"))
        if was_active:
            self.turn.flicks_left = 0
            assert self.motion is not None
            self.motion.play_over = True
        if self._is_active(g.coin):
            self._again(g.coin, "CAR-16", f"{self._name(g.coin)} took a prisoner.")

    # ------------------------------------------------------------------ flags
    def _on_hit(self, e: ev.Hit) -> None:
        if e.speed is not None and e.speed < self.o["v_hit_min"]:
            return
        if self._on_tower(e.coin) or self._held_still(e.coin):
            self._displaced(e.coin)
            return
        j = self.game.tower_castle.get(e.piece)
        if j is None:
            return  # arches' tiles carry no rule
        role, i = self.game.role[e.coin]
        if role == "soldier":
            k = self.knights[e.coin]
            if k.member == j:
                self._score(k, f"tower-{j}")
            return
        g = self.guards[e.coin]
        if not g.on_duty:
            return  # CAR-13, G-CAR-14: only a sentinel on duty rescues or wins
        k = self.knights[self.game.knight_of[i]]
        if j == i:
            if self._finished(k):
                self._win(g)
            else:
                self._rule("score", "G-CAR-14", f"{self._name(g.coin)} touched its own flag, "
                           f"but {self._name(k.coin)} has not finished its course: no effect.",
                           player=i, coin=g.coin, bonus=0)
            return
        if k.status == "prisoner" and k.prisoner_of == j:
            self._rescue(g, k, j)

    def _win(self, g: Guard) -> None:
        i = g.owner
        self.over = True
        self.winner = i
        if self.motion is not None:
            self.motion.play_over = True
        k = self.game.knight_of[i]
        self._rule("win", "CAR-06",
                   f"{self._name(g.coin)}, on duty, touched its own flag after "
                   f"{self._name(k)} finished its course: player {i} wins!",
                   player=i, coin=g.coin)

    def _rescue(self, g: Guard, k: Knight, j: int) -> None:
        """CAR-13/14: the prisoner's own sentinel on duty touches the flag.

        Carroll only moves the rescuer back to its start (CAR-14); touching a flag is not one
        of a sentinel's Rule IV events, so the rescue earns no stroke, but it does not end the
        turn either: a stroke earned earlier in the same stroke is played from the start
        point.  (RULES-SPEC CAR-14 ends the rescuer's turn; the source has no such rule.)
        """
        i = g.owner
        self._rule("rescue", "CAR-13",
                   f"{self._name(g.coin)}, on duty, touched the flag of castle {j}: "
                   f"{self._name(k.coin)} is released.", player=i, coin=k.coin)
        self._release(k, j, "CAR-13")
        spot = self._free_start_point(g)
        self._request(Request(g.coin, "point", "CAR-14", PLACE_ORDER["guard_return"], at=spot,
                              castle=i, why="back where it was at the beginning of the game "
                              "(it stays on duty)"))

    def _free_start_point(self, g: Guard) -> list[float]:
        """G-CAR-13: the CAR-03 point, or the nearest free point on the axis gate–door."""
        spots = self.game.spots[g.owner]
        c = self.layout.coin_mm
        others = [tuple(p) for coin, p in self.positions.items()
                  if coin != g.coin and coin not in self.stacked
                  and coin not in self.pending]

        def free(p: tuple[float, float]) -> bool:
            return all(dist(p, q) >= c for q in others)

        start = tuple(spots.sentinel_start)
        if free(start):
            return _pt(start)
        depth = dist(spots.gate_mid, spots.door_mid)
        half = depth / 2.0
        r = c / 2.0
        for step in range(1, int(half) + 1):
            for d in (half + step, half - step):
                if r <= d <= depth - r:
                    p = (spots.gate_mid[0] + spots.axis_in[0] * d,
                         spots.gate_mid[1] + spots.axis_in[1] * d)
                    if free(p):
                        return [round(p[0], 2), round(p[1], 2)]
        return _pt(start)

    def _release_all(self, j: int) -> None:
        """CAR-13: the sentinel of castle j left it: every prisoner of castle j is free."""
        for k in self.knights.values():
            if k.status == "prisoner" and k.prisoner_of == j:
                self._release(k, j, "CAR-13")

    def _course_castle(self, k: Knight) -> int | None:
        nxt = self._next_item(k)
        if nxt is None or k.home_exit_pending:
            return None
        return int(nxt.rpartition("-")[2])

    def _release(self, k: Knight, j: int, clause: str) -> None:
        """CAR-15: the released soldier goes behind the door, immune until after its next
        turn; `car_release_progress` says what it has still to do (G-CAR-04)."""
        items = self.game.courses[k.owner]
        k.status = "released"
        k.prisoner_of = None
        k.immunity = "awaiting"
        self.stacked.pop(k.coin, None)
        on_course = self._course_castle(k) == j
        if self.o["car_release_progress"] == "restart_castle":
            k.member = k.owner
            if on_course:
                k.course = items.index(f"in-{j}")
            if not self._finished(k):
                k.home_exit_pending = True
            spot = _pt(self.game.spots[k.owner].soldier_start)
            where = (f"just within its own gate (castle {k.owner}); it must come out and "
                     f"invade castle {j} again")
        else:
            k.member = j
            if on_course and items[k.course] in (f"in-{j}", f"door-{j}"):
                k.course = items.index(f"tower-{j}")
            spot = _pt(self.game.spots[j].released[self._slot_index(k.owner, j)])
            where = f"behind the door of castle {j}, inside it; next: {self._next_item(k)}"
        self._rule("release", clause,
                   f"{self._name(k.coin)} is released: put it {where}. It cannot be taken "
                   "prisoner again until after its next turn.", player=k.owner, coin=k.coin,
                   at=tuple(spot))
        self._request(Request(k.coin, "point", "CAR-15", PLACE_ORDER["released"], at=spot,
                              castle=j, why=("behind the door of castle " + str(j)
                                             if k.member == j and j != k.owner
                                             else "just within its own gate")))

    # ------------------------------------------------------------------ off the table
    def _on_off_table(self, e: ev.OffTable) -> None:
        if self._held_still(e.coin) or (self._on_tower(e.coin)
                                        and self.o["car_prisoner_spot"] == "behind_tower"):
            self._displaced(e.coin)
            return
        super()._on_off_table(e)

    # ------------------------------------------------------------------ settling
    def _settle(self, positions: dict[str, Any] | None) -> None:
        m = self.motion
        assert m is not None
        if m.void is None and m.crossings:
            self._settle_crossings(m)
        if m.void is None and positions:
            self._resting_checks(m, positions)
        if m.void is None:
            self._restore_displaced(m)
        if m.void is not None:
            self._rollback_placements(m, positions)
        if m.off_table and m.void is None:
            for coin, spot in m.off_table.items():
                self.positions[coin] = list(spot)
        for req in sorted(self.pending.values(), key=lambda r: r.order):
            if req.clause == "CAR-14" and not req.announced:
                req.at = self._free_start_point(self.guards[req.coin])  # where balls now rest
            self._announce(req)
        if m.lost_flicks or m.play_over:
            self.turn.flicks_left = 0
            self.car["croquet_due"] = []
        elif m.void is None and not self.over:
            self._croquet_rights(m)
        end_turn = bool(m.snapshot.get("_end_turn"))
        self.motion = None
        self.car["stroke"] = _fresh_stroke()
        if self.over:
            return
        if end_turn:
            self._end_turn()
            return
        if self.turn.flicks_left <= 0 and not self.car["croquet_due"]:
            self._next_slot()

    def _resting_checks(self, m: Motion, positions: dict[str, Any]) -> None:
        """With the balls' resting places: what moved that may not, and G-CAR-12."""
        c = self.layout.coin_mm
        for k in self.knights.values():
            if (k.status == "prisoner" and k.coin in positions and k.coin not in self.pending
                    and self.o["car_prisoner_spot"] == "behind_tower"):
                spot, _ = self._prison(k, k.prisoner_of or 0)
                if spot and dist(tuple(positions[k.coin]), tuple(spot)) > POINT_TOLERANCE_MM:
                    self._displaced(k.coin)
        ball = self.car["stroke"]["croquet"]
        if (ball and self._held_still(ball) and ball in positions and ball in m.positions
                and dist(tuple(positions[ball]), tuple(m.positions[ball])) > 2.0):
            self._displaced(ball)
        if not self.o["car_capture_on_resting_touch"]:
            return
        for k in list(self.knights.values()):
            j = k.member
            if k.status == "prisoner" or j is None or j == k.owner or k.coin not in positions:
                continue
            g = self.guards[self.game.guard_of[j]]
            if not g.on_duty or self._immune(k) or g.coin not in positions:
                continue
            if dist(tuple(positions[k.coin]), tuple(positions[g.coin])) <= c + self.o[
                    "eps_contact"]:
                self._capture(k, g, "G-CAR-12", how=f"rests touching {self._name(g.coin)} "
                              f"within castle {j} (car_capture_on_resting_touch)")

    def _restore_displaced(self, m: Motion) -> None:
        """Prisoners (CAR-11) and a croqueted ball that must not move (CAR-19) go back."""
        for coin in self.car["stroke"]["displaced"]:
            if coin in self.pending:
                continue
            k = self.knights.get(coin)
            if k is not None and k.status == "prisoner":
                spot, stack = self._prison(k, k.prisoner_of or 0)
                if stack:
                    self._request(Request(coin, "tower", "CAR-11", PLACE_ORDER["prisoner"],
                                          at=spot, on=stack, castle=k.prisoner_of))
                else:
                    self._request(Request(coin, "point", "CAR-11", PLACE_ORDER["prisoner"],
                                          at=spot, castle=k.prisoner_of,
                                          why="back behind the flag: a prisoner cannot move"))
            elif coin in m.positions:
                self._request(Request(coin, "point", "CAR-19", PLACE_ORDER["rollback"],
                                      at=list(m.positions[coin]),
                                      why="back where it was: the ball croqueted off must not "
                                      "move (no penalty)"))

    def _rollback_placements(self, m: Motion, positions: dict[str, Any] | None) -> None:
        coins = m.snapshot.get("_rollback_coins") or m.moved
        clause = m.snapshot.get("_rollback_clause") or "G-CCN-42"
        if positions:
            coins = [c for c in positions if c in m.positions
                     and dist(tuple(positions[c]), tuple(m.positions[c])) > 2.0] or coins
        for coin in coins:
            spot = m.positions.get(coin)
            if spot is None:
                continue
            self.positions[coin] = list(spot)
            self._request(Request(coin, "spot", clause, PLACE_ORDER["rollback"], at=list(spot),
                                  why="where it was before the stroke"))

    # ------------------------------------------------------------------ placements
    def _announce(self, req: Request) -> None:
        if req.announced:
            return
        if req.kind not in ("point", "touch_ball"):
            super()._announce(req)
            return
        name = self._name(req.coin)
        if req.kind == "point":
            text = f"Put {name} {req.why} (± {POINT_TOLERANCE_MM:.0f} mm)."
        else:
            text = (f"Croquet: put {name} touching {self._name(req.why)} without moving "
                    f"{self._name(req.why)}.")
        self._rule("place", req.clause, text, coin=req.coin,
                   at=tuple(req.at) if req.at else None, on=req.on,
                   player=self._player_of(req.coin), extra={"placement": req.kind})
        req.announced = True

    def _placement_problem(self, req: Request, e: ev.Place) -> str | None:
        at = _pt(e.at)
        if req.kind == "point" and req.at is not None:
            off = dist(tuple(at), tuple(req.at))
            if off > POINT_TOLERANCE_MM:
                return (f"it is {off:.1f} mm from its place; it must be within "
                        f"{POINT_TOLERANCE_MM:.0f} mm.")
            return None
        if req.kind == "touch_ball":
            other = self.positions.get(req.why)
            c = self.layout.coin_mm
            if other is not None and not in_contact(tuple(at), tuple(other), c,
                                                     self.o["eps_place"]):
                gap = dist(tuple(at), tuple(other)) - c
                return f"it must touch {self._name(req.why)} (the gap is {gap:.1f} mm)."
            return None
        return super()._placement_problem(req, e)

    def _on_place(self, e: ev.Place) -> None:
        if (self.motion is None and e.coin not in self.pending
                and not self.car["started"]):
            self._setup_place(e)
            return
        super()._on_place(e)

    def _setup_place(self, e: ev.Place) -> None:
        """CAR-03: before the first stroke, every ball is put at its starting point."""
        role, n = self.game.role[e.coin]
        spots = self.game.spots[n]
        spot = spots.soldier_start if role == "soldier" else spots.sentinel_start
        off = dist(tuple(e.at), spot)
        if off <= POINT_TOLERANCE_MM:
            self.positions[e.coin] = _pt(e.at)
            return
        where = ("just within the gate" if role == "soldier"
                 else "half-way between the gate and the door")
        self._rule("reject", "CAR-03",
                   f"{self._name(e.coin)} starts {where} of castle {n}: at "
                   f"({spot[0]:.1f}, {spot[1]:.1f}) mm ± {POINT_TOLERANCE_MM:.0f} mm; it is "
                   f"{off:.1f} mm away.", coin=e.coin, player=n, at=spot)

    # ------------------------------------------------------------------ declarations
    def _on_declare(self, e: ev.Declare) -> None:
        castle, _ = self._current()
        if e.what not in ("croquet", "end_play"):
            self._rule("reject", "CAR-05", f"'{e.what}' is not a Castle Croquet declaration "
                       "(croquet or end_play).", player=e.player)
            return
        if e.player != castle:
            self._rule("reject", "CAR-05", f"It is player {castle}'s turn, not player "
                       f"{e.player}'s.", player=e.player)
            return
        if self.motion is not None:
            self._rule("reject", "§1.3", "Declarations wait until the balls settle.",
                       player=e.player)
            return
        if e.what == "croquet":
            self._declare_croquet(e, castle)
            return
        left = self._strokes_left()
        self._rule("turn", "CAR-05", f"Player {castle} ends {self._name(self.turn.coin)}'s "
                   f"turn, giving up {left} stroke(s).", player=castle, coin=self.turn.coin,
                   extra={"forfeited": left})
        self.turn.flicks_left = 0
        self.car["croquet_due"] = []
        self.car["croquet_ball"] = None
        self._next_slot()

    def _declare_croquet(self, e: ev.Declare, castle: int) -> None:
        due = self.car["croquet_due"]
        if not due:
            self._rule("reject", "CAR-19", "No croquet is due: the last stroke touched no ball "
                       "it may croquet off.", player=castle)
            return
        choice = (e.option or 1) - 1
        if not 0 <= choice < len(due):
            self._rule("reject", "CAR-19", f"Croquet option must be 1 to {len(due)}, not "
                       f"{e.option}.", player=castle)
            return
        ball = due[choice]
        self.car["croquet_ball"] = ball
        coin = self.turn.coin
        spot = None
        bpos, apos = self.positions.get(ball), self.positions.get(coin)
        if bpos is not None and apos is not None:
            d = dist(tuple(apos), tuple(bpos)) or 1.0
            c = self.layout.coin_mm
            spot = [round(bpos[0] + (apos[0] - bpos[0]) / d * c, 2),
                    round(bpos[1] + (apos[1] - bpos[1]) / d * c, 2)]
        movable = self._croquet_ball_movable(coin, ball)
        self._rule("bonus", "CAR-19", f"Croquet off {self._name(ball)}: put "
                   f"{self._name(coin)} touching it and flick it; "
                   + ("that ball may move (own sentinel off duty)." if movable
                      else "that ball must not move."), player=castle, coin=coin, bonus=0,
                   extra={"croquet": ball})
        self._request(Request(coin, "touch_ball", "CAR-19", PLACE_ORDER["declaration"],
                              at=spot, why=ball))
