"""Sample traits in the explorer (explorer/traits_box.py): the sidebar says what the sheet became for the
loaded data, and after Accept the Hidden page reads H1 against it (WGCNA's module-trait table): the trait
H1 follows is named, the heatmap and the CSV hold r, p, q, n equal to an independent computation, and the
regulator report's JSON carries it. AppTest cannot upload a file, so the sheet is put where the upload puts
it (the upload itself: tests/app/test_browser_traits.py)."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest
from scipy import stats
from streamlit.testing.v1 import AppTest
from test_hidden_page import PAGE

from engine.data import from_array
from engine.hidden import report_table
from engine.hidden.traits import code_traits
from engine.synth import random_network, sample
from explorer import state, traits_box
from explorer.session import SearchSession


def planted_with_labels(seed: int = 0):
    """30 variables of a random network plus a hidden factor h added to 6 of them, 400 named samples;
    a sheet with h itself (``activity``, 3 cells empty), a 3-level ``batch`` unrelated to it, a constant
    ``site``, and no row for the last two samples."""
    rng = np.random.default_rng(seed)
    x = sample(random_network(30, seed=seed, expected_parents=1.0, signal=0.4), 400, seed=seed + 1)
    x = x / x.std(axis=0)
    h = rng.normal(size=400)
    for j in rng.choice(30, 6, replace=False):
        x[:, j] += rng.choice([-1.0, 1.0]) * h
    ids = [f"GSM{1000 + i}" for i in range(400)]
    ds = from_array(x, [f"V{i}" for i in range(30)], instance_labels=ids)
    activity = [f"{v:.6f}" for v in h]
    for i in (3, 50, 99):
        activity[i] = None
    sheet = pd.DataFrame({"id": ids, "activity": activity, "batch": rng.choice(["b1", "b2", "b3"], 400), "site": "A"})
    return ds, sheet.iloc[:-2].astype(object).where(sheet.iloc[:-2].notna(), None), h


def test_hidden_page_reads_the_accepted_variable_by_the_traits(repo_root):
    ds, sheet, h = planted_with_labels()
    at = AppTest.from_file(str(repo_root / "app.py"), default_timeout=120)
    at.run()
    at.session_state[state.SESSION] = SearchSession(ds, None, "planted factor")
    at.session_state[traits_box.KEY_SHEET] = ("samples.csv", sheet)
    at.switch_page(PAGE)
    at.run()
    assert not at.exception
    captions = [c.value for c in at.sidebar.caption]
    assert any(
        c.startswith("samples.csv: activity (numeric), batch (3 levels, each against the others)")
        and "2 instance(s) without a row: GSM1398, GSM1399" in c
        and "skipped site (one level)" in c
        for c in captions
    ), captions
    at.button(key="ip_hidden_accept").click().run()
    assert not at.exception
    lines = [m.value for m in at.markdown]
    assert any(v.startswith("- H1 follows the sample trait activity (r = ") for v in lines), lines
    assert any("upload that column as sample annotations (covariates)" in v for v in lines)
    frame = traits_box.relations_frame(at.session_state[state.MEMO]["traits_relations"][1])
    assert list(frame["trait"]) == ["activity", "batch=b1", "batch=b2", "batch=b3"]
    # independent: H1's inferred profile (the page's CSV of it) against the sheet
    report = next(r for r in at.session_state[state.MEMO]["hidden_reports"][1] if r.name == "H1")
    prof = pd.Series(report.profile["values"], index=report.profile["instances"])
    known = sheet.dropna(subset=["activity"]).set_index("id")
    ref = stats.pearsonr(prof.loc[known.index], known["activity"].astype(float))
    row = frame.iloc[0]
    assert row["r"] == pytest.approx(ref.statistic, abs=1e-9) and row["p"] == pytest.approx(ref.pvalue, rel=1e-6)
    assert row["n"] == 395 and abs(row["r"]) >= 0.8 and abs(np.corrcoef(prof, h)[0, 1]) >= 0.8
    assert (frame["q"] >= frame["p"]).all()
    assert report.extra["trait"]["trait"] == "activity"  # in the regulator report's JSON
    assert report_table([report])["trait_of"][0].startswith("activity (r = ")  # and its CSV's trait_of
    labels = [b.label for b in at.get("download_button")]
    assert "Download trait relationships (CSV)" in labels
    # the sheet removed: nothing read, nothing left in the reports
    at.session_state[traits_box.KEY_SHEET] = None
    at.run()
    assert not at.exception
    assert "trait" not in report.extra
    assert any("Upload a sample sheet under 'Sample traits'" in c.value for c in at.caption)
    json.dumps(report.to_dict())  # the JSON download still serializes


def test_the_truth_pages_json_carries_the_traits_as_learn_writes_them(monkeypatch):
    """The Truth page's JSON export (:func:`explorer.traits_box.with_traits`): with a sheet coded for the
    data, ``traits`` and each hidden entry's ``trait`` as ``learn --traits`` writes them (the same engine
    function); without one, the export as it was."""
    rng = np.random.default_rng(1)
    h = rng.normal(size=30)
    ids = [f"S{i}" for i in range(30)]
    sheet = pd.DataFrame({"id": ids, "activity": [f"{v:.6f}" for v in h], "sex": rng.choice(["F", "M"], 30)})
    traits = code_traits(sheet, ids, source="samples.csv")
    out = {"edges": [], "hidden": [{"name": "H1", "profile": list(h + 0.1 * rng.normal(size=30))}]}
    monkeypatch.setattr(traits_box, "coded", lambda: None)
    assert traits_box.with_traits(out) is out
    monkeypatch.setattr(traits_box, "coded", lambda: traits)
    got = traits_box.with_traits(out)
    assert "traits" not in out and "trait" not in out["hidden"][0]  # the memo's export left as it was
    assert got["traits"]["source"] == "samples.csv" and got["traits"]["traits"] == ["activity", "sex=M"]
    assert got["hidden"][0]["trait"]["trait"] == "activity" and got["hidden"][0]["trait"]["r"] > 0.9
    json.dumps(got)
