"""The calibration page and its API on a synthetic still: run, corners, tile, profile download,
and the refusals (no PIN, no CSRF, not an image, bad corners, an unknown tile, a path)."""

from __future__ import annotations

import io
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest
from flask import Flask
from flask.testing import FlaskClient

from calibration.profile import profile_from_json
from calibration.synthetic import Scene, render
from referee.layout import castle_croquetnole_layout, with_piece_moved
from referee.session import Referee
from referee.store import SessionStore
from tests.web.conftest import PIN, post
from web_ui import create_app
from web_ui.blueprints.security import reset_pin_failures

TABLE_MM = (863.6, 863.6)
TEMPLATE = castle_croquetnole_layout()
CORNERS = np.array([[250.0, 560.0], [900.0, 690.0], [1080.0, 120.0], [420.0, 40.0]])


def synthetic_jpeg() -> bytes:
    """A known table (JPEG, under the test client's 500 kB spooling): door-3-a 6 mm north of
    its place, door-2-b missing."""
    x, y = TEMPLATE.pieces["door-3-a"].center_mm
    truth = with_piece_moved(TEMPLATE, "door-3-a", (x, y + 6.0))
    scene = Scene(truth, TABLE_MM, CORNERS, seed=1, missing=("door-2-b",))
    ok, buf = cv2.imencode(".jpg", render(scene), [cv2.IMWRITE_JPEG_QUALITY, 90])
    assert ok
    return buf.tobytes()


@pytest.fixture(scope="module")
def jpeg() -> bytes:
    return synthetic_jpeg()


@pytest.fixture
def app(tmp_path: Path) -> Iterator[Flask]:
    reset_pin_failures()
    store = SessionStore(tmp_path / "s.sqlite", durable=False)
    referee = Referee(store)
    still = tmp_path / "configured.jpg"
    still.write_bytes(synthetic_jpeg())
    yield create_app({"TESTING": True, "REFEREE": referee, "TABLE_PIN": PIN,
                      "DATABASE": str(tmp_path / "s.sqlite"),
                      "CALIBRATION_SOURCE": str(still)})
    referee.close()
    store.close()


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


def upload(client: FlaskClient, data: bytes, **kw: Any) -> Any:
    return post(client, "/api/calibration/run",
                data={"image": (io.BytesIO(data), "table.jpg")},
                content_type="multipart/form-data", **kw)


def test_page_and_nav(client: FlaskClient) -> None:
    html = client.get("/calibration").get_data(as_text=True)
    assert 'id="cal-svg"' in html and "js/calibration.js" in html
    assert 'href="/calibration"' in client.get("/arithmetical").get_data(as_text=True)
    assert client.get("/api/calibration/summary").status_code == 404
    assert client.get("/api/calibration/profile").status_code == 404


def test_run_corners_tile_and_download(client: FlaskClient, jpeg: bytes) -> None:
    resp = upload(client, jpeg)
    assert resp.status_code == 200, resp.get_json()
    data = resp.get_json()
    assert np.abs(np.array(data["corners_px"]) - CORNERS).max() < 1.0
    assert data["corners_method"] == "auto"
    assert len(data["tiles"]) == len(TEMPLATE.pieces)
    tile = {t["name"]: t for t in data["tiles"]}
    assert len(tile["door-3-a"]["corners_px"]) == 4
    assert tile["door-3-a"]["problems"] == ["off_place"]
    assert {ln["name"] for ln in data["lines"]} == set(TEMPLATE.lines)
    found = {(p["kind"], p["subject"]): p for p in data["problems"]}
    assert set(found) == {("missing", "door-2-b"), ("off_place", "door-3-a")}
    assert 5.0 < found[("off_place", "door-3-a")]["size"] < 7.0
    assert "mm off its place (dx" in found[("off_place", "door-3-a")]["text"]
    assert data["residuals"]["layout_rms_mm"] is not None
    assert client.get("/api/calibration/image").mimetype == "image/jpeg"

    # the corners dragged 3 px outwards: a manual calibration, the same problems
    moved = (CORNERS + np.array([[-3, 3], [3, 3], [3, -3], [-3, -3]])).tolist()
    resp = post(client, "/api/calibration/corners", {"corners": moved})
    assert resp.status_code == 200, resp.get_json()
    data = resp.get_json()
    assert data["corners_method"] == "manual"
    assert np.allclose(data["corners_px"], moved, atol=0.01)
    assert {p["subject"] for p in data["problems"]} == {"door-2-b", "door-3-a"}

    # door-3-a dragged 6 mm south (back onto its place): its problem goes
    tile = {t["name"]: t for t in data["tiles"]}["door-3-a"]
    cx, cy = tile["center_mm"]
    app: Flask = client.application  # type: ignore[assignment]
    plane = app.extensions["calibration_work"].work.profile.plane
    x, y = plane.to_pixels(np.array([[cx, cy - 6.0]]))[0]
    resp = post(client, "/api/calibration/tile", {"name": "door-3-a", "x": x, "y": y})
    assert resp.status_code == 200, resp.get_json()
    data = resp.get_json()
    assert {(p["kind"], p["subject"]) for p in data["problems"]} == {("missing", "door-2-b")}
    assert any(n.startswith("moved by hand: door-3-a") for n in data["notes"])

    resp = client.get("/api/calibration/profile")
    assert resp.status_code == 200
    assert "attachment" in resp.headers["Content-Disposition"]
    profile = profile_from_json(json.loads(resp.get_data(as_text=True)))
    assert profile.corners_method == "manual"
    assert [p.subject for p in profile.problems] == ["door-2-b"]


def test_configured_source_only(client: FlaskClient) -> None:
    resp = post(client, "/api/calibration/run", {"source": "configured"})
    assert resp.status_code == 200, resp.get_json()
    assert resp.get_json()["source"] == "configured.jpg"
    for body in ({"source": "/etc/passwd"}, {"source": "../configured.jpg"},
                 {"path": "configured.jpg"}):
        resp = post(client, "/api/calibration/run", body)
        assert resp.status_code == 400
        assert "paths are not accepted" in resp.get_json()["error"]


def test_refusals(client: FlaskClient, jpeg: bytes) -> None:
    assert upload(client, jpeg, pin=None).status_code == 401
    assert upload(client, jpeg, pin="9999").status_code == 401
    reset_pin_failures()
    assert upload(client, jpeg, csrf=False).status_code == 403
    bad = upload(client, b"not an image at all")
    assert bad.status_code == 400 and "not an image" in bad.get_json()["error"]
    # nothing calibrated yet: corners and tiles have nothing to act on
    square = [[100, 600], [600, 600], [600, 100], [100, 100]]
    assert post(client, "/api/calibration/corners", {"corners": square}).status_code == 404
    assert upload(client, jpeg).status_code == 200
    for corners, words in (
            (square[:3], "4 points"),
            ([[100, 600], [600, 600], [100, 100], [600, 100]], "convex"),
            (square[::-1], "clockwise"),
            ([[100, 600], [1600, 600], [600, 100], [100, 100]], "inside the 1280x720"),
            ([[100, "a"], [600, 600], [600, 100], [100, 100]], "finite number")):
        resp = post(client, "/api/calibration/corners", {"corners": corners})
        assert resp.status_code == 400, corners
        assert words in resp.get_json()["error"], resp.get_json()
    assert post(client, "/api/calibration/corners", {"corners": square},
                pin=None).status_code == 401
    assert post(client, "/api/calibration/corners", {"corners": square},
                csrf=False).status_code == 403
    resp = post(client, "/api/calibration/tile", {"name": "tower-9", "x": 600, "y": 400})
    assert resp.status_code == 404 and "no tile named" in resp.get_json()["error"]
    resp = post(client, "/api/calibration/tile", {"name": "tower-1", "x": 5, "y": 5})
    assert resp.status_code == 400 and "on the table" in resp.get_json()["error"]
    assert post(client, "/api/calibration/tile", {"name": "tower-1", "x": 600, "y": 400},
                pin=None).status_code == 401
    assert post(client, "/api/calibration/tile", {"name": "tower-1", "x": 600, "y": 400},
                csrf=False).status_code == 403
    cross = post(client, "/api/calibration/tile", {"name": "tower-1", "x": 600, "y": 400},
                 headers={"Origin": "http://evil.example"})
    assert cross.status_code == 403
