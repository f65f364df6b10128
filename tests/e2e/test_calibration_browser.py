"""End to end in headless Chromium: on the calibration page a person uploads a synthetic still,
sees the problems and the drawn tiles, drags the NE corner handle, and the overlay follows."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.conftest import PIN, ROOT, Served, checked_page
from tests.web.test_calibration_page import synthetic_jpeg


@pytest.fixture
def page(browser: Any, served: Served) -> Iterator[Any]:
    with checked_page(browser, 900, ignore="404") as pg:  # the summary is 404 before a first run
        yield pg


def test_upload_see_problems_drag_a_corner(served: Served, page: Any, tmp_path: Path) -> None:
    still = tmp_path / "table.jpg"
    still.write_bytes(synthetic_jpeg())
    page.goto(served.url + "/")
    page.evaluate(f"sessionStorage.setItem('table-pin', '{PIN}')")
    page.click("header nav a[href='/calibration']")
    page.wait_for_selector("#cal-msg:has-text('Upload a still')")
    page.set_input_files("#cal-file", str(still))
    page.click("#cal-run")
    page.wait_for_selector("#cal-problems li[data-subject='door-3-a']")
    problems = page.locator("#cal-problems li")
    assert problems.count() == 2
    assert "door-2-b is missing" in page.inner_text("#cal-problems")
    assert page.locator("#cal-svg .tile").count() == 16
    assert page.locator("#cal-svg .tile.bad").count() == 2
    assert page.locator("#cal-svg .gate").count() == 8
    assert page.locator("#cal-svg .corner-handle").count() == 4
    page.hover("#cal-problems li[data-subject='door-3-a']")
    assert "hl" in (page.get_attribute("#cal-svg .tile[data-name='door-3-a']", "class") or "")
    assert page.is_visible("#cal-save")
    page.wait_for_timeout(300)  # the still has loaded under the overlay
    # The docs image is refreshed only on request (REFRESH_DOCS_IMAGES=1): a test run must not
    # change tracked files.
    shot = (ROOT / "docs" / "img" if os.environ.get("REFRESH_DOCS_IMAGES") else tmp_path)
    page.locator(".cal-row").screenshot(path=str(shot / "calibration.png"))

    before = page.get_attribute("#cal-svg .tile[data-name='tower-3'] polygon", "points")
    ne = page.locator("#cal-svg .corner-handle[data-corner='NE']")
    box = ne.bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x + 15, y + 10, steps=5)
    page.mouse.up()
    page.wait_for_selector("#cal-msg:has-text('corners manual')")
    after = page.get_attribute("#cal-svg .tile[data-name='tower-3'] polygon", "points")
    assert after != before
    cx = float(page.get_attribute("#cal-svg .corner-handle[data-corner='NE']", "cx") or 0)
    assert cx > 1085  # the handle stayed where it was dropped (NE was at x 1080)
