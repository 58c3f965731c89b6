"""The regulator note with a covariate table loaded: the covariates are added to the list in force
(parents only), but the note under the list and the settings line count only the names the user
listed (15 TFs listed is "15 of 15", not "17 of 17" with two covariates counted as listed names)."""

from __future__ import annotations

from conftest import texts
from test_covariates_box import _loaded, _table

from explorer import covariates_box, state
from explorer.text import settings_summary


def test_the_note_counts_the_listed_names_not_the_covariates(app):
    _loaded(app)
    app.file_uploader(key=covariates_box.W_COVARIATES).set_value(("samples.csv", _table(), "text/csv")).run()
    app.text_area(key=state.W_REGULATORS).set_value("A\nb")  # in another case: matched ignoring it
    app.button(key=state.W_APPLY).click().run()
    assert not app.exception and not texts(app.error)
    session = app.session_state[state.SESSION]
    assert session.regulators == ["a", "b", "batch=b1"]  # the covariate stays a possible parent
    note = next(t for t in texts(app.sidebar.info) if t.startswith("Regulator list applied"))
    assert note.startswith("Regulator list applied: 2 of 2 listed names are variables of the data")
    line = settings_summary(session.settings, session.regulators, session.dataset.names, session.dataset.covariates)
    assert "regulators: 2 of 2 listed names found" in line
