"""What the camera sees at an instant: the interface between the physics and the renderer.

The physics (or a scripted player) produces a :class:`SceneTimeline`; the renderer asks it for
the scene at any time (it integrates motion blur over the exposure by sampling several times
within one frame), so the timeline must answer exact poses at arbitrary times, not only at
frame times.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

Point = tuple[float, float]


@dataclass(frozen=True)
class CoinPose:
    """One coin at one instant, in table millimetres."""

    coin: str
    """The coin's name (CONTRACT.md: the face it showed at setup, e.g. "moons", "ace")."""
    center_mm: Point
    angle_deg: float
    """Rotation of the coin's art about its centre, counter-clockwise seen from above."""
    face_up: str
    """The face now showing: the coin's setup face, or the other one after a flip."""
    on: str | None = None
    """The stack it rests on (e.g. "tower-2" for a prisoner), or None on the cloth."""
    visible: bool = True
    """False while lifted out of view by a hand, or after it left the table."""


@dataclass(frozen=True)
class HandPose:
    """A player's hand reaching over the table: the fingertip and where the arm comes from."""

    fingertip_mm: Point
    arm_from_mm: Point
    """A point on the table edge (or beyond it) where the arm enters the view."""
    finger_down: bool = False


@dataclass(frozen=True)
class Scene:
    coins: tuple[CoinPose, ...]
    hands: tuple[HandPose, ...] = ()


class SceneTimeline(Protocol):
    """Exact scene at any time in [0, duration] (seconds from the session start)."""

    @property
    def duration(self) -> float: ...

    def at(self, t: float) -> Scene: ...
