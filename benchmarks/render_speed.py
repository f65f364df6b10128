"""Seconds per rendered frame, and a demo scene for docs/img/sim-frame.png.

    .venv/bin/python benchmarks/render_speed.py                  # 720p30, 90 frames
    .venv/bin/python benchmarks/render_speed.py --size 1080p --frames 60
    .venv/bin/python benchmarks/render_speed.py --png docs/img/sim-frame.png --seed 9 \
        --png-width 720

The demo timeline is self-contained (no physics): the eight Castle Croquetnole coins on their
spots, a prisoner on a tower, two touching coins, a flipped coin, one coin sliding fast and a
hand that reaches in, flicks and withdraws.  It exercises everything the renderer draws.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import cv2

from referee.layout import Layout, castle_croquetnole_layout
from referee.sim.look import Look
from referee.sim.render import SIZES, Renderer
from referee.sim.scene import CoinPose, HandPose, Scene


@dataclass(frozen=True)
class DemoTimeline:
    """Coins at rest on their spots; the knight of castle 1 is flicked north again and again."""

    layout: Layout
    duration: float = 60.0
    period_s: float = 4.0

    def at(self, t: float) -> Scene:
        lay = self.layout
        coins = []
        c1 = lay.castles[1]
        for k, castle in lay.castles.items():
            if k != 1:
                coins.append(CoinPose(castle.knight, castle.knight_spot, 20.0 * k, castle.knight))
            coins.append(CoinPose(castle.guard, castle.guard_spot, -15.0 * k,
                                  castle.guard if k != 3 else "crowns"))
        # a prisoner on tower 2 and two touching coins beside castle 4
        coins.append(CoinPose("5", lay.castles[2].tower_slots[1], 40.0, "5", on="tower-2"))
        x, y = lay.castles[4].guard_spot
        coins.append(CoinPose("null", (x, y - 60.0), 10.0, "null"))
        coins.append(CoinPose("suns-2", (x + lay.coin_mm, y - 60.0), 70.0, "suns"))
        # the flick: hand reaches (0-1.2 s), flicks at 1.2 s, withdraws; coin slides 1.2-2.4 s
        phase = t % self.period_s
        start = (c1.knight_spot[0], c1.knight_spot[1])
        v0, decel = 900.0, 750.0  # mm/s, mm/s² (slides 540 mm)
        tau = min(max(phase - 1.2, 0.0), v0 / decel)
        dist = v0 * tau - 0.5 * decel * tau * tau
        pos = (start[0] + 0.25 * dist, start[1] + dist)
        coins.append(CoinPose(c1.knight, pos, 30.0 + 200.0 * dist / 100.0, c1.knight))
        hands = []
        edge = (start[0] + 160.0, -lay.table[2][1] - 250.0)
        behind = (start[0] - 0.25 * 12.0, start[1] - 12.0)
        if phase < 2.0:
            if phase < 1.2:
                f = 0.5 - 0.5 * math.cos(math.pi * phase / 1.2)
                tip = (edge[0] + (behind[0] - edge[0]) * f, edge[1] + (behind[1] - edge[1]) * f)
            else:
                g = min((phase - 1.2) / 0.8, 1.0)
                tip = (behind[0] + (edge[0] - behind[0]) * g, behind[1] + (edge[1] - behind[1]) * g)
            hands.append(HandPose(tip, (start[0] + 220.0, -lay.table[2][1] - 60.0),
                                  finger_down=1.0 < phase < 1.3))
        return Scene(tuple(coins), tuple(hands))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", default="720p", choices=sorted(SIZES))
    parser.add_argument("--fps", type=float, default=30.0)
    parser.add_argument("--frames", type=int, default=90)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--png", type=Path, help="save the frame at --at seconds and exit")
    parser.add_argument("--at", type=float, default=1.1)
    parser.add_argument("--png-width", type=int, help="shrink the saved frame to this width")
    parser.add_argument("--png-crop", help="save only x,y,w,h of the frame (native pixels)")
    parser.add_argument("--threads", type=int, default=1, help="OpenCV threads (default 1)")
    args = parser.parse_args(argv)
    cv2.setNumThreads(args.threads)
    layout = castle_croquetnole_layout()
    look = Look.random(args.seed)
    timeline = DemoTimeline(layout)
    t0 = time.process_time()
    renderer = Renderer(layout, look, SIZES[args.size], args.fps)
    setup = time.process_time() - t0
    if args.png:
        frame = renderer.frame(timeline, round(args.at * args.fps))
        if args.png_crop:
            x, y, w, h = (int(v) for v in args.png_crop.split(","))
            frame = frame[y:y + h, x:x + w]
        if args.png_width:
            height = round(frame.shape[0] * args.png_width / frame.shape[1])
            frame = cv2.resize(frame, (args.png_width, height), interpolation=cv2.INTER_AREA)
        args.png.parent.mkdir(parents=True, exist_ok=True)
        cv2.imwrite(str(args.png), frame, [cv2.IMWRITE_PNG_COMPRESSION, 9])
        print(f"wrote {args.png} ({args.png.stat().st_size // 1024} KB)")
        return 0
    # frames spread over the whole clip, so hand-in-view and quiet frames both count
    total = renderer.frame_count(timeline)
    picks = [round(i * (total - 1) / max(args.frames - 1, 1)) for i in range(args.frames)]
    t1, c1 = time.perf_counter(), time.process_time()
    for i in picks:
        renderer.frame(timeline, i)
    per = (time.perf_counter() - t1) / args.frames
    cpu = (time.process_time() - c1) / args.frames
    print(f"{args.size}@{args.fps:g}, {args.threads} OpenCV thread(s), seed {args.seed}: "
          f"setup {setup:.2f} s; {cpu * 1000:.1f} ms CPU/frame ({per * 1000:.1f} ms wall) over "
          f"{args.frames} frames spread over the clip; a 60 s clip ≈ "
          f"{setup + cpu * 60 * args.fps:.0f} s of CPU")
    return 0


if __name__ == "__main__":
    sys.exit(main())
