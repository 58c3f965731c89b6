"""On a large network the hidden-variable page shows what was accepted before proposals are asked for.

Found on a lab file (30 conditions x 398 genes): after Accept, the page showed the success message
and the "Propose hidden variables" button, but neither the accepted variable, its downloads
(members, inferred profiles, regulator report) nor "Undo accept": the page stopped at the button
(above 150 variables the proposals are computed on request).
"""

from __future__ import annotations

import numpy as np
from conftest import PAGES, TIMEOUT, texts
from streamlit.testing.v1 import AppTest

from engine.data import from_array
from engine.synth import random_network, sample
from explorer import actions, state
from explorer.session import SearchSession

N_VARS = 160  # above the page's LAZY_ABOVE = 150


def _accepted_session() -> SearchSession:
    rng = np.random.default_rng(0)
    net = random_network(N_VARS, seed=0, expected_parents=1.0)
    x = sample(net, 120, seed=1)
    x = x / x.std(axis=0)
    h = rng.normal(size=120)
    for j in (3, 17, 40, 41, 90):
        x[:, j] += h
    session = SearchSession(from_array(x, [f"g{i}" for i in range(N_VARS)]), None, "large")
    for _ in range(30):
        session.step()
    actions.accept_hidden(session, session.propose_hidden(1)[0])
    return session


def test_accepted_variable_and_downloads_without_proposals():
    session = _accepted_session()
    at = AppTest.from_file(str(PAGES / "hidden.py"), default_timeout=TIMEOUT)
    at.session_state[state.SESSION] = session
    at.run()
    assert not at.exception
    assert [b for b in at.button if b.key == "ip_hidden_propose"]  # proposals not computed
    assert "Accepted hidden variables" in texts(at.subheader)
    assert "Regulator report" in texts(at.subheader)
    assert [b for b in at.button if b.key == "ip_hidden_undo"]
    accepted = at.dataframe[0].value
    assert list(accepted["hidden"]) == ["H1"]
    downloads = [e for e in at.get("download_button")]
    assert len(downloads) == 4  # members, profiles, report CSV and JSON


def test_propose_button_cleared_once_proposals_are_listed():
    """After "Propose hidden variables" the proposals are listed and the button is gone (a button left
    above the table invites a second click that does nothing new)."""
    session = _accepted_session()
    at = AppTest.from_file(str(PAGES / "hidden.py"), default_timeout=TIMEOUT)
    at.session_state[state.SESSION] = session
    at.run()
    at.button(key="ip_hidden_propose").click().run()
    assert not at.exception
    assert not [b for b in at.button if b.key == "ip_hidden_propose"]
    assert any("members" in d.value.columns for d in at.dataframe)  # the proposals table


def test_reject_lists_the_next_proposals_without_asking_again():
    """Asked once for this network, a Reject (or another count) lists the proposals again at once; a
    new network (Undo accept) asks again (#22: after a Reject the page showed only the button)."""
    session = _accepted_session()
    at = AppTest.from_file(str(PAGES / "hidden.py"), default_timeout=TIMEOUT)
    at.session_state[state.SESSION] = session
    at.run()
    at.button(key="ip_hidden_propose").click().run()
    first = next(d.value for d in at.dataframe if "members" in d.value.columns)
    at.button(key="ip_hidden_reject").click().run()
    assert not at.exception
    assert not [b for b in at.button if b.key == "ip_hidden_propose"]
    after = next(d.value for d in at.dataframe if "members" in d.value.columns)
    assert first.iloc[0]["members"] not in set(after["members"])  # the rejected one is gone
    at.slider(key="ip_hidden_n").set_value(3).run()
    assert not at.exception and not [b for b in at.button if b.key == "ip_hidden_propose"]
    at.button(key="ip_hidden_undo").click().run()  # another network: proposals on request again
    assert not at.exception
    assert [b for b in at.button if b.key == "ip_hidden_propose"]


def test_undo_accept_lists_the_proposals_of_the_network_it_goes_back_to():
    """Proposals asked for a network come back with it: after Accept and Undo accept (or a round trip
    to another page) the list is shown again without a second Propose (a newcomer's walk: "the
    proposals list is gone after Undo", on a 300-gene table whose proposals take a while)."""
    rng = np.random.default_rng(0)
    x = sample(random_network(N_VARS, seed=0, expected_parents=1.0), 120, seed=1)
    x = x / x.std(axis=0)
    h = rng.normal(size=120)
    x[:, [3, 17, 40, 41, 90]] += h[:, None]
    session = SearchSession(from_array(x, [f"g{i}" for i in range(N_VARS)]), None, "large")
    for _ in range(30):
        session.step()
    at = AppTest.from_file(str(PAGES / "hidden.py"), default_timeout=TIMEOUT)
    at.session_state[state.SESSION] = session
    at.run()
    at.button(key="ip_hidden_propose").click().run()
    first = next(d.value for d in at.dataframe if "members" in d.value.columns)
    at.button(key="ip_hidden_accept").click().run()
    assert not at.exception and session.hidden is not None and session.hidden.hidden
    assert [b for b in at.button if b.key == "ip_hidden_propose"]  # a new network: proposals on request
    at.button(key="ip_hidden_undo").click().run()
    assert not at.exception and (session.hidden is None or not session.hidden.hidden)
    assert not [b for b in at.button if b.key == "ip_hidden_propose"]  # back: its proposals, not asked again
    again = next(d.value for d in at.dataframe if "members" in d.value.columns)
    assert list(again["members"]) == list(first["members"])


def test_unsearched_large_network_says_search_first_before_propose():
    """A large network at step 0 (a newcomer's first visit after loading): the page says to run the
    search first before the Propose button, not only after a long Propose on the empty network, and
    Propose is not the page's primary button then. After Propose the warning is shown once."""
    x = sample(random_network(N_VARS, seed=0, expected_parents=1.0), 120, seed=1)
    session = SearchSession(from_array(x, [f"g{i}" for i in range(N_VARS)]), None, "large")
    at = AppTest.from_file(str(PAGES / "hidden.py"), default_timeout=TIMEOUT)
    at.session_state[state.SESSION] = session
    at.run()
    assert not at.exception
    assert any("has not been searched yet" in w for w in texts(at.warning))
    assert at.button(key="ip_hidden_search_first").proto.type == "primary"
    assert at.button(key="ip_hidden_propose").proto.type == "secondary"
    at.button(key="ip_hidden_propose").click().run()  # proposing anyway: listed, the warning once
    assert not at.exception
    assert sum("has not been searched yet" in w for w in texts(at.warning)) == 1
    assert any("members" in d.value.columns for d in at.dataframe)
    at.button(key="ip_hidden_search_first").click().run()
    assert not at.exception
    assert at.session_state[state.SESSION].stepper.n_iter > 0
    assert not any("has not been searched yet" in w for w in texts(at.warning))
    assert at.button(key="ip_hidden_propose").proto.type == "primary"


def test_search_first_before_asking_leaves_the_propose_button():
    """Not asked yet (the box above the button): after the search the page offers Propose, primary."""
    x = sample(random_network(N_VARS, seed=0, expected_parents=1.0), 120, seed=1)
    session = SearchSession(from_array(x, [f"g{i}" for i in range(N_VARS)]), None, "large")
    at = AppTest.from_file(str(PAGES / "hidden.py"), default_timeout=TIMEOUT)
    at.session_state[state.SESSION] = session
    at.run()
    at.button(key="ip_hidden_search_first").click().run()
    assert not at.exception and session.stepper.n_iter > 0
    assert at.button(key="ip_hidden_propose").proto.type == "primary"
