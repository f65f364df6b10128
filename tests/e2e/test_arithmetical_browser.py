"""End to end in headless Chromium: on the Arithmetical Croquet page a person names a legal
number by clicking it, the computer (player 2) replies, and the rulings and the hint show."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.conftest import Served, checked_page


@pytest.fixture
def page(browser: Any, served: Served) -> Iterator[Any]:
    with checked_page(browser, 1000) as pg:
        yield pg


def test_play_a_number_against_the_computer(served: Served, page: Any, tmp_path: Path) -> None:
    page.goto(served.url + "/")
    page.click("header nav a[href='/arithmetical']")
    page.wait_for_selector("#arc-moves button[data-move='8']")
    assert page.inner_text("#arc-banner").startswith("Turn 1: Player 1 to play")
    assert page.locator("#arc-moves button").count() == 8
    assert page.locator("#arc-line .hoop").count() == 9

    page.click("#arc-moves button[data-move='1']")
    page.wait_for_selector("#arc-msg:has-text('Player 2 (computer) names')")
    page.wait_for_selector("#arc-banner:has-text('Turn 3: Player 1 to play')")
    assert page.get_attribute("#arc-line .ball.p1", "data-pos") == "1"
    named = page.inner_text("#arc-msg").split("names ")[1].rstrip(".")
    assert page.get_attribute("#arc-line .ball.p2", "data-pos") == named
    log = page.locator("#arc-log li")
    assert log.count() == 2
    newest = log.first
    assert "by-computer" in (newest.get_attribute("class") or "")
    assert f"Player 2 names {named}" in newest.inner_text()
    assert newest.locator(".clause").inner_text() == "ARC-06"
    assert newest.locator(".clause").get_attribute("title")
    assert "Player 1 names 1" in log.nth(1).inner_text()

    assert not page.locator("#arc-hint").is_visible()
    page.check("#arc-hint-toggle")
    page.wait_for_selector("#arc-hint .verdict")
    assert "with best play" in page.inner_text("#arc-hint").lower()
    assert page.locator("#arc-moves button.winning").count() >= 1
    page.screenshot(path=str(tmp_path / "arithmetical.png"), full_page=True)
    assert (tmp_path / "arithmetical.png").stat().st_size > 10_000
