"""From the fitted motions of one flick to the physical events of the contract.

Everything is decided on the fitted curves (sub-frame), never on single frames:
- `cross`: roots of the signed distance of a slide to a line, inside the opening;
- `contact`: the first time two coins' centres are one diameter apart where one of them
  breaks its slide (an impact), or a resting coin starts moving next to a moving one;
- `hit`: a break of a slide where the coin touches a fixed piece (tower, tile);
- `flick`: a coin leaving rest that nothing hit; `off_table`: the fitted path leaving the
  table polygon; `settled`: every coin at rest again, with the positions.

Each event carries `confidence` and `evidence` (frames, margin in mm).  When the margin is
within the measurement's own uncertainty, the event is marked `uncertain` (too close to call),
so the referee asks the players instead of guessing.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from referee import events as ev
from referee.layout import Layout
from referee.vision.trajectory import Motion, Obstacle, quadratic_roots

MAX_REBOUND_GAP_MM = 12.0
"""How far a struck coin may travel unseen to a piece beside it before it rebounds."""


@dataclass(frozen=True)
class FlickWindow:
    """One flick's observations after fitting: the moving coins and where the others rest."""

    motions: dict[str, Motion]
    rest_mm: dict[str, tuple[float, float]]
    """Every coin not moving in this window, at its resting place."""
    frame_dt: float
    noise_mm: float = 0.3
    t_settled: float | None = None
    settled_mm: dict[str, tuple[float, float]] = field(default_factory=dict)
    """Where a coin of `rest_mm` rests after the window, where it was seen at rest there: a
    coin struck and stopped at once, nudged a millimetre or two within a frame or two, made
    no motion of its own but lies elsewhere."""


def reconstruct(window: FlickWindow, layout: Layout) -> list[ev.Event]:
    """The window's events in time order (ties: crossings first, §1.3)."""
    out: list[tuple[float, int, ev.Event]] = []
    sigma_t = window.frame_dt / 4.0
    touches = _touches(window, layout)
    touches += _rebounds(window, layout, touches)
    touches = _without_repeats(touches)
    touches += _pushed(window, layout, _struck(window, touches))
    unseen = _unseen_hits(window, layout, touches)
    touches += unseen + _rebounds(window, layout, [f for f in unseen if not f.get("uncertain")])
    struck = _struck(window, touches)
    for touch in touches:
        if touch["piece"] is None:
            out.append((touch["t"], 2, ev.Contact(
                round(touch["t"], 4), touch["a"], touch["b"], tuple(touch["moving"]),
                round(touch["speed"], 1), confidence=touch["confidence"],
                uncertain=touch.get("uncertain", False),
                evidence={"frames": touch["frames"], "gap_mm": touch["gap"]})))
        else:
            out.append((touch["t"], 2, ev.Hit(
                round(touch["t"], 4), touch["a"], touch["piece"], round(touch["speed"], 1),
                confidence=touch["confidence"], uncertain=touch.get("uncertain", False),
                evidence={"frames": touch["frames"], "gap_mm": touch["gap"]})))
    for coin, motion in window.motions.items():
        if coin not in struck:
            # A flick unseen under the fingers is timed only roughly: it came no later than
            # the first contact it made.
            t_flick = min([motion.t_start, *(f["t"] for f in touches if coin in f["moving"])])
            out.append((t_flick, 0, ev.Flick(
                round(t_flick, 4), coin, confidence=0.9,
                evidence={"t_start": round(motion.t_start, 4)})))
        for event in _crossings(coin, motion, layout, window.noise_mm, sigma_t):
            out.append((event.t, 1, event))
        if motion.end_mm is None:
            exit_event = _off_table(coin, motion, layout)
            if exit_event is not None:
                out.append((exit_event.t, 3, exit_event))
    out.sort(key=lambda item: (item[0], item[1]))
    events = [e for _, _, e in out]
    t_end = max((m.t_end for m in window.motions.values()), default=0.0)
    t_settled = window.t_settled if window.t_settled is not None else t_end
    # A moved coin rests where its sightings at rest put it, not where its last slide's fit
    # stops: a fit ends where its frames in motion point (the capture's striking guard 2
    # stopped 6-12 mm off in 9 of 16 looks; `benchmarks.settled_places`).
    positions = {**window.rest_mm, **window.settled_mm}
    for coin, motion in window.motions.items():
        if motion.end_mm is not None:
            positions[coin] = (float(motion.end_mm[0]), float(motion.end_mm[1]))
    events.append(ev.Settled(round(max(t_settled, t_end), 4),
                             {c: (round(p[0], 2), round(p[1], 2))
                              for c, p in sorted(positions.items())}))
    return events


# ------------------------------------------------------------------------------ crossings


UNSEEN_CONFIDENCE = 0.9
"""A crossing on a slide no frame saw is as sure as the flick that drew it."""
INFERRED_CONFIDENCE = 0.8
"""A touch no frame saw, inferred from how the coin came off it (a rebound's direction)."""


def _crossings(coin: str, motion: Motion, layout: Layout, noise_mm: float,
               sigma_t: float) -> list[ev.Event]:
    found: list[ev.Event] = []
    for slide in motion.slides:
        # A slide no frame saw (a launch under the fingers, a run too fast to be seen that
        # ends at a contact it made: `windows._through_contact`) is drawn, not measured.
        unseen = motion.seen_from is not None and slide.t_end <= motion.seen_from
        c0, c = slide.path_coeffs()
        t_hi = min(slide.t_end, slide.t_stop) - slide.t0
        for line in layout.lines.values():
            a = np.asarray(line.a)
            n = np.asarray(line.normal)
            s0 = float((c0 - a) @ n)
            s1, s2 = float(c[0] @ n), float(c[1] @ n)
            for tau in quadratic_roots(s0, s1, s2, 0.0, t_hi):
                point = c0 + c[0] * tau + c[1] * tau * tau
                ab = np.asarray(line.b) - a
                u = float((point - a) @ ab) / float(ab @ ab)
                if not 0.0 <= u <= 1.0:
                    continue
                rate = s1 + 2.0 * s2 * tau
                direction = "+" if rate > 0 else "-"
                # Margins: how far inside the opening, and how far the coin went past the line.
                inside_mm = min(u, 1.0 - u) * line.length
                end = slide.position(min(slide.t_end, slide.t_stop))
                past_mm = abs(float((end - a) @ n)) if slide.t_end >= slide.t_stop else math.inf
                margin = min(inside_mm, past_mm)
                close = margin < 3.0 * noise_mm
                sure = UNSEEN_CONFIDENCE if unseen else 0.99
                evidence = {"margin_mm": round(margin, 2), "sigma_t": round(sigma_t, 4),
                            "rms_mm": round(slide.rms_mm, 2)}
                found.append(ev.Cross(
                    round(slide.t0 + tau, 4), coin, line.name, direction,
                    (round(float(point[0]), 2), round(float(point[1]), 2)),
                    confidence=round(min(1.0, margin / (3.0 * noise_mm)) if close else sure, 3),
                    uncertain=close,
                    evidence={**evidence, "unseen": True} if unseen else evidence))
    return found


# ------------------------------------------------------------------------------ touches


def _touches(window: FlickWindow, layout: Layout) -> list[dict]:
    """Contact onsets (coin–coin and coin–piece) found by running each slide forward.

    A slide ends at an impact; its own path, extended a little past the fitted break, meets
    what it hit at the exact onset even when several impacts fall within one frame.  The
    earliest onset of each slide (within 1.5 frames of its end) is the impact that ended it.
    """
    coin_d = layout.coin_mm
    r = coin_d / 2.0
    dt = window.frame_dt
    found: list[dict] = []
    seen: set[tuple[str, str]] = set()
    for coin, motion in window.motions.items():
        for k, slide in enumerate(motion.slides):
            last = k == len(motion.slides) - 1
            t_lo = slide.t0
            if last:
                t_hi = slide.t_stop if motion.end_mm is not None else slide.t_end + dt
            elif motion.unseen:
                t_hi = slide.t_end  # cut short where it struck (`hidden_slide`): no fit
            else:
                t_hi = min(slide.t_stop, slide.t_end + 1.5 * dt)
            if not math.isfinite(t_hi) or t_hi <= t_lo:
                continue
            grid = np.linspace(t_lo, t_hi, max(8, int((t_hi - t_lo) / 0.0005)))
            path = slide.position(grid)
            best: tuple[float, str, str | None, float] | None = None
            for other in sorted(set(window.motions) | set(window.rest_mm)):
                if other == coin:
                    continue
                other_path = _positions(window, other, grid)
                gap = np.hypot(*(path - other_path).T) - coin_d
                onset = _onset(grid, gap)
                other_motion = window.motions.get(other)
                if other_motion is not None and other_motion.t_start < t_hi + 2 * dt:
                    # A resting coin only starts moving when something hits it: before its
                    # fitted start it stood at its resting place.
                    rest_gap = np.hypot(*(path - np.asarray(other_motion.start_mm)).T) - coin_d
                    rest_onset = _onset(grid, rest_gap)
                    if rest_onset is not None and abs(rest_onset - other_motion.t_start) \
                            < 2.5 * dt and (onset is None or rest_onset < onset):
                        # ...and not after it started: a striker's path fitted as one
                        # slide through the impact meets it late (the capture scenario at
                        # look 104: 47 ms, when the struck coin had left, so the contact
                        # read as no approach at all and the capture was lost).
                        onset = min(rest_onset, other_motion.t_start)
                if onset is not None and (best is None or onset < best[0]):
                    best = (onset, other, None, 0.0)
            lo_xy, hi_xy = path.min(axis=0) - coin_d, path.max(axis=0) + coin_d
            for piece in layout.pieces.values():
                reach = piece.size_mm
                cx, cy = piece.center_mm
                if not (lo_xy[0] - reach <= cx <= hi_xy[0] + reach
                        and lo_xy[1] - reach <= cy <= hi_xy[1] + reach):
                    continue
                gap = square_distance(path, piece.center_mm, piece.size_mm,
                                      piece.angle_deg) - r
                onset = _onset(grid, gap)
                if onset is not None and (best is None or onset < best[0]):
                    best = (onset, piece.name, piece.name, 0.0)
            if best is None:
                continue
            t_on, other, piece, _ = best
            key = (coin, other) if piece else tuple(sorted((coin, other)))
            if piece is None and (key, round(t_on, 2)) in seen:
                continue
            seen.add((key, round(t_on, 2)))
            v = slide.velocity(t_on)
            speed = float(np.hypot(*v))
            frames = [math.floor(t_on / dt), math.ceil(t_on / dt)]
            residual = abs(t_on - slide.t_end) / dt if not last else 0.0
            confidence = round(max(0.5, 0.99 - 0.2 * residual), 3)
            if motion.seen_from is not None and slide.t_end <= motion.seen_from:
                confidence = min(confidence, INFERRED_CONFIDENCE)  # (`off_unseen_impact`)
            if piece is not None:
                found.append({"t": t_on, "a": coin, "b": None, "piece": piece,
                              "moving": [coin], "speed": speed, "frames": frames,
                              "gap": 0.0, "confidence": confidence})
                continue
            moving = [coin] + ([other] if _moving_before(window, other, t_on) else [])
            rel = _approach_speed(window, coin, other, t_on, slide)
            found.append({"t": t_on, "a": coin, "b": other, "piece": None, "moving": moving,
                          "speed": rel, "frames": frames, "gap": 0.0,
                          "confidence": confidence})
    found.sort(key=lambda f: f["t"])
    return _dedupe(found)


SAME_CONTACT_S = 0.01
"""Two reports of one pair's contact this close in time are one contact (two coins that
touched cannot part and meet again sooner)."""
HELD_CONTACT_S = 0.1
"""How long after a pair's contact a crawling re-contact is still that one (`_dedupe`)."""
RECOIL_MM_S = 50.0
"""A striker leaving backwards this fast after a strike was hit back (not noise)."""
DRIVEN_BACK_MM = 5.0
"""A striker at rest this far behind where it struck was driven back (an extrapolated
contact is a few millimetres out)."""
COIN_RESTITUTION = 0.9
"""Between two coins (only to time a contact inferred from the speeds it left)."""


def _struck(window: FlickWindow, touches: list[dict]) -> set[str]:
    """Moving coins set going by a contact: at rest at their first contact (a striker hit
    back later is still the coin that was flicked)."""
    first: dict[str, bool] = {}
    for touch in sorted(touches, key=lambda f: f["t"]):
        if touch["piece"] is None:
            for c in (touch["a"], touch["b"]):
                first.setdefault(c, c not in touch["moving"])
    return {c for c, at_rest in first.items() if at_rest and c in window.motions}


PUSH_GAP_MM = 12.0
"""How far apart two resting coins may stand for one, flicked unseen, to set the other going
before any frame shows the contact."""
PUSH_COS = math.cos(math.radians(25.0))
"""A coin set going by a neighbour leaves along the line of centres, within this angle (the
flick's spin and the fit's noise)."""


UNSEEN_PASS_GAP_MM = 12.0
"""How near the same path may pass where the passer too was hidden (its path there the line
to where it was first seen, straight through the bend of the contact; the demo game, 72.8 s:
6.9 mm): a contact, if the struck coin left along the line of centres, else a question
(`uncertain`)."""
PASS_GAP_MM = 4.0
"""How near a moving coin's fitted path may pass a coin moved unseen for it to have struck
it, beyond three times the fit's own RMS misfit (a fit that smooths over the bend of an
impact shows a grazing contact as a near miss)."""


def _pushed(window: FlickWindow, layout: Layout, struck: set[str]) -> list[dict]:
    """Contacts no frame showed, for coins that seem to start by themselves.

    Under the fingers a flicked coin may meet a neighbour a few millimetres away before it
    is seen at all: the coin that left rest straight away from the other along their line
    of centres was struck by it (a flicked coin moving away from its neighbour would never
    have touched it, and the neighbour would not have moved).  A coin a hand hid while it
    moved (`Motion.unseen`) was struck by a coin whose path passed it.
    """
    found: list[dict] = []
    starters = [c for c in window.motions if c not in struck]
    for b in starters:
        motion_b = window.motions[b]
        if motion_b.unseen:
            passing = _passing(window, layout, b)
            if passing is not None:
                found.append(passing)
                continue
        v = np.asarray(motion_b.slides[0].v0, float)
        speed = float(np.hypot(*v))
        t = motion_b.t_start
        for a in starters:
            apart = _pushed_from(window.motions[a], motion_b, v) if a != b else None
            if apart is None or apart > layout.coin_mm + PUSH_GAP_MM:
                continue
            found.append({"t": t, "a": a, "b": b, "piece": None, "moving": [a],
                          "speed": speed * 2.0 / (1.0 + COIN_RESTITUTION),
                          "frames": _frames(t, window.frame_dt),
                          "gap": round(apart - layout.coin_mm, 2), "confidence": 0.7})
            break
    return found


def _pushed_from(motion_a: Motion, motion_b: Motion, v: np.ndarray) -> float | None:
    """How far coin b's start lies from coin a where b set off along their line of centres
    (`v`: b's launch), or None.  Coin a is where it rested, or, moved unseen, where its
    slide put it as b set off: guard 2, unseen along its whole fast run, came back beside
    Moons as Moons set off, 160 mm from where it was flicked (capture at look 306, Moons'
    move read as a flick out of turn).  Its path is a guess, so where it rested counts too
    (the demo game's Moons at 64.7 s struck Arms 5 mm on and glanced off, under the
    fingers)."""
    places = [motion_a.start_mm]
    if motion_a.unseen:
        places.append(tuple(motion_a.position(motion_b.t_start)))
    aparts = [float(np.hypot(*normal)) for normal in
              (np.subtract(motion_b.start_mm, p) for p in places) if _along(v, normal)]
    return min(aparts, default=None)


UNSEEN_HIT_MM = 10.0
"""A coin moved unseen that rests this close short of a piece straight ahead may have hit it
and come back (a tower hit from a few centimetres rebounds 4-9 mm under the fingers)."""


UNSEEN_STRIKE_MM = 40.0
"""...and one that rests this close short of a coin straight ahead that moved meanwhile may
have struck it and come back (strike at look 107: near-black Moons, unseen all along its
slide, rebounded 31 mm off Crowns, which moved 1.2 mm)."""
NUDGED_MM = 1.0
"""A resting coin this far from where it rested before moved (a resting centre's readings
wander by a few tenths)."""
SURE_REACH = 2.0
"""A coin whose slide no frame saw, stopped short still moving (its trace timed it: the
arrival is known), struck what lies ahead for sure when its speed there would have carried
it at least this many times the gap farther (a tenth off its traced speed still reaches):
strike at look 107, Moons arrived at 920 mm/s, 31 mm short of Crowns, enough for 140 mm."""


def _unseen_hits(window: FlickWindow, layout: Layout, touches: list[dict]) -> list[dict]:
    """Hits and strikes no frame could show, and no frame can rule out: too close to call,
    unless the coin's arrival, timed by its trace, was fast enough to reach them for sure.

    A coin a hand hid while it moved, or one no frame saw sliding, is known only by where it
    left and where it rests: when it rests a few millimetres short of a piece it was heading
    for, it may have stopped there or hit the piece and rebounded; when it rests short of a
    coin straight ahead that moved meanwhile, it may have struck it.  The referee asks the
    players (`uncertain`)."""
    found: list[dict] = []
    for coin, motion in window.motions.items():
        if not motion.unseen or motion.end_mm is None or any(
                f["a"] == coin and f["piece"] is not None for f in touches):
            continue
        # The last slide that moved: one stopped short by what it struck ends in a rest.
        slide = next((s for s in reversed(motion.slides) if s.speed0 > 0), motion.slides[-1])
        end = np.asarray(motion.end_mm, float)
        direction = np.asarray(slide.v0, float) / max(slide.speed0, 1e-9)
        t = min(slide.t_stop, slide.t_end)
        if (ahead := _piece_ahead(layout, end, direction, UNSEEN_HIT_MM)) is not None:
            piece, other, gap_mm = ahead[0], None, ahead[1]
        elif not any(coin in (f["a"], f["b"]) for f in touches) and \
                (struck := _nudged_ahead(window, layout, end, direction)) is not None:
            piece, other, gap_mm = None, struck[0], struck[1]
        else:
            continue
        arriving = slide.speed0 - slide.decel * (t - slide.t0)  # (0: it stopped there)
        if arriving * arriving >= SURE_REACH * 2.0 * slide.decel * gap_mm:
            # Cut short still fast (its slide timed by its trace), with nothing on the
            # cloth between: it went on to strike what was ahead, and came back.
            tau = (arriving - math.sqrt(arriving * arriving - 2.0 * slide.decel * gap_mm)) \
                / slide.decel
            t += tau
            found.append({"t": t, "a": coin, "b": other, "piece": piece, "moving": [coin],
                          "speed": arriving - slide.decel * tau,
                          "frames": _frames(t, window.frame_dt), "gap": round(gap_mm, 2),
                          "confidence": 0.8})
            continue
        found.append({"t": t, "a": coin, "b": other, "piece": piece, "moving": [coin],
                      "speed": math.sqrt(2.0 * slide.decel * gap_mm),
                      "frames": _frames(t, window.frame_dt), "gap": round(gap_mm, 2),
                      "confidence": 0.5, "uncertain": True})
    return found


def _nudged_ahead(window: FlickWindow, layout: Layout, end: np.ndarray,
                  direction: np.ndarray) -> tuple[str, float] | None:
    """The nearest resting coin straight ahead of a coin resting at `end` (its centre within
    a diameter of the line), within UNSEEN_STRIKE_MM of touching it, that moved at least
    NUDGED_MM meanwhile (`settled_mm`); and the gap (mm)."""
    best: tuple[str, float] | None = None
    for other, before in window.rest_mm.items():
        after = window.settled_mm.get(other)
        if after is None or math.dist(before, after) < NUDGED_MM:
            continue
        offset = np.asarray(before, float) - end
        along = float(offset @ direction)
        across = abs(float(offset[0] * direction[1] - offset[1] * direction[0]))
        gap = along - layout.coin_mm
        if along > 0.0 and across < layout.coin_mm and gap <= UNSEEN_STRIKE_MM and \
                (best is None or gap < best[1]):
            best = (other, max(gap, 0.0))
    return best


def _passing(window: FlickWindow, layout: Layout, coin: str) -> dict | None:
    """The contact of the first coin whose path passed the unseen `coin`'s resting place
    within `PASS_GAP_MM` of touching it, before it came to rest elsewhere."""
    motion = window.motions[coin]
    rest = np.asarray(motion.start_mm, float)
    t_rested = motion.t_end
    best: dict | None = None
    for other, passer in window.motions.items():
        if other == coin or passer.unseen or passer.t_start >= t_rested:
            continue
        grid = np.linspace(passer.t_start, min(passer.t_end, t_rested), 400)
        gap = np.array([np.hypot(*(passer.position(t) - rest)) for t in grid]) - layout.coin_mm
        k = int(np.argmin(gap))
        t = float(grid[k])
        # Where the passer was not yet seen either, its path there is only the line from
        # its resting place to where it was first seen: a contact bends it, so it may pass
        # farther off; the contact is then a question for the players.
        guessed = passer.seen_from is not None and t < passer.seen_from
        reach = PASS_GAP_MM + 3.0 * passer.piece_at(t).rms_mm
        if gap[k] > (UNSEEN_PASS_GAP_MM if guessed else reach) or \
                (best is not None and t >= best["t"]):
            continue
        speed = float(np.hypot(*passer.piece_at(t).velocity(t)))
        best = {"t": t, "a": other, "b": coin, "piece": None, "moving": [other],
                "speed": speed, "frames": _frames(t, window.frame_dt),
                "gap": round(max(float(gap[k]), 0.0), 2), "confidence": 0.7}
        if guessed and gap[k] > reach:
            # Where it went tells: a coin struck leaves along the line of centres.
            if _along(np.asarray(motion.slides[-1].v0, float), rest - passer.position(t)):
                best["confidence"] = 0.6
            else:
                best.update(confidence=0.5, uncertain=True)
    return best


def _along(v: np.ndarray, normal: np.ndarray) -> bool:
    """Does a coin going `v` leave along the line of centres `normal` (within PUSH_COS)?"""
    size = float(np.hypot(*v) * np.hypot(*normal))
    return size > 0.0 and float(v @ normal) >= PUSH_COS * size


def _rebounds(window: FlickWindow, layout: Layout, touches: list[dict]) -> list[dict]:
    """Hits of a struck coin on a piece beside it, sooner than a frame could show.

    A spin-free impact pushes the struck coin along the line of centres.  When the coin is
    then seen leaving in another direction, or not moving at all, it met something on the
    way: follow the line of centres from its resting place; a tower or tile within a few
    millimetres is what it hit.
    """
    found: list[dict] = []
    for touch in touches:
        if touch["piece"] is not None:
            continue
        struck = next((c for c in (touch["a"], touch["b"]) if c not in touch["moving"]), None)
        if struck is None:
            continue
        striker = touch["b"] if struck == touch["a"] else touch["a"]
        motion = window.motions.get(struck)
        rest = np.asarray(motion.start_mm if motion else window.rest_mm[struck], float)
        normal = rest - _position(window, striker, touch["t"])
        normal /= max(float(np.hypot(*normal)), 1e-9)
        if motion is not None:
            seen = np.asarray(motion.slides[0].v0, float)
            if float(seen @ normal) > 0.9 * float(np.hypot(*seen)):
                continue  # it left along the line of centres: nothing in between
        # (a struck coin seen not to move at all was stopped at once)
        ahead = _piece_ahead(layout, rest, normal, MAX_REBOUND_GAP_MM)
        if ahead is None:
            continue
        piece, gap_mm = ahead
        speed = max(float(touch["speed"]), 1.0)
        t_hit = touch["t"] + gap_mm / speed
        if any(f["a"] == struck and f["piece"] == piece
               and abs(f["t"] - t_hit) < window.frame_dt for f in [*touches, *found]):
            continue  # the same impact, already seen or inferred
        found.append({"t": t_hit, "a": struck, "b": None, "piece": piece,
                      "moving": [struck], "speed": speed,
                      "frames": _frames(t_hit, window.frame_dt),
                      "gap": round(gap_mm, 2), "confidence": 0.8})
        back = _recontact(window, striker, struck, touch["t"], normal, t_hit, gap_mm,
                          rest - normal * layout.coin_mm)
        if back is not None:
            found.append(back)
    return found


def _piece_ahead(layout: Layout, start: np.ndarray, direction: np.ndarray, reach_mm: float
                 ) -> tuple[str, float] | None:
    """The piece a coin centred at `start` touches first going along the unit `direction`
    within `reach_mm` (to a tenth of a millimetre), and how far it went; None if none."""
    r = layout.coin_mm / 2.0
    steps = np.linspace(0.0, reach_mm, round(reach_mm / 0.1) + 1)
    path = np.asarray(start, float) + np.outer(steps, direction)
    for piece in layout.pieces.values():
        gap = square_distance(path, piece.center_mm, piece.size_mm, piece.angle_deg) - r
        touching = np.nonzero(gap <= 0.0)[0]
        if len(touching):
            return piece.name, float(steps[touching[0]])
    return None


def piece_obstacle(layout: Layout) -> Obstacle:
    """The layout's pieces as `fit_motion` asks of them: how far a coin goes along a way
    before it touches one (`_piece_ahead`), and that piece's outward normal there."""
    def touched(centre: np.ndarray, direction: np.ndarray, reach_mm: float
                ) -> tuple[float, np.ndarray] | None:
        ahead = _piece_ahead(layout, centre, direction, reach_mm)
        if ahead is None:
            return None
        name, run = ahead
        piece = layout.pieces[name]
        return run, square_normal(centre + direction * run, piece.center_mm, piece.size_mm,
                                  piece.angle_deg)
    return touched


def _frames(t: float, frame_dt: float) -> list[int]:
    """The two frames either side of an instant (an inferred event's evidence)."""
    return [math.floor(t / frame_dt), math.ceil(t / frame_dt)]


def _recontact(window: FlickWindow, striker: str, struck: str, t_touch: float,
               normal: np.ndarray, t_hit: float, gap_mm: float, struck_from: np.ndarray
               ) -> dict | None:
    """The struck coin, back from the piece it hit, striking the striker again.

    A coin cannot drive back the coin it struck head-on (its velocity along the line of
    centres stays ≥ 0); when the striker is seen leaving backwards, or comes to rest behind
    where it struck (`_driven_back`; `struck_from`: its centre at the contact), the struck
    coin came back from the piece and hit it.
    It had `gap_mm` to travel back, at about the speed it gave (equal masses: the striker
    leaves with (1 + e)/2 of it, e ≈ 0.9 between coins).
    """
    motion = window.motions.get(striker)
    if motion is None:
        return None
    # The striker's slides that begin around the strike and a few frames after it.
    later = [sl for sl in motion.slides[1:]
             if t_touch - window.frame_dt < sl.t0 <= t_touch + 3.0 * window.frame_dt]
    away = max((-float(np.asarray(sl.v0) @ normal) for sl in later), default=0.0)
    if away < RECOIL_MM_S:
        away = _driven_back(motion, struck_from, normal)
    if away < RECOIL_MM_S:
        return None  # not driven back
    speed = away * 2.0 / (1.0 + COIN_RESTITUTION)
    t = t_hit + gap_mm / speed
    return {"t": t, "a": struck, "b": striker, "piece": None, "moving": [struck],
            "speed": speed, "frames": _frames(t, window.frame_dt), "gap": 0.0,
            "confidence": 0.7}


def _driven_back(motion: Motion, struck_from: np.ndarray, normal: np.ndarray) -> float:
    """The speed a striker no frame saw driven back left its strike with, backwards along
    the line of centres `normal`, if it came to rest more than DRIVEN_BACK_MM behind where
    it struck (`struck_from`; 0 otherwise): it slid that far against friction.  Strike at
    look 430: black Moons, seen in one frame of three, struck Crowns, which hit tower 3 a
    centimetre on and came back onto it; Moons was next seen at rest 30 mm behind the
    strike, and the re-contact was lost."""
    if motion.end_mm is None:
        return 0.0
    back_mm = float((struck_from - np.asarray(motion.end_mm, float)) @ normal)
    if back_mm <= DRIVEN_BACK_MM:
        return 0.0
    return math.sqrt(2.0 * motion.slides[-1].decel * back_mm)


def _dedupe(found: list[dict]) -> list[dict]:
    """Both coins of one impact may report it: keep the first report of each pair and time.

    A pair's second onset soon after its first, at a crawl (slower than a striker hit back
    leaves, `RECOIL_MM_S`), is the first contact still held within the paths' errors: the
    striker following the coin it struck to rest beside it, not a new impact.  So is one
    where the coin it struck still rests: a struck coin moves off, and its path, fitted
    over a frame or two, set off late (capture at look 453: 24 ms)."""
    def held(f: dict, g: dict) -> bool:
        return 0 < f["t"] - g["t"] < HELD_CONTACT_S and (
            f["speed"] < RECOIL_MM_S
            or (f["a"] == g["a"] and f.get("moving") == g.get("moving") == [f["a"]]))

    out: list[dict] = []
    for f in found:
        if f["piece"] is None and any(
                g["piece"] is None and {g["a"], g["b"]} == {f["a"], f["b"]}
                and (abs(g["t"] - f["t"]) < SAME_CONTACT_S or held(f, g))
                for g in out):
            continue
        out.append(f)
    return out


def _without_repeats(touches: list[dict]) -> list[dict]:
    """The touches but a striker's second onset on the coin it struck, within HELD_CONTACT_S
    of the first, where that coin is reported coming back onto it within the same span: the
    struck coin, stopped by a tower a centimetre on, returns within the frame, and the
    striker's path and its own each report that one re-contact (strike at looks 192 and
    282: a second strike 10 ms after the first)."""
    def repeated(f: dict) -> bool:
        return f["piece"] is None and any(
            g["piece"] is None and (g["a"], g["b"]) == (f["a"], f["b"])
            and 0 < f["t"] - g["t"] < HELD_CONTACT_S
            and any(h["piece"] is None and (h["a"], h["b"]) == (f["b"], f["a"])
                    and g["t"] < h["t"] < g["t"] + HELD_CONTACT_S for h in touches)
            for g in touches)
    return [f for f in touches if not repeated(f)]


def _onset(grid: np.ndarray, gap: np.ndarray) -> float | None:
    """First time the gap closes after having been open (> 0.3 mm): a contact onset."""
    open_ = gap > 0.3
    if not open_.any():
        return None
    first_open = int(np.argmax(open_))
    closed = np.nonzero(gap[first_open:] <= 0.0)[0]
    if not len(closed):
        return None
    k = first_open + int(closed[0])
    g0, g1 = gap[k - 1], gap[k]
    return float(grid[k - 1] + (grid[k] - grid[k - 1]) * g0 / (g0 - g1))


def _position(window: FlickWindow, coin: str, t: float) -> np.ndarray:
    if coin in window.motions:
        return window.motions[coin].position(t)
    return np.asarray(window.rest_mm[coin], float)


def _positions(window: FlickWindow, coin: str, t: np.ndarray) -> np.ndarray:
    """`_position` at each of the ascending times `t` (N×2), a slide at a time."""
    if coin in window.motions:
        return window.motions[coin].positions(t)
    return np.tile(np.asarray(window.rest_mm[coin], float), (len(t), 1))


def _beyond_square(points: np.ndarray, center: tuple[float, float], size: float,
                   angle_deg: float) -> tuple[np.ndarray, float, float]:
    """How far each point (N×2) lies beyond a (rotated) filled square along its own axes
    (zero inside), and the rotation's cosine and sine."""
    rad = math.radians(angle_deg)
    c, s_ = math.cos(rad), math.sin(rad)
    d = np.asarray(points, float).reshape(-1, 2) - np.asarray(center)
    local = np.stack([c * d[:, 0] + s_ * d[:, 1], -s_ * d[:, 0] + c * d[:, 1]], axis=1)
    return local - np.clip(local, -size / 2.0, size / 2.0), c, s_


def square_distance(points: np.ndarray, center: tuple[float, float], size: float,
                    angle_deg: float) -> np.ndarray:
    """Distance from each point to a (rotated) filled square, vectorised."""
    outside, _, _ = _beyond_square(points, center, size, angle_deg)
    return np.hypot(outside[:, 0], outside[:, 1])


def square_normal(point: np.ndarray, center: tuple[float, float], size: float,
                  angle_deg: float) -> np.ndarray:
    """The unit normal of a (rotated) square's outline toward a point outside it: from the
    outline's nearest point to the point (at a corner, the corner's own direction)."""
    outside, c, s_ = _beyond_square(point, center, size, angle_deg)
    n = outside[0] / max(float(np.hypot(*outside[0])), 1e-9)
    return np.array([c * n[0] - s_ * n[1], s_ * n[0] + c * n[1]])


def _moving_before(window: FlickWindow, coin: str, t: float) -> bool:
    """Was the coin already moving well before t (not just set moving by this impact)?"""
    motion = window.motions.get(coin)
    return motion is not None and motion.t_start < t - 2.5 * window.frame_dt and _speed(
        window, coin, t - 1e-4) > 1.0


def _speed(window: FlickWindow, coin: str, t: float) -> float:
    if coin not in window.motions:
        return 0.0
    motion = window.motions[coin]
    if t < motion.t_start:
        return 0.0
    return float(np.hypot(*motion.piece_at(t).velocity(t)))


def _approach_speed(window: FlickWindow, a: str, b: str, t: float, slide) -> float:
    pa, pb = slide.position(t), _position(window, b, t)
    normal = (pb - pa) / max(float(np.hypot(*(pb - pa))), 1e-9)
    va = slide.velocity(t)
    vb = (window.motions[b].piece_at(t - 1e-4).velocity(t - 1e-4)
          if b in window.motions and t - 1e-4 >= window.motions[b].t_start else np.zeros(2))
    return max(0.0, float((va - vb) @ normal))


def _off_table(coin: str, motion: Motion, layout: Layout) -> ev.Event | None:
    """Where the last slide's centre leaves the table polygon (the coin falls there)."""
    last = motion.slides[-1]
    t_hi = last.t_stop if math.isfinite(last.t_stop) else last.t_end + 1.0
    grid = np.linspace(last.t0, t_hi, 400)
    inside = [layout.on_table(tuple(p)) for p in last.position(grid)]
    for k in range(1, len(grid)):
        if inside[k - 1] and not inside[k]:
            lo, hi = grid[k - 1], grid[k]
            for _ in range(40):
                mid = 0.5 * (lo + hi)
                if layout.on_table(tuple(last.position(mid))):
                    lo = mid
                else:
                    hi = mid
            at = last.position(hi)
            return ev.OffTable(round(float(hi), 4), coin, (round(float(at[0]), 2),
                                                           round(float(at[1]), 2)),
                               confidence=0.95)
    return None

