"""Browser tests: a real headless Chromium (Debian's, at /usr/bin/chromium) driven by
Playwright against a referee served on 127.0.0.1 on a free port."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from referee.events import Event, read_events
from referee.session import EventFileSource, Referee, SessionRunner, SessionSource
from referee.store import SessionStore
from web_ui import create_app
from web_ui.blueprints.security import reset_pin_failures

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "castle-croquetnole-game.jsonl"
CHROMIUM = Path("/usr/bin/chromium")
PIN = "8642"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--no-first-run"]


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    if not CHROMIUM.exists():
        pytest.skip(f"{CHROMIUM} is absent (install Debian's chromium: .ci/system-packages)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield b
        b.close()


@pytest.fixture(scope="session")
def example_events() -> list[Event]:
    return read_events(EXAMPLE)


class Served:
    """A referee served on a free port in a thread."""

    def __init__(self, tmp: Path, source: SessionSource | None,
                 preload: list[Event] | None = None,
                 calibration: dict[str, Any] | None = None) -> None:
        from werkzeug.serving import make_server

        reset_pin_failures()
        self.store = SessionStore(tmp / "e2e.sqlite", durable=False)
        self.referee = Referee(self.store)
        self.runner: SessionRunner = self.referee.new_session(
            "castle-croquetnole", {}, source, label="e2e", calibration=calibration)
        for i, e in enumerate(preload or []):
            self.runner.add_source_event(e, i)
        self.app = create_app({"REFEREE": self.referee, "TABLE_PIN": PIN,
                               "DATABASE": str(tmp / "e2e.sqlite")})
        self.server = make_server("127.0.0.1", 0, self.app, threaded=True)
        self.url = f"http://127.0.0.1:{self.server.server_port}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def close(self) -> None:
        self.referee.close()  # ends the event streams first
        self.server.shutdown()
        self.server.server_close()
        self.thread.join(5)
        self.store.close()


@pytest.fixture
def replaying(tmp_path: Path, example_events: list[Event]) -> Iterator[Served]:
    served = Served(tmp_path, EventFileSource(example_events, speed=40))
    yield served
    served.close()


@pytest.fixture
def stored(tmp_path: Path, example_events: list[Event]) -> Iterator[Served]:
    served = Served(tmp_path, None, preload=example_events[:300])
    yield served
    served.close()


@pytest.fixture
def served(tmp_path: Path) -> Iterator[Served]:
    """A referee with no session source: for pages that stand alone (calibration, games)."""
    server = Served(tmp_path, None)
    yield server
    server.close()


@contextmanager
def checked_page(browser: Any, height: int, ignore: str | None = None) -> Iterator[Any]:
    """A fresh page whose script errors and console errors fail the test (a console message
    containing `ignore` is expected and let through)."""
    context = browser.new_context(viewport={"width": 1280, "height": height})
    pg = context.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.on("console", lambda m: errors.append(m.text) if m.type == "error"
          and (ignore is None or ignore not in m.text) else None)
    yield pg
    context.close()
    assert errors == [], errors
