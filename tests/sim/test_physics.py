"""The simulator against textbook mechanics: friction, impacts, walls, falls."""

from __future__ import annotations

import math

import numpy as np
import pytest
from numpy.polynomial import Polynomial

from referee.geometry import square_corners
from referee.sim.physics import (
    Obstacle,
    PhysicsParams,
    Table,
    coin_coin_impulse,
    first_entry,
    position_at,
    simulate,
    slide_at,
)

PRM = PhysicsParams()
R = PRM.coin_radius_mm
D = 2 * R
BIG = ((-5000.0, -5000.0), (5000.0, -5000.0), (5000.0, 5000.0), (-5000.0, 5000.0))


def open_table(*obstacles: Obstacle, params: PhysicsParams = PRM) -> Table:
    return Table(BIG, tuple(obstacles), params)


def velocity_after(result, coin: str, t: float) -> tuple[float, float]:
    return slide_at(result.slides[coin], t).velocity(t)


def test_stopping_distance_is_v2_over_2_mu_g() -> None:
    for v in (100.0, 850.0, 2500.0):
        res = simulate(open_table(), {"a": (0.0, 0.0)}, 0.0, {"a": (v * 0.6, v * 0.8)})
        x, y = res.final_positions()["a"]
        expected = v**2 / (2 * PRM.mu * PRM.g_mm_s2)
        assert math.hypot(x, y) == pytest.approx(expected, rel=1e-12)
        assert res.t_rest == pytest.approx(v / (PRM.mu * PRM.g_mm_s2), rel=1e-12)
        assert (x / 0.6) == pytest.approx(y / 0.8)


def test_positions_are_the_friction_quadratic() -> None:
    res = simulate(open_table(), {"a": (10.0, 0.0)}, 2.0, {"a": (1000.0, 0.0)})
    a = PRM.mu * PRM.g_mm_s2
    for tau in (0.0, 0.05, 0.2, 0.3):
        x, _ = position_at(res.slides["a"], 2.0 + tau)
        tau_c = min(tau, 1000.0 / a)
        assert x == pytest.approx(10.0 + 1000.0 * tau_c - 0.5 * a * tau_c**2, abs=1e-9)


def test_head_on_equal_masses_elastic_swaps_velocities() -> None:
    prm = PhysicsParams(e_coin=1.0)
    res = simulate(open_table(params=prm), {"a": (0.0, 0.0), "b": (100.0, 0.0)}, 0.0,
                   {"a": (1200.0, 0.0)})
    (imp,) = res.impacts
    assert math.dist(position_at(res.slides["a"], imp.t), position_at(res.slides["b"], imp.t)) \
        == pytest.approx(D, abs=1e-9)
    v_before = res.slides["a"][0].velocity(imp.t)
    assert velocity_after(res, "a", imp.t) == pytest.approx((0.0, 0.0), abs=1e-9)
    assert velocity_after(res, "b", imp.t) == pytest.approx(v_before, abs=1e-9)


@pytest.mark.parametrize("e", [0.0, 0.5, 0.9, 1.0])
def test_momentum_conserved_and_energy_lost_as_1_minus_e2(e: float) -> None:
    rng = np.random.default_rng(7)
    for _ in range(50):
        va, vb = tuple(rng.normal(0, 800, 2)), tuple(rng.normal(0, 800, 2))
        angle = rng.uniform(0, 2 * math.pi)
        n = (math.cos(angle), math.sin(angle))
        ma, mb = rng.uniform(0.5, 2.0, 2)
        va2, vb2 = coin_coin_impulse(va, vb, n, e, ma, mb)
        for k in range(2):  # Σ m v conserved
            assert ma * va[k] + mb * vb[k] == pytest.approx(ma * va2[k] + mb * vb2[k], abs=1e-9)
        vn = (vb[0] - va[0]) * n[0] + (vb[1] - va[1]) * n[1]
        ke = 0.5 * ma * np.dot(va, va) + 0.5 * mb * np.dot(vb, vb)
        ke2 = 0.5 * ma * np.dot(va2, va2) + 0.5 * mb * np.dot(vb2, vb2)
        if vn < 0:  # approaching: ΔKE = ½ m_red (1 − e²) v_n²
            m_red = ma * mb / (ma + mb)
            assert ke - ke2 == pytest.approx(0.5 * m_red * (1 - e * e) * vn * vn, rel=1e-9,
                                             abs=1e-6)
        else:
            assert ke2 == pytest.approx(ke)


def test_simulated_oblique_impact_conserves_momentum() -> None:
    res = simulate(open_table(), {"a": (0.0, 0.0), "b": (80.0, 7.0)}, 0.0,
                   {"a": (1500.0, 0.0)}, masses={"a": 1.0, "b": 1.6})
    imp = res.impacts[0]
    before = [s[0].velocity(imp.t) for s in (res.slides["a"], res.slides["b"])]
    after = [velocity_after(res, c, imp.t) for c in ("a", "b")]
    for k in range(2):
        assert before[0][k] + 1.6 * before[1][k] == pytest.approx(after[0][k] + 1.6 * after[1][k])
    vn = imp.normal_speed_mm_s
    ke = [0.5 * np.dot(before[0], before[0]) + 0.8 * np.dot(before[1], before[1]),
          0.5 * np.dot(after[0], after[0]) + 0.8 * np.dot(after[1], after[1])]
    m_red = 1.6 / 2.6
    assert ke[0] - ke[1] == pytest.approx(0.5 * m_red * (1 - PRM.e_coin**2) * vn**2, rel=1e-9)


@pytest.mark.parametrize("angle_deg", [0.0, 30.0])
def test_reflection_off_a_tile_face(angle_deg: float) -> None:
    tile = Obstacle("tile", tuple(square_corners((0.0, 0.0), 50.8, angle_deg)))
    normal = (math.cos(math.radians(angle_deg)), math.sin(math.radians(angle_deg)))  # east face
    tangent = (-normal[1], normal[0])
    start = (100.0 * normal[0] - 20.0 * tangent[0], 100.0 * normal[1] - 20.0 * tangent[1])
    v_in = (-800.0 * normal[0] + 300.0 * tangent[0], -800.0 * normal[1] + 300.0 * tangent[1])
    res = simulate(open_table(tile), {"a": start}, 0.0, {"a": v_in})
    imp = res.impacts[0]
    assert imp.b == "tile"
    p = position_at(res.slides["a"], imp.t)
    assert tile.distance(p) == pytest.approx(R, abs=1e-9)
    before, after = res.slides["a"][0].velocity(imp.t), velocity_after(res, "a", imp.t)
    vn0, vt0 = np.dot(before, normal), np.dot(before, tangent)
    vn1, vt1 = np.dot(after, normal), np.dot(after, tangent)
    assert vn1 == pytest.approx(-PRM.e_piece * vn0, rel=1e-12)
    assert vt1 == pytest.approx(vt0, rel=1e-12)


def test_corner_hit_touches_the_corner() -> None:
    tile = Obstacle("tile", tuple(square_corners((0.0, 0.0), 50.8)))
    start = (100.0, 25.4 + 5.0)  # passes the north-east corner 5 mm from it
    res = simulate(open_table(tile), {"a": start}, 0.0, {"a": (-900.0, 0.0)})
    imp = res.impacts[0]
    p = position_at(res.slides["a"], imp.t)
    assert math.dist(p, (25.4, 25.4)) == pytest.approx(R, abs=1e-9)
    assert p[0] > 25.4 and p[1] > 25.4


def test_a_coin_falls_where_its_centre_crosses_the_edge() -> None:
    table = Table(((-400.0, -400.0), (400.0, -400.0), (400.0, 400.0), (-400.0, 400.0)))
    res = simulate(table, {"a": (0.0, 0.0)}, 1.0, {"a": (600.0, -2000.0)})
    (ex,) = res.exits
    assert ex.at_mm[1] == pytest.approx(-400.0, abs=1e-9)
    assert ex.at_mm[0] == pytest.approx(120.0, abs=1e-9)  # straight line: x/y = 600/−2000
    assert "a" not in res.final_positions()
    assert res.t_rest == ex.t


def test_newtons_cradle_elastic() -> None:
    prm = PhysicsParams(e_coin=1.0)
    pos = {"a": (0.0, 0.0), "b": (100.0, 0.0), "c": (100.0 + D, 0.0)}
    res = simulate(open_table(params=prm), pos, 0.0, {"a": (1000.0, 0.0)})
    final = res.final_positions()
    assert final["a"][0] == pytest.approx(100.0 - D, abs=1e-6)
    assert final["b"][0] == pytest.approx(100.0, abs=1e-6)
    assert final["c"][0] > 100.0 + D


def test_no_overlaps_in_a_crowded_break() -> None:
    """A fast coin into a cluster: at every sampled instant no coin overlaps another or a tile."""
    tiles = [Obstacle(f"t{i}", tuple(square_corners(c, 50.8, a)))
             for i, (c, a) in enumerate((((150.0, 60.0), 10.0), ((160.0, -70.0), 0.0),
                                         ((280.0, 0.0), 45.0)))]
    pos = {"a": (-200.0, 1.0)}
    for i in range(6):
        pos[f"c{i}"] = (60.0 + (i % 3) * (D + 0.3), (i // 3 - 0.5) * (D + 0.4))
    res = simulate(open_table(*tiles), pos, 0.0, {"a": (2600.0, 0.0)})
    assert len(res.impacts) > 5
    for t in np.linspace(0.0, res.t_rest, 3000):
        ps = {c: position_at(s, float(t)) for c, s in res.slides.items()}
        names = sorted(ps)
        for i, a in enumerate(names):
            for b in names[i + 1:]:
                assert math.dist(ps[a], ps[b]) >= D - 1e-6
            for tile in tiles:
                assert tile.distance(ps[a]) >= R - 1e-6


def test_impacts_happen_exactly_at_touch() -> None:
    pos = {"a": (0.0, 0.0), "b": (60.0, 9.0), "c": (90.0, -14.0)}
    res = simulate(open_table(), pos, 0.0, {"a": (1400.0, 0.0), "c": (-300.0, 100.0)})
    coin_impacts = [i for i in res.impacts if i.kind == "coin"]
    assert coin_impacts
    for imp in coin_impacts:
        pa, pb = position_at(res.slides[imp.a], imp.t), position_at(res.slides[imp.b], imp.t)
        assert math.dist(pa, pb) == pytest.approx(D, abs=1e-9)


def test_first_entry_finds_the_first_downward_root() -> None:
    f = Polynomial.fromroots([0.3, 0.7, 1.2, 2.0])  # positive before 0.3
    assert first_entry(f, 5.0) == pytest.approx(0.3, abs=1e-14)
    assert first_entry(f, 0.2) is None
    assert first_entry(-f + 10.0, 0.5) is None
    grazing = Polynomial([1.0, -2.0, 1.0])  # (1 − τ)² touches zero without crossing
    assert first_entry(grazing, 3.0) == pytest.approx(1.0, abs=1e-7) or \
        first_entry(grazing, 3.0) is None


def test_params_are_validated() -> None:
    with pytest.raises(ValueError, match="e_coin"):
        PhysicsParams(e_coin=1.5)
    with pytest.raises(ValueError, match="mu"):
        PhysicsParams(mu=0.0)


@pytest.mark.parametrize("seed", range(6))
def test_random_breaks_never_overlap(seed: int) -> None:
    """Random coins and tilted tiles, one hard flick: no overlap at any sampled instant, and
    every impulse happens exactly at touch."""
    rng = np.random.default_rng(seed)
    tiles = [Obstacle(f"t{i}", tuple(square_corners(tuple(rng.uniform(-250, 250, 2)), 50.8,
                                                    float(rng.uniform(0, 90)))))
             for i in range(4)]
    pos: dict[str, tuple[float, float]] = {}
    while len(pos) < 8:
        p = tuple(rng.uniform(-300, 300, 2))
        if all(math.dist(p, q) > D + 0.01 for q in pos.values()) and \
                all(t.distance(p) > R + 0.01 for t in tiles):
            pos[f"c{len(pos)}"] = p
    first = sorted(pos)[0]
    angle = rng.uniform(0, 2 * math.pi)
    table = Table(((-400.0, -400.0), (400.0, -400.0), (400.0, 400.0), (-400.0, 400.0)),
                  tuple(tiles))
    res = simulate(table, pos, 0.0, {first: (3000 * math.cos(angle), 3000 * math.sin(angle))})
    for imp in res.impacts:
        pa = position_at(res.slides[imp.a], imp.t)
        if imp.kind == "coin":
            assert math.dist(pa, position_at(res.slides[imp.b], imp.t)) == pytest.approx(
                D, abs=1e-7)
        else:
            ob = next(t for t in tiles if t.name == imp.b)
            assert ob.distance(pa) == pytest.approx(R, abs=1e-7)
    gone = {e.coin: e.t for e in res.exits}
    for t in np.linspace(0.0, res.t_rest, 1500):
        ps = {c: position_at(s, float(t)) for c, s in res.slides.items()
              if gone.get(c, math.inf) > t}
        names = sorted(ps)
        for i, a in enumerate(names):
            for b in names[i + 1:]:
                assert math.dist(ps[a], ps[b]) >= D - 1e-6
            for tile in tiles:
                assert tile.distance(ps[a]) >= R - 1e-6


@pytest.mark.parametrize("seed", [0, 2])
def test_plastic_rack_ends_without_overlap(seed: int) -> None:
    """Plastic impacts into touching coins press them together in endless micro-impacts
    unless the rebound floor breaks the chain; none may ever overlap."""
    rng = np.random.default_rng(seed)
    pos = {f"r{row}{j}": (100 + row * D * math.sqrt(3) / 2, (j - row / 2) * D)
           for row in range(3) for j in range(row + 1)}
    pos["cue"] = (-100.0, float(rng.uniform(-4, 4)))
    table = Table(BIG, (), PhysicsParams(e_coin=0.0))
    res = simulate(table, pos, 0.0, {"cue": (2500.0, float(rng.normal(0, 30)))})
    assert 20 < len(res.impacts) < 2000
    for t in np.linspace(0.0, res.t_rest, 600):
        arr = np.array([position_at(s, float(t)) for s in res.slides.values()])
        gaps = np.sqrt(((arr[:, None, :] - arr[None, :, :]) ** 2).sum(-1)) + np.eye(len(arr)) * D
        assert gaps.min() >= D - 1e-6
