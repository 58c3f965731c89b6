"""Hidden regulators inside learned networks (#12): semi-cliques, the inside-edges-removed estimate,
the Markov-blanket restriction, the regulator report and the GraphML mark. Expected values are
computed independently of the code under test."""

from __future__ import annotations

import math

import numpy as np
import pytest

from engine.cpd.linear import LinearGaussianFamilies
from engine.data import from_array
from engine.hidden import (
    HiddenSearch,
    find_semicliques,
    propose_from_search,
    regulator_report,
    report_rows,
    score_candidate,
)
from engine.hidden.candidates import MIN_LOADING, factor_fit, prune
from engine.hidden.marginal import freeze_families, markov_blanket
from engine.hidden.semiclique import is_semiclique
from engine.search import Stepper


def adjacency(n: int, edges) -> np.ndarray:
    a = np.zeros((n, n), dtype=bool)
    for i, j in edges:
        a[i, j] = a[j, i] = True
    return a


class TestSemicliques:
    def test_four_clique_missing_one_edge_and_a_pendant(self):
        """0-1-2-3 all linked but 0-3 (each of 0 and 3 has exactly half: accepted, thesis ch. 4);
        4 hangs on 3 only and stays out; a separate triangle 5-6-7 is its own semi-clique."""
        a = adjacency(8, [(0, 1), (0, 2), (1, 2), (1, 3), (2, 3), (3, 4), (5, 6), (6, 7), (5, 7)])
        found = [list(s) for s in find_semicliques(a)]
        assert found == [[0, 1, 2, 3], [5, 6, 7]]
        assert is_semiclique(a, np.array([0, 1, 2, 3]))
        assert not is_semiclique(a, np.array([0, 1, 2, 3, 4]))

    def test_no_triangle_no_semiclique(self):
        a = adjacency(5, [(0, 1), (1, 2), (2, 3), (3, 4)])
        assert find_semicliques(a) == []

    def test_every_result_is_a_semiclique_on_random_graphs(self):
        rng = np.random.default_rng(0)
        for _ in range(20):
            a = np.triu(rng.random((25, 25)) < 0.2, 1)
            a = a | a.T
            for s in find_semicliques(a):
                assert is_semiclique(a, s)


def _dense_factor_gain(r, n_samples, loadings, n_iter=60):
    """factor_fit's EM as written before #22, with the final S inverted densely (slogdet, solve)."""
    a = np.clip(loadings, -0.99, 0.99)
    psi = np.maximum(1.0 - a**2, 1e-3)
    d = np.diag(r).copy()
    for _ in range(n_iter):
        u = a / psi
        beta = u / (1.0 + a @ u)
        rb = r @ beta
        a_new = rb / (1.0 - beta @ a + beta @ rb)
        psi_new = np.maximum(d - a_new * rb, 1e-6)
        done = abs(a_new - a).max() < 1e-6
        a, psi = a_new, psi_new
        if done:
            break
    sig = np.diag(psi) + np.outer(a, a)
    return -0.5 * n_samples * (np.linalg.slogdet(sig)[1] + np.trace(np.linalg.solve(sig, r)) - r.shape[0])


class TestEstimate:
    def test_factor_gain_of_a_pair_is_its_mutual_information(self):
        r = np.array([[1.0, 0.6], [0.6, 1.0]])
        assert factor_fit(r, 200, np.array([0.7, 0.7]))[0] == pytest.approx(-100 * math.log(1 - 0.36), rel=1e-6)

    def test_factor_gain_recovers_a_planted_factor_likelihood(self):
        """Loadings a: R = aa^T + diag(1 - a^2) is fitted exactly, gain = -(M/2) log det R."""
        a = np.array([0.8, 0.6, 0.7, 0.5])
        r = np.outer(a, a)
        np.fill_diagonal(r, 1.0)
        want = -0.5 * 300 * np.linalg.slogdet(r)[1]
        assert factor_fit(r, 300, np.full(4, 0.5))[0] == pytest.approx(want, rel=1e-3)

    @pytest.mark.parametrize("seed", range(5))
    def test_factor_gain_equals_the_dense_determinant_and_solve(self, seed):
        """#22: log det S and tr(S^-1 R) of S = diag(psi) + a a^T come from the determinant lemma and
        Sherman-Morrison (O(L^2), hundreds of members at genome scale); equal to slogdet and solve."""
        rng = np.random.default_rng(seed)
        x = rng.normal(size=(80, 30)) + rng.normal(size=(80, 1)) * rng.uniform(0, 1.5, size=30)
        r = np.corrcoef(x, rowvar=False)
        gain, _ = factor_fit(r, 80, np.full(30, 0.5))
        # the same figure from the dense formula, at the loadings and uniquenesses factor_fit ends at
        want = _dense_factor_gain(r, 80, np.full(30, 0.5))
        assert gain == pytest.approx(want, rel=1e-10, abs=1e-8)

    def test_inside_edges_removed_matches_explicit_regressions(self):
        """A chain of three children of h, learned with edges among them: the candidate's estimate
        equals the explicit families without the inside edges plus the factor gain on their
        residual correlations, minus the current families and the new parameters' penalty."""
        rng = np.random.default_rng(3)
        m = 400
        h = rng.normal(size=m)
        x = np.column_stack([h + 0.6 * rng.normal(size=m) for _ in range(4)] + [rng.normal(size=m)])
        x[:, 3] += x[:, 4]
        stp = Stepper(LinearGaussianFamilies(x), initial=[(0, 1), (1, 2), (0, 2), (4, 3), (2, 3)])
        parents = [stp.parents(c) for c in range(5)]
        members = np.array([0, 1, 2, 3])
        xc = x - x.mean(axis=0)
        cs = score_candidate(stp.model, parents, members, stp.scorer, xc)
        pen = 0.5 * math.log(m)

        def resid(c, ps):
            d = np.column_stack([np.ones(m), x[:, list(ps)]])
            return x[:, c] - d @ np.linalg.lstsq(d, x[:, c], rcond=None)[0]

        def fam(c, ps):
            r = resid(c, ps)
            return -0.5 * m * (math.log(2 * math.pi * (r @ r) / m) + 1) - pen * (len(ps) + 2)

        outs = {0: (), 1: (), 2: (), 3: (4,)}
        ys = np.column_stack([resid(c, outs[c]) for c in members])
        corr = (ys.T @ ys) / np.sqrt(np.outer((ys**2).sum(0), (ys**2).sum(0)))
        gain = (
            sum(fam(c, outs[c]) - pen for c in members)
            + factor_fit(corr, m, np.full(4, 0.7))[0]
            - 2 * pen
            - sum(fam(c, parents[c]) for c in members)
        )
        assert cs.gain == pytest.approx(gain, abs=1e-4)
        assert sorted(cs.removed) == [(0, 1), (0, 2), (1, 2), (2, 3)]
        assert cs.gain > 0  # the factor pays for replacing the four edges

    def test_prune_drops_a_neighbour_the_factor_does_not_explain(self):
        """Five children of h tied by edges, plus V5, a child of V0's own part (not of h) with an
        edge from V0 and V1: V5's loading on the factor is below MIN_LOADING and prune drops it;
        the five children, whose loadings are high, all stay (pruning by the estimate, before,
        dropped V0, a child of h, and kept V5)."""
        rng = np.random.default_rng(4)
        m = 500
        h, own = rng.normal(size=m), rng.normal(size=m)
        kids = [h + 0.6 * (own if i == 0 else rng.normal(size=m)) for i in range(5)]
        x = np.column_stack(kids + [own + 0.5 * rng.normal(size=m)])
        inside = [(i, j) for i in range(5) for j in range(i + 1, 5)] + [(0, 5), (1, 5)]
        stp = Stepper(LinearGaussianFamilies(x), initial=inside)
        parents = [stp.parents(c) for c in range(6)]
        xc = x - x.mean(axis=0)
        cs = score_candidate(stp.model, parents, np.arange(6), stp.scorer, xc)
        assert abs(cs.factor_loadings[5]) < MIN_LOADING < np.abs(cs.factor_loadings[:5]).min()
        kept = prune(cs, stp.model, parents, stp.scorer, xc)
        assert kept.members.tolist() == [0, 1, 2, 3, 4]
        assert len(kept.removed) == 10 and kept.gain > cs.gain

    def test_semiclique_is_proposed_on_a_searched_network(self):
        """Six children of h tied by edges after a search: the top proposal is exactly them, from the
        semi-clique source, with a positive estimate and the inside edges listed."""
        rng = np.random.default_rng(1)
        m = 500
        h = rng.normal(size=m)
        x = np.column_stack([h + 0.5 * rng.normal(size=m) for _ in range(6)] + [rng.normal(size=(m, 6))])
        stp = Stepper(LinearGaussianFamilies(x))
        stp.run()
        names = [f"V{i}" for i in range(12)]
        top = propose_from_search(stp, x, names, min_size=3)[0]
        assert top.names == names[:6] and "semi-clique" in top.source
        assert top.estimated_gain > 0 and top.removed_edges
        assert abs(np.corrcoef(top.profile, h)[0, 1]) > 0.95
        assert np.all(np.abs(top.member_corr) > 0.8)


class TestMarkovBlanket:
    def test_blanket_and_frozen_families(self):
        edges = [(0, 1), (2, 1), (1, 3), (4, 0)]
        assert markov_blanket(edges, 1) == {0, 2, 3}
        x = np.random.default_rng(0).normal(size=(100, 5))
        stp = Stepper(LinearGaussianFamilies(x), initial=edges)
        frozen = np.array([False, False, False, True, True])
        freeze_families(stp, frozen)
        stp.run()
        assert stp.parents(3) == (1,) and stp.parents(4) == ()


class TestReport:
    def test_loadings_and_shares_from_the_implied_covariance(self):
        """H (index 2) -> X0 (w 2), X1 (w -1); Var(H) = 4: loading = w * 2, share = w^2 4 / Var(X)."""
        coef = np.zeros((3, 3))
        coef[2, 0], coef[2, 1] = 2.0, -1.0
        variance = np.array([1.0, 3.0, 4.0])
        rng = np.random.default_rng(0)
        hv = 2 * rng.normal(size=200)
        values = np.column_stack([2 * hv + rng.normal(size=200), -hv + rng.normal(size=200), hv])
        (rep,) = regulator_report(["a", "b", "H1"], 2, coef, variance, values, {"H1": (5.0, 7.0)})
        got = {c.child: c for c in rep.children}
        assert got["a"].loading == pytest.approx(4.0) and got["a"].sign == "+"
        assert got["a"].variance_explained == pytest.approx(16 / 17)
        assert got["b"].loading == pytest.approx(-2.0) and got["b"].sign == "-"
        assert got["b"].variance_explained == pytest.approx(4 / 7)
        assert got["a"].corr_child_profile == pytest.approx(np.corrcoef(values[:, 0], hv)[0, 1])
        assert rep.closest_observed == "a" and rep.realized_gain == 7.0
        rows = report_rows([rep])
        assert [r["child"] for r in rows] == ["a", "b"] and rows[0]["hidden"] == "H1"


class TestGraphML:
    def test_hidden_nodes_are_marked(self):
        rng = np.random.default_rng(2)
        h = rng.normal(size=300)
        x = np.column_stack([h + 0.5 * rng.normal(size=300) for _ in range(4)])
        ds = from_array(x, ["a", "b", "c", "d"])
        hs = HiddenSearch(ds)
        hs.fit_structure()
        prop = hs.propose(min_size=3)[0]
        hv = hs.accept(prop)
        assert hv.realized_gain == pytest.approx(hv.score_after - hv.baseline_score)
        from engine.network import LearnedNetwork

        par_names = hs.names
        parents = {c: tuple(sorted(p for p, cc in hs.em.edges if cc == c)) for c in range(len(par_names))}
        full = ds.with_columns(tuple(par_names), hs.em.mean, ~hs.em.observed)
        net = LearnedNetwork.from_parents(full, parents, hs.em.expected_model())
        net.hidden = hs.summary()["hidden"]
        xml = net.to_graphml()
        assert '<key id="hidden" for="node" attr.name="hidden" attr.type="boolean">' in xml
        assert f'<node id="{hv.name}"><data key="hidden">true</data></node>' in xml
        assert '<node id="a"/>' in xml
