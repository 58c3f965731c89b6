"""The Hidden page names the known gene sets among a proposal's members before Accept (a biologist
with a GMT file of regulons saw the enrichment only after accepting: the proposal itself said
nothing of the regulon its 27 members came from)."""

from __future__ import annotations

import numpy as np
from conftest import PAGES, TIMEOUT, texts
from streamlit.testing.v1 import AppTest

from engine.data import from_array
from engine.io.gene_sets import gene_sets_from_bytes
from explorer import gene_sets_box, state
from explorer.session import SearchSession


def module_session() -> SearchSession:
    rng = np.random.default_rng(0)
    x = rng.normal(size=(60, 30))
    h = rng.normal(size=60)
    x[:, :8] = 0.9 * h[:, None] + 0.4 * rng.normal(size=(60, 8))
    session = SearchSession(from_array(x, [f"g{i}" for i in range(30)]), None, "module")
    session.start_run(None)
    while session.run_chunk(0.5):
        pass
    return session


def page(gmt: str) -> AppTest:
    at = AppTest.from_file(str(PAGES / "hidden.py"), default_timeout=TIMEOUT)
    at.session_state[state.SESSION] = module_session()
    at.session_state[gene_sets_box.KEY_SETS] = gene_sets_from_bytes(gmt.encode(), "sets.gmt")
    return at.run()


def test_proposal_names_its_enriched_regulon():
    regulon = "\t".join(f"g{i}" for i in range(8))
    at = page(f"MADEUP_REGULON\tx\t{regulon}\nOTHER\tx\tg20\tg21\tg22\tg23\n")
    assert not at.exception
    line = next(t for t in texts(at.markdown) if t.startswith("**Known gene sets among the members:**"))
    assert "MADEUP_REGULON (" in line and "of 8, q " in line and "OTHER" not in line


def test_no_enriched_set_is_said_and_no_sets_says_nothing():
    at = page("OTHER\tx\tg20\tg21\tg22\tg23\nMORE\tx\tg24\tg25\tg26\n")
    assert not at.exception
    assert any(t.startswith("Known gene sets among the members: none with q <= 0.05") for t in texts(at.markdown))
    at = AppTest.from_file(str(PAGES / "hidden.py"), default_timeout=TIMEOUT)
    at.session_state[state.SESSION] = module_session()
    at.run()
    assert not at.exception
    assert not any("Known gene sets among the members" in t for t in texts(at.markdown))
