"""The Hidden page says when its proposals rest on filled cells (QA walk, #22: on the yeast
cell-cycle table, 7,293 of 127,700 cells missing, the Home and Search pages said the cells were
filled by structural EM, the Hidden page, where a biologist reads profiles per condition, did not)."""

from __future__ import annotations

import numpy as np
from conftest import PAGES, TIMEOUT, texts
from streamlit.testing.v1 import AppTest

from engine.io import from_array
from explorer import state
from explorer.missing_box import completed_note
from explorer.session import SearchSession


def _session(holes=((3, 2), (10, 4), (20, 1))):
    rng = np.random.default_rng(0)
    x = rng.normal(size=(60, 8))
    x[:, 1:5] += rng.normal(size=(60, 1))
    for i, j in holes:
        x[i, j] = np.nan
    return SearchSession(from_array(x, [f"g{i}" for i in range(8)]), None, "holes")


def test_note_counts_the_filled_cells():
    assert completed_note(_session()) == (
        "Proposals and profiles use the data completed for the search: 3 of the 480 cells (0.6%) were missing "
        "and are filled by structural EM (the Home page lists them)."
    )
    assert completed_note(_session(holes=())) is None


def test_hidden_page_shows_it():
    at = AppTest.from_file(str(PAGES / "hidden.py"), default_timeout=TIMEOUT)
    at.session_state[state.SESSION] = _session()
    at.run()
    assert not at.exception
    assert any(t.startswith("Proposals and profiles use the data completed") for t in texts(at.caption))
