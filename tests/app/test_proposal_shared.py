"""A proposal says which other listed proposals hold some of its genes (walk of session 23, 172
tumours: a 34-gene MYC module, rank 2, and a 5-gene set holding three of its genes, rank 4, were listed
without a word that they overlap)."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
from conftest import PAGES, TIMEOUT, texts
from streamlit.testing.v1 import AppTest

from engine.data import from_array
from explorer import state
from explorer.proposal_text import shared_text
from explorer.session import SearchSession


def module_session() -> SearchSession:
    """8 of 30 genes driven by one unmeasured activity over 40 conditions, searched to convergence."""
    rng = np.random.default_rng(0)
    x = rng.normal(size=(40, 30))
    x[:, :8] += 1.5 * rng.normal(size=40)[:, None]
    session = SearchSession(from_array(x, [f"NOP{i}" for i in range(30)]), None, "module")
    session.start_run(None)
    while session.run_chunk(0.5):
        pass
    return session


def test_two_overlapping_proposals_name_each_other(monkeypatch):
    session = module_session()
    (first,) = session.propose_hidden(1)
    monkeypatch.setattr(SearchSession, "propose_hidden", lambda self, n: [first, first])  # the same genes twice
    at = AppTest.from_file(str(PAGES / "hidden.py"), default_timeout=TIMEOUT)
    at.session_state[state.SESSION] = session
    at.run()
    assert not at.exception
    (line,) = [m for m in texts(at.markdown) if m.startswith("**Shares members with**")]
    assert f"#2 ({len(first.names)}: {', '.join(first.names[:6])}" in line


def test_one_gene_in_common_is_not_said():
    proposals = [SimpleNamespace(names=["NPM1", "NCL", "ODC1"]), SimpleNamespace(names=["NCL", "COL1A1"])]
    assert shared_text(proposals, 0) is None
    proposals[1].names.append("ODC1")
    assert shared_text(proposals, 1).startswith("**Shares members with** #1 (2: NCL, ODC1)")
