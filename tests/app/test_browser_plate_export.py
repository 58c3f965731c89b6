"""A data analyst's plate-reader export in a real headless Chromium: a units line under the header,
a failed well (no value at all), ``#N/A`` and ``NA`` cells, and a transcription-factor list in
another case than the table's names. The page says each thing it did where the user looks (the
sidebar), and the list's names are used as the table's.

Marked ``browser``; its own server on a free port. Screenshots go to pytest's ``tmp_path`` and
/tmp/ipe_screens/.
"""

from __future__ import annotations

import numpy as np
import pytest
from test_browser import _shot, app_server, open_app, shared_chromium, upload

pytestmark = pytest.mark.browser


def _plate(path) -> None:
    rng = np.random.default_rng(11)
    tf = rng.normal(8, 1, size=(16, 2))
    genes = 0.9 * tf[:, [0, 0, 1, 1]] + 0.4 * rng.normal(size=(16, 4))
    values = np.column_stack([tf, genes])
    lines = ["Well;TF_A;TF_B;G1;G2;G3;G4", "Unit;Ct;Ct;Ct;Ct;Ct;Ct"]
    for j, row in enumerate(values):
        cells = [f"{v:.3f}".replace(".", ",") for v in row]
        if j == 6:
            cells = ["#N/A", "", "NA", "", "", ""]  # a failed well
        if j == 9:
            cells[3] = "#N/A"
        lines.append(f"A{j + 1};" + ";".join(cells))
    path.write_bytes("\ufeff".encode() + "\r\n".join(lines).encode() + b"\r\n")


def test_plate_export_and_a_lower_case_tf_list(tmp_path):
    path = tmp_path / "plate.csv"
    _plate(path)
    with app_server() as url, shared_chromium() as browser:
        page, errors = open_app(browser, url)
        upload(page, path)
        page.get_by_text("16 instances x 6 variables").first.wait_for(timeout=60_000)
        sidebar = page.locator("[data-testid=stSidebar]")
        alerts = sidebar.locator("[data-testid=stAlert]")
        alerts.filter(has_text="Check: Instance(s) with no measured value at all: 'A7'").first.wait_for(timeout=30_000)
        assert alerts.filter(has_text="Not used: the line under the header ('Unit'").count() == 1
        sidebar.get_by_role("textbox", name="Candidate regulators (optional)").fill("tf_a\nTF_b\nMYC")
        sidebar.get_by_role("button", name="Apply").click()
        note = sidebar.locator("[data-testid=stAlert]", has_text="Regulator list applied").first
        note.wait_for(timeout=30_000)
        text = note.inner_text()
        assert "2 of 3 listed names are variables" in text
        assert "Matched ignoring case: tf_a = TF_A, TF_b = TF_B." in text and "MYC" in text
        page.get_by_role("link", name="Search").first.click()
        page.get_by_text("regulators: 2 of 3 listed names found").first.wait_for(timeout=30_000)
        page.locator("[data-testid=stMain] button", has_text="Run to convergence").first.click()
        page.get_by_text("Converged").first.wait_for(timeout=60_000)
        page.wait_for_timeout(1500)
        _shot(page, tmp_path, "plate_export_search.png")
        assert not errors, errors
