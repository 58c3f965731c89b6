"""Covariates (sample annotations) and the Transpose button, with missing cells (AppTest; issue #22):
covariates annotate the samples, so they follow the samples' axis. A table keyed by the samples of
a genes x conditions file is kept aside until Transpose makes the conditions the instances, then
added aligned to them, the missing cells filled with the covariates as parents only; Undo
transpose takes them out again; data that carry covariates and are turned round set them aside."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from conftest import APP, TIMEOUT, texts
from genes_table import write_genes_x_conditions
from streamlit.testing.v1 import AppTest

from engine.io import load_table
from engine.io.covariates import add_covariates, code_covariates, ids_name_variables, without_covariates
from engine.synth import random_network, sample
from explorer import actions, covariates_box, export, sidebar, state
from explorer.session import SearchSession

HOLES = ((2, 4), (7, 0), (10, 25))  # (gene, condition) written NA
CONDITIONS = [f"cond_{c:02d}" for c in range(30)]
BATCH = np.array(["b0", "b1", "b2"] * 10)


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    return write_files(tmp_path_factory.mktemp("cov_turn"))


def write_files(folder):
    """12 genes (rows) x 30 conditions with 3 NA cells, and the conditions' batch table, rows shuffled."""
    values = np.asarray(sample(random_network(12, seed=21), 30, seed=22)) + 8.0
    values[:, :4] += 2.0 * (BATCH == "b1")[:, None]  # the batch shifts four genes
    write_genes_x_conditions(folder / "expr.tsv", values, HOLES)
    order = np.random.default_rng(0).permutation(30)
    table = pd.DataFrame({"condition": np.array(CONDITIONS)[order], "batch": BATCH[order]})
    table.to_csv(folder / "samples.csv", index=False)
    return folder / "expr.tsv", folder / "samples.csv"


def _upload(at, path, key):
    at.file_uploader(key=key).set_value((path.name, path.read_bytes(), "text/plain")).run()
    assert not at.exception


def _aligned(dataset) -> None:
    """Each instance's batch indicators are its own condition's batch."""
    labels = list(dataset.instance_labels)
    assert labels and set(labels) == set(CONDITIONS)
    batch = dict(zip(CONDITIONS, BATCH, strict=True))
    raw = dataset.original_values()
    for level in ("b1", "b2"):
        col = dataset.names.index(f"batch={level}")
        np.testing.assert_array_equal(raw[:, col] == 1, [batch[c] == level for c in labels])


def test_a_table_keyed_by_the_columns_waits_for_transpose_then_follows_the_samples(files):
    expr, table = files
    at = AppTest.from_file(str(APP), default_timeout=TIMEOUT).run()
    at.radio(key=state.W_SOURCE).set_value(sidebar.SOURCES[1]).run()
    _upload(at, expr, state.W_UPLOAD)
    loaded = at.session_state[state.SESSION]
    assert loaded.dataset.n_vars == 30  # the conditions are the variables, as uploaded
    _upload(at, table, covariates_box.W_COVARIATES)
    assert not texts(at.error), texts(at.error)
    aside = [c for c in texts(at.caption) if c.startswith("Covariates set aside")]
    assert aside and "samples.csv" in aside[0] and "Transpose" in aside[0], texts(at.caption)
    assert at.session_state[state.SESSION] is loaded and loaded.dataset.covariates == ()

    at.button(key="w_home_transpose").click().run()
    assert not at.exception and not texts(at.error), texts(at.error)
    session = at.session_state[state.SESSION]
    assert session.dataset.covariates == ("batch=b1", "batch=b2")
    assert session.dataset.names[:12] == tuple(f"G{g:03d}" for g in range(12))
    _aligned(session.dataset)
    _aligned(session.prepared.loaded)
    # the missing cells are filled on the turned data, and the covariates have none
    cells = session.prepared.cells()
    assert sorted((c["variable"], c["instance"]) for c in cells) == sorted(
        (f"G{g:03d}", CONDITIONS[c]) for g, c in HOLES
    )
    assert not np.isnan(session.dataset.values).any()
    # still the transposed session: the export says so and Undo transpose is offered
    assert session.transposed and export.export_settings(session)["transpose"] is True
    assert isinstance(session.undo_stack[-1], actions.TransposeData)
    notes = [c for c in texts(at.caption) if c.startswith("Covariates:")]
    assert notes and "batch=b1, batch=b2" in notes[0]

    at.button(key="w_home_undo_transpose").click().run()
    assert not at.exception and not texts(at.error)
    back = at.session_state[state.SESSION]
    assert back.dataset.n_vars == 30 and back.dataset.covariates == ()
    assert [c for c in texts(at.caption) if c.startswith("Covariates set aside")]


def test_missing_cells_are_filled_with_the_covariates_as_parents_only(files):
    """Uploaded on the data the right way round (read with --transpose): aligned, no edge into them."""
    expr, table = files
    data = load_table(expr, transpose=True, standardize=True)
    assert data.has_missing
    cov = code_covariates(pd.read_csv(table, dtype=str), data.instance_labels, data.names)
    session = SearchSession(add_covariates(data, cov))
    _aligned(session.dataset)
    assert not np.isnan(session.dataset.values).any() and len(session.prepared.cells()) == len(HOLES)
    while session.step().move is not None:
        pass
    names = session.variable_names()
    assert all(names[c] not in {"batch=b1", "batch=b2"} for _, c in session.stepper.edges())


def test_turning_data_that_carry_covariates_sets_them_aside(files):
    expr, _ = files
    data = load_table(expr, standardize=True)  # genes are the instances here
    genes = list(data.instance_labels)
    frame = pd.DataFrame({"gene": genes, "group": ["a", "b"] * 6})
    session = SearchSession(add_covariates(data, code_covariates(frame, genes, data.names)))
    assert session.dataset.covariates == ("group=b",)
    note = actions.transpose_data(session)
    assert "group=b" in note and "set aside" in note
    assert session.dataset.covariates == () and "group=b" not in session.dataset.instance_labels
    assert set(session.dataset.instance_labels) == set(CONDITIONS)
    session.undo()
    assert session.dataset.covariates == ("group=b",)


def test_engine_helpers():
    from engine.data import from_array

    ds = from_array(np.arange(12.0).reshape(4, 3) ** 1.5, ["x", "y", "z"], instance_labels=["s1", "s2", "s3", "s4"])
    frame = pd.DataFrame({"id": ["s1", "s2", "s3", "s4"], "batch": ["a", "b", "a", "b"]})
    both = add_covariates(ds, code_covariates(frame, ds.instance_labels, ds.names))
    back = without_covariates(both)
    assert back.names == ds.names and back.covariates == ()
    np.testing.assert_array_equal(back.values, ds.values)
    assert ids_name_variables(pd.DataFrame({"id": ["x", "y", "z"], "b": ["1", "2", "1"]}), ds)
    assert not ids_name_variables(frame, ds)


def test_undo_transpose_of_data_that_carry_covariates_says_no_false_error(tmp_path):
    """Covariates keyed by the instances (here the genes, as uploaded), Transpose sets them aside,
    Undo brings back the data with them: the upload still in the sidebar is not added a second time
    (no 'clash' error about the table already in the data), and the session is not restarted."""
    values = np.asarray(sample(random_network(12, seed=21), 30, seed=22)) + 8.0
    genes, _ = write_genes_x_conditions(tmp_path / "expr.tsv", values, ())
    table = tmp_path / "genes.csv"
    pd.DataFrame({"gene": genes, "group": ["a", "b"] * 6}).to_csv(table, index=False)
    at = AppTest.from_file(str(APP), default_timeout=TIMEOUT).run()
    at.radio(key=state.W_SOURCE).set_value(sidebar.SOURCES[1]).run()
    _upload(at, tmp_path / "expr.tsv", state.W_UPLOAD)
    _upload(at, table, covariates_box.W_COVARIATES)
    assert at.session_state[state.SESSION].dataset.covariates == ("group=b",)
    at.button(key="w_home_transpose").click().run()
    assert at.session_state[state.SESSION].dataset.covariates == ()
    at.button(key="w_home_undo_transpose").click().run()
    assert not at.exception
    back = at.session_state[state.SESSION]
    assert back.dataset.covariates == ("group=b",) and back.dataset.n_vars == 31
    assert not texts(at.error), texts(at.error)
    assert any("genes.csv are in the data already" in c for c in texts(at.caption)), texts(at.caption)
    at.run()
    assert not texts(at.error) and at.session_state[state.SESSION] is back


def test_the_export_after_covariates_are_set_aside_does_not_name_them(files):
    """Turned round, the data no longer carry the covariates: the export's settings and its rerun
    command must not give --covariates (the CLI would match the table to the wrong axis)."""
    expr, _ = files
    data = load_table(expr, standardize=True)
    genes = list(data.instance_labels)
    frame = pd.DataFrame({"gene": genes, "group": ["a", "b"] * 6})
    session = SearchSession(add_covariates(data, code_covariates(frame, genes, data.names)))
    session.source = {**session.source, "data": expr.name, "covariates": "genes.csv"}  # as the sidebar's upload
    assert export.export_settings(session)["covariates"] == "genes.csv"
    actions.transpose_data(session)
    settings = export.export_settings(session)
    assert "covariates" not in settings and "parent_only" not in settings
    assert "--covariates" not in export.export_dict(session)["rerun"]
