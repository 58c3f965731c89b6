"""The Search page's missing-cells line (explorer/missing_box.py; QA walk): the Home page's whole
banner, eleven lines at 6,000 genes, stood between the Search page's title and its Step button;
the Search page says it in one line and points to the Home page."""

from __future__ import annotations

import numpy as np
from conftest import page_test, texts

from engine.data import from_array


def test_one_line_on_the_search_page():
    rng = np.random.default_rng(0)
    x = rng.normal(size=(60, 4))
    x[:, 1] += x[:, 0]
    x[[3, 9, 20], [1, 2, 3]] = np.nan
    at = page_test("search.py", from_array(x, ["a", "b", "c", "d"])).run()
    assert not at.exception
    [line] = [t for t in texts(at.info) if "This file has" in t]
    assert "3 missing cell(s)" in line and "on the Home page" in line
    assert "posterior mean" not in line  # the whole banner is the Home page's
    assert not any("filled cells" in e.label for e in at.expander)


def test_nothing_without_missing_cells(small_data):
    ds, _ = small_data
    at = page_test("search.py", ds).run()
    assert not at.exception
    assert not any("This file has" in t for t in texts(at.info))
