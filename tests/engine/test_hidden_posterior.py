"""The E-step's mean-field fixed point in closed form (engine/hidden/posterior.py, #22 speed):
the same means and variances as the coordinate-ascent sweeps run to convergence, the sweeps
when the precision is not positive definite, and the expected statistics taken as symmetric."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np

from engine.data import from_array
from engine.hidden import StructuralEM
from engine.hidden.meanfield import mean_field_sweeps
from engine.hidden.posterior import exact_posterior, mean_field_step


def random_network(seed: int, n: int = 25, m: int = 40):
    """A random linear-Gaussian DAG's parameters, values and an observed mask with two hidden
    columns and ~20 % missing cells."""
    rng = np.random.default_rng(seed)
    coef = np.triu(rng.normal(size=(n, n)) * (rng.random((n, n)) < 0.15), 1)
    perm = rng.permutation(n)
    coef = coef[np.ix_(perm, perm)]
    par = SimpleNamespace(coef=coef, intercept=rng.normal(size=n), variance=rng.uniform(0.3, 1.5, size=n))
    observed = rng.random((m, n)) > 0.2
    observed[:, -2:] = False
    return par, rng.normal(size=(m, n)), observed


def test_closed_form_equals_the_converged_sweeps():
    for seed in range(5):
        par, x, observed = random_network(seed)
        m1, v1 = x.copy(), np.zeros_like(x)
        m2, v2 = x.copy(), np.zeros_like(x)
        mean_field_sweeps(m1, v1, observed, par, 100000, 1e-15)
        assert exact_posterior(m2, v2, observed, par) == 1
        np.testing.assert_allclose(m2, m1, rtol=1e-10, atol=1e-11)
        np.testing.assert_allclose(v2, v1, rtol=1e-12)
        np.testing.assert_array_equal(m2[observed], x[observed])  # observed cells untouched


def test_nothing_unobserved_is_a_no_op():
    par, x, _ = random_network(0)
    m, v = x.copy(), np.zeros_like(x)
    assert exact_posterior(m, v, np.ones_like(x, dtype=bool), par) == 0
    np.testing.assert_array_equal(m, x)


def test_a_failed_factorization_falls_back_to_the_sweeps(monkeypatch):
    """When a K_UU does not factor (LinAlgError), the E-step runs the sweeps from where it was."""
    import engine.hidden.posterior as post

    def fail(*args):
        raise np.linalg.LinAlgError("not positive definite")

    par, x, observed = random_network(1)
    m1, v1 = x.copy(), np.zeros_like(x)
    sweeps = mean_field_sweeps(m1, v1, observed, par, 50, 1e-8)
    monkeypatch.setattr(post, "exact_posterior", fail)
    m2, v2 = x.copy(), np.zeros_like(x)
    assert mean_field_step(m2, v2, observed, par, 50, 1e-8) == sweeps > 1
    np.testing.assert_array_equal(m2, m1)


def test_expected_scatter_is_exactly_symmetric():
    """expected_model hands its scatter over as symmetric (no 0.5 (S + S^T) pass): check it is."""
    rng = np.random.default_rng(2)
    x = rng.normal(size=(27, 300))
    x[rng.random(x.shape) < 0.05] = np.nan
    em = StructuralEM(from_array(x, [f"g{i}" for i in range(300)], standardize=False))
    em.e_step(em.params())
    s = em.expected_model().scatter
    assert np.array_equal(s, s.T)
