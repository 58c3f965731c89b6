"""What a biologist sees in a real headless Chromium when giving the app a workbook renamed .csv
and a TF list with unmeasured and repeated ids: the refusal names the file for what it is and the
fix; the note under the list names the ids left out and the one listed twice.

Marked ``browser``; its own server. Screenshots go to pytest's ``tmp_path`` and /tmp/ipe_screens/.
"""

from __future__ import annotations

import pandas as pd
import pytest
from test_browser import _shot, app_server, open_app, shared_chromium, upload

pytestmark = pytest.mark.browser


def test_renamed_workbook_and_regulator_note(tmp_path):
    book = tmp_path / "book.xlsx"
    pd.DataFrame({"A": [1.0, 2.0, 3.0, 4.0], "B": [2.0, 1.0, 0.5, 3.0]}).to_excel(book, index=False)
    renamed = tmp_path / "expression.csv"
    renamed.write_bytes(book.read_bytes())
    with app_server() as url, shared_chromium() as browser:
        page, errors = open_app(browser, url)
        upload(page, renamed)
        page.get_by_text("expression.csv: is an Excel (.xlsx) workbook").first.wait_for(timeout=60_000)
        assert "give it its .xlsx name, or save it as CSV" in page.inner_text("body")
        assert "853 instances x 11 variables" in page.inner_text("body")  # the sample stays loaded
        _shot(page, tmp_path, "first_inputs_renamed_workbook.png")

        sidebar = page.locator("[data-testid=stSidebar]")
        sidebar.locator("textarea").first.fill("Raf\nMek\nPKA\nMek\nTP53\n")
        sidebar.locator("button", has_text="Apply").first.click()
        note = sidebar.locator("[data-testid=stAlert]", has_text="Regulator list applied").first
        note.wait_for(timeout=60_000)
        said = note.inner_text()
        assert "3 of 4 listed names are variables" in said and "Not in the data (ignored): TP53." in said
        assert "Listed more than once (counted once): Mek." in said
        note.scroll_into_view_if_needed()
        _shot(page, tmp_path, "first_inputs_regulator_note.png")
        assert not errors, errors
