"""The calibration profile: JSON round trip, and loading reports every problem at once."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from calibration.intrinsics import Intrinsics
from calibration.plane import Residuals, TablePlane, fit_plane, table_corners_mm
from calibration.problems import Problem
from calibration.profile import (
    FORMAT,
    VERSION,
    CalibrationProfile,
    ProfileError,
    load_profile,
    profile_from_json,
)
from referee.layout import castle_croquetnole_layout

TABLE_MM = (863.6, 863.6)
CORNERS_PX = np.array([[250.0, 560.0], [900.0, 690.0], [1080.0, 120.0], [420.0, 40.0]])


def _profile(intrinsics: Intrinsics | None = None) -> CalibrationProfile:
    plane = fit_plane(CORNERS_PX, table_corners_mm(TABLE_MM), intrinsics)
    return CalibrationProfile(
        source="table.png", source_kind="image", image_size=(1280, 720), table_mm=TABLE_MM,
        corners_px=CORNERS_PX, corners_method="auto", plane=plane,
        layout=castle_croquetnole_layout(), template="castle-croquetnole",
        plane_residuals=Residuals(0.1, 0.2, 0.15, 0.3, 4), layout_residual_mm=0.12,
        problems=[Problem("off_place", "door-3-a", 6.0, "mm", "door-3-a is 6.0 mm off")])


def test_round_trip_keeps_everything(tmp_path: Path) -> None:
    lens = Intrinsics(np.array([[900.0, 0, 640], [0, 900.0, 360], [0, 0, 1]]),
                      np.array([[-0.2, 0.05, 0, 0, 0]]), (1280, 720), 0.3)
    original = _profile(lens)
    path = tmp_path / "profile.json"
    original.save(path)
    data = json.loads(path.read_text())
    assert data["format"] == FORMAT and data["version"] == VERSION
    assert data["table"]["corners_order"] == "SW SE NE NW"
    back = load_profile(path)
    assert back.problems == original.problems
    assert back.layout == original.layout
    assert back.intrinsics is not None and back.intrinsics.fx == pytest.approx(900.0)
    probe_px = np.array([[640.0, 360.0], [300.0, 500.0]])
    np.testing.assert_allclose(back.plane.to_table_mm(probe_px),
                               original.plane.to_table_mm(probe_px), atol=1e-6)
    assert back.plane_residuals == original.plane_residuals
    assert back.created == original.created


def test_load_reports_every_problem_in_one_error(tmp_path: Path) -> None:
    data = _profile().to_json()
    data["version"] = 99
    data["table"]["corners_px"] = [[1, 2], [3, 4]]
    data["homography_mm_to_px"] = [[0, 0, 0], [0, 0, 0], [0, 0, 0]]
    data["layout"]["pieces"][0]["size"] = -1
    data["problems"].append({"kind": "missing"})
    del data["image_size"]
    with pytest.raises(ProfileError) as caught:
        profile_from_json(data, "p.json")
    text = str(caught.value)
    assert text.startswith("p.json: 6 problem(s)")
    for part in ("'version' must be 1", "corners_px", "singular", "size must be positive",
                 "missing or non-text", "missing 'image_size'"):
        assert part in text, part


def test_unreadable_profiles(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{ not json")
    with pytest.raises(ProfileError, match="not valid JSON"):
        load_profile(bad)
    with pytest.raises(ProfileError, match="cannot read"):
        load_profile(tmp_path / "absent.json")
    with pytest.raises(ProfileError, match="JSON object"):
        profile_from_json([1, 2])


def test_plane_in_profile_is_a_table_plane() -> None:
    assert isinstance(_profile().plane, TablePlane)
