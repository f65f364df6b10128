"""The Kalman filter's equations and the friction-aware coin filter, on known slides."""

import numpy as np

from referee.vision.kalman import CoinFilter, MotionModel, white_acceleration_Q


def test_process_noise_is_the_textbook_white_acceleration_block_per_axis():
    dt, q = 0.04, 3.0
    block = q * np.array([[dt ** 3 / 3, dt ** 2 / 2], [dt ** 2 / 2, dt]])
    Q = white_acceleration_Q(dt, q)
    for axis in (0, 1):  # state [x, y, vx, vy]: an axis is (position, velocity)
        assert np.allclose(Q[np.ix_([axis, axis + 2], [axis, axis + 2])], block)
    assert Q[0, 1] == Q[0, 3] == Q[2, 3] == 0.0
    assert np.allclose(Q, Q.T)


def test_a_friction_slide_is_followed_to_rest_where_it_stops():
    model = MotionModel(decel_mm_s2=3000.0, r_mm=0.3)
    v0, dt = 900.0, 1 / 30  # mm/s along x: stops after 0.3 s, 135 mm on
    f = CoinFilter(0.0, np.array([0.0, 0.0]), model)
    errors = []
    for k in range(1, 20):
        t = k * dt
        s = min(t, v0 / 3000.0)
        x = v0 * s - 0.5 * 3000.0 * s * s
        prior, _ = f.predicted(t)
        errors.append(abs(prior[0] - x))
        f.step(t, np.array([x, 0.0]))
    assert abs(f.x[0] - 135.0) < 0.05 and np.hypot(*f.x[2:]) < 1.0
    assert max(errors[6:]) < 1.0  # once its speed is learnt, each frame is foreseen


def test_a_prediction_leaves_the_belief_as_it_was_and_is_the_steps_prior():
    f = CoinFilter(0.0, np.array([10.0, 20.0]), MotionModel())
    f.step(0.1, np.array([12.0, 20.0]))
    x, P = f.x.copy(), f.P.copy()
    prior, _ = f.predicted(0.2)
    d2 = f.mahalanobis2(0.2, np.array([[14.0, 20.0], [30.0, 20.0]]))
    assert np.array_equal(f.x, x) and np.array_equal(f.P, P)
    assert d2[0] < d2[1]
    f.step(0.2, None)
    assert np.allclose(f.x, prior)
    f.hold()  # held at rest: the next prior starts from the held belief, not a stale one
    assert np.allclose(f.predicted(0.3)[0][2:], 0.0)
