"""One validated container for a frame's coin detections, in table millimetres.

Parallel arrays (as supervision keeps them), filterable with a boolean mask.  Pixels never
reach here: the detector maps centres to table millimetres before it builds the container.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np


@dataclass(frozen=True)
class Detections:
    center_mm: np.ndarray
    """(N, 2) centres on the table plane."""
    radius_mm: np.ndarray = field(default_factory=lambda: np.zeros(0))
    """(N,) apparent radius (a blurred coin looks longer, not wider)."""
    streak_mm: np.ndarray = field(default_factory=lambda: np.zeros(0))
    """(N,) length of the motion streak beyond the coin's own diameter (0 when sharp)."""
    streak_dir: np.ndarray = field(default_factory=lambda: np.zeros((0, 2)))
    """(N, 2) unit direction of the streak (its sign is unknown)."""
    look: np.ndarray = field(default_factory=lambda: np.zeros((0, 0)))
    """(N, K) appearance descriptor (colour signature of the face), for re-identification."""
    confidence: np.ndarray = field(default_factory=lambda: np.zeros(0))
    by_hand: np.ndarray = field(default_factory=lambda: np.zeros(0))
    """(N,) 1 where the blob touches a hand: a fingertip may be merged into it, so its
    centre may be off by a few millimetres."""
    hand_look: np.ndarray = field(default_factory=lambda: np.zeros(0))
    """(N,) look distance to the frame's hands (their mean colour; inf with no hand): a
    blob nearer the hand's look than the coin's is a fingertip or a cuff, not that coin."""

    def __post_init__(self) -> None:
        n = len(self.center_mm)
        center = np.asarray(self.center_mm, float).reshape(n, 2)
        object.__setattr__(self, "center_mm", center)
        defaults = {"radius_mm": np.zeros(n), "streak_mm": np.zeros(n),
                    "streak_dir": np.zeros((n, 2)), "look": np.zeros((n, 0)),
                    "confidence": np.ones(n), "by_hand": np.zeros(n),
                    "hand_look": np.full(n, np.inf)}
        for name, default in defaults.items():
            value = np.asarray(getattr(self, name), float)
            if value.size == 0 and n > 0:
                value = default
            if len(value) != n and not (n == 0 and value.size == 0):
                raise ValueError(f"Detections.{name} has {len(value)} rows, centres have {n}")
            object.__setattr__(self, name, value if n else default)

    def __len__(self) -> int:
        return len(self.center_mm)

    @property
    def streaked(self) -> np.ndarray:
        """(N,) True for blobs blurred longer than a radius beyond a coin's diameter: a
        coin's motion streak, whose look drifts toward the cloth's."""
        return self.streak_mm > self.radius_mm

    def __getitem__(self, mask: np.ndarray | slice | list[int]) -> Detections:
        return Detections(self.center_mm[mask], self.radius_mm[mask], self.streak_mm[mask],
                          self.streak_dir[mask], self.look[mask], self.confidence[mask],
                          self.by_hand[mask], self.hand_look[mask])

    def extended(self, other: Detections) -> Detections:
        """These detections followed by `other`'s."""
        if not len(self) or not len(other):
            return other if len(other) else self
        return Detections(*(np.concatenate([getattr(self, name), getattr(other, name)])
                            for name in ("center_mm", "radius_mm", "streak_mm", "streak_dir",
                                         "look", "confidence", "by_hand", "hand_look")))

    def subset(self, keep: np.ndarray) -> Detections:
        """The detections where `keep` (N bools) is true."""
        return Detections(*(getattr(self, name)[keep] for name in
                            ("center_mm", "radius_mm", "streak_mm", "streak_dir", "look",
                             "confidence", "by_hand", "hand_look")))

    @staticmethod
    def empty() -> Detections:
        return Detections(np.zeros((0, 2)))


def near_any(centers: np.ndarray, points: np.ndarray | Sequence[tuple[float, float]],
             within: float | np.ndarray) -> np.ndarray:
    """(N,) True for each centre closer than `within` (per centre, or one value) to any of
    the points."""
    points = np.asarray(points, float).reshape(-1, 2)
    if not len(points) or not len(centers):
        return np.zeros(len(centers), bool)
    d = np.hypot(*(centers[:, None, :] - points[None]).transpose(2, 0, 1))
    return (d < np.reshape(within, (-1, 1))).any(axis=1)
