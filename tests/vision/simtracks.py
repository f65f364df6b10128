"""Simulated sessions observed as a camera would: exact tracks sampled per frame, plus noise."""

from __future__ import annotations

import numpy as np

from referee.events import Event
from referee.sim.scenarios import scenario
from referee.sim.script import Session, play


def observe(name: str, fps: float, noise_mm: float = 0.3, seed: int = 1
            ) -> tuple[Session, dict[str, list[tuple[float, float, float]]]]:
    session = play(scenario(name), seed=seed)
    rng = np.random.default_rng(seed)
    tracks: dict[str, list[tuple[float, float, float]]] = {}
    for t, coin, x, y in session.tracks(fps):
        tracks.setdefault(coin, []).append(
            (t, x + rng.normal(0.0, noise_mm), y + rng.normal(0.0, noise_mm)))
    return session, tracks


def of_type(events: list[Event], *types: str) -> list[Event]:
    return [e for e in events if e.type in types]
