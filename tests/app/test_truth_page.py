"""The Truth & export page: scores against the true network, the overlay, and downloads."""

from __future__ import annotations

import json

import pytest
from conftest import page_test

from engine.metrics import compare_edges
from engine.network import LearnedNetwork
from explorer import state

SYNTHETIC = "Synthetic linear-Gaussian network (500 x 20)"


def _metrics(at) -> dict[str, str]:
    return {m.label: m.value for m in at.metric}


def _downloads(at) -> list[str]:
    return [b.label for b in at.get("download_button")]


def test_synthetic_sample_scores_after_convergence(app):
    app.selectbox(key=state.W_SAMPLE).set_value(SYNTHETIC).run()
    app.switch_page("explorer/pages/search.py").run()
    app.button(key=state.W_RUN_ALL).click().run()
    assert not app.exception
    assert app.session_state[state.SESSION].main.converged
    app.switch_page("explorer/pages/truth.py").run()
    assert not app.exception
    m = _metrics(app)
    for label in (
        "Precision (directed)",
        "Recall (directed)",
        "F1 (directed)",
        "SHD",
        "Precision (skeleton)",
        "Recall (skeleton)",
        "F1 (skeleton)",
    ):
        assert label in m, label
    # the page shows what engine.metrics computes for the current network
    stepper = app.session_state[state.SESSION].stepper
    names = app.session_state[state.SESSION].dataset.names
    learned = [(names[p], names[c]) for p, c in stepper.edges()]
    cmp = compare_edges(learned, app.session_state[state.SESSION].truth)
    assert m["SHD"] == str(cmp.shd)
    assert m["Precision (directed)"] == f"{cmp.precision:.3f}"
    assert m["Recall (skeleton)"] == f"{cmp.skeleton_recall:.3f}"
    # a 500-instance sample of a 20-variable linear network is learned reasonably well
    assert cmp.skeleton_recall > 0.6
    assert _downloads(app) == ["JSON (CLI result format)", "GraphML", "Edges (CSV)"]


def test_empty_network_scores(small_data):
    dataset, truth = small_data
    at = page_test("truth.py", dataset, truth).run()
    assert not at.exception
    m = _metrics(at)
    assert m["SHD"] == str(len(truth))
    assert m["Recall (directed)"] == "0.000"


def test_downloads_match_the_cli_format(small_data):
    dataset, truth = small_data
    at = page_test("search.py", dataset, truth).run()
    at.button(key=state.W_RUN_ALL).click().run()
    assert not at.exception
    stepper = at.session_state[state.SESSION].stepper
    at2 = page_test("truth.py", **{state.SESSION: at.session_state[state.SESSION]}).run()
    assert not at2.exception
    assert len(_downloads(at2)) == 3
    net = at2.session_state[state.SESSION].learned_network()
    spec = json.loads(json.dumps(net.to_dict()))
    assert set(spec) >= {
        "variables",
        "edges",
        "families",
        "score",
        "stats",
        "settings",
        "transform",
    }
    assert len(spec["edges"]) == len(stepper.edges())
    assert spec["score"]["bic"] == pytest.approx(stepper.score)
    assert LearnedNetwork.from_dict(spec).n_edges == len(stepper.edges())
    assert net.to_graphml().startswith("<?xml")
    assert list(net.edges_frame().columns) == ["parent", "child", "weight", "strength"]
    # the learned edges as a ranked table: strongest first, each compared with the true network
    [shown] = [d.value for d in at2.dataframe if "strength" in d.value.columns]
    assert list(shown.columns) == ["parent", "child", "weight", "strength", "vs truth"]
    assert len(shown) == len(stepper.edges()) and shown["strength"].is_monotonic_decreasing
    assert set(shown["vs truth"]) <= {"correct", "reversed", "extra"}


def test_without_truth_only_downloads(app):
    app.radio(key=state.W_SOURCE).set_value("Upload a file").run()
    csv = b"a,b,c\n1,2,3\n2,3,5\n3,5,4\n4,4,8\n5,7,9\n6,5,11\n"
    app.file_uploader(key=state.W_UPLOAD).set_value(("mine.csv", csv, "text/csv")).run()
    app.switch_page("explorer/pages/truth.py").run()
    assert not app.exception
    assert any("No true network" in i.value for i in app.info)
    assert "SHD" not in _metrics(app)
    assert len(_downloads(app)) == 3


def test_true_structure_bic_is_shown_next_to_the_learned_one(app):
    app.selectbox(key=state.W_SAMPLE).set_value(SYNTHETIC).run()
    app.switch_page("explorer/pages/search.py").run()
    app.button(key=state.W_RUN_ALL).click().run()
    app.switch_page("explorer/pages/truth.py").run()
    assert not app.exception
    m = _metrics(app)
    stepper = app.session_state[state.SESSION].stepper
    # independent computation: the true parents fitted on the loaded data
    from engine.cpd import make_families

    ds = app.session_state[state.SESSION].dataset
    model = make_families(ds.values, "linear")
    idx = {n: i for i, n in enumerate(ds.names)}
    parents = {c: sorted(idx[p] for p, cc in app.session_state[state.SESSION].truth if cc == n) for n, c in idx.items()}
    true_bic = sum(stepper.scorer.family(model.fit(c, tuple(ps))) for c, ps in parents.items())
    assert m["BIC of the true structure"] == f"{true_bic:,.1f}"
    assert m["Learned − true"] == f"{stepper.score - true_bic:+,.1f}"


def test_unfinished_search_is_not_called_a_local_optimum(app):
    app.switch_page("explorer/pages/search.py").run()
    app.button(key=state.W_STEP).click().run()
    app.switch_page("explorer/pages/truth.py").run()
    assert not app.exception
    captions = " ".join(c.value for c in app.caption)
    assert "has not converged yet" in captions
    assert "local optimum" not in captions
