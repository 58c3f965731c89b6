"""Missing cells of data that look the wrong way round are filled once the orientation is settled
(explorer/prepared.py; newcomer walk, session 19: the box filled the cells in the wrong orientation
before Transpose, seconds of structural EM and a box about 800 "instances"): held at their columns'
means until Transpose, or until the person keeps this orientation."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import APP, TIMEOUT, texts
from genes_table import write_genes_x_conditions
from streamlit.testing.v1 import AppTest

from engine.synth import random_network, sample
from explorer import sidebar, state

HOLES = ((2, 4), (2, 17), (7, 0), (10, 25))


@pytest.fixture(scope="module")
def genes_x_conditions(tmp_path_factory):
    """12 genes (rows, a gene_id column) x 30 named conditions, 4 cells NA."""
    values = np.asarray(sample(random_network(12, seed=21), 30, seed=22)) + 8.0
    path = tmp_path_factory.mktemp("pending") / "expr.tsv"
    write_genes_x_conditions(path, values, HOLES)
    return path


def _upload(path) -> AppTest:
    at = AppTest.from_file(str(APP), default_timeout=TIMEOUT).run()
    at.radio(key=state.W_SOURCE).set_value(sidebar.SOURCES[1]).run()
    at.file_uploader(key=state.W_UPLOAD).set_value((path.name, path.read_bytes(), "text/plain")).run()
    assert not at.exception and not texts(at.error)
    return at


def test_not_filled_before_transpose_then_filled_after(genes_x_conditions):
    at = _upload(genes_x_conditions)
    prepared = at.session_state[state.SESSION].prepared
    assert prepared.pending and prepared.completion is None and prepared.cells() == []
    # held at the column's mean (the 30 conditions are the variables as loaded)
    loaded, held = prepared.loaded, prepared.searched
    col = loaded.missing.any(axis=0).nonzero()[0][0]
    seen = ~loaded.missing[:, col]
    assert held.values[~seen, col] == pytest.approx(loaded.values[seen, col].mean())
    banner = " ".join(texts(at.info))
    assert "4 missing cell(s)" in banner and "once the orientation is settled" in banner
    assert "posterior mean" not in banner and " at cond_" not in banner  # no cells named per "instance" yet
    at.button(key="w_home_transpose").click().run()
    assert not at.exception and not texts(at.error)
    session = at.session_state[state.SESSION]
    assert not session.prepared.pending and session.prepared.completion is not None
    assert len(session.prepared.cells()) == 4
    assert "after the transpose, from the file's own cells" in " ".join(texts(at.info))
    at.button(key="w_home_undo_transpose").click().run()  # back to the pending fill as loaded
    assert not at.exception and at.session_state[state.SESSION].prepared.pending


def test_keeping_the_orientation_fills_them_in_it(genes_x_conditions):
    at = _upload(genes_x_conditions)
    at.button(key="w_missing_keep").click().run()
    assert not at.exception and not texts(at.error)
    session = at.session_state[state.SESSION]
    assert not session.prepared.pending and session.prepared.completion is not None
    assert not session.transposed and session.dataset.n_vars == 30  # the conditions stay the variables
    assert len(session.prepared.cells()) == 4
    assert session.notice and "filled by structural EM" in session.notice
    assert not any("once the orientation is settled" in t for t in texts(at.info))


def test_keeping_is_undone_as_a_data_edit(genes_x_conditions):
    """Keep is on the undo stack (explorer/settle_fill.py): Undo brings back the held cells and the search on
    them, and never undoes an earlier action (a Step on the held data) on the filled data."""
    at = _upload(genes_x_conditions)
    session = at.session_state[state.SESSION]
    session.step()  # a move on the held data
    held_main = session.main
    at.button(key="w_missing_keep").click().run()
    session = at.session_state[state.SESSION]
    assert not session.prepared.pending and session.stepper.n_iter == 0
    said = session.undo()
    assert session.prepared.pending and session.main is held_main and session.stepper.n_iter == 1
    assert said.startswith("The missing cells are held at their columns' means again")
