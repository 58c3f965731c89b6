"""The sidebar after Transpose with a covariate table, in a real headless Chromium (#22): a batch
table keyed by the conditions of a genes x conditions file is set aside (a caption says why and
what to do), and after Transpose it is added to the turned data: the sidebar names the batch
indicators and the data's new shape, with no error. Screenshots: /tmp/ipe_screens/covariates_set_aside.png and
covariates_transposed.png.

Marked ``browser``; its own server on a free port.
"""

from __future__ import annotations

import pytest
from test_browser import _shot, app_server, open_app, shared_chromium, upload
from test_covariates_transpose import write_files

pytestmark = pytest.mark.browser


def test_sidebar_after_transpose_names_the_covariates(tmp_path):
    expr, table = write_files(tmp_path)
    with app_server() as url, shared_chromium() as browser:
        page, errors = open_app(browser, url)
        upload(page, expr)
        page.get_by_text("12 instances x 30 variables").first.wait_for(timeout=60_000)
        sidebar = page.locator("[data-testid=stSidebar]")
        covariates = sidebar.locator("[data-testid=stFileUploader]").filter(has_text="Sample annotations")
        covariates.locator("input[type=file]").set_input_files(str(table))
        try:
            aside = sidebar.get_by_text("Covariates set aside").first
            aside.wait_for(timeout=60_000)
            aside.scroll_into_view_if_needed()
            _shot(page, tmp_path, "covariates_set_aside.png")
            page.locator("[data-testid=stMain]").get_by_role("button", name="Transpose", exact=True).first.click()
            note = sidebar.get_by_text("Covariates: batch (3 levels")  # the caption draws -> as an arrow
            note.first.wait_for(timeout=120_000)
        finally:
            _shot(page, tmp_path, "covariates_transposed.png")
        page.get_by_text("30 instances x 14 variables").first.wait_for(timeout=30_000)
        note.first.scroll_into_view_if_needed()
        shot = _shot(page, tmp_path, "covariates_transposed.png")
        assert shot.stat().st_size > 10_000
        text = sidebar.inner_text()
        assert "parents only (2 variable(s) added: batch=b1, batch=b2)" in text
        assert "Covariates set aside" not in text and "Covariates not added" not in text
        assert not page.locator("[data-testid=stException]").count() and not errors
