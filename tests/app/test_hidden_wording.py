"""The hidden-variable page's proposal text when no edge joins the members.

Found on the Sachs sample after two steps: "the members lose 0.00 when the 0 edge(s) among them
are removed". It now says that no edge joins them; with edges it names the loss in nats.
"""

from __future__ import annotations

from conftest import PAGES, TIMEOUT, texts
from streamlit.testing.v1 import AppTest
from test_hidden_page import planted

from explorer import state
from explorer.session import SearchSession


def _hidden_page(session: SearchSession) -> AppTest:
    at = AppTest.from_file(str(PAGES / "hidden.py"), default_timeout=TIMEOUT)
    at.session_state[state.SESSION] = session
    at.run()
    assert not at.exception
    return at


def test_no_edge_among_members_is_said_in_words():
    ds, _ = planted()
    at = _hidden_page(SearchSession(ds, None, "planted factor"))  # no edges yet
    text = " ".join(texts(at.markdown))
    assert "Estimated BIC change" in text
    assert "0 edge(s)" not in text and "lose 0.00" not in text
    assert "no edge joins the members, so none is removed" in text


def test_edges_among_members_are_counted_with_their_loss_in_nats():
    ds, _ = planted()
    session = SearchSession(ds, None, "planted factor")
    for _ in range(40):  # the search links some of the members up
        session.step()
    at = _hidden_page(session)
    props = session.propose_hidden(5)
    pick = next(i for i, p in enumerate(props) if len(p.removed_edges) > 1)
    box = at.selectbox(key="ip_hidden_pick")
    at = box.select(box.options[pick]).run()
    assert not at.exception
    text = " ".join(texts(at.markdown))
    n, loss = len(props[pick].removed_edges), props[pick].removed_loss
    assert f"the members lose {loss:.2f} nats when the {n} edges among them are removed" in text
    assert "edge(s)" not in text


def test_first_screen_says_what_the_page_does_in_a_few_sentences():
    """A newcomer's first screen: what the page does and what to do first, in at most three short
    sentences; where proposals come from and how they are scored is under "How to read this page"."""
    ds, _ = planted()
    at = _hidden_page(SearchSession(ds, None, "planted factor"))
    intro = at.markdown[0].value
    assert "hidden regulators" in intro and "Search page" in intro and "**Accept**" in intro
    assert intro.count(". ") + intro.rstrip().endswith(".") <= 3 and len(intro.split()) <= 70, intro
    assert "semi-cliques" not in intro and "eigenvector" not in intro
    (how,) = [e for e in at.expander if e.label == "How to read this page"]
    guide = " ".join(texts(how.markdown))
    assert "**semi-cliques**" in guide and "**co-expression**" in guide and "edges inside it removed" in guide


def test_one_removed_edge_is_singular():
    from types import SimpleNamespace

    from explorer.proposal_text import removal_text

    text = removal_text(SimpleNamespace(removed_edges=[(0, 1)], removed_loss=12.13))
    assert text == "the members lose 12.13 nats when the edge among them is removed"
