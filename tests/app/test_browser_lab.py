"""A lab's expression file in a real headless Chromium (issues #11, #14): upload the 600-gene file
with missing cells (``lab_file.py``), see the missing-cells banner and the warnings that name the
repeated id and the genes left out, then Step on the Search page.

Marked ``browser``; its own server on a free port. Screenshots go to
pytest's ``tmp_path`` and /tmp/ipe_screens/.
"""

from __future__ import annotations

import time

import pytest
from lab_file import write_lab_file
from test_browser import _shot, app_server, open_app, shared_chromium, upload

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def lab_server():
    with app_server() as url:
        yield url


def test_lab_file_upload_missing_cells_and_step(lab_server, tmp_path):
    lab = write_lab_file(tmp_path / "lab_600genes.csv", 600, 40)
    with shared_chromium() as browser:
        page, errors = open_app(browser, lab_server)
        t0 = time.monotonic()
        upload(page, lab.path)
        # the banner: how many cells are missing and that the search runs on completed data
        page.get_by_text("This file has").first.wait_for(timeout=120_000)
        load_s = time.monotonic() - t0
        banner = page.locator("[data-testid=stAlert]", has_text="This file has").first.inner_text()
        assert "missing cell(s)" in banner and "structural EM" in banner, banner
        sidebar = page.locator("[data-testid=stSidebar]").inner_text()
        assert "40 instances x 598 variables" in sidebar
        assert f"Renamed: repeated variable name(s) '{lab.duplicated}'" in sidebar
        assert lab.mostly_missing in sidebar and lab.constant in sidebar and "treatment" in sidebar
        _shot(page, tmp_path, "lab_home.png")

        page.get_by_role("link", name="Search").first.click()
        page.get_by_text("Moves: 0").first.wait_for(timeout=60_000)
        page.get_by_text("This file has").first.wait_for(timeout=30_000)
        t0 = time.monotonic()
        page.locator("[data-testid=stMain] button", has_text="Step").first.click()
        page.get_by_text("Moves: 1").first.wait_for(timeout=60_000)
        step_s = time.monotonic() - t0
        page.locator("iframe").first.wait_for(timeout=30_000)
        page.wait_for_timeout(1500)
        _shot(page, tmp_path, "lab_search_step.png")
        print(f"lab file 600 x 40 in the browser: upload to banner {load_s:.1f} s, Step click {step_s:.2f} s")
        assert not errors, errors
