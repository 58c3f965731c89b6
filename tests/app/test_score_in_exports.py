"""The app's learned network carries the score the search maximized, as the CLI's result does.

Found on a lab file (30 conditions x 398 genes, EBIC chosen automatically): the Truth page's JSON
export said score "bic", "chosen by the user", with the BIC as its value; its caption gave "BIC
-15,009.8" next to the Search page's "EBIC -16,768.0". After accepting a hidden variable the Hidden
page's "Observed-data EBIC of the current network" showed the observed BIC (-14,998.39), while the
Accept message, right above, gave the observed EBIC (-16,783.81).
"""

from __future__ import annotations

import pytest
from conftest import page_test, texts
from test_hidden_page import planted

from explorer import actions, state
from explorer.session import SearchSession


@pytest.fixture(scope="module")
def ebic_session(small_data):
    dataset, truth = small_data
    session = SearchSession(dataset, truth, "small", settings=dict(score="ebic"))
    for _ in range(4):
        session.step()
    return session


def test_learned_network_records_the_score_searched(ebic_session):
    score = ebic_session.learned_network().to_dict()["score"]
    assert score["name"] == "ebic"
    assert score["value"] == pytest.approx(ebic_session.stepper.score, rel=1e-9)
    assert score["reason"] == ebic_session.stepper.score_choice.reason


def test_truth_page_caption_names_the_score_searched(ebic_session):
    at = page_test("truth.py", **{state.SESSION: ebic_session}).run()
    assert not at.exception
    caption = next(t for t in texts(at.caption) if " edges, " in t and "log-likelihood" in t)
    assert f"EBIC {ebic_session.stepper.score:,.1f} nats (BIC " in caption


def test_hidden_page_observed_score_is_the_accepted_one():
    ds, _ = planted()
    session = SearchSession(ds, None, "planted factor", settings=dict(score="ebic"))
    for _ in range(40):
        session.step()
    actions.accept_hidden(session, session.propose_hidden(1)[0])
    at = page_test("hidden.py", **{state.SESSION: session}).run()
    assert not at.exception
    caption = next(t for t in texts(at.caption) if t.startswith("Observed-data EBIC of the current network"))
    assert f"{session.hidden.observed_bic():,.2f} nats" in caption
