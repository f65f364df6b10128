"""Castle Croquetnole (Ron Hale-Evans, after Lewis Carroll): the rules as a fold over events.

Every clause CCN-01…CCN-55 of RULES-SPEC §2 with the default resolutions of §2.4, and every
CCN option of §6.  The procedure follows §2.6: a flick snapshots the state; the flick's events
are resolved in stream order (vision writes them ordered by time, crossings before contacts in a
tie, §1.3); `settled` issues the placements and passes the phase when the coin has no flicks.

State is data: `to_json()` holds everything, `Game.state_from_json` rebuilds it, and
`replay(events)` equals applying the events one by one.  An override names a ruling; the engine
re-folds the history with that ruling's event reversed (voided, or accepted when it was too
close to call), so a human decision is one more event, never an edit.
"""

from __future__ import annotations

import copy
from dataclasses import asdict
from typing import Any

from referee import events as ev
from referee.geometry import (
    dist,
    edge_gap_to_footprint,
    in_contact,
    within_coin_width,
)
from referee.layout import Layout, castle_croquetnole_layout, load_layout
from referee.rules.base import (
    OptionError,
    castle_roles,
    register,
    resolve_options,
)
from referee.rules.croquetnole_model import (
    WIN_ITEM,
    Guard,
    Knight,
    Motion,
    Request,
    Turn,
    course_items,
)
from referee.rules.croquetnole_options import OPTIONS
from referee.rules.croquetnole_text import CLAUSES
from referee.rules.fold import EventSourcedState, check_names, net_crossings

GAME = "castle-croquetnole"

PLACE_ORDER = {"rollback": 1, "off_table": 2, "prisoner": 3, "released": 4,
               "guard_return": 5, "tile": 6, "declaration": 7, "other": 8}
"""The order of post-settle placement requests (§1.3 step 5)."""

SUIT_TITLE = {"moons": "Moons", "suns": "Suns", "crowns": "Crowns", "arms": "Arms"}


def _pt(p: Any) -> list[float]:
    return [float(p[0]), float(p[1])]


class CastleCroquetnole:
    """The game: options and layout (immutable); it makes states."""

    name = GAME

    def __init__(self, options: dict[str, Any] | None = None,
                 layout: Layout | None = None) -> None:
        self.options = resolve_options(OPTIONS, options)
        o = self.options
        if layout is None:
            if o["layout_file"]:
                layout = load_layout(o["layout_file"])
            else:
                layout = castle_croquetnole_layout(o["layout_orientation"], o["spacing_measure"])
        if len(layout.castles) != 4:
            raise OptionError(f"Castle Croquetnole needs 4 castles; the layout has "
                              f"{len(layout.castles)}")
        self.layout = layout
        self.castles = sorted(layout.castles)
        self.knight_of, self.guard_of, self.role, self.line_role, self.tower_castle = \
            castle_roles(layout, "knight", "guard")
        self.dummies = self._parse_dummies(o["dummy_castles"])
        if o["two_castles_per_player"] and self.dummies:
            raise OptionError("options dummy_castles and two_castles_per_player exclude each other")
        self.playing = [n for n in self.castles if n not in self.dummies]
        if o["turn_order"] == "carroll_rounds":
            self.schedule = ([(n, "knight") for n in self.playing]
                             + [(n, "guard") for n in self.playing])
        else:
            self.schedule = [(n, ph) for n in self.playing for ph in ("knight", "guard")]
        self.courses = {n: course_items(n, len(self.castles)) for n in self.castles}
        r = layout.coin_mm / 2.0
        self.offtable_inset = (o["offtable_inset_mm"] if o["offtable_inset_mm"] is not None
                               else r + 0.5)

    def _parse_dummies(self, raw: str) -> set[int]:
        if raw in ("", "none", "off"):
            return set()
        try:
            found = {int(x) for x in raw.replace(" ", "").split(",") if x}
        except ValueError:
            raise OptionError(f"option dummy_castles: {raw!r} must be castle numbers like "
                              f"'3,4' or 'none'") from None
        if not found <= set(self.castles) or len(found) > 2:
            raise OptionError(f"option dummy_castles: {raw!r}: give at most two of "
                              f"{self.castles}")
        return found

    def controller(self, castle: int) -> int:
        """The player who plays a castle (two_castles_per_player: 1 plays 1 and 3, 2 plays 2
        and 4)."""
        if self.options["two_castles_per_player"]:
            return (castle - 1) % 2 + 1
        return castle

    def new_state(self) -> CroquetnoleState:
        return CroquetnoleState(self)

    def state_from_json(self, data: dict[str, Any]) -> CroquetnoleState:
        return CroquetnoleState(self, data)

    def check_event(self, event: ev.Event) -> None:
        """Raise InvalidEventError for names this game does not know (a malformed stream)."""
        check_names(event, self.role, self.layout, self.castles)


@register(GAME)
def make_castle_croquetnole(options: dict[str, Any] | None = None) -> CastleCroquetnole:
    return CastleCroquetnole(options)


class CroquetnoleState(EventSourcedState):
    """A position of Castle Croquetnole; `apply(event)` folds one event and returns rulings."""

    GAME = GAME
    CLAUSES = CLAUSES
    WIN_CLAUSE = "CCN-27"
    """The clause cited when a flick comes after the game was won."""

    # ------------------------------------------------------------------ state as data
    def _reset(self) -> None:
        g = self.game
        # Every coin starts inside its own castle (CCN-19), the guard on duty.
        self.knights = {g.knight_of[n]: Knight(g.knight_of[n], n, member=n) for n in g.castles}
        self.guards = {g.guard_of[n]: Guard(g.guard_of[n], n, member=n) for n in g.castles}
        self.turn = Turn()
        self.motion: Motion | None = None
        self.positions: dict[str, list[float]] = {}
        for c in self.layout.castles.values():
            self.positions[c.knight] = _pt(c.knight_spot)
            self.positions[c.guard] = _pt(c.guard_spot)
        self.stacked: dict[str, str] = {}
        self.pending: dict[str, Request] = {}
        self.over = False
        self.winner: int | None = None
        self.tiles_out: list[str] = []
        self.times_taken: dict[str, int] = {}
        self._start_slot()

    def _core(self) -> dict[str, Any]:
        return {
            "knights": {k: asdict(v) for k, v in self.knights.items()},
            "guards": {k: asdict(v) for k, v in self.guards.items()},
            "turn": asdict(self.turn),
            "motion": asdict(self.motion) if self.motion else None,
            "positions": copy.deepcopy(self.positions),
            "stacked": dict(self.stacked),
            "pending": {k: asdict(v) for k, v in self.pending.items()},
            "over": self.over,
            "winner": self.winner,
            "tiles_out": list(self.tiles_out),
            "times_taken": dict(self.times_taken),
        }

    def _load_core(self, d: dict[str, Any]) -> None:
        self.knights = {k: Knight(**copy.deepcopy(v)) for k, v in d["knights"].items()}
        self.guards = {k: Guard(**copy.deepcopy(v)) for k, v in d["guards"].items()}
        self.turn = Turn(**copy.deepcopy(d["turn"]))
        self.motion = Motion(**copy.deepcopy(d["motion"])) if d["motion"] else None
        self.positions = copy.deepcopy(d["positions"])
        self.stacked = dict(d["stacked"])
        self.pending = {k: Request(**copy.deepcopy(v)) for k, v in d["pending"].items()}
        self.over = d["over"]
        self.winner = d["winner"]
        self.tiles_out = list(d["tiles_out"])
        self.times_taken = dict(d["times_taken"])

    def is_terminal(self) -> bool:
        return self.over

    # ------------------------------------------------------------------ the summary
    def summary(self) -> dict[str, Any]:
        """The final-state summary of CONTRACT.md."""
        g = self.game
        castle, phase = g.schedule[self.turn.slot]
        players: dict[str, Any] = {}
        for n in g.castles:
            k = self.knights[g.knight_of[n]]
            gd = self.guards[g.guard_of[n]]
            if k.status == "prisoner":
                kcastle, nxt = None, None
            elif k.status in ("unplaced", "recovering") or k.home_exit_pending:
                kcastle = n if k.status != "in_play" else k.member
                nxt = f"out-{n}"
            else:
                kcastle = k.member
                nxt = g.courses[n][k.course] if k.course <= WIN_ITEM else None
            players[str(n)] = {
                "knight": {"coin": k.coin, "status": k.status, "castle": kcastle,
                           "prisoner_of": k.prisoner_of, "next": nxt,
                           "course_done": max(0, k.course - (1 if k.home_exit_pending else 0))},
                "guard": {"coin": gd.coin, "on_duty": gd.on_duty},
            }
            if n in g.dummies:
                players[str(n)]["dummy"] = True
            if g.options["two_castles_per_player"]:
                players[str(n)]["controller"] = g.controller(n)
        return {
            "game": GAME,
            "over": self.over,
            "winner": self.winner,
            "turn": {"player": castle, "coin": self.turn.coin,
                     "flicks_left": self.turn.flicks_left, "phase": phase,
                     "round": self.turn.round},
            "players": players,
            "in_motion": self.motion is not None,
            "croquet_pending": self.turn.croquet_pending,
            "pending_placements": [
                {"coin": r.coin, "kind": r.kind, "at": r.at, "on": r.on, "clause": r.clause}
                for r in sorted(self.pending.values(), key=lambda r: r.order)
            ],
        }

    # ------------------------------------------------------------------ folding
    # ------------------------------------------------------------------ helpers
    def _name(self, coin: str) -> str:
        role, n = self.game.role[coin]
        return f"{SUIT_TITLE.get(self.layout.castles[n].suit, self.layout.castles[n].suit)} {role}"

    def _player_of(self, coin: str) -> int:
        return self.game.role[coin][1]

    def _is_active(self, coin: str) -> bool:
        return self.motion is not None and self.motion.void is None and coin == self.turn.coin

    def _current(self) -> tuple[int, str]:
        return self.game.schedule[self.turn.slot]

    def _on_tower(self, coin: str) -> bool:
        k = self.knights.get(coin)
        return k is not None and k.status in ("prisoner", "recovering")

    def _tower_footprint(self, castle: int) -> list[tuple[float, float]]:
        return self.layout.pieces[self.layout.castles[castle].tower].footprint()

    # ------------------------------------------------------------------ turns
    def _start_slot(self) -> tuple[list[str], str | None]:
        """Open the current schedule slot: the active coin gets its one flick (CCN-13).

        A prisoner's knight slot is skipped (CCN-15); a recovering knight comes back to its
        start zone (CCN-32, G-CCN-40).  Returns notes for the turn ruling and the recovered
        knight, if any, so the caller can say it in order.
        """
        g = self.game
        notes: list[str] = []
        recovered: str | None = None
        while True:
            castle, phase = g.schedule[self.turn.slot]
            if phase == "guard":
                guard = self.guards[g.guard_of[castle]]
                if self.turn.banked.get(guard.coin, 0) < 0:
                    # own_passive_offtable_penalty: this guard lost its play this turn.
                    del self.turn.banked[guard.coin]
                    notes.append(f"{self._name(guard.coin)} lost its play this turn "
                                 "(it was knocked off the table).")
                    if not self._advance():
                        return notes, None
                    continue
                guard.struck = []  # the no-repeat list is per play (§2.1, G-CCN-26)
                self.turn.coin = guard.coin
                break
            self.turn.flicked = []
            self.turn.leave_bonus_used = False
            self.turn.enter_bonus_used = False
            knight = self.knights[g.knight_of[castle]]
            if knight.immunity == "awaiting":
                knight.immunity = "active"
            if knight.status == "recovering":
                knight.status = "in_play"
                knight.member = castle
                self.stacked.pop(knight.coin, None)
                recovered = knight.coin
                self.pending[knight.coin] = Request(
                    knight.coin, "zone", "CCN-32", PLACE_ORDER["released"],
                    at=_pt(self.layout.castles[castle].knight_spot), castle=castle,
                    announced=True)
                notes.append(f"{self._name(knight.coin)} has recovered and goes back to its "
                             "start zone; it may be played this turn.")
            if knight.status != "prisoner":
                knight.struck = []
                self.turn.coin = knight.coin
                break
            notes.append(f"{self._name(knight.coin)} is a prisoner of castle "
                         f"{knight.prisoner_of}, so only the guard plays.")
            if not self._advance():
                return notes, None
        self.turn.flicks_left = 1 + self.turn.banked.pop(self.turn.coin, 0)
        self.turn.croquet_pending = False
        self.turn.croquet_kind = None
        return notes, recovered

    def _advance(self) -> bool:
        """Move to the next schedule slot; False when the round limit ended the game."""
        self.turn.slot += 1
        if self.turn.slot >= len(self.game.schedule):
            self.turn.slot = 0
            self.turn.round += 1
            limit = self.o["max_rounds"]
            if limit is not None and self.turn.round > limit:
                self._end_by_rounds()
                return False
        return True

    def _next_slot(self, announce: bool = True) -> None:
        """Close the active coin's play and open the next one (knight → guard → next player)."""
        g = self.game
        castle, phase = self._current()
        if phase == "guard":
            knight = self.knights[g.knight_of[castle]]
            if knight.immunity == "active":
                knight.immunity = "none"
        if not self._advance():
            return
        notes, recovered = self._start_slot()
        if self.over or not announce:
            return
        new_castle, new_phase = self._current()
        if new_castle == castle and new_phase == "guard" and not notes:
            clause = "CCN-11" if self.turn.round == 1 else "CCN-15"
            text = f"Player {castle}'s knight has finished; now the guard ({self.turn.coin})."
        else:
            clause = "CCN-12"
            suit = SUIT_TITLE[self.layout.castles[new_castle].suit]
            text = (f"Player {new_castle} ({suit}) to play, round {self.turn.round}: "
                    f"{self.turn.coin} ({new_phase}).")
        self._rule("turn", clause, " ".join([text, *notes]), player=new_castle,
                   coin=self.turn.coin)
        if recovered:
            spot = self.layout.castles[new_castle].knight_spot
            self._rule("place", "CCN-32",
                       f"Put {self._name(recovered)} within a coin-width of tower-{new_castle} "
                       "(suggested spot shown).", player=new_castle, coin=recovered, at=spot,
                       extra={"placement": "zone"})

    def _end_turn(self) -> None:
        """Pass to the next player's first slot (wrong_coin_penalty = end_turn)."""
        castle, _ = self._current()
        while True:
            self._next_slot(announce=False)
            if self.over:
                return
            new_castle, new_phase = self._current()
            if new_castle != castle or new_phase == "knight":
                break
        self._rule("turn", "G-CCN-42", f"Turn passes to player {self._current()[0]}.",
                   player=self._current()[0])

    def _end_by_rounds(self) -> None:
        """max_rounds reached (G-CCN-55): rank by course progress, then fewest times taken."""
        g = self.game

        def progress(n: int) -> tuple[int, int, int]:
            k = self.knights[g.knight_of[n]]
            done = k.course - (1 if k.home_exit_pending else 0)
            return (done, -self.times_taken.get(str(n), 0), -n)

        best = max(g.playing, key=progress)
        self.over = True
        self.winner = g.controller(best)
        self.turn.round = self.o["max_rounds"]
        self.turn.slot = len(g.schedule) - 1
        self._rule("win", "G-CCN-55",
                   f"The round limit ({self.o['max_rounds']}) is reached: player {self.winner} "
                   "has made the most progress and wins.", player=self.winner)

    # ------------------------------------------------------------------ dispatch
    def _dispatch(self, e: ev.Event) -> None:
        if isinstance(e, ev.Settled):
            self._on_settled(e)
            return
        if self.over:
            if isinstance(e, ev.Flick):
                self._rule("reject", self.WIN_CLAUSE,
                           f"The game is over: player {self.winner} won.")
            return
        if isinstance(e, ev.Flick):
            self._on_flick(e)
        elif isinstance(e, ev.Cross | ev.Contact | ev.Hit | ev.OffTable):
            self._on_motion_event(e)
        elif isinstance(e, ev.Place):
            self._on_place(e)
        elif isinstance(e, ev.Declare):
            self._on_declare(e)
        elif isinstance(e, ev.Face):
            self._on_face(e)
        elif isinstance(e, ev.TileMoved):
            self._on_tile_moved(e)
        elif isinstance(e, ev.Hold | ev.Lift):
            pass  # informative: a held knight (tight croquet) or a coin in a hand

    # ------------------------------------------------------------------ flicks
    def _on_flick(self, e: ev.Flick) -> None:
        if self.motion is not None:
            # §1.3 item 1, G-CCN-56: warn, then resolve normally.
            self._rule("foul", "CCN-13",
                       "Warning: a coin was flicked before the last flick settled; the earlier "
                       "flick is closed here (no penalty).", coin=e.coin,
                       extra={"penalty": "none"})
            self._settle(None)
        if self.over:
            return
        # Outstanding placements are taken as carried out (players comply before flicking).
        for req in list(self.pending.values()):
            if req.kind in ("zone", "tower", "spot", "near_guard", "touch_guard") and req.at:
                self.positions[req.coin] = list(req.at)
            if req.on:
                self.stacked[req.coin] = req.on
        self.pending.clear()
        self.tiles_out.clear()

        coin = e.coin
        castle, phase = self._current()
        knight_coin = self.game.knight_of[castle]
        guard_coin = self.game.guard_of[castle]
        snapshot = self._core()
        self.motion = Motion(coin, e.t, self._index, snapshot, copy.deepcopy(self.positions),
                             moved=[coin])
        motion = self.motion

        if self._on_tower(coin):
            status = "a prisoner" if self.knights[coin].status == "prisoner" else "recovering"
            self._rule("reject", "CCN-35",
                       f"{self._name(coin)} is {status} and cannot be played; put it back.",
                       coin=coin,
                       player=self._player_of(coin))
            motion.void = "reject"
            return
        if (coin == guard_coin and phase == "knight"
                and self.o["turn_order"] == "clockwise_by_player"):
            if self.turn.round == 1 and knight_coin not in self.turn.flicked:
                self._wrong_coin(coin, f"In round 1 player {castle} must play the knight "
                                 "before the guard (CCN-11).", "CCN-11")
                return
            if self.turn.croquet_pending and self.turn.croquet_kind in (3, 4):
                self._wrong_coin(coin, "A loose or tight croquet is a flick of the knight "
                                 "(G-CCN-31).", "CCN-46")
                return
            # CCN-15: the guard's first flick closes the knight phase.
            self._rule("turn", "CCN-15",
                       f"The guard's flick ends {self._name(knight_coin)}'s play "
                       f"({self.turn.flicks_left} flick(s) unused).", player=castle,
                       coin=coin)
            self._advance()
            self._start_slot()
            motion.snapshot = self._core()
            motion.snapshot["motion"] = None
        elif coin != self.turn.coin:
            clause = "G-CCN-45" if coin == knight_coin else "G-CCN-42"
            why = ("The knight may not be played after the guard (G-CCN-45)."
                   if coin == knight_coin else
                   f"It is player {castle}'s turn to play {self.turn.coin}.")
            self._wrong_coin(coin, why, clause)
            return

        if self.o["enforce_flick_form"] and (
                (e.finger_ms is not None and e.finger_ms > self.o["push_ms"])
                or (e.touch_mm is not None and e.touch_mm > 10.0)):
            self.turn.flicks_left -= 1
            self.turn.flicked.append(coin)
            self._rule("foul", "CCN-14",
                       "That was a push, not a flick: the flick is spent and its effects "
                       "are void; the coins go back.", coin=coin, player=castle)
            motion.void = "foul"
            return

        if self.turn.croquet_pending:
            if self.turn.croquet_kind is None:
                self._rule("bonus", "CCN-44",
                           "No croquet kind was declared: kind 1 (two bonus flicks) applies.",
                           coin=coin, player=castle, bonus=0)
            self.turn.croquet_pending = False
        knight = self.knights.get(coin)
        if knight is not None and knight.status == "unplaced":
            knight.status = "in_play"  # CCN-11: placed and played
            knight.member = castle
        self.turn.flicks_left -= 1
        self.turn.flicked.append(coin)

    def _wrong_coin(self, coin: str, why: str, clause: str) -> None:
        """G-CCN-42: a foul; the flick's effects are void and the coins go back."""
        assert self.motion is not None
        self.motion.void = "foul"
        end = self.o["wrong_coin_penalty"] == "end_turn"
        self._rule("foul", clause,
                   f"Wrong coin: {why} The coins go back where they were"
                   + ("; the turn ends." if end else "; no flick is spent."),
                   coin=coin, player=self._current()[0])
        if end:
            self.motion.play_over = True
            self.motion.snapshot["_end_turn"] = True

    # ------------------------------------------------------------------ motion events
    def _on_motion_event(self, e: ev.Event) -> None:
        m = self.motion
        if m is None:
            coin = getattr(e, "coin", None) or getattr(e, "a", None)
            self._rule("reject", "G-CCN-34",
                       f"A {e.type} outside a flick (a hand moving a coin) has no effect.",
                       coin=coin)
            return
        if m.void is not None:
            for name in ("coin", "a", "b"):
                c = getattr(e, name, None)
                if c and c not in m.moved:
                    m.moved.append(c)
            return
        if e.uncertain and self._index not in self.accepted and not self._call_uncertain(e):
            return
        for name in ("coin", "a", "b"):
            c = getattr(e, name, None)
            if c and c not in m.moved:
                m.moved.append(c)
        if isinstance(e, ev.Cross):
            if self.o["crossing_evaluation"] == "settled":
                m.crossings.append({"coin": e.coin, "line": e.line, "dir": e.dir, "t": e.t,
                                    "index": self._index})
            else:
                self._on_cross(e.coin, e.line, e.dir)
        elif isinstance(e, ev.Contact):
            self._on_contact(e)
        elif isinstance(e, ev.Hit):
            self._on_hit(e)
        elif isinstance(e, ev.OffTable):
            self._on_off_table(e)

    # -- bonuses
    def _bonus(self, coin: str, n: int, clause: str, text: str, kind: str = "bonus",
               croquet: bool = False, **kw: Any) -> None:
        """Give `n` bonus flicks to `coin` if it is the active coin (G-CCN-41), else note it."""
        m = self.motion
        player = self._player_of(coin)
        if n <= 0:
            self._rule(kind, clause, text, player=player, coin=coin, bonus=0, **kw)
            return
        if not self._is_active(coin):
            if self.o["bank_passive_bonuses"]:
                self.turn.banked[coin] = self.turn.banked.get(coin, 0) + n
                text += f" The {n} flick(s) are banked for its next play (bank_passive_bonuses)."
            else:
                text += " No bonus: it was not the flicked coin."
            self._rule(kind, clause, text, player=player, coin=coin, bonus=0, **kw)
            return
        assert m is not None
        if self.o["bonus_mode"] == "play_again" and not croquet:
            n = max(0, min(n, 1 - m.bonus_given))
            if n == 0:
                text += " (play_again: at most one extra flick per flick)"
        if m.lost_flicks:
            text += " It is lost: the coin went off the table."
            n_given = 0
        else:
            n_given = n
            self.turn.flicks_left += n
            m.bonus_given += n
        self._rule(kind, clause, text, player=player, coin=coin, bonus=n_given, **kw)

    # -- crossings
    def _on_cross(self, coin: str, line: str, direction: str) -> None:
        if self._on_tower(coin) or line not in self.game.line_role:
            return
        what, j = self.game.line_role[line]
        role, _ = self.game.role[coin]
        if role == "knight":
            self._knight_cross(self.knights[coin], what, j, direction)
        else:
            self._guard_cross(self.guards[coin], what, j, direction)

    def _knight_cross(self, k: Knight, what: str, j: int, direction: str) -> None:
        active = self._is_active(k.coin)
        mode = self.o["passive_scoring"]
        if not active and mode == "none":
            return
        i = k.owner
        if what == "door":
            if k.member == j and j != i:
                self._try_score(k, f"door-{j}")
            return
        if direction == "+":  # IN through gate j
            if k.member is None:
                k.member = j
                self._try_score(k, f"in-{j}")
            elif k.member == j:
                return  # G-CCN-34: already inside
            elif active:
                self._illegal_entry(k, j)
            elif self.o["passive_illegal_entry"] == "restore_passive_coin":
                m = self.motion
                assert m is not None
                spot = m.positions.get(k.coin)
                self._request(Request(k.coin, "spot", "CCN-51", PLACE_ORDER["rollback"],
                                      at=spot, why="where it was before it was knocked into "
                                      "the gate (passive_illegal_entry)"))
            return
        # OUT through gate j
        if k.member != j:
            return  # G-CCN-35: neutral
        k.member = None
        if j == i and k.home_exit_pending:
            k.home_exit_pending = False
            k.struck = []  # leaving home is a course item: a score clears the list (CCN-41)
            if self.o["own_gate_scores"]:
                self._score_bonus(k, f"out-{i}", "CCN-26")
            return
        if (j != i and self.o["premature_exit"] == "reset_castle"
                and self.game.courses[i][k.course] in (f"door-{j}", f"tower-{j}")):
            k.course = self.game.courses[i].index(f"in-{j}")
            self._rule("score", "CCN-21",
                       f"{self._name(k.coin)} left castle {j} before finishing it: its "
                       f"invasion of castle {j} starts again (premature_exit=reset_castle).",
                       player=i, coin=k.coin, bonus=0)
            return
        self._try_score(k, f"out-{j}")

    def _try_score(self, k: Knight, item: str) -> bool:
        """CCN-23: an event scores iff it is the knight's next course item."""
        if k.home_exit_pending or k.status != "in_play":
            return False
        items = self.game.courses[k.owner]
        if k.course > WIN_ITEM - 1 or items[k.course] != item:
            return False
        if not self._is_active(k.coin) and self.o["passive_scoring"] != "progress_no_bonus":
            return False
        k.course += 1
        k.struck = []  # CCN-41: a score clears the no-repeat list
        clause = "CCN-27" if item == f"in-{k.owner}" else "CCN-23"
        if item == f"in-{k.owner}" and not self.o["own_gate_scores"]:
            self._rule("score", clause,
                       f"{self._name(k.coin)} re-enters its own castle; next, its tower.",
                       player=k.owner, coin=k.coin, bonus=0)
            return True
        self._score_bonus(k, item, clause)
        return True

    def _score_bonus(self, k: Knight, item: str, clause: str) -> None:
        words = {"in": "enters gate", "out": "leaves through gate", "door": "passes door",
                 "tower": "hits tower"}
        verb, _, castle = item.partition("-")
        nxt = self._next_item(k)
        text = (f"{self._name(k.coin)} {words[verb]} {castle} in sequence: scores"
                + (f"; next: {nxt}." if nxt else "."))
        self._bonus(k.coin, 1, clause if clause != "CCN-23" else "CCN-37", text, kind="score",
                    extra={"item": item})

    def _next_item(self, k: Knight) -> str | None:
        if k.home_exit_pending:
            return f"out-{k.owner}"
        items = self.game.courses[k.owner]
        return items[k.course] if k.course < len(items) else None

    def _illegal_entry(self, k: Knight, j: int) -> None:
        """CCN-51/52: the active knight entered gate j while still inside another castle."""
        m = self.motion
        assert m is not None
        inside = k.member
        if self.o["illegal_rollback"] == "all_coins":
            # Every coin the flick moves, up to its settling, goes back (_rollback_placements).
            flicked = list(self.turn.flicked)
            self._load_core(m.snapshot)
            self.motion = m
            self.turn.flicked = flicked
            coins = list(m.moved)
        else:
            before = m.snapshot["knights"][k.coin]
            self.knights[k.coin] = Knight(**copy.deepcopy(before))
            coins = [k.coin]
            m.snapshot["_rollback_coins"] = coins
        self.turn.flicks_left = 0
        m.void = "illegal"
        m.play_over = True
        self._rule("illegal", "CCN-52",
                   f"Illegal: {self._name(k.coin)} went into gate {j} while still inside castle "
                   f"{inside}. Every effect of this flick is void; the coins go back where they "
                   "were and the knight may not be flicked again this turn.",
                   player=k.owner, coin=k.coin, extra={"rollback": coins})

    def _guard_cross(self, g: Guard, what: str, j: int, direction: str) -> None:
        if what != "gate":
            return
        active = self._is_active(g.coin)
        i = g.owner
        if j != i:
            if not self.o["guards_enter_foreign_castles"]:
                return  # G-CCN-17: no account is taken of foreign gates
            if direction == "+":
                if g.member is None:
                    g.member = j
                elif g.member != j and active:
                    self._guard_illegal(g, j)
            elif g.member == j:
                g.member = None
            return
        if not active and not self.o["passive_duty_change"]:
            return
        if direction == "-" and g.on_duty:
            g.on_duty = False
            g.member = None
            self._rule("duty", "CCN-16", f"{self._name(g.coin)} leaves its castle: off duty.",
                       player=i, coin=g.coin, extra={"on_duty": False})
            if self.o["guard_repeat_reset"] == "on_leave_enter_capture":
                g.struck = []
            self._release_all(i)
            if active and not self.turn.leave_bonus_used:
                self.turn.leave_bonus_used = True
                self._bonus(g.coin, 1, "CCN-39", f"{self._name(g.coin)} left its castle: "
                            "one bonus flick.")
            elif active:
                self._bonus(g.coin, 0, "CCN-39", "No bonus: the guard already had its "
                            "leaving bonus this turn.")
        elif direction == "+" and not g.on_duty:
            if (self.o["guards_enter_foreign_castles"] and g.member is not None
                    and g.member != i and active):
                self._guard_illegal(g, i)
                return
            g.on_duty = True
            g.member = i
            self._rule("duty", "CCN-16", f"{self._name(g.coin)} re-enters its castle: on duty.",
                       player=i, coin=g.coin, extra={"on_duty": True})
            if self.o["guard_repeat_reset"] == "on_leave_enter_capture":
                g.struck = []
            if active and not self.turn.enter_bonus_used:
                self.turn.enter_bonus_used = True
                self._bonus(g.coin, 1, "CCN-39", f"{self._name(g.coin)} re-entered its castle: "
                            "one bonus flick.")
            elif active:
                self._bonus(g.coin, 0, "CCN-39", "No bonus: the guard already had its "
                            "entering bonus this turn.")

    def _guard_illegal(self, g: Guard, j: int) -> None:
        """guards_enter_foreign_castles: the same illegal-entry penalty as a knight's."""
        m = self.motion
        assert m is not None
        moved = list(m.moved)
        flicked = list(self.turn.flicked)
        self._load_core(m.snapshot)
        self.motion = m
        self.turn.flicked = flicked
        self.turn.flicks_left = 0
        m.void = "illegal"
        m.play_over = True
        m.snapshot["_rollback_coins"] = moved
        self._rule("illegal", "CCN-51",
                   f"Illegal: {self._name(g.coin)} went into gate {j} while inside another "
                   "castle (guards_enter_foreign_castles). The flick is void.",
                   player=g.owner, coin=g.coin, extra={"rollback": moved})

    # -- contacts
    def _on_contact(self, e: ev.Contact) -> None:
        if self._on_tower(e.a) or self._on_tower(e.b):
            return  # G-CCN-49 / G-CCN-62
        if e.speed is not None and e.speed < self.o["v_hit_min"]:
            return  # §1.2: too slow to be a hit
        captured = self._captures(e.a, e.b)
        active = self.turn.coin
        if active not in (e.a, e.b) or self.motion is None or self.motion.void:
            return
        if self._on_tower(active):
            return  # the active knight was just taken: no strike (G-CCN-62)
        other = e.b if active == e.a else e.a
        if self._on_tower(other):
            return
        if self.o["strike_requires_active_moving"] and e.moving and active not in e.moving:
            return
        self._strike(active, other, captured)

    def _captures(self, a: str, b: str) -> bool:
        """CCN-28: an invading knight and that castle's guard on duty touch: prisoner."""
        taken = False
        for kc, gc in ((a, b), (b, a)):
            k, g = self.knights.get(kc), self.guards.get(gc)
            if k is None or g is None or k.status != "in_play":
                continue
            j = g.owner
            if j == k.owner or k.member != j or not g.on_duty or k.immunity == "active":
                continue
            if self.o["invading_scope"] == "sequence_target_only":
                nxt = self._next_item(k) or ""
                if nxt.rpartition("-")[2] != str(j) or nxt.startswith("out-"):
                    continue
            if (self.o["capture_requires_active"] == "either_active"
                    and self.turn.coin not in (kc, gc)):
                continue
            self._capture(k, g)
            taken = True
        return taken

    def _capture(self, k: Knight, g: Guard) -> None:
        j = g.owner
        was_active = self._is_active(k.coin)
        k.status = "prisoner"
        k.prisoner_of = j
        self.times_taken[str(k.owner)] = self.times_taken.get(str(k.owner), 0) + 1
        k.member = None
        k.struck = []
        slot = (k.owner - j) % 4
        tower = self.layout.castles[j].tower
        spot = self.layout.castles[j].tower_slots.get(slot)
        self._rule("capture", "CCN-28",
                   f"{self._name(k.coin)} is taken prisoner by {self._name(g.coin)}: put it on "
                   f"top of {tower}." + (" Its play ends." if was_active else ""),
                   player=k.owner, coin=k.coin, on=tower, at=spot,
                   extra={"captor": j})
        self._request(Request(k.coin, "tower", "CCN-28", PLACE_ORDER["prisoner"],
                              at=_pt(spot) if spot else None, on=tower, castle=j))
        if was_active:
            self.turn.flicks_left = 0
            assert self.motion is not None
            self.motion.play_over = True
        if self.o["guard_repeat_reset"] == "on_leave_enter_capture":
            g.struck = []
        if self._is_active(g.coin):
            self._bonus(g.coin, 1, "CCN-38", f"{self._name(g.coin)} took a prisoner: one bonus "
                        "flick.")
        elif self.o["bank_passive_bonuses"] and self.game.role[g.coin][1] == self._current()[0]:
            self._bonus(g.coin, 1, "CCN-38", f"{self._name(g.coin)} took a prisoner.")

    def _strike(self, a: str, b: str, captured: bool) -> None:
        """CCN-40/41/42: the active coin strikes another."""
        m = self.motion
        assert m is not None
        if m.first_strike and self.o["multi_strike"] == "first_only":
            self._bonus(a, 0, "CCN-40", f"{self._name(a)} struck {self._name(b)}: only the "
                        "first strike of a flick pays (G-CCN-25).")
            return
        ka, gb = self.knights.get(a), self.guards.get(b)
        struck = ka.struck if ka else self.guards[a].struck
        if ka is not None and gb is not None and gb.owner == ka.owner and not gb.on_duty:
            if b in struck:
                self._repeat_strike(a, b)
                return
            struck.append(b)
            m.first_strike = True
            self.turn.croquet_pending = True
            self.turn.croquet_kind = None
            self._bonus(a, 2, "CCN-42",
                        f"{self._name(a)} hit its own off-duty guard: croquet of any kind "
                        "(declare 1-5; kind 1 = two bonus flicks).", croquet=True)
            return
        a_on = a in self.guards and self.guards[a].on_duty
        b_on = b in self.guards and self.guards[b].on_duty
        if a_on or b_on:
            if not captured:
                self._bonus(a, 0, "CCN-40", f"{self._name(a)} struck {self._name(b)}: no bonus, "
                            "a guard on duty was involved (G-CCN-28).")
            return
        if b in struck:
            self._repeat_strike(a, b)
            return
        struck.append(b)
        m.first_strike = True
        self._bonus(a, 2, "CCN-40", f"{self._name(a)} struck {self._name(b)}: two bonus flicks.")

    def _repeat_strike(self, a: str, b: str) -> None:
        if self.o["repeat_strike"] == "foul_end_play":
            assert self.motion is not None
            self.motion.play_over = True
            self.turn.flicks_left = 0
            self._rule("foul", "CCN-41", f"{self._name(a)} struck {self._name(b)} again: its play "
                       "ends (repeat_strike=foul_end_play).", player=self._player_of(a), coin=a)
            return
        self._bonus(a, 0, "CCN-41", f"{self._name(a)} struck {self._name(b)} again: no bonus "
                    "until it scores (G-CCN-27).")

    # -- hits on fixed pieces
    def _on_hit(self, e: ev.Hit) -> None:
        if self._on_tower(e.coin):
            return
        if e.speed is not None and e.speed < self.o["v_hit_min"]:
            return
        j = self.game.tower_castle.get(e.piece)
        if j is None:
            return  # gateposts and door tiles carry no rule
        role, i = self.game.role[e.coin]
        if role == "knight":
            k = self.knights[e.coin]
            if k.status != "in_play":
                return
            if j != i:
                if k.member == j:
                    self._try_score(k, f"tower-{j}")
                return
            if (k.course == WIN_ITEM and not k.home_exit_pending and k.member == i):
                guard = self.guards[self.game.guard_of[i]]
                if self.o["win_requires_active_knight"] and not self._is_active(k.coin):
                    return
                if guard.on_duty:
                    self._win(k)
                else:
                    self._rule("score", "CCN-27",
                               f"{self._name(k.coin)} hit its tower, but its guard is off duty: "
                               "no win yet.", player=i, coin=k.coin, bonus=0)
            return
        g = self.guards[e.coin]
        k = self.knights[self.game.knight_of[i]]
        if g.on_duty and k.status == "prisoner" and k.prisoner_of == j:
            if self.o["rescue_requires_active_guard"] and not self._is_active(g.coin):
                return
            self._rescue(g, k, j)

    def _win(self, k: Knight) -> None:
        k.course = WIN_ITEM + 1
        self.over = True
        self.winner = self.game.controller(k.owner)
        if self.motion is not None:
            self.motion.play_over = True
        self._rule("win", "CCN-27",
                   f"{self._name(k.coin)} hit its own tower with its guard on duty: player "
                   f"{self.winner} wins!", player=self.winner, coin=k.coin)

    def _rescue(self, g: Guard, k: Knight, j: int) -> None:
        """CCN-30/31: the owner's guard on duty hits the tower: release, guard goes home."""
        i = g.owner
        was_active = self._is_active(g.coin)
        self._rule("rescue", "CCN-30",
                   f"{self._name(g.coin)} hit tower-{j} on duty: {self._name(k.coin)} is "
                   "released.", player=i, coin=k.coin)
        self._release(k, j, "CCN-30")
        spot = self.layout.castles[i].guard_spot
        self._request(Request(g.coin, "zone", "CCN-31", PLACE_ORDER["guard_return"], at=_pt(spot),
                              castle=i))
        if was_active and not self.o["rescuer_keeps_flicks"]:
            self.turn.flicks_left = 0
            assert self.motion is not None
            self.motion.play_over = True

    def _release_all(self, j: int) -> None:
        """CCN-29: the captor's guard went off duty: every prisoner of castle j is free."""
        for k in self.knights.values():
            if k.status == "prisoner" and k.prisoner_of == j:
                self._release(k, j, "CCN-29")

    def _release(self, k: Knight, j: int, clause: str) -> None:
        """CCN-32/34: the knight recovers on its own tower and restarts castle j."""
        k.status = "recovering"
        k.prisoner_of = None
        k.member = k.owner
        k.course = self.game.courses[k.owner].index(f"in-{j}")
        k.home_exit_pending = True
        k.struck = []
        if self.o["release_immunity"] == "through_next_turn":
            k.immunity = "awaiting"
        tower = self.layout.castles[k.owner].tower
        spot = self.layout.castles[k.owner].tower_slots.get(0)
        self._rule("release", clause,
                   f"{self._name(k.coin)} is released: put it on its own tower ({tower}) until "
                   f"player {k.owner}'s next turn; it must restart castle {j}.",
                   player=k.owner, coin=k.coin, on=tower, at=spot)
        self.stacked.pop(k.coin, None)
        self._request(Request(k.coin, "tower", clause, PLACE_ORDER["released"],
                              at=_pt(spot) if spot else None, on=tower, castle=k.owner))

    # -- off the table
    def _on_off_table(self, e: ev.OffTable) -> None:
        m = self.motion
        assert m is not None
        if e.coin in self.stacked or self._on_tower(e.coin):
            k = self.knights[e.coin]
            castle = k.prisoner_of if k.status == "prisoner" else k.owner
            tower = self.layout.castles[castle].tower
            self._request(Request(e.coin, "tower", "G-CCN-37", PLACE_ORDER["off_table"],
                                  on=tower, castle=castle))
            return
        spot = self.layout.inset_from_edge(e.at, self.game.offtable_inset)
        m.off_table[e.coin] = _pt(spot)
        castle, _ = self._current()
        if self._is_active(e.coin):
            m.lost_flicks = True
            self._rule("foul", "CCN-49",
                       f"{self._name(e.coin)} went off the table: it goes back to the edge where "
                       "it fell and loses the rest of its flicks.", player=castle, coin=e.coin,
                       at=spot)
            clause = "CCN-49"
        else:
            own = self._player_of(e.coin) == castle
            text = f"{self._name(e.coin)} was knocked off the table: it goes back where it fell."
            if own and self.o["own_passive_offtable_penalty"] and e.coin in self.guards:
                self.turn.banked[e.coin] = -1
                text += " Its play this turn is lost (own_passive_offtable_penalty)."
            self._rule("place", "CCN-50", text, player=self._player_of(e.coin), coin=e.coin,
                       at=spot)
            clause = "CCN-50"
        self._request(Request(e.coin, "spot", clause, PLACE_ORDER["off_table"], at=_pt(spot),
                              why="on the table edge where it fell off"))

    # ------------------------------------------------------------------ settling
    def _on_settled(self, e: ev.Settled) -> None:
        if e.positions:
            for coin, p in e.positions.items():
                self.positions[coin] = _pt(p)
        if self.motion is None:
            return
        self._settle(e.positions)

    def _settle(self, positions: dict[str, Any] | None) -> None:
        m = self.motion
        assert m is not None
        if m.void is None and m.crossings:
            self._settle_crossings(m)
        if m.void is not None:
            self._rollback_placements(m, positions)
        if m.off_table and m.void is None:
            for coin, spot in m.off_table.items():
                self.positions[coin] = list(spot)
        for req in sorted(self.pending.values(), key=lambda r: r.order):
            self._announce(req)
        if m.lost_flicks or m.play_over:
            self.turn.flicks_left = 0
        end_turn = bool(m.snapshot.get("_end_turn"))
        self.motion = None
        if self.over:
            return
        if end_turn:
            self._end_turn()
            return
        if m.void in ("foul", "reject") and self.turn.flicks_left > 0:
            return
        if self.turn.flicks_left <= 0:
            self._next_slot()

    def _settle_crossings(self, m: Motion) -> None:
        """crossing_evaluation = settled: a line counts once, by the net side change (G-CCN-04)."""
        crossings, m.crossings = m.crossings, []
        for coin, line, direction in net_crossings(crossings):
            self._on_cross(coin, line, direction)
            if m.void:
                break

    def _rollback_placements(self, m: Motion, positions: dict[str, Any] | None) -> None:
        coins = m.snapshot.get("_rollback_coins") or m.moved
        if positions:
            coins = [c for c in positions if c in m.positions
                     and dist(tuple(positions[c]), tuple(m.positions[c])) > 2.0] or coins
        for coin in coins:
            spot = m.positions.get(coin)
            if spot is None:
                continue
            self.positions[coin] = list(spot)
            self._request(Request(coin, "spot", "CCN-52" if m.void == "illegal" else "G-CCN-42",
                                  PLACE_ORDER["rollback"], at=list(spot),
                                  why="where it was before the flick"))

    def _request(self, req: Request) -> None:
        self.pending[req.coin] = req
        if self.motion is None:
            self._announce(req)

    def _announce(self, req: Request) -> None:
        """Say a placement request as a `place` ruling (once)."""
        if req.announced:
            return
        name = self._name(req.coin)
        if req.kind == "tower":
            text = f"Put {name} on top of {req.on}."
        elif req.kind == "zone":
            text = (f"Put {name} within a coin-width of tower-{req.castle} (the suggested spot "
                    "or anywhere in its start zone).")
        elif req.kind == "near_guard":
            text = f"Croquet kind 2: put {name} within a coin-width of its guard."
        elif req.kind == "touch_guard":
            text = f"Croquet: put {name} in contact with its guard (without moving the guard)."
        elif req.kind == "flip":
            text = f"Turn {name} back over to show its {req.coin} face."
        elif req.kind == "tile":
            text = f"Put {req.coin} back in its place."
        else:
            text = f"Put {name} back {req.why or 'at the marked spot'}."
        self._rule("place", req.clause, text, coin=req.coin if req.kind != "tile" else None,
                   at=tuple(req.at) if req.at else None, on=req.on,
                   player=self._player_of(req.coin) if req.coin in self.game.role else None,
                   extra={"placement": req.kind})
        req.announced = True

    # ------------------------------------------------------------------ placements by hand
    def _on_place(self, e: ev.Place) -> None:
        if self.motion is not None:
            self._rule("reject", "§1.3", f"{e.coin} was placed by hand during a flick; the "
                       "placement is ignored.", coin=e.coin)
            return
        req = self.pending.get(e.coin)
        k = self.knights.get(e.coin)
        if req is None and k is not None and k.status == "unplaced":
            castle = k.owner
            req = Request(e.coin, "zone", "CCN-11", PLACE_ORDER["other"], castle=castle)
        if (req is None and self.o["edge_relief"] and e.coin == self.turn.coin
                and self._edge_relief_ok(e)):
            self.positions[e.coin] = _pt(e.at)
            return
        if req is None:
            self._disturbance(e)
            return
        problem = self._placement_problem(req, e)
        if problem:
            self._rule("reject", req.clause, f"{self._name(e.coin)}: {problem}",
                       coin=e.coin, at=tuple(req.at) if req.at else None, on=req.on,
                       player=self._player_of(e.coin))
            return
        self.pending.pop(e.coin, None)
        self.positions[e.coin] = _pt(e.at)
        if req.kind == "tower":
            self.stacked[e.coin] = req.on or ""
        else:
            self.stacked.pop(e.coin, None)

    def _placement_problem(self, req: Request, e: ev.Place) -> str | None:
        """Why a hand placement does not satisfy the request, with the measured size."""
        at = _pt(e.at)
        c = self.layout.coin_mm
        eps = self.o["eps_place"]
        if req.kind == "tower":
            foot = self.layout.pieces[req.on].footprint() if req.on else None
            if e.on == req.on or (foot and edge_gap_to_footprint(tuple(at), foot) <= -c / 2):
                return None
            return f"it must be put on top of {req.on}."
        if req.kind == "zone":
            gap = edge_gap_to_footprint(tuple(at), self._tower_footprint(req.castle or 1))
            if not within_coin_width(gap, c, eps, self.o["coin_width_measure"]):
                return (f"it is {gap:.1f} mm from tower-{req.castle}; it must be within a "
                        f"coin-width ({c + eps:.1f} mm) and not on it.")
            return self._overlap_problem(e.coin, at)
        if req.kind in ("near_guard", "touch_guard"):
            guard = self.game.guard_of[self._player_of(e.coin)]
            gpos = self.positions.get(guard)
            if gpos is None:
                return None
            if req.kind == "near_guard":
                gap = dist(tuple(at), tuple(gpos)) - c
                if not within_coin_width(gap, c, eps, self.o["coin_width_measure"]):
                    return f"it is {gap:.1f} mm from its guard; it must be within a coin-width."
            elif not in_contact(tuple(at), tuple(gpos), c, eps):
                gap = dist(tuple(at), tuple(gpos)) - c
                return f"it must touch its guard (the gap is {gap:.1f} mm)."
            return self._overlap_problem(e.coin, at, allow=guard)
        if req.kind == "spot" and req.at is not None:
            off = dist(tuple(at), tuple(req.at))
            if off > c / 2:
                return f"it is {off:.1f} mm from the marked spot."
        return None

    def _overlap_problem(self, coin: str, at: list[float], allow: str | None = None) -> str | None:
        c = self.layout.coin_mm
        for other, p in self.positions.items():
            if other in (coin, allow) or other in self.stacked:
                continue
            if dist(tuple(at), tuple(p)) < c - 0.5:
                return f"it overlaps {self._name(other)}."
        return None

    def _edge_relief_ok(self, e: ev.Place) -> bool:
        """CCN-54: a coin nearer than a coin-width to an edge may be moved straight in."""
        old = self.positions.get(e.coin)
        if old is None:
            return False
        c = self.layout.coin_mm
        target = self.layout.inset_from_edge(tuple(old), c + c / 2)
        moved = dist(tuple(old), target) > 0.5
        return moved and dist(tuple(e.at), target) <= self.o["eps_place"] + 1.0

    def _disturbance(self, e: ev.Place) -> None:
        """§1.3 item 6: a coin moved by hand without a request goes back, no penalty."""
        old = self.positions.get(e.coin)
        if self.o["disturbance_penalty"] == "end_coin_play" and e.coin == self.turn.coin:
            self.turn.flicks_left = 0
            self._rule("foul", "§1.3", f"{self._name(e.coin)} was moved by hand: its play ends "
                       "(disturbance_penalty=end_coin_play).", coin=e.coin,
                       player=self._player_of(e.coin))
            if old is not None:
                self._request(Request(e.coin, "spot", "§1.3", PLACE_ORDER["other"], at=old,
                                      why="where it was before it was moved by hand"))
            self._next_slot()
            return
        if old is None:
            self.positions[e.coin] = _pt(e.at)
            return
        if dist(tuple(old), tuple(e.at)) <= self.o["eps_place"]:
            return
        self._request(Request(e.coin, "spot", "§1.3", PLACE_ORDER["other"], at=old,
                              why="where it was: it was moved by hand (no penalty)"))

    # ------------------------------------------------------------------ declarations
    def _on_declare(self, e: ev.Declare) -> None:
        castle, phase = self._current()
        if e.what not in ("croquet", "end_play"):
            self._rule("reject", "CCN-13", f"'{e.what}' is not a Castle Croquetnole "
                       "declaration.", player=e.player)
            return
        if self.game.controller(e.player) != self.game.controller(castle):
            self._rule("reject", "CCN-12", f"It is player {castle}'s turn, not player "
                       f"{e.player}'s.", player=e.player)
            return
        if self.motion is not None:
            self._rule("reject", "§1.3", "Declarations wait until the coins settle.",
                       player=e.player)
            return
        if e.what == "croquet":
            self._declare_croquet(e, castle)
        else:
            self._declare_end_play(e, castle, phase)

    def _declare_croquet(self, e: ev.Declare, castle: int) -> None:
        kind = e.kind
        if not self.turn.croquet_pending:
            self._rule("reject", "CCN-42", "No croquet is due: the knight has not just hit its "
                       "own off-duty guard.", player=castle)
            return
        if kind not in (1, 2, 3, 4, 5):
            self._rule("reject", "CCN-43", f"Croquet kind must be 1 to 5, not {kind}.",
                       player=castle)
            return
        self.turn.croquet_kind = kind
        clause = f"CCN-{43 + kind}"
        knight = self.game.knight_of[castle]
        names = {1: "two bonus flicks", 2: "place the knight within a coin-width of the guard, "
                 "then two bonus flicks", 3: "a loose croquet", 4: "a tight croquet",
                 5: "two bonus flicks (play the knight slightly, then drive the guard)"}
        self._rule("bonus", clause, f"Croquet kind {kind}: {names[kind]}.", player=castle,
                   coin=knight, bonus=0, extra={"croquet_kind": kind})
        if kind in (2, 3, 4):
            guard = self.game.guard_of[castle]
            gpos = self.positions.get(guard)
            spot = None
            kpos = self.positions.get(knight)
            if gpos is not None and kpos is not None:
                d = dist(tuple(kpos), tuple(gpos)) or 1.0
                gap = self.layout.coin_mm + (self.layout.coin_mm / 2 if kind == 2 else 0.0)
                spot = [gpos[0] + (kpos[0] - gpos[0]) / d * gap,
                        gpos[1] + (kpos[1] - gpos[1]) / d * gap]
            self._request(Request(knight, "near_guard" if kind == 2 else "touch_guard",
                                  clause, PLACE_ORDER["declaration"], at=spot))

    def _declare_end_play(self, e: ev.Declare, castle: int, phase: str) -> None:
        if self.o["must_use_all_flicks"]:
            self._rule("reject", "G-CCN-38", "Every flick must be used (must_use_all_flicks).",
                       player=castle)
            return
        if self.turn.round == 1 and self.turn.coin not in self.turn.flicked and (
                phase == "knight" or self.o["round1_guard_mandatory"]):
            self._rule("reject", "CCN-11", f"In round 1 the {phase} must be flicked at least "
                       "once.", player=castle)
            return
        left = self.turn.flicks_left
        self._rule("turn", "G-CCN-38", f"Player {castle} ends {self._name(self.turn.coin)}'s "
                   f"play, giving up {left} flick(s).", player=castle, coin=self.turn.coin,
                   extra={"forfeited": left})
        self.turn.flicks_left = 0
        self._next_slot()

    # ------------------------------------------------------------------ other events
    def _on_face(self, e: ev.Face) -> None:
        """G-CCN-51: a flip keeps the coin's identity; ask for it to be turned back."""
        if e.face == e.coin:  # turned back to its setup face
            req = self.pending.get(e.coin)
            if req is not None and req.kind == "flip":
                del self.pending[e.coin]
            return
        self._request(Request(e.coin, "flip", "G-CCN-51", PLACE_ORDER["other"]))

    def _on_tile_moved(self, e: ev.TileMoved) -> None:
        """G-CCN-43: a knocked tile must be restored before the next flick."""
        if e.by_mm <= 2.0:
            if e.piece in self.tiles_out:
                self.tiles_out.remove(e.piece)
            return
        if e.piece not in self.tiles_out:
            self.tiles_out.append(e.piece)
        piece = self.layout.pieces[e.piece]
        self._rule("place", "CCN-04", f"{e.piece} was knocked {e.by_mm:.0f} mm out of place: "
                   "put it back before the next flick (events are judged against its "
                   "registered place).", at=piece.center_mm, extra={"piece": e.piece})

