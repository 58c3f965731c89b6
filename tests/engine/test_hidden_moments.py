"""Structural EM's expected statistics updated in the free columns only (engine/hidden/moments.py) equal
the ones formed whole, and carry's comparison of two such models gives the same answer."""

from __future__ import annotations

import numpy as np
import pytest
from test_search_carry import planted_with_missing

import engine.hidden.em as em_module
import engine.hidden.moments as moments_module
from engine.hidden.moments import ExpectedMoments
from engine.search.carry import unchanged


def _em(missing: bool, regulators=None):
    ds, h = planted_with_missing(5, missing)
    hidden = {"H1": (h + np.random.default_rng(0).normal(scale=0.5, size=h.size), [f"V{i}" for i in range(20, 26)])}
    return em_module.StructuralEM(ds, hidden=hidden, regulators=regulators, max_iter=15)


def _whole(em) -> np.ndarray:
    xc = em.mean - em.mean.mean(axis=0)
    return xc.T @ xc + np.diag(em.var.sum(axis=0))


@pytest.mark.parametrize("missing", [False, True])
def test_the_updated_scatter_is_the_whole_one(missing, monkeypatch):
    monkeypatch.setattr(moments_module, "MAX_FREE_SHARE", 1.0)  # 3 % missing cells: most columns are free
    em = _em(missing)
    first = em.expected_model()  # formed whole
    em.e_step(em.params())  # the posterior moves: the free columns change
    second = em.expected_model()  # updated
    assert second.moments_token is first.moments_token  # the fixed block was copied
    np.testing.assert_allclose(second.scatter, _whole(em), rtol=1e-12, atol=1e-9)
    np.testing.assert_array_equal(second.scatter, second.scatter.T)  # exactly symmetric
    fixed = np.flatnonzero(em.observed.all(axis=0))
    np.testing.assert_array_equal(second.scatter[np.ix_(fixed, fixed)], first.scatter[np.ix_(fixed, fixed)])
    assert not np.array_equal(second.scatter[-1], first.scatter[-1])  # H's row did change


def test_carry_compares_the_free_rows_only_with_the_same_answer(monkeypatch):
    monkeypatch.setattr(moments_module, "MAX_FREE_SHARE", 1.0)
    em = _em(True)
    a = em.expected_model()
    em.e_step(em.params())
    b = em.expected_model()
    assert b.moments_token is a.moments_token
    fast = unchanged(a, b)
    b.moments_token = None  # the whole comparison
    np.testing.assert_array_equal(fast, unchanged(a, b))
    assert (~fast).sum() >= 1 and fast.sum() >= 3  # both kinds present


def test_a_changed_fixed_column_forms_the_scatter_whole():
    em = _em(False)
    moments = ExpectedMoments()
    a = moments.model(em.mean, em.var, em.observed)
    em.mean[:, 0] += 1e-3 * np.arange(em.mean.shape[0])  # an observed column's values change (never in EM)
    b = moments.model(em.mean, em.var, em.observed)
    assert b.moments_token is not a.moments_token
    np.testing.assert_allclose(b.scatter, _whole(em), rtol=1e-12, atol=1e-9)


@pytest.mark.parametrize("missing", [False, True])
@pytest.mark.parametrize("regulators", [None, [f"V{i}" for i in range(0, 26, 2)]])
def test_structural_em_is_the_same_updated_or_whole(monkeypatch, missing, regulators):
    """The same edges and, to rounding, the same bound and posterior as with the scatter formed whole."""
    monkeypatch.setattr(moments_module, "MAX_FREE_SHARE", 1.0)
    updated = _em(missing, regulators)
    updated.run()
    monkeypatch.setattr(moments_module, "INCREMENTAL", False)
    whole = _em(missing, regulators)
    whole.run()
    assert updated.edges == whole.edges
    np.testing.assert_allclose(updated.lower_bounds_, whole.lower_bounds_, rtol=1e-10)
    np.testing.assert_allclose(updated.mean, whole.mean, rtol=1e-8, atol=1e-8)


def test_the_families_sparse_coefficients_are_the_dense_ones():
    """ml_params' CSR matrix (read by the E-step and the marginal likelihood) has the dense matrix's entries
    and structure, and the observed-data likelihood is the same from either."""
    from scipy import sparse

    from engine.hidden.marginal import marginal_loglik

    em = _em(True)
    em.run()
    par = em.params()
    dense = sparse.csr_matrix(par.coef)
    b = par.sparse_coef()
    np.testing.assert_array_equal(b.indptr, dense.indptr)
    np.testing.assert_array_equal(b.indices, dense.indices)
    np.testing.assert_array_equal(b.data, dense.data)
    args = (em.mean, em.observed)
    assert marginal_loglik(par.intercept, b, par.variance, *args) == marginal_loglik(
        par.intercept, par.coef, par.variance, *args
    )
