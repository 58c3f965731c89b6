"""The Bounds page's note on the two rank correlations says only what holds for the model shown.

Found on the Sachs sample: the page showed Spearman (C1, exact) 0.999 and Spearman (C2, exact)
1.000 under a caption saying "The two rank correlations are equal", for every CPD. For a
linear-Gaussian model they are equal in exact arithmetic when all families have the same rows
(the 0.999 comes from tied candidates, X -> Y and Y -> X, whose C1 differ in the last bit); for
the sigmoid and multiplicative CPDs they are not equal at all.
"""

from __future__ import annotations

from conftest import PAGES, TIMEOUT, texts  # noqa: I001
from streamlit.testing.v1 import AppTest

from engine.synth import random_network, sample_dataset
from explorer import state
from explorer.session import SearchSession


def _bounds_page(dataset, settings) -> AppTest:
    session = SearchSession(dataset, settings=settings)
    session.step()
    at = AppTest.from_file(str(PAGES / "bounds.py"), default_timeout=TIMEOUT)
    at.session_state[state.SESSION] = session
    at.run()
    assert not at.exception
    at.button(key="ip_bounds_compute").click().run()
    assert not at.exception
    return at


def test_linear_note_and_rank_correlations_agree():
    ds = sample_dataset(random_network(6, seed=1), 120, seed=2)
    at = _bounds_page(ds, dict(k=2))
    captions = " ".join(texts(at.caption))
    assert "Within a family, C1 and C2 order the candidates identically" in captions
    assert "the two rank correlations are then equal" in captions
    shown = {m.label: m.value for m in at.metric}
    rho = [v for k, v in shown.items() if "Spearman" in k or "rank" in k.lower()]
    assert len(rho) == 2 and rho[0] == rho[1], shown


def test_sigmoid_note_does_not_claim_the_same_order():
    ds = sample_dataset(random_network(4, seed=2, cpd="sigmoid"), 60, seed=3)
    at = _bounds_page(ds, dict(cpd="sigmoid", k=1))
    captions = " ".join(texts(at.caption))
    assert "order the candidates identically" not in captions
    assert "can order the candidates differently" in captions
