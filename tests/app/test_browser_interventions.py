"""In a real headless Chromium: load the Sachs sample with its nine conditions and see the
condition column and the targets table in the sidebar (marker ``browser``; port 8611)."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_browser import CHROMIUM, streamlit_server

PORT = 8611
SCREENS = Path("/tmp/ipe_screens")

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def server():
    with streamlit_server(PORT) as url:
        yield url


def test_sachs_with_conditions_shows_the_targets_table(server, tmp_path):
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=str(CHROMIUM),
            headless=True,
            args=["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
        )
        try:
            page = browser.new_page(viewport={"width": 1400, "height": 1800})
            errors: list[str] = []
            page.on("pageerror", lambda exc: errors.append(str(exc)))
            page.goto(server, wait_until="domcontentloaded")
            page.get_by_text("853 instances x 11 variables").first.wait_for(timeout=60_000)
            sidebar = page.locator("[data-testid=stSidebar]")
            page.get_by_role("combobox", name="Sample").click()
            page.keyboard.type("nine conditions")
            page.get_by_role("option").filter(has_text="nine conditions").first.click()
            page.get_by_text("7466 instances x 11 variables").first.wait_for(timeout=60_000)
            sidebar.get_by_text("Condition column").first.wait_for(timeout=30_000)
            sidebar.get_by_text("9 conditions.").first.wait_for(timeout=30_000)
            # the targets table: an editable data grid in the sidebar
            sidebar.locator("[data-testid=stDataFrame]").first.wait_for(timeout=30_000)
            page.wait_for_timeout(1000)
            shot = tmp_path / "interventions_sidebar.png"
            page.screenshot(path=str(shot))
            SCREENS.mkdir(parents=True, exist_ok=True)
            (SCREENS / shot.name).write_bytes(shot.read_bytes())
            assert shot.stat().st_size > 20_000
            assert not errors, errors
        finally:
            browser.close()
