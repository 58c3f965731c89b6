"""In a real headless Chromium: load the Sachs sample with its nine conditions and see the
condition column and the targets table in the sidebar (marker ``browser``; its own server on a free port)."""

from __future__ import annotations

import pytest
from test_browser import _shot, app_server, open_app, shared_chromium

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def server():
    with app_server() as url:
        yield url


def test_sachs_with_conditions_shows_the_targets_table(server, tmp_path):
    with shared_chromium() as browser:
        page, errors = open_app(browser, server)
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
        shot = _shot(page, tmp_path, "interventions_sidebar.png")
        assert shot.stat().st_size > 20_000
        assert not errors, errors
