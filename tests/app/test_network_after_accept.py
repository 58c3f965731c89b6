"""After Accept, a large network's drawing opens on the hidden variable and its children (QA walk,
#22: on the E. coli table, 2500 genes, Accept gave H1 34 children; the Search page, with no move
since Accept, fell back to "the most connected variables", 60 listed regulators, and showed H1
with 2 of its 34 edges)."""

from __future__ import annotations

from conftest import PAGES, TIMEOUT, texts
from streamlit.testing.v1 import AppTest
from test_hidden_accepted_large import _accepted_session

from explorer import state
from explorer.subnetwork import select_subnetwork

NAMES = [f"g{i}" for i in range(12)] + ["H1"]
# a hub g0 with 6 children (the most connected), H1 (index 12) with 4 children
EDGES = [(0, j) for j in range(1, 7)] + [(12, j) for j in (7, 8, 9, 10)]


def test_no_move_since_accept_shows_the_hidden_variables_and_their_children():
    sub = select_subnetwork(NAMES, EDGES, mode="last moves", max_nodes=6, hidden=[12])
    assert set(sub.nodes) == {12, 7, 8, 9, 10}
    assert sub.description == "the hidden variable H1 and its neighbours (no move since it was accepted)"


def test_moves_and_other_modes_unchanged():
    top = select_subnetwork(NAMES, EDGES, mode="most connected", max_nodes=3, hidden=[12])
    assert top.nodes[0] == 0
    plain = select_subnetwork(NAMES, EDGES, mode="last moves", max_nodes=6)
    assert plain.nodes[0] == 0 and "(no move yet)" in plain.description


def test_search_page_draws_h1_and_its_children_after_accept():
    session = _accepted_session()
    at = AppTest.from_file(str(PAGES / "search.py"), default_timeout=TIMEOUT)
    at.session_state[state.SESSION] = session
    at.run()
    assert not at.exception
    h = session.variable_names().index("H1")
    kids = [c for p, c in session.stepper.edges() if p == h]
    assert kids
    (said,) = [t for t in texts(at.caption) if t.startswith("Showing ")]
    assert "the hidden variable H1 and its neighbours" in said
