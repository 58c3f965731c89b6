"""Hidden-variable proposals, structural EM and the hidden-variable protocol (issue #4 item 5)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy.stats import multivariate_normal

from engine.cpd.linear import LinearGaussianFamilies
from engine.data import from_array
from engine.exceptions import DataValidationError, ParameterError
from engine.hidden import HiddenSearch, StructuralEM, ideal_cosines, marginal_loglik, propose_from_search, score_cluster
from engine.hidden.em import _Params
from engine.search import Stepper
from engine.synth import random_network, sample, sample_dataset


def planted(seed: int, m: int = 500, load: float = 0.8):
    """30 variables: 24 from a random linear network plus 6 children of a hidden factor h
    (each child = +-load * h + noise, unit variance), columns shuffled."""
    rng = np.random.default_rng(seed)
    net = random_network(24, seed=seed, expected_parents=1.2, signal=0.5)
    x = sample(net, m, seed=seed + 1)
    h = rng.normal(size=m)
    kids = np.column_stack(
        [rng.choice([-1.0, 1.0]) * load * h + rng.normal(scale=math.sqrt(1 - load**2), size=m) for _ in range(6)]
    )
    z = np.column_stack([x, kids])
    perm = rng.permutation(30)
    z = z[:, perm]
    kid_idx = sorted(int(np.flatnonzero(perm == 24 + j)[0]) for j in range(6))
    return from_array(z, [f"V{i}" for i in range(30)]), kid_idx, h


class TestProposals:
    def test_planted_factor_is_the_top_cluster(self):
        """Top proposal on the starting (empty) network: member precision and recall >= 0.9
        and |corr(z*, h)| >= 0.9. Seen here for seeds 0-7: seeds 0-3 and 5-7 give precision =
        recall = 1.0 with correlation 0.95-0.96; on seed 4 a cluster of strongly linked network
        variables scores higher. Asserted on at least 6 of the 8 seeds."""
        good = 0
        for seed in range(8):
            ds, kids, h = planted(seed)
            s = Stepper(LinearGaussianFamilies(ds.values))
            top = propose_from_search(s, ds.values, ds.names)[0]
            hit = len(set(top.members) & set(kids))
            precision, recall = hit / len(top.members), hit / 6
            corr = abs(np.corrcoef(top.profile, h)[0, 1])
            good += precision >= 0.9 and recall >= 0.9 and corr >= 0.9
        assert good >= 6

    def test_cosines_from_scatter_equal_explicit_residuals(self):
        ds = sample_dataset(random_network(8, seed=2), 200, seed=3)
        x = ds.values
        s = Stepper(LinearGaussianFamilies(x))
        s.run(max_steps=6)
        from engine.hidden import family_coefficients

        parents = [s.parents(c) for c in range(8)]
        coef, rss = family_coefficients(s.model, parents)
        resid = []
        for c, ps in enumerate(parents):
            d = np.column_stack([np.ones(200), x[:, list(ps)]])
            beta = np.linalg.lstsq(d, x[:, c], rcond=None)[0]
            resid.append(x[:, c] - d @ beta)
        r = np.array(resid).T
        expect = (r.T @ r) / np.sqrt(np.outer((r**2).sum(0), (r**2).sum(0)))
        np.testing.assert_allclose(ideal_cosines(s.model.scatter, coef, rss), expect, atol=1e-9)

    def test_sum_c1_equals_half_lambda_and_beats_the_mean_profile(self):
        ds, kids, _ = planted(0)
        y = ds.values[:, kids] - ds.values[:, kids].mean(axis=0)  # ideal profiles at the empty network
        m = y.shape[0]
        sig2 = (y**2).sum(axis=0) / m
        cos = (y.T @ y) / np.sqrt(np.outer((y**2).sum(0), (y**2).sum(0)))
        lam, vec, c2m = score_cluster(cos, m)
        z = (y / np.sqrt(sig2)) @ vec

        def sum_c1(prof):
            return float(sum((prof @ y[:, i]) ** 2 / (2 * sig2[i] * (prof @ prof)) for i in range(len(kids))))

        assert sum_c1(z) == pytest.approx(lam / 2, rel=1e-9)
        assert sum_c1(z) >= sum_c1(y.mean(axis=1)) - 1e-9
        rng = np.random.default_rng(0)
        for _ in range(20):
            assert sum_c1(z) >= sum_c1(y @ rng.normal(size=len(kids))) - 1e-9
        c1m = [(z @ y[:, i]) ** 2 / (2 * sig2[i] * (z @ z)) for i in range(len(kids))]
        assert np.all(c2m >= np.array(c1m) - 1e-9)

    def test_existing_copy_marks_the_cluster_explained(self):
        ds, kids, h = planted(1)
        rng = np.random.default_rng(5)
        x = np.column_stack([ds.values, h + 0.05 * rng.normal(size=h.size)])
        names = list(ds.names) + ["copy_of_h"]
        s = Stepper(LinearGaussianFamilies(x))
        props = propose_from_search(s, x, names, candidates=np.arange(30))
        top = props[0]
        assert top.explained_by == "copy_of_h" and top.closest_corr >= 0.9

    def test_rejected_cluster_not_proposed_and_errors(self):
        ds, _, _ = planted(2)
        s = Stepper(LinearGaussianFamilies(ds.values))
        first = propose_from_search(s, ds.values, ds.names)[0]
        again = propose_from_search(s, ds.values, ds.names, exclude={first.key})
        assert all(p.key != first.key for p in again)
        with pytest.raises(ParameterError):
            propose_from_search(s, ds.values, ds.names, candidates=np.array([0]))


class TestStructuralEM:
    def test_marginal_loglik_matches_scipy(self):
        rng = np.random.default_rng(0)
        n = 4
        coef = np.zeros((n, n))
        coef[0, 1], coef[1, 2], coef[0, 3] = 0.8, -0.5, 0.3
        b0, var = rng.normal(size=n), rng.uniform(0.5, 1.5, size=n)
        a = np.linalg.inv(np.eye(n) - coef.T)
        mu, cov = a @ b0, (a * var) @ a.T
        x = rng.multivariate_normal(mu, cov, size=50)
        obs = np.ones_like(x, dtype=bool)
        assert marginal_loglik(b0, coef, var, x, obs) == pytest.approx(multivariate_normal(mu, cov).logpdf(x).sum())
        obs[::3, 1] = False
        expect = sum(
            multivariate_normal(mu[o], cov[np.ix_(o, o)]).logpdf(row[o]) for row, o in zip(x, obs, strict=True)
        )
        assert marginal_loglik(b0, coef, var, x, obs) == pytest.approx(expect)

    def test_missing_values_bound_monotone_and_skeleton_close(self):
        """10% of cells missing at random (20 variables, M = 1000): the EM bound never
        decreases (relative tolerance 1e-6) and the skeleton stays close to the complete-data
        one: Jaccard similarity of the two skeleton edge sets >= 0.7 (seen here: 0.86)."""
        net = random_network(20, seed=1, expected_parents=1.2, signal=0.4)
        x = sample(net, 1000, seed=2)
        full = Stepper(LinearGaussianFamilies(from_array(x, net.names).values))
        full.run()
        rng = np.random.default_rng(0)
        xm = x.copy()
        xm[rng.random(x.shape) < 0.1] = np.nan
        em = StructuralEM(from_array(xm, net.names))
        hist = em.run()
        bounds = [h.bound for h in hist]
        for a, b in zip(bounds, bounds[1:], strict=False):
            assert b >= a - 1e-6 * abs(a)
        sa = {frozenset(e) for e in full.edges()}
        sb = {frozenset(e) for e in em.edges}
        assert len(sa & sb) / len(sa | sb) >= 0.7

    def test_complete_data_equals_plain_search(self):
        ds = sample_dataset(random_network(10, seed=4), 300, seed=5)
        em = StructuralEM(ds)
        em.run()
        plain = Stepper(LinearGaussianFamilies(ds.values)).run()
        assert sorted(em.edges) == sorted(plain.edges)
        assert em.observed_bic() == pytest.approx(plain.score, rel=1e-9)

    def test_e_step_gives_exact_posterior_means(self):
        rng = np.random.default_rng(1)
        m = 200
        h = rng.normal(size=m)
        w = np.array([0.9, -0.7, 0.5])
        x = np.outer(h, w) + rng.normal(scale=0.6, size=(m, 3))
        ds = from_array(x, ["a", "b", "c"], standardize=False)
        em = StructuralEM(ds, hidden={"H1": (h, ["a", "b", "c"])})
        params = _Params(np.array([0.1, -0.2, 0.3, 0.0]), np.zeros((4, 4)), np.array([0.4, 0.5, 0.6, 1.2]))
        params.coef[3, :3] = w
        em.e_step(params)
        # exact Gaussian conditional of h given the children
        prec = 1 / 1.2 + np.sum(w**2 / params.variance[:3])
        mean = (0.0 / 1.2 + ((x - params.intercept[:3]) * w / params.variance[:3]).sum(axis=1)) / prec
        np.testing.assert_allclose(em.mean[:, 3], mean, rtol=1e-7)
        np.testing.assert_allclose(em.var[:, 3], 1 / prec, rtol=1e-9)

    def test_bad_inputs(self):
        ds, _, _ = planted(0, m=100)
        with pytest.raises(ParameterError, match="profile"):
            StructuralEM(ds, hidden={"H1": (np.zeros(5), ["V0"])})
        with pytest.raises(ParameterError, match="not an observed variable"):
            StructuralEM(ds, hidden={"H1": (np.zeros(100), ["nope"])})
        with pytest.raises(ParameterError, match="clash"):
            StructuralEM(ds, hidden={"V0": (np.zeros(100), ["V1"])})
        x = ds.values.copy()
        x[:, 3] = np.nan
        with pytest.raises(DataValidationError, match="no observed values"):
            from_array(x, ds.names)


class TestHiddenSearch:
    def test_auto_finds_the_planted_regulator(self):
        ds, kids, h = planted(0)
        hs = HiddenSearch(ds)
        baseline = StructuralEM(ds)
        baseline.run()
        found = hs.auto(max_hidden=1)  # the second try (it does not pay) cost 50 s of the suite
        assert found, "no hidden variable added"
        h1 = found[0]
        members = {ds.names.index(c) for c in h1.children}
        assert len(members & set(kids)) / len(members) >= 0.9 and len(members & set(kids)) / 6 >= 0.9
        assert hs.observed_bic() > baseline.observed_bic()
        assert abs(np.corrcoef(hs.hidden_profile("H1"), h)[0, 1]) >= 0.9
        summary = hs.summary()
        assert summary["hidden"][0]["name"] == "H1" and len(summary["hidden"][0]["profile"]) == ds.n_samples
        assert summary["missing_values"] == "none"

    def test_reject_and_stale_proposal(self):
        ds, _, _ = planted(3)
        hs = HiddenSearch(ds)
        first = hs.propose()[0]
        hs.reject(first)
        assert all(p.key != first.key for p in hs.propose())
        stale = hs.propose()[0]
        stale.names = ["V0", "no_such_variable"]
        with pytest.raises(ParameterError, match="no_such_variable"):
            hs.accept(stale)

    def test_two_layer_and_greedy_hidden(self):
        ds, _, _ = planted(5, m=300)
        hs = HiddenSearch(ds, {"max_parents": 2}, two_layer=True)
        hs.auto(max_hidden=2)
        names = hs.names
        for p, c in hs.em.edges:
            assert names[p].startswith("H") and not names[c].startswith("H")
        g = HiddenSearch(ds, two_layer=True)
        g.auto(max_hidden=1, greedy_hidden=True)
        assert len(g.hidden) == 1 and len(g.hidden[0].members) == ds.n_vars


def test_stepper_of_structural_em_keeps_the_score_reason():
    """The EM resolves ``auto`` once on the observed shape; its steppers (what the explorer shows
    after Accept) must give that reason, not "chosen by the user" for the resolved name."""
    rng = np.random.default_rng(0)
    hs = HiddenSearch(from_array(rng.normal(size=(20, 40)), [f"g{i}" for i in range(40)]))
    hs.em.run()
    choice = hs.em.stepper.score_choice
    assert choice.name == "ebic" and choice.reason == hs.em.score_choice.reason
    assert choice.reason.startswith("chosen automatically")
