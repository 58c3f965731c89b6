"""The quick fill of missing cells in the explorer (explorer/fill_choice.py): the Home page's banner
names the fill that ran and about how long the other would take, and its button fills the cells the
other way as an undoable data edit (a cancer biologist's walk: Transpose on a 2,504-gene table
waited minutes for structural EM to fill 41 cells)."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import APP, TIMEOUT, texts
from genes_table import write_genes_x_conditions
from streamlit.testing.v1 import AppTest

from engine.data import from_array
from engine.impute import QuickFill, quick_fill
from engine.learn_em import Completion
from explorer import fill_choice, state
from explorer.session import SearchSession

HOLES = ([3, 9, 20], [1, 2, 3])


def _data():
    rng = np.random.default_rng(0)
    x = rng.normal(size=(60, 6))
    x[:, 1] += x[:, 0]
    x[:, 2] -= x[:, 1]
    x[HOLES] = np.nan
    return from_array(x, ["a", "b", "c", "d", "e", "f"])


def _box() -> None:
    """The Home page's missing-cells box, on its own (the Home page needs the whole app to run)."""
    from explorer.missing_box import missing_box

    missing_box()


def _home_box() -> AppTest:
    at = AppTest.from_function(_box, default_timeout=TIMEOUT)
    at.session_state[state.SESSION] = SearchSession(_data(), None, "holes")
    return at.run()


def _banner(at) -> str:
    [text] = [t for t in texts(at.info) if "This file has" in t]
    return text


def test_above_the_threshold_the_quick_fill_runs_and_the_button_runs_structural_em(monkeypatch):
    monkeypatch.setattr(fill_choice, "QUICK_FILL_ABOVE", 4)  # 6 variables count as many
    at = _home_box()
    assert not at.exception
    session = at.session_state[state.SESSION]
    assert isinstance(session.prepared.completion, QuickFill)
    quick = _banner(at)
    assert "filled by the quick fill: local least squares" in quick and "posterior mean under" in quick
    assert "one iteration would take a second or two of CPU here" in quick
    expected = quick_fill(session.prepared.loaded, session.settings).dataset.values[HOLES]
    np.testing.assert_allclose(session.dataset.values[HOLES], expected)
    button = at.button(key="w_missing_switch")
    assert button.label == "Fill them by structural EM instead (a second or two of CPU)"
    button.click().run()
    assert not at.exception and not texts(at.error)
    session = at.session_state[state.SESSION]
    assert isinstance(session.prepared.completion, Completion)
    assert "learned by structural EM" in _banner(at) and "The quick fill" in _banner(at)
    for text in (quick, _banner(at)):  # a lead sentence and one bullet per point, not one long paragraph
        lead, points = text.split("\n\n")
        assert lead.startswith("**This file has") and lead.count(". ") <= 1
        assert [p[:4] for p in points.split("\n")] == ["- **"] * 4
    assert session.notice.startswith("3 missing cell(s) filled by structural EM")
    assert at.button(key="w_missing_switch").label.startswith("Fill them by the quick fill instead")
    assert session.undo() == "The missing cells are filled by the quick fill again."
    assert isinstance(session.prepared.completion, QuickFill)


def test_a_small_table_gets_structural_em_and_can_switch_to_the_quick_fill():
    at = _home_box()
    assert not at.exception
    session = at.session_state[state.SESSION]
    assert isinstance(session.prepared.completion, Completion)
    loaded = session.prepared.loaded
    at.button(key="w_missing_switch").click().run()
    assert not at.exception and not texts(at.error)
    session = at.session_state[state.SESSION]
    assert isinstance(session.prepared.completion, QuickFill) and session.prepared.loaded is loaded
    assert "filled by the quick fill" in _banner(at)
    assert loaded.missing[HOLES].all() and np.isnan(loaded.values[HOLES]).all()  # the data as loaded kept
    assert not session.dataset.missing.any() and session.stepper.n_vars == 6  # a new search on the filled data


@pytest.mark.parametrize(("n_vars", "fill"), [(150, "em"), (2504, "quick")])
def test_the_default_fill_follows_the_number_of_variables(n_vars, fill):
    assert fill_choice.default_fill(from_array(np.random.default_rng(0).normal(size=(3, n_vars)))) == fill


def test_rough_times_read_as_a_person_says_them():
    assert [fill_choice.rough(s) for s in (0.4, 41, 200)] == ["a second or two", "about 40 seconds", "about 3 minutes"]


def test_transpose_of_a_wide_table_fills_by_the_quick_fill(monkeypatch, tmp_path):
    """The walk's path: genes as rows, pending until Transpose, then the quick fill (12 genes count
    as many here), named in the banner as done after the transpose."""
    from engine.synth import random_network, sample
    from explorer import sidebar

    monkeypatch.setattr(fill_choice, "QUICK_FILL_ABOVE", 10)
    path = tmp_path / "expr.tsv"
    write_genes_x_conditions(path, np.asarray(sample(random_network(12, seed=21), 30, seed=22)) + 8.0, ((2, 4), (7, 0)))
    at = AppTest.from_file(str(APP), default_timeout=TIMEOUT).run()
    at.radio(key=state.W_SOURCE).set_value(sidebar.SOURCES[1]).run()
    at.file_uploader(key=state.W_UPLOAD).set_value((path.name, path.read_bytes(), "text/plain")).run()
    assert at.session_state[state.SESSION].prepared.pending
    assert "above 10 variables by the quick fill" in _banner(at)
    at.button(key="w_home_transpose").click().run()
    assert not at.exception and not texts(at.error)
    session = at.session_state[state.SESSION]
    assert session.transposed and isinstance(session.prepared.completion, QuickFill)
    assert "filled by the quick fill" in _banner(at) and "after the transpose" in _banner(at)
    assert len(session.prepared.cells()) == 2
