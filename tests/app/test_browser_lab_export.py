"""A newcomer's walk in a real headless Chromium with a lab's headerless export (QA, session 18): gene
rows with a description column and a few missing cells (:func:`test_lab_export_walk.lab_export`),
uploaded with "variables in rows"; the refusal and its one-click fix, as a person sees them. Before, the
first gene became the header silently and the conditions were named by its values. The rest of the walk
(Search, Hidden with the conditions named from sample1, Accept) is the AppTest of test_lab_export_walk.py,
kept out of the browser for the suite's time.

Marked ``browser``; its own server on a free port. Screenshots go to
pytest's ``tmp_path`` and /tmp/ipe_screens/.
"""

from __future__ import annotations

import pytest
from test_browser import _shot, app_server, settled, shared_chromium, upload
from test_lab_export_walk import N_CONDITIONS, N_GENES, lab_export

pytestmark = pytest.mark.browser


def test_headerless_export_walk(tmp_path):
    path = tmp_path / "lab_export.tsv"
    path.write_bytes(lab_export())
    with app_server() as url, shared_chromium() as browser:
        page = browser.new_page(viewport={"width": 1400, "height": 1800})
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(url, wait_until="domcontentloaded")
        page.get_by_text("853 instances x 11 variables").first.wait_for(timeout=120_000)
        upload(page, path)
        page.get_by_text("seems to have no header row").first.wait_for(timeout=120_000)  # read as uploaded
        # once the upload's rerun is over: a click during it was lost in a clean-clone run
        settled(page, page.get_by_text("variables in rows (transpose)", exact=True), 120_000).click()
        # the sidebar's refusal, in full, once it is for the file read with genes in rows
        refusal = page.locator("[data-testid=stSidebar] [data-testid=stAlert]", has_text="sample1..sample14")
        refusal.first.wait_for(timeout=120_000)
        assert "seems to have no header row" in refusal.first.inner_text()
        assert "the variable 'YAL001W'" in refusal.first.inner_text()
        _shot(page, tmp_path, "lab_export_refused.png")
        settled(page, page.get_by_role("button", name="Read the first line as data"), 120_000).click()
        page.get_by_text(f"{N_CONDITIONS} instances x {N_GENES} variables").first.wait_for(timeout=120_000)
        sidebar = page.locator("[data-testid=stSidebar]").inner_text()
        assert "gene annotation: text1" in sidebar
        _shot(page, tmp_path, "lab_export_loaded.png")
        assert not errors, errors
