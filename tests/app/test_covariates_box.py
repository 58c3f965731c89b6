"""The sidebar's covariate upload (AppTest): a batch annotation table becomes parent-only
indicator variables of the loaded data (explorer.covariates_box, engine.io.covariates); a bad
table is one error and the data stay as they were."""

from __future__ import annotations

import numpy as np
import pandas as pd
from conftest import texts

from explorer import covariates_box, sidebar, state
from explorer.export import export_settings

M = 60
IDS = [f"c{i}" for i in range(M)]
BATCH = np.array(["b0", "b1"] * (M // 2))


def _data_csv() -> bytes:
    """Four chained genes, the first shifted by batch (so the batch indicator is a good parent of it)."""
    rng = np.random.default_rng(1)
    x = rng.normal(size=(M, 4))
    x[:, 0] += 3.0 * (BATCH == "b1")
    for j in range(1, 4):
        x[:, j] += x[:, j - 1]
    frame = pd.DataFrame(x, columns=["a", "b", "c", "d"])
    frame.insert(0, "id", IDS)
    return frame.to_csv(index=False).encode()


def _table(ids=IDS, batch=BATCH) -> bytes:
    return pd.DataFrame({"id": ids, "batch": batch}).to_csv(index=False).encode()


def _loaded(app):
    app.radio(key=state.W_SOURCE).set_value(sidebar.SOURCES[1]).run()
    app.file_uploader(key=state.W_UPLOAD).set_value(("expr.csv", _data_csv(), "text/csv")).run()
    assert not app.exception and not texts(app.error)
    session = app.session_state[state.SESSION]
    assert list(session.dataset.names) == ["a", "b", "c", "d"]
    assert list(session.dataset.instance_labels) == IDS
    return session


def test_a_batch_table_adds_parent_only_indicators(app):
    _loaded(app)
    app.file_uploader(key=covariates_box.W_COVARIATES).set_value(("samples.csv", _table(), "text/csv")).run()
    assert not app.exception and not texts(app.error)
    notes = [c for c in texts(app.caption) if c.startswith("Covariates:")]
    assert notes == [
        "Covariates: batch (2 levels -> 1 indicator, reference b0); parents only (1 variable(s) added: batch=b1)."
    ]
    session = app.session_state[state.SESSION]
    assert session.variable_names() == ["a", "b", "c", "d", "batch=b1"]
    assert session.dataset.covariates == ("batch=b1",)
    exported = export_settings(session)  # what `score --covariates` reads back
    assert exported["covariates"] == "samples.csv" and exported["parent_only"] == ["batch=b1"]
    np.testing.assert_array_equal(session.prepared.loaded.values[:, 4] > 0, BATCH == "b1")
    while session.step().move is not None:
        pass
    names = session.variable_names()
    edges = [(names[p], names[c]) for p, c in session.stepper.edges()]
    assert edges and all(child != "batch=b1" for _, child in edges), edges
    assert ("batch=b1", "a") in edges  # used as a parent: the shift it carries is explained by it
    proposals = session.propose_hidden(5)
    assert all("batch=b1" not in p.names for p in proposals)
    # the same file on the next runs is not added twice
    app.run()
    assert not app.exception and app.session_state[state.SESSION] is session


def test_covariates_join_an_applied_regulator_list(app):
    _loaded(app)
    app.text_area(key=state.W_REGULATORS).input("a\nb")
    app.button(key=state.W_APPLY).click().run()
    assert app.session_state[state.SESSION].regulators == ["a", "b"]
    app.file_uploader(key=covariates_box.W_COVARIATES).set_value(("samples.csv", _table(), "text/csv")).run()
    assert not app.exception and not texts(app.error)
    assert app.session_state[state.SESSION].regulators == ["a", "b", "batch=b1"]
    app.button(key=state.W_APPLY).click().run()  # Apply again with the list as typed: the covariate stays a regulator
    assert not app.exception
    assert app.session_state[state.SESSION].regulators == ["a", "b", "batch=b1"]


def test_a_bad_table_is_one_error_and_keeps_the_data(app):
    session = _loaded(app)
    assert session.step().move is not None
    bad = _table(ids=IDS[:-1] + ["zz"])
    app.file_uploader(key=covariates_box.W_COVARIATES).set_value(("samples.csv", bad, "text/csv")).run()
    assert not app.exception
    errors = texts(app.error)
    assert len(errors) == 1 and "samples.csv" in errors[0] and "c59" in errors[0], errors
    assert app.session_state[state.SESSION] is session
    assert session.variable_names() == ["a", "b", "c", "d"] and session.stepper.n_iter == 1


def test_an_accepted_hidden_variable_is_no_parent_of_a_covariate():
    """The Hidden page's Accept (structural EM) keeps the covariate parent-only too."""
    from engine.data import from_array
    from engine.io.covariates import add_covariates, code_covariates
    from explorer import actions
    from explorer.session import SearchSession

    rng = np.random.default_rng(0)
    m = 80
    batch = np.array(["b0", "b1"] * (m // 2))
    h = rng.normal(size=m) + 1.5 * (batch == "b1")  # a hidden factor that tracks the batch
    x = np.column_stack([h + 0.3 * rng.normal(size=m) for _ in range(5)])
    ids = [f"c{i}" for i in range(m)]
    data = from_array(x, names=list("abcde"), instance_labels=ids)
    cov = code_covariates(pd.DataFrame({"id": ids, "batch": batch}), data.instance_labels, data.names)
    session = SearchSession(add_covariates(data, cov))
    while session.step().move is not None:
        pass
    proposals = session.propose_hidden(5)
    assert proposals and all("batch=b1" not in p.names for p in proposals)
    actions.accept_hidden(session, proposals[0])
    names = session.variable_names()
    edges = [(names[p], names[c]) for p, c in session.stepper.edges()]
    assert any(p == "H1" for p, _ in edges) and all(c != "batch=b1" for _, c in edges), edges
