"""The regulator report's table on the Hidden page names its columns in words, with what each means
(QA walk, #22: after Accept on the E. coli table the table's headers were the CSV's field names,
"variance_explained", "corr_child_profile")."""

from __future__ import annotations

import json

from conftest import PAGES, TIMEOUT, texts
from streamlit.testing.v1 import AppTest
from test_hidden_accepted_large import _accepted_session

from explorer import state


def test_report_table_headers_in_words_with_help():
    at = AppTest.from_file(str(PAGES / "hidden.py"), default_timeout=TIMEOUT)
    at.session_state[state.SESSION] = _accepted_session()
    at.run()
    assert not at.exception
    assert "Regulator report" in texts(at.subheader)
    (table,) = [d for d in at.dataframe if "variance_explained" in d.value.columns]
    config = json.loads(table.proto.columns)
    assert config["variance_explained"]["label"] == "variance explained"
    assert config["corr_child_profile"]["label"] == "corr(child, H)"
    for col in ("loading", "variance_explained", "corr_child_profile"):
        assert config[col].get("help"), col


def test_proposal_estimate_has_its_unit():
    from explorer.hidden_columns import proposal_columns

    config = proposal_columns("EBIC")["estimated ΔEBIC"]
    assert "nats" in config["help"]
