"""AppTest tests for the hidden-variable page (explorer/pages/hidden.py; issue #5 item 5)."""

from __future__ import annotations

import json

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from engine.data import from_array
from engine.hidden.scale import PROFILE_UNIT
from engine.synth import random_network, sample
from explorer import export, state
from explorer.hidden_columns import TABLE_WIDTH
from explorer.session import SearchSession

PAGE = "explorer/pages/hidden.py"


def planted(seed: int = 0):
    """30 standardized variables of a random network plus a hidden factor added to 6 of them."""
    rng = np.random.default_rng(seed)
    net = random_network(30, seed=seed, expected_parents=1.0, signal=0.4)
    x = sample(net, 400, seed=seed + 1)
    x = x / x.std(axis=0)
    h = rng.normal(size=400)
    kids = sorted(int(k) for k in rng.choice(30, 6, replace=False))
    for j in kids:
        x[:, j] += rng.choice([-1.0, 1.0]) * h
    names = [f"V{i}" for i in range(30)]
    return from_array(x, names), [names[k] for k in kids]


@pytest.fixture()
def hidden_app(repo_root):
    """The whole app on the planted-factor data, opened on the hidden-variable page."""
    ds, kids = planted()
    at = AppTest.from_file(str(repo_root / "app.py"), default_timeout=120)
    at.run()
    at.session_state[state.SESSION] = SearchSession(ds, None, "planted factor")
    at.switch_page(PAGE)
    at.run()
    assert not at.exception
    return at, ds, kids


def _tables(at):
    return [d.value for d in at.dataframe]


def test_proposals_listed_with_members_and_bounds(hidden_app):
    at, _, kids = hidden_app
    table = _tables(at)[0]
    assert {"members", "estimated ΔBIC", "C1 bound", "C2 bound", "closest existing variable", "status"} <= set(
        table.columns
    )
    top = set(table.iloc[0]["members"].split(", "))
    assert len(top & set(kids)) >= 5  # the planted regulator's children come first
    # profiles and the heatmaps (one when values and ideal profiles correlate alike: test_member_heatmaps.py)
    assert [c.key for c in at.get("plotly_chart")][:2] == ["ip_hidden_profiles_chart", "ip_hidden_corr_values"]
    axis = json.loads(at.get("plotly_chart")[0].proto.spec)["layout"]["xaxis"]["title"]["text"]
    assert axis == "instances (rows of the data), sorted by z*"  # no instance labels: not 'conditions'


def test_accept_adds_hidden_variable_everywhere(hidden_app):
    at, ds, kids = hidden_app
    at.button(key="ip_hidden_accept").click().run()
    assert not at.exception
    assert any("Added H1" in s.value for s in at.success)
    # the message compares the observed-data BIC before and after
    assert any("before Accept" in s.value and "realized change" in s.value for s in at.success)
    stepper = at.session_state[state.SESSION].stepper
    assert stepper.n_vars == ds.n_vars + 1
    # accepted list and downloads
    assert any("H1" in str(t["hidden"].tolist()) for t in _tables(at) if "hidden" in t.columns)
    labels = [b.label for b in at.get("download_button")]
    assert "Download members (CSV)" in labels and "Download inferred profiles (CSV)" in labels
    # the other views know the hidden variable
    for page in ("explorer/pages/search.py", "explorer/pages/inspector.py", "explorer/pages/truth.py"):
        at.switch_page(page).run()
        assert not at.exception, page
        if page.endswith("inspector.py"):  # "Step 0" of a network with edges: counted since the Accept
            assert any("of the search since hidden variable(s) H1 were accepted" in m.value for m in at.markdown)
        if page.endswith("search.py"):
            # the Search page says why its move log starts afresh
            assert any("structural EM after accepting" in c.value for c in at.caption)
        if page.endswith("truth.py"):
            # the export reports the observed-data score, as the Hidden page and the CLI do
            assert any("observed-data BIC" in c.value for c in at.caption)
            # not "0 move(s)" alone: the network came from Accept's structural EM
            assert any(
                "learned by structural EM when hidden variable(s) H1 were accepted" in c.value for c in at.caption
            )
            net = at.session_state[state.SESSION].learned_network()
            assert net.loglik == pytest.approx(net.evaluate(ds)["loglik"])


def test_reject_removes_the_proposal(hidden_app):
    at, _, _ = hidden_app
    first = _tables(at)[0].iloc[0]["members"]
    at.button(key="ip_hidden_reject").click().run()
    assert not at.exception
    assert any("Rejected" in s.value for s in at.success)
    remaining = _tables(at)[0]["members"].tolist() if _tables(at) else []
    assert first not in remaining


def test_learned_network_json_lists_hidden(hidden_app):
    at, _, _ = hidden_app
    at.button(key="ip_hidden_accept").click().run()
    at.switch_page("explorer/pages/truth.py").run()
    assert not at.exception
    assert any("JSON" in b.label for b in at.get("download_button"))
    data = json.loads(json.dumps(at.session_state[state.SESSION].learned_network().to_dict()))
    assert [h["name"] for h in data["hidden"]] == ["H1"]
    assert "H1" in data["variables"]


def test_non_linear_cpd_explains_why_not(repo_root):
    at = AppTest.from_file(str(repo_root / "app.py"), default_timeout=60).run()
    at.session_state[state.SESSION].set_settings({"cpd": "sigmoid"})
    at.switch_page(PAGE).run()
    assert not at.exception
    assert any("implemented for the linear Gaussian CPD" in i.value for i in at.info)


def test_undo_accept_restores_the_previous_search(hidden_app):
    at, ds, _ = hidden_app
    before = at.session_state[state.SESSION].stepper
    at.button(key="ip_hidden_accept").click().run()
    assert at.session_state[state.SESSION].stepper.n_vars == ds.n_vars + 1
    at.button(key="ip_hidden_undo").click().run()
    assert not at.exception
    assert at.session_state[state.SESSION].stepper is before
    assert any("taken back" in s.value for s in at.success)


def test_proposals_table_columns_all_fit_at_1280_px(hidden_app):
    """Every column of the proposals table has a width, and the widths fit the table's width at 1280 px
    with the sidebar open (no column, the leverage or the status, cut at the right)."""
    at, _, _ = hidden_app
    frame = at.dataframe[0]
    config = json.loads(frame.proto.columns)
    assert set(frame.value.columns) <= set(config), set(frame.value.columns) - set(config)
    widths = [config[c]["width"] for c in frame.value.columns]
    assert sum(widths) <= TABLE_WIDTH, widths


def test_one_scale_for_the_accepted_hidden_variable(hidden_app):
    """The profile download, the export's profile and edge weights and the regulator report's
    loadings put H on one scale, unit variance under the network (engine.hidden.scale); recomputed
    independently from the downloaded profile: each child's covariance with it, less its other
    parents' share, gives back the child's loading."""
    at, ds, _ = hidden_app
    at.button(key="ip_hidden_accept").click().run()
    assert not at.exception
    session = at.session_state[state.SESSION]
    profiles = export.inferred_profiles(session)
    result = export.export_dict(session)
    (entry,) = result["hidden"]
    prof = profiles[entry["name"]].to_numpy()
    assert prof == pytest.approx(entry["profile"]) and entry["profile_unit"] == PROFILE_UNIT
    report = next(d.value for d in at.dataframe if "loading" in d.value.columns)
    weight = {(e["parent"], e["child"]): e["weight"] for e in result["edges"]}
    checked = 0
    for _, row in report.iterrows():
        assert weight[(row["hidden"], row["child"])] == pytest.approx(row["loading"], abs=1e-4)  # the page rounds
        # Cov(child, H) = loading * Var(H) + sum_o w_o Cov(o, H), Var(H) = 1 on this scale; Cov with
        # H's posterior mean is Cov with H (the child and o are observed)
        params = result["families"][row["child"]]["params"]["coefficients"]
        y = ds.values[:, ds.names.index(row["child"])]
        cov = np.cov(y, prof, bias=True)[0, 1] - sum(
            w * np.cov(ds.values[:, ds.names.index(p)], prof, bias=True)[0, 1]
            for p, w in params.items()
            if p != row["hidden"]
        )
        assert cov == pytest.approx(row["loading"], abs=2e-3)  # a least-squares slope on it reads larger
        checked += 1
    assert checked >= 4
    assert any("in SDs of H under the network" in c.value for c in at.caption)
    # the Search page's network draws the same weights (hover and width)
    names = session.variable_names()
    drawn = {(names[p], names[c]): w for p, c, w in session.weighted_edges()}
    assert drawn == pytest.approx(weight)
