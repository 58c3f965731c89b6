"""Structural EM with missing values and hidden variables (engine/hidden/em.py; JMLR 2007 section 6).

Expected values are computed independently: marginals with scipy.stats.multivariate_normal,
posterior means with the Gaussian conditioning formula on the joint covariance.
"""

from __future__ import annotations

import functools

import numpy as np
import pytest
from scipy.stats import multivariate_normal

from engine.cpd.linear import LinearGaussianFamilies
from engine.data import Dataset, from_array
from engine.exceptions import ConvergenceWarning, DataValidationError, ParameterError
from engine.hidden import StructuralEM, marginal_loglik
from engine.hidden.em import _Params
from engine.search import SearchSettings, Stepper
from engine.synth import random_network, sample


def joint_gaussian(b0: np.ndarray, coef: np.ndarray, var: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Mean and covariance of x = b0 + coef^T x + eps by ancestral propagation (no matrix inverse).

    Requires the variables to be in topological order (coef strictly upper triangular)."""
    n = len(b0)
    assert np.allclose(np.tril(coef), 0)
    mu = np.zeros(n)
    cov = np.zeros((n, n))
    for j in range(n):
        w = coef[:j, j]
        mu[j] = b0[j] + w @ mu[:j]
        cov[j, :j] = w @ cov[:j, :j]
        cov[:j, j] = cov[j, :j]
        cov[j, j] = w @ cov[:j, :j] @ w + var[j]
    return mu, cov


def random_params(n: int, rng: np.random.Generator, p_edge: float = 0.4) -> _Params:
    coef = np.triu(rng.uniform(0.4, 1.2, size=(n, n)) * rng.choice([-1, 1], size=(n, n)), k=1)
    coef *= rng.random((n, n)) < p_edge
    return _Params(rng.normal(size=n), coef, rng.uniform(0.3, 1.5, size=n))


def skeleton(edges) -> set[frozenset]:
    return {frozenset((int(p), int(c))) for p, c in edges}


def f1(found: set, truth: set) -> float:
    return 2 * len(found & truth) / (len(found) + len(truth))


# ------------------------------------------------------------------------- marginal_loglik
class TestMarginalLoglik:
    @pytest.mark.parametrize("seed", [0, 1, 2])
    def test_complete_data_equals_scipy(self, seed):
        rng = np.random.default_rng(seed)
        par = random_params(7, rng)
        mu, cov = joint_gaussian(par.intercept, par.coef, par.variance)
        x = rng.multivariate_normal(mu, cov, size=80)
        obs = np.ones(x.shape, dtype=bool)
        expect = multivariate_normal(mu, cov).logpdf(x).sum()
        assert marginal_loglik(par.intercept, par.coef, par.variance, x, obs) == pytest.approx(expect, rel=1e-10)

    @pytest.mark.parametrize("seed", [0, 1, 2])
    def test_missing_cells_equal_marginal_over_observed_cells(self, seed):
        rng = np.random.default_rng(seed)
        par = random_params(7, rng)
        mu, cov = joint_gaussian(par.intercept, par.coef, par.variance)
        x = rng.multivariate_normal(mu, cov, size=120)
        obs = rng.random(x.shape) > 0.3  # many different patterns
        obs[0] = False  # a row with nothing observed contributes 0
        obs[1] = True
        xm = np.where(obs, x, 1e6)  # unobserved cells must not be read
        expect = 0.0
        for row, o in zip(x, obs, strict=True):
            if o.any():
                expect += multivariate_normal(mu[o], cov[np.ix_(o, o)]).logpdf(row[o])
        assert marginal_loglik(par.intercept, par.coef, par.variance, xm, obs) == pytest.approx(expect, rel=1e-10)


# -------------------------------------------------------------------- missing values, SEM
#: 20-variable random networks (random_network(20, seed=s)), M = 1000 (sample seed s + 100),
#: 10% of cells missing at random (default_rng(s + 200)). Measured, seeds 0-5:
#:   seed  EM iters  skeleton Jaccard(EM, complete)  skeleton F1 vs truth: complete / EM
#:     0       5           0.848                                0.893 / 0.873
#:     1       5           0.857                                0.902 / 0.979
#:     2       6           0.778                                0.871 / 0.929
#:     3       6           0.625                                0.729 / 0.741
#:     4       6           0.792                                0.838 / 0.842
#:     5       6           0.750                                0.769 / 0.805
#: smallest relative bound change between iterations: +6.0e-8 (never negative).
def _missing_case(seed: int, m: int = 1000):
    net = random_network(20, seed=seed)
    x = sample(net, m, seed=seed + 100)
    rng = np.random.default_rng(seed + 200)
    xm = x.copy()
    xm[rng.random(x.shape) < 0.1] = np.nan
    return net, from_array(x, net.names), from_array(xm, net.names)


@functools.cache
def _missing_run(seed: int):
    """``StructuralEM(miss).run()`` on :func:`_missing_case` (seed), run once for the tests that only
    read it (3-5 s each): (net, full, miss, em, history)."""
    net, full, miss = _missing_case(seed)
    em = StructuralEM(miss)
    return net, full, miss, em, em.run()


class TestMissingValues:
    @pytest.mark.parametrize("seed", [0, 3])
    def test_bound_monotone_and_skeleton_close_to_complete_data(self, seed):
        """Bound never decreases (relative tolerance 1e-6). Skeleton: F1 vs the truth within 0.1
        of the complete-data F1 on every seed; Jaccard(EM skeleton, complete-data skeleton) >= 0.7
        on seeds 0-2, 4, 5 and >= 0.6 on seed 3 (see the table above). Run on seed 0 and on seed 3,
        the one with the lowest Jaccard (all six seeds ran until session 20: the same checks, 18 s)."""
        net, full, miss, em, hist = _missing_run(seed)
        assert 0.08 < miss.missing.mean() < 0.12
        complete = Stepper(LinearGaussianFamilies(full.values))
        complete.run()
        assert em.converged_ and len(hist) >= 2
        bounds = np.array([h.bound for h in hist])
        assert np.all(np.diff(bounds) >= -1e-6 * np.abs(bounds[:-1]))
        # the variational bound is a lower bound of the exact observed-data BIC
        assert bounds[-1] <= em.observed_bic() + 1e-6 * abs(bounds[-1])
        truth = skeleton(net.edge_index())
        sa, sb = skeleton(complete.edges()), skeleton(em.edges)
        jaccard = len(sa & sb) / len(sa | sb)
        assert jaccard >= (0.6 if seed == 3 else 0.7)
        assert f1(sb, truth) >= f1(sa, truth) - 0.1

    def test_missing_cells_get_posterior_moments(self):
        _, _, miss, em, _ = _missing_run(0)
        assert np.array_equal(em.mean[~miss.missing], miss.values[~miss.missing])
        assert np.all(em.var[~miss.missing] == 0)
        assert np.all(em.var[miss.missing] > 0) and np.all(np.isfinite(em.mean))


# ---------------------------------------------------------------- complete data, no hidden
class TestCompleteData:
    @pytest.mark.parametrize(("method", "k"), [("ideal", 2), ("greedy", 2), ("ideal", 5)])
    def test_equals_plain_stepper(self, method, k):
        net = random_network(15, seed=11)
        ds = from_array(sample(net, 400, seed=12), net.names)
        em = StructuralEM(ds, method=method, k=k)
        hist = em.run()
        plain = Stepper(LinearGaussianFamilies(ds.values), method=method, k=k).run()
        assert sorted(em.edges) == sorted(plain.edges)
        assert em.observed_bic() == pytest.approx(plain.score, rel=1e-9)
        assert hist[-1].bound == pytest.approx(plain.score, rel=1e-9)  # no entropy, exact bound
        assert hist[-1].moves == 0 and hist[0].moves == plain.n_iter
        assert em.observed_loglik() == pytest.approx(plain.loglik, rel=1e-9)


# ---------------------------------------------------------------------------------- E-step
class TestEStep:
    def test_single_hidden_root_posterior_is_exact(self):
        """H (root, last column) -> a, b, c, d; d also has parent a. Means and variances after
        one E-step equal the Gaussian conditional of H given the children."""
        rng = np.random.default_rng(3)
        m = 300
        h = rng.normal(size=m)
        a = 0.9 * h + 0.5 * rng.normal(size=m)
        b = -0.7 * h + 0.6 * rng.normal(size=m)
        c = 0.4 * h + 0.8 * rng.normal(size=m)
        d = 0.5 * a + 0.3 * h + 0.7 * rng.normal(size=m)
        x = np.column_stack([a, b, c, d])
        ds = from_array(x, ["a", "b", "c", "d"], standardize=False)
        em = StructuralEM(ds, hidden={"H": (h, ["a", "b", "c", "d"])}, initial_edges=[("a", "d")])
        # parameters in the order a, b, c, d, H (H is column 4)
        coef = np.zeros((5, 5))
        coef[4, :4] = [0.8, -0.6, 0.5, 0.25]
        coef[0, 3] = 0.45
        par = _Params(np.array([0.1, -0.2, 0.3, 0.05, 0.2]), coef, np.array([0.3, 0.4, 0.6, 0.5, 1.3]))
        em.e_step(par)
        # exact conditional: reorder to topological order H, a, b, c, d for joint_gaussian
        order = [4, 0, 1, 2, 3]
        mu, cov = joint_gaussian(par.intercept[order], coef[np.ix_(order, order)], par.variance[order])
        s_ho, s_oo = cov[0, 1:], cov[1:, 1:]
        gain = np.linalg.solve(s_oo, s_ho)
        post_mean = mu[0] + (x - mu[1:]) @ gain
        post_var = cov[0, 0] - s_ho @ gain
        np.testing.assert_allclose(em.mean[:, 4], post_mean, rtol=1e-8, atol=1e-10)
        np.testing.assert_allclose(em.var[:, 4], post_var, rtol=1e-8)
        np.testing.assert_array_equal(em.mean[:, :4], x)  # observed cells untouched

    def test_mean_field_means_are_exact_with_missing_cells_and_hidden(self):
        """Several unobserved cells per row (hidden H plus missing observed cells): the mean-field
        fixed point's means equal the exact joint conditional means (reference section 2.5)."""
        rng = np.random.default_rng(5)
        m = 150
        h = rng.normal(size=m)
        a = 0.8 * h + 0.6 * rng.normal(size=m)
        b = 0.6 * a - 0.5 * h + 0.5 * rng.normal(size=m)
        c = 0.7 * b + 0.6 * rng.normal(size=m)
        x = np.column_stack([a, b, c])
        miss = rng.random(x.shape) < 0.25
        xm = np.where(miss, np.nan, x)
        ds = from_array(xm, ["a", "b", "c"], standardize=False)
        em = StructuralEM(
            ds, hidden={"H": (h, ["a", "b"])}, initial_edges=[("a", "b"), ("b", "c")], mf_iter=20000, mf_tol=1e-14
        )
        coef = np.zeros((4, 4))
        coef[3, 0], coef[3, 1], coef[0, 1], coef[1, 2] = 0.8, -0.5, 0.6, 0.7
        par = _Params(np.array([0.1, 0.2, -0.1, 0.0]), coef, np.array([0.36, 0.25, 0.36, 1.0]))
        em.e_step(par)
        order = [3, 0, 1, 2]
        mu, cov = joint_gaussian(par.intercept[order], coef[np.ix_(order, order)], par.variance[order])
        inv = np.argsort(order)  # position of a, b, c, H in the topological order
        mu, cov = mu[inv], cov[np.ix_(inv, inv)]
        full_obs = np.column_stack([~miss, np.zeros(m, dtype=bool)])
        vals = np.column_stack([x, np.zeros(m)])
        for i in range(m):
            o, u = full_obs[i], ~full_obs[i]
            expect = mu[u] + cov[np.ix_(u, o)] @ np.linalg.solve(cov[np.ix_(o, o)], vals[i, o] - mu[o])
            np.testing.assert_allclose(em.mean[i, u], expect, rtol=1e-6, atol=1e-8)

    @staticmethod
    def _one_factor(seed: int, m: int = 400):
        """Six observed children of one hidden factor h, random signs, noise sd 0.7."""
        rng = np.random.default_rng(seed)
        h = rng.normal(size=m)
        w = rng.choice([-1, 1], size=6) * rng.uniform(0.6, 1.0, size=6)
        x = np.outer(h, w) + 0.7 * rng.normal(size=(m, 6))
        names = [f"V{i}" for i in range(6)]
        return from_array(x, names), names, h, w

    def test_hidden_variable_run_bound_monotone(self):
        ds, names, h, w = self._one_factor(8)
        rng = np.random.default_rng(0)
        init = ds.values @ np.sign(w) + 2.0 * rng.normal(size=h.size)  # a rough, signed start
        em = StructuralEM(ds, hidden={"H1": (init, names)})
        hist = em.run()
        bounds = np.array([r.bound for r in hist])
        assert len(bounds) >= 3
        assert np.all(np.diff(bounds) >= -1e-6 * np.abs(bounds[:-1]))
        assert bounds[-1] <= em.observed_bic() + 1e-6 * abs(bounds[-1])
        assert em.hidden_names() == ["H1"]
        assert abs(np.corrcoef(em.mean[:, 6], h)[0, 1]) > 0.9
        base = StructuralEM(ds)
        base.run()
        assert em.observed_bic() > base.observed_bic()

    def test_fixed_structure_is_parametric_em(self):
        ds, names, h, _ = self._one_factor(8)
        init = np.random.default_rng(1).normal(size=h.size)
        em = StructuralEM(ds, hidden={"H1": (init, names)}, fixed_structure=True, max_iter=500)
        hist = em.run()
        assert all(r.moves == 0 for r in hist) and em.edges == [(6, c) for c in range(6)]
        bounds = np.array([r.bound for r in hist])
        assert np.all(np.diff(bounds) >= -1e-6 * np.abs(bounds[:-1]))
        assert abs(np.corrcoef(em.mean[:, 6], h)[0, 1]) > 0.9  # EM finds the factor from noise

    @pytest.mark.parametrize("seed", [0, 1, 2, 3])
    def test_warmup_keeps_a_randomly_started_factor(self, seed):
        """From a random profile, structural EM without warm-up (the default, warmup=0) drops all
        of H1's children in the first M-step (measured on seeds 0-3: 0 of 6 kept, observed BIC
        -2734.4 / -3012.1 / -2899.0 / -2944.1). With ``warmup=50`` (parametric EM first, the
        paper's protocol) it keeps all 6 and reaches the parametric-EM optimum (-2714.1 / -2998.6 /
        -2876.1 / -2925.0), |corr(H1, h)| 0.915-0.949."""
        ds, names, h, _ = self._one_factor(seed)
        init = np.random.default_rng(100).normal(size=h.size)
        em = StructuralEM(ds, hidden={"H1": (init, names)}, warmup=50)
        hist = em.run()
        bounds = np.array([r.bound for r in hist])
        assert np.all(np.diff(bounds) >= -1e-6 * np.abs(bounds[:-1]))
        param = StructuralEM(ds, hidden={"H1": (init, names)}, fixed_structure=True, max_iter=500)
        param.run()
        assert len([c for p, c in em.edges if p == 6]) == 6
        assert em.observed_bic() >= param.observed_bic() - 1.0
        assert abs(np.corrcoef(em.mean[:, 6], h)[0, 1]) > 0.9
        base = StructuralEM(ds)
        base.run()
        assert em.observed_bic() > base.observed_bic()


# ---------------------------------------------------------------------------------- errors
class TestErrors:
    def _ds(self):
        return from_array(sample(random_network(5, seed=0), 60, seed=1), ["a", "b", "c", "d", "e"])

    @pytest.mark.filterwarnings("ignore:.*slice:RuntimeWarning")  # nanmean/nanvar of the empty column
    def test_all_missing_column(self):
        ds = self._ds()
        vals = ds.values.copy()
        vals[:, 2] = np.nan
        bad = Dataset(names=ds.names, values=vals, missing=np.isnan(vals))  # bypasses from_array's check
        with pytest.raises(DataValidationError, match=r"'c'.*no observed values"):
            StructuralEM(bad)
        with pytest.raises(DataValidationError):
            from_array(vals, ds.names)

    def test_hidden_profile_of_wrong_length(self):
        ds = self._ds()
        with pytest.raises(ParameterError, match=r"profile has shape \(59,\), expected \(60,\)"):
            StructuralEM(ds, hidden={"H1": (np.zeros(59), ["a"])})

    def test_child_not_observed(self):
        ds = self._ds()
        with pytest.raises(ParameterError, match="'zz' is not an observed variable"):
            StructuralEM(ds, hidden={"H1": (np.zeros(60), ["a", "zz"])})
        with pytest.raises(ParameterError, match="'H1' is not an observed variable"):
            StructuralEM(ds, hidden={"H1": (np.zeros(60), ["a"]), "H2": (np.zeros(60), ["H1"])})

    def test_name_clash(self):
        ds = self._ds()
        with pytest.raises(ParameterError, match="clash"):
            StructuralEM(ds, hidden={"b": (np.zeros(60), ["a"])})


class TestEstimatorAttributes:
    """StructuralEM is shaped like scikit-learn's mixture base (issue #10)."""

    def test_converged_run_sets_the_attributes(self):
        _, _, miss, em, hist = _missing_run(0)  # the run of TestMissingValues
        fresh = StructuralEM(miss)
        assert not fresh.converged_ and fresh.n_iter_ == 0 and fresh.lower_bound_ == -np.inf
        assert em.converged_
        assert em.n_iter_ == len(hist) == len(em.lower_bounds_)
        assert em.lower_bounds_ == [h.bound for h in hist]
        assert em.lower_bound_ == em.lower_bounds_[-1]

    def test_stopped_by_max_iter_is_not_converged(self):
        _, _, miss = _missing_case(0)
        em = StructuralEM(miss, max_iter=1)
        with pytest.warns(ConvergenceWarning, match="1 iterations"):
            em.run()
        assert em.n_iter_ == 1 and not em.converged_

    def test_settings_object_and_keywords_agree(self):
        _, _, miss = _missing_case(1, m=300)  # 300 rows: the same settings either way, 3 s less than 1000
        a = StructuralEM(miss, SearchSettings(method="greedy", max_parents=2))
        b = StructuralEM(miss, method="greedy", max_parents=2)
        assert a.settings == b.settings
        a.run()
        b.run()
        assert a.edges == b.edges
