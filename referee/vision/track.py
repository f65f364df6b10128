"""Tracking: one track per known coin, a Kalman filter each, Hungarian assignment with gating.

The game fixes the set of coins and the session start binds each identity to a place (every
coin rests in its start zone), so the tracker never creates or deletes identities: it keeps
them.  Each frame (`update`, called even when nothing is detected, as SORT does):

1. assignment by Mahalanobis distance inside a χ² gate (scipy's `linear_sum_assignment`);
2. a second round for what is left, by distance within the reach of a fast coin and by look:
   this catches impacts (a resting coin struck hard lands far from its prediction) and coins
   that come back after a hand hid them; the filter is then re-seeded from observations
   (OC-SORT's observation-centric recovery);
3. a fingertip or an arm's piece taken for a coin is undone once the coin is seen again: a
   run of detections no coin took that slides like a coin (`orphans`) is given to the coin
   whose resting place its line runs back through, if that coin was not seen to leave on
   it; a coin seen sliding from its place loses the sightings since rest that lie off its
   path; one seen back at rest on its place soon after loses those away from it
   (`Tracker.rewritten` tells the caller);
4. coins without a detection coast; the caller says whether a hand covers their prediction.

A resting coin's detection that touches a hand and lies within a radius of it is not taken:
a fingertip merged into the blob would drag the centre (and invent a motion) before the
flick; the coin is held where it rests until it leaves the fingers.

Observations (the raw detected centres, not the filtered ones) are kept per coin for the
trajectory reconstruction, which fits physics to them.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field

import numpy as np
from scipy.optimize import linear_sum_assignment

from referee.vision.detections import Detections, near_any
from referee.vision.kalman import CoinFilter, MotionModel
from referee.vision.orphans import SLIDE_POINTS, Chain, Orphans
from referee.vision.reidentify import exchange_after
from referee.vision.trajectory import FINGER_MM, MAX_SPEED_MM_S

GATE_CHI2 = 18.4
"""χ² with 2 degrees of freedom at 99.99 %: a detection outside is not this coin's."""
UNMATCHED = 1e9
MISS_COST = 20.0
"""Round 2's price for leaving a coin unpaired: as dear as a 400 mm jump from under a hand,
so that one far, doubtful pair never pulls a near, sure one apart."""
LOST_S = 0.25
"""A coin unseen this long has a belief too vague for the χ² gate; it waits for round 2."""
STAYED_MM = 8.0
"""A coin seen again this close to where a hand hid it is taken to have stayed there."""
CARRIED_MM = 150.0
"""Beyond this a coin back from under a hand was carried there (a flick under the fingers
is short): it was put down, so it is seen whole, sharp and with its own look, not as a
fragment, a streak or a fingertip apart from the withdrawing hand."""
QUICKEST_CARRY_S = 0.3
"""No hand lifts a coin, carries it and puts it down in less time than this."""
WHOLE = 0.8
"""A blob at least this share of a coin's own size at the session start shows it whole."""
CARRIED_LOOK = 0.3
"""Largest look distance for a sharp blob to be a coin back from under a hand, put down or
where it was (a coin at rest reads within 0.02 of its look at the session start, within
0.24 back from under a hand; skin and sleeves read 0.6 and more away from any coin)."""
STACK_LOOK = 0.55
"""...and for one put down on a tower's top, seen on white tile and nearer the lens than on
the cloth its look was learned on (the demo game's Moons on tower 1 read 0.32 away; at look
155 Moons, a black ring round a pale middle, 0.505: its prisoner was never taken)..."""
STACK_WHOLE = 0.45
"""...and as whole: the parts of it as pale as the tile fall out of its blob (the capture
scenario at look 106: Moons a prisoner on tower 2 showed 0.78 of its blob on the cloth),
and its dark art, dimming the white tile alike in every channel, reads as a shadow (at look
128: 0.52, and the prisoner was never taken)."""
EDGE_LOOK = 0.55
"""...and for one hanging over the table's edge, seen against what lies beyond (off-table at
look 203: Arms, cream on beige, 2.8 mm from falling off, read 0.52 from its look)."""
SLIDE_LOOK = 0.55
"""Largest look distance, on average, for a lost slide seen only as streaks to be a coin's
(CARRIED_LOOK if any of it is sharp): each is blurred over the cloth (a white coin over dark
blue cloth at 2.9 m/s read 0.39 from its look: fast flick at look 227, its flick lost to
the fingertip left behind).  A hand's piece is told by `_hand_like`."""
RIM_SHARE = 0.6
"""The largest share of a coin's look its blurred rim takes from the colour under it: a
rim 2 px wide is 0.46 of a coin 15 px across (capture at look 180 read 0.48), and 0.6 of
one 11 px across, the smallest our simulator's cameras film."""
OWN_LOOK = 0.03
"""A sharp, whole blob this near a coin's look, within CARRIED_MM of where a hand hid it, is
that coin put down or flicked from under the fingers, seen at once (a resting coin reads
within 0.01 of its look, another suit's 0.05 and more): the edge of a withdrawing arm
leaves one-frame blobs, seldom of a coin's own look and size (tower-hit at look 105: Moons
put down 100 mm on and not taken for 5 frames).  Farther off, a hand's last frame in view
left one of Ace's look 350 mm from it (strike at look 131: a flick invented)."""
OUT_FROM_UNDER = 4.0
"""...or a whole one this many times nearer the coin's look, or the game's coins' looks,
than the hands' colour (`_shown_at_once`: those seen so, at looks 100, 104 and 112, read 6
to 14 times nearer their own; at look 100 in 1080p, 3 times, and 5 times nearer Ace's)."""
DRAWN_FROM = 0.5
"""A blob blurred this share of its radius or more beyond a coin's diameter, short of a
streak (`Detections.streaked`: a whole radius), along a line within a radius of where the
fingers hid a coin, is that coin flicked out from under them if it reads nearer the coins'
looks than the hands' colour at all (`_shown_at_once`): the blur mixes in the cloth and
takes its look away from its own (gate run at look 101 and strike at look 102: Moons in its
flick's first frame 34 and 58 mm out, blurred 0.95 and 1.0 of a radius, 3.9 and 1.9 times
nearer the coins' looks than the hands'; left unpaired, it was placed back at rest).  Seen
at rest the frame before, the hand over its place, it leaves so too (`_drawn`; fast
flick at look 110, 720p60: Suns 49 mm out, blurred 0.95 of a radius, 2.1 times nearer)."""
ANOTHERS_LOOK = 0.1
"""A sharp blob this near another coin's look and not within CARRIED_LOOK of a coin's own
(STACK_LOOK on a tower's top) is that other coin, not this one (capture at look 152: guard
2, stopped dead by the Moons it struck, took Moons' blob sliding on, 0.40 from its own look
and 0.05 from Moons', and the two exchanged names for three frames: Moons "flicked" before
the strike).  A knight and its own guard read 0.01-0.03 apart: nothing here tells them
apart."""
SHARP_LOOK_WEIGHT = 20.0
"""Round 2's weight on the look of a sharp blob (a streak's look is half the cloth's)."""
HAND_LIKE = 2.0
"""A sharp blob this many times nearer the hands' mean colour than the coin's look is skin
or sleeve, not that coin (fragments read 0.1–0.2 from the hand and 0.35–0.7 from every
coin; two coins merged in one blurred blob read about as near the one as the other)."""
HAND_LIKE_STREAK = 4.0
"""...and a streak this many times (blurred over the cloth, a coin's look drifts from its
own; a hand's fragment sliding with the hand reads 0.78 from the coin it passed and 0.10
from the hand: the capture scenario at look 104, taken for a flick of that coin)."""
LAUNCH_S = 0.1
"""How long after a coin's launch streak it is held to have moved on (`_behind_launch`)."""
PART_SEEN = 0.5
"""A sharp blob under this share of a resting coin's own size, off its place, is the coin
in part (`_part_off_rest`)..."""
PART_MARGIN_MM = 1.5
"""...and back from under a hand, as far off as such a part's centre and this much more
(blur, and an edge not straight)."""
LAUNCH_SIDE = 0.25
"""A launch streak says surely which way its coin left when its centre lies this share of
its length (beyond the coin's) on from the place (`_behind_launch`)."""
REST_STEP_MM = 2.0
"""Two sightings this close, the last sharp: the coin was at rest (`resting_when_seen`)."""
RESTING_MM_S = 30.0
"""A coin slower than this is at rest (the pipeline's threshold for activity too)."""
TOUCHING = 1.5
TOUCHING_S = 0.05
"""Two coins last seen within TOUCHING diameters of each other, both in the last TOUCHING_S,
one moving, may show next as one blob between them (`_touching`)."""
UNSWAP_S = 0.07
"""...and two coins seen touching in the last this long may have swapped blobs
(`_unswapped`): the one struck is unseen for a frame, merged into the striker's blob."""
RELAUNCH_S = 0.35
"""A lost slide is a coin's only if it began this soon after the coin was last at rest."""
RETURN_S = 0.4
"""A coin seen away from its place and back at rest there within this time never left it
(`Tracker._returned`)."""
REST_SIGHTINGS = 3
"""...where it was seen sharp and still this many times running (`_launched_from`)."""
WANDER_MM = 40.0
"""...and the coin's sightings since stayed this near its place (a fingertip's wander, two
diameters: 16 mm at look 121, 33 mm beside a tile there)."""


@dataclass
class Observation:
    t: float
    center_mm: tuple[float, float]
    streak_mm: float = 0.0
    streak_dir: tuple[float, float] = (0.0, 0.0)
    """The streak's unit direction on the table (its sign unknown; 0 when sharp)."""


@dataclass(frozen=True)
class Rewrite:
    """A coin's past sightings found to be a fingertip's or an arm's piece: those at
    `dropped` (times) go, `added` (t, x, y) take their place (the coin's slide, seen but not
    taken for it)."""

    coin: str
    dropped: list[float]
    added: list[tuple[float, float, float]]


@dataclass
class CoinTrack:
    coin: str
    filter: CoinFilter
    look: np.ndarray | None = None
    observations: list[Observation] = field(default_factory=list)
    last_seen: float = 0.0
    hidden: bool = False
    """True while a hand covers the coin's predicted place (it is not lost, only unseen)."""
    gone: bool = False
    """True once the coin left the table, until a hand puts it back: it comes back only
    whole, sharp and with its own look, never as a streak (off-table at look 167: an arm
    reaching in along the table's edge, its streak's line through where Arms had left, was
    taken for Arms flicked back)."""
    size: float = 1.0
    """Its blob's area at the session start, in coin areas (a dark coin's faint rim on dark
    cloth makes it smaller): a blob is this coin whole when it is about this big."""
    table_look: np.ndarray | None = None
    """The empty table's colour under it at the session start, where `look` was read."""

    @property
    def position_mm(self) -> tuple[float, float]:
        return (float(self.filter.x[0]), float(self.filter.x[1]))

    @property
    def speed_mm_s(self) -> float:
        return float(np.hypot(*self.filter.x[2:]))

    def vague(self, t: float) -> bool:
        """Under a hand, or unseen for LOST_S: it may be anywhere a hand could take it."""
        return self.hidden or t - self.last_seen > LOST_S


class Tracker:
    """Keeps every known coin's identity from frame to frame."""

    def __init__(self, start_mm: Mapping[str, tuple[float, float]], t0: float = 0.0,
                 model: MotionModel | None = None,
                 looks: Mapping[str, np.ndarray] | None = None,
                 sizes: Mapping[str, float] | None = None,
                 on_stack: Callable[[tuple[float, float]], bool] | None = None,
                 table_look: Callable[[tuple[float, float]], np.ndarray | None] | None = None,
                 on_table: Callable[[tuple[float, float]], bool] | None = None,
                 hand_came: Callable[[tuple[float, float], float], bool] | None = None
                 ) -> None:
        if not start_mm:
            raise ValueError("the tracker needs the game's coins and where they start")
        self.model = model or MotionModel()
        self.tracks: dict[str, CoinTrack] = {}
        for coin, p in start_mm.items():
            f = CoinFilter(t0, np.asarray(p, float), self.model)
            look = None if looks is None else np.asarray(looks.get(coin), float)
            size = 1.0 if sizes is None else float(sizes.get(coin, 1.0))
            self.tracks[coin] = CoinTrack(coin, f, look, last_seen=t0, size=size,
                                          table_look=None if table_look is None
                                          else table_look(p))
        self.on_stack = on_stack or (lambda p: False)
        """Whether a point is on a tower's (or an endpost's) top."""
        self.on_table = on_table or (lambda p: True)
        """Whether a point is on the table: a hidden coin is not found beyond its edge, where
        nothing rests (a coin over it falls) and arms reach in (capture at look 220: Moons,
        lifted, was taken at a sleeve's piece 65 mm past the edge and read as gone off it)."""
        self.hand_came = hand_came or (lambda p, since: True)
        """Whether a hand came near a point since a time: a coin is put on a tower's top
        only by hand (capture at look 307: Moons, lifted, took a blob on tower 3's top that
        the exposure's swing made, where no hand had been, while a hand put it on tower 2).
        """
        self.table_look = table_look
        """The empty table's colour under a coin resting at a point (`CoinDetector.table_look`):
        a coin put on a tower's top, or back on the table's border, is read against its own
        look as it would show there."""
        self.t = t0
        self._previous = np.zeros((0, 2))
        """The last frame's detected centres that no coin took."""
        self._orphans = Orphans()
        self.rewritten: list[Rewrite] = []
        """This frame's coins whose past sightings were found to be another thing's."""

    def update(self, t: float, detections: Detections,
               covered: Callable[[tuple[float, float]], bool] | None = None
               ) -> dict[str, int]:
        """Fold one frame's detections; return {coin: index of its detection}."""
        coins = list(self.tracks)  # (one gone is hidden: round 2 alone looks for it)
        assigned: dict[str, int] = {}
        n = len(detections)
        fingered, held = self._fingered(detections, coins) if n and coins else (set(), set())
        costs = self._look_costs(detections)
        anothers = self._anothers(detections, costs)  # (coins without a look: none)
        unlike = np.zeros(n, bool)
        if n and coins:
            resting = self._resting(coins)
            diameter = 2.0 * float(detections.radius_mm.max())
            stops = self._stops(t, coins, diameter, resting)
            barred = fingered | _merged(detections, stops.values(), onward=True) | \
                _merged(detections, self._touching(t, coins, diameter))  # (no coin takes these)
            cost = np.full((len(coins), n), UNMATCHED)
            for i, coin in enumerate(coins):
                if self.tracks[coin].vague(t) or coin in held:
                    continue  # under a hand or long unseen: too vague to gate on (round 2)
                d2 = self.tracks[coin].filter.mahalanobis2(t, detections.center_mm,
                                                           stops.get(coin, (None,))[0])
                gated = d2 <= GATE_CHI2
                hand_like = _hand_like(self.tracks[coin], detections) & gated
                if hand_like.any():
                    hand_like &= ~self._handless(detections, self.tracks[coin], hand_like)
                ok = (gated & ~hand_like
                      & ~self._not_leaving(t, self.tracks[coin], detections, gated)
                      & ~anothers.get(coin, unlike)
                      & ~_beside_rest(self.tracks[coin], detections, self._lost(coin, t))
                      & ~_part_off_rest(self.tracks[coin], detections)
                      & ~_behind_launch(self.tracks[coin], detections, t, resting)
                      & ~_behind_streak(self.tracks[coin], detections))
                cost[i] = np.where(ok, d2, UNMATCHED)
            cost[:, sorted(barred | self._where_hidden(detections, coins))] = UNMATCHED
            for i, j in _assign(cost, GATE_CHI2):
                assigned[coins[i]] = j
            self._second_round(t, detections, [c for c in coins if c not in held], assigned,
                               barred, covered, resting, anothers, costs)
            self._unswapped(t, detections, assigned, diameter)
        self.rewritten = []
        self._relaunch(t, detections, coins, assigned)
        for coin in coins:
            track = self.tracks[coin]
            j = assigned.get(coin)
            if j is None:
                track.filter.step(t, None)
                track.hidden = bool(covered and covered(track.position_mm))
                if not track.hidden:
                    # Unseen and uncovered: hold it where it was last seen (it cannot vanish;
                    # a moving coin unseen has likely met another, and not flown on).
                    last = track.observations[-1].center_mm if track.observations else None
                    track.filter.hold(None if last is None else np.asarray(last, float))
                continue
            z = detections.center_mm[j]
            if track.vague(t):
                track.filter.reseed(t, z, np.zeros(2))
            else:
                track.filter.step(t, z)
            track.hidden = track.gone = False
            track.last_seen = t
            track.observations.append(Observation(
                t, (float(z[0]), float(z[1])), float(detections.streak_mm[j]),
                (float(detections.streak_dir[j][0]), float(detections.streak_dir[j][1]))))
        if len(detections):
            radius = float(detections.radius_mm.max())
            for coin in assigned:
                self._off_path(coin, radius)
                self._returned(coin, radius)
        self.t = t
        taken = sorted(set(assigned.values()))
        self._previous = np.delete(detections.center_mm, taken, axis=0)
        return assigned

    def _lost(self, coin: str, t: float) -> bool:
        """Was the coin unseen for a frame or more before `t`?"""
        return t - self.tracks[coin].last_seen > 1.5 * max(t - self.t, 1e-3)

    def _unswapped(self, t: float, detections: Detections, assigned: dict[str, int],
                   diameter: float) -> None:
        """Two coins seen touching a moment ago (within TOUCHING diameters, in the last
        UNSWAP_S), taken now by blobs in the opposite order along their line of centres,
        still that near each other or within a diameter of that line, were swapped: coins
        do not pass through each other (strike at look 261: Crowns, struck into tower 3,
        came back onto Moons within the frame; each took the other's blob, and Moons
        "crossed" door 3 back; capture at look 415: guard 2, stopped dead by the Moons it
        struck, took Moons' blob 33 mm on, and Moons guard 2's; a coin passing beside
        another does not come within a diameter of their line)."""
        near = TOUCHING * diameter
        last = {c: self.tracks[c].observations[-1].center_mm for c in assigned
                if self.tracks[c].observations and t - self.tracks[c].last_seen < UNSWAP_S}
        for a, b in itertools.combinations(last, 2):
            if math.dist(last[a], last[b]) >= near:
                continue  # (plain floats: eight resting coins make 28 pairs a frame)
            now = detections.center_mm[assigned[b]] - detections.center_mm[assigned[a]]
            was = np.subtract(last[b], last[a])
            along, across = _along_across(now, was / max(float(np.hypot(*was)), 1e-9))
            if along < 0.0 and (np.hypot(*now) < near or across < diameter):
                assigned[a], assigned[b] = assigned[b], assigned[a]

    def _relaunch(self, t: float, detections: Detections, coins: list[str],
                  assigned: dict[str, int]) -> None:
        """Give each lost slide (`orphans`) to its coin; keep the chains of what is left."""
        taken = set(assigned.values())
        free = [j for j in range(len(detections)) if j not in taken]
        self._orphans.update(t, detections.center_mm[free], detections.look[free], free,
                             detections.streaked[free])
        for chain in self._orphans.slides():
            if chain.index in assigned.values():
                continue  # its detection went to another chain's coin
            launched = self._launched(chain, detections, coins, assigned)
            if launched is None:
                continue
            coin, k = launched
            track = self.tracks[coin]
            *before, (t1, x1, y1) = chain.points
            self.rewritten.append(Rewrite(coin, [o.t for o in track.observations[k + 1:]],
                                          before))
            track.observations[k + 1:] = [Observation(tp, (xp, yp)) for tp, xp, yp in before]
            t0, x0, y0 = before[-1]
            track.filter.reseed(t0, np.array([x0, y0]),
                                (np.array([x1, y1]) - (x0, y0)) / max(t1 - t0, 1e-6))
            track.last_seen, track.hidden = t0, False
            assigned[coin] = chain.index
            self._orphans.drop(chain)

    def _off_path(self, coin: str, radius: float) -> None:
        """Drop a sliding coin's sightings since rest that lie off its path from its place
        (behind it, or beside its line): a fingertip or a hand's fragment taken for it
        before the coin was seen sliding away (off-table at look 121: a fragment beside a
        tile, taken for the coin for five frames, invented a hit on that tile)."""
        track = self.tracks[coin]
        obs = track.observations
        if len(obs) < SLIDE_POINTS + 1 or \
                math.dist(obs[-1].center_mm, obs[-2].center_mm) < REST_STEP_MM:
            return  # (at rest: the usual case, decided at once)
        slide = Chain([(o.t, *o.center_mm) for o in obs[-SLIDE_POINTS:]])
        if not slide.is_slide():
            return
        k = _launched_from(track, slide, radius)
        if k is None:
            return
        place, u = np.asarray(obs[k].center_mm), slide.direction
        end = float((np.asarray(slide.points[0][1:]) - place) @ u)
        off: list[float] = []
        for o in obs[k + 1:len(obs) - SLIDE_POINTS]:
            d = np.asarray(o.center_mm) - place
            along, across = _along_across(d, u)
            if not (-REST_STEP_MM <= along <= end + REST_STEP_MM and across <= radius):
                off.append(o.t)
        if off:
            self.rewritten.append(Rewrite(coin, off, []))
            track.observations = [o for o in obs if o.t not in off]

    def _returned(self, coin: str, radius: float) -> None:
        """Drop the sightings of a coin seen away from its place and, within RETURN_S, at
        rest there again (within REST_STEP_MM): no sliding coin comes back to the spot it
        left, nor does a hand put one back there so soon; what was seen away was a fragment
        of an arm sweeping over it (off-table at 720p60, look 113: a dark sleeve's piece
        carried Moons 170 mm off and back in a quarter of a second, an invented flick).  A
        rest away within a coin's radius of the place is a part of the coin held still, its
        centre pulled off (capture at look 229: a sleeve of the cloth's colour over Arms'
        lower half, 5 mm off for four frames, a flick invented)."""
        obs = self.tracks[coin].observations
        back = len(obs) - REST_SIGHTINGS
        if not _rest_run(obs, len(obs) - 1, radius) or back < 1 or \
                math.dist(obs[back - 1].center_mm, obs[back].center_mm) < REST_STEP_MM:
            return  # (at rest all along: the usual case, decided at once)
        for k in range(back - 1, REST_SIGHTINGS - 2, -1):
            if obs[back].t - obs[k].t > RETURN_S:
                return
            if _rest_run(obs, k, radius):
                if math.dist(obs[k].center_mm, obs[back].center_mm) >= radius:
                    return  # it rested elsewhere
                if math.dist(obs[k].center_mm, obs[back].center_mm) >= REST_STEP_MM:
                    continue  # a part of it, its centre pulled off, held still a while
                away = [o.t for o in obs[k + 1:back]]
                self.rewritten.append(Rewrite(coin, away, []))
                del obs[k + 1:back]
                return

    def _launched(self, chain: Chain, detections: Detections, coins: list[str],
                  assigned: dict[str, int]) -> tuple[str, int] | None:
        """The coin a lost slide left from (`_launched_from`), not at rest at its place now
        and of the slide's look: the coin and the index of its sighting at rest there;
        None if no coin, or more than one, fits."""
        j = chain.index
        radius = float(detections.radius_mm[j])
        fits: list[tuple[str, int]] = []
        for coin in coins:
            track = self.tracks[coin]
            if not _looks_comparable(track, detections):
                continue
            k = _launched_from(track, chain, radius)
            if k is None:
                continue
            now = assigned.get(coin)
            if now is not None and (
                    math.dist(detections.center_mm[now],
                              track.observations[k].center_mm) < REST_STEP_MM
                    or self._in_view(track, detections, now, track.observations[k].t)):
                continue  # seen at rest there now, or seen itself elsewhere
            look = float(np.mean([np.linalg.norm(v - track.look) for v in chain.looks]))
            if look >= (SLIDE_LOOK if all(chain.streaked) else CARRIED_LOOK) or \
                    (_hand_like(track, detections)[j] and not _long_streaked(chain)):
                continue
            fits.append((coin, k))
        if len(fits) != 1:
            return None
        assigned.pop(fits[0][0], None)  # what it took now was the fingertip
        return fits[0]

    def _in_view(self, track: CoinTrack, detections: Detections, j: int, since: float
                 ) -> bool:
        """Is blob `j`, taken for this coin, the coin itself in view: sharp, whole, with
        its own look, where no hand came since `since`?  Then a lost slide is not its, even
        one whose line runs back through its place: what left from there was the coin that
        struck it, coming back (fast flick at look 424: Suns, unseen in flight, struck Arms
        and came back along its own line; Arms, nudged 10 mm and seen whole all along, took
        the slide as a fingertip's, and the two exchanged names for eight frames).  A
        fingertip taken for a coin is where the hand was."""
        return bool(not detections.streaked[j] and _looks_comparable(track, detections)
                    and _itself(track, detections, j, _look_cost(detections.look[j], track))
                    and not self.hand_came(tuple(detections.center_mm[j]), since))

    def _resting(self, coins: list[str]) -> list[np.ndarray]:
        """Where the coins at rest and in view are."""
        return [np.asarray(self.tracks[c].position_mm) for c in coins
                if self.tracks[c].speed_mm_s < RESTING_MM_S and not self.tracks[c].hidden]

    def _stops(self, t: float, coins: list[str], diameter: float,
               resting: list[np.ndarray]) -> dict[str, tuple[np.ndarray, np.ndarray]]:
        """Where moving coins must have stopped by t, and the resting coin each met there:
        one whose straight path from where it is to where its speed would carry it runs into
        a resting coin meets it at contact (centres a diameter apart), as coins do not pass
        through each other.  Gating on the unstopped prediction gave the striker the struck
        coin's blob, leaving from under it (fast-flick at 60 fps, look 110: Suns and Arms
        swapped at the strike).  A coin unseen since it was seen sliding is held where it
        was last seen, but its path is the one it was on (`_heading`)."""
        stops: dict[str, tuple[np.ndarray, np.ndarray]] = {}
        for coin in coins:
            track = self.tracks[coin]
            heading = None if track.vague(t) or not resting else self._heading(track, t)
            if heading is None:
                continue
            start, path = heading
            length = float(np.hypot(*path))
            if length < 1e-9:
                continue
            u = path / length
            best = None
            for other in resting:
                along = float((other - start) @ u)
                across2 = float(np.sum((other - start) ** 2)) - along * along
                if along <= 0 or across2 >= diameter ** 2:
                    continue  # behind, or passed beside
                contact = along - np.sqrt(diameter ** 2 - across2)
                if 0 <= contact < length and (best is None or contact < best[0]):
                    best = (contact, other)
            if best is not None:
                stops[coin] = (start + best[0] * u, best[1])
        return stops

    def _heading(self, track: CoinTrack, t: float) -> tuple[np.ndarray, np.ndarray] | None:
        """Where a moving coin is and the path it would slide by `t`; for one held since it
        was last seen sliding, a frame or more ago, where it was then and the path its last
        two sightings say (strike at look 343: black Moons, unseen for a frame, reached
        Crowns, and the two showed as one streak, taken for Crowns leaving backwards; a
        frame on each took the other's blob)."""
        if track.speed_mm_s >= RESTING_MM_S:
            start = np.asarray(track.position_mm, float)
            return start, track.filter.predicted(t)[0][:2] - start
        obs = track.observations
        if len(obs) < 2 or not self._lost(track.coin, t) or obs[-1].t <= obs[-2].t:
            return None
        before, last = (np.asarray(o.center_mm, float) for o in obs[-2:])
        velocity = (last - before) / (obs[-1].t - obs[-2].t)
        if float(np.hypot(*velocity)) < RESTING_MM_S:
            return None
        return last, velocity * (t - obs[-1].t)

    def _touching(self, t: float, coins: list[str], diameter: float
                  ) -> list[tuple[np.ndarray, np.ndarray]]:
        """Where pairs of coins were last seen a moment ago, touching and one moving (the
        two ends of a `_merged` blob): a coin struck into a tower comes back onto its
        striker, and the two read as one streak between them (strike at look 252: taken for
        the striker, it invented a second contact and a bounce)."""
        recent = [self.tracks[c] for c in coins
                  if self.tracks[c].observations and t - self.tracks[c].last_seen < TOUCHING_S]
        moving = np.array([track.speed_mm_s >= RESTING_MM_S for track in recent], bool)
        if not moving.any() or len(recent) < 2:
            return []
        ends = np.array([track.observations[-1].center_mm for track in recent], float)
        gap = np.hypot(*(ends[:, None, :] - ends[None, :, :]).transpose(2, 0, 1))
        close = np.triu((gap < TOUCHING * diameter) & (moving[:, None] | moving[None, :]), 1)
        return [(ends[a], ends[b]) for a, b in zip(*np.nonzero(close), strict=True)]

    def exchange(self, a: str, b: str, since: float) -> None:
        """Give coins `a` and `b` each other's belief and their observations after `since`:
        the tracker had swapped their names then (`reidentify`)."""
        ta, tb = self.tracks[a], self.tracks[b]
        for name in ("filter", "last_seen", "hidden", "gone"):
            va, vb = getattr(ta, name), getattr(tb, name)
            setattr(ta, name, vb)
            setattr(tb, name, va)
        ta.observations, tb.observations = exchange_after(ta.observations, tb.observations,
                                                          since, lambda o: o.t)

    def _look_costs(self, detections: Detections) -> tuple[list[str], np.ndarray] | None:
        """The coins with a look, and each one's look distance to every blob (coins × N),
        once per frame; None without looks to compare (a detector that reads no colour)."""
        named = [c for c, track in self.tracks.items() if track.look is not None]
        if not named or not len(detections) or \
                not _looks_comparable(self.tracks[named[0]], detections):
            return None
        looks = np.array([self.tracks[c].look for c in named])
        return named, np.linalg.norm(detections.look[None] - looks[:, None], axis=2)

    def _anothers(self, detections: Detections,
                  costs: tuple[list[str], np.ndarray] | None) -> dict[str, np.ndarray]:
        """Each coin's (N,) mask of the sharp blobs that read as another coin of the game,
        not as it (ANOTHERS_LOOK): two coins that meet are told apart by their looks (the
        frame's `_look_costs`)."""
        if costs is None or len(costs[0]) < 2:
            return {}
        named, cost = costs
        nearest, two = cost.argmin(axis=0), np.partition(cost, 1, axis=0)
        nearest_other = np.where(nearest[None] == np.arange(len(named))[:, None],
                                 two[1][None], two[0][None])
        flagged = ~detections.streaked & (nearest_other < ANOTHERS_LOOK) & \
            (cost >= CARRIED_LOOK)
        on_top: dict[int, bool] = {}  # (asked only of these, once per blob)
        for i, j in zip(*np.nonzero(flagged), strict=True):
            if j not in on_top:
                on_top[j] = self.on_stack(tuple(detections.center_mm[j]))
            flagged[i, j] = not _own_look(float(cost[i, j]), on_top[j])
        return dict(zip(named, flagged, strict=True))

    def _fingered(self, detections: Detections, coins: list[str]
                  ) -> tuple[set[int], set[str]]:
        """Detections that are a resting coin seen with a fingertip merged into it, and
        those coins: each is held where it rests, and takes no other detection (a coin
        flicked past it is not it)."""
        resting = [c for c in coins if self.tracks[c].speed_mm_s < RESTING_MM_S]
        touching = detections.by_hand > 0
        if not resting or not touching.any():
            return set(), set()
        places = np.array([self.tracks[c].position_mm for c in resting])
        d = np.hypot(*(detections.center_mm[:, None, :] - places[None]).transpose(2, 0, 1))
        near = (d < detections.radius_mm[:, None]) & touching[:, None]
        dets, owners = np.nonzero(near)
        return {int(j) for j in dets}, {resting[i] for i in owners}

    def _where_hidden(self, detections: Detections, coins: list[str]) -> set[int]:
        """Detections where a hidden coin was: its own, unless round 2 finds otherwise (a
        neighbour whose belief grew while it coasted must not take it in round 1)."""
        hidden = [self.tracks[c].position_mm for c in coins if self.tracks[c].hidden]
        return {int(j) for j in np.nonzero(near_any(detections.center_mm, hidden, STAYED_MM))[0]}

    def _handless(self, detections: Detections, track: CoinTrack, among: np.ndarray
                  ) -> np.ndarray:
        """(N,) True for the blobs `among` these where no hand came since the coin was last
        seen: no fragment of a hand or an arm, however near the hands' colour they read and
        however little of a coin they show (fast flick at look 306: Suns, of the skin's
        colour, unseen in flight, found again 300 mm on in part, blurred and dim, and taken
        for an arm's piece until it showed whole 0.2 s later, its crossings lost; at look
        245, seen, then lost for three frames, 0.04 from the hands' colour).  Not on a
        tower's top, nor for a coin on one: only a hand puts a coin there, and a blob of the
        hands' colour there is the hand's (capture at 60 fps, look 306: beside Moons just
        put on tower 2, taken for it, 5 mm off: a lift and a place invented).  Nor one
        SLIDE_LOOK or more from the coin's look, which no coin's blur drifts to: a grey
        sleeve sweeping over beige cloth reads as its shadow, so no hand is found where it
        passes, and its pieces, 0.85 from Moons' look and 0.07 from the hands', carried
        Moons 120 mm off (capture at look 602: guard 2 then took Moons' place, and a lift
        and a place of the wrong coin were read)."""
        handless = np.zeros(len(detections), bool)
        if _looks_comparable(track, detections):
            among = among & (np.linalg.norm(detections.look - track.look, axis=1) < SLIDE_LOOK)
        for j in np.flatnonzero(among):
            handless[j] = self._handless_at(detections, j, track)
        return handless

    def _handless_at(self, detections: Detections, j: int, track: CoinTrack) -> bool:
        """`_handless` of blob `j`."""
        point = (float(detections.center_mm[j][0]), float(detections.center_mm[j][1]))
        return not (self.on_stack(point) or self.on_stack(track.position_mm)
                    or self.hand_came(point, track.last_seen))

    def _slid(self, track: CoinTrack, detections: Detections, j: int, look_cost: float,
              t: float) -> bool:
        """Did the coin, unseen, slide to sharp or blurred blob `j`?  Where no hand came since
        it was last seen (`_handless`), a coin no hand hid did, if the blob reads nearer its
        own look than the hands' (a sleeve is no hand: gate run at look 181, a sleeve's
        streak 400 mm from Ace, 0.17 from its look and 0.10 from the hands'); not one a hand
        may have carried off (a hand over its place since, long enough ago: capture at look
        284, Moons, lifted, took an arm's streak where no hand came 1.5 s later), nor onto
        or off a tower's top (look 307: Moons on tower 2, lost for 0.2 s, took a blob on
        tower 1's top).  Hanging over the table's edge, it reads against what lies beyond
        (`EDGE_LOOK`)."""
        over_edge = self._hangs_over_edge(tuple(detections.center_mm[j]),
                                    float(detections.radius_mm[j]))
        if track.hidden or look_cost >= (EDGE_LOOK if over_edge else CARRIED_LOOK) \
                or look_cost > detections.hand_look[j]:
            return False
        if t - track.last_seen >= QUICKEST_CARRY_S and self.hand_came(track.position_mm,
                                                                      track.last_seen):
            return False
        return self._handless_at(detections, j, track)

    def _not_leaving(self, t: float, track: CoinTrack, detections: Detections,
                     among: np.ndarray) -> np.ndarray:
        """(N,) True for the blobs `among` these, STAYED_MM or more from where this coin was
        seen at rest, that are no way it leaves (`_leaves_as`) nor where it slid unseen: as
        in round 2, however near its filter's belief, grown while it was unseen, lets them
        (capture at look 214: a fingertip 14 mm behind Suns' place, 0.51 of a coin and
        0.32 from its look, taken in round 1 once Suns was unseen for a frame, its flick
        read 67 ms late; Suns itself, whole and sharp 21 mm on, lay outside the gate)."""
        out = np.zeros(len(detections), bool)
        if not among.any() or not resting_when_seen(track):
            return out
        idx = np.flatnonzero(among)
        off = np.hypot(*(detections.center_mm[idx] - np.asarray(track.position_mm)).T)
        lost = self._lost(track.coin, t)
        for j in (int(j) for j in idx[off >= STAYED_MM]):
            look_cost = (_look_cost(detections.look[j], track)
                         if _looks_comparable(track, detections) else 0.0)
            out[j] = not (_leaves_as(track, detections, j, look_cost)
                          or (lost and self._slid(track, detections, j, look_cost, t)))
        return out

    def _hangs_over_edge(self, center_mm: tuple[float, float], radius_mm: float) -> bool:
        """Does a coin centred at `center_mm` hang over the table's edge?"""
        x, y = center_mm
        return not all(self.on_table((x + dx, y + dy)) for dx, dy in (
            (radius_mm, 0.0), (-radius_mm, 0.0), (0.0, radius_mm), (0.0, -radius_mm)))

    def _second_round(self, t: float, detections: Detections, coins: list[str],
                      assigned: dict[str, int], barred: set[int],
                      covered: Callable[[tuple[float, float]], bool] | None,
                      resting: list[np.ndarray], anothers: Mapping[str, np.ndarray],
                      costs: tuple[list[str], np.ndarray] | None) -> None:
        """Left-over coins and detections: match by reach and look, then re-seed.

        A coin seen last frame whose place a hand now covers went under the hand: it is not
        matched far away (a blob at the hand's edge is not that coin struck).  A coin at
        rest leaves it as a streak whose line runs through its place, or seen whole and
        sharp with its own look: not as a part of a coin's size or a streak off its line,
        which an arm sweeping past leaves (off-table at look 113: Moons "flicked" by one).
        """
        free_coins = [c for c in coins if c not in assigned]
        used = set(assigned.values()) | barred
        free_dets = [j for j in range(len(detections)) if j not in used]
        if not free_coins or not free_dets:
            return
        cost = np.full((len(free_coins), len(free_dets)), UNMATCHED)
        # A coin back from under a hand at a new place is taken only once a blob no coin took
        # was there, or within one frame's slide of it, the frame before too: the edge of a
        # withdrawing arm leaves one-frame blobs.  Not a streak whose line points back at
        # the coin's place (`_back`): that is the coin flicked from under the fingers, seen
        # at once (it was lost for that frame on every fast flick).
        persists = near_any(detections.center_mm, self._previous,
                            MAX_SPEED_MM_S * max(t - self.t, 1e-3) + 20.0)
        streaked = detections.streaked
        on_top = np.zeros(len(detections), bool)
        off_table = np.zeros(len(detections), bool)
        if any(self.tracks[c].vague(t) for c in free_coins):  # (only they ask)
            on_top[free_dets] = [self.on_stack(tuple(detections.center_mm[j]))
                                 for j in free_dets]
            off_table[free_dets] = [not self.on_table(tuple(detections.center_mm[j]))
                                    for j in free_dets]
        # The empty table's colour under each blob on a tower's top, and, for a coin that
        # fell off, under every blob: it is put back on the table's wooden border, whose
        # brown its rim takes in (off-table at look 171: Arms read 0.41 from its look
        # there, and was never found again).
        unders: dict[int, np.ndarray] = {}
        if self.table_look is not None:
            fell = any(self.tracks[c].gone for c in free_coins)
            unders = {j: self.table_look(tuple(detections.center_mm[j])) for j in free_dets
                      if fell or on_top[j]}
        tops = {j: look for j, look in unders.items() if on_top[j]}
        # Each blob's look distance to the nearest coin's (`_shown_at_once`).
        coin_like = np.full(len(detections), np.inf) if costs is None else costs[1].min(axis=0)
        for i, coin in enumerate(free_coins):
            track = self.tracks[coin]
            reach = MAX_SPEED_MM_S * max(t - track.last_seen, 1e-3) + 20.0
            vague = track.vague(t)
            if vague:
                reach = max(reach, 1500.0)  # a hand may have moved it anywhere
            under_hand = not vague and covered is not None and covered(track.position_mm)
            leaving = not vague and resting_when_seen(track)
            lost = self._lost(coin, t)
            slides_on = _slides_on(track, detections)
            hand_like = ((_hand_like(track, detections) & ~slides_on)
                         | _part_off_rest(track, detections, hidden=vague, on_top=on_top))
            hand_like = ((hand_like & ~self._handless(detections, track, hand_like))
                         | anothers.get(coin, np.zeros(len(detections), bool))
                         | _behind_launch(track, detections, t, resting))
            if t - track.last_seen <= LOST_S:  # (under a hand too: it was seen leaving)
                hand_like |= _beside_rest(track, detections, lost)
            for k, j in enumerate(free_dets):
                d = float(np.hypot(*(detections.center_mm[j] - track.position_mm)))
                # Away from its place under the hand, only a streak or a blur drawn from
                # it (whose look must then tell it from the hand's) can be the coin.
                drawn_only = under_hand and d > STAYED_MM and not _streak_from(
                    track, detections, j)
                if d > reach or hand_like[j] or (drawn_only and not _drawn(track, detections, j)):
                    continue
                look_cost = 0.0
                if _looks_comparable(track, detections):
                    look_cost = _look_cost(detections.look[j], track,
                                           (unders if track.gone else tops).get(j))
                if drawn_only and not _unlike_hands(track, detections, j, look_cost,
                                                    float(coin_like[j])):
                    continue
                if track.gone and (streaked[j] or not _itself(track, detections, j, look_cost,
                                                               on_top[j])):
                    continue  # off the table: back only put down by a hand
                if vague and off_table[j]:
                    continue  # nothing hidden is seen again beyond the table's edge
                slid = lost and self._slid(track, detections, j, look_cost, t)
                if vague and d >= STAYED_MM and not (
                        (persists[j] or streaked[j] or slid
                         or (d <= CARRIED_MM and _shown_at_once(track, detections, j, look_cost,
                                                                float(coin_like[j]))))
                        and (slid or _back(track, detections, j, d, look_cost, on_top[j],
                                           t - track.last_seen))):
                    continue
                if leaving and d >= STAYED_MM and not slid and \
                        not _leaves_as(track, detections, j, look_cost):
                    continue  # no coin leaving rest: a fragment of an arm sweeping past
                if vague and d < STAYED_MM:
                    if not streaked[j] and not _own_look(look_cost, on_top[j]):
                        continue  # a ghost: the cloth where it stood, seen at last
                    cost[i, k] = d / 50.0  # back where the hand hid it: it did not move
                elif vague and on_top[j]:
                    # Put on a tower's top: the rules say which tower, not the distance;
                    # the look (read on the tile) tells the coins apart.
                    if not self.hand_came(tuple(detections.center_mm[j]), track.last_seen):
                        continue
                    cost[i, k] = 10.0 * look_cost + 1.0
                elif vague and not slid:
                    # Flicked from under the fingers, or moved by hand anywhere: nearer is
                    # likelier, and the look (blurred while it slides) breaks the ties.  A
                    # coin put down whole, with its own look, is as likely anywhere beyond
                    # where a hand carries it (off-table at look 203: Arms put back on the
                    # table's edge 423 mm from where it was lost cost more than leaving it
                    # unpaired; a streak far off is no such coin: gate-run at look 172).
                    put_down = not streaked[j] and _itself(track, detections, j, look_cost)
                    cost[i, k] = (min(d, CARRIED_MM) if put_down else d) / 20.0 \
                        + 10.0 * look_cost + 1.0
                elif slides_on[j] or slid or (leaving and streaked[j]
                                              and look_cost <= detections.hand_look[j]):
                    # Leaving rest unseen for frames (a dark coin on dark cloth: strike at
                    # look 270, first seen 212 mm on), it slid as far in each of them; a
                    # streak nearer the hands' colour than the coin's is no such coin where
                    # a hand came (look 181: a sleeve's streak 293 mm from Ace, hidden three
                    # frames, 0.15 from its look and 0.11 from the hands').  So did a coin
                    # seen sliding, then lost, whose streak runs on through where it was
                    # (fast flick at look 208: Suns lost for three frames, found 300 mm on),
                    # or found where no hand came (`_slid`; look 342: sharp, 280 mm on;
                    # off-table at look 203: Arms, cream on beige, unseen for 0.27 s from
                    # its launch, once at the table's edge and never again, a blob of one
                    # frame where no hand came; priced by a hand's reach, it stayed unpaired
                    # and its fall was read as a lift).
                    frames = max(1.0, (t - track.last_seen) / max(t - self.t, 1e-3))
                    cost[i, k] = d / (10.0 * frames) + 5.0 * look_cost
                else:
                    cost[i, k] = d / 10.0 + (5.0 if streaked[j]
                                             else SHARP_LOOK_WEIGHT) * look_cost
        for i, k in _assign(cost, MISS_COST):
            coin, j = free_coins[i], free_dets[k]
            track = self.tracks[coin]
            dt = max(t - track.last_seen, 1e-3)
            last = track.observations[-1].center_mm if track.observations else track.position_mm
            velocity = (detections.center_mm[j] - np.asarray(last)) / dt
            track.filter.reseed(track.last_seen, np.asarray(last, float), velocity)
            assigned[coin] = j


def resting_when_seen(track: CoinTrack) -> bool:
    """Was the coin at rest when last seen: sharp, where it was seen the time before?  (Not
    its filter's speed: a sliding coin missed for a frame is held still until seen again.)"""
    if len(track.observations) < 2:
        return True
    before, last = track.observations[-2:]
    return last.streak_mm == 0.0 and math.dist(before.center_mm, last.center_mm) < REST_STEP_MM


def last_at_rest(track: CoinTrack) -> int | None:
    """The index of the coin's last sighting at rest (the last of REST_SIGHTINGS sharp ones
    running, each within REST_STEP_MM of the one before), or None.  Sharp: a fingertip
    merged into its blob blurs it (tower hit at look 101: such blobs drifting 1.7 mm a
    frame, streaks of 8 mm, were no rest of the coin)."""
    obs = track.observations
    return next((k for k in range(len(obs) - 1, REST_SIGHTINGS - 2, -1)
                 if _rest_run(obs, k, 0.0)), None)


def _rest_run(obs: list[Observation], k: int, radius_mm: float) -> bool:
    """Is sighting `k` the last of REST_SIGHTINGS sharp ones running (no streak beyond a
    radius), each within REST_STEP_MM of the one before: the coin at rest there?"""
    run = obs[k - REST_SIGHTINGS + 1:k + 1]
    return k >= REST_SIGHTINGS - 1 and all(o.streak_mm <= radius_mm for o in run) and all(
        math.dist(a.center_mm, b.center_mm) < REST_STEP_MM for a, b in itertools.pairwise(run))


def _launched_from(track: CoinTrack, slide: Chain, radius_mm: float) -> int | None:
    """Where a slide left from, if this coin rested there: the index of its last sighting
    at rest (REST_SIGHTINGS sharp ones running, each within REST_STEP_MM of the one before)
    in the RELAUNCH_S before the slide's first sighting, on the slide's line behind it and
    within its reach, all its sightings since within WANDER_MM of it.  A fingertip pressed
    where the coin was, taken for it, may stay still as long: rests off the line are not
    where the slide left from."""
    obs = track.observations
    (t_first, *first), u = slide.points[0], slide.direction
    for k in range(len(obs) - 1, REST_SIGHTINGS - 2, -1):
        rest = obs[k]
        if rest.t < t_first - RELAUNCH_S:
            return None
        if rest.t >= t_first or not _rest_run(obs, k, radius_mm):
            continue
        if any(math.dist(o.center_mm, rest.center_mm) > WANDER_MM for o in obs[k + 1:]
               if o.t < t_first):
            return None  # it went somewhere of its own since
        off = np.asarray(first) - rest.center_mm
        along, across = _along_across(off, u)
        reach = slide.first_speed_mm_s * (t_first - rest.t) * 1.5 + 2.0 * radius_mm
        if 0.0 < along <= reach and across <= radius_mm:
            return k
    return None


def _hand_like(track: CoinTrack, detections: Detections) -> np.ndarray:
    """(N,) True for blobs that look more like the frame's hands than like this coin (a
    fingertip beside it or following through after the flick, a fragment of a moving
    hand)."""
    if not _looks_comparable(track, detections):
        return np.zeros(len(detections), bool)
    look_cost = np.linalg.norm(detections.look - track.look, axis=1)
    return look_cost > np.where(detections.streaked, HAND_LIKE_STREAK,
                                HAND_LIKE) * detections.hand_look


def _long_streaked(chain: Chain) -> bool:
    """Is the lost slide a run of streaks longer than a slide needs (a coin's, however near
    the hands' colour its blur reads: strike at look 296, Moons' eight streaks 0.04 from the
    hands' colour, its whole slide taken for a hand's fragment)?"""
    return len(chain.points) > SLIDE_POINTS and all(chain.streaked)


def _slides_on(track: CoinTrack, detections: Detections) -> np.ndarray:
    """(N,) True for streaks whose line runs through where this coin, sliding, was last
    seen: the coin sliding on, or back off what it struck, however near the hands' colour
    its blur reads (fast flick at look 277: Suns, of the skin's colour, back off Arms, read
    0.23 from its look and 0.06 from the hands', was lost for the two frames before it hit
    a post, and the hit with them).  Sliding means blurred beyond a diameter: a fingertip
    merged into a resting coin's blob blurs it by a radius (tower hit at look 196: a hand's
    streak through it was then taken for the coin, and its lift read 0.13 s late)."""
    if not track.observations or not len(detections) or \
            track.observations[-1].streak_mm <= 2.0 * float(detections.radius_mm.max()):
        return np.zeros(len(detections), bool)
    return _streaks_through(track.observations[-1].center_mm, detections,
                            2.0 * detections.radius_mm)


def _part_off_rest(track: CoinTrack, detections: Detections, hidden: bool = False,
                   on_top: np.ndarray | None = None) -> np.ndarray:
    """(N,) True for sharp blobs showing under PART_SEEN of a coin at rest that cannot be
    that coin where it rests, in part.

    Seen in view, the coin in part (the rest hidden by a hand, or by a sleeve of the
    cloth's colour that shows as no change at all) reads off its place, pulled away from
    what hides it: REST_STEP_MM or more off, it is held where it rests (taken, Suns at
    look 139 moved 5 mm, read as sliding, and an arm's pieces carried it off).  Back from
    under a hand (`hidden`), its first glimpse beside the hand leaving it is the coin, so
    long as the part shown, cut by a straight edge, can be centred that far from the place
    (held for it, Moons at 720p60, look 111, took an arm's piece 48 mm off instead); a blob
    farther off is not it (tower-hit at look 138: a third of a coin 8.6 mm from where the
    hand lifted Moons, a flick invented), unless on a tower's top (`on_top`), where a hand
    puts a prisoner and its art alone may show (capture at look 179: 0.47 of Moons)."""
    if not resting_when_seen(track) or not track.observations:
        return np.zeros(len(detections), bool)
    off = np.hypot(*(detections.center_mm - track.observations[-1].center_mm).T)
    shown = detections.confidence / min(track.size, 1.0)
    part = (shown < PART_SEEN) & ~detections.streaked
    if not hidden:
        return part & (off >= REST_STEP_MM)
    reach = np.interp(shown, _SEGMENT_SHARE, _SEGMENT_CENTRE) * detections.radius_mm
    away = part & (off > reach + PART_MARGIN_MM)
    return away if on_top is None else away & ~on_top


_HALF_ANGLE = np.linspace(0.01, np.pi, 180)
_SEGMENT_SHARE = (_HALF_ANGLE - np.sin(_HALF_ANGLE) * np.cos(_HALF_ANGLE)) / np.pi
"""A disc's share cut off by a chord at each half angle (0 to 1)..."""
_SEGMENT_CENTRE = 2.0 / 3.0 * np.sin(_HALF_ANGLE) ** 3 / (_SEGMENT_SHARE * np.pi)
"""...and how far that part's centre lies from the disc's (in radii)."""


def _merged(detections: Detections, pairs: Iterable[tuple[np.ndarray, np.ndarray]],
            onward: bool = False) -> set[int]:
    """Detections that are two coins in one blob: long, along the line between where each
    of a pair is (two coins seen touching; with `onward`, a striker where it stops and the
    resting coin it meets), centred within half a radius of their midpoint, or of a point up
    to half a radius on from it toward the struck coin, which leaves as the striker stops
    (strike at look 343: 4.9 mm on, 8 ms after the strike).  Neither coin is there (capture
    at look 125: the struck coin took it, moved 9 mm toward the striker before the contact,
    and read as flicked); both are held for that frame."""
    merged: set[int] = set()
    for one, other in pairs:
        middle, u = (one + other) / 2.0, other - one
        u = u / max(float(np.hypot(*u)), 1e-9)
        off = detections.center_mm - middle
        along = off @ u
        if onward:
            along = along - np.clip(along, 0.0, detections.radius_mm / 2.0)
        across = off[:, 0] * u[1] - off[:, 1] * u[0]
        near = np.hypot(along, across) < detections.radius_mm / 2.0
        lengthwise = np.abs(detections.streak_dir @ u) > 0.9
        merged |= {int(j) for j in np.nonzero(near & lengthwise & detections.streaked)[0]}
    return merged


def _behind_launch(track: CoinTrack, detections: Detections, t: float,
                   resting: list[np.ndarray]) -> np.ndarray:
    """(N,) True for blobs too near where a coin was just launched to be it.

    The streak is the velocity cue: a coin whose first sighting after rest was blurred
    L mm beyond its own diameter (L more than a diameter) covered L within one exposure,
    no longer than a frame, so it moves on at least L per frame (its speed only grew while
    the finger pushed) and is L or more from that streak's centre a frame later, unless
    it met a coin on its line.  Half of that is asked, as a margin.  A fingertip left
    where the coin rested is not it: fast flick at look 101, where that fragment was
    taken and the coin and its flick were lost.  However short the launch streak, nor is
    a sharp blob behind the place the coin left, opposite its launch.
    """
    near = np.zeros(len(detections), bool)
    if len(track.observations) < 2 or not len(detections):
        return near
    before, launch = track.observations[-2], track.observations[-1]
    radius = float(detections.radius_mm.max())
    if (launch.streak_mm <= radius or before.streak_mm > radius
            or t - launch.t > LAUNCH_S):
        return near  # not a launch: sharp (a fingertip merged at rest makes a coin and a
        # half), already sliding before, or long ago
    centre = np.asarray(launch.center_mm)
    u = np.asarray(launch.streak_dir)
    for p in resting:  # a coin on its line, either way, may have stopped it
        along, across = _along_across(p - centre, u)
        if radius < abs(along) < launch.streak_mm + 4.0 * radius and across < 2.0 * radius:
            return near
    # Behind the place it left, opposite the launch, lies the fingertip (fast flick at look
    # 166: a launch streak of 10 mm, then the fingertip 11 mm behind the place was taken).
    # Which way it went is sure when the streak's centre lies well on from the place; one
    # nearer may be the coin leaving joined to the fingertip behind it, its centre pulled
    # toward the finger (capture at look 212: 16.6 mm, 2.3 mm toward the finger, and Suns,
    # sharp 11 mm the other way, was "behind" and its flick lost).  Then a sharp blob behind
    # is ruled out only when it looks like the hand, or a blob like the coin lies on the
    # line ahead beyond a fingertip's reach (strike at look 111: 2.3 mm the right way, a pale
    # fingertip 17 mm behind, Moons 30 mm ahead).
    place = np.asarray(before.center_mm)
    ahead = centre - place
    if (away := float(np.hypot(*ahead))) > REST_STEP_MM:
        u = ahead / away
        offset = detections.center_mm - place
        along = offset @ u
        behind = ~detections.streaked & (along < -REST_STEP_MM)
        if away <= LAUNCH_SIDE * launch.streak_mm:
            hand_like = _hand_like(track, detections)
            on_line = np.abs(offset[:, 0] * u[1] - offset[:, 1] * u[0]) < 2.0 * radius
            if not (on_line & (along > FINGER_MM) & ~hand_like).any():
                behind &= hand_like
        near |= behind
    if launch.streak_mm <= 2.0 * radius:
        return near  # too short to bound how far it went on
    return near | (np.hypot(*(detections.center_mm - centre).T) < launch.streak_mm / 2.0)


def _behind_streak(track: CoinTrack, detections: Detections) -> np.ndarray:
    """(N,) True for sharp blobs behind a resting coin's place, opposite a streak leaving it
    (its line through the place, its back end there): the coin is that streak, and what
    lies behind is the fingertip that flicked it.  Nothing leaves a resting coin backwards:
    one struck goes on along the striker's line (strike at look 163: a fingertip 11 mm
    behind was taken for Moons, and its whole slide through four gates was lost)."""
    behind = np.zeros(len(detections), bool)
    if not resting_when_seen(track) or not detections.streaked.any():
        return behind
    place = np.asarray(track.position_mm)
    for j in np.flatnonzero(detections.streaked):
        ahead = detections.center_mm[j] - place
        reach = float(np.hypot(*ahead))
        if not _streak_from(track, detections, j) or not \
                detections.radius_mm[j] < reach <= detections.streak_mm[j] / 2.0 + \
                2.0 * detections.radius_mm[j]:
            continue
        along = (detections.center_mm - place) @ (ahead / reach)
        behind |= ~detections.streaked & (along < -REST_STEP_MM)
    return behind


def _beside_rest(track: CoinTrack, detections: Detections, lost: bool) -> np.ndarray:
    """(N,) True for streaks whose line runs more than a radius beside where this coin rested
    when last seen (sharp, or blurred by no more than a radius by a fingertip merged into its
    blob): flicked or struck, a coin leaves rest along a straight line through its place, and
    its streak's line runs through it (within 1.1 mm on the launches of looks 376-378).  A
    streak beside the place is the finger drawn back after the flick (gate run at look 380:
    34 mm long, 16 mm beside Moons' place, it was taken for Moons' launch, and two hits on
    posts and a crossing 19 mm off were invented).  The coin unseen for a frame or more
    (`lost`, for less than LOST_S) may have met something meanwhile and turned: then only a
    streak touching a hand is ruled out (the same finger two frames on, over the place, while
    Moons, pale on pale cloth, slid unseen).  `_streak_from` allows a diameter: a place a
    hand hid is known less well."""
    obs = track.observations
    if not detections.streaked.any() or \
            not _rest_run(obs, len(obs) - 1, float(detections.radius_mm.max())):
        return np.zeros(len(detections), bool)
    beside = detections.streaked & ~_streaks_through(obs[-1].center_mm, detections,
                                                     detections.radius_mm)
    return beside & (detections.by_hand > 0) if lost else beside


def _back(track: CoinTrack, detections: Detections, j: int, d: float, look_cost: float,
          on_stack: bool = False, unseen_s: float = np.inf) -> bool:
    """Can detection `j`, `d` mm from where a hand hid this coin, be the coin back?

    A streak is the coin sliding out from under the fingers: its line points back at the
    hidden place.  A sharp blob (not like the hand: `_hand_like`) is the coin at rest, with
    its own look (less strictly on a tower's top: `on_stack`): not a ghost of the cloth
    where a coin stood at the session start, which the empty table only inpainted (tower
    hit at look 151: 0.53 from Moons' look, 100 mm from where a sleeve hid it); put down
    far away (carried), it is whole too, and a hand hid it (`unseen_s`) long enough to
    lift, carry and put it down (capture at look 166: an arm sweeping over the table hid
    Suns, and a piece of it 320 mm off, 0.1 s later, was taken for it); a coin lost from
    view, no hand over it, slid there (strike at look 129: Moons unseen over dark cloth,
    found again 236 mm on after 0.2 s).  On a tower's top, a part of a coin unseen that
    long, no hand near to compare it with (its `hand_look` infinite), is the coin put
    there, its art alone in view (a white coin on a white top: `CoinDetector._marks`).
    """
    if detections.streaked[j]:
        return _streak_from(track, detections, j)
    carried = unseen_s >= QUICKEST_CARRY_S
    if on_stack and carried and not np.isfinite(detections.hand_look[j]) and \
            detections.confidence[j] < STACK_WHOLE * min(track.size, 1.0):
        return True
    if d <= CARRIED_MM:
        return _own_look(look_cost, on_stack)
    return (carried or not track.hidden) and _itself(track, detections, j, look_cost, on_stack)


def _leaves_as(track: CoinTrack, detections: Detections, j: int, look_cost: float) -> bool:
    """Can blob `j` be this coin leaving rest?  A coin at rest leaves it as a streak whose
    line runs through its place, or seen whole and sharp with its own look: not as a part
    of a coin's size or a streak off its line, which a fingertip or an arm sweeping past
    leaves."""
    if detections.streaked[j]:
        return _streak_from(track, detections, j)
    return _itself(track, detections, j, look_cost)


def _itself(track: CoinTrack, detections: Detections, j: int, look_cost: float,
            on_stack: bool = False) -> bool:
    """Is sharp detection `j` this coin whole, with its own look (less strictly on a
    tower's top: `on_stack`), and no fragment of a hand or an arm?"""
    whole = STACK_WHOLE if on_stack else WHOLE
    return bool(detections.confidence[j] >= whole * min(track.size, 1.0)
                and _own_look(look_cost, on_stack))


def _looks_comparable(track: CoinTrack, detections: Detections) -> bool:
    """Do the blobs carry a look of the kind this coin's was learnt as (none without one, as
    from a detector that reads no colour)?"""
    return track.look is not None and detections.look.shape[1] == len(track.look)


def _look_cost(look: np.ndarray, track: CoinTrack, table: np.ndarray | None = None
               ) -> float:
    """How far a blob's look is from a coin's; on another table colour (`table`: a tower's
    top), from the coin's look as it would read there, if that explains it.

    A coin's look is read over its blob, rim included, where the blur mixes in the colour
    under it: its look moves toward that colour by up to RIM_SHARE of the step from the
    cloth it was learned on (capture at look 180: black Moons read 0.2 on navy cloth and
    0.5 on a white tower's top, 0.58 from its look; 0.02 from its look as read there).  The
    step explains a blob within CARRIED_LOOK of that, no farther: a white coin on a white
    top is 0.53 from black Moons' look so shifted, 1.26 as read."""
    delta = look - track.look
    plain = float(np.linalg.norm(delta))
    if table is None or track.table_look is None:
        return plain
    step = table - track.table_look
    share = float(np.clip(delta @ step / max(float(step @ step), 1e-9), 0.0, RIM_SHARE))
    shifted = float(np.linalg.norm(delta - share * step))
    return min(plain, shifted) if shifted < CARRIED_LOOK else plain


def _own_look(look_cost: float, on_stack: bool = False) -> bool:
    """Is a sharp blob this near a coin's look (`look_cost`) that coin at rest (on the cloth,
    or on a tower's top: `on_stack`)?"""
    return look_cost < (STACK_LOOK if on_stack else CARRIED_LOOK)


def _shown_at_once(track: CoinTrack, detections: Detections, j: int, look_cost: float,
                   coin_like: float) -> bool:
    """Is blob `j` (not a streak), back from under a hand near where it hid this coin and
    not seen the frame before, the coin itself (put down, or flicked out from under the
    fingers)?  It is whole, apart from the hand, and of the coin's own look (OWN_LOOK) or
    far nearer it, or the nearest coin's look (`coin_like`: a coin's look drifts over the
    cloth), than the colour of the hands in view (OUT_FROM_UNDER), or merely nearer if
    blurred along a line back to where it hid (DRAWN_FROM): the edge of a withdrawing arm
    leaves one-frame blobs of its own colour.  (Gate run at 720p60, look 100: Moons out
    from under the finger at 0.7 m/s, 0.044 from its look and 0.29 from the hands', as
    near Ace's look as its own, was left unpaired for a frame; at 1080p, 0.103 from its
    look, 0.06 from Ace's and 0.30 from the hands', for one; tower hit at 720p30, look 104:
    Moons put down, 0.055 from its look on that spot of the cloth and 0.79 from the hands',
    for one.)"""
    times = 1.0 if _drawn(track, detections, j) else OUT_FROM_UNDER
    return _unlike_hands(track, detections, j, look_cost, coin_like, times) or bool(
        not detections.by_hand[j] and _itself(track, detections, j, look_cost)
        and look_cost < OWN_LOOK)


def _drawn(track: CoinTrack, detections: Detections, j: int) -> bool:
    """Is blob `j` blurred short of a streak along a line back to this coin's place
    (DRAWN_FROM)?"""
    return bool(detections.streak_mm[j] >= DRAWN_FROM * detections.radius_mm[j]
                and _lines_through(track.position_mm, detections, detections.radius_mm)[j])


def _unlike_hands(track: CoinTrack, detections: Detections, j: int, look_cost: float,
                  coin_like: float, times: float = 1.0) -> bool:
    """Is blob `j` this coin whole, apart from the hand, and `times` nearer the coins' looks
    (its own, or the nearest coin's: `coin_like`) than the colour of the hands in view?"""
    hand_look = float(detections.hand_look[j])
    return bool(not detections.by_hand[j] and _itself(track, detections, j, look_cost)
                and math.isfinite(hand_look) and times * min(look_cost, coin_like) < hand_look)


def _streak_from(track: CoinTrack, detections: Detections, j: int) -> bool:
    """Is detection `j` a streak whose line points back at where this coin was (the coin
    flicked out from under the fingers)?"""
    return bool(_streaks_through(track.position_mm, detections,
                                 2.0 * detections.radius_mm)[j])


def _streaks_through(point_mm: tuple[float, float], detections: Detections,
                     within_mm: np.ndarray) -> np.ndarray:
    """(N,) True for streaks whose line runs within `within_mm` (per blob) of `point_mm`."""
    return detections.streaked & _lines_through(point_mm, detections, within_mm)


def _lines_through(point_mm: tuple[float, float], detections: Detections,
                   within_mm: np.ndarray) -> np.ndarray:
    """(N,) True for blobs whose blur's line runs within `within_mm` (per blob) of
    `point_mm`."""
    off = np.asarray(point_mm, float) - detections.center_mm
    beside = np.abs(off[:, 0] * detections.streak_dir[:, 1]
                    - off[:, 1] * detections.streak_dir[:, 0])
    return beside < within_mm


def _along_across(offset: np.ndarray, u: np.ndarray) -> tuple[float, float]:
    """An offset's length along the unit direction `u` and its distance from u's line."""
    return float(offset @ u), abs(float(offset[0] * u[1] - offset[1] * u[0]))


def _assign(cost: np.ndarray, miss: float) -> list[tuple[int, int]]:
    """Minimum-cost pairs (row, column), where leaving a row unpaired costs `miss`.

    scipy's `linear_sum_assignment` pairs as many rows as it can: a far, poor pair would
    then pull a near, good one apart.  Each row gets a column of its own meaning "no
    detection" at the price `miss` (the usual augmentation for gated assignment).
    """
    n, m = cost.shape
    augmented = np.full((n, m + n), UNMATCHED)
    augmented[:, :m] = cost
    augmented[np.arange(n), m + np.arange(n)] = miss
    rows, cols = linear_sum_assignment(augmented)
    return [(int(i), int(j)) for i, j in zip(rows, cols, strict=True)
            if j < m and cost[i, j] < UNMATCHED]
