"""The order search's add gains by one projection step per parent (engine/search/order_gains.py):
equal to the model's exact gains (JMLR 2007 eq. 2, themselves checked against least-squares refits
elsewhere) on any family, including the cases where the model's floors or a collinear parent set act."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from engine.cpd.linear import LinearGaussianFamilies
from engine.search.order_gains import LinearAddGains


def families(n: int, rng: np.random.Generator, count: int = 60):
    for _ in range(count):
        child = int(rng.integers(n))
        others = [v for v in range(n) if v != child]
        parents = tuple(sorted(int(p) for p in rng.choice(others, int(rng.integers(0, 5)), replace=False)))
        cand = np.array([v for v in others if v not in parents], dtype=np.intp)
        yield child, parents, cand


def test_gains_equal_the_models_exact_gains():
    rng = np.random.default_rng(3)
    x = rng.normal(size=(80, 12)) @ rng.normal(size=(12, 12))  # correlated columns
    model = LinearGaussianFamilies(x)
    fast = LinearAddGains(model)
    for child, parents, cand in families(12, rng):
        np.testing.assert_allclose(
            fast.gains(child, parents, cand), model.exact_add(child, parents, cand), rtol=1e-8, atol=1e-8
        )
    assert len(fast._proj) > 1  # the parent sets' projections are kept


def test_an_exact_fit_and_a_collinear_set_give_the_models_gains():
    """A child that is a sum of two columns (its family with both is an exact fit: the variance floor)
    and a column repeated (a collinear parent set): the model's own gains, floors and all."""
    rng = np.random.default_rng(4)
    x = rng.normal(size=(60, 6))
    x[:, 4] = x[:, 0] + x[:, 1]
    x[:, 5] = x[:, 2]
    model = LinearGaussianFamilies(x)
    fast = LinearAddGains(model)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the model's collinear-parents warning
        for child, parents in [(4, (0,)), (4, (0, 1)), (4, ()), (3, (2, 5)), (0, (2, 5)), (5, ())]:
            cand = np.array([v for v in range(6) if v != child and v not in parents], dtype=np.intp)
            expected = model.exact_add(child, parents, cand)
            assert fast.gains(child, parents, cand) == pytest.approx(expected, rel=1e-8, abs=1e-8)
    assert fast.projection((2, 5)) is None
