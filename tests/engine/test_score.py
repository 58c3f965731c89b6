"""Independent checks of engine.score (the decomposable BIC, JMLR 2007 eq. 1).

Expected values: Gaussian log-likelihoods summed point by point with numpy at the least-squares
parameters (sigma^2 = RSS / M), minus (log M / 2)(k + 2) per family.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from engine.cpd.base import FamilyFit
from engine.cpd.linear import LinearGaussianFamilies
from engine.score import BIC, family_bic


def pointwise_family_loglik(x: np.ndarray, u: np.ndarray) -> float:
    """Sum over instances of log N(x[m]; b0 + u[m] b, s2) at the least-squares b0, b and s2 = RSS/M."""
    m = x.shape[0]
    design = np.column_stack([np.ones(m), u.reshape(m, -1)])
    beta = np.linalg.lstsq(design, x, rcond=None)[0]
    r = x - design @ beta
    s2 = float(r @ r) / m
    return float(np.sum(-0.5 * np.log(2 * np.pi * s2) - r**2 / (2 * s2)))


def independent_bic(values: np.ndarray, parents: dict[int, tuple[int, ...]]) -> float:
    m, n = values.shape
    total = 0.0
    for c in range(n):
        ps = parents.get(c, ())
        total += pointwise_family_loglik(values[:, c], values[:, list(ps)]) - 0.5 * math.log(m) * (len(ps) + 2)
    return total


@pytest.fixture(scope="module")
def hand_network():
    """A 5-variable hand-built network: A -> C <- B, C -> D, A -> E (plus an isolated-ish B)."""
    rng = np.random.default_rng(0)
    m = 137
    a = rng.normal(2.0, 1.5, m)
    b = rng.normal(-1.0, 0.5, m)
    c = 0.5 + 1.2 * a - 2.0 * b + rng.normal(0, 0.7, m)
    d = -0.8 * c + rng.normal(0, 1.1, m)
    e = 3.0 + 0.3 * a + rng.normal(0, 2.0, m)
    values = np.column_stack([a, b, c, d, e])
    parents = {0: (), 1: (), 2: (0, 1), 3: (2,), 4: (0,)}
    return values, parents


class TestBIC:
    def test_per_param(self):
        for m in (2, 10, 137, 10_000):
            assert BIC(m).per_param == pytest.approx(math.log(m) / 2, rel=1e-15)

    def test_family_by_hand_numbers(self):
        fit = FamilyFit(child=0, parents=(1, 2), loglik=-123.5, n_params=4)
        assert BIC(100).family(fit) == pytest.approx(-123.5 - 0.5 * math.log(100) * 4, rel=1e-15)
        assert family_bic(fit, 100) == BIC(100).family(fit)

    def test_delta(self):
        bic = BIC(50)
        assert bic.delta(10.0, 1) == pytest.approx(10.0 - math.log(50) / 2)
        assert bic.delta(-3.0, -1) == pytest.approx(-3.0 + math.log(50) / 2)
        assert bic.delta(2.0, 0) == 2.0
        np.testing.assert_allclose(bic.delta(np.array([1.0, 2.0]), 1), np.array([1.0, 2.0]) - math.log(50) / 2)

    def test_family_bic_on_hand_network(self, hand_network):
        values, parents = hand_network
        m = values.shape[0]
        fam = LinearGaussianFamilies(values)
        bic = BIC(m)
        for c, ps in parents.items():
            fit = fam.fit(c, ps)
            expect = pointwise_family_loglik(values[:, c], values[:, list(ps)]) - (math.log(m) / 2) * (len(ps) + 2)
            assert bic.family(fit) == pytest.approx(expect, rel=1e-10)
            assert family_bic(fit, m) == pytest.approx(expect, rel=1e-10)

    def test_network_bic_decomposes(self, hand_network):
        values, parents = hand_network
        m = values.shape[0]
        fam = LinearGaussianFamilies(values)
        total = sum(BIC(m).family(fam.fit(c, ps)) for c, ps in parents.items())
        assert total == pytest.approx(independent_bic(values, parents), rel=1e-10)

    def test_true_structure_beats_empty_and_complete(self, hand_network):
        """Sanity of the penalty: the generating structure scores better than both extremes."""
        values, parents = hand_network
        empty = {c: () for c in range(5)}
        complete = {c: tuple(range(c)) for c in range(5)}
        truth = independent_bic(values, parents)
        assert truth > independent_bic(values, empty)
        assert truth > independent_bic(values, complete)

    def test_penalty_difference_of_one_edge_is_half_log_m(self, hand_network):
        values, _ = hand_network
        m = values.shape[0]
        fam = LinearGaussianFamilies(values)
        bic = BIC(m)
        with_edge, without = fam.fit(3, (2,)), fam.fit(3, ())
        pen_with = with_edge.loglik - bic.family(with_edge)
        pen_without = without.loglik - bic.family(without)
        assert pen_with - pen_without == pytest.approx(math.log(m) / 2, rel=1e-12)
