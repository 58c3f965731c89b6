"""Smoke case of ``benchmarks/bench_regulators_genome_retrial.py`` (#22's null study: the kept
proposal's trial re-run on half-samples, ``benchmarks/genome_retrial.py``): the held-out
prediction of H is the Gaussian conditional mean, the columns kept are closed under parents, the
half-sample gain on those columns equals the gain on the whole table's columns, and the draws
follow ``random_state``."""

from __future__ import annotations

import sys
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

import genome_retrial as gr  # noqa: E402

from engine.data import from_array  # noqa: E402
from engine.hidden import HiddenSearch  # noqa: E402
from engine.hidden.trial import try_proposal  # noqa: E402


def test_prediction_is_the_conditional_gaussian_mean():
    """P -> H -> C1, C2, C3 and O -> C1: E[H | P, O, C] from the joint covariance of the network
    (x = B'x + e, Sigma = (I - B')^-1 D (I - B')^-T) equals :func:`gr.predict_hidden`."""
    names = ["P", "O", "C1", "C2", "C3", "H"]
    n = len(names)
    coef = np.zeros((n, n))
    coef[0, 5], coef[5, 2], coef[5, 3], coef[5, 4], coef[1, 2] = 0.7, 1.2, -0.8, 0.5, 0.9
    b0 = np.array([0.1, -0.2, 0.3, 0.0, 0.5, -0.4])
    s2 = np.array([1.0, 1.5, 0.4, 0.6, 0.3, 0.8])
    a = np.linalg.inv(np.eye(n) - coef.T)
    mu, cov = a @ b0, a @ np.diag(s2) @ a.T
    rng = np.random.default_rng(0)
    x = rng.multivariate_normal(mu, cov, size=7)
    o = [0, 1, 2, 3, 4]
    want = mu[5] + (x[:, o] - mu[o]) @ np.linalg.solve(cov[np.ix_(o, o)], cov[o, 5])
    got = gr.predict_hidden(SimpleNamespace(coef=coef, intercept=b0, variance=s2), x, 5)
    np.testing.assert_allclose(got, want, rtol=1e-10, atol=1e-10)


def _case(seed: int = 0, m: int = 24):
    """6 listed regulators driving 8 genes each, an unlisted regulator driving a 10-gene module."""
    rng = np.random.default_rng(seed)
    tf = rng.normal(size=(m, 6))
    h = rng.normal(size=m)
    cols, names = [tf[:, j] for j in range(6)], [f"TF{j}" for j in range(6)]
    for j in range(6):
        for i in range(8):
            cols.append(0.9 * tf[:, j] + 0.6 * rng.normal(size=m))
            names.append(f"g{j}_{i}")
    for i in range(10):
        cols.append(1.0 * h + 0.5 * rng.normal(size=m) + 0.3 * tf[:, i % 6])
        names.append(f"mod{i}")
    return from_array(np.column_stack(cols), names), names[:6], h


@pytest.fixture(scope="module")
def kept():
    ds, regs, h = _case()
    hs = HiddenSearch(ds, em_options={"regulators": regs})
    hs.fit_structure()
    prop = next(p for p in hs.propose(n_proposals=5) if sum(n.startswith("mod") for n in p.names) >= 5)
    trial = try_proposal(hs, prop, hs.observed_bic())
    return hs, prop, trial, h


def test_columns_are_closed_under_parents(kept):
    hs, prop, _, _ = kept
    cols = set(gr._columns(hs, prop))
    names = hs.names
    assert {names.index(n) for n in prop.names} <= cols
    assert set(hs.em.regulators) <= cols
    assert all(p in cols for p, c in hs.em.edges if c in cols)
    assert len(cols) < hs.n_observed  # the other regulators' targets are left out


def test_the_gain_on_the_kept_columns_is_the_gain_on_all(kept, monkeypatch):
    """Families outside the kept columns are the same with H and without it: they cancel."""
    hs, prop, trial, _ = kept
    rows = np.arange(0, 24, 2)
    part, _, cols = gr._on_rows(hs, prop, trial.name, rows)
    monkeypatch.setattr(gr, "_columns", lambda search, proposal: list(range(search.n_observed)))
    whole, _, all_cols = gr._on_rows(hs, prop, trial.name, rows)
    assert len(cols) < len(all_cols)
    assert part == pytest.approx(whole, abs=1e-3)


def test_draws_follow_random_state(kept):
    hs, prop, trial, h = kept
    # two draws (three until session 20: each draw is a trial on a half-sample, 2 s of CPU)
    one = gr.half_sample_support(hs, prop, trial, n_draws=2, random_state=5)
    two = gr.half_sample_support(hs, prop, trial, n_draws=2, random_state=5)
    assert one.gains == two.gains and one.r_held == two.r_held and one.k == two.k
    assert len(one.gains) == 2 and 0 <= one.k <= 2
