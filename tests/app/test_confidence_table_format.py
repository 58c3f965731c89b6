"""The Confidence page's edge table: shares to two decimals, no unnamed index column.

Found on the Sachs sample (50 replicates): the table had a leading 0, 1, 2... column and mixed
"1", "0.54" and "0.8889" in its strength and direction columns.
"""

from __future__ import annotations

import json
import time

import pytest

pytest.importorskip("distributed")

from conftest import page_test  # noqa: E402
from dask.distributed import LocalCluster  # noqa: E402

from explorer.confidence import ConfidenceController  # noqa: E402
from explorer.pages import confidence as page  # noqa: E402


def _threads_cluster():
    return LocalCluster(n_workers=1, threads_per_worker=1, processes=False, dashboard_address=None)


def test_edge_table_formats_shares_and_hides_the_index(small_data):
    ds, truth = small_data
    ctl = ConfidenceController(_threads_cluster)
    at = page_test("confidence.py", ds, truth, **{page.CONTROLLER: ctl})
    try:
        at.run()
        at.number_input(key=page.KEY_B).set_value(4)
        at.button(key=page.KEY_RUN).click()
        at.run()
        deadline = time.monotonic() + 120
        while ctl.running and time.monotonic() < deadline:
            at.run()
        at.run()
        assert not at.exception
        table = at.dataframe[0]
        config = json.loads(table.proto.columns)
        assert config["strength"]["type_config"]["format"] == "%.2f"
        assert config["direction"]["type_config"]["format"] == "%.2f"
        assert config["strength"].get("help") and config["direction"].get("help")
        assert config.get("_index", {}).get("hidden") is True
    finally:
        ctl.close()
