"""Tabletop Croquet (Mark A. Biggar, 2003): the rules as a fold over events.

Every clause TTC-01…TTC-33, the team-play clauses TTC-TM1…TM8 and the poison clauses
TTC-P1…P5 of RULES-SPEC §4, with the resolutions of §4.3 and the TTC options of §6.  The
procedure is the one Castle Croquetnole uses (§1.3): a flick snapshots the state; the flick's
events are resolved in stream order; `settled` issues the placements and passes the turn when
the player has no flicks left (TTC-26: every flick must be used).

State is data: `to_json()` holds everything, `Game.state_from_json` rebuilds it, and
`replay(events)` equals applying the events one by one.  An override names a ruling; the engine
re-folds the history with that ruling's event reversed, so a human decision is one more event.
"""

from __future__ import annotations

import copy
from dataclasses import asdict
from typing import Any

from referee import events as ev
from referee.geometry import dist, dot, edge_gap_to_footprint, sub, within_coin_width
from referee.layout import Layout, load_layout
from referee.layouts_ttc import check_ttc_layout, course_axis, ttc_layout
from referee.rules.base import OptionError, register, resolve_options
from referee.rules.fold import EventSourcedState, check_names, net_crossings
from referee.rules.tabletop_model import (
    COMPLETE,
    COURSE,
    LAST_ITEM,
    OFF_TABLE_STATUSES,
    RIGHT_ITEM,
    Motion,
    Player,
    Request,
    Turn,
    item_name,
)
from referee.rules.tabletop_options import COLOUR_ORDER, OPTIONS, VALUE_ORDER
from referee.rules.tabletop_text import CLAUSES

GAME = "tabletop-croquet"

PLACE_ORDER = {"rollback": 1, "off_table": 2, "remove": 3, "tile": 6, "declaration": 7,
               "other": 8}
"""The order of post-settle placement requests (§1.3 step 5)."""

SUITS = ("moons", "suns", "crowns", "arms")


def _pt(p: Any) -> list[float]:
    return [float(p[0]), float(p[1])]


def parse_colour_map(raw: str) -> dict[str, str]:
    """`moons=black,suns=red,…` → {suit: colour}; each suit and colour once (G-TTC-21)."""
    found: dict[str, str] = {}
    for part in raw.replace(" ", "").split(","):
        suit, sep, colour = part.partition("=")
        colour = "green" if colour == "yellow" else colour
        if not sep or suit not in SUITS or colour not in COLOUR_ORDER:
            raise OptionError(f"option ttc_colour_map: {part!r} must be SUIT=COLOUR with a suit "
                              f"of {', '.join(SUITS)} and a colour of black, red, blue, green")
        if suit in found or colour in found.values():
            raise OptionError(f"option ttc_colour_map: {raw!r} names a suit or colour twice")
        found[suit] = colour
    if len(found) != 4:
        raise OptionError(f"option ttc_colour_map: {raw!r} must name all four suits")
    return found


def standard_order(colour_map: dict[str, str]) -> list[tuple[str, str]]:
    """TTC-09: (coin, colour) in playing order: black, red, blue, green, blank, ace, 2…5."""
    by_colour = {c: s for s, c in colour_map.items()}
    suits = [(by_colour[c], c) for c in COLOUR_ORDER]
    return suits + [(v, "") for v in VALUE_ORDER]


class TabletopCroquet:
    """The game: options, players and course (immutable); it makes states."""

    name = GAME

    def __init__(self, options: dict[str, Any] | None = None,
                 layout: Layout | None = None) -> None:
        self.options = resolve_options(OPTIONS, options)
        o = self.options
        order = standard_order(parse_colour_map(o["ttc_colour_map"]))
        if o["ttc_coins"]:
            chosen = [c.strip() for c in str(o["ttc_coins"]).split(",") if c.strip()]
            known = [c for c, _ in order]
            bad = [c for c in chosen if c not in known]
            if bad or len(set(chosen)) != len(chosen) or not 2 <= len(chosen) <= 10:
                raise OptionError(f"option ttc_coins: {o['ttc_coins']!r} must name 2-10 "
                                  f"different coins of {', '.join(known)}")
            if options and "players" in options and int(o["players"]) != len(chosen):
                raise OptionError(f"options players={o['players']} and ttc_coins "
                                  f"({len(chosen)} coins) disagree")
            seats = [(c, col) for c, col in order if c in chosen]
        else:
            seats = order[: o["players"]]
        self.n = len(seats)
        self.seats = seats
        """(coin, colour) of players 1..n, in the standard order (TTC-09)."""
        if o["ttc_team"]:
            k = o["ttc_teams"]
            if self.n not in (4, 6, 8, 10) or self.n % k or self.n // k < 2:
                raise OptionError(f"team play needs 4, 6, 8 or 10 players in {k} teams of "
                                  f"equal size; there are {self.n} players (TTC-TM1)")
            if o["ttc_poison"]:
                raise OptionError("the poison rule is for non-team play (TTC-P1): "
                                  "ttc_team and ttc_poison exclude each other")
        if layout is None:
            if o["layout_file"]:
                layout = load_layout(o["layout_file"])
            else:
                layout = ttc_layout(o["ttc_layout"], o["ttc_mirror"])
        problems = check_ttc_layout(layout)
        if problems:
            raise OptionError("not a Tabletop Croquet layout: " + "; ".join(problems))
        self.layout = layout
        self.coin_player = {coin: i + 1 for i, (coin, _) in enumerate(seats)}
        self.axis = course_axis(layout)
        left = layout.pieces["endpost-left"]
        self.left_centre = left.center_mm
        w1 = layout.lines["wicket-1"]
        w1_mid = ((w1.a[0] + w1.b[0]) / 2, (w1.a[1] + w1.b[1]) / 2)
        t, r = layout.tile_mm, layout.coin_mm / 2
        self.zone_min = left.size_mm / 2 + r
        """G-TTC-16: the least distance along the axis from the endpost centre to a coin."""
        self.zone_max = dot(sub(w1_mid, self.left_centre), self.axis) - t / 2 - r
        self.start_spot = (self.left_centre[0] + self.axis[0] * (left.size_mm / 2 + t / 2 + r),
                           self.left_centre[1] + self.axis[1] * (left.size_mm / 2 + t / 2 + r))
        """The suggested start spot: half a tile from the endpost, on the axis (§4.4.1)."""

    def team_of(self, player: int) -> int | None:
        """TTC-TM1, G-TTC-26: teams interleave round-robin in the playing order."""
        if not self.options["ttc_team"]:
            return None
        return (player - 1) % self.options["ttc_teams"] + 1

    def new_state(self) -> TabletopState:
        """The position before the first event: nobody placed, player 1 to play."""
        return TabletopState(self)

    def state_from_json(self, data: dict[str, Any]) -> TabletopState:
        """Rebuild a state saved with `TabletopState.to_json` (overrides keep working)."""
        return TabletopState(self, data)

    def check_event(self, event: ev.Event) -> None:
        """Raise InvalidEventError for names this game does not know (a malformed stream)."""
        check_names(event, self.coin_player, self.layout, range(1, self.n + 1))


@register(GAME)
def make_tabletop_croquet(options: dict[str, Any] | None = None) -> TabletopCroquet:
    """The registry's factory: `make_game("tabletop-croquet", options)`."""
    return TabletopCroquet(options)


class TabletopState(EventSourcedState):
    """A position of Tabletop Croquet; `apply(event)` folds one event and returns rulings."""

    GAME = GAME
    CLAUSES = CLAUSES

    # ------------------------------------------------------------------ state as data
    def _reset(self) -> None:
        g = self.game
        self.players = {str(i + 1): Player(i + 1, coin, colour, team=g.team_of(i + 1))
                        for i, (coin, colour) in enumerate(g.seats)}
        self.turn = Turn()
        self.motion: Motion | None = None
        self.positions: dict[str, list[float]] = {}
        self.pending: dict[str, Request] = {}
        self.over = False
        self.winner: int | None = None
        self.winning_team: int | None = None
        self.completions: list[int] = []
        self.tiles_out: list[str] = []

    def _core(self) -> dict[str, Any]:
        return {
            "players": {k: asdict(v) for k, v in self.players.items()},
            "turn": asdict(self.turn),
            "motion": asdict(self.motion) if self.motion else None,
            "positions": copy.deepcopy(self.positions),
            "pending": {k: asdict(v) for k, v in self.pending.items()},
            "over": self.over,
            "winner": self.winner,
            "winning_team": self.winning_team,
            "completions": list(self.completions),
            "tiles_out": list(self.tiles_out),
        }

    def _load_core(self, d: dict[str, Any]) -> None:
        self.players = {k: Player(**copy.deepcopy(v)) for k, v in d["players"].items()}
        self.turn = Turn(**copy.deepcopy(d["turn"]))
        self.motion = Motion(**copy.deepcopy(d["motion"])) if d["motion"] else None
        self.positions = copy.deepcopy(d["positions"])
        self.pending = {k: Request(**copy.deepcopy(v)) for k, v in d["pending"].items()}
        self.over = d["over"]
        self.winner = d["winner"]
        self.winning_team = d["winning_team"]
        self.completions = list(d["completions"])
        self.tiles_out = list(d["tiles_out"])

    def is_terminal(self) -> bool:
        """True once somebody (or a team) has won."""
        return self.over

    # ------------------------------------------------------------------ the summary
    def summary(self) -> dict[str, Any]:
        """The final-state summary (docs/tabletop-croquet.md), in the spirit of CONTRACT.md."""
        cur = self._cur()
        players: dict[str, Any] = {}
        for key, p in self.players.items():
            racing = p.status in ("unplaced", "in_play")
            players[key] = {"coin": p.coin, "colour": p.colour, "status": p.status,
                            "next": item_name(p.idx) if racing else None,
                            "course_done": p.idx, "team": p.team}
        out: dict[str, Any] = {
            "game": GAME,
            "over": self.over,
            "winner": self.winner,
            "turn": {"player": cur.number, "coin": self._flickable(),
                     "flicks_left": self.turn.flicks_left, "round": self.turn.round,
                     "actions_due": list(self.turn.actions_due),
                     "must_flick": list(self.turn.must_flick)},
            "players": players,
            "hit_set": list(self.turn.hit_set),
            "in_motion": self.motion is not None,
            "layout": self.layout.name,
            "pending_placements": [
                {"coin": r.coin, "kind": r.kind, "at": r.at, "clause": r.clause}
                for r in sorted(self.pending.values(), key=lambda r: (r.order, r.coin))
            ],
        }
        if self.o["ttc_team"]:
            out["winning_team"] = self.winning_team
            out["rover_wickets"] = list(self.turn.rover_wickets)
            out["rover_hits"] = list(self.turn.rover_hits)
        if cur.status == "unplaced":
            out["start_spot"] = [round(v, 2) for v in self._free_start_spot()]
        return out

    def _free_start_spot(self) -> tuple[float, float]:
        """G-TTC-16: the suggested start spot, moved sideways while another coin is on it."""
        g = self.game
        side = (-g.axis[1], g.axis[0])
        step = self.layout.coin_mm * 1.5
        for k in (0, 1, -1, 2, -2):
            spot = (g.start_spot[0] + side[0] * step * k, g.start_spot[1] + side[1] * step * k)
            if all(dist(spot, tuple(p)) >= step for p in self.positions.values()):
                return spot
        return g.start_spot

    def _flickable(self) -> str:
        if self.turn.must_flick:
            return self.turn.must_flick[0]
        return self._cur().coin

    # ------------------------------------------------------------------ folding
    # ------------------------------------------------------------------ helpers
    def _cur(self) -> Player:
        return self.players[str(self.turn.player)]

    def _owner(self, coin: str) -> Player:
        return self.players[str(self.game.coin_player[coin])]

    def _name(self, coin: str) -> str:
        p = self._owner(coin)
        return f"player {p.number}'s {coin}"

    def _is_active(self, coin: str) -> bool:
        """The active coin: the player's own coin in a flick of it (not a hit or forced coin)."""
        m = self.motion
        return (m is not None and m.void is None and m.kind == "own" and coin == m.coin
                and coin == self._cur().coin)

    def _on_table(self, coin: str) -> bool:
        return self._owner(coin).status not in OFF_TABLE_STATUSES

    # ------------------------------------------------------------------ turns
    def _next_turn(self) -> None:
        """Pass to the next player in the standard order, skipping players who left (G-TTC-26)."""
        if self.over:
            return
        n = self.game.n
        p, rnd = self.turn.player, self.turn.round
        for _ in range(n):
            p = p % n + 1
            if p == 1:
                rnd += 1
            if self.players[str(p)].status not in ("done", "killed"):
                break
        else:
            self.over = True
            return
        self.turn = Turn(player=p, round=rnd)
        nxt = self.players[str(p)]
        role = {"rover": " (a rover)", "poison": " (poison)"}.get(nxt.status, "")
        self._rule("turn", "TTC-15", f"Player {p} ({nxt.coin}{role}) to play, round {rnd}: one "
                   "free flick.", player=p, coin=nxt.coin)
        if nxt.status == "unplaced":
            self._rule("place", "TTC-10",
                       f"Player {p}: place {nxt.coin} within one tile-width of the left "
                       "endpost, between it and wicket 1, then flick (suggested spot shown).",
                       player=p, coin=nxt.coin, at=self._free_start_spot(),
                       extra={"placement": "zone"})

    def _flicks_text(self) -> str:
        return f"{self.turn.flicks_left} flick(s) left"

    # ------------------------------------------------------------------ dispatch
    def _dispatch(self, e: ev.Event) -> None:
        if isinstance(e, ev.Settled):
            self._on_settled(e)
            return
        if self.over:
            if isinstance(e, ev.Flick):
                self._rule("reject", "TTC-33", f"The game is over: player {self.winner} won.",
                           coin=e.coin)
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
        # lift and hold are informative only

    # ------------------------------------------------------------------ flicks
    def _on_flick(self, e: ev.Flick) -> None:
        if self.motion is not None:
            self._rule("foul", "§1.3",
                       "Warning: a coin was flicked before the last flick settled; the earlier "
                       "flick is closed here (no penalty).", coin=e.coin,
                       extra={"penalty": "none"})
            self._settle(None)
            if self.over:
                return
        # Outstanding placements are taken as carried out (players comply before flicking).
        for req in list(self.pending.values()):
            if req.kind in ("near", "spot", "zone") and req.at:
                self.positions[req.coin] = list(req.at)
        self.pending.clear()
        if self.tiles_out:
            self._rule("place", "TTC-30",
                       f"{', '.join(self.tiles_out)} was not put back before this flick: the "
                       "flick is judged against the tiles' registered places.",
                       extra={"pieces": list(self.tiles_out)})
            self.tiles_out = []
        cur = self._cur()
        t = self.turn
        if t.actions_due:
            for coin in t.actions_due:
                self._rule("bonus", "TTC-20", f"No action was declared after hitting "
                           f"{self._name(coin)}: action 1 (play on from where the coin lies).",
                           player=cur.number, coin=coin, bonus=0, extra={"action": 1})
            t.actions_due = []
        t.placement_used = False
        coin = e.coin
        start = self.positions.get(coin)
        touching = []
        if start is not None:
            reach = self.layout.coin_mm + self.o["eps_contact"]
            touching = [c for c, p in self.positions.items()
                        if c != coin and dist(tuple(p), tuple(start)) <= reach]
        self.motion = Motion(coin, "own", self._core(), copy.deepcopy(self.positions),
                             moved=[coin], touching=touching)
        m = self.motion
        owner = self._owner(coin)

        if t.must_flick:
            target = t.must_flick[0]
            if coin != target:
                self._wrong_coin(coin, f"the declared action makes the next flick one of "
                                 f"{self._name(target)}.", "TTC-23")
                return
            t.must_flick.pop(0)
            m.kind = "action"
        elif coin == cur.coin:
            if cur.status == "unplaced":
                cur.status = "in_play"  # TTC-10: placed and played
                cur.idx = 0
                if coin not in self.positions:
                    spot = _pt(self._free_start_spot())
                    self.positions[coin] = spot
                    m.positions[coin] = list(spot)
        elif self.o["ttc_team"] and owner.status == "rover":
            if coin in t.forced:
                m.void = "reject"
                m.void_clause = "TTC-TM8"
                self._rule("reject", "TTC-TM8",
                           f"Player {cur.number} already tried to force {self._name(coin)} "
                           "out this turn (one attempt per rover per turn): the flick is void "
                           "and the coins go back; no flick is spent.", player=cur.number,
                           coin=coin)
                return
            t.forced.append(coin)
            m.kind = "force"
        else:
            why = (f"{coin} is not in play." if owner.status in OFF_TABLE_STATUSES else
                   f"it is player {cur.number}'s turn to play {cur.coin}.")
            self._wrong_coin(coin, why, "TTC-09")
            return
        t.flicks_left -= 1
        if self.o["enforce_flick_form"] and (
                (e.finger_ms is not None and e.finger_ms > self.o["push_ms"])
                or (e.touch_mm is not None and e.touch_mm > 10.0)):
            m.void = "foul"
            m.void_clause = "TTC-01"
            self._rule("foul", "TTC-01",
                       "That was a push, not a flick: the flick is spent and its effects are "
                       "void; the coins go back.", coin=coin, player=cur.number)

    def _wrong_coin(self, coin: str, why: str, clause: str) -> None:
        """A flick of a coin the player may not flick now: void, coins go back (G-CCN-42)."""
        m = self.motion
        assert m is not None
        m.void = "foul"
        m.void_clause = clause
        end = self.o["wrong_coin_penalty"] == "end_turn"
        self._rule("foul", clause, f"Wrong coin: {why} The coins go back where they were"
                   + ("; the turn ends." if end else "; no flick is spent."),
                   coin=coin, player=self.turn.player)
        if end:
            m.end_turn = True

    # ------------------------------------------------------------------ motion events
    def _on_motion_event(self, e: ev.Event) -> None:
        m = self.motion
        if m is None:
            coin = getattr(e, "coin", None) or getattr(e, "a", None)
            self._rule("reject", "TTC-31",
                       f"A {e.type} outside a flick (a hand moving a coin) has no effect.",
                       coin=coin)
            return
        names = [getattr(e, k, None) for k in ("coin", "a", "b")]
        for c in names:
            if c and c not in m.moved:
                m.moved.append(c)
        if m.void is not None:
            return
        if e.uncertain and self._index not in self.accepted and not self._call_uncertain(e):
            return
        if isinstance(e, ev.Cross):
            if self.o["crossing_evaluation"] == "settled":
                m.crossings.append({"coin": e.coin, "line": e.line, "dir": e.dir})
            else:
                self._on_cross(e.coin, e.line, e.dir)
        elif isinstance(e, ev.Contact):
            self._on_contact(e)
        elif isinstance(e, ev.Hit):
            self._on_hit(e)
        elif isinstance(e, ev.OffTable):
            self._on_off_table(e)

    def _bonus(self, coin: str, n: int, clause: str, text: str, kind: str = "bonus",
               **kw: Any) -> None:
        """Give `n` flicks to the player for the active coin (lost after going off, G-TTC-12)."""
        m = self.motion
        given = n
        if n > 0 and m is not None and m.lost_flicks:
            text += " The flick(s) are lost: the coin went off the table."
            given = 0
        self.turn.flicks_left += given
        self._rule(kind, clause, text + (f" {self._flicks_text()}." if given else ""),
                   player=self.turn.player, coin=coin, bonus=given, **kw)

    # -- wickets
    def _on_cross(self, coin: str, line: str, direction: str) -> None:
        if not line.startswith("wicket-"):
            return
        p = self._owner(coin)
        active = self._is_active(coin)
        way = "toward the right endpost" if direction == "+" else "toward the left endpost"
        if p.status == "rover":
            if not active:
                return
            if line in self.turn.rover_wickets:
                self._bonus(coin, 0, "TTC-TM6", f"Rover {coin} passed {line} again: a rover "
                            "earns once per wicket per turn.")
                return
            self.turn.rover_wickets.append(line)
            self._bonus(coin, 1, "TTC-TM6", f"Rover {coin} passed {line} ({way}): one more "
                        "flick.", extra={"wicket": line})
            return
        if p.status == "poison":
            if active:
                self._bonus(coin, 0, "G-TTC-28", f"Poison {coin} passed {line}: a poison coin "
                            "earns nothing for wickets.")
            return
        if p.status != "in_play" or p.idx >= COMPLETE:
            return
        target, need = COURSE[p.idx]
        if (line, direction) == (target, need):
            self._advance(p, active, f"passes {line} {way}")
            return
        if not active:
            return  # TTC-18: neutral for a knocked coin
        if line == target:
            self._bonus(coin, 0, "TTC-14", f"{coin} passed {line} in the wrong direction "
                        f"({way}): no flick; it must go through "
                        + ("toward the right endpost." if need == "+" else
                           "toward the left endpost."))
        else:
            self._bonus(coin, 0, "TTC-18", f"{coin} passed {line} out of order: no flick "
                        f"(next: {item_name(p.idx)}).")

    def _advance(self, p: Player, active: bool, what: str) -> None:
        """The coin made its next course item: TTC-16/17 for the active coin, TTC-27 else."""
        item = p.idx
        p.idx += 1
        nxt = item_name(p.idx)
        after = f"; next: {nxt}." if nxt else "."
        if active:
            self.turn.hit_set = []  # TTC-25: a scored wicket or endpost clears the hit list
            clause = "TTC-17" if item == RIGHT_ITEM else "TTC-16"
            self._bonus(p.coin, 1, clause, f"{p.coin} {what} in order: one more flick{after}",
                        kind="score", extra={"item": item_name(item)})
            return
        clause = "TTC-27" if item != RIGHT_ITEM else "G-TTC-15"
        self._rule("score", clause, f"{p.coin} was knocked and {what} in order: it counts for "
                   f"player {p.number}, with no extra flick for anyone{after}",
                   player=p.number, coin=p.coin, bonus=0, extra={"item": item_name(item)})

    # -- endposts
    def _on_hit(self, e: ev.Hit) -> None:
        if e.speed is not None and e.speed < self.o["v_hit_min"]:
            return
        if e.piece not in ("endpost-left", "endpost-right"):
            return  # wicket tiles carry no rule
        p = self._owner(e.coin)
        if not self._on_table(e.coin):
            return
        active = self._is_active(e.coin)
        if active and self.o["ttc_reset_on_any_endpost"] and self.turn.hit_set:
            self.turn.hit_set = []
            self._rule("bonus", "G-TTC-09", f"{e.coin} hit {e.piece}: the coins it hit this "
                       "turn may earn flicks again (TTC-25: \"or hit an endpost\").",
                       player=p.number, coin=e.coin, bonus=0)
        if p.status == "rover":
            if e.piece == "endpost-left":
                forced = self.motion is not None and self.motion.kind == "force"
                self._leave(p, "TTC-TM8" if forced else "G-TTC-23",
                            f"Rover {p.coin} hit the left endpost"
                            + (" (forced out by player " f"{self.turn.player})" if forced else "")
                            + ": it completes the course and leaves the game.")
            return
        if p.status != "in_play":
            return
        item = COURSE[p.idx][0] if p.idx < COMPLETE else None
        if item != e.piece:
            if active:
                self._bonus(e.coin, 0, "TTC-18", f"{e.coin} hit {e.piece} out of order: no "
                            f"flick (next: {item_name(p.idx)}).")
            return
        if not active and self.o["ttc_passive_completion"] == "not_counted":
            self._rule("score", "G-TTC-15", f"{e.coin} was knocked into {e.piece}: it does not "
                       "count (ttc_passive_completion=not_counted).", player=p.number,
                       coin=e.coin, bonus=0)
            return
        if p.idx == RIGHT_ITEM:
            self._advance(p, active, "hits the right endpost")
            return
        self._complete(p, active)

    def _complete(self, p: Player, active: bool) -> None:
        """Item 15 done: a win, leaving the game (team play) or poison (TTC-12/TM4/P1)."""
        p.idx = COMPLETE
        self.completions.append(p.number)
        how = "" if active else " (knocked in: it counts, G-TTC-15)"
        if self.o["ttc_team"]:
            self._leave(p, "TTC-TM4", f"{p.coin} completes the course{how} and leaves the game.")
            return
        if self.o["ttc_poison"]:
            p.status = "poison"
            self._rule("score", "TTC-P1", f"{p.coin} completes the course{how}: player "
                       f"{p.number}'s coin is now poison; it kills the coins it hits (TTC-P3).",
                       player=p.number, coin=p.coin, bonus=0, extra={"status": "poison"})
            self._poison_end()
            return
        self._end(p.number, None, "TTC-33" if active else "G-TTC-15",
                  f"{p.coin} completes the course in order and hits the left endpost{how}: "
                  f"player {p.number} wins!")

    def _leave(self, p: Player, clause: str, text: str) -> None:
        """The coin is DONE and taken off the table; the team may have won (TTC-TM2)."""
        p.status = "done"
        p.idx = COMPLETE
        self._request(Request(p.coin, "remove", clause, PLACE_ORDER["remove"],
                              why="it has left the game"))
        self._rule("score", clause, text, player=p.number, coin=p.coin, bonus=0,
                   extra={"status": "done"})
        if p.number == self.turn.player and self.motion is not None:
            self.motion.play_over = True
        team = p.team
        if team is not None and all(q.status == "done" for q in self.players.values()
                                    if q.team == team):
            members = [q.number for q in self.players.values() if q.team == team]
            self._end(members[0], team, "TTC-TM2",
                      f"Every member of team {team} (players "
                      f"{', '.join(map(str, members))}) has completed the course: team "
                      f"{team} wins!")

    def _end(self, winner: int, team: int | None, clause: str, text: str) -> None:
        self.over = True
        self.winner = winner
        self.winning_team = team
        if self.motion is not None:
            self.motion.play_over = True
        extra = {"team": team} if team is not None else {}
        self._rule("win", clause, text, player=winner, extra=extra)

    # -- coins hitting coins
    def _on_contact(self, e: ev.Contact) -> None:
        if e.speed is not None and e.speed < self.o["v_hit_min"]:
            return
        if not (self._on_table(e.a) and self._on_table(e.b)):
            return  # G-TTC-17: a coin not on the table cannot be hit
        m = self.motion
        assert m is not None
        if m.coin not in (e.a, e.b) or not self._is_active(m.coin):
            return  # G-TTC-07, G-TTC-24: hit or forced coins earn nothing
        coin = m.coin
        other = e.b if coin == e.a else e.a
        if other in m.touching and other not in m.retouched:
            m.retouched.append(other)
            self._bonus(coin, 0, "TTC-32", f"{coin} was touching {other} when flicked: moving "
                        "it is not a hit.")
            return
        me, op = self._cur(), self._owner(other)
        if me.status == "poison":
            self._kill(op)
            return
        if op.team is not None and op.team == me.team:
            self._bonus(coin, 0, "TTC-TM3", f"{coin} hit its teammate {other}: no flicks.")
            return
        if me.status == "rover":
            seen, clause = self.turn.rover_hits, "TTC-TM7"
        else:
            seen, clause = self.turn.hit_set, "TTC-25"
        if other in seen:
            why = ("a rover earns once per coin per turn" if me.status == "rover" else
                   "not until it passes another wicket or hits an endpost in order")
            self._bonus(coin, 0, clause, f"{coin} hit {other} again: no flicks ({why}).")
            return
        if m.hits and self.o["multi_strike"] == "first_only":
            self._bonus(coin, 0, "G-TTC-06", f"{coin} hit {other}: only the first hit of a "
                        "flick earns flicks.")
            return
        seen.append(other)
        m.hits += 1
        self.turn.actions_due.append(other)
        self._bonus(coin, 2, "TTC-19" if me.status != "rover" else "TTC-TM7",
                    f"{coin} hit {self._name(other)}: two more flicks. Choose an action "
                    "(declare action 1-4; 1 = play on).", extra={"hit": other})

    def _kill(self, op: Player) -> None:
        """TTC-P3/P4/P5: the active poison coin kills what it hits; two more flicks."""
        coin = self._cur().coin
        was_poison = op.status == "poison"
        op.status = "killed"
        self._request(Request(op.coin, "remove", "TTC-P3", PLACE_ORDER["remove"],
                              why="it was killed by poison"))
        self._rule("capture", "TTC-P5" if was_poison else "TTC-P3",
                   f"Poison {coin} hit {op.coin}: player {op.number} is killed and loses"
                   + (" (only the hit poison coin dies)." if was_poison else "."),
                   player=op.number, coin=op.coin, extra={"killed_by": coin})
        self._bonus(coin, 2, "TTC-P4", f"Poison {coin} earns two more flicks for the kill.")
        self._poison_end()

    def _poison_end(self) -> None:
        """G-TTC-27: the game ends when at most one coin is alive (or, with
        `first_to_complete_plus_survive`, when every live coin is poison)."""
        alive = [p for p in self.players.values() if p.status != "killed"]
        if len(alive) <= 1:
            if alive:
                w = alive[0]
                self._end(w.number, None, "G-TTC-27", f"Every other coin is dead: player "
                          f"{w.number} ({w.coin}) is the last alive and wins!")
            return
        if (self.o["poison_win"] == "first_to_complete_plus_survive"
                and all(p.status == "poison" for p in alive)):
            w = next(self.players[str(n)] for n in self.completions
                     if self.players[str(n)].status == "poison")
            self._end(w.number, None, "G-TTC-27", f"Every live coin is poison: player "
                      f"{w.number} ({w.coin}) completed first and survived, and wins "
                      "(poison_win=first_to_complete_plus_survive).")

    # -- off the table
    def _on_off_table(self, e: ev.OffTable) -> None:
        m = self.motion
        assert m is not None
        if not self._on_table(e.coin):
            return
        spot = self.layout.inset_from_edge(e.at, self.o["offtable_inset_mm"])
        m.off_table[e.coin] = _pt(spot)
        p = self._owner(e.coin)
        if self._is_active(e.coin):
            m.lost_flicks = True
            self._rule("foul", "TTC-28", f"{e.coin} went off the table: player {p.number} "
                       "loses the rest of this turn's flicks; it goes back one coin-width in "
                       "from the edge where it fell.", player=p.number, coin=e.coin, at=spot)
            clause = "TTC-28"
        else:
            clause = "TTC-29" if m.kind == "own" else "G-TTC-13"
            self._rule("place", clause, f"{self._name(e.coin)} was knocked off the table: it "
                       "goes back one coin-width in from the edge where it fell (no penalty).",
                       player=p.number, coin=e.coin, at=spot)
        self._request(Request(e.coin, "spot", clause, PLACE_ORDER["off_table"], at=_pt(spot),
                              why="one coin-width in from the edge where it fell off"))

    # ------------------------------------------------------------------ settling
    def _on_settled(self, e: ev.Settled) -> None:
        if e.positions:
            for coin, p in e.positions.items():
                if self._on_table(coin):
                    self.positions[coin] = _pt(p)
        if self.motion is not None:
            self._settle(e.positions)

    def _settle(self, positions: dict[str, Any] | None) -> None:
        m = self.motion
        assert m is not None
        if m.void is None and m.crossings:
            self._settle_crossings(m)
        if m.void is not None:
            self._rollback(m, positions)
        for coin, spot in m.off_table.items():
            if m.void is None and self._on_table(coin):
                self.positions[coin] = list(spot)
        for p in self.players.values():
            if p.status in ("done", "killed"):
                self.positions.pop(p.coin, None)
        for req in sorted(self.pending.values(), key=lambda r: (r.order, r.coin)):
            self._announce(req)
        if m.lost_flicks or m.play_over:
            self.turn.flicks_left = 0
        self.motion = None
        if self.over:
            return
        cur = self._cur()
        if m.end_turn or cur.status in ("done", "killed"):
            self.turn.flicks_left = 0
        if self.turn.flicks_left <= 0:
            self._next_turn()

    def _settle_crossings(self, m: Motion) -> None:
        """crossing_evaluation = settled: a line counts once, by the net side change."""
        crossings, m.crossings = m.crossings, []
        for coin, line, direction in net_crossings(crossings):
            self._on_cross(coin, line, direction)

    def _rollback(self, m: Motion, positions: dict[str, Any] | None) -> None:
        coins = list(m.moved)
        if positions:
            coins = [c for c in positions if c in m.positions
                     and dist(tuple(positions[c]), tuple(m.positions[c])) > 2.0] or coins
        for coin in coins:
            spot = m.positions.get(coin)
            if spot is None:
                continue
            self.positions[coin] = list(spot)
            self._request(Request(coin, "spot", m.void_clause, PLACE_ORDER["rollback"],
                                  at=list(spot), why="where it was before the flick"))

    def _request(self, req: Request) -> None:
        self.pending[req.coin] = req
        if self.motion is None:
            self._announce(req)

    def _announce(self, req: Request) -> None:
        """Say a placement request as a `place` ruling (once)."""
        if req.announced:
            return
        name = self._name(req.coin)
        if req.kind == "remove":
            text = f"Take {name} off the table: {req.why}."
        elif req.kind == "near":
            text = (f"Move {name} to within one coin-width of {req.target} (the suggested spot "
                    "or anywhere not touching a tile or overlapping a coin).")
        elif req.kind == "flip":
            text = f"Turn {name} back over to show its {req.coin} face."
        else:
            text = f"Put {name} back {req.why or 'at the marked spot'}."
        self._rule("place", req.clause, text, coin=req.coin,
                   at=tuple(req.at) if req.at else None,
                   player=self._owner(req.coin).number, extra={"placement": req.kind})
        req.announced = True

    # ------------------------------------------------------------------ placements by hand
    def _on_place(self, e: ev.Place) -> None:
        if self.motion is not None:
            self._rule("reject", "TTC-31", f"{e.coin} was placed by hand during a flick; the "
                       "placement is ignored.", coin=e.coin)
            return
        p = self._owner(e.coin)
        req = self.pending.get(e.coin)
        if req is None and p.status == "unplaced":
            if p.number != self.turn.player:
                self._rule("reject", "TTC-10", f"Coins are placed in the standard order, each "
                           f"on its player's first turn: it is player {self.turn.player}'s "
                           "turn.", coin=e.coin, player=p.number)
                return
            req = Request(e.coin, "zone", "TTC-10", PLACE_ORDER["other"],
                          at=_pt(self._free_start_spot()))
        if req is None:
            self._disturbance(e)
            return
        problem = self._placement_problem(req, e)
        if problem:
            self._rule("reject", "G-TTC-16" if req.kind == "zone" else req.clause,
                       f"{e.coin}: {problem}", coin=e.coin, player=p.number,
                       at=tuple(req.at) if req.at else None)
            return
        self.pending.pop(e.coin, None)
        self.positions[e.coin] = _pt(e.at)
        if req.kind == "zone":
            p.status = "in_play"
            p.idx = 0

    def _placement_problem(self, req: Request, e: ev.Place) -> str | None:
        """Why a hand placement does not satisfy the request, with the measured size."""
        at = (float(e.at[0]), float(e.at[1]))
        c, eps = self.layout.coin_mm, self.o["eps_place"]
        if req.kind == "remove":
            return f"it has left the game ({req.why}); it may not be put back."
        if not self.layout.on_table(at):
            return "that is off the table."
        if req.kind == "zone":
            g = self.game
            foot = self.layout.pieces["endpost-left"].footprint()
            gap = edge_gap_to_footprint(at, foot, c)
            along = dot(sub(at, g.left_centre), g.axis)
            t = self.layout.tile_mm
            if gap < -0.5 or gap > t + eps:
                return (f"it is {gap:.1f} mm from the left endpost; it must be within one "
                        f"tile-width ({t:.1f} mm).")
            if along < g.zone_min - eps or along > g.zone_max + eps:
                return "it must lie between the left endpost and wicket 1."
            return self._overlap_problem(e.coin, at)
        if req.kind == "near" and req.target:
            tpos = self.positions.get(req.target)
            if tpos is not None:
                gap = dist(at, tuple(tpos)) - c
                if not within_coin_width(gap, c, eps, self.o["coin_width_measure"]):
                    return (f"it is {gap:.1f} mm from {req.target}; it must be within one "
                            f"coin-width ({c + eps:.1f} mm) and not on it.")
            return self._overlap_problem(e.coin, at)
        if req.kind == "spot" and req.at is not None:
            off = dist(at, tuple(req.at))
            if off > c / 2:
                return f"it is {off:.1f} mm from the marked spot."
        return None

    def _overlap_problem(self, coin: str, at: tuple[float, float]) -> str | None:
        """Touching is allowed; overlapping a coin or a tile is not (G-TTC-08, G-TTC-16)."""
        c = self.layout.coin_mm
        for other, p in self.positions.items():
            if other != coin and dist(at, tuple(p)) < c - 0.5:
                return f"it overlaps {other}."
        for piece in self.layout.pieces.values():
            if edge_gap_to_footprint(at, piece.footprint(), c) < -0.5:
                return f"it overlaps {piece.name}."
        return None

    def _disturbance(self, e: ev.Place) -> None:
        """TTC-31: coins are played where they lie; a coin moved by hand goes back."""
        old = self.positions.get(e.coin)
        p = self._owner(e.coin)
        if p.status in ("done", "killed"):
            self._rule("reject", "TTC-31", f"{e.coin} has left the game.", coin=e.coin,
                       player=p.number)
            return
        if old is None:
            self.positions[e.coin] = _pt(e.at)
            return
        if dist(tuple(old), (e.at[0], e.at[1])) <= self.o["eps_place"]:
            return
        if (self.o["disturbance_penalty"] == "end_coin_play"
                and e.coin == self._cur().coin):
            self._rule("foul", "TTC-31", f"{e.coin} was moved by hand: player {p.number}'s "
                       "turn ends (disturbance_penalty=end_coin_play).", coin=e.coin,
                       player=p.number)
            self._request(Request(e.coin, "spot", "TTC-31", PLACE_ORDER["other"], at=old,
                                  why="where it lay before it was moved by hand"))
            self.turn.flicks_left = 0
            self._next_turn()
            return
        self._request(Request(e.coin, "spot", "TTC-31", PLACE_ORDER["other"], at=old,
                              why="where it lay: coins are flicked from where they lie "
                              "(no penalty)"))

    # ------------------------------------------------------------------ declarations
    def _on_declare(self, e: ev.Declare) -> None:
        if e.what not in ("action", "rover", "poison", "end_play"):
            self._rule("reject", "TTC-20", f"'{e.what}' is not a Tabletop Croquet declaration "
                       "(action, rover, poison).", player=e.player)
            return
        if self.motion is not None:
            self._rule("reject", "TTC-20", "Declarations wait until the coins settle.",
                       player=e.player)
            return
        if e.what == "rover":
            self._declare_rover(e)
            return
        if e.what == "poison":
            self._declare_poison(e)
            return
        if e.player != self.turn.player:
            self._rule("reject", "TTC-09", f"It is player {self.turn.player}'s turn, not player "
                       f"{e.player}'s.", player=e.player)
            return
        if e.what == "end_play":
            self._rule("reject", "TTC-26", f"Every earned flick must be used: player "
                       f"{e.player} has {self._flicks_text()} (no carry-over, no giving up).",
                       player=e.player)
            return
        self._declare_action(e)

    def _declare_action(self, e: ev.Declare) -> None:
        t = self.turn
        opt = e.option
        if not t.actions_due:
            self._rule("reject", "TTC-20", "No action is due: the coin has not just hit another "
                       "coin for flicks.", player=e.player)
            return
        if opt not in (1, 2, 3, 4):
            self._rule("reject", "TTC-20", f"The action must be 1, 2, 3 or 4, not {opt}.",
                       player=e.player)
            return
        target = t.actions_due[0]
        if opt in (2, 4) and t.placement_used:
            self._rule("reject", "G-TTC-06", "Actions 2 and 4 (moving your coin) may be chosen "
                       "for only one of the coins hit in a flick.", player=e.player)
            return
        if opt in (3, 4) and not self._on_table(target):
            self._rule("reject", "TTC-23", f"{target} has left the table and cannot be flicked.",
                       player=e.player)
            return
        t.actions_due.pop(0)
        words = {1: "play on from where your coin lies",
                 2: f"move your coin within one coin-width of {target}, then play on",
                 3: f"use one flick on {target}, then play on from where your coin lies",
                 4: f"move your coin within one coin-width of {target}, use one flick on "
                    f"{target}, then play on"}
        self._rule("bonus", f"TTC-{20 + opt}", f"Action {opt}: {words[opt]}.", player=e.player,
                   coin=target, bonus=0, extra={"action": opt})
        if opt in (3, 4):
            t.must_flick.append(target)
        if opt in (2, 4):
            t.placement_used = True
            me = self._cur().coin
            spot = None
            tpos, mpos = self.positions.get(target), self.positions.get(me)
            if tpos is not None and mpos is not None:
                d = dist(tuple(mpos), tuple(tpos)) or 1.0
                gap = self.layout.coin_mm * 1.5
                spot = [tpos[0] + (mpos[0] - tpos[0]) / d * gap,
                        tpos[1] + (mpos[1] - tpos[1]) / d * gap]
            self._request(Request(me, "near", f"TTC-{20 + opt}", PLACE_ORDER["declaration"],
                                  at=spot, target=target))

    def _declare_rover(self, e: ev.Declare) -> None:
        p = self.players[str(e.player)]
        if not self.o["ttc_team"]:
            self._rule("reject", "TTC-TM4", "Rovers belong to team play (option ttc_team).",
                       player=e.player)
            return
        if p.status != "in_play" or p.idx != LAST_ITEM:
            self._rule("reject", "TTC-TM4", f"Only a coin that has passed the last wicket may "
                       f"become a rover; {p.coin}'s next item is {item_name(p.idx)}.",
                       player=e.player)
            return
        p.status = "rover"
        self._rule("score", "TTC-TM4", f"Player {p.number} declares {p.coin} a rover: it now "
                   "plays to help its team (TTC-TM6…TM8).", player=p.number, coin=p.coin,
                   bonus=0, extra={"status": "rover"})

    def _declare_poison(self, e: ev.Declare) -> None:
        p = self.players[str(e.player)]
        if not self.o["ttc_poison"]:
            self._rule("reject", "TTC-P1", "Poison is an optional rule (option ttc_poison).",
                       player=e.player)
        elif p.status != "poison":
            self._rule("reject", "TTC-P1", f"{p.coin} must complete the course before it can "
                       "be poison.", player=e.player)
        # A poison coin's declaration only confirms what the referee already recorded.

    # ------------------------------------------------------------------ other events
    def _on_face(self, e: ev.Face) -> None:
        """TTC-08: a coin keeps its identity when it flips; ask for it to be turned back."""
        if e.face == e.coin:
            req = self.pending.get(e.coin)
            if req is not None and req.kind == "flip":
                del self.pending[e.coin]
            return
        if not self._on_table(e.coin):
            return
        self._request(Request(e.coin, "flip", "TTC-08", PLACE_ORDER["other"]))

    def _on_tile_moved(self, e: ev.TileMoved) -> None:
        """TTC-30: a knocked wicket tile or endpost must be restored before the next flick."""
        if e.by_mm <= 2.0:
            if e.piece in self.tiles_out:
                self.tiles_out.remove(e.piece)
            return
        if e.piece not in self.tiles_out:
            self.tiles_out.append(e.piece)
        piece = self.layout.pieces[e.piece]
        self._rule("place", "TTC-30", f"{e.piece} was knocked {e.by_mm:.0f} mm out of place: "
                   "put it back before the next flick.", at=piece.center_mm,
                   extra={"piece": e.piece, "placement": "tile"})
