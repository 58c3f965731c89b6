"""An Accept that pays by the score but whose hidden profile rests on one condition (a newcomer's
review of a yeast stress table: the proposal flagged by oxid_120m, accepted, grew to the 70 genes
shocked there and was reported in green as "it pays"). The Accept message now names the condition
and the share of the profile it carries, and the page shows it as a warning, not a success."""

from __future__ import annotations

import numpy as np
from conftest import PAGES, TIMEOUT, texts
from streamlit.testing.v1 import AppTest

from engine.data import from_array
from explorer import actions, state
from explorer.session import SearchSession


def one_shocked_condition(seed: int = 3, m: int = 24, n: int = 120):
    """A chain-like table with condition cond7 five units high in 30 genes."""
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(m, n))
    x[:, 60:] += 0.7 * x[:, :60]
    x[7, :30] += 5.0
    return from_array(x, [f"g{i}" for i in range(n)], instance_labels=[f"cond{i}" for i in range(m)])


def converged(ds) -> SearchSession:
    session = SearchSession(ds, None, "one shocked condition")
    session.start_run(None)
    while session.run_chunk(0.5):
        pass
    return session


def test_accept_of_a_one_condition_profile_is_a_named_warning():
    session = converged(one_shocked_condition())
    at = AppTest.from_file(str(PAGES / "hidden.py"), default_timeout=TIMEOUT)
    at.session_state[state.SESSION] = session
    at.run()
    assert not at.exception
    pick = at.selectbox(key="ip_hidden_pick")
    flagged = [i for i, p in enumerate(session.propose_hidden(5)) if p.flagged]
    assert flagged, "the shocked genes are proposed and flagged by cond7"
    assert "(flagged: cond7" in pick.options[flagged[0]]  # named in the picker too (QA walk, session 28)
    pick.set_value(pick.options[flagged[0]]).run()
    at.button(key="ip_hidden_accept").click().run()
    assert not at.exception
    (hv,) = at.session_state[state.SESSION].hidden.hidden
    assert hv.realized_gain > 0  # it pays by the score ...
    said = next(w for w in texts(at.warning) if w.startswith(f"Added {hv.name}"))
    assert actions.ODD_PROFILE in said and "(cond7)" in said  # ... on one condition, named
    assert not any(s.startswith("Added") for s in texts(at.success))


def test_accept_across_the_data_stays_a_success():
    """A module driven across the conditions: the message is a success without the odd-condition clause."""
    rng = np.random.default_rng(0)
    x = rng.normal(size=(60, 30))
    h = rng.normal(size=60)
    x[:, :8] = 0.9 * h[:, None] + 0.4 * rng.normal(size=(60, 8))
    session = converged(from_array(x, [f"g{i}" for i in range(30)]))
    message = actions.accept_hidden(session, session.propose_hidden(1)[0])
    assert "it pays" in message and actions.ODD_PROFILE not in message


def test_accept_message_caps_a_long_list_of_children():
    """70 children made the Accept message a wall of gene ids: it names the first 12 and counts the rest."""
    session = converged(one_shocked_condition())
    flagged = next(p for p in session.propose_hidden(5) if p.flagged)
    message = actions.accept_hidden(session, flagged)
    (hv,) = session.hidden.hidden
    assert len(hv.children) > actions.MESSAGE_CHILDREN
    head = message.split(";", 1)[0]
    assert head.startswith(f"Added H1 as parent of {len(hv.children)} variables ({', '.join(hv.children[:12])} and ")
    assert hv.children[12] not in head and f"{len(hv.children) - 12} more" in head
