"""A GEO series matrix in a real headless Chromium: after Transpose, the sidebar lists the sample
characteristics that can be covariates (the skipped ones with why) and one click adds them
(explorer.geo_covariates). Screenshots: /tmp/ipe_screens/geo_offer.png and geo_added.png.

Marked ``browser``; its own server on a free port.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from test_browser import _shot, app_server, open_app, shared_chromium, upload

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "engine"))
from test_geo_samples import _matrix  # noqa: E402

pytestmark = pytest.mark.browser


def test_the_offer_and_one_click(tmp_path):
    path = _matrix(tmp_path)
    with app_server() as url, shared_chromium() as browser:
        page, errors = open_app(browser, url)
        upload(page, path)
        sidebar = page.locator("[data-testid=stSidebar]")
        offer = sidebar.get_by_text("GEO sample characteristics")
        offer.first.wait_for(timeout=60_000)
        assert "Transpose first" in sidebar.inner_text()
        sidebar.get_by_text("variables in rows (transpose)", exact=True).click()  # the Orientation radio
        page.get_by_text("12 instances x 10 variables").first.wait_for(timeout=60_000)
        button = sidebar.get_by_role("button", name="Use them as covariates")
        button.wait_for(timeout=30_000)
        button.scroll_into_view_if_needed()
        _shot(page, tmp_path, "geo_offer.png")
        assert "by treatment, batch, time, age" in sidebar.inner_text()
        button.click()
        note = sidebar.get_by_text("Covariates: treatment (2 levels")
        note.first.wait_for(timeout=120_000)
        note.first.scroll_into_view_if_needed()
        shot = _shot(page, tmp_path, "geo_added.png")
        assert shot.stat().st_size > 10_000
        text = sidebar.inner_text()
        assert "5 variable(s) added: treatment=heat, batch=2, time=30 min, time=60 min, age" in text
        assert "skipped 'tissue' (the same on every sample: liver)" in text
        assert not page.locator("[data-testid=stException]").count() and not errors
