"""What the Hidden page's browser tests share (#22; ``test_browser_hidden_genome.py``,
``test_browser_hidden_review.py``): a 2500-gene table with a co-expressed module and one odd
condition (:func:`write_genome_table`), the app opened on an uploaded table (:func:`open_with`) and
the proposals listed on request (:func:`propose`)."""

from __future__ import annotations

import time

import numpy as np
import pandas as pd
from test_browser import open_app, upload

#: the condition of :func:`write_genome_table` that is 6 sd high in 100 genes
ODD = "heat_shock_20min"
#: the data line the sidebar shows once that table is loaded
GENOME_SHAPE = "27 instances x 2500 variables"


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


def open_with(browser, url: str, path, shape: str, width: int | None = None):
    """A page of the app at ``url`` (1400 px wide, or ``width`` x 1400) with the table ``path``
    uploaded and its ``shape`` line shown; returns (page, the list its JavaScript errors go to)."""
    page, errors = open_app(browser, url)
    if width is not None:
        page.set_viewport_size({"width": width, "height": 1400})
    upload(page, path)
    page.get_by_text(shape).first.wait_for(timeout=240_000)
    return page, errors


def propose(page) -> float:
    """Open the Hidden page, press "Propose hidden variables" and wait for the proposals table;
    returns the seconds from the click to the table."""
    page.get_by_role("link", name="Hidden variables").first.click()
    button = page.get_by_role("button", name="Propose hidden variables", exact=True).first
    button.wait_for(timeout=60_000)
    t0 = time.monotonic()
    button.click()
    page.locator("[data-testid=stDataFrame]").first.wait_for(timeout=300_000)
    return time.monotonic() - t0
