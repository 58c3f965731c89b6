"""The accepted hidden variables are looked up once per page render, not once per variable, and the
regulator report is built once per network, not on every rerun (walk of session 23, a 2,504-gene
TCGA-like table: the Hidden page's profile download and the Inspector's opening family each rebuilt
the set of 2,504 names for every one of the 2,506 search variables, ~6 million set insertions, seconds
on every rerun after an Accept; the report, ~1 s more)."""

from __future__ import annotations

import numpy as np
from conftest import PAGES, TIMEOUT
from streamlit.testing.v1 import AppTest

from engine.data import from_array
from engine.hidden.scale import CurrentFit
from explorer import actions, export, state
from explorer.pages import inspector
from explorer.session import SearchSession

N_GENES = 30


def accepted_session() -> SearchSession:
    """24 conditions, 8 of 30 genes driven by an unmeasured activity, its proposal accepted."""
    rng = np.random.default_rng(0)
    x = rng.normal(size=(24, N_GENES))
    h = rng.normal(size=24)
    x[:, :8] = 0.9 * h[:, None] + 0.4 * rng.normal(size=(24, 8))
    session = SearchSession(from_array(x, [f"g{i}" for i in range(N_GENES)]), None, "module")
    session.start_run(None)
    while session.run_chunk(0.5):
        pass
    actions.accept_hidden(session, session.propose_hidden(1)[0])
    return session


def counting(session: SearchSession) -> list[int]:
    """Wrap ``session.hidden_names`` to count its calls; the returned list holds the count."""
    calls, original = [0], session.hidden_names

    def hidden_names() -> set[str]:
        calls[0] += 1
        return original()

    session.hidden_names = hidden_names
    return calls


def test_the_profiles_download_asks_for_the_hidden_names_once():
    session = accepted_session()
    calls = counting(session)
    profiles = export.inferred_profiles(session)
    assert list(profiles.columns) == ["instance", "H1"]
    assert calls[0] == 1  # was N_GENES + 1: once per search variable


def test_the_inspector_opening_family_asks_once():
    session = accepted_session()
    calls = counting(session)
    names = session.variable_names()
    assert inspector._opening_family(session, session.stepper, names) == "H1"
    assert calls[0] == 1


def test_the_regulator_report_is_built_once_per_network(monkeypatch):
    """A rerun that leaves the network as it is (a pick in the proposal list) reuses the report."""
    built, original = [0], CurrentFit.report

    def report(self, *args, **kwargs):
        built[0] += 1
        return original(self, *args, **kwargs)

    monkeypatch.setattr(CurrentFit, "report", report)
    at = AppTest.from_file(str(PAGES / "hidden.py"), default_timeout=TIMEOUT)
    at.session_state[state.SESSION] = accepted_session()
    at.run()
    assert not at.exception and any("H1" in m.value for m in at.markdown)
    at.run()
    assert not at.exception
    assert built[0] == 1
