"""Sigmoid-Gaussian and multiplicative-noise CPDs (JMLR 2007 sections 7 and 8; issue #3)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy.stats import spearmanr

from engine.cpd import make_families
from engine.cpd.linear import LinearGaussianFamilies
from engine.cpd.multiplicative import (
    MultiplicativeFamilies,
    c_sigma,
    multiplicative_family_loglik,
    profile_nll_grad,
)
from engine.cpd.sigmoid import (
    P_EPS,
    SigmoidGaussianFamilies,
    fit_sigmoid_batch,
    profile_rss_grad,
    sigmoid,
    sigmoid_family_loglik,
)
from engine.data import from_array
from engine.exceptions import DataValidationError
from engine.learn import IdealParentSearch
from engine.search import Stepper
from engine.synth import random_network, sample


def _sigmoid_data(m=800, seed=0, noise=0.1):
    rng = np.random.default_rng(seed)
    u = rng.normal(size=(m, 3))
    x = 2.5 * sigmoid(1.2 * u[:, 0] - 0.8 * u[:, 1]) - 1.0 + rng.normal(scale=noise, size=m)
    return np.column_stack([x, u])


class TestSigmoidFit:
    def test_recovers_generating_parameters(self):
        values = _sigmoid_data(m=4000, noise=0.05)
        fam = SigmoidGaussianFamilies(values)
        p = fam.fit(0, (1, 2)).params
        a = np.array(p["coefficients"])
        if p["theta1"] < 0:  # the sign-flipped solution is the same function
            a, p = -a, {**p, "theta1": -p["theta1"], "theta0": p["theta0"] + p["theta1"]}
        np.testing.assert_allclose(a, [1.2, -0.8], atol=0.05)
        assert p["theta1"] == pytest.approx(2.5, abs=0.05)
        assert p["theta0"] == pytest.approx(-1.0, abs=0.05)
        assert p["variance"] == pytest.approx(0.05**2, rel=0.1)

    def test_fit_is_a_minimum_of_the_rss(self):
        values = _sigmoid_data(m=300, seed=1)
        fam = SigmoidGaussianFamilies(values)
        fit = fam.fit(0, (1, 2, 3))
        a = np.array(fit.params["coefficients"])
        rss, grad = profile_rss_grad(values[:, 0], values[:, 1:4], a)
        assert rss / 300 == pytest.approx(fit.params["variance"], rel=1e-8)
        assert np.max(np.abs(grad)) < 1e-3 * rss
        for d in np.eye(3) * 1e-3:
            assert profile_rss_grad(values[:, 0], values[:, 1:4], a + d)[0] >= rss - 1e-9

    @pytest.mark.parametrize("seed", [0, 1, 2])
    def test_analytic_gradient_matches_finite_differences(self, seed):
        values = _sigmoid_data(m=200, seed=seed)
        rng = np.random.default_rng(seed)
        a = rng.normal(size=3)
        _, grad = profile_rss_grad(values[:, 0], values[:, 1:4], a)
        eps = 1e-6
        fd = np.array(
            [
                (
                    profile_rss_grad(values[:, 0], values[:, 1:4], a + eps * e)[0]
                    - profile_rss_grad(values[:, 0], values[:, 1:4], a - eps * e)[0]
                )
                / (2 * eps)
                for e in np.eye(3)
            ]
        )
        np.testing.assert_allclose(grad, fd, rtol=1e-5, atol=1e-6)

    def test_batch_equals_single_fits(self):
        values = _sigmoid_data(m=300, seed=3)
        x, u = values[:, 0], values[:, 1:]
        starts = np.array([[0.5, 0.5], [1.0, -1.0]])
        us = np.stack([u[:, [0, 1]], u[:, [0, 2]]])
        a_b, _, _, rss_b = fit_sigmoid_batch(x, us, starts)
        for j in range(2):
            _, _, _, rss_1 = fit_sigmoid_batch(x, us[j : j + 1], starts[j : j + 1])
            assert rss_b[j] == pytest.approx(rss_1[0], rel=1e-8)

    def test_loglik_of_params_equals_fit(self):
        values = _sigmoid_data(m=300, seed=4)
        fam = SigmoidGaussianFamilies(values)
        for parents in [(), (1,), (1, 2)]:
            fit = fam.fit(0, parents)
            ll = sigmoid_family_loglik(fit.params, values[:, 0], values[:, list(parents)])
            assert ll == pytest.approx(fit.loglik, rel=1e-9)
        assert fam.n_params(2) == 5


class TestSigmoidIdealProfile:
    def test_g_of_ideal_reproduces_x_inside_the_image(self):
        values = _sigmoid_data(m=300, seed=5, noise=0.3)
        fam = SigmoidGaussianFamilies(values)
        for parents in [(), (1,)]:
            p = fam.fit(0, parents).params
            y = fam.ideal_profile(values, 0, parents)
            s = values[:, list(parents)] @ np.array(p["coefficients"]) if parents else 0.0
            g = p["theta0"] + p["theta1"] * sigmoid(s + y)
            frac = (values[:, 0] - p["theta0"]) / p["theta1"]
            inside = (frac > P_EPS) & (frac < 1 - P_EPS)
            assert inside.sum() > 100
            np.testing.assert_allclose(g[inside], values[inside, 0], rtol=1e-9, atol=1e-9)
            # outside the image g(u, y) is the closest point of the image
            outside = ~inside
            if outside.any():
                edge = np.where(frac[outside] <= P_EPS, P_EPS, 1 - P_EPS)
                np.testing.assert_allclose(g[outside], p["theta0"] + p["theta1"] * edge, rtol=1e-9)

    def test_root_convention_keeps_every_value_inside(self):
        values = _sigmoid_data(m=300, seed=6)
        fam = SigmoidGaussianFamilies(values)
        p = fam.fit(0, ()).params
        frac = (values[:, 0] - p["theta0"]) / p["theta1"]
        assert frac.min() > 0 and frac.max() < 1
        assert p["theta0"] + p["theta1"] / 2 == pytest.approx(values[:, 0].mean())

    def test_weights_are_g_prime(self):
        values = _sigmoid_data(m=200, seed=7)
        fam = SigmoidGaussianFamilies(values)
        p = fam.fit(0, (1,)).params
        y = fam.ideal_profile(values, 0, (1,))
        s = values[:, 1] * p["coefficients"][0] + y
        analytic = p["theta1"] * sigmoid(s) * (1 - sigmoid(s))
        np.testing.assert_allclose(fam.ideal_weights(0, (1,)), analytic, rtol=1e-9)

    def test_c1_below_c2(self):
        values = _sigmoid_data(m=300, seed=8)
        fam = SigmoidGaussianFamilies(values)
        c1, c2 = fam.add_similarity(0, (1,))
        ok = np.isfinite(c1)
        assert np.all(c1[ok] <= c2[ok] + 1e-9)
        assert np.isnan(c1[0]) and np.isnan(c1[1])

    def test_c2_ranks_candidates_like_the_exact_gain(self):
        """Spearman correlation of C2 with the exact gain over each family's candidates.

        Measured on a 30-variable synthetic sigmoid network (400 instances, standardized), for
        every variable's empty family (29 candidates each): the median over families of the
        Spearman correlation between C2 and the exact log-likelihood gain of adding the
        candidate. Seen here: median 0.83 (minimum 0.52); asserted median >= 0.8 (issue #3).
        """
        net = random_network(30, seed=11, cpd="sigmoid")
        x = sample(net, 400, seed=12)
        x = (x - x.mean(0)) / x.std(0)
        fam = SigmoidGaussianFamilies(x)
        rhos = []
        for child in range(30):
            cand = np.array([j for j in range(30) if j != child])
            _, c2 = fam.add_similarity(child, ())
            exact = fam.exact_add(child, (), cand)
            rhos.append(spearmanr(c2[cand], exact).statistic)
        assert np.median(rhos) >= 0.8

    def test_replace_measure_tracks_exact_replace_gains(self):
        """Replace candidates (C2 = exact delete + the smaller family's add measure) rank like
        their exact gains across the whole network: Spearman over all Replace candidates of a
        30-variable sigmoid network after 4 search steps. Seen here: 0.97."""
        net = random_network(30, seed=11, cpd="sigmoid")
        x = sample(net, 400, seed=12)
        x = (x - x.mean(0)) / x.std(0)
        s = Stepper(SigmoidGaussianFamilies(x), method="ideal", k=2)
        for _ in range(4):
            s.step()
        t = s.evaluate_all(s.propose())
        rep = (t.op == 3) & np.isfinite(t.delta_loglik)
        assert rep.sum() > 20
        assert spearmanr(t.c2[rep], t.delta_loglik[rep]).statistic >= 0.8

    def test_without_correction_c2_tracks_gains_across_families(self):
        """Option correction=False: across all Add candidates of all families at the start,
        Spearman(C2, exact) seen here 0.91 (with Theorem 7.1's correction: 0.59)."""
        net = random_network(30, seed=11, cpd="sigmoid")
        x = sample(net, 400, seed=12)
        x = (x - x.mean(0)) / x.std(0)
        s = Stepper(SigmoidGaussianFamilies(x, correction=False), method="ideal", k=2)
        t = s.evaluate_all(s.propose())
        add = (t.op == 0) & np.isfinite(t.delta_loglik)
        assert spearmanr(t.c2[add], t.delta_loglik[add]).statistic >= 0.85


class TestSigmoidSearch:
    def test_ideal_k2_evaluates_far_fewer_candidates_and_stays_close(self):
        net = random_network(20, seed=3, cpd="sigmoid")
        x = sample(net, 200, seed=4)
        x = (x - x.mean(0)) / x.std(0)
        g = Stepper(SigmoidGaussianFamilies(x), method="greedy").run()
        i = Stepper(SigmoidGaussianFamilies(x), method="ideal", k=2).run()
        assert i.n_exact < 0.2 * g.n_exact
        assert i.score >= g.score - 0.02 * abs(g.score)

    def test_moves_change_the_score_by_their_gain(self):
        net = random_network(12, seed=5, cpd="sigmoid")
        x = sample(net, 150, seed=6)
        x = (x - x.mean(0)) / x.std(0)
        s = Stepper(SigmoidGaussianFamilies(x), method="greedy")
        start = s.score
        res = s.run()
        assert res.converged
        assert res.score - start == pytest.approx(sum(m.delta_bic for m in res.history), rel=1e-9)
        assert all(m.delta_bic > 0 for m in res.history)

    def test_estimator_and_json(self):
        net = random_network(8, seed=7, cpd="sigmoid")
        ds = from_array(sample(net, 200, seed=8), net.names)
        est = IdealParentSearch(cpd="sigmoid").fit(ds)
        out = est.network_.to_dict()
        fam = out["families"][ds.names[0]]
        assert fam["cpd"] == "sigmoid"
        assert {"theta0", "theta1", "coefficients", "variance"} <= set(fam["params"])


class TestMultiplicative:
    def _data(self, seed=0):
        net = random_network(15, seed=seed, cpd="multiplicative")
        return net, sample(net, 600, seed=seed + 1)

    def test_sampler_gives_positive_data(self):
        _, x = self._data()
        assert np.all(x > 0) and np.all(np.isfinite(x))

    def test_fit_recovers_parameters(self):
        net, x = self._data(seed=2)
        fam = MultiplicativeFamilies(x)
        c = next(j for j in range(15) if len(net.parents[j]) == 1)
        p = fam.fit(c, tuple(net.parents[c])).params
        assert p["theta0"] == pytest.approx(net.intercepts[c], abs=0.1)
        assert p["coefficients"][0] == pytest.approx(net.weights[c][0], rel=0.1)
        assert p["variance"] == pytest.approx(net.variances[c], rel=0.25)

    @pytest.mark.parametrize("seed", [0, 1])
    def test_gradient_matches_finite_differences(self, seed):
        _, x = self._data(seed=seed)
        rng = np.random.default_rng(seed)
        beta = np.array([0.1, 0.2, -0.1]) + 0.05 * rng.normal(size=3)
        f0, grad = profile_nll_grad(x[:, 0], x[:, 1:3], beta)
        eps = 1e-6
        fd = [
            (
                profile_nll_grad(x[:, 0], x[:, 1:3], beta + eps * e)[0]
                - profile_nll_grad(x[:, 0], x[:, 1:3], beta - eps * e)[0]
            )
            / (2 * eps)
            for e in np.eye(3)
        ]
        np.testing.assert_allclose(grad, fd, rtol=1e-5, atol=1e-5)

    def test_ideal_parent_maximizes_each_instance(self):
        """At y, g(u, y) = c_sigma x solves eq. (21): d q / d g = 0 for every instance."""
        _, x = self._data(seed=3)
        fam = MultiplicativeFamilies(x)
        p = fam.fit(0, (1,)).params
        y = fam.ideal_profile(x, 0, (1,))
        g = np.exp(p["theta0"] + p["coefficients"][0] * x[:, 1] + y)
        s2 = p["variance"]
        np.testing.assert_allclose(g, c_sigma(s2) * x[:, 0], rtol=1e-10)
        dq = -1 / g + (x[:, 0] / g - 1) * x[:, 0] / (s2 * g**2)
        np.testing.assert_allclose(dq * g, 0.0, atol=1e-8)

    def test_k_reduces_to_additive_form(self):
        """For additive Gaussian noise, (-1/q) d2q/dg2 = 1/sigma^2, so K(a, b) = a.b / sigma^2 and
        C1 of Theorem 8.2 equals the linear C1 (Theorem 3.2); checked numerically on q."""
        sigma2 = 0.7
        xm, g = 1.3, 1.3  # at the ideal parent g = x for additive noise
        h = 1e-4

        def q(gv):
            return math.exp(-((xm - gv) ** 2) / (2 * sigma2)) / math.sqrt(2 * math.pi * sigma2)

        d2 = (q(g + h) - 2 * q(g) + q(g - h)) / h**2
        assert -d2 / q(g) == pytest.approx(1 / sigma2, rel=1e-5)

    def test_c1_only_and_rank_by_c1(self):
        _, x = self._data(seed=4)
        fam = MultiplicativeFamilies(x)
        c1, c2 = fam.add_similarity(0, ())
        np.testing.assert_array_equal(np.nan_to_num(c1), np.nan_to_num(c2))
        assert fam.has_c2 is False

    def test_loglik_of_params_equals_fit(self):
        _, x = self._data(seed=5)
        fam = MultiplicativeFamilies(x)
        for parents in [(), (1,), (1, 2)]:
            fit = fam.fit(0, parents)
            ll = multiplicative_family_loglik(fit.params, x[:, 0], x[:, list(parents)])
            assert ll == pytest.approx(fit.loglik, rel=1e-9)

    def test_search_recovers_structure(self):
        net, x = self._data(seed=6)
        r = Stepper(MultiplicativeFamilies(x), method="ideal", k=2).run()
        learned = {frozenset(e) for e in r.edges}
        true = {frozenset(e) for e in net.edge_index()}
        assert len(learned & true) / len(true) >= 0.7

    def test_non_positive_data_is_a_clear_error(self):
        _, x = self._data()
        x = x.copy()
        x[3, 2] = -1.0
        with pytest.raises(DataValidationError, match="strictly positive.*X3"):
            make_families(x, "multiplicative", names=[f"X{i + 1}" for i in range(15)])


def test_linear_is_unchanged_by_the_cpd_interface():
    rng = np.random.default_rng(0)
    x = rng.normal(size=(100, 4))
    assert isinstance(make_families(x, "linear"), LinearGaussianFamilies)


def test_sigmoid_with_missing_cells_states_its_approximation():
    """Issue #4: non-linear CPDs learn with missing cells by filling them with their structural-EM
    posterior means (linear-Gaussian E-step); the result states that approximation."""
    net = random_network(10, seed=1, cpd="sigmoid")
    x = sample(net, 300, seed=2)
    rng = np.random.default_rng(0)
    x[rng.random(x.shape) < 0.1] = np.nan
    est = IdealParentSearch(cpd="sigmoid").fit(from_array(x, net.names))
    assert "posterior means" in est.network_.missing_values
    assert "approximation" in est.network_.missing_values
    assert est.network_.edges() and est.stats_["em_iterations"] >= 1
    with pytest.raises(Exception, match="linear-Gaussian"):
        IdealParentSearch(cpd="sigmoid", hidden="auto").fit(from_array(x, net.names))


def test_lm_converges_from_starts_near_the_linear_regime():
    """Near alpha = 0 theta_1 grows like 1/alpha; the Gauss-Newton matrix must not cancel to noise."""
    rng = np.random.default_rng(0)
    u = rng.standard_normal((500, 1))
    x = 1.0 + 2.0 * sigmoid(3.0 * u[:, 0]) + 0.1 * rng.standard_normal(500)
    ref = fit_sigmoid_batch(x, u[None], np.array([[0.5]]))
    for a0 in (1e-3, 1e-4, 1e-5, 1e-6, 1e-7):
        alpha, _, _, rss = fit_sigmoid_batch(x, u[None], np.array([[a0]]))
        assert rss[0] == pytest.approx(ref[3][0], rel=1e-8), a0
        assert alpha[0, 0] == pytest.approx(3.0, abs=0.2)
