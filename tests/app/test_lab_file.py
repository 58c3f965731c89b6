"""A lab's expression file in the app (issues #11 and #14), end to end with AppTest: upload ->
the notices name the problems (missing cells and where, the repeated gene id, the constant and
the mostly-missing gene, the annotation column) -> Step -> network view -> export; the same
file with genes as rows, loaded as it is and turned round with the Transpose button, with the
sidebar's Orientation radio following the button and its Undo.

The file is small (120 genes x 30 conditions) so that AppTest runs stay quick; the browser test
and ``benchmarks/bench_app_step.py --lab`` use the 600-gene and larger versions.
"""

from __future__ import annotations

import json

import numpy as np
import pytest
from conftest import texts
from lab_file import write_lab_file

from explorer import sidebar, state


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    return write_lab_file(tmp_path_factory.mktemp("lab") / "lab.csv", 120, 30, seed=2)


@pytest.fixture(scope="module")
def lab_rows(tmp_path_factory):
    return write_lab_file(tmp_path_factory.mktemp("lab") / "lab_rows.csv", 120, 30, transposed=True, seed=2)


def _upload(app, lab):
    app.radio(key=state.W_SOURCE).set_value(sidebar.SOURCES[1]).run()
    app.file_uploader(key=state.W_UPLOAD).set_value((lab.path.name, lab.path.read_bytes(), "text/csv")).run()
    assert not app.exception, app.exception
    assert not texts(app.error), texts(app.error)
    return app.session_state[state.SESSION]


def test_upload_names_the_problems_and_steps_on_completed_data(app, lab):
    session = _upload(app, lab)
    warnings = " ".join(texts(app.sidebar.warning))
    assert lab.duplicated in warnings and "Renamed" in warnings
    assert repr(lab.constant) in warnings or lab.constant in warnings
    assert lab.mostly_missing in warnings and "mostly-missing" in warnings
    assert "treatment" in warnings  # the annotation column, left out and named
    # the data as loaded keep their missing cells; the search runs on completed data
    loaded = session.prepared.loaded
    assert loaded.has_missing and not session.dataset.has_missing
    assert session.dataset.names == loaded.names
    observed = ~loaded.missing
    np.testing.assert_array_equal(session.dataset.values[observed], loaded.values[observed])
    assert f"{lab.duplicated} (2)" in session.dataset.names
    assert lab.constant not in session.dataset.names and lab.mostly_missing not in session.dataset.names
    # the banner says how many cells are missing, where, and what the search runs on
    banner = " ".join(texts(app.info))
    n_missing = int(loaded.missing.sum())
    assert f"{n_missing:,} missing cell(s)" in banner and "structural EM" in banner and "most in" in banner
    # the command that learns the same file with the full structural EM reads it as the app does
    command = banner.split("`")[1]  # the file by its name, read with the app's options
    assert command.startswith(f"python -m engine learn {lab.path.name} ")
    assert "--number-repeats" in command and "--skip-unusable" in command and "--transpose" not in command
    worst = loaded.names[int(np.argmax(loaded.missing.sum(axis=0)))]
    assert worst in banner

    app.switch_page("explorer/pages/search.py").run()
    assert not app.exception
    assert any("structural EM" in t for t in texts(app.info))
    app.button(key=state.W_STEP).click().run()
    assert not app.exception and not texts(app.error)
    assert session.stepper.n_iter == 1 and session.undo_stack
    # the network view draws the move: the drawing of the step's child, by its gene id
    move = session.stepper.history[-1]
    names = session.variable_names()
    html = app.session_state[state.MEMO]["search_network"][1]
    assert json.dumps(names[move.child]) in html and json.dumps(names[move.parent]) in html
    # export: the page draws its download buttons; the JSON says how the missing cells were handled
    app.switch_page("explorer/pages/truth.py").run()
    assert not app.exception and not texts(app.error)
    assert len(app.get("download_button")) == 3
    exported = json.loads(json.dumps(session.learned_network().to_dict()))  # what the JSON button holds
    assert exported["missing_values"].startswith(f"{n_missing} missing cell(s) filled")
    assert "structural EM" in exported["missing_values"]
    assert [(e["parent"], e["child"]) for e in exported["edges"]] == [(names[move.parent], names[move.child])]
    # undo takes the step back; the data are untouched
    assert session.undo().startswith("Undid")
    assert session.prepared.loaded is loaded


def test_genes_in_rows_transpose_button_and_radio_agree(app, lab_rows):
    session = _upload(app, lab_rows)
    # as loaded: 120 rows (genes) x 30 conditions, with the orientation box and its button
    assert session.dataset.n_samples == lab_rows.n_genes
    assert any("wrong way round" in t for t in texts(app.warning))
    assert app.radio(key=state.W_ORIENT).value == sidebar.ORIENTATIONS[0]
    app.button(key="w_home_transpose").click().run()
    assert not app.exception and not texts(app.error)
    session = app.session_state[state.SESSION]
    assert session.transposed and session.dataset.n_samples == lab_rows.n_conditions
    # gene ids name the variables; the repeated one got a number; the sparse gene is left out
    assert f"{lab_rows.duplicated} (2)" in session.dataset.names
    assert lab_rows.mostly_missing not in session.dataset.names
    assert session.prepared.completion is not None
    # the banner's command reads the file turned round, as the app now does
    assert any(f"learn {lab_rows.path.name} --transpose" in t for t in texts(app.info))
    # the sidebar's radio follows the button, and the data are not loaded again
    assert app.radio(key=state.W_ORIENT).value == sidebar.ORIENTATIONS[1]
    app.run()
    assert app.session_state[state.SESSION] is session and session.transposed
    app.switch_page("explorer/pages/search.py").run()
    app.button(key=state.W_STEP).click().run()
    assert not app.exception and session.stepper.n_iter == 1
    # Undo (step, then transpose): the radio goes back with the data
    app.button(key=state.W_UNDO).click().run()
    app.button(key=state.W_UNDO).click().run()
    assert not app.exception and not session.transposed
    assert session.dataset.n_samples == lab_rows.n_genes
    assert app.radio(key=state.W_ORIENT).value == sidebar.ORIENTATIONS[0]
    assert app.session_state[state.SESSION] is session


def test_next_file_is_read_as_it_is_after_a_transpose(app, lab_rows, lab):
    """The radio followed the first file's Transpose button; the next file (genes in columns)
    must not be turned round by that leftover."""
    _upload(app, lab_rows)
    app.button(key="w_home_transpose").click().run()
    assert app.radio(key=state.W_ORIENT).value == sidebar.ORIENTATIONS[1]
    _upload(app, lab)
    assert app.radio(key=state.W_ORIENT).value == sidebar.ORIENTATIONS[0]
    session = app.session_state[state.SESSION]
    assert session.dataset.n_samples == lab.n_conditions and not session.transposed
    assert not any("wrong way round" in t for t in texts(app.warning))


def test_radio_set_by_the_user_stays_for_the_next_file(app, lab_rows):
    app.radio(key=state.W_SOURCE).set_value(sidebar.SOURCES[1]).run()
    app.radio(key=state.W_ORIENT).set_value(sidebar.ORIENTATIONS[1]).run()
    _upload(app, lab_rows)
    assert app.radio(key=state.W_ORIENT).value == sidebar.ORIENTATIONS[1]
    assert app.session_state[state.SESSION].dataset.n_samples == lab_rows.n_conditions


def test_radio_loads_the_file_turned_round(app, lab_rows):
    _upload(app, lab_rows)
    app.radio(key=state.W_ORIENT).set_value(sidebar.ORIENTATIONS[1]).run()
    assert not app.exception and not texts(app.error)
    session = app.session_state[state.SESSION]
    assert session.dataset.n_samples == lab_rows.n_conditions and not session.transposed
    assert lab_rows.duplicated in session.dataset.names
    app.run()
    assert app.session_state[state.SESSION] is session
    assert app.radio(key=state.W_ORIENT).value == sidebar.ORIENTATIONS[1]


def test_hidden_proposals_cap_cluster_size_on_large_networks(monkeypatch):
    """Above 200 variables proposals are clusters of at most 50 members (each dendrogram node is an
    eigenproblem of its size: uncapped, 1000 genes took 92 s); small networks are not capped."""
    from engine.synth import random_network, sample_dataset
    from explorer import session as session_mod

    seen = []
    real = session_mod.propose_for_review

    def spy(*args, **kwargs):
        seen.append(kwargs.get("max_size"))
        return real(*args, **kwargs)

    monkeypatch.setattr(session_mod, "propose_for_review", spy)
    for n, cap in ((12, None), (session_mod.CAP_CLUSTERS_ABOVE + 10, session_mod.MAX_CLUSTER)):
        s = session_mod.SearchSession(sample_dataset(random_network(n, seed=1), 80, seed=2))
        s.step()
        proposals = s.propose_hidden(3)
        assert seen[-1] == cap
        assert all(len(p.names) <= (cap or n) for p in proposals)
