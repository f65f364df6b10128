"""End to end in headless Chromium: the scoreboard follows a replay as the ground truth says,
the dispute view shows a ruling, an override works with the PIN and is refused without it,
and the page fits a phone."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from referee.events import Event
from referee.rules import make_game, replay
from tests.e2e.conftest import PIN, Served


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    """A page; list it after the server fixture so it closes before the server stops."""
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    pg = context.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.on("console", lambda m: errors.append(m.text)
          if m.type == "error" and "status of 401" not in m.text else None)
    yield pg
    context.close()
    assert errors == [], errors


def shown(page: Any) -> dict[str, Any]:
    """What the scoreboard shows, per player: progress, guard duty, whose turn, winner."""
    return page.evaluate("""() => {
      const out = {};
      for (const card of document.querySelectorAll('.player')) {
        out[card.dataset.player] = {
          done: Number(card.querySelector('.progress').textContent.split('/')[0]),
          on_duty: card.querySelector('.duty').textContent === 'on duty',
          turn: !!card.querySelector('.turn-tag'),
          won: !!card.querySelector('.win-tag'),
        };
      }
      return out;
    }""")


def truth(events: list[Event]) -> dict[str, Any]:
    s = replay(make_game("castle-croquetnole"), events).state.summary()
    return {n: {"done": p["knight"]["course_done"], "on_duty": p["guard"]["on_duty"],
                "turn": not s["over"] and s["turn"]["player"] == int(n),
                "won": s["over"] and s["winner"] == int(n)}
            for n, p in s["players"].items()}


def wait_for(check: Any, timeout: float = 30.0) -> None:
    end = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < end, "timed out"
        time.sleep(0.05)


def test_scoreboard_follows_the_replay(replaying: Served, page: Any,
                                       example_events: list[Event], tmp_path: Path) -> None:
    page.goto(replaying.url + "/")
    page.wait_for_selector(".player")
    seen = []
    for at in (120, 380):
        wait_for(lambda at=at: replaying.runner.head >= at)
        replaying.runner.control("pause")
        page.wait_for_selector("#conn:has-text('paused')")
        head = replaying.runner.head
        expected = truth(example_events[:head])
        end = time.monotonic() + 20  # the page draws once a frame: a moment under load
        while shown(page) != expected and time.monotonic() < end:
            time.sleep(0.05)
        assert shown(page) == expected, f"after {head} events"
        seen.append(shown(page))
        if at == 380:
            page.screenshot(path=str(tmp_path / "scoreboard.png"), full_page=True)
            assert (tmp_path / "scoreboard.png").stat().st_size > 10_000
        replaying.runner.control("speed", 400)
        replaying.runner.control("resume")
    assert seen[0] != seen[1], "the scoreboard changed as the game went on"
    page.wait_for_selector(".banner.win", timeout=60000)
    final = truth(example_events)
    wait_for(lambda: shown(page) == final, timeout=20)
    winner = next(n for n, p in final.items() if p["won"])
    assert f"Player {winner}" in page.inner_text("#banner")
    log = page.locator("#log li")
    assert log.count() >= 100
    assert page.locator("#log li .clause").first.inner_text()


def _flick_with(stored: Served, kind: str) -> tuple[dict[str, Any], dict[str, Any]]:
    for f in stored.runner.flicks():
        for r in f["rulings"]:
            if r["kind"] == kind:
                return f, r
    raise AssertionError(f"no {kind} ruling in the first events")


def test_dispute_view_shows_the_ruling(stored: Served, page: Any) -> None:
    flick, ruling = _flick_with(stored, "capture")
    page.goto(f"{stored.url}/dispute?flick={flick['seq']}")
    item = page.locator(f"#flick-rulings li[data-id='{ruling['id']}']")
    item.wait_for()
    assert ruling["text"] in item.inner_text()
    assert item.locator(".clause").inner_text() == ruling["clause"]
    assert item.locator(".clause").get_attribute("title") == ruling.get("rule", "")
    assert page.locator("#flick-events li").first.inner_text().endswith("is flicked")
    assert page.locator("#recon .m-coin").count() >= 8
    assert page.locator("#no-clip").is_visible()
    href = page.get_attribute("#bundle-link", "href")
    assert href and re.search(r"/export\?flick=\d+$", href)
    if ruling.get("rule"):
        assert item.locator(".rule").inner_text() == ruling["rule"]
    # What if: the same session under another house rule.
    page.wait_for_selector("#whatif-options select[name=own_gate_scores]", state="attached")
    page.select_option("#whatif-options select[name=own_gate_scores]", "false")
    page.click("#whatif-form button[type=submit]")
    page.wait_for_selector("#whatif-result:has-text('would be ruled differently')")
    assert page.locator("#whatif-result .changes li").count() >= 1


def test_override_needs_the_pin(stored: Served, page: Any) -> None:
    flick, ruling = _flick_with(stored, "score")
    before = stored.runner.head
    page.goto(f"{stored.url}/dispute?flick={flick['seq']}")
    page.locator(f"#flick-rulings li[data-id='{ruling['id']}']").wait_for()
    page.select_option("#override-ruling", ruling["id"])
    page.fill("#override-by", "Ann")
    page.fill("#override-reason", "it never crossed")
    page.click("#override-form button[type=submit]")
    page.wait_for_selector("#pin-dialog[open]")
    page.fill("#pin-input", "0000")
    page.click("#pin-ok")
    page.wait_for_selector("#pin-error:has-text('wrong')")
    page.click("#pin-cancel")
    page.wait_for_selector("#override-msg:has-text('Refused')")
    assert stored.runner.head == before, "a refused override stores nothing"

    page.click("#override-form button[type=submit]")
    page.wait_for_selector("#pin-dialog[open]")
    page.fill("#pin-input", PIN)
    page.click("#pin-ok")
    page.wait_for_selector("#override-msg:has-text('Overruled')")
    assert stored.runner.head == before + 1
    last = stored.store.events(stored.runner.id)[-1]
    assert last.origin == "override" and last.event.ruling == ruling["id"]  # type: ignore[attr-defined]
    page.goto(f"{stored.url}/")
    page.wait_for_selector(f"#log li[data-id='{ruling['id']}'].overruled", state="attached")


def test_the_scoreboard_fits_a_phone(browser: Any, stored: Served) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True,
                                  has_touch=True, device_scale_factor=2)
    page = context.new_page()
    try:
        page.goto(stored.url + "/")
        page.wait_for_selector(".player")
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 390, f"the page scrolls sideways on a phone ({width}px)"
        box = page.locator(".player").first.bounding_box()
        assert box and box["width"] > 300, "players stack in one column"
        assert page.locator("#end-play").is_visible()
    finally:
        context.close()


def test_camera_image_with_the_table_drawn_over_it(stored: Served, page: Any) -> None:
    import cv2
    import numpy as np

    image = np.full((480, 640, 3), 60, np.uint8)
    ok, jpeg = cv2.imencode(".jpg", image)
    assert ok
    h = [[0.5, 0.0, 320.0], [0.0, -0.5, 240.0], [0.0, 0.0, 1.0]]
    stored.store.add_note(stored.runner.id, "calibration",
                          {"image_size": [640, 480], "homography_mm_to_px": h})
    stored.runner.latest_overlay = {"coins": {"moons": [0.0, -254.0]},
                                    "tracks": {"moons": [[0.0, -320.0], [0.0, -254.0]]}}
    stored.runner.latest_jpeg = jpeg.tobytes()
    stored.runner.broadcaster.publish("status", {"session": stored.runner.info()})
    page.goto(stored.url + "/")
    page.wait_for_selector("#camera-panel:not([hidden])")
    page.wait_for_selector("#camera-overlay text[data-coin='moons']", state="attached")
    assert page.locator("#camera-overlay .o-line").count() == 8
    assert page.locator("#camera-overlay .o-track").count() == 1
    wait_for(lambda: page.evaluate("document.getElementById('camera-img').naturalWidth")
             == 640)  # polled here: wait_for_function evaluates strings, which the CSP forbids
