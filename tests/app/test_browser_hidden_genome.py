"""The Hidden page on a 2500-gene table in a real headless Chromium (issue #22): the proposals are
listed on request, the one resting on a single odd condition is flagged with that condition's
name, and the profile plot's axis names the conditions.

Marked ``browser``; its own server on port 8617 (or ``IPE_HIDDEN_PORT``). Screenshots go to
pytest's ``tmp_path`` and /tmp/ipe_screens/.
"""

from __future__ import annotations

import os
import time

import numpy as np
import pandas as pd
import pytest
from test_browser import _shot, chromium, open_app, streamlit_server, upload

pytestmark = pytest.mark.browser
PORT = int(os.environ.get("IPE_HIDDEN_PORT", "8617"))
ODD = "heat_shock_20min"


def write_genome_table(path, n_genes: int = 2500, m: int = 27, seed: int = 0) -> None:
    """Conditions in rows (named in a first text column), genes in columns: a 40-gene module
    driven by one unmeasured factor, and condition ``ODD`` 6 sd high in 100 other genes."""
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(m, n_genes))
    h = rng.normal(size=m)
    x[:, :40] = 0.85 * h[:, None] + 0.5 * rng.normal(size=(m, 40))
    x[8, 100:200] += 6.0
    conditions = [f"t{5 * i:02d}min" for i in range(m)]
    conditions[8] = ODD
    frame = pd.DataFrame(x, columns=[f"g{j:04d}" for j in range(n_genes)])
    frame.insert(0, "condition", conditions)
    frame.to_csv(path, index=False)


@pytest.fixture(scope="module")
def hidden_server():
    with streamlit_server(PORT) as url:
        yield url


def test_hidden_page_at_2500_genes_names_the_odd_condition(hidden_server, tmp_path):
    path = tmp_path / "genome_2500.csv"
    write_genome_table(path)
    with chromium() as browser:
        page, errors = open_app(browser, hidden_server)
        upload(page, path)
        page.get_by_text("27 instances x 2500 variables").first.wait_for(timeout=120_000)
        page.get_by_role("link", name="Hidden variables").first.click()
        button = page.get_by_role("button", name="Propose hidden variables", exact=True).first
        button.wait_for(timeout=60_000)
        t0 = time.monotonic()
        button.click()
        page.locator("[data-testid=stDataFrame]").first.wait_for(timeout=120_000)
        listed_s = time.monotonic() - t0
        warning = page.locator("[data-testid=stAlert]", has_text="draw most of their profile from").first
        warning.wait_for(timeout=30_000)
        assert ODD in warning.inner_text()
        # the profile plot's axis names conditions, not sorted indices
        page.locator(".js-plotly-plot").first.wait_for(timeout=30_000)
        page.wait_for_timeout(1500)
        ticks = page.eval_on_selector_all(".js-plotly-plot .xtick text", "els => els.map(e => e.textContent)")
        assert any(t.endswith("min") for t in ticks), ticks
        _shot(page, tmp_path, "hidden_genome_2500.png")
        print(f"Hidden page, 2500 genes x 27 conditions: proposals listed {listed_s:.1f} s after the click")
        assert not errors, errors
