"""Cut the coins' observed tracks into flicks: from the first coin leaving rest to all at rest.

A coin is at rest where consecutive centres move less than the noise allows; a flick window
opens when any coin moves and closes once every coin has rested for `dwell_s` (RULES-SPEC §1.1:
300 ms).  Each moving coin's observations in the window are fitted (vision.trajectory) from
its resting place before to its resting place after, or to where it vanished (off the table).
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from referee.vision.reconstruct import FlickWindow
from referee.vision.trajectory import (
    MAX_SPEED_MM_S,
    Motion,
    Obstacle,
    Slide,
    fit_motion,
    launch_speed,
    left_rest,
    off_unseen_impact,
)

Track = Sequence[tuple[float, float, float]]
"""(t, x_mm, y_mm) observations of one coin, in time order."""

BENT_RMS_MM = 5.0
"""A fit whose slide misses its frames by this much (RMS) bends through an impact no frame
saw (`_through_contact`)."""


MOVED_SIGMAS = 6.0
"""A sighting this many noise widths from where a coin rests, or from the sighting before,
moved (two running: one noisy frame never opens a flick)."""


def moving_mask(track: np.ndarray, noise_mm: float) -> np.ndarray:
    """True for observations taken while the coin moved.

    A resting coin has an anchor (the median of its recent resting centres); it starts moving
    when two observations in a row lie more than 6σ from the anchor (one noisy frame never
    opens a flick), and rests again when two steps in a row are within the noise.

    Plain Python over the points: a track is walked one frame at a time, and NumPy's
    per-call cost on eight points was most of a flick's closing time (the web's latency).
    """
    n = len(track)
    mask = np.zeros(n, bool)
    away = still = MOVED_SIGMAS * noise_mm
    if n < 2 or math.hypot(*np.ptp(track[:, 1:], axis=0)) <= away:
        return mask  # all within `away` of each other: none is that far from an anchor
    p = [(float(x), float(y)) for x, y in track[:, 1:]]
    pool: list[tuple[float, float]] = [p[0]]
    moving = False
    for k in range(1, n):
        if not moving:
            ax, ay = _median2(pool[-8:])
            far = math.hypot(p[k][0] - ax, p[k][1] - ay) > away
            far_next = k + 1 >= n or math.hypot(p[k + 1][0] - ax, p[k + 1][1] - ay) > away
            if far and far_next:
                moving = True
                mask[k - 1] = True  # the last resting frame belongs to the motion's start
            else:
                pool.append(p[k])
                continue
        mask[k] = True
        step = math.dist(p[k], p[k - 1])
        step_next = math.dist(p[k + 1], p[k]) if k + 1 < n else 0.0
        if step < still and step_next < still:
            moving = False
            pool = [p[k]]
    return mask


def _median2(points: list[tuple[float, float]]) -> tuple[float, float]:
    """Each axis's median of a few points (as NumPy's: the middle two's mean when even)."""
    return statistics.median(q[0] for q in points), statistics.median(q[1] for q in points)


SPAN_GAP_FRAMES = 3.5
"""A track unseen longer than this many frame intervals is two spans: its motion between
them is no sighting's (a coin moved unseen: `pipeline.Pipeline.process`)."""


def split_spans(track: np.ndarray, frame_dt: float) -> list[np.ndarray]:
    """Pieces of a track seen without a gap longer than three frames."""
    if len(track) == 0:
        return []
    gaps = np.nonzero(np.diff(track[:, 0]) > SPAN_GAP_FRAMES * frame_dt)[0]
    return np.split(track, gaps + 1)


@dataclass
class CoinTrackSplit:
    """One coin's observations with the motion mask and the visibility span of each."""

    obs: np.ndarray
    moving: np.ndarray
    span: np.ndarray
    vanished_moving: list[float]
    """Times the coin was last seen while moving (it left the table or was snatched)."""


def split_track(track: Track, frame_dt: float, noise_mm: float, until: float = math.inf
                ) -> CoinTrackSplit:
    """A coin's track cut into spans seen without a gap, each with its motion mask.  `until`:
    the time the tracks run to (a live flick's close; offline, none)."""
    arr = np.asarray(track, float).reshape(-1, 3)
    spans = split_spans(arr, frame_dt)
    masks, ids, vanished = [], [], []
    for k, span in enumerate(spans):
        mask = moving_mask(span, noise_mm)
        if k and not mask[0] and \
                math.dist(span[0, 1:], spans[k - 1][-1, 1:]) > MOVED_SIGMAS * noise_mm:
            # Seen again elsewhere (a gap's length after): its first sighting there is its
            # motion's when
            # - it moved by the next frame: it did not come to rest there unseen, within a
            #   frame of setting off again (fast flick at look 341: Suns, found back off Arms
            #   2.5 mm from where the next frame saw it, was read as resting there, its run
            #   from its place and four crossings lost);
            # - it was never seen again, for longer than the gap: it slid on out of view
            #   (off-table at look 203: Arms, unseen from its launch, seen once at the
            #   table's edge).  Not one seen just now, back at rest (off-table at look 268:
            #   Ace, its reading pulled 5 mm by a hand passing, then lost under it, back on
            #   its place as the flick closed, "slid on" and flicked).
            mask[0] = bool(mask[1]) if len(span) > 1 else (
                k == len(spans) - 1 and until - span[0, 0] > SPAN_GAP_FRAMES * frame_dt)
        masks.append(mask)
        ids.append(np.full(len(span), k))
        if len(span) and mask[-1]:
            vanished.append(float(span[-1, 0]))
    return CoinTrackSplit(arr, np.concatenate(masks) if masks else np.zeros(0, bool),
                          np.concatenate(ids) if ids else np.zeros(0, int), vanished)


def find_windows(tracks: Mapping[str, Track], frame_dt: float, noise_mm: float = 0.3,
                 dwell_s: float = 0.3, decel: float = 0.30 * 9806.65,
                 after: float = -math.inf, coin_mm: float | None = None,
                 until: float = math.inf, obstacle: Obstacle | None = None
                 ) -> list[FlickWindow]:
    """All flick windows of a session's tracks (offline; the live pipeline cuts the same way)
    that move after `after` (the live pipeline's last closed flick: those before, in the
    history kept for resting places, are not fitted again).  With the coins' diameter
    (`coin_mm`), a coin lost about a contact it made is drawn through it
    (`_through_contact`).  `until`: the time the tracks run to (`split_track`).  With the
    pieces (`obstacle`), a coin first seen coming off one hit it unseen (`fit_motion`)."""
    splits = {c: split_track(tr, frame_dt, noise_mm, until) for c, tr in tracks.items()
              if len(tr)}
    intervals: list[tuple[float, float]] = []
    for sp in splits.values():
        a, mask = sp.obs, sp.moving
        k = 0
        while k < len(a):
            if mask[k]:
                j = k
                while j + 1 < len(a) and mask[j + 1] and sp.span[j + 1] == sp.span[k]:
                    j += 1
                intervals.append((a[k, 0], a[j, 0]))
                k = j + 1
            else:
                k += 1
    intervals.sort()
    merged: list[list[float]] = []
    for lo, hi in intervals:
        if merged and lo <= merged[-1][1] + dwell_s:
            merged[-1][1] = max(merged[-1][1], hi)
        else:
            merged.append([lo, hi])
    return [_window(splits, lo, hi, frame_dt, noise_mm, dwell_s, decel, coin_mm, obstacle)
            for lo, hi in merged if hi > after]


def _resting_before(sp: CoinTrackSplit, lo: float) -> np.ndarray:
    """(N,) True for the sightings of the coin's last rest before `lo`: since it last moved,
    and in view since.  Their median is where it rested: a fingertip merged into its blob
    before a flick drags the centre a millimetre or two for the last frames at rest (eight
    at 60 fps: gate-run, look 100, Moons read 1.1 mm off its place, and its whole first slide
    with it), too few among all of them to move the median."""
    t = sp.obs[:, 0]
    rest = (t < lo) & ~sp.moving
    if not rest.any():
        return rest
    last = int(np.flatnonzero(rest)[-1])
    since = np.flatnonzero(sp.moving[:last] | (sp.span[:last] != sp.span[last]))
    rest[:since[-1] + 1 if len(since) else 0] = False
    return rest


def _window(splits: Mapping[str, CoinTrackSplit], lo: float, hi: float, frame_dt: float,
             noise_mm: float, dwell_s: float, decel: float, coin_mm: float | None = None,
             obstacle: Obstacle | None = None) -> FlickWindow:
    motions: dict[str, Motion] = {}
    seen: dict[str, tuple[np.ndarray, tuple[float, float] | None, float]] = {}
    rest: dict[str, tuple[float, float]] = {}
    settled: dict[str, tuple[float, float]] = {}
    for coin, sp in splits.items():
        a, mask = sp.obs, sp.moving
        t = a[:, 0]
        before = a[_resting_before(sp, lo)]
        start = tuple(np.median(before[:, 1:], axis=0)) if len(before) else tuple(a[0, 1:])
        inside = (t >= lo - 1e-9) & (t <= hi + 1e-9) & mask
        if not inside.any():
            if len(before) or (t <= hi).any():
                rest[coin] = (float(start[0]), float(start[1]))
                after = a[(t > hi) & ~mask]
                if len(after):
                    x, y = np.median(after[:8, 1:], axis=0)
                    settled[coin] = (float(x), float(y))
            continue
        idx = np.nonzero(inside)[0]
        first, last = int(idx[0]), int(idx[-1])
        # At rest after its last motion, seen without a gap since (a coin lost for a few
        # frames earlier in its slide still rests where its last sightings end: a 2.6 m/s
        # flick at look 141 lost Suns for four frames and left it out of the settled places)
        same_span = sp.span == sp.span[last]
        gone = any(abs(v - t[last]) < 1e-9 for v in sp.vanished_moving)
        after = a[(t > t[last]) & ~mask & same_span]
        if gone:  # (unless it came to rest unseen)
            after = _stopped_unseen(sp, last, dwell_s, decel, noise_mm)
        elif len(after) == 1:
            # Seen at rest in one frame only, then unseen (a hand came over it): where it
            # shows again at rest, within what it could still slide, says where it rests
            # (capture at look 390: Moons, off door 3 as the striker's hand came, read 3.4
            # mm off its rest by that one frame, and its bounce there was lost:
            # `trajectory._off_way`).
            again = _stopped_unseen(sp, last, dwell_s, decel, noise_mm)
            after = again if len(again) else after
        end = tuple(np.median(after[:8, 1:], axis=0)) if len(after) else None
        stop = last
        while end is not None and stop + 1 < len(a) and same_span[stop + 1] and stop < last + 3:
            stop += 1
        obs = a[first:stop + 1]
        # Last seen at rest: the sighting before its motion's, if at rest (after the
        # window opened for another coin, it is none of `before`: capture at look 300,
        # Moons seen at rest until guard 2 struck it, 0.2 s after guard 2 set off).
        seen_resting = [float(before[-1, 0])] if len(before) else []
        if first > 0 and not mask[first - 1]:
            seen_resting.append(float(t[first - 1]))
        rested_until = max(seen_resting, default=-math.inf)
        motions[coin] = fit_motion(coin, obs[:, 0], obs[:, 1:],
                                   (float(start[0]), float(start[1])), end, decel, noise_mm,
                                   rested_until=rested_until, obstacle=obstacle)
        seen[coin] = (obs, end, rested_until)
    if coin_mm is not None:
        for coin, (obs, end, rested_until) in seen.items():
            motions[coin] = _through_contact(coin, obs, end, rested_until, motions, coin_mm,
                                             frame_dt, noise_mm, obstacle) or motions[coin]
        for coin, (obs, end, rested_until) in seen.items():
            motions[coin] = _left_when_struck(coin, obs, end, rested_until, motions,
                                              coin_mm, noise_mm) or motions[coin]
    return FlickWindow(motions, rest, frame_dt, noise_mm, t_settled=hi + dwell_s,
                       settled_mm=settled)


STRUCK_GRID_S = 0.0005
"""The step at which a striker's path is searched for where it reaches a resting coin."""


def _left_when_struck(coin: str, obs: np.ndarray, end: tuple[float, float] | None,
                      rested_until: float, motions: Mapping[str, Motion], coin_mm: float,
                      noise_mm: float) -> Motion | None:
    """The coin's motion refitted to leave rest no sooner than another's path reached its
    resting place (a diameter from it), when its fit left before that; None otherwise.

    A coin struck from rest leaves it at the contact.  Seen once before it hit something
    more, its one slide from rest trades a start time for a speed, and the least misfit
    may start it before anything touched it, slower than it went (capture at look 107:
    Moons, struck by guard 2 at 12.098 s, "left" at 12.067 at 344 mm/s against the 500 it
    had, stopped short of door 3, and its hit there was lost)."""
    motion = motions[coin]
    start = np.asarray(motion.start_mm, float)
    gone = left_rest(obs[:, 1:], motion.start_mm, noise_mm)
    if motion.unseen or not len(gone):
        return None
    t_first = float(obs[gone[0], 0])  # (the first frame that saw it away from its place)
    t_struck = math.inf
    for other, striker in motions.items():
        lo = max(striker.t_start, rested_until)
        if other == coin or lo >= t_first:
            continue
        grid = np.arange(lo, t_first, STRUCK_GRID_S)
        gap = np.hypot(*(striker.positions(grid) - start).T) - coin_mm
        touched = np.flatnonzero(gap <= 0.0)
        if len(touched) and touched[0] > 0:
            t_struck = min(t_struck, float(grid[touched[0]]))
    if not motion.t_start < t_struck < t_first:
        return None
    return fit_motion(coin, obs[:, 0], obs[:, 1:], motion.start_mm, end,
                      motion.slides[0].decel, noise_mm, rested_until=t_struck)


STOP_STEPS = 3
"""How many of a coin's last steps say how fast it went before it was lost
(`_stopped_unseen`)."""


def _stopped_unseen(sp: CoinTrackSplit, last: int, dwell_s: float, decel: float,
                    noise_mm: float) -> np.ndarray:
    """The sightings at rest that end a motion last seen sliding (its sighting `last`), when
    the coin came to rest unseen, or seen at rest only once before a hand hid it: its next
    span starts at rest no farther from the last sighting of this one than it could still
    slide, within `dwell_s` of when it would have stopped.  Empty when it did not (it left
    the view: off the table, or a hand took it).

    A slow coin's last frames may be hidden by a sleeve passing beside it (fast flick at
    look 367: Suns, at 150 mm/s, taken into the sleeve's blob for four frames, back 1.5 mm
    on at rest): without its rest it was left out of the settled places, and the rules
    engine forgot it.  Its speed is the most that any of its last STOP_STEPS steps leaves
    it by friction alone: an impact between two sightings makes the last step slow
    whatever the coin did next (strike at look 380: black Moons, back off Crowns, read
    13 mm on from the frame before, as if going forward at 129 mm/s; found at rest 19 mm
    behind, its motion ended unseen and the recoil contact was lost)."""
    a = sp.obs
    nxt = np.flatnonzero(sp.span == sp.span[last] + 1)
    if not len(nxt) or last == 0 or sp.moving[nxt[0]]:
        return a[:0]
    seen = a[max(0, last - STOP_STEPS):last + 1]
    steps = np.diff(seen, axis=0)
    speeds = np.hypot(steps[:, 1], steps[:, 2]) / np.maximum(steps[:, 0], 1e-9)
    since = a[last, 0] - (seen[1:, 0] + seen[:-1, 0]) / 2.0
    speed = max(float(np.max(speeds - decel * since)), float(speeds[-1]))
    reach = speed * speed / (2.0 * decel) + MOVED_SIGMAS * noise_mm
    first = a[nxt[0]]
    if math.dist(first[1:], a[nxt[0] - 1, 1:]) > reach or \
            first[0] - a[last, 0] > speed / decel + dwell_s:
        return a[:0]
    return a[nxt][~sp.moving[nxt]]


def _through_contact(coin: str, obs: np.ndarray, end: tuple[float, float] | None,
                     rested_until: float, motions: Mapping[str, Motion], coin_mm: float,
                     frame_dt: float, noise_mm: float, obstacle: Obstacle | None = None
                     ) -> Motion | None:
    """The coin's motion drawn through a contact no frame saw, or None.

    A coin flicked too fast to be seen all along (a streak too faint over the cloth) may
    be lost from before it struck another until it came back, or seen on either side of
    the contact in too few frames for the partition to break there: no slide runs through
    its frames about it (BENT_RMS_MM).  The coin that set off by itself meanwhile was
    struck by it: it ran straight from where it was last seen (or rested) to touch that
    coin, on the line between them, and on through its frames after (fast flick at look
    306: Suns, of the skin's colour, unseen from its launch until it came back off Arms 300
    mm on, its four crossings lost; at look 223, seen once on its way, its last crossing,
    its contact and both hits lost; at look 342, seen just before and just after the
    contact, the flick put 0.1 s early).  The fit through the contact must fit the frames
    better than the one without it did, at a speed no flick exceeds."""
    motion = motions[coin]
    if _worst_rms(motion) <= BENT_RMS_MM:
        return None
    start = np.asarray(motion.start_mm, float)
    away = np.hypot(*(obs[:, 1:] - start).T) > coin_mm
    best: Motion | None = None
    for other, struck in motions.items():
        t_contact = struck.t_start
        k = int(np.searchsorted(obs[:, 0], t_contact, side="right"))  # (its first after)
        if other == coin or k == len(obs) or t_contact <= rested_until:
            continue  # (no coin it struck set off before it left rest)
        on_way = np.flatnonzero(away[:k])
        if len(on_way):
            last = obs[on_way[-1]]
        else:  # (its last sighting at rest)
            last = obs[k - 1] if k else np.array([rested_until, *start])
            if obs[k, 0] - last[0] < 1.5 * frame_dt:
                continue  # a frame saw it leave rest
        line = np.asarray(struck.start_mm, float) - last[1:]
        run = float(np.hypot(*line)) - coin_mm
        if run <= 0.0:
            continue
        contact = last[1:] + line * run / (run + coin_mm)
        if len(on_way):
            drawn = fit_motion(coin, np.insert(obs[:, 0], k, t_contact),
                               np.insert(obs[:, 1:], k, contact, axis=0), motion.start_mm,
                               end, motion.slides[0].decel, noise_mm,
                               rested_until=rested_until)
        else:
            drawn = _from_rest_to(contact, t_contact, float(last[0]), obs[k:], motion, end,
                                  noise_mm, obstacle)
        if drawn is not None and _worst_rms(drawn) < _worst_rms(motion) and all(
                s.speed0 <= MAX_SPEED_MM_S for s in drawn.slides) and (
                best is None or _worst_rms(drawn) < _worst_rms(best)):
            best = drawn
    return best


def _from_rest_to(contact: np.ndarray, t_contact: float, t_rest: float, seen: np.ndarray,
                  motion: Motion, end: tuple[float, float] | None, noise_mm: float,
                  obstacle: Obstacle | None = None) -> Motion | None:
    """A coin unseen from its launch to a contact: straight from rest to the contact, left
    when it was last seen at rest, then its frames' fit from the contact on (`seen`), by
    way of a piece (`obstacle`) it came off unseen if that explains them; None if it
    cannot have got there so soon."""
    decel = motion.slides[0].decel
    start = (float(contact[0]), float(contact[1]))
    after = fit_motion(motion.coin, np.concatenate([[t_contact], seen[:, 0]]),
                       np.vstack([contact, seen[:, 1:]]), start, end, decel, noise_mm,
                       rested_until=t_contact)
    if obstacle is not None and len(after.slides) == 2:
        # Drawn straight from the contact to its first frame and one slide on: that slide,
        # run back, may come off a piece it met unseen on its way (fast flick at look 606:
        # Suns, unseen from rest until it came off post 34, whose hit was lost).
        pair = off_unseen_impact(seen[:, 0], seen[:, 1:], start, decel, noise_mm, t_contact,
                                 obstacle)
        if pair is not None:
            after = Motion(motion.coin, list(pair), start, end)
    t_left = after.slides[0].t0  # (when it left the contact)
    taken = t_left - t_rest
    way = contact - np.asarray(motion.start_mm, float)
    run = float(np.hypot(*way))
    speed0 = launch_speed(run, taken, decel) if taken > 0.0 else math.inf
    if speed0 > MAX_SPEED_MM_S or speed0 - decel * taken <= 0.0:
        return None
    v0 = way / run * speed0
    launch = Slide(t_rest, motion.start_mm, (float(v0[0]), float(v0[1])), decel, t_left)
    return Motion(motion.coin, [launch, *after.slides], motion.start_mm, end,
                  seen_from=float(seen[0, 0]))


def _worst_rms(motion: Motion) -> float:
    return max(s.rms_mm for s in motion.slides)
