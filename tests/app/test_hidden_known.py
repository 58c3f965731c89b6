"""The Hidden page after Accept: a cluster of the accepted H1's own children is marked "already H1",
listed after the new proposals, and said to be no new regulator (#22: Propose again listed the
same genes, closest variable H1, no mark; a biologist read it as a second regulator)."""

from __future__ import annotations

import numpy as np
from conftest import PAGES, TIMEOUT, texts
from streamlit.testing.v1 import AppTest

from engine.data import from_array
from engine.synth import random_network, sample
from explorer import actions, state
from explorer.pages import hidden
from explorer.session import SearchSession


def _accepted(seed: int = 3, n: int = 20, m: int = 300) -> tuple[SearchSession, set[str]]:
    """A random network with a hidden root added to 6 of its 20 variables (load 1.2 SD), searched,
    and the planted cluster accepted as H1; returns the session and H1's children."""
    rng = np.random.default_rng(seed)
    x = sample(random_network(n, seed=seed, expected_parents=1.0), m, seed=seed + 1)
    x = x / x.std(axis=0)
    h = rng.normal(size=m)
    kids = rng.choice(n, 6, replace=False)
    x[:, kids] += 1.2 * h[:, None]
    session = SearchSession(from_array(x / x.std(axis=0), [f"g{i}" for i in range(n)]), None, "planted")
    session.start_run(None)
    while session.run_chunk(5.0):
        pass
    planted = next(p for p in session.propose_hidden(5) if set(p.names) == {f"g{k}" for k in kids})
    actions.accept_hidden(session, planted)
    names = session.variable_names()
    return session, {names[c] for p, c in session.stepper.edges() if names[p] == "H1"}


def _review(session: SearchSession):
    """The Hidden page run on ``session`` with 10 proposals asked for; the page and its proposal table."""
    at = AppTest.from_file(str(PAGES / "hidden.py"), default_timeout=TIMEOUT)
    at.session_state[state.SESSION] = session
    at.session_state[hidden.KEY_N] = 10
    at.run()
    assert not at.exception
    return at, next(d.value for d in at.dataframe if "status" in d.value.columns)


def test_h1s_children_come_back_marked_after_the_new_ones():
    session, children = _accepted()
    at, table = _review(session)
    known = table[table["status"] == "already H1"]
    assert len(known) >= 1
    for members in known["members"]:  # most members are H1's children (or z* tracks H1)
        names = members.split(", ")
        assert len(children & set(names)) >= len(names) / 2 or "H1" in members
    others = table[table["status"] != "already H1"]
    assert others["rank"].max() < known["rank"].min()  # the new ones first
    assert not any(s.startswith("already") for s in table["status"] if s != "already H1")

    rank = int(known["rank"].iloc[0])
    label = next(o for o in at.selectbox(key=hidden.KEY_PICK).options if o.startswith(f"#{rank}:"))
    at.selectbox(key=hidden.KEY_PICK).set_value(label).run()
    assert not at.exception
    said = next(w for w in texts(at.warning) if w.startswith("**Already explained by H1 — not a new regulator.**"))
    n_kids = len(children & set(known["members"].iloc[0].split(", ")))
    assert f"{n_kids} of its {int(known['size'].iloc[0])} members are already H1's children" in said
    assert at.button(key=hidden.KEY_ACCEPT).proto.type == "secondary"  # not invited
    # no move since Accept: the network is structural EM's, not an unsearched "step 0"
    n_edges = len(session.stepper.edges())
    assert any(
        c.startswith(
            f"Proposals for the current network ({n_edges} edges, learned by structural EM when H1 was accepted)"
        )
        for c in texts(at.caption)
    )


def test_before_accept_nothing_is_marked():
    session, _ = _accepted()
    session.undo()  # back to the network without H1
    at, table = _review(session)
    assert not any(s.startswith("already") for s in table["status"])
    assert not any("not a new regulator" in w for w in texts(at.warning))
