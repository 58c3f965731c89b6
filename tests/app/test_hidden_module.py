"""The Hidden page on a headerless lab table without a regulator list (issue #22): the co-expressed
module of an unmeasured regulator is proposed first, the odd condition is flagged and named, not
first; accepting the module gives a hidden variable that tracks the regulator, and the export
describes it."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import PAGES, TIMEOUT
from module_table import write_module_table
from streamlit.testing.v1 import AppTest

from engine.io import load_table
from explorer import export, state
from explorer.pages import hidden, inspector
from explorer.session import SearchSession


@pytest.fixture(scope="module")
def table(tmp_path_factory):
    return write_module_table(tmp_path_factory.mktemp("lab") / "lab_no_header.tsv", seed=4)


@pytest.fixture()
def page(table):
    ds = load_table(table.path, no_header=True, transpose=True)
    session = SearchSession(ds, None, table.path.name)
    session.start_run(None)
    while session.run_chunk(5.0):
        pass
    at = AppTest.from_file(str(PAGES / "hidden.py"), default_timeout=TIMEOUT)
    at.session_state[state.SESSION] = session
    at.run()
    at.button(key=hidden.KEY_PROPOSE).click().run()  # 500 variables: proposals on request
    assert not at.exception
    return at, session


def test_module_first_odd_condition_flagged_last(page, table):
    at, _ = page
    first = at.dataframe[0].value.iloc[0]
    assert first["rank"] == 1 and first["source"] == "co-expression"
    members = set(
        at.markdown[[m.value.startswith("**Members:**") for m in at.markdown].index(True)].value[12:].split(", ")
    )
    assert len(set(table.module) & members) >= 27
    warning = next(w.value for w in at.warning if "draw most of their profile from" in w.value)
    assert table.odd_condition in warning and "rank 1 " not in warning and "ranks 1" not in warning
    assert any("Order: those estimated to pay first" in c.value for c in at.caption)
    assert any("One common parent explains" in m.value for m in at.markdown)


def test_accepting_the_module_tracks_the_regulator(page, table):
    at, session = page
    at.button(key=hidden.KEY_ACCEPT).click().run()
    assert not at.exception
    (hv,) = session.hidden.hidden
    said = [s.value for s in at.success] if hv.realized_gain > 0 else [w.value for w in at.warning]
    assert any("Added H1" in s for s in said)  # as a warning when it does not pay, with the reason (#22)
    assert hv.realized_gain > 0 or any("does not pay under EBIC" in w for w in said), hv.breakdown
    # the report's line: no regulator list, so nothing said of one; the closest observed variable named
    line = next(m.value for m in at.markdown if m.value.startswith("**H1**"))
    assert ": closest observed variable **" in line and "regulator" not in line
    label = f"estimated Δ{session.score_label} at proposal"  # the score in force (EBIC here), not always BIC
    assert session.score_label == "EBIC" and any(label in d.value.columns for d in at.dataframe)
    search = AppTest.from_file(str(PAGES / "search.py"), default_timeout=TIMEOUT)
    search.session_state[state.SESSION] = session
    search.run()
    assert any("the EBIC shown is the *expected* complete-data EBIC" in c.value for c in search.caption)
    out = export.export_dict(session)
    (entry,) = out["hidden"]
    assert abs(np.corrcoef(entry["profile"], table.regulator)[0, 1]) >= 0.95
    children = {e["child"] for e in out["edges"] if e["parent"] == "H1"}
    assert len(children & set(table.module)) >= 20
    assert {r["child"] for r in entry["report"]} == children
    assert entry["instances"][:2] == ["sample1", "sample2"]  # the generated names of the headerless file
    # the Inspector opens on the new hidden variable: which measured genes could explain it, H on unit variance
    inspect = AppTest.from_file(str(PAGES / "inspector.py"), default_timeout=TIMEOUT)
    inspect.session_state[state.SESSION] = session
    inspect.run()
    assert not inspect.exception
    assert inspect.selectbox(key=inspector.KEY_VAR).value == "H1"
    assert any("candidates_chart" in c.proto.id for c in inspect.get("plotly_chart"))
    # H1 is not measured: the profile panel names its line as EM's inference, not as data
    spec = next(c.proto.spec for c in inspect.get("plotly_chart") if "profiles_chart" in c.proto.id)
    assert "H1 (inferred by EM, not measured)" in spec and "H1 (data)" not in spec
    inspect.selectbox(key=inspector.KEY_VAR).set_value(entry["children"][0]).run()
    spec = next(c.proto.spec for c in inspect.get("plotly_chart") if "profiles_chart" in c.proto.id)
    assert f"{entry['children'][0]} (data)" in spec and "not measured" not in spec
