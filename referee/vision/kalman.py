"""A linear Kalman filter in textbook notation, with a friction-aware motion model for coins.

State x = [x, y, vx, vy] in mm and mm/s; measurement z = [x, y] (a detected centre).  A sliding
coin decelerates at a = μg against its velocity (Coulomb friction), which enters as a known
control input u = −a·v̂ (B maps it to position and velocity), so the prediction is exact for a
single slide and the process noise Q only has to cover impacts and modelling error.  The pure
`predict`/`update` functions are the equations; :class:`CoinFilter` keeps one coin's belief.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

H = np.array([[1.0, 0.0, 0.0, 0.0], [0.0, 1.0, 0.0, 0.0]])
"""Measurement matrix: we observe the centre's position only."""


I4 = np.eye(4)


def _read_only(*arrays: np.ndarray) -> None:
    for a in arrays:
        a.flags.writeable = False


@lru_cache(maxsize=64)
def transition(dt: float) -> tuple[np.ndarray, np.ndarray]:
    """F (constant velocity over dt) and B (a constant acceleration over dt); made once per
    dt (a camera's frames come at a few steps) and read-only, as they are shared."""
    F = np.array([[1.0, 0.0, dt, 0.0], [0.0, 1.0, 0.0, dt], [0.0, 0.0, 1.0, 0.0],
                  [0.0, 0.0, 0.0, 1.0]])
    B = np.array([[0.5 * dt * dt, 0.0], [0.0, 0.5 * dt * dt], [dt, 0.0], [0.0, dt]])
    _read_only(F, B)
    return F, B


@lru_cache(maxsize=64)
def white_acceleration_Q(dt: float, q: float) -> np.ndarray:
    """Process noise of a random acceleration with spectral density q (mm²/s³); made once
    per (dt, q), read-only."""
    a, b = dt ** 3 / 3.0 * q, dt ** 2 / 2.0 * q  # each axis: [[a, b], [b, dt q]]
    Q = np.array([[a, 0.0, b, 0.0], [0.0, a, 0.0, b], [b, 0.0, dt * q, 0.0],
                  [0.0, b, 0.0, dt * q]])
    _read_only(Q)
    return Q


def inverse_2x2(S: np.ndarray) -> np.ndarray:
    """S⁻¹ of a 2×2 innovation covariance (the measurement is a point), in closed form: for
    a matrix this small np.linalg.inv's call costs several times the arithmetic."""
    (a, b), (c, d) = S
    return np.array([[d, -b], [-c, a]]) / (a * d - b * c)


def predict(x: np.ndarray, P: np.ndarray, F: np.ndarray, Q: np.ndarray,
            B: np.ndarray | None = None, u: np.ndarray | None = None
            ) -> tuple[np.ndarray, np.ndarray]:
    """x⁻ = F x + B u ;  P⁻ = F P Fᵀ + Q."""
    x_prior = F @ x + (B @ u if B is not None and u is not None else 0.0)
    P_prior = F @ P @ F.T + Q
    return x_prior, P_prior


def update(x: np.ndarray, P: np.ndarray, z: np.ndarray, H: np.ndarray, R: np.ndarray
           ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """y = z − H x ;  S = H P Hᵀ + R ;  K = P Hᵀ S⁻¹ ;  x⁺ = x + K y ;  P⁺ = (I − K H) P.

    Returns the posterior and the innovation y with its covariance S (for gating).  For
    this filter's shapes: a 4-D state, a 2-D measurement.
    """
    y = z - H @ x
    S = H @ P @ H.T + R
    K = P @ H.T @ inverse_2x2(S)
    x_post = x + K @ y
    I_KH = I4 - K @ H
    P_post = I_KH @ P @ I_KH.T + K @ R @ K.T  # Joseph form: stays symmetric and positive
    return x_post, P_post, y, S


REST_SPEED_SIGMA = 100.0
"""Velocity spread (mm/s) of a coin held at rest."""


@dataclass
class MotionModel:
    """The coin's physics and the noise levels the filter assumes."""

    decel_mm_s2: float = 0.30 * 9806.65
    """μg: the sliding deceleration (calibrate μ per cloth)."""
    q: float = 2.0e6
    """Random-acceleration density: large enough to follow impacts within a few frames."""
    r_mm: float = 0.3
    """Standard deviation of a detected centre."""
    rest_speed_mm_s: float = 8.0
    """Below this the coin is taken to be at rest (friction holds it)."""


class CoinFilter:
    """One coin's Kalman filter, with the friction deceleration as control input."""

    def __init__(self, t: float, z: np.ndarray, model: MotionModel) -> None:
        self.model = model
        self.t = t
        self.x = np.array([z[0], z[1], 0.0, 0.0])
        self.P = np.diag([model.r_mm ** 2, model.r_mm ** 2, 400.0 ** 2, 400.0 ** 2])
        self.R = np.eye(2) * model.r_mm ** 2
        self._prior: tuple[float, np.ndarray, np.ndarray] | None = None
        """The last prior made (t, x⁻, P⁻): gating and the step of one frame share it."""

    def _control(self, dt: float) -> np.ndarray:
        v = self.x[2:]
        speed = float(np.hypot(*v))
        if speed < 1e-9:
            return np.zeros(2)
        # Friction stops the coin, never reverses it: cap the deceleration at speed/dt.
        a = min(self.model.decel_mm_s2, speed / dt) if dt > 0 else 0.0
        return -a * v / speed

    def predicted(self, t: float) -> tuple[np.ndarray, np.ndarray]:
        """The prior at time t (the belief is not changed)."""
        if self._prior is not None and self._prior[0] == t:
            return self._prior[1], self._prior[2]
        dt = max(0.0, t - self.t)
        F, B = transition(dt)
        Q = white_acceleration_Q(dt, self.model.q)
        x, P = predict(self.x, self.P, F, Q, B, self._control(dt))
        self._prior = (t, x, P)
        return x, P

    def step(self, t: float, z: np.ndarray | None) -> np.ndarray | None:
        """Advance to t; fold in the measurement z if there is one.  Returns the innovation."""
        self.x, self.P = self.predicted(t)
        self.t = t
        self._prior = None
        if z is None:
            return None
        self.x, self.P, y, _ = update(self.x, self.P, np.asarray(z, float), H, self.R)
        if float(np.hypot(*self.x[2:])) < self.model.rest_speed_mm_s:
            self.x[2:] *= 0.5  # settle gently: friction holds a slow coin
        return y

    def hold(self, at: np.ndarray | None = None) -> None:
        """At rest where it is (or at `at`), as sure as when last seen: a resting coin that
        goes unseen (a finger merged with it, a glint) does not wander; if it was struck,
        the tracker's second round finds it wherever it went."""
        self._prior = None
        if at is not None:
            self.x[:2] = at
        self.x[2:] = 0.0
        self.P = np.diag([self.model.r_mm ** 2] * 2 + [REST_SPEED_SIGMA ** 2] * 2)

    def reseed(self, t: float, z: np.ndarray, velocity: np.ndarray) -> None:
        """Re-start from an observation after an impact or occlusion (OC-SORT's idea)."""
        self.t = t
        self._prior = None
        self.x = np.array([z[0], z[1], velocity[0], velocity[1]])
        self.P = np.diag([self.model.r_mm ** 2] * 2 + [150.0 ** 2] * 2)

    def mahalanobis2(self, t: float, z: np.ndarray, at: np.ndarray | None = None
                     ) -> np.ndarray | float:
        """Squared Mahalanobis distance of one measurement (2,) or of many (N, 2) to the
        prediction at t (the prediction is made once for all of them); `at`: the predicted
        position replaced (where the coin must have stopped), its spread kept."""
        x, P = self.predicted(t)
        y = np.asarray(z, float) - (H @ x if at is None else np.asarray(at, float))
        S_inv = inverse_2x2(H @ P @ H.T + self.R)
        d2 = ((y @ S_inv) * y).sum(axis=-1)  # yᵀ S⁻¹ y for each row
        return float(d2) if y.ndim == 1 else d2
