"""What a newcomer met on the Hidden page with a bacterial table (walk of session 21; screenshots in the
session's report): a one-operon proposal listed after ones that do not pay, its status "new"; the caption
pointing at "Let auto add hidden variables" above after an Accept had hidden it; auto's "no further
proposal paid" silent about the operons it had not tried; "(1 sets tested)"; and, while Accept ran, the
Reject slot left to a stale element of an earlier run (Reject is now drawn first, greyed)."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest
from conftest import PAGES, TIMEOUT, texts
from streamlit.testing.v1 import AppTest

from engine.data import from_array
from engine.exceptions import IdealParentError
from engine.hidden.untried import NOTHING_PAID, AutoStop
from engine.io.gene_sets import gene_sets_from_bytes
from explorer import actions, gene_sets_box, state
from explorer.hidden_auto import KEY_AUTO, KEY_AUTO_MAX, stop_note
from explorer.pages.hidden import KEY_ACCEPT, KEY_PICK, KEY_REJECT
from explorer.session import SearchSession

NAMES = [f"b{k:04d}" for k in range(100, 150)]
OPERON = ["b0110", "b0111", "b0112", "b0113", "b0114", "b0115"]  # adjacent: one transcript
REGULON = ["b0103", "b0119", "b0124", "b0131", "b0137", "b0142"]  # scattered: an unlisted regulator
LISTED = ["b0145", "b0146", "b0147"]


def bacterial_session(m: int = 80, seed: int = 3) -> SearchSession:
    """50 b-numbered genes (as tests/engine/test_operon_set_aside.py), searched to convergence with 3 listed
    regulators, so that genes are not each other's parents and both the operon and the regulon pay."""
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(m, len(NAMES)))
    col = {n: i for i, n in enumerate(NAMES)}
    transcript, regulator = rng.normal(size=m), rng.normal(size=m)
    for g in OPERON:
        x[:, col[g]] = 1.6 * transcript + 0.5 * rng.normal(size=m)
    for g in REGULON:
        x[:, col[g]] = 1.2 * regulator + 0.6 * rng.normal(size=m)
    for j, r in enumerate(LISTED):
        x[:, 20 + 2 * j : 22 + 2 * j] += 0.8 * x[:, [col[r]]]
    session = SearchSession(from_array(x, NAMES), None, "bacterial lab", regulators=LISTED)
    session.start_run(None)
    while session.run_chunk(0.5):
        pass
    return session


def hidden_page(session: SearchSession) -> AppTest:
    at = AppTest.from_file(str(PAGES / "hidden.py"), default_timeout=TIMEOUT)
    at.session_state[state.SESSION] = session
    at.run()
    assert not at.exception
    return at


def proposals_table(at: AppTest):
    return at.dataframe[0].value


def test_one_operon_is_named_in_the_table_and_the_caption_says_the_order():
    at = hidden_page(bacterial_session())
    table = proposals_table(at)
    operon = table[table["members"].map(lambda s: len(set(s.split(", ")) & set(OPERON)) >= 4)]
    regulon = table[table["members"].map(lambda s: len(set(s.split(", ")) & set(REGULON)) >= 4)]
    assert len(operon) and len(regulon)
    assert set(operon["status"]) == {"one operon"} and "one operon" not in set(regulon["status"])
    assert operon["rank"].min() > regulon["rank"].min()
    (caption,) = [c for c in texts(at.caption) if c.startswith("Proposals for the current network")]
    assert '"one operon": adjacent genes of one transcript' in caption
    assert '"Let auto add hidden variables" above' in caption  # the expander is on the page
    assert any(e.label.startswith("Let auto add hidden variables") for e in at.expander)
    how = next(e for e in at.expander if e.label == "How to read this page")
    assert '"one operon" (on a table of locus tags' in how.markdown[0].value
    # Accept is the suggested (primary) click on the regulon, not on the operon, though both pay
    gain = next(c for c in table.columns if c.startswith("estimated Δ"))
    assert operon.iloc[0][gain] > 0 and regulon.iloc[0][gain] > 0
    for label, kind in ((REGULON[0], "primary"), (OPERON[0], "secondary")):
        picked = next(o for o in at.selectbox(key=KEY_PICK).options if label in o)
        at.selectbox(key=KEY_PICK).set_value(picked).run()
        assert not at.exception
        assert at.button(key=KEY_ACCEPT).proto.type == kind


def test_after_an_accept_the_caption_no_longer_points_at_the_hidden_auto_expander():
    at = hidden_page(bacterial_session())
    regulon = next(o for o in at.selectbox(key=KEY_PICK).options if "b0103" in o)
    at.selectbox(key=KEY_PICK).set_value(regulon).run()
    at.button(key=KEY_ACCEPT).click().run(timeout=600)
    assert not at.exception
    assert at.session_state[state.SESSION].hidden_names() == {"H1"}
    assert not any(e.label.startswith("Let auto add hidden variables") for e in at.expander)
    (caption,) = [c for c in texts(at.caption) if c.startswith("Proposals for the current network")]
    assert "Let auto add hidden variables" not in caption and "`learn --hidden auto`" in caption


def test_reject_is_drawn_greyed_while_accept_runs(monkeypatch):
    """The Reject slot is filled (disabled) in the run that accepts, not left to a stale element of the
    run before; the accept here is refused by the engine so that the run's own elements are what remains."""

    def refused(session, prop, stage):
        raise IdealParentError("refused for the test")

    monkeypatch.setattr(actions, "accept_hidden", refused)
    at = hidden_page(bacterial_session())
    assert not at.button(key=KEY_REJECT).disabled
    at.button(key=KEY_ACCEPT).click().run()
    assert not at.exception
    assert "refused for the test" in texts(at.error)
    assert at.button(key=KEY_REJECT).disabled


def test_auto_says_which_operons_it_did_not_try():
    at = hidden_page(bacterial_session())
    at.number_input(key=KEY_AUTO_MAX).set_value(1).run()
    at.button(key=KEY_AUTO).click().run(timeout=600)
    assert not at.exception
    hs = at.session_state[state.SESSION].hidden
    assert hs is not None and hs.considered.operons
    (note,) = [n for n in texts(at.info) + texts(at.warning) if n.startswith("Auto stopped")]
    runs = [f"{r.first}-{r.last}" for r in hs.considered.operons.values()]
    assert "It did not try" in note and runs[0] in note and 'status "one operon"' in note


@pytest.mark.parametrize("n", [1, 2])
def test_stop_note_counts_the_operons_in_words(n):
    stop = AutoStop(NOTHING_PAID, 3, 1)
    runs = [SimpleNamespace(first="b0171", last="b0175"), SimpleNamespace(first="b0061", last="b0064")][:n]
    note = stop_note(stop, runs)
    assert note.startswith("Auto stopped because no further proposal paid (1 kept)")
    said = "1 proposal whose" if n == 1 else "2 proposals whose"
    assert f"It did not try {said} members are mostly adjacent genes (b0171-b0175" in note
    assert ("one operon each" in note) == (n == 2)
    assert stop_note(stop) == stop_note(stop, ())  # nothing set aside: no sentence
    assert "did not try" not in stop_note(stop)


def test_one_gene_set_tested_is_said_in_the_singular():
    at = AppTest.from_file(str(PAGES / "hidden.py"), default_timeout=TIMEOUT)
    at.session_state[state.SESSION] = bacterial_session()
    at.session_state[gene_sets_box.KEY_SETS] = gene_sets_from_bytes(b"OTHER\tx\tb0130\tb0133\tb0136\n", "sets.gmt")
    at.run()
    assert not at.exception
    lines = [t for t in texts(at.markdown) if t.startswith("Known gene sets among the members: none")]
    assert lines and all(t.endswith("(1 set tested).") for t in lines)


def test_move_log_says_a_score_change_shown_as_zero_is_positive():
    """The walk's move log showed "exact ΔEBIC 0.00" on moves the search took (gains under 0.005 nats)."""
    from explorer.move_log import log_config

    column = log_config("EBIC")["exact ΔBIC"]
    assert column["label"] == "exact ΔEBIC"
    assert "> 0 for every move taken (0.00: < 0.005)" in column["help"]


def test_auto_that_keeps_nothing_says_the_operons_it_set_aside():
    """Newcomer walk of session 25: auto kept nothing and said "no cluster with a positive estimated gain,
    and no semi-clique, is left" beside one-operon proposals estimated to pay; the note on what it set
    aside was said only when it kept something."""
    from explorer.hidden_auto import NONE_KEPT, run_auto

    rng = np.random.default_rng(5)
    m = 80
    x = rng.normal(size=(m, len(NAMES)))
    transcript = rng.normal(size=m)
    for g in OPERON:
        x[:, NAMES.index(g)] = 1.6 * transcript + 0.5 * rng.normal(size=m)
    session = SearchSession(from_array(x, NAMES), None, "one operon", regulators=LISTED)
    session.start_run(None)
    while session.run_chunk(0.5):
        pass
    said = run_auto(session, 2)
    assert said.startswith(f"{NONE_KEPT}: ")
    assert session.hidden is None or not session.hidden.hidden  # nothing installed
    assert "It did not try 1 proposal whose members are mostly adjacent genes (b0110-b0115)" in said
