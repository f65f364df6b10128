"""The alternatives a user could pick, on the same detections: SORT, norfair, HoughCircles.

- `Sort`: SORT (Bewley et al. 2016) for points: a constant-velocity Kalman filter per track,
  Hungarian assignment (scipy) inside a distance gate, a track born after `min_hits`
  consecutive hits and dropped after `max_age` frames unseen.  Boxes become points because a
  coin's box is its centre ± its radius: IoU would be a distance gate anyway.
- `Norfair`: norfair-enough (the maintained fork of tryolabs/norfair: the original's last
  release pins numpy < 2) with its Euclidean point distance.
- `HoughDetector`: OpenCV's HoughCircles as a drop-in for `CoinDetector` (same interface), so
  the pipeline and our tracker run on its circles.

Each tracker takes a frame's `Detections` (table mm) and returns {track id: position mm}.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import cv2
import numpy as np
from norfair import Detection, Tracker
from scipy.optimize import linear_sum_assignment

from referee.layout import Layout
from referee.vision.detect import COIN_HEIGHT_MM, PixelMapping
from referee.vision.detections import Detections

GATE_MM = 50.0
"""Largest jump matched to a track: a 1.5 m/s coin at 30 fps (the peers' one tuned figure)."""


class _Track:
    F = np.block([[np.eye(2), np.eye(2)], [np.zeros((2, 2)), np.eye(2)]])
    H = np.hstack([np.eye(2), np.zeros((2, 2))])

    def __init__(self, ident: int, z: np.ndarray, q: float, r: float) -> None:
        self.id = ident
        self.x = np.concatenate([z, np.zeros(2)])
        self.P = np.diag([r * r, r * r, 1e4, 1e4])
        self.Q = q * np.diag([0.25, 0.25, 1.0, 1.0])
        self.R = r * r * np.eye(2)
        self.hits, self.streak, self.age_unseen = 1, 1, 0

    def predict(self) -> np.ndarray:
        self.x = self.F @ self.x
        self.P = self.F @ self.P @ self.F.T + self.Q
        self.age_unseen += 1
        if self.age_unseen > 1:
            self.streak = 0
        return self.x[:2]

    def update(self, z: np.ndarray) -> None:
        y = z - self.H @ self.x
        S = self.H @ self.P @ self.H.T + self.R
        K = self.P @ self.H.T @ np.linalg.inv(S)
        self.x = self.x + K @ y
        self.P = (np.eye(4) - K @ self.H) @ self.P
        self.hits += 1
        self.streak += 1
        self.age_unseen = 0


class Sort:
    """SORT on points (mm): Kalman constant velocity, Hungarian, distance gate, birth/death."""

    def __init__(self, gate_mm: float = GATE_MM, max_age: int = 3, min_hits: int = 3,
                 q: float = 100.0, r: float = 1.0) -> None:
        self.gate, self.max_age, self.min_hits, self.q, self.r = gate_mm, max_age, min_hits, q, r
        self.tracks: list[_Track] = []
        self.frame = 0
        self.next_id = 1

    def update(self, detections: Detections) -> dict[int, tuple[float, float]]:
        self.frame += 1
        z = detections.center_mm
        predicted = np.array([t.predict() for t in self.tracks]).reshape(-1, 2)
        matched: dict[int, int] = {}
        if len(self.tracks) and len(z):
            cost = np.linalg.norm(predicted[:, None, :] - z[None, :, :], axis=2)
            for i, j in zip(*linear_sum_assignment(cost), strict=True):
                if cost[i, j] <= self.gate:
                    matched[int(i)] = int(j)
        for i, j in matched.items():
            self.tracks[i].update(z[j])
        for j in sorted(set(range(len(z))) - set(matched.values())):
            self.tracks.append(_Track(self.next_id, z[j], self.q, self.r))
            self.next_id += 1
        self.tracks = [t for t in self.tracks if t.age_unseen <= self.max_age]
        return {t.id: (float(t.x[0]), float(t.x[1])) for t in self.tracks
                if t.age_unseen == 0 and (t.streak >= self.min_hits or self.frame <= self.min_hits)}


class Norfair:
    """norfair's tracker on detected centres (Euclidean distance, its default filter)."""

    def __init__(self, gate_mm: float = GATE_MM, hit_counter_max: int = 15,
                 initialization_delay: int = 2) -> None:
        self.tracker = Tracker(distance_function="euclidean", distance_threshold=gate_mm,
                               hit_counter_max=hit_counter_max,
                               initialization_delay=initialization_delay)

        self.frame = 0

    def update(self, detections: Detections) -> dict[int, tuple[float, float]]:
        """Tracks matched to a detection this frame (norfair also returns coasting ones)."""
        self.frame += 1
        found = [Detection(points=p.reshape(1, 2), data=self.frame)
                 for p in detections.center_mm]
        objects = self.tracker.update(detections=found)
        return {int(o.id): (float(o.estimate[0, 0]), float(o.estimate[0, 1])) for o in objects
                if o.id is not None and o.last_detection.data == self.frame}


def hough_circles(image: np.ndarray, r_px: float, param1: float = 100.0,
                  param2: float = 12.0) -> np.ndarray:
    """(N, 3) circles x, y, r in pixels of radius `r_px` ± 30 % (OpenCV's HOUGH_GRADIENT on
    the median-blurred grey image); tests/benchmarks/test_peers.py runs it on real photos."""
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image.ndim == 3 else image
    circles = cv2.HoughCircles(cv2.medianBlur(grey, 3), cv2.HOUGH_GRADIENT, dp=1,
                               minDist=1.6 * r_px, param1=param1, param2=param2,
                               minRadius=int(r_px * 0.7), maxRadius=int(np.ceil(r_px * 1.3)))
    return np.zeros((0, 3)) if circles is None else circles[0].astype(float)


class HoughDetector:
    """cv2.HoughCircles over the table: circles of a coin's radius (± 30 %), table mm out.

    Same interface as `CoinDetector` (learn_empty_table, detect, covered, forget, adapt,
    table_look); it has no idea of hands, so nothing is ever covered.  `param2` (the
    accumulator threshold) was chosen on one clip and is the same for every clip and look.
    """

    def __init__(self, mapping: PixelMapping, layout: Layout, image_size: tuple[int, int],
                 param1: float = 100.0, param2: float = 12.0) -> None:
        self.mapping, self.layout = mapping, layout
        centre = mapping.to_pixels(np.array([[0.0, 0.0], [10.0, 0.0], [0.0, 10.0]]))
        px_per_mm = float(np.mean([np.hypot(*(centre[1] - centre[0])),
                                   np.hypot(*(centre[2] - centre[0]))]) / 10.0)
        self.r_px = layout.coin_mm / 2.0 * px_per_mm
        self.param1, self.param2 = param1, param2
        self.hands = np.zeros((1, 1), bool)

    def learn_empty_table(self, frame: np.ndarray, coins_mm: Iterable) -> None:
        """HoughCircles needs no model of the table."""

    def detect(self, frame: np.ndarray, resting: Sequence = ()) -> tuple[Detections, np.ndarray]:
        """Circles in the frame (the coins believed at rest are no help to it)."""
        circles = hough_circles(frame, self.r_px, self.param1, self.param2)
        if not len(circles):
            return Detections.empty(), self.hands
        mm = self.mapping.ground_mm(circles[:, :2], COIN_HEIGHT_MM)
        keep = np.array([self.layout.on_table(tuple(p)) for p in mm], bool)
        return Detections(mm[keep], radius_mm=circles[keep, 2] / self.r_px
                          * self.layout.coin_mm / 2.0), self.hands

    def covered(self, hands: np.ndarray, point_mm: tuple[float, float]) -> bool:
        return False

    def forget(self, point_mm: tuple[float, float]) -> bool:
        """There is no empty-table model to correct where a coin has left."""
        return True

    def adapt(self, coins_mm: Iterable) -> None:
        """There is no empty-table model to follow the light."""

    def table_look(self, point_mm: tuple[float, float]) -> None:
        """There is no empty-table model, and circles have no look to read against it."""

    def __getattr__(self, name: str):
        raise AttributeError(f"HoughDetector has no {name!r}: the pipeline now asks its "
                             "detector for more than benchmarks/peers.py provides")
