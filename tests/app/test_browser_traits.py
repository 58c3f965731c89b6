"""Sample traits in a real headless Chromium (explorer/traits_box.py): a biologist uploads a table with
sample ids and a sample sheet in the sidebar's "Sample traits (read, not modelled)" box, which says what
each column became; on the Hidden page, after the search and Accept, the regulator report says which trait
H1 follows and draws the module-trait heatmap. Marked ``browser``; the shared server; screenshots in
pytest's ``tmp_path`` and /tmp/ipe_screens/."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hidden_browser import open_with
from test_browser import _shot, app_server, shared_chromium

pytestmark = pytest.mark.browser
M, N = 120, 30


def test_upload_a_trait_sheet_and_read_h1_by_it(tmp_path):
    rng = np.random.default_rng(7)
    x = rng.normal(size=(M, N))
    h = rng.normal(size=M)
    x[:, :6] += h[:, None] * rng.choice([-1.2, 1.2], size=6)
    ids = [f"S{i:03d}" for i in range(M)]
    data = tmp_path / "expr.csv"
    frame = pd.DataFrame(x, columns=[f"g{j}" for j in range(N)])
    frame.insert(0, "sample", ids)
    frame.to_csv(data, index=False)
    sheet = tmp_path / "samples.csv"
    traits = pd.DataFrame({"sample": ids, "stress_score": h.round(4), "sex": rng.choice(["F", "M"], M)})
    traits.to_csv(sheet, index=False)
    with app_server() as url, shared_chromium() as browser:
        page, errors = open_with(browser, url, data, f"{M} instances x {N} variables")
        sidebar = page.locator("[data-testid=stSidebar]")
        sidebar.locator("summary", has_text="Sample traits (read, not modelled)").first.click()
        box = sidebar.locator("[data-testid=stFileUploader]").filter(has_text="Sample sheet")
        box.locator("input[type=file]").set_input_files(str(sheet))
        read = sidebar.get_by_text("samples.csv: stress_score (numeric), sex (2 levels: sex=M against F)")
        read.wait_for(timeout=60_000)  # the box stays open after the upload
        _shot(page, tmp_path, "traits_sidebar.png")
        page.get_by_role("link", name="Hidden variables").first.click()
        page.get_by_role("button", name="Run the search to convergence first").click()
        page.locator("[data-testid=stDataFrame]").first.wait_for(timeout=180_000)
        page.wait_for_timeout(1500)
        page.get_by_role("button", name="Accept", exact=True).first.click()
        line = page.get_by_text("H1 follows the sample trait stress_score (r = ").first
        line.wait_for(timeout=180_000)
        line.scroll_into_view_if_needed()
        page.locator(".js-plotly-plot").filter(has_text="stress_score").first.wait_for(timeout=30_000)
        _shot(page, tmp_path, "traits_hidden_page.png")
        assert "upload that column as sample annotations (covariates)" in line.inner_text()
        assert page.get_by_role("button", name="Download trait relationships (CSV)").count() == 1
        assert not errors, errors
