"""A data analyst's instrument exports uploaded to the explorer: a units line under the header is
left out and said, and a sample with no measured value is named in a visible warning (its filled
cells are the network's predictions, not measurements)."""

from __future__ import annotations

import numpy as np
from conftest import texts

from explorer import sidebar, state


def _plate(units: bool, empty: bool) -> bytes:
    rng = np.random.default_rng(5)
    x = rng.normal(8, 1, size=(14, 4))
    x[:, 1] += x[:, 0]
    lines = ["Well,TF1,GeneA,GeneB,GeneC"] + (["units,Ct,Ct,Ct,Ct"] if units else [])
    for j, row in enumerate(x):
        cells = ["#N/A", "", "NA", ""] if (empty and j == 3) else [f"{v:.3f}" for v in row]
        lines.append(f"W{j + 1}," + ",".join(cells))
    return ("\n".join(lines) + "\n").encode()


def _upload(app, payload: bytes):
    app.radio(key=state.W_SOURCE).set_value(sidebar.SOURCES[1]).run()
    app.file_uploader(key=state.W_UPLOAD).set_value(("plate.csv", payload, "text/csv")).run()
    assert not app.exception and not texts(app.error), texts(app.error)
    return app.session_state[state.SESSION]


def test_units_line_left_out_and_said(app):
    session = _upload(app, _plate(units=True, empty=False))
    assert session.dataset.n_samples == 14 and list(session.dataset.names) == ["TF1", "GeneA", "GeneB", "GeneC"]
    assert any("Not used: the line under the header ('units'" in w for w in texts(app.sidebar.warning))


def test_a_sample_with_no_value_is_a_visible_warning(app):
    session = _upload(app, _plate(units=False, empty=True))
    assert session.dataset.n_samples == 14
    shown = [w for w in texts(app.sidebar.warning) if "no measured value" in w]
    assert shown and shown[0].startswith("Check: Instance(s) with no measured value at all: 'W4' (1)"), shown


def test_undetermined_cells_are_missing_and_a_mostly_undetected_gene_is_a_warning(app):
    """A qPCR export: 'Undetermined' cells are missing (completed like any other), not a refused
    column; a gene undetected in most samples is left out with that reason, visibly."""
    rng = np.random.default_rng(6)
    lines = ["Sample,TF1,GeneA,GeneB,GeneC"]
    for j, row in enumerate(rng.normal(25, 2, size=(14, 4))):
        cells = [f"{v:.3f}" for v in row]
        cells[1] = "Undetermined" if j in (2, 9) else cells[1]
        cells[3] = "Undetermined" if j < 10 else cells[3]
        lines.append(f"S{j + 1}," + ",".join(cells))
    session = _upload(app, ("\n".join(lines) + "\n").encode())
    assert list(session.dataset.names) == ["TF1", "GeneA", "GeneB"] and session.dataset.n_samples == 14
    assert any(
        "mostly undetected column(s) 'GeneC' (10 of 14 cells 'Undetermined')" in w for w in texts(app.sidebar.warning)
    )
    assert session.prepared.loaded.missing[[2, 9], 1].all()
