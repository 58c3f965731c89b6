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
