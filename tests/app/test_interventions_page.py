"""Interventional data in the explorer: the Sachs sample with its conditions, the condition column
and targets table in the sidebar, and the Truth page's per-family rows and edge statuses."""

from __future__ import annotations

from conftest import page_test, texts

from engine.interventions import attach_conditions
from explorer import interventions_panel, interventions_view, loading, state

SACHS = next(label for label in loading.SAMPLES if "nine conditions" in label)


def _sachs(app):
    app.selectbox(key=state.W_SAMPLE).set_value(SACHS).run()
    assert not app.exception
    return app.session_state[state.SESSION].dataset


def test_sachs_sample_loads_with_its_conditions_and_targets(app):
    dataset = _sachs(app)
    design = dataset.interventions
    assert design is not None and "condition" not in dataset.names
    assert dataset.n_samples == 7466 and len(design.condition_names) == 9
    assert ("cd3cd28+u0126", "Mek") in design.targets and len(design.targets) == 7
    assert app.selectbox(key=interventions_panel.W_CONDITION).value == "condition"
    # the targets table is an editable table in the sidebar
    editor = app.sidebar.get("dataframe")
    assert len(editor) == 1
    assert sorted(map(tuple, editor[0].value[["condition", "target"]].to_numpy())) == sorted(design.targets)


def test_choosing_no_condition_column_makes_the_data_observational(app):
    _sachs(app)
    app.selectbox(key=interventions_panel.W_CONDITION).set_value(interventions_panel.NONE).run()
    assert not app.exception
    dataset = app.session_state[state.SESSION].dataset
    assert dataset.interventions is None and dataset.n_samples == 7466


def test_intercepts_checkbox_reaches_the_design(app):
    _sachs(app)
    app.checkbox(key=interventions_panel.W_INTERCEPTS).check().run()
    assert not app.exception
    assert app.session_state[state.SESSION].dataset.interventions.intercepts


def test_truth_page_shows_rows_per_family_and_edge_statuses(app):
    _sachs(app)
    app.switch_page("explorer/pages/search.py").run()
    app.button(key=state.W_RUN_ALL).click().run()
    assert not app.exception
    app.switch_page("explorer/pages/truth.py").run()
    assert not app.exception
    assert "Rows each family was scored on" in texts(app.subheader)
    session = app.session_state[state.SESSION]
    table = interventions_view.family_rows_table(session.dataset)
    assert dict(zip(table["variable"], table["rows scored"], strict=True))["PKC"] == 7466 - 723 - 913
    assert "pma" in dict(zip(table["variable"], table["conditions left out"], strict=True))["PKC"]
    # every one of the 17 reference edges appears once, with its status
    net = session.learned_network()
    edges = interventions_view.edge_table(session.truth, [(p, c) for p, c, _ in net.edges()])
    assert (edges["status"] != "extra").sum() == 17
    assert net.to_dict()["interventions"]["family_rows"]["Mek"] == 7466 - 799


def test_family_rows_table_without_a_design(small_data):
    dataset, truth = small_data
    assert interventions_view.family_rows_table(dataset) is None
    labels = ["a" if i % 2 else "b" for i in range(dataset.n_samples)]
    designed = attach_conditions(dataset, labels, [("a", dataset.names[0])])
    at = page_test("truth.py", designed, truth).run()
    assert not at.exception
    assert "Rows each family was scored on" in texts(at.subheader)


def test_upload_with_a_condition_column(app):
    import numpy as np
    import pandas as pd

    from explorer import sidebar

    rng = np.random.default_rng(1)
    frame = pd.DataFrame(rng.normal(size=(80, 3)), columns=["a", "b", "c"])
    frame.insert(0, "batch", np.where(np.arange(80) % 2, "drug", "control"))
    app.radio(key=state.W_SOURCE).set_value(sidebar.SOURCES[1]).run()
    payload = frame.to_csv(index=False).encode()
    app.file_uploader(key=state.W_UPLOAD).set_value(("exp.csv", payload, "text/csv")).run()
    assert not app.exception
    # without a condition column the text column is left out (as before) and the rows are observational
    assert app.session_state[state.SESSION].dataset.interventions is None
    assert "batch" in app.selectbox(key=interventions_panel.W_CONDITION).options
    app.selectbox(key=interventions_panel.W_CONDITION).set_value("batch").run()
    app.checkbox(key=interventions_panel.W_INTERCEPTS).check().run()
    assert not app.exception
    dataset = app.session_state[state.SESSION].dataset
    assert dataset.names == ("a", "b", "c")
    assert dataset.interventions.condition_names == ("control", "drug") and dataset.interventions.intercepts


def test_upload_with_missing_cells_and_a_condition_column(app):
    """Missing cells are completed by the masked structural EM, then the masked search runs."""
    import numpy as np
    import pandas as pd

    from explorer import sidebar

    rng = np.random.default_rng(2)
    n = 300
    cond = np.where(np.arange(n) % 3 == 0, "drug", "control")
    a = rng.normal(size=n)
    b = np.where(cond == "drug", rng.normal(size=n), a + 0.7 * rng.normal(size=n))
    frame = pd.DataFrame({"batch": cond, "a": a, "b": b, "c": b + 0.7 * rng.normal(size=n)})
    frame.loc[rng.random(n) < 0.05, "a"] = np.nan
    frame.loc[rng.random(n) < 0.05, "c"] = np.nan
    app.radio(key=state.W_SOURCE).set_value(sidebar.SOURCES[1]).run()
    app.file_uploader(key=state.W_UPLOAD).set_value(("exp.csv", frame.to_csv(index=False).encode(), "text/csv")).run()
    assert not app.exception
    app.session_state["_targets_default"] = [("drug", "b")]  # as if typed into the targets table
    app.selectbox(key=interventions_panel.W_CONDITION).set_value("batch").run()
    assert not app.exception and not app.error
    session = app.session_state[state.SESSION]
    assert session.dataset.interventions.targets == (("drug", "b"),)
    assert session.prepared.completion is not None and not session.search_dataset().has_missing
    assert session.prepared.loaded.interventions is not None  # completed by the masked EM
    app.switch_page("explorer/pages/search.py").run()
    app.button(key=state.W_RUN_ALL).click().run()
    assert not app.exception
    net = app.session_state[state.SESSION].learned_network()
    assert net.to_dict()["interventions"]["family_rows"]["b"] == int((cond != "drug").sum())
    app.checkbox(key=interventions_panel.W_INTERCEPTS).check().run()
    assert not app.exception and not app.error
