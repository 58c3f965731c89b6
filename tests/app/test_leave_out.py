"""Leaving out the condition a flagged proposal rests on (QA walk, session 28: the page named a failed array
and offered no way to drop it). The Hidden page's button is an undoable data edit with a new search on the
remaining instances; the export's rerun notes say how the CLI does the same."""

from __future__ import annotations

import pytest
from conftest import PAGES, TIMEOUT, texts
from streamlit.testing.v1 import AppTest
from test_accept_odd_profile import converged, one_shocked_condition

from engine.exceptions import IdealParentError
from explorer import export, leave_out, state


def test_the_flagged_condition_is_left_out_searched_again_and_undone():
    session = converged(one_shocked_condition())
    at = AppTest.from_file(str(PAGES / "hidden.py"), default_timeout=TIMEOUT)
    at.session_state[state.SESSION] = session
    at.run()
    pick = at.selectbox(key="ip_hidden_pick")
    flagged = next(i for i, p in enumerate(session.propose_hidden(5)) if p.flagged)
    pick.set_value(pick.options[flagged]).run()
    button = at.button(key="ip_leaveout_button")
    assert button.label == "Leave out cond7 and search again"
    button.click().run()
    assert not at.exception and not texts(at.error)
    ds = session.dataset
    assert ds.n_samples == 23 and "cond7" not in ds.instance_labels
    assert session.stepper.n_iter == 0  # a new search on the remaining instances
    assert session.notice.startswith("Left out cond7: 23 instances x 120 variables")
    assert any("left out cond7" in n and "--drop cond7" in n for n in export.rerun_notes(session))
    side = AppTest.from_function(_sidebar_summary, default_timeout=TIMEOUT)  # says it plainly, not 'Not used'
    side.session_state[state.SESSION] = session
    side.run()
    assert not side.exception
    assert any(c.startswith("Left out here: cond7") for c in texts(side.caption))
    assert not any("cond7" in w for w in texts(side.warning))
    said = session.undo()
    assert "cond7 back in the data: 24 instances" in said
    assert session.dataset.n_samples == 24 and not any("left out" in n for n in export.rerun_notes(session))


def _sidebar_summary():
    from explorer import sidebar

    sidebar._summary()


def test_an_unknown_name_changes_nothing():
    session = converged(one_shocked_condition())
    before = session.dataset
    with pytest.raises(IdealParentError, match="no instance of the data is named condX"):
        leave_out.leave_out(session, ["condX"])
    assert session.dataset is before
