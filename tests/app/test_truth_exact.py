"""Truth page: the exact optimum next to the greedy network (engine.search.exact_for_stepper).

On the Sachs observational sample the converged greedy network is the exact optimum (the benchmarks
find the same on all nine conditions with per-condition intercepts: benchmarks/RESULTS.md,
"Interventions: exact search on Sachs"); mid-search the page says to converge first; with too many
variables (arth150, 107) the search is not offered.
"""

from __future__ import annotations

import numpy as np
from conftest import page_test, texts

from engine.search import exact_for_stepper
from explorer import exact_panel, loading, state
from explorer.session import SearchSession

SACHS, ARTH = list(loading.SAMPLES)[0], list(loading.SAMPLES)[2]


def _session(label: str, steps: int) -> SearchSession:
    dataset, truth = loading.load_sample(label, True, None)
    session = SearchSession(dataset, truth, label)
    for _ in range(steps):
        if session.step().move is None:
            break
    return session


def _page(session):
    at = page_test("truth.py", **{state.SESSION: session}).run()
    assert not at.exception
    return at


def _metrics(at) -> dict:
    return {m.label: m.value for m in at.metric}


def test_converged_greedy_is_the_optimum_on_sachs():
    session = _session(SACHS, 200)
    assert session.main.converged
    at = _page(session)
    at.button(key=exact_panel.KEY_RUN).click().run()
    assert not at.exception
    shown = _metrics(at)
    best = float(shown["BIC of the exact optimum"].replace(",", ""))
    assert best == float(f"{exact_for_stepper(session.stepper).score:.1f}")
    assert abs(best - session.stepper.score) < 0.1
    assert any("no search could do better" in t for t in texts(at.success))
    # kept on the next visit: no second click needed
    at.run()
    assert "BIC of the exact optimum" in _metrics(at)


def test_mid_search_the_optimum_is_higher_and_the_page_says_to_converge():
    session = _session(SACHS, 2)
    assert not session.main.converged
    at = _page(session)
    at.button(key=exact_panel.KEY_RUN).click().run()
    assert not at.exception
    shown = _metrics(at)
    gap = float(shown["Optimum − current"].replace(",", ""))
    assert gap > 0
    assert any("has not converged" in t for t in texts(at.info))
    listed = " ".join(at.markdown[i].value for i in range(len(at.markdown)))
    assert "only in the optimum" in listed


def test_not_offered_for_many_variables():
    session = _session(ARTH, 1)
    at = _page(session)
    assert not [b for b in at.button if b.key == exact_panel.KEY_RUN]
    assert any("not offered here" in t and "families" in t for t in texts(at.caption))
    # above 20 variables the engine stops counting: the page says "more than", not its sentinel 600,001
    assert any("more than 600,000 families" in t for t in texts(at.caption))
    assert not any("600,001" in t for t in texts(at.caption))
    assert np.isfinite(session.stepper.score)
