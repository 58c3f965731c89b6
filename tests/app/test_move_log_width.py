"""The Search page's move log shows all its columns at 1280 x 800.

Found in a browser: with the "edge" column "large" (400 px) the log was wider than the page's
820 px, so "rank" was cut in half and "exact evaluations" hidden behind a horizontal scroll.
"""

from __future__ import annotations

import json

from conftest import page_test

from explorer import state


def test_no_move_log_column_is_large(small_data):
    dataset, truth = small_data
    at = page_test("search.py", dataset, truth).run()
    at.button(key=state.W_STEP).click().run()
    assert not at.exception
    log = at.dataframe[0]
    config = json.loads(log.proto.columns)
    assert "rank" in config and "exact evaluations" in config
    assert all(col.get("width") != "large" for col in config.values())
    assert list(log.value.columns)[:2] == ["operator", "edge"]  # "step" is the index


def test_compare_logs_fit_half_the_page(small_data):
    # found with Compare on at 1280 px: each log (402 px) showed operator, edge and C2 only; the
    # score change and the rank, what the comparison is about, were cut off
    dataset, truth = small_data
    at = page_test("search.py", dataset, truth).run()
    at.toggle(key=state.W_COMPARE).set_value(True).run()
    at.button(key=state.W_STEP).click().run()
    assert not at.exception
    for log in at.dataframe:
        assert list(log.proto.column_order) == ["operator", "edge", "C2", "exact ΔBIC", "rank"]
        edge = json.loads(log.proto.columns)["edge"]
        assert isinstance(edge["width"], int) and edge["width"] <= 100
