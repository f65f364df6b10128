"""Fixtures for the web referee: a store with a session of the sample game, the app, a client."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from referee.events import Event, read_events
from referee.session import Referee, SessionRunner
from referee.store import SessionStore
from web_ui import create_app
from web_ui.blueprints.security import reset_pin_failures

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "castle-croquetnole-game.jsonl"
PIN = "4321"
PREFIX = 120
"""How many of the sample game's events the API tests' session holds."""


@pytest.fixture(scope="session")
def example_events() -> list[Event]:
    return read_events(EXAMPLE)


@pytest.fixture
def referee(tmp_path: Path, example_events: list[Event]) -> Iterator[Referee]:
    store = SessionStore(tmp_path / "sessions.sqlite", durable=False)
    ref = Referee(store)
    runner = ref.new_session("castle-croquetnole", {}, None, label="test")
    for i, event in enumerate(example_events[:PREFIX]):
        runner.add_source_event(event, i)
    yield ref
    ref.close()
    store.close()


@pytest.fixture
def runner(referee: Referee) -> SessionRunner:
    assert referee.current is not None
    return referee.current


@pytest.fixture
def app(referee: Referee, tmp_path: Path) -> Flask:
    reset_pin_failures()
    return create_app({"TESTING": True, "REFEREE": referee, "TABLE_PIN": PIN,
                       "DATABASE": str(tmp_path / "sessions.sqlite"),
                       "SSE_KEEPALIVE_S": 0.05})


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


def post(client: FlaskClient, url: str, body: Any = None, *, pin: str | None = PIN,
         csrf: bool = True, headers: dict[str, str] | None = None, **kw: Any) -> Any:
    """POST as the page does: JSON, the CSRF token and the PIN (each can be left out)."""
    h: dict[str, str] = dict(headers or {})
    if csrf:
        h["X-CSRF-Token"] = client.application.config["CSRF_TOKEN"]
    if pin is not None:
        h["X-Table-Pin"] = pin
    if body is not None and "data" not in kw:
        kw["json"] = body
    return client.post(url, headers=h, **kw)
