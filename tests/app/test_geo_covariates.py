"""A GEO series matrix uploaded to the explorer (AppTest): its sample characteristics are offered as
covariates, the fields listed and the skipped ones said, and one click adds them as parent-only
variables (explorer.geo_covariates; the CLI's --covariates geo). With the samples still the columns
the button waits for Transpose."""

from __future__ import annotations

import sys
from pathlib import Path

from conftest import texts

from engine.cli.rerun import rerun_command
from explorer import geo_covariates, sidebar, state
from explorer.export import export_settings
from explorer.session import SearchSession

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "engine"))
from test_geo_samples import _matrix  # noqa: E402


def _upload(app, tmp_path, turn: bool):
    path = _matrix(tmp_path)
    app.radio(key=state.W_SOURCE).set_value(sidebar.SOURCES[1]).run()
    if turn:
        app.radio(key=state.W_ORIENT).set_value(sidebar.ORIENTATIONS[1]).run()
    app.file_uploader(key=state.W_UPLOAD).set_value((path.name, path.read_bytes(), "text/plain")).run()
    assert not app.exception and not texts(app.error), texts(app.error)
    return app.session_state[state.SESSION]


def test_one_click_adds_the_characteristics(app, tmp_path):
    session = _upload(app, tmp_path, turn=True)
    assert session.dataset.n_samples == 12 and not session.dataset.covariates
    offered = [c for c in texts(app.caption) if "GEO sample characteristics" in c]
    assert offered and "by treatment, batch, time, age" in offered[0], texts(app.caption)
    assert "Skipped: 'tissue' (the same on every sample: liver)" in offered[0]
    app.button(key=geo_covariates.W_GEO).click().run()
    assert not app.exception and not texts(app.error), texts(app.error)
    session = app.session_state[state.SESSION]
    assert session.dataset.covariates == ("treatment=heat", "batch=2", "time=30 min", "time=60 min", "age")
    assert any(c.startswith("Covariates: treatment (2 levels") for c in texts(app.caption)), texts(app.caption)
    assert not [b for b in app.button if b.key == geo_covariates.W_GEO]  # in use: no second offer
    settings = export_settings(session)  # the rerun command reads them from the series matrix again
    assert settings["covariates"] == "geo" and "--covariates geo" in rerun_command(settings)
    while session.step().move is not None:
        pass
    names = session.variable_names()
    edges = [(names[p], names[c]) for p, c in session.stepper.edges()]
    assert not [c for _, c in edges if c in set(session.dataset.covariates)]
    assert any(p == "treatment=heat" for p, _ in edges), edges


def test_waits_for_transpose(app, tmp_path):
    _upload(app, tmp_path, turn=False)
    button = next(b for b in app.button if b.key == geo_covariates.W_GEO)
    assert button.disabled
    assert any("Transpose first" in c for c in texts(app.caption))


def test_other_files_get_no_offer(app):
    app.radio(key=state.W_SOURCE).set_value(sidebar.SOURCES[1]).run()
    data = "s,a,b,c\n" + "".join(f"r{i},{i % 3},{i * i % 5},{i % 4}\n" for i in range(12))
    app.file_uploader(key=state.W_UPLOAD).set_value(("t.csv", data.encode(), "text/csv")).run()
    assert not [b for b in app.button if b.key == geo_covariates.W_GEO]


def test_a_file_streamlit_no_longer_holds_is_no_traceback(small_data):
    # Streamlit's DeletedFile (no name) in the upload widget's state made every page a traceback
    # from here after a quarter of an hour on the yeast cell-cycle table (QA walk)
    from streamlit.testing.v1 import AppTest

    def script():
        import streamlit as st
        from streamlit.runtime.uploaded_file_manager import DeletedFile

        from explorer import geo_covariates, state

        st.session_state[state.W_UPLOAD] = DeletedFile("some-file-id")
        geo_covariates.offer()
        st.write("drawn")

    ds, truth = small_data
    at = AppTest.from_function(script, default_timeout=30)
    at.session_state[state.SESSION] = SearchSession(ds, truth, "small")
    at.run()
    assert not at.exception, at.exception
    assert "drawn" in texts(at.markdown)
