"""Every endpoint of the web referee through the Flask test client, with its refusals."""

from __future__ import annotations

import io
import json
import zipfile
from pathlib import Path

from flask.testing import FlaskClient

from referee.events import Event
from referee.rules import make_game, replay
from referee.session import Referee, SessionRunner
from tests.web.conftest import PREFIX, post

# ------------------------------------------------------------------------------ pages


def test_pages_render_with_csrf_token_and_safe_headers(client: FlaskClient) -> None:
    for url in ("/", "/dispute", "/sessions"):
        resp = client.get(url)
        assert resp.status_code == 200, url
        html = resp.get_data(as_text=True)
        assert client.application.config["CSRF_TOKEN"] in html
        assert "script-src 'self'" in resp.headers["Content-Security-Policy"]
        assert resp.headers["X-Content-Type-Options"] == "nosniff"
    with client.get("/static/js/common.js") as resp:
        assert resp.status_code == 200
    with client.get("/static/../__init__.py") as resp:
        assert resp.status_code == 404


def test_unknown_api_path_is_json_404(client: FlaskClient) -> None:
    resp = client.get("/api/nothing")
    assert resp.status_code == 404 and resp.get_json()["status"] == 404


# ------------------------------------------------------------------------------ reading


def test_state_is_the_contract_summary(client: FlaskClient, example_events: list[Event]) -> None:
    expected = replay(make_game("castle-croquetnole"), example_events[:PREFIX]).state.summary()
    resp = client.get("/api/state")
    assert resp.status_code == 200
    assert resp.get_json() == json.loads(json.dumps(expected))
    assert set(resp.get_json()["players"]) == {"1", "2", "3", "4"}


def test_rulings_are_the_adjudicated_ones(client: FlaskClient,
                                          example_events: list[Event]) -> None:
    expected = [r.to_json() for r in
                replay(make_game("castle-croquetnole"), example_events[:PREFIX]).rulings]
    got = client.get("/api/rulings").get_json()
    assert [{k: v for k, v in r.items() if k not in ("seq", "provisional", "overruled")}
            for r in got] == json.loads(json.dumps(expected))
    assert all(not r["overruled"] for r in got)


def test_read_endpoints(client: FlaskClient, runner: SessionRunner) -> None:
    assert len(client.get("/api/events").get_json()) == PREFIX
    info = client.get("/api/session").get_json()
    assert info["id"] == runner.id and info["events"] == PREFIX and info["at_head"]
    snap = client.get("/api/snapshot").get_json()
    assert {"session", "state", "rulings", "positions", "stacked"} <= set(snap)
    layout = client.get("/api/layout").get_json()
    assert {ln["name"] for ln in layout["lines"]} >= {"gate-1", "door-4"}
    options = client.get("/api/options").get_json()
    assert any(o["name"] == "own_gate_scores" and o["value"] is True for o in options)
    flicks = client.get("/api/flicks").get_json()
    assert flicks and all("events" not in f for f in flicks)
    one = client.get(f"/api/flicks/{flicks[3]['seq']}").get_json()
    assert one["events"][0]["type"] == "flick" and one["events"][-1]["type"] == "settled"
    assert one["clip"] is None and "positions" in one["before"]
    assert client.get("/api/flicks/99999").status_code == 404
    sessions = client.get("/api/sessions").get_json()
    assert sessions[0]["id"] == runner.id and sessions[0]["current"]


def test_session_argument_is_validated(client: FlaskClient) -> None:
    assert client.get("/api/state?session=abc").status_code == 400
    assert client.get("/api/state?session=999").status_code == 404
    assert client.get("/api/state?session=../../etc").status_code == 400


def test_readjudicate_shows_what_would_change(client: FlaskClient) -> None:
    resp = client.get("/api/readjudicate?option=own_gate_scores=false")
    assert resp.status_code == 200
    data = resp.get_json()
    assert data["options"]["own_gate_scores"] is False
    assert data["changed"], "the sample game scores own gates; turning that off must show"
    assert client.get("/api/readjudicate?option=nonsense=1").status_code == 400
    assert "valid" in client.get("/api/readjudicate?option=own_gate_scores=maybe"
                                 ).get_json()["error"]
    assert client.get("/api/readjudicate?option=novalue").status_code == 400
    # Re-adjudicating changes nothing in the session.
    assert not any(r["overruled"] for r in client.get("/api/rulings").get_json())
    assert client.get("/api/session").get_json()["events"] == PREFIX


def test_export_is_a_dispute_bundle(client: FlaskClient, runner: SessionRunner) -> None:
    resp = client.get(f"/api/sessions/{runner.id}/export")
    assert resp.status_code == 200 and resp.mimetype == "application/zip"
    with zipfile.ZipFile(io.BytesIO(resp.data)) as zf:
        assert {"session.json", "events.jsonl", "rulings.jsonl", "calibration.json",
                "frames.csv"} <= set(zf.namelist())
        assert len(zf.read("events.jsonl").decode().splitlines()) == PREFIX
    flick = client.get("/api/flicks").get_json()[2]
    resp = client.get(f"/api/sessions/{runner.id}/export?flick={flick['seq']}")
    with zipfile.ZipFile(io.BytesIO(resp.data)) as zf:
        clip = json.loads(zf.read("session.json"))["clip"]
    assert clip["start_t"] <= flick["t"] <= clip["end_t"]
    assert client.get("/api/sessions/999/export").status_code == 404
    assert client.get(f"/api/sessions/{runner.id}/export?flick=x").status_code == 400
    assert client.get(f"/api/sessions/{runner.id}/export?flick=99999").status_code == 404


def test_video_and_frame_absent(client: FlaskClient, runner: SessionRunner) -> None:
    assert client.get(f"/api/sessions/{runner.id}/video").status_code == 404
    assert client.get("/api/sessions/999/video").status_code == 404
    assert client.get("/api/frame.jpg").status_code == 404
    runner.latest_jpeg = b"\xff\xd8fake"
    resp = client.get("/api/frame.jpg")
    assert resp.status_code == 200 and resp.mimetype == "image/jpeg"


def test_stream_starts_with_a_snapshot(client: FlaskClient, runner: SessionRunner) -> None:
    resp = client.get("/api/stream", buffered=False)
    assert resp.mimetype == "text/event-stream"
    chunks = iter(resp.response)
    first = next(chunks)
    text = first.decode() if isinstance(first, bytes) else first
    assert "event: snapshot" in text
    payload = json.loads(text.split("data: ", 1)[1])
    assert payload["session"]["id"] == runner.id
    runner.broadcaster.publish("status", {"session": {"id": runner.id}})
    text = "".join((c.decode() if isinstance(c, bytes) else c) for c, _ in
                   zip(chunks, range(3), strict=False))
    assert "event: status" in text or ": keepalive" in text
    resp.close()
    assert runner.broadcaster.subscribers == 0


# ------------------------------------------------------------------------------ refusals


def test_changes_need_csrf_then_pin(client: FlaskClient, runner: SessionRunner) -> None:
    body = {"player": 1, "what": "end_play"}
    assert post(client, "/api/declare", body, csrf=False).status_code == 403
    assert post(client, "/api/declare", body, pin=None).status_code == 401
    assert post(client, "/api/declare", body, pin="0000").status_code == 401
    cross = post(client, "/api/declare", body, headers={"Origin": "http://evil.example"})
    assert cross.status_code == 403
    assert runner.head == PREFIX, "nothing refused may be stored"
    for url in ("/api/override", "/api/control", f"/api/sessions/{runner.id}/open",
                "/api/sessions/import", "/api/pin"):
        assert post(client, url, {}, pin=None).status_code == 401, url
        assert post(client, url, {}, csrf=False).status_code == 403, url
    assert post(client, "/api/pin", {}).get_json() == {"ok": True}


def test_too_many_wrong_pins_wait(client: FlaskClient) -> None:
    for _ in range(5):
        assert post(client, "/api/pin", {}, pin="9999").status_code == 401
    assert post(client, "/api/pin", {}).status_code == 429


def test_same_origin_post_is_accepted(client: FlaskClient) -> None:
    resp = post(client, "/api/pin", {}, headers={"Origin": "http://localhost"})
    assert resp.status_code == 200


def test_declare_validates_its_input(client: FlaskClient, runner: SessionRunner) -> None:
    assert post(client, "/api/declare", data="player=1",
                content_type="application/x-www-form-urlencoded").status_code == 415
    assert post(client, "/api/declare", data="[1]",
                content_type="application/json").status_code == 400
    for bad in ({"player": 1, "what": "pass"}, {"player": 9, "what": "end_play"},
                {"player": "1", "what": "end_play"}, {"player": 1, "what": "croquet"},
                {"player": 1, "what": "croquet", "kind": 7},
                {"player": 1, "what": "end_play", "kind": 2}, {"player": True, "what": "end_play"}):
        assert post(client, "/api/declare", bad).status_code == 400, bad
    assert runner.head == PREFIX


def test_declare_is_stored_as_a_player_event(client: FlaskClient, runner: SessionRunner,
                                             referee: Referee) -> None:
    player = client.get("/api/state").get_json()["turn"]["player"]
    resp = post(client, "/api/declare", {"player": player, "what": "end_play"})
    assert resp.status_code == 200, resp.get_json()
    assert "state" in resp.get_json()
    stored = referee.store.events(runner.id)[-1]
    assert stored.origin == "player" and stored.event.type == "declare"


def test_override_with_pin(client: FlaskClient, runner: SessionRunner,
                           referee: Referee) -> None:
    target = next(r for r in client.get("/api/rulings").get_json() if r["kind"] == "score")
    assert post(client, "/api/override", {"ruling": "1; DROP TABLE"}).status_code == 400
    assert post(client, "/api/override", {"ruling": "9999.0"}).status_code == 404
    assert post(client, "/api/override", {"ruling": target["id"], "by": "x" * 400}
                ).status_code == 400
    resp = post(client, "/api/override", {"ruling": target["id"], "by": "Ann",
                                          "reason": "it stopped short"})
    assert resp.status_code == 200
    assert resp.get_json()["rulings"][0]["kind"] == "override"
    assert referee.store.events(runner.id)[-1].origin == "override"
    rulings = client.get("/api/rulings").get_json()
    assert next(r for r in rulings if r["id"] == target["id"])["overruled"]


def test_control_needs_a_source(client: FlaskClient) -> None:
    assert post(client, "/api/control", {"action": "pause"}).status_code == 409
    assert post(client, "/api/control", {"action": "explode"}).status_code == 400
    assert post(client, "/api/control", {"action": "seek", "value": "x"}).status_code == 400


def test_open_session(client: FlaskClient, referee: Referee, runner: SessionRunner) -> None:
    other = referee.store.create_session("castle-croquetnole", {}, {"kind": "none"})
    assert post(client, "/api/sessions/999/open", {}).status_code == 404
    resp = post(client, f"/api/sessions/{other}/open", {})
    assert resp.status_code == 200 and resp.get_json()["id"] == other
    assert client.get("/api/session").get_json()["id"] == other
    assert client.get(f"/api/state?session={runner.id}").status_code == 200


def test_import_round_trip_and_refusals(client: FlaskClient, runner: SessionRunner,
                                        referee: Referee) -> None:
    bundle = client.get(f"/api/sessions/{runner.id}/export").data
    resp = post(client, "/api/sessions/import", None,
                data={"bundle": (io.BytesIO(bundle), "b.zip")},
                content_type="multipart/form-data")
    assert resp.status_code == 201, resp.get_json()
    new = resp.get_json()["id"]
    assert new != runner.id
    got = client.get(f"/api/rulings?session={new}").get_json()
    assert [r["text"] for r in got] == [r["text"] for r in
                                        client.get(f"/api/rulings?session={runner.id}").get_json()]
    assert post(client, "/api/sessions/import", None, data={},
                content_type="multipart/form-data").status_code == 400
    assert post(client, "/api/sessions/import", None,
                data={"bundle": (io.BytesIO(b"not a zip"), "b.zip")},
                content_type="multipart/form-data").status_code == 400
    # A hostile bundle: a bad event and a member that tries to climb out.
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf, zipfile.ZipFile(io.BytesIO(bundle)) as good:
        zf.writestr("session.json", good.read("session.json"))
        zf.writestr("events.jsonl", '{"t":1,"type":"flick"}\n')
        zf.writestr("../../evil.txt", "x")
    resp = post(client, "/api/sessions/import", None,
                data={"bundle": (io.BytesIO(buf.getvalue()), "b.zip")},
                content_type="multipart/form-data")
    assert resp.status_code == 400 and "coin" in resp.get_json()["error"]
    assert not (referee.store.path.parent.parent / "evil.txt").exists()
    assert len(referee.store.sessions()) == 2


def test_camera_overlay_data(client: FlaskClient, runner: SessionRunner,
                             referee: Referee) -> None:
    empty = client.get("/api/camera").get_json()
    assert empty == {"has_frame": False, "image_size": None, "homography_mm_to_px": None,
                     "coins": {}, "tracks": {}}
    h = [[0.5, 0.0, 320.0], [0.0, -0.5, 240.0], [0.0, 0.0, 1.0]]
    referee.store.add_note(runner.id, "calibration",
                           {"image_size": [640, 480], "homography_mm_to_px": h})
    runner.latest_jpeg = b"\xff\xd8"
    runner.latest_overlay = {"coins": {"moons": [0.0, -254.0]}}
    got = client.get("/api/camera").get_json()
    assert got["has_frame"] and got["homography_mm_to_px"] == h
    assert got["coins"] == {"moons": [0.0, -254.0]} and got["tracks"] == {}


def test_video_with_ranges_and_the_flick_clip(client: FlaskClient, runner: SessionRunner,
                                              referee: Referee, tmp_path: Path) -> None:
    video = tmp_path / "rec.mp4"
    video.write_bytes(bytes(range(256)) * 4)
    referee.store.add_note(runner.id, "video", {"path": str(video)})
    with client.get(f"/api/sessions/{runner.id}/video") as resp:
        assert resp.status_code == 200 and resp.data == video.read_bytes()
    with client.get(f"/api/sessions/{runner.id}/video", headers={"Range": "bytes=10-19"}) as resp:
        assert resp.status_code == 206 and resp.data == bytes(range(10, 20))
    flick = client.get("/api/flicks").get_json()[5]
    clip = client.get(f"/api/flicks/{flick['seq']}").get_json()["clip"]
    assert clip["url"] == f"/api/sessions/{runner.id}/video"
    assert clip["start"] == max(0.0, flick["t"] - 3.0) and clip["end"] > flick["t"]
    video.unlink()
    assert client.get(f"/api/sessions/{runner.id}/video").status_code == 404


def test_flick_clip_frames_export_and_import(client: FlaskClient, runner: SessionRunner,
                                             referee: Referee, tmp_path: Path) -> None:
    import cv2
    import numpy as np

    flick = client.get("/api/flicks").get_json()[5]
    video = tmp_path / "rec.mp4"
    writer = cv2.VideoWriter(str(video), cv2.VideoWriter_fourcc(*"mp4v"), 10.0, (64, 48))
    for n in range(80):
        writer.write(np.full((48, 64, 3), 3 * n, np.uint8))
    writer.release()
    t0 = flick["t"] - 4.0
    referee.store.add_note(runner.id, "video", {"path": str(video)})
    referee.store.add_frames(runner.id, [(n, t0 + n / 10) for n in range(80)])
    clip = client.get(f"/api/flicks/{flick['seq']}").get_json()["clip"]
    assert clip["frames"] and all(clip["start"] <= t <= clip["end"] for _, t in clip["frames"])
    assert clip["frames"][0][0] == 10, "the pre-roll: 3 s before the flick"
    url = clip["frame_url"]
    assert url == f"/api/sessions/{runner.id}/frames/"
    with client.get(f"{url}{clip['frames'][0][0]}.jpg") as resp:
        assert resp.status_code == 200 and resp.mimetype == "image/jpeg"
        assert resp.data[:2] == b"\xff\xd8"
    assert client.get(f"{url}12.jpg?w=320").status_code == 200
    assert client.get(f"{url}12.jpg?w=333").status_code == 400
    assert client.get(f"{url}500.jpg").status_code == 404
    assert client.get(f"{url}-1.jpg").status_code == 404
    assert client.get("/api/sessions/999/frames/0.jpg").status_code == 404
    for bad in ("..%2F..%2Fetc%2Fpasswd", "../../etc/passwd", "%2Fetc%2Fpasswd"):
        assert client.get(f"{url}{bad}").status_code == 404

    data = client.get(f"/api/sessions/{runner.id}/export?flick={flick['seq']}").data
    with zipfile.ZipFile(io.BytesIO(data)) as zf:
        (tmp_path / "clip.mp4").write_bytes(zf.read("clip.mp4"))
        rows = zf.read("frames.csv").decode().splitlines()[1:]
    cap = cv2.VideoCapture(str(tmp_path / "clip.mp4"))
    assert int(cap.get(cv2.CAP_PROP_FRAME_COUNT)) == len(clip["frames"]) == len(rows)
    cap.release()
    assert rows[0].startswith("0,")
    got = post(client, "/api/sessions/import", data={"bundle": (io.BytesIO(data), "b.zip")},
               content_type="multipart/form-data")
    assert got.status_code == 201
    new = got.get_json()["id"]
    assert [round(t, 6) for _, t in referee.store.frames(new)] == \
        [round(t, 6) for _, t in clip["frames"]]
    imported = client.get(f"/api/flicks/{flick['seq']}?session={new}").get_json()["clip"]
    assert len(imported["frames"]) == len(clip["frames"])
    assert client.get(f"/api/sessions/{new}/frames/0.jpg").status_code == 200


def test_a_live_camera_serves_its_last_frames_before_its_file_is_readable(
        client: FlaskClient, runner: SessionRunner, referee: Referee, tmp_path: Path) -> None:
    class Recent:
        def frame_jpeg(self, n: int, width: int | None = None) -> bytes | None:
            return b"\xff\xd8recent" if n == 5 and width in (None, 640) else None

    recording = tmp_path / "live.mp4"
    recording.write_bytes(b"")  # still being written: not readable yet
    referee.store.add_note(runner.id, "video", {"path": str(recording)})
    runner.source = Recent()  # type: ignore[assignment]
    try:
        with client.get(f"/api/sessions/{runner.id}/frames/5.jpg?w=640") as resp:
            assert resp.status_code == 200 and resp.data == b"\xff\xd8recent"
        assert client.get(f"/api/sessions/{runner.id}/frames/6.jpg").status_code == 404
    finally:
        runner.source = None
