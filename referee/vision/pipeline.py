"""One generator from frames to physical events, shared by live play and replay.

    frames → detect (table mm) → track (identities) → flick windows → fitted motions → events

Identities are bound at the session start, where every coin rests in its start zone
(CONTRACT.md): the first frame's detections are matched to the start spots.  Events of a flick
are written when it settles (every coin at rest for `dwell_s`, none under a hand), so the
referee rules on a whole flick at once; a coin hidden by a hand that reappears elsewhere was
lifted and placed.

With the coins' faces (`calibration.face_reader.CoinFaces`), every coin that a flick moved or
a hand put down is read once all rest and no hand is in view: a confident reading of another
face than the one believed up is a `face` event (a flip), timed when the coin came back (or
the flick settled).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

import numpy as np
from scipy.optimize import linear_sum_assignment

from referee import events as ev
from referee.layout import GUARDS, SUITS, Layout
from referee.vision.capture import Frame
from referee.vision.detect import FINGER_MM, CoinDetector, DetectorConfig, PixelMapping
from referee.vision.hand_history import CELL_PX, HandHistory
from referee.vision.kalman import MotionModel
from referee.vision.reconstruct import (
    UNSEEN_CONFIDENCE,
    FlickWindow,
    piece_obstacle,
    reconstruct,
)
from referee.vision.reidentify import exchange_after, exchange_time, exchanged
from referee.vision.trace import RecentFrames, Traced, trace_slide
from referee.vision.track import (
    LOST_S,
    QUICKEST_CARRY_S,
    REST_STEP_MM,
    RESTING_MM_S,
    CoinTrack,
    Tracker,
    last_at_rest,
    resting_when_seen,
)
from referee.vision.trajectory import FINGER_DRAG_MM, FINGER_MM_S, Motion, Slide
from referee.vision.trajectory import FINGER_MM as FINGER_REACH_MM
from referee.vision.windows import SPAN_GAP_FRAMES, find_windows

if TYPE_CHECKING:
    from calibration.face_reader import CoinFaces
    from calibration.verify import TileCheck

PLACE_MOVE_MM = 5.0
"""A coin that reappears this far from where a hand hid it was moved (flicked or carried)."""
STRUCK_GAP_MM = 3.0
"""A coin that began to move this near (beyond a diameter) to where a coin flicked unseen
came back was struck by it (`_struck_then`)."""
SLID_AFTER_S = 0.2
SLID_AFTER_MM = 3.0
"""A coin seen again that moves this far from there within SLID_AFTER_S was still sliding:
flicked from under the fingers, not put down."""
FREED_FLICK_S = 0.35
"""A coin back in view this soon after the hand left the place where it hid it was flicked
from under the fingers, not carried: a carried coin stays in the hand while the hand leaves
its place and travels.  (Measured on the sample videos: flicks are back 0.03-0.2 s after the
hand leaves, carried coins 0.77 s and more.  How long the hand hid the coin says nothing: a
player aims with a fingertip on the coin for as long as he likes.)"""
STILL_SLIDING_MM = 1.0
"""A coin flicked under the fingers that comes to rest this much farther on than where it
was seen again was still sliding there (a sharp centre's noise is 0.3 mm; a coin seen in
part beside the leaving hand reads ahead of its centre, the safe side): its slide is timed
by where it comes to rest (capture at look 172: Ace seen again 1.7 mm short of its rest,
put 67 ms early by a slide ending as the hand left less a follow-through)."""
RETIME_EARLIER_S = 0.2
"""A launch no frame saw is drawn from the last frame that showed the coin at rest; its trace
may begin this much earlier (a fingertip over the coin read as it for a frame or two)."""
FOLLOW_THROUGH_S = 0.1
"""A flick ends at least this long before the hand leaves the place the coin left: the
finger follows through over it and the hand withdraws after (the simulator's gesture
follows through for 40 ms, then withdraws).  A flick under the fingers put as late as the
hand's leaving alone came 0.05-0.12 s late (capture, Ace's short flick in 52 of 136 clips;
the demo game's at 30.0 and 40.0 s: 45 and 112 ms, now 0 and 67)."""


HAND_CAME_MM = 40.0
"""A coin back where no hand came within this distance while it was hidden slid there (a
hand putting a coin down by its edge covers a coin's width or two of it; a finger's length,
100 mm, took in an arm reaching past the place: strike at look 107)."""

UNPROMPTED_S = 0.5
"""A coin begins to move only with a hand within a finger's length of it this soon before (a
finger flicks it), or struck by another coin (`Pipeline._unprompted`)."""

DRAG_BEFORE_S = 0.5
"""A fingertip drags a coin's blob right before it flicks the coin (`_without_drags`)."""
MISSED_S = 0.1
"""A coin unseen this long, its place in view and no hand over it, is no longer placed
there (`Pipeline.placed_mm`) if a hand has been over it since it was seen: a hand took it
(a lift shows the place empty 2-3 frames after the grasp)."""


FACE_CONFIDENCE = 0.23
"""A face reading this sure (`FaceReading.confidence`, the margin between the coin's two
faces, each where it fits best: `CoinFaces.check_around`) is believed; below it the coin's
face is left as it was (measured, docs/vision.md: true flips read at 0.26-0.87, the demo
game's false ones at 0.04-0.22)."""
FACE_FRAMES = 3
"""A resting coin's face is read on the mean look of this many frames (less sensor noise)."""
FACE_GRID = np.array([[dx, dy] for dx in (0.0, -0.25, 0.25)
                      for dy in (0.0, -0.25, 0.25)])
"""Where a resting coin's look is cut to read its face (`CoinFaces.check_around`): at its
measured centre and eight points a quarter of a millimetre around it (table mm), the
centre's own error at rest."""


VACATED_MARGIN_MM = 6.0
"""Beyond touching: a neighbour's shadow and the detector's few pixels of margin."""

TILE_MOVED_AGAIN_MM = 1.0
"""A knocked tile moved this much more is reported again, where it lies now."""
TILES_EVERY_S = 0.5
"""While no coin slides, the pieces' outlines that no hand reaches are looked at this often
(and once all rest and no hand is in view after every flick or hand's move): a tile knocked
and left unlearnt shows its new edges as blobs, which the tracker took for a coin put back
there (three false flicks).  A sliding coin's streak crosses outlines (fast-flick, look
109: 14 % of tower 4's)."""
OUTLINE_CHANGE = 0.05
"""A piece whose outline differs from the empty table in this share of its pixels may have
moved, and is measured (a 2 mm knock changes 10–20 % of it; the measurement takes about
0.3 s, the look at every outline a few milliseconds)."""


@dataclass
class PipelineConfig:
    noise_mm: float = 0.8
    """Standard deviation of a detected centre (measured on the simulator's clips)."""
    dwell_s: float = 0.3
    decel_mm_s2: float = 0.30 * 9806.65
    history_s: float = 2.0
    """Observations kept before a flick window (its coins' resting places)."""


@dataclass
class Hidden:
    """A coin unseen since `t_hid`, last seen at `from_mm`."""

    t_hid: float
    from_mm: tuple[float, float]
    t_freed: float
    """The last time a hand covered that place (so far)."""
    seen_empty: bool = False
    """Whether its place has been in view, no hand over it, for LOST_S since, the coin not
    seen there: it is not there (lifted, or gone)."""
    left_rest: tuple[float, tuple[float, float]] | None = None
    """When and where it was last seen at rest, if what was seen of it since was only the
    fingers at it (`went_unseen`): where a move it made unseen began."""


@dataclass(frozen=True)
class Placed:
    """A coin seen again away from where a hand hid it, or back after it left the table."""

    coin: str
    t_hid: float
    """Last seen where it was."""
    t_freed: float
    """The last time a hand covered that place."""
    t_back: float
    """Seen again, at `to_mm`."""
    from_mm: tuple[float, float]
    to_mm: tuple[float, float]
    hand_came: bool = True
    """Whether a hand came near `to_mm` while it was hidden (HAND_CAME_MM): a hand puts
    down the coin it carries, so without one near it slid there."""


def went_unseen(track: CoinTrack) -> Hidden:
    """A coin gone under a hand, or unseen (in a hand): since it was last seen, where it was
    seen.  Not where its filter puts it: coasting under the hand, that runs on (capture at
    look 145: Suns, dragged by a fingertip merged into its blob, was "hidden" 6 mm on, on
    the edge of tower 2, and its flick read as a lift and a place).  Sightings that only
    drifted off its resting place, within a finger's reach and slower than any flick, were
    the fingertip at it, merged or beside it: a move it made unseen began at its last
    sighting at rest, there (`Hidden.left_rest`; tower hit at look 214: the fingers that
    lifted Moons, read as it for eight frames, 11 mm on, put the lift 0.13 s late).  Still
    unseen since its last sighting: back at its place, the fingers' sightings are dropped
    and nothing moved (off-table at look 268: Ace, read 5 mm off by a hand passing)."""
    obs = track.observations
    seen = obs[-1].center_mm if obs else track.position_mm
    hidden = Hidden(track.last_seen, seen, track.last_seen)
    k = last_at_rest(track)
    if k is not None and k + 1 < len(obs):
        rest = obs[k]
        if all(math.dist(o.center_mm, rest.center_mm) < FINGER_REACH_MM for o in obs[k:]) \
                and all(math.dist(a.center_mm, b.center_mm) < FINGER_MM_S * (b.t - a.t)
                        for a, b in itertools.pairwise(obs[k:])):
            hidden.left_rest = (rest.t, rest.center_mm)
    return hidden


def start_spots(layout: Layout) -> dict[str, tuple[float, float]]:
    """Where each coin rests at the session start (knight and guard default spots)."""
    spots: dict[str, tuple[float, float]] = {}
    for castle in layout.castles.values():
        spots[castle.knight] = castle.knight_spot
        spots[castle.guard] = castle.guard_spot
    return spots


class Pipeline:
    """Feed frames in; get the contract's events out, flick by flick."""

    def __init__(self, mapping: PixelMapping, layout: Layout, image_size: tuple[int, int],
                 fps: float, coins: Mapping[str, tuple[float, float]] | None = None,
                 config: PipelineConfig | None = None,
                 detector_config: DetectorConfig | None = None,
                 faces: CoinFaces | None = None, tiles: TileCheck | None = None,
                 starts_session: bool = True) -> None:
        self.layout = layout
        self.fps = fps
        self.config = config or PipelineConfig()
        self.detector = CoinDetector(mapping, layout, image_size, detector_config)
        self.spots = dict(coins or start_spots(layout))
        self.tracker: Tracker | None = None
        self.tracks: dict[str, list[tuple[float, float, float]]] = {c: [] for c in self.spots}
        self.closed_until = -1.0
        self.last_activity = -1.0
        self.active = False
        self.hidden_since: dict[str, Hidden] = {}
        """Each unseen coin: since when, where, and until when a hand covered that place."""
        self.vacated: dict[str, tuple[float, float]] = {}
        """Where each coin stood at the session start, until the detector has learnt the
        cloth there (the empty table was only inpainted under it)."""
        self.off_table: set[str] = set()
        """Coins that left the table: their return is a place without a lift."""
        self.placed: list[Placed] = []
        """Coins that came back elsewhere from under a hand: lifted and placed, unless a
        flick moved them meanwhile (decided when the flick window closes)."""
        self.contacts: list[ev.Contact] = []
        """The contacts of the last `history_s`: a coin moved unseen that one of them
        struck was not flicked, though its move closes later."""
        self.faces = faces
        """The coins' faces of this table; None: no face is read, no `face` event."""
        self.looks_now: dict[str, np.ndarray] = {}
        """Each coin's look in the last frame it was seen sharp and apart from any hand."""
        self.up: dict[str, str] = {c: c for c in self.spots}
        """The face each coin is believed to show (its setup face until a flip is read)."""
        self.to_read: dict[str, float] = {}
        """Coins to read once all rest (a hand put them down, a flick moved them), each with
        the time its face could have changed."""
        self.crops_read: dict[str, list[np.ndarray]] = {}
        """A coin's crops at FACE_GRID, cut on consecutive resting frames (FACE_FRAMES of
        them), measured once all are cut."""
        self.tiles = tiles
        """Reads where the tiles stand now (the calibration's); None: no `tile_moved`."""
        self.tiles_due = False
        """A flick or a hand's move settled since the tiles were last looked at."""
        self.tiles_looked_at = 0.0
        """When the tiles were last looked at (their outlines, or measured)."""
        self.tiles_out: dict[str, float] = {}
        """Tiles reported knocked and not yet put back: how far out (mm)."""
        self.starts_session = starts_session
        """The first frame starts the session: its events begin with a `settled` giving
        where each coin rests (`_bind`).  False when vision goes on after a lost camera or
        in a resumed session, whose coins' places the referee already has."""
        detector = self.detector
        self.hands_seen = HandHistory(detector.table_mask.shape)
        """Where hands have been, and when (a coin back where none came slid there), in the
        detector's ROI pixels..."""
        self._roi_px = detector._roi_px
        """...to which table mm map so (the calibrated detector's, kept when a benchmark
        puts a peer's detector in its place), at this scale:"""
        self._px_per_mm = detector.px_per_mm
        self.recent = RecentFrames(self.config.history_s, fps)
        """The last frames at half resolution, with their hands: a slide no frame showed
        is timed by the trace it left (`trace`)."""
        self.reported: dict[str, tuple[float, float]] = {}
        """Where the last `settled` or `place` put each coin (`_kept_places`)."""
        self.on_window: Callable[[FlickWindow], None] | None = None
        """Called with each flick's window as it is reconstructed (the benchmark compares
        its fitted paths with the truth)."""

    # ---------------------------------------------------------------- the session start
    def _bind(self, frame: Frame) -> dict[str, tuple[float, float]]:
        """Learn the empty table and bind identities to the first frame's coins; return
        where each coin found rests.

        The session starts with a `settled` event giving those places: the rules compare
        where a coin rests after a flick with where it rested before (a coin moved more than
        2 mm by a void flick goes back), and before the first flick they know only the
        layout's spots, which no player puts a coin on exactly and which vision reads
        through its own small bias (look 121: Moons 2.0 mm off its spot, rolled back in
        place of the coin that went off the table)."""
        self.detector.learn_empty_table(frame.image, self.spots.values())
        detections, _ = self.detector.detect(frame.image)
        start = dict(self.spots)
        looks: dict[str, np.ndarray] = {}
        sizes: dict[str, float] = {}
        if len(detections):
            coins = list(self.spots)
            cost = np.array([[np.hypot(*(detections.center_mm[j] - self.spots[c]))
                              for j in range(len(detections))] for c in coins])
            rows, cols = linear_sum_assignment(cost)
            for i, j in zip(rows, cols, strict=True):
                if cost[i, j] < self.layout.coin_mm * 1.5:
                    start[coins[i]] = tuple(detections.center_mm[j])
                    looks[coins[i]] = detections.look[j]
                    sizes[coins[i]] = float(detections.confidence[j])
        self.vacated = dict(start)
        self.tracker = Tracker(start, frame.t, MotionModel(
            decel_mm_s2=self.config.decel_mm_s2, r_mm=self.config.noise_mm),
            looks=looks if len(looks) == len(start) else None, sizes=sizes,
            on_stack=lambda p: self.layout.stack_at(p) is not None,
            table_look=self.detector.table_look, on_table=self.layout.on_table,
            hand_came=self._hand_came)
        return {c: (round(float(start[c][0]), 2), round(float(start[c][1]), 2))
                for c in sorted(looks)}

    # ---------------------------------------------------------------- per frame
    def process(self, frame: Frame) -> list[ev.Event]:
        out: list[ev.Event] = []
        if self.tracker is None:  # (a tile knocked before: `referee calibrate --verify`)
            start = self._bind(frame)
            if self.starts_session:
                out.append(ev.Settled(frame.t, start))
                self.reported = dict(start)
        assert self.tracker is not None
        detections, hands = self.detector.detect(frame.image, self._resting(frame.t))
        self.hands_seen.update(hands, frame.t)
        half = getattr(self.detector, "half_image", None)  # (a peer's detector: none)
        if half is not None:
            self.recent.add(frame.t, half, self.hands_seen.cells)
        assigned = self.tracker.update(
            frame.t, detections, covered=lambda p: self.detector.covered(hands, p))
        for rewrite in self.tracker.rewritten:  # a fingertip or an arm's piece, not the coin
            dropped = set(rewrite.dropped)
            self.tracks[rewrite.coin] = sorted(
                [o for o in self.tracks[rewrite.coin] if o[0] not in dropped] + rewrite.added)
            if rewrite.added:
                self.hidden_since.pop(rewrite.coin, None)  # it was sliding, seen
            elif dropped:  # nor was it hidden where the fragment went
                self.placed = [p for p in self.placed if p.coin != rewrite.coin
                               or p.t_hid < min(dropped)]
        for coin, track in self.tracker.tracks.items():
            j = assigned.get(coin)
            if j is None:
                # Lost from rest for longer than the windows' gap, it may come back elsewhere
                # with no sighting of its motion: moved unseen, as under a hand (capture at
                # look 306: guard 2's faint streak never seen, Moons "flicked" out of turn).
                if coin not in self.hidden_since and (track.vague(frame.t) or (
                        frame.t - track.last_seen > SPAN_GAP_FRAMES / self.fps
                        and resting_when_seen(track))):
                    self.hidden_since[coin] = went_unseen(track)
                hidden = self.hidden_since.get(coin)
                if hidden is not None and self.detector.covered(hands, hidden.from_mm):
                    hidden.t_freed = frame.t
                elif hidden is not None and frame.t - hidden.t_freed > LOST_S:
                    hidden.seen_empty = True
                continue
            p = tuple(float(v) for v in detections.center_mm[j])
            if coin in self.hidden_since:
                hidden = self.hidden_since.pop(coin)
                self.to_read[coin] = frame.t  # turned over, maybe, and put back now
                if self._moved_unseen(coin, p, hidden):
                    t_left, left_mm = hidden.left_rest or (hidden.t_hid, hidden.from_mm)
                    # A hand that put it down covered the place before it showed there
                    # (the next player's, reaching it as it comes to rest, did not).
                    self.placed.append(Placed(coin, t_left, hidden.t_freed, frame.t, left_mm,
                                              p, self._hand_came(p, t_left, before=frame.t)))
                    self.last_activity = frame.t  # it may still be sliding out
            self.tracks[coin].append((frame.t, p[0], p[1]))
            if not detections.streaked[j] and not detections.by_hand[j]:
                self.looks_now[coin] = detections.look[j]
        self._learn_vacated()
        self.detector.adapt(self._coins_mm())
        moving = any(t.speed_mm_s > RESTING_MM_S for t in self.tracker.tracks.values())
        if moving:
            self.last_activity = frame.t
            self.active = True
        elif self.active:
            self._reidentify()  # all rest: their looks are sharp again
        if (self.active or self.placed) and self._accounted(hands) and \
                frame.t - self.last_activity >= self.config.dwell_s:
            out += self._close(frame.t)
        settled = not self.active and not hands.any() and \
            frame.t - self.last_activity >= self.config.dwell_s
        if self.faces is not None and self.to_read and settled:
            out += self._read_faces(frame)
        else:
            self.crops_read.clear()  # the frames read must be consecutive and at rest
        if self.tiles is not None and not self.active and (
                frame.t - self.tiles_looked_at >= TILES_EVERY_S or (self.tiles_due and settled)):
            out += self._check_tiles(frame)
        return sorted(out, key=lambda e: e.t)

    def _resting(self, t: float) -> list[tuple[tuple[float, float], np.ndarray]]:
        """The coins believed at rest (place, look), which detection holds where they rest
        from their views while a hand covers part of them.  Not one whose place was seen
        empty since it went unseen (`Hidden.seen_empty`): a hand lifted it, and its place,
        held from its view, showed it there again as a hand passed over it 1.2 s after the
        lift (capture at look 222: the lift read then).  (One under a fingertip aiming for
        as long as a player likes is still held: strike at look 177.)"""
        assert self.tracker is not None
        return [(track.position_mm, track.look) for coin, track in self.tracker.tracks.items()
                if track.look is not None and not track.gone
                and track.speed_mm_s < RESTING_MM_S
                and not (coin in self.hidden_since and self.hidden_since[coin].seen_empty)]

    def _check_tiles(self, frame: Frame) -> list[ev.Event]:
        """Every TILES_EVERY_S while no coin slides, and after a flick or a hand's move once
        all rest and no hand is in view: the pieces whose outline changed are measured
        (`TileCheck`); one out of its registered place by more than its limit (RULES-SPEC
        `EV.TILE_MOVED`: 2 mm, `VerifyLimits.tile_mm`) was knocked,
        one reported so and now back was put back (`tile_moved`, CONTRACT.md).  The empty
        table is learnt again over a tile that moved: its new edges are the table's, not
        coins."""
        assert self.tracker is not None
        self.tiles_due = False
        since, self.tiles_looked_at = self.tiles_looked_at, frame.t
        coins = self._coins_mm()
        suspects = [name for name in self.layout.pieces
                    if (self.detector.outline_change(name, coins) or 0.0) >= OUTLINE_CHANGE]
        return self._tiles_moved(frame, suspects, since, coins) if suspects else []

    def _coins_mm(self) -> list[tuple[float, float]]:
        assert self.tracker is not None
        return [track.position_mm for track in self.tracker.tracks.values() if not track.gone]

    def _tiles_moved(self, frame: Frame, names: list[str], since: float,
                     coins: list[tuple[float, float]]) -> list[ev.Event]:
        """The pieces `names` measured in `frame`: `tile_moved` for each newly out of its
        place, out by a different distance, or back in it (`coins`: where the coins are,
        left out of what is learnt again)."""
        assert self.tiles is not None
        out_mm = self.tiles.limits.tile_mm
        reading = self.tiles.read(frame.image)
        if reading.camera_moved:
            return []  # the whole table moved in the image: no knock can be told from it
        out: list[ev.Event] = []
        for name in names:
            by, was = reading.offsets_mm.get(name), self.tiles_out.get(name)
            if by is None:
                continue  # not found (covered, or knocked over): nothing to say
            if by > out_mm:
                if was is not None and abs(by - was) < TILE_MOVED_AGAIN_MM:
                    continue  # where it was said to be
                self.tiles_out[name] = by
            elif was is None:
                continue  # in its place
            else:
                del self.tiles_out[name]
            out.append(ev.TileMoved(round(frame.t, 4), name, round(by, 1),
                                    evidence={"since": round(since, 4)}))
            reach = max(by, was or 0.0) + out_mm  # where it was, is, and its shadow
            self.detector.learn_piece(name, reach, coins)
        return out

    def _hand_came(self, point_mm: tuple[float, float], since: float,
                   reach_mm: float = HAND_CAME_MM, before: float = math.inf) -> bool:
        """Has a hand come within `reach_mm` of a table point since `since` (and before
        `before`)?"""
        px = self._roi_px(np.asarray([point_mm], float))[0]
        return self.hands_seen.came((float(px[0]), float(px[1])),
                                    reach_mm * self._px_per_mm, since, before)

    def _unprompted(self, window: FlickWindow) -> FlickWindow:
        """A window whose one moving coin began to move with no hand within a finger's
        length of it in the UNPROMPTED_S before: nothing set it going, so its readings
        wobbled, and it rests where it ends (tower-hit at look 177: a cream coin 12 px
        across at rest beside tower 1, its dark art and its own shadow's edge read as
        shadows or not from frame to frame, jumped 5 mm with no hand in view, and a flick
        was invented; capture at look 177: Ace, cream on beige, read 5 mm north while a
        hand lifted Moons 420 mm off, a flick out of turn invented and the final state
        lost).  Nor did one that rests where it began (within REST_STEP_MM), nothing else
        moving, move at all, whatever hand came: no flick brings a coin back to its place
        (capture at look 375: a hand sweeping over Arms pulled its readings 5 mm out and
        back, and a flick was invented).  So too for the last coin to move in a window,
        once every other coin in it rests again: nothing struck it (capture at look 461:
        a hand reaching past Crowns pulled its readings 5.6 mm out and back 0.23 s after
        guard 2's strike on Moons had settled, in that strike's window; a flick out of
        turn was invented and the final state lost)."""
        if not window.motions:
            return window
        coin, motion = max(window.motions.items(), key=lambda item: item[1].t_start)
        if any(m.t_end > motion.t_start for c, m in window.motions.items() if c != coin):
            return window  # (a coin still moving as it set off may have struck it)
        if motion.unseen or motion.end_mm is None:
            return window
        if math.dist(motion.start_mm, motion.end_mm) > REST_STEP_MM and self._hand_came(
                motion.start_mm, motion.t_start - UNPROMPTED_S, FINGER_MM):
            return window
        return _rested(window, {coin: motion})

    def _accounted(self, hands: np.ndarray) -> bool:
        """Is every coin this flick may have moved in view?  Yes when no hand is in view,
        or when no coin went under a hand since the last flick was closed: the next
        player's hand reaching in, away from the coins, does not hold the flick open (a
        coin hidden since before, such as a prisoner on a tower, has no part in it).  A
        coin whose last sightings run over the table's edge within a frame is no hand's: its
        fall is this flick's, and waiting for it held the flick open until a hand put it
        back, when the return was taken for a move under that hand (off-table at look 247:
        no place).  (Run on for longer, a fingertip's drag of a coin it lifts "reaches" the
        edge: tower hit at look 100.)"""
        frame_dt = 1.0 / self.fps
        return not hands.any() or all(hidden.t_hid <= self.closed_until
                                      or self._over_edge(coin, hidden.t_hid + frame_dt)
                                      for coin, hidden in self.hidden_since.items())

    def _read_faces(self, frame: Frame) -> list[ev.Event]:
        """The face of every coin to read that this frame shows at rest: after FACE_FRAMES
        frames, a confident reading of another face than the one up is a flip."""
        assert self.faces is not None and self.tracker is not None
        out: list[ev.Event] = []
        for coin, t_changed in list(self.to_read.items()):
            track = self.tracker.tracks[coin]
            if track.gone or coin in self.off_table:
                del self.to_read[coin]  # read again when a hand puts it back
                self.crops_read.pop(coin, None)
                continue
            obs = self.tracks[coin]
            if not obs or obs[-1][0] != frame.t:
                self.crops_read.pop(coin, None)  # not seen in this frame: wait
                continue
            if self._by_the_edge(obs[-1][1:]) or self.layout.stack_at(obs[-1][1:]):
                # the face believed up stays: its faces were learned on the cloth, not on a
                # tower's top (the demo game's Moons on tower 2 was misread as turned over)
                del self.to_read[coin]
                self.crops_read.pop(coin, None)
                continue
            centre = np.asarray(obs[-1][1:], float)
            crops = self.crops_read.setdefault(coin, [])
            crops.append(self.faces.crops(frame.image, self.detector.mapping,
                                          centre + FACE_GRID))
            if len(crops) < FACE_FRAMES:
                continue
            # measured once all are cut: the frame that closed a flick, which its events
            # wait on, only cuts (the web's latency)
            looks = self.faces.descriptors(np.concatenate(crops))
            reading = self.faces.check_around(
                coin, looks.reshape(FACE_FRAMES, len(FACE_GRID), -1).mean(axis=0))
            del self.to_read[coin], self.crops_read[coin]
            if reading.flipped is None or reading.confidence < FACE_CONFIDENCE:
                continue  # unsure: the face believed up stays
            if reading.face != self.up.get(coin, coin) and self._twin_holds(coin, frame):
                self.up[coin] = reading.face
                out.append(ev.Face(round(t_changed, 4), coin, reading.face,
                                   confidence=round(reading.confidence, 3),
                                   evidence={"read_at": round(frame.t, 4),
                                             "frames": FACE_FRAMES}))
        return out

    def _by_the_edge(self, center_mm: tuple[float, float]) -> bool:
        """Is a coin within a coin's width of the table's edge?  Its face is not read there:
        a coin put back on the edge (CCN-49) lies on the rim or half over the floor, not on
        the cloth its faces were learned on, and was misread as turned over (demo game,
        28.1 s, calibrated)."""
        inside = self.layout.inset_from_edge(center_mm, self.layout.coin_mm)
        return math.dist(inside, center_mm) > 1e-6

    def _twin_holds(self, coin: str, frame: Frame) -> bool:
        """Whether the other coin of `coin`'s suit (its knight or guard) is seen showing the
        face believed up on it.  A flipped guard looks like its knight and a flipped knight
        like its guard: a swap of the two coins' tracks reads as a flip of each, and the
        twin's own reading tells a flip from a swap (measured on `touching`, docs/vision.md)."""
        assert self.faces is not None
        suit = coin if coin in SUITS else SUITS[GUARDS.index(coin)] if coin in GUARDS else None
        if suit is None:
            return True
        twin = GUARDS[SUITS.index(suit)] if coin == suit else suit
        obs = self.tracks.get(twin)
        if twin not in self.up or not obs or obs[-1][0] != frame.t:
            return True  # not in play or not seen: nothing to swap with here
        reading = self.faces.check(twin, self.faces.crop(frame.image, self.detector.mapping,
                                                         obs[-1][1:]))
        return reading.face == self.up[twin] and reading.confidence >= FACE_CONFIDENCE

    def _learn_vacated(self) -> None:
        """Start places that no coin covers any more: the detector learns the cloth there
        (once no hand is near and the image there holds still: `CoinDetector.forget`).

        A coin beside the place does not stop it: only one whose disc (or its shadow's
        rim) reaches into the disc the detector learns.
        """
        assert self.tracker is not None
        clear = self.layout.coin_mm + VACATED_MARGIN_MM
        coins = np.array([track.position_mm for track in self.tracker.tracks.values()
                          if not track.gone], float).reshape(-1, 2)
        for coin, place in list(self.vacated.items()):
            if (np.hypot(*(coins - place).T) > clear).all() and self.detector.forget(place):
                del self.vacated[coin]

    def _close(self, t: float) -> list[ev.Event]:
        """Reconstruct every flick since the last closed one."""
        self._uncrossed()
        lo = self.closed_until - self.config.history_s
        recent = {c: [o for o in obs if o[0] >= lo] for c, obs in self.tracks.items()}
        windows = [w for w in find_windows(recent, 1.0 / self.fps, self.config.noise_mm,
                                           self.config.dwell_s, self.config.decel_mm_s2,
                                           after=self.closed_until,
                                           coin_mm=self.layout.coin_mm, until=t,
                                           obstacle=piece_obstacle(self.layout))
                   if _first_moved(w) > self.closed_until - 0.5 / self.fps]
        self.closed_until = t
        self.active = False
        windows = _without_drags(windows)
        flicked = [(c, m.t_start) for w in windows for c, m in w.motions.items()]
        hidden: dict[str, Motion] = {}
        hidden_when: dict[str, tuple[float, float]] = {}
        traced: dict[str, tuple[Traced, float]] = {}
        """Coins whose slide no frame saw, timed by their trace: the trace, and when the
        slide it timed arrived."""
        out: list[ev.Event] = []
        carried: set[str] = set()
        """Coins a hand carried whose two places the window took for a slide."""
        for moved in _one_hiding(self.placed, self.config.dwell_s):
            coin, t_hid, t_back, p = moved.coin, moved.t_hid, moved.t_back, moved.to_mm
            at, on = (round(p[0], 2), round(p[1], 2)), self.layout.stack_at(p)
            while_hidden = {"hidden_from": round(t_hid, 4), "hidden_until": round(t_back, 4)}
            if coin in self.off_table:  # put back after it left the table: no lift
                self.off_table.discard(coin)
                out.append(ev.Place(round(t_back, 4), coin, at, evidence=while_hidden))
                continue
            if self._rests_where_hidden(moved):
                continue  # first seen again in part, by the hand leaving it: never moved
            spans = any(c == coin and t_hid - 0.5 <= tf <= t_back + 0.5 for c, tf in flicked)
            flicked_here = flicked_unseen(moved, self.layout, self.config.decel_mm_s2)
            slid = self._slid_after(coin, t_back, p)
            if spans and on is None and (flicked_here or slid):
                continue  # flicked from under the fingertip, back at once or seen sliding
            if flicked_here:
                rest_mm = self._last_seen_mm(coin)
                trace = None if _still_sliding(moved, rest_mm) else self._trace(
                    moved.from_mm, moved.to_mm, (moved.t_hid, moved.t_back), moved.t_back)
                if trace is not None:
                    slides, t_arrived = traced_slides(moved.from_mm, moved.to_mm, trace,
                                                      self.config.decel_mm_s2)
                    traced[coin] = (trace, t_arrived)
                    hidden[coin] = Motion(coin, slides, moved.from_mm, moved.to_mm,
                                          unseen=True)
                else:
                    hidden[coin] = hidden_slide(moved, self.config.decel_mm_s2,
                                                _struck_then(windows, moved,
                                                             self.layout.coin_mm,
                                                             1.0 / self.fps), rest_mm)
                hidden_when[coin] = (t_hid, t_back)
                continue
            if spans:  # carried: its two places are no slide (put on a tower, look 106)
                carried.add(coin)
            t_lift = self._first_covered(coin, t_hid)
            while_hidden["hidden_from"] = round(t_lift, 4)
            out += [ev.Lift(round(t_lift, 4), coin, evidence=while_hidden),
                    ev.Place(round(t_back, 4), coin, at, on, evidence=while_hidden)]
        if carried:
            windows = [w for w in (_without(w, carried) for w in windows) if w.motions]
        windows = [w for w in (_at_rest_on_towers(w, self.layout) for w in windows)
                   if w.motions]
        windows = [self._retimed(w, traced) for w in windows]
        if hidden:
            windows = self._with_hidden(windows, hidden, t)
        else:  # (no coin moved unseen: what moved by hand touched nothing a hand did not)
            windows = [w for w in (self._unprompted(w) for w in windows) if w.motions]
        self.reported.update({e.coin: e.at for e in out if isinstance(e, ev.Place)})
        found: list[tuple[list[ev.Event], bool]] = []
        """Each window's events, and whether the coins moved unseen are that window's."""
        for window in windows:
            if self.on_window is not None:
                self.on_window(window)
            found.append((self._kept_places(reconstruct(window, self.layout), window),
                          any(window.motions.get(c) is m for c, m in hidden.items())))
            for coin in window.motions:  # moved: read its face when all rest
                self.to_read.setdefault(coin, t if window.t_settled is None
                                        else window.t_settled)
        self.contacts = [e for e in self.contacts if e.t >= t - self.config.history_s] + [
            e for events, _ in found for e in events if isinstance(e, ev.Contact)]
        for events, unseen in found:  # (the hidden interval is the unseen flicks' window's)
            when = hidden_when if unseen else {}
            out += [_unseen_evidence(e, when, traced) for e in events
                    if not _struck_unseen(e, self.contacts, when)]
        self.placed = []
        self.tiles_due = self.tiles_due or bool(out)
        for e in out:
            if isinstance(e, ev.OffTable) and self.tracker is not None:
                track = self.tracker.tracks[e.coin]
                track.hidden = track.gone = True  # until a hand puts it back
                self.off_table.add(e.coin)
        for coin, obs in self.tracks.items():
            self.tracks[coin] = [o for o in obs if o[0] >= t - self.config.history_s]
        return out

    def _kept_places(self, events: list[ev.Event], window: FlickWindow) -> list[ev.Event]:
        """The window's events, its `settled` giving each coin that neither moved in it nor
        touched anything the place last reported: vision says it never left it, and the
        rules read a coin more than 2 mm from where it rested as moved (fast flick at look
        473: guard 3, untouched, read 2.5 mm apart before and after as its readings
        wobbled between two places, and was to be put back)."""
        touched = {c for e in events if isinstance(e, ev.Contact) for c in (e.a, e.b)}
        touched |= {e.coin for e in events if isinstance(e, ev.Hit)}
        out: list[ev.Event] = []
        for event in events:
            if isinstance(event, ev.Settled) and event.positions is not None:
                kept = {c: self.reported[c] for c in event.positions if c in self.reported
                        and c not in window.motions and c not in touched}
                event = replace(event, positions={**event.positions, **kept})
                self.reported.update(event.positions)
            out.append(event)
        return out

    def _trace(self, from_mm: tuple[float, float], to_mm: tuple[float, float],
               starts: tuple[float, float], until: float) -> Traced | None:
        """The slide from `from_mm` to `to_mm` that no frame saw, begun within `starts`,
        timed by the trace it left in the frames up to `until` (None: none stands out of
        the sensor's noise)."""
        frames = self.recent.between(starts[0] - 0.5 / self.fps, until)
        return trace_slide(frames, self._roi_px, CELL_PX, from_mm, to_mm,
                           self.layout.coin_mm, self.config.decel_mm_s2, self.fps, starts)

    def _retimed(self, window: FlickWindow, traced: dict[str, tuple[Traced, float]]
                 ) -> FlickWindow:
        """A window whose launches no frame saw (drawn from rest to where the coin was first
        seen, or to a contact: `windows._through_contact`) timed by their trace.

        Strike at look 449 (near-black Moons on near-black cloth, unseen from its flick
        until it came back off Crowns): its launch was drawn from the last frame that
        showed it at rest, its crossings 25-60 ms off and its strike 0.12 s late.  The
        traced slide reaches the drawn launch's end; where it gets there before the slides
        after begin, it rests there meanwhile (it struck a coin, which struck it back).
        Only a trace that arrives by the time the next slide begins is taken.  A launch
        drawn to where the coin was first seen sliding on, with no slide after it, is left
        as drawn: that sighting times it (off-table at look 203: Arms, seen once at the
        table's edge, was stopped there by its trace, and its fall lost)."""
        motions = dict(window.motions)
        for coin, motion in window.motions.items():
            first = motion.slides[0]
            if motion.unseen or motion.seen_from is None or len(motion.slides) < 2 or \
                    first.t_end > motion.seen_from + 0.5 / self.fps:
                continue
            end = tuple(float(v) for v in first.position(first.t_end))
            trace = self._trace(motion.start_mm, end, (first.t0 - RETIME_EARLIER_S,
                                                       first.t_end), motion.seen_from)
            if trace is None:
                continue
            slides, t_arrived = traced_slides(motion.start_mm, end, trace,
                                              self.config.decel_mm_s2)
            if t_arrived > first.t_end + 0.5 / self.fps:
                continue
            if len(slides) == 2:  # at rest where it arrived until the next slide
                slides[1] = replace(slides[1], t_end=max(first.t_end, t_arrived))
            traced[coin] = (trace, t_arrived)
            motions[coin] = replace(motion, slides=slides + motion.slides[1:])
        return replace(window, motions=motions)

    def _first_covered(self, coin: str, t_hid: float) -> float:
        """When a coin a hand took, last seen at `t_hid`, was last seen before the hand first
        covered it: seen again unmoved between the fingers, within `dwell_s` of when it was
        last seen, it never left that hand (tower hits at looks 339 and 358: Moons, grasped
        at 1.9 s, hidden, then seen once between the fingers at 1.967 s, read as lifted
        then).  As `_one_hiding` takes a coin seen again elsewhere."""
        seen = [o for o in self.tracks[coin] if t_hid - self.config.dwell_s <= o[0] <= t_hid]
        if not seen or seen[-1][0] != t_hid:
            return t_hid
        place, first = seen[-1][1:], t_hid
        for k in range(len(seen) - 1, 0, -1):
            (t_a, *at), t_b = seen[k - 1], seen[k][0]
            if math.dist(at, place) > PLACE_MOVE_MM:
                break
            if t_b - t_a > 1.5 / self.fps:
                first = t_a  # last seen before a hiding
        return first

    def _moved_unseen(self, coin: str, back_mm: tuple[float, float], hidden: Hidden) -> bool:
        """Was a coin seen again moved while unseen: away from where it was last seen, or
        back on the table after it left it (put back by where it left, which may lie nearer
        than PLACE_MOVE_MM to where it was last seen on the cloth: off-table at looks 106
        and 107, and half the off-table clips of every set, found no place)?"""
        return math.dist(back_mm, hidden.from_mm) > PLACE_MOVE_MM or coin in self.off_table

    def _rests_where_hidden(self, moved: Placed) -> bool:
        """Does a coin seen again away from where a hand hid it now rest where it hid (its
        last two sightings since, both there)?  Its first sighting was then a part of it
        beside the leaving hand (capture at look 134:
        Ace 5.5 mm off, a flick invented from it), not where it went."""
        since = [o for o in self.tracks[moved.coin] if o[0] > moved.t_back][-2:]
        return len(since) == 2 and all(math.dist(o[1:], moved.from_mm) <= PLACE_MOVE_MM
                                       for o in since)

    def _slid_after(self, coin: str, t_back: float, back_mm: tuple[float, float]) -> bool:
        """Was a coin seen again at `back_mm` still sliding (flicked from under the fingers),
        rather than put down there (at rest where it was seen again)?"""
        return any(t_back < o[0] <= t_back + SLID_AFTER_S
                   and math.dist(o[1:], back_mm) > SLID_AFTER_MM for o in self.tracks[coin])

    def _last_seen_mm(self, coin: str) -> tuple[float, float] | None:
        """Where a coin was last seen (None: not within the history kept); at a flick's close,
        where it rests."""
        obs = self.tracks[coin]
        return obs[-1][1:] if obs else None

    def _uncrossed(self) -> None:
        """Two coins back from under a hand, each where the other was hidden, had their
        names crossed before it hid them, and the tracker told them apart by their looks
        as they came back: their sightings from when they came closest (`exchange_time`)
        to the hiding are exchanged, and neither was moved under the hand (capture at look
        218: guard 2 stopped by the Moons it struck took Moons' blob sliding on for four
        frames; a flick of Moons, a contact and a hit by 2 were invented)."""
        def crossed(a: Placed, b: Placed) -> bool:
            return (a.coin != b.coin and a.t_hid < b.t_back and b.t_hid < a.t_back
                    and math.dist(a.to_mm, b.from_mm) < PLACE_MOVE_MM
                    and math.dist(b.to_mm, a.from_mm) < PLACE_MOVE_MM)

        while pair := next(((a, b) for i, a in enumerate(self.placed)
                            for b in self.placed[i + 1:] if crossed(a, b)), None):
            a, b = pair
            since = exchange_time(self.tracks[a.coin], self.tracks[b.coin], self.closed_until)
            self.tracks[a.coin], self.tracks[b.coin] = exchange_after(
                self.tracks[a.coin], self.tracks[b.coin], since, lambda o: o[0],
                until=min(a.t_hid, b.t_hid))
            self.placed = [m for m in self.placed if m is not a and m is not b]

    def _reidentify(self) -> None:
        """Give back their names to coins that exchanged them in this flick (`reidentify`),
        as soon as all rest: only coins seen in the last frame, with a look read there."""
        assert self.tracker is not None
        latest = max((obs[-1][0] for obs in self.tracks.values() if obs), default=None)
        moved = []
        for coin, obs in self.tracks.items():
            if not obs or obs[-1][0] != latest or coin in self.hidden_since or \
                    self.tracker.tracks[coin].speed_mm_s >= RESTING_MM_S:
                continue
            first = next((o for o in obs if o[0] > self.closed_until), obs[-1])
            if math.dist(first[1:], obs[-1][1:]) > PLACE_MOVE_MM:
                moved.append(coin)
        looks = {c: track.look for c, track in self.tracker.tracks.items()
                 if track.look is not None}
        for a, b in exchanged(moved, self.looks_now, looks):
            since = exchange_time(self.tracks[a], self.tracks[b], self.closed_until)
            self.tracks[a], self.tracks[b] = exchange_after(self.tracks[a], self.tracks[b],
                                                            since, lambda o: o[0])
            self.tracker.exchange(a, b, since)
            self.looks_now[a], self.looks_now[b] = self.looks_now[b], self.looks_now[a]

    def _with_hidden(self, windows: list[FlickWindow], hidden: dict[str, Motion],
                     t: float) -> list[FlickWindow]:
        """The windows with the coins flicked unseen added to the last, or to a new one
        when a coin of the last was flicked again unseen after it came to rest there: two
        flicks, not one read twice (capture at look 594: Moons' second flick, seen, and its
        third, under the fingers, closed together, and the second was dropped for the
        third, its crossing of gate 2 with it)."""
        assert self.tracker is not None
        if windows and not any(hidden[c].t_start > m.t_end
                               for c, m in windows[-1].motions.items() if c in hidden):
            last = _without(windows[-1], set(hidden))
            return [*windows[:-1], replace(last, motions={**last.motions, **hidden})]
        # The others rest where they were before the first of them was hidden, and now where
        # they are (a coin struck unseen moved a little: reconstruct asks about it).
        since = min(m.t_start for m in hidden.values())
        now = {c: track.position_mm for c, track in self.tracker.tracks.items()
               if c not in hidden and not track.gone}
        before = {c: next(((x, y) for s, x, y in reversed(self.tracks[c]) if s < since), p)
                  for c, p in now.items()}
        return [*windows, FlickWindow(hidden, before, 1.0 / self.fps, self.config.noise_mm,
                                      t, settled_mm=now)]

    def placed_mm(self, t: float) -> dict[str, tuple[float, float]]:
        """Where the referee places each coin on the table after the frame at `t`: the
        tracker's position of every coin seen then, under a hand, or missed for less than
        MISSED_S; not a coin whose place shows empty once a hand has been over it
        (`_untouched`), nor one that left the table (one that slid over the edge is left out
        at once, before its flick closes)."""
        if self.tracker is None:
            return {}
        return {c: track.position_mm for c, track in self.tracker.tracks.items()
                if not track.gone and c not in self.off_table
                and (track.hidden or t - track.last_seen < MISSED_S or self._untouched(track))
                and self.layout.on_table(track.position_mm) and not self._over_edge(c, t)}

    def _untouched(self, track: CoinTrack) -> bool:
        """Was this unseen coin last seen at rest, and has no hand been over its place
        since?  Then nothing took it: a sleeve of the cloth's colour hides it without
        showing as a hand (strike at look 111: Ace, under one for 0.2 s twice)."""
        return track.speed_mm_s < RESTING_MM_S and not self._hand_came(
            track.position_mm, track.last_seen, reach_mm=self.layout.coin_mm / 4.0)

    def _over_edge(self, coin: str, t: float) -> bool:
        """Did this coin, unseen at `t`, slide off the table after its last two sightings?"""
        seen = self.tracks[coin][-2:]
        if len(seen) < 2 or seen[-1][0] >= t:
            return False
        (t0, *p0), (t1, *p1) = seen
        ahead = np.add(p1, np.subtract(p1, p0) * (t - t1) / (t1 - t0))
        return not self.layout.on_table(tuple(ahead))

    def finish(self, t: float) -> list[ev.Event]:
        """Close a flick still open when the video ends."""
        return self._close(t + self.config.dwell_s) if self.active or self.placed else []


def _first_moved(window: FlickWindow) -> float:
    """The first frame of a window's motions (its launch, for a coin no frame saw move).
    A window moving before the last close's frame was that close's; one whose motion's
    first frame is the close's own was not (the close saw that frame at rest: only the
    frames after it show the coin leaving).  Not the fitted launch, up to a frame before
    its first frame: a flick whose first frame the last close fell on (the dwell after a
    hand's pull on another coin ran out there) was dropped whole (gate run at look 542:
    Moons' second flick, fitted to leave 1 ms before that close, never reported)."""
    return min(m.t_start if m.seen_from is None else m.seen_from
               for m in window.motions.values())


def _one_hiding(placed: list[Placed], dwell_s: float) -> list[Placed]:
    """The coins seen again away from where a hand hid them, with a coin hidden again
    within `dwell_s` of being seen taken as hidden all along, from the first hiding to where
    the last ends: it never left the hand (tower hit at look 236: Moons, in the grasping
    fingers for a frame 7 mm off, was "flicked from under them", then lifted; and one put
    down and hidden again at once goes where it ends).  Seen at rest longer between, it
    was put down, and hidden again by what came next (tower hit at look 208: Moons put
    down, then flicked from under the fingers 1.7 s later, was read as put down where the
    flick sent it)."""
    out: list[Placed] = []
    last: dict[str, int] = {}
    for moved in placed:
        k = last.get(moved.coin)
        if k is not None and moved.t_hid - out[k].t_back < dwell_s:
            out[k] = replace(moved, t_hid=out[k].t_hid, from_mm=out[k].from_mm)
            continue
        last[moved.coin] = len(out)
        out.append(moved)
    return out


def _without_drags(windows: list[FlickWindow]) -> list[FlickWindow]:
    """The windows without a coin's motion that is a fingertip's drag of its blob (no
    farther than FINGER_DRAG_MM, never at FINGER_MM_S) just before that coin's next motion
    (within DRAG_BEFORE_S): the finger rested against the coin, then flicked it (tower hit
    at look 208: Moons' blob dragged 4.9 mm, read as a flick of its own 0.3 s before the
    one from under the fingers)."""
    starts = [(m.t_start, c) for w in windows for c, m in w.motions.items()]

    def dragged(coin: str, motion: Motion) -> bool:
        return motion.end_mm is not None and not motion.unseen and \
            math.dist(motion.start_mm, motion.end_mm) <= FINGER_DRAG_MM and \
            all(slide.speed0 < FINGER_MM_S for slide in motion.slides) and \
            any(c == coin and motion.t_start < t0 <= motion.t_end + DRAG_BEFORE_S
                for t0, c in starts)

    return [w for w in (_without(w, {c for c, m in w.motions.items() if dragged(c, m)})
                        for w in windows) if w.motions]


def _without(window: FlickWindow, coins: set[str]) -> FlickWindow:
    """A window without these coins: no slide, no rest (carried by a hand meanwhile, or
    moved unseen, whose slide is put in their place)."""
    return replace(window, motions={c: m for c, m in window.motions.items() if c not in coins},
                   rest_mm={c: p for c, p in window.rest_mm.items() if c not in coins},
                   settled_mm={c: p for c, p in window.settled_mm.items() if c not in coins})


def _at_rest_on_towers(window: FlickWindow, layout: Layout) -> FlickWindow:
    """A window whose coins that "slid" from a tower's top to the same top rest there: no
    flick moves a coin on a tower (a prisoner leaves it in a hand), and no coin sliding on
    the table reaches it; what moved is the prisoner's reading on the white tile (capture
    at look 134: 4 mm from frame to frame, an invented flick; at look 413, 5 mm two frames
    before the video ended, still "moving" then).  It rests where it was last."""
    return _rested(window, {c: m for c, m in window.motions.items()
                            if (top := layout.stack_at(m.start_mm)) is not None
                            and top == layout.stack_at(_last_mm(m))})


def _last_mm(motion: Motion) -> tuple[float, float]:
    """Where a coin rests after its motion, or, when it never came to rest in view, where
    it was last."""
    if motion.end_mm is not None:
        return motion.end_mm
    x, y = motion.position(motion.t_end)
    return float(x), float(y)


def _rested(window: FlickWindow, still: Mapping[str, Motion]) -> FlickWindow:
    """The window with these coins' motions taken for readings of a coin at rest: each was
    where its motion starts and rests where it was last."""
    if not still:
        return window
    return replace(_without(window, set(still)),
                   rest_mm={**window.rest_mm, **{c: m.start_mm for c, m in still.items()}},
                   settled_mm={**window.settled_mm,
                               **{c: _last_mm(m) for c, m in still.items()}})


def stop_seconds(distance_mm: float, decel: float) -> float:
    """How long a coin slides `distance_mm` to a stop, slowing at `decel` (mm/s²)."""
    return math.sqrt(2.0 * distance_mm / decel)


def flicked_unseen(moved: Placed, layout: Layout, decel: float) -> bool:
    """Was a coin seen again away from where a hand hid it flicked there (not carried)?

    Yes where no hand came while it was hidden (a hand puts down what it carries: strike at
    look 107, a near-black coin on near-black cloth unseen all along its slide through four
    gates, back in view 0.6 s after the hand left, was read as lifted and put down; at look
    203, a cream coin on beige cloth back 0.47 s after the flick, sooner than a free slide
    there takes, for Crowns stopped it, was too).  Yes too when it is back in view as soon
    as the hand left its place and either the slide (at μg) fits in the time it was hidden
    or that time is too short for any hand to lift, carry and put down a coin (a slide cut
    short by an impact takes less time than a free one).  Never when it is back on top of
    a tower, where no flick puts a coin, nor when it was hidden on one, which a coin leaves
    in a hand (the demo game's Moons released from tower 1 at 48 s, put down 58 mm away).
    """
    if layout.stack_at(moved.to_mm) is not None or layout.stack_at(moved.from_mm) is not None:
        return False
    if not moved.hand_came:
        return True
    slide_s = stop_seconds(math.dist(moved.from_mm, moved.to_mm), decel)
    hidden_s = moved.t_back - moved.t_hid
    return (moved.t_back - moved.t_freed < FREED_FLICK_S
            and (slide_s <= hidden_s or hidden_s < QUICKEST_CARRY_S))


def hidden_slide(moved: Placed, decel: float, cut_at: float | None = None,
                 rest_mm: tuple[float, float] | None = None) -> Motion:
    """The one slide that takes a coin from where a hand hid it to where it came back, at μg:
    its path is exact (straight, slowing at `decel`), its time only known to lie in the hidden
    interval.  It is put at the latest start the evidence allows: a follow-through
    (FOLLOW_THROUGH_S) before the hand left the coin's place (the finger was at the coin), and
    early enough to stop by the time the coin was seen again.  A player aims with a fingertip
    at the coin, for as long as he likes, and the flick ends the aim.  Where a coin beside
    where it came back began to move at `cut_at`, before that slide would stop, the slide
    struck it then and stopped short (capture at look 245: guard 2, hidden all the way to
    Moons, arrived after Moons had left, and Moons read as flicked out of turn).  One seen
    again still sliding, to come to rest at `rest_mm`, was there at the time it was seen: that
    times the slide (the demo game's Moons at 74.7 s, back 0.13 s into a slide of 0.2 s, was
    put 52 ms early by a slide ending as it was seen again), unless it struck a coin there:
    it came on after the impact (capture at look 203: guard 2, 2 mm on after it struck
    Moons, lost the contact to a free slide ending at its rest)."""
    if cut_at is None and _still_sliding(moved, rest_mm):
        assert rest_mm is not None
        whole = stop_seconds(math.dist(moved.from_mm, rest_mm), decel)
        left = stop_seconds(math.dist(moved.to_mm, rest_mm), decel)  # still to go
        t0 = min(max(moved.t_hid, moved.t_back - (whole - left)), moved.t_back)
        d = math.dist(moved.from_mm, rest_mm)
        u = ((rest_mm[0] - moved.from_mm[0]) / d, (rest_mm[1] - moved.from_mm[1]) / d)
        v0 = decel * whole
        slide = Slide(t0, moved.from_mm, (v0 * u[0], v0 * u[1]), decel, t0 + whole)
        return Motion(moved.coin, [slide], moved.from_mm, rest_mm, unseen=True)
    d = math.dist(moved.from_mm, moved.to_mm)
    duration = stop_seconds(d, decel)
    v0 = decel * duration
    t0 = max(moved.t_hid, min(moved.t_freed - FOLLOW_THROUGH_S, moved.t_back - duration))
    u = ((moved.to_mm[0] - moved.from_mm[0]) / d, (moved.to_mm[1] - moved.from_mm[1]) / d)
    if cut_at is not None and t0 < cut_at < t0 + duration:
        # Stopped short by what it struck: there at `cut_at`, still moving.
        t_hit = cut_at - t0
        v0 = d / t_hit + 0.5 * decel * t_hit
        return Motion(moved.coin, _stopped_at(moved.from_mm, moved.to_mm, t0, v0, cut_at, decel),
                      moved.from_mm, moved.to_mm, unseen=True)
    slide = Slide(t0, moved.from_mm, (v0 * u[0], v0 * u[1]), decel, t0 + duration)
    return Motion(moved.coin, [slide], moved.from_mm, moved.to_mm, unseen=True)


def _still_sliding(moved: Placed, rest_mm: tuple[float, float] | None) -> bool:
    """Was a coin seen again still sliding on (to rest at `rest_mm`)?"""
    return rest_mm is not None and math.dist(moved.from_mm, rest_mm) > \
        math.dist(moved.from_mm, moved.to_mm) + STILL_SLIDING_MM


def traced_slides(from_mm: tuple[float, float], to_mm: tuple[float, float], traced: Traced,
                  decel: float) -> tuple[list[Slide], float]:
    """The slide from `from_mm` to `to_mm` as its trace times it (begun at `traced.t0` at
    `traced.v0_mm_s`), and when it arrived: where it would carry the coin on past `to_mm`,
    what it struck there stopped it (a rest from then: the slides after take over); one
    that would stop a little short is the slide that just gets there, its start kept."""
    d = math.dist(from_mm, to_mm)
    v0 = max(traced.v0_mm_s, math.sqrt(2.0 * decel * d))
    t0 = traced.t0
    # d = v0·t − ½·decel·t²: the earlier root.
    t_hit = t0 + (v0 - math.sqrt(max(0.0, v0 * v0 - 2.0 * decel * d))) / decel
    if v0 * v0 > 2.0 * decel * d:
        return _stopped_at(from_mm, to_mm, t0, v0, t_hit, decel), t_hit
    return [Slide(t0, from_mm, _velocity(from_mm, to_mm, v0), decel, t_hit)], t_hit


def _velocity(from_mm: tuple[float, float], to_mm: tuple[float, float], speed: float
              ) -> tuple[float, float]:
    """A velocity of `speed` from one place toward another."""
    d = math.dist(from_mm, to_mm)
    return (speed * ((to_mm[0] - from_mm[0]) / d), speed * ((to_mm[1] - from_mm[1]) / d))


def _stopped_at(from_mm: tuple[float, float], to_mm: tuple[float, float], t0: float,
                speed: float, t_hit: float, decel: float) -> list[Slide]:
    """A slide begun at `t0` at `speed` from `from_mm`, at `to_mm` still moving at `t_hit`,
    stopped there by what it struck: then a rest there (the slides after take over)."""
    return [Slide(t0, from_mm, _velocity(from_mm, to_mm, speed), decel, t_hit),
            Slide(t_hit, to_mm, (0.0, 0.0), decel, t_hit)]


def _struck_then(windows: list[FlickWindow], moved: Placed, coin_mm: float,
                 frame_dt: float) -> float | None:
    """When a coin resting beside where a coin flicked unseen came back (touching it, a
    diameter and STRUCK_GAP_MM apart) began to move while that coin was hidden (None: no
    such coin): what that coin struck."""
    starts = [m.t_start for w in windows for c, m in w.motions.items()
              if c != moved.coin and moved.t_hid < m.t_start <= moved.t_back + frame_dt
              and math.dist(m.start_mm, moved.to_mm) <= coin_mm + STRUCK_GAP_MM]
    return min(starts, default=None)


def _struck_unseen(event: ev.Event, contacts: list[ev.Contact],
                   hidden: Mapping[str, tuple[float, float]]) -> bool:
    """Is `event` the flick of a coin moved unseen that a contact struck while it was hidden
    (the capture scenario at look 107: Moons, struck by guard 2 under the striker's hand,
    read as flicked out of turn)?  Its move was the strike's, not a flick.  A coin that
    struck first and was struck back after is the one flicked (strikes at looks 107, 203
    and 415: Moons, unseen, struck Crowns, which came back onto it off tower 3)."""
    if not isinstance(event, ev.Flick) or event.coin not in hidden:
        return False
    t_hid, t_back = hidden[event.coin]
    first = min((e for e in contacts if event.coin in (e.a, e.b) and t_hid <= e.t <= t_back),
                key=lambda e: e.t, default=None)
    return first is not None and event.coin not in first.moving


def _unseen_evidence(event: ev.Event, hidden: Mapping[str, tuple[float, float]],
                     traced: Mapping[str, tuple[Traced, float]]) -> ev.Event:
    """A flick no frame saw, and the crossings of its slide.  Hidden by a hand, their times
    are only known to lie in the hidden interval, which goes into their evidence, at
    confidence 0.5 at most (the path is a straight slide from where the coin was hidden to
    where it came back; its timing the latest the evidence allows).  Timed by its trace
    (until it arrived where it was seen again or struck), they are as sure as a slide drawn
    through frames, with the trace's evidence (noise units, frames) and timing spread."""
    if not isinstance(event, ev.Flick | ev.Cross):
        return event
    extra: dict = {}
    sure = 1.0
    if event.coin in hidden:
        t_hid, t_back = hidden[event.coin]
        extra.update(hidden_from=round(t_hid, 4), hidden_until=round(t_back, 4))
        sure = 0.5
    if event.coin in traced and event.t <= traced[event.coin][1] + 1e-6:
        trace = traced[event.coin][0]
        extra.update(trace_score=round(trace.score, 1), trace_frames=trace.frames,
                     sigma_t=round(trace.spread_s, 4))
        sure = UNSEEN_CONFIDENCE
    if not extra:
        return event
    start = {"t_start": event.t} if isinstance(event, ev.Flick) else {}
    return replace(event, confidence=min(event.confidence or 1.0, sure),
                   evidence={**start, **(event.evidence or {}), **extra})


def run(frames: Iterable[Frame], pipeline: Pipeline) -> Iterator[ev.Event]:
    """All events of a frame stream, in order (the replay and the live loop use this)."""
    last_t = 0.0
    for frame in frames:
        last_t = frame.t
        yield from pipeline.process(frame)
    yield from pipeline.finish(last_t)
