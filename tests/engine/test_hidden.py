"""Hidden-variable cluster proposals (engine/hidden/proposals.py; JMLR 2007 section 5, reference section 1.5).

Every expected value is computed independently of the code under test: ideal profiles by explicit
least squares with an intercept, C1/C2 from their definitions, the optimal-profile bound by the
Rayleigh quotient.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.cpd.linear import LinearGaussianFamilies
from engine.exceptions import ParameterError
from engine.hidden import (
    ClusterProposal,
    family_coefficients,
    ideal_cosines,
    propose_clusters,
    propose_from_search,
    score_cluster,
)
from engine.hidden.candidates import GROWN, factor_fit
from engine.search import Stepper
from engine.synth import random_network, sample

N_PLANTED = 30
N_CHILDREN = 6
#: Offset of the sampling seed. ``sample(net, m, seed=s)`` and ``default_rng(s).normal(size=m)``
#: draw the SAME first normal vector, so the first root of the network would be an exact copy of
#: the planted factor h (then the "hidden" variable is observed and the test is meaningless).
SAMPLE_SEED_OFFSET = 1000


def planted_factor(seed: int, m: int = 500, load: float = 1.0):
    """30-variable random linear network with a hidden factor added to 6 random columns.

    ``random_network(30, expected_parents=1.0, signal=0.4, seed=seed)``, ``m`` rows sampled
    (seed ``1000 + seed``), each column divided by its std; then with ``rng = default_rng(seed)``:
    h ~ N(0, 1) (m draws), 6 distinct random columns, random signs; ``x[:, kids] += sign * load * h``.
    Returns (values, names, sorted child indices, h).
    """
    net = random_network(N_PLANTED, expected_parents=1.0, signal=0.4, seed=seed)
    x = sample(net, m, seed=SAMPLE_SEED_OFFSET + seed)
    x = x / x.std(axis=0)
    rng = np.random.default_rng(seed)
    h = rng.normal(size=m)
    kids = np.sort(rng.choice(N_PLANTED, size=N_CHILDREN, replace=False))
    signs = rng.choice([-1.0, 1.0], size=N_CHILDREN)
    x[:, kids] += signs * load * h[:, None]
    return x, list(net.names), kids, h


def residual_profiles(x: np.ndarray, parents: list[tuple[int, ...]]) -> tuple[np.ndarray, np.ndarray]:
    """Ideal profiles y_i (least-squares residuals with intercept) and coef[p, c], explicitly."""
    m, n = x.shape
    y = np.zeros((m, n))
    coef = np.zeros((n, n))
    for c, ps in enumerate(parents):
        d = np.column_stack([np.ones(m), x[:, list(ps)]])
        beta = np.linalg.lstsq(d, x[:, c], rcond=None)[0]
        y[:, c] = x[:, c] - d @ beta
        coef[list(ps), c] = beta[1:]
    return y, coef


def random_dag_parents(n: int, rng: np.random.Generator, p_edge: float = 0.3) -> list[tuple[int, ...]]:
    order = rng.permutation(n)
    parents: list[list[int]] = [[] for _ in range(n)]
    for i in range(n):
        for j in range(i + 1, n):
            if rng.random() < p_edge:
                parents[order[j]].append(int(order[i]))
    return [tuple(sorted(p)) for p in parents]


def sum_c1(z: np.ndarray, y: np.ndarray) -> float:
    """sum_i (1/(2 sigma_i^2)) (z.y_i)^2/(z.z) with sigma_i^2 = y_i.y_i/M (T eq. 7.10)."""
    m = y.shape[0]
    sig2 = (y**2).sum(axis=0) / m
    return float(np.sum((z @ y) ** 2 / (2.0 * sig2 * (z @ z))))


def c1_each(z: np.ndarray, y: np.ndarray) -> np.ndarray:
    m = y.shape[0]
    sig2 = (y**2).sum(axis=0) / m
    return (z @ y) ** 2 / (2.0 * sig2 * (z @ z))


def c2_each(z: np.ndarray, y: np.ndarray) -> np.ndarray:
    """-(M/2) log(1 - cos^2(z, y_i))."""
    m = y.shape[0]
    cos2 = (z @ y) ** 2 / ((z @ z) * (y**2).sum(axis=0))
    return -0.5 * m * np.log1p(-cos2)


def cosine_matrix(y: np.ndarray) -> np.ndarray:
    nrm = np.sqrt((y**2).sum(axis=0))
    return (y.T @ y) / np.outer(nrm, nrm)


def member_stats(members, kids) -> tuple[float, float]:
    hit = len(set(members) & set(int(k) for k in kids))
    return hit / len(members), hit / len(kids)


# ----------------------------------------------------------------------------- ideal_cosines
class TestIdealCosines:
    @pytest.mark.parametrize("seed", [0, 1, 2])
    def test_equals_cosines_of_explicit_residuals_random_structure(self, seed):
        rng = np.random.default_rng(seed)
        n, m = 12, 300
        x = rng.normal(size=(m, n)) @ rng.normal(size=(n, n)) + rng.normal(size=n)  # correlated, non-zero mean
        parents = random_dag_parents(n, rng)
        assert sum(len(p) for p in parents) > 5
        y, coef = residual_profiles(x, parents)
        rss = (y**2).sum(axis=0)
        xc = x - x.mean(axis=0)
        got = ideal_cosines(xc.T @ xc, coef, rss)
        np.testing.assert_allclose(got, cosine_matrix(y), atol=1e-9)
        # the engine's own coefficients and RSS (family_coefficients) agree with lstsq
        model = LinearGaussianFamilies(x)
        coef2, rss2 = family_coefficients(model, parents)
        np.testing.assert_allclose(coef2, coef, atol=1e-8)
        np.testing.assert_allclose(rss2, rss, rtol=1e-8)
        np.testing.assert_allclose(ideal_cosines(model.scatter, coef2, rss2), cosine_matrix(y), atol=1e-9)

    def test_empty_structure_gives_correlation_matrix(self):
        rng = np.random.default_rng(4)
        x = rng.normal(size=(100, 5)) @ rng.normal(size=(5, 5))
        xc = x - x.mean(axis=0)
        got = ideal_cosines(xc.T @ xc, np.zeros((5, 5)), (xc**2).sum(axis=0))
        np.testing.assert_allclose(got, np.corrcoef(x, rowvar=False), atol=1e-12)


# ----------------------------------------------------------------------------- score_cluster
def _profiles(seed: int, m: int, size: int) -> np.ndarray:
    """Centred, correlated 'ideal profiles' (M x L) from a seed."""
    rng = np.random.default_rng(seed)
    common = rng.normal(size=(m, 1))
    y = common * rng.normal(size=size) + rng.normal(size=(m, size)) * rng.uniform(0.3, 2.0, size=size)
    return y - y.mean(axis=0)


class TestScoreCluster:
    @settings(max_examples=60, deadline=None)
    @given(seed=st.integers(0, 2**31 - 1), m=st.integers(10, 200), size=st.integers(2, 8))
    def test_sum_c1_is_half_lambda_and_maximal(self, seed, m, size):
        y = _profiles(seed, m, size)
        sig = np.sqrt((y**2).sum(axis=0) / m)
        lam, vec, c2m = score_cluster(cosine_matrix(y), m)
        z = (y / sig) @ vec  # z* = Y v*
        best = sum_c1(z, y)
        assert best == pytest.approx(lam / 2.0, rel=1e-8)
        # lambda* on the scale M * lambda_max(cosines): between M and L*M
        assert m * (1 - 1e-9) <= lam <= size * m * (1 + 1e-9)
        # no other profile does better: the members' plain mean, random vectors (in and out of
        # the span of the profiles)
        rng = np.random.default_rng(seed + 1)
        assert best >= sum_c1(y.mean(axis=1) + 1e-12 * rng.normal(size=m), y) * (1 - 1e-9)
        for _ in range(10):
            assert best >= sum_c1(rng.normal(size=m), y) * (1 - 1e-9)
            assert best >= sum_c1(y @ rng.normal(size=size), y) * (1 - 1e-9)
        # each member's C2 (from the definition) >= its C1, and equals the returned c2_members
        c1m, c2i = c1_each(z, y), c2_each(z, y)
        assert np.all(c2i >= c1m * (1 - 1e-9))
        finite = c2i < 1e6  # members (nearly) identical to z* hit the clip at 1 - 1e-12
        np.testing.assert_allclose(c2m[finite], c2i[finite], rtol=1e-6)

    def test_single_member_guard(self):
        lam, vec, c2m = score_cluster(np.ones((1, 1)), 50)
        assert lam == 50 and vec.tolist() == [1.0] and np.isinf(c2m[0])

    def test_loadings_unit_norm_and_signed_towards_positive(self):
        y = _profiles(3, 100, 5)
        y[:, 0] *= -1
        _, vec, _ = score_cluster(cosine_matrix(y), 100)
        assert np.linalg.norm(vec) == pytest.approx(1.0)
        assert vec.sum() > 0


# ------------------------------------------------------------------------- ClusterProposal
class TestProposalFields:
    def test_proposals_are_consistent_with_explicit_profiles(self):
        """Every field of every proposal recomputed from explicit residual profiles, with the
        edges inside the proposed set removed (the members' other parents kept), and the estimate
        from its definition: the members' families without the inside edges plus C2, minus the
        current families, plus the root term, in BIC (#12)."""
        net = random_network(25, seed=7, expected_parents=1.5)
        x = sample(net, 400, seed=8)
        stp = Stepper(LinearGaussianFamilies(x))
        stp.run(max_steps=10)
        all_parents = [stp.parents(c) for c in range(25)]
        props = propose_from_search(stp, x, net.names, n_proposals=5)
        assert props
        m = x.shape[0]
        seen: dict[str, set[int]] = {"profiles": set(), "semi-clique": set(), GROWN: set()}
        for p in props:
            assert isinstance(p, ClusterProposal)
            assert p.members == sorted(p.members) and len(p.members) >= 2
            for src in seen:  # proposals from one pool do not overlap (grown semi-cliques: their own)
                if (p.source == GROWN) == (src == GROWN) and src in p.source:
                    assert not seen[src] & set(p.members)
                    seen[src] |= set(p.members)
            assert p.names == [net.names[i] for i in p.members]
            assert p.key == frozenset(p.names)
            z = p.profile
            assert z.shape == (m,)
            assert z.mean() == pytest.approx(0.0, abs=1e-10)
            assert z.std() == pytest.approx(1.0, rel=1e-10)
            assert np.linalg.norm(p.loadings) == pytest.approx(1.0)
            inside = set(p.members)
            parents = [
                tuple(q for q in ps if q not in inside) if c in inside else ps for c, ps in enumerate(all_parents)
            ]
            y, _ = residual_profiles(x, parents)
            y_cur, _ = residual_profiles(x, all_parents)
            ym = y[:, p.members]
            assert p.c1 == pytest.approx(p.eigenvalue / 2.0, rel=1e-12)
            assert sum_c1(z, ym) == pytest.approx(p.c1, rel=1e-7)
            np.testing.assert_allclose(p.c2_members, c2_each(z, ym), rtol=1e-6)
            assert p.c2 == pytest.approx(float(np.sum(c2_each(z, ym))), rel=1e-6)
            assert np.all(p.c2_members >= c1_each(z, ym) * (1 - 1e-9))
            pen = 0.5 * math.log(m)

            def ll(r):
                return -0.5 * m * (math.log(2 * math.pi * (r @ r) / m) + 1)

            current = sum(ll(y_cur[:, i]) - pen * (len(all_parents[i]) + 2) for i in p.members)
            kept = sum(ll(y[:, i]) - pen * (len(parents[i]) + 3) for i in p.members)
            cos = np.corrcoef(ym, rowvar=False)
            start = p.loadings * math.sqrt(p.eigenvalue / m)
            gain = kept + factor_fit(cos, m, start)[0] - current - 2 * pen
            assert p.estimated_gain == pytest.approx(gain, rel=1e-9)
            # the paper's complete-data estimate: C2 and the root log-likelihood of z* as if observed
            root = -0.5 * m * (math.log(2 * math.pi) + 1)
            complete = kept + float(np.sum(c2_each(z, ym))) + root - current - 2 * pen
            assert p.complete_gain == pytest.approx(complete, rel=1e-6)
            assert p.removed_loss == pytest.approx(
                sum(ll(y_cur[:, i]) - ll(y[:, i]) - pen * (len(all_parents[i]) - len(parents[i])) for i in p.members),
                abs=1e-6,
            )
            assert len(p.removed_edges) == sum(len(all_parents[i]) - len(parents[i]) for i in p.members)
            d = p.to_dict()
            assert d["members"] == p.names and d["explained_by"] is None
            assert d["complete_gain"] == p.complete_gain
        gains = [p.estimated_gain for p in props]
        assert gains == sorted(gains, reverse=True)

    def test_complete_estimate_on_an_edgeless_network_is_the_papers(self):
        """Without edges nothing is removed, so the complete-data estimate of a set re-scored by
        propose_from_search is the estimate propose_clusters ranks it by (JMLR 2007 section 5:
        sum of C2, root log-likelihood of z*, BIC penalty of L edges and the root)."""
        x, names, _, _ = planted_factor(1)
        stp = Stepper(LinearGaussianFamilies(x))
        coef, rss = family_coefficients(stp.model, [() for _ in names])
        paper = {p.key: p for p in propose_clusters(x, coef, rss, names, n_proposals=10)}
        for p in paper.values():
            assert p.complete_gain == p.estimated_gain
        props = propose_from_search(stp, x, names, n_proposals=10)
        shared = [p for p in props if p.key in paper]
        assert shared
        for p in shared:
            assert p.complete_gain == pytest.approx(paper[p.key].estimated_gain, rel=1e-9, abs=1e-6)

    def test_n_proposals_and_max_size(self):
        x, names, _, _ = planted_factor(0)
        stp = Stepper(LinearGaussianFamilies(x))
        assert len(propose_from_search(stp, x, names, n_proposals=2)) == 2
        assert all(len(p.members) <= 3 for p in propose_from_search(stp, x, names, max_size=3))


# ------------------------------------------------------------------------- planted factor
#: Measured on the EMPTY structure (Stepper with no moves), top proposal of propose_from_search:
#: seed: precision, recall, |corr(z*, h)|, oracle |corr| (least-squares prediction of h from the 6
#: true children: the best any linear profile of them can do)
#:   0: 1.00 1.00 0.918 (0.924)   1: 1.00 1.00 0.868 (0.890)   2: 0.67 1.00 0.915 (0.944)
#:   3: 1.00 1.00 0.916 (0.927)   4: 0.67 1.00 0.853 (0.921)   5: top = a network module (0/0);
#:   6: 1.00 1.00 0.914 (0.916)   7: top = a network module;       the planted cluster is 2nd:
#:   8: 1.00 1.00 0.942 (0.956)   9: 0.86 1.00 0.878 (0.917)      5: 1.00 1.00 0.920; 7: 0.86 1.00 0.910
#: Extra members (seeds 2, 4, 9) are network neighbours of planted children: on the empty
#: structure their own profile correlates with a child's, and the estimated gain (which lets z*
#: lean on each member's own profile) rewards including them; the paper's BIC-driven merging gives
#: the same or larger clusters here. Seeds 5 and 7: a tightly linked network module has a larger
#: estimated gain than the factor (on the empty structure a hidden parent does explain a module).
STRICT_SEEDS = (0, 3, 6, 8)


class TestPlantedFactor:
    def test_top_proposal_recovers_the_planted_children(self):
        """Planted factor (see :func:`planted_factor`), empty structure, seeds 0-9.

        Strict criterion (precision >= 0.9, recall >= 0.9, |corr(z*, h)| >= 0.9) holds on seeds
        0, 3, 6, 8 (asserted on each; 4 of 10). Asserted over all of 0-9: the top proposal has
        recall >= 0.9 on at least 8 seeds (measured 8: all but 5 and 7); on every seed one of the
        top 2 proposals has recall >= 0.9 and precision >= 0.6 (measured 10/10), and its profile
        reaches >= 0.9 of the oracle correlation (measured ratio 0.926-1.00). Per-seed figures
        are in the comment above this class.
        """
        top_recall_ok = 0
        for seed in range(10):
            x, names, kids, h = planted_factor(seed)
            stp = Stepper(LinearGaussianFamilies(x))
            props = propose_from_search(stp, x, names)
            top = props[0]
            prec, rec = member_stats(top.members, kids)
            corr = abs(np.corrcoef(top.profile, h)[0, 1])
            if seed in STRICT_SEEDS:
                assert prec >= 0.9 and rec >= 0.9 and corr >= 0.9, (seed, prec, rec, corr)
            top_recall_ok += rec >= 0.9
            d = np.column_stack([np.ones(len(h)), x[:, kids]])
            oracle = abs(np.corrcoef(d @ np.linalg.lstsq(d, h, rcond=None)[0], h)[0, 1])
            match = [p for p in props[:2] if member_stats(p.members, kids)[1] >= 0.9]
            assert match, seed
            p = match[0]
            assert member_stats(p.members, kids)[0] >= 0.6, seed
            assert abs(np.corrcoef(p.profile, h)[0, 1]) >= 0.9 * oracle, seed
        assert top_recall_ok >= 8

    def test_stronger_factor_top_proposal(self):
        """With load 1.5 (h explains ~69% of each child's variance), seeds 0-9: the top proposal
        is the planted cluster on every seed (recall 1.0, |corr| 0.935-0.974, oracle 0.945-0.980);
        the strict criterion holds on 7 (all but 2, 4, 9, which again carry 3, 3 and 1 network
        neighbours: precision 0.67, 0.67, 0.86). Asserted: recall >= 0.9 on all, strict on >= 7."""
        strict = 0
        for seed in range(10):
            x, names, kids, h = planted_factor(seed, load=1.5)
            top = propose_from_search(Stepper(LinearGaussianFamilies(x)), x, names)[0]
            prec, rec = member_stats(top.members, kids)
            corr = abs(np.corrcoef(top.profile, h)[0, 1])
            assert rec >= 0.9 and corr >= 0.9, seed
            strict += prec >= 0.9
        assert strict >= 7


# --------------------------------------------------------------------- explained_by, exclude
class TestExplainedAndExclude:
    @pytest.mark.parametrize("seed", STRICT_SEEDS)
    def test_existing_copy_of_profile_marks_cluster_explained(self, seed):
        x, names, kids, h = planted_factor(seed)
        rng = np.random.default_rng(99)
        xx = np.column_stack([x, h + 0.1 * rng.normal(size=h.size)])
        stp = Stepper(LinearGaussianFamilies(xx))
        top = propose_from_search(stp, xx, [*names, "COPY"], candidates=np.arange(N_PLANTED))[0]
        assert member_stats(top.members, kids)[1] >= 0.9
        assert top.closest == "COPY" and top.closest_corr >= 0.9
        assert top.explained_by == "COPY"
        # without the copy nothing explains the cluster
        plain = propose_from_search(Stepper(LinearGaussianFamilies(x)), x, names)[0]
        assert plain.explained_by is None and plain.closest_corr < 0.9

    def test_threshold_controls_explained_by(self):
        x, names, _, h = planted_factor(0)
        xx = np.column_stack([x, h + 0.1 * np.random.default_rng(1).normal(size=h.size)])
        stp = Stepper(LinearGaussianFamilies(xx))
        kw = {"candidates": np.arange(N_PLANTED)}
        top = propose_from_search(stp, xx, [*names, "COPY"], explained_threshold=0.999, **kw)[0]
        assert top.closest == "COPY" and top.explained_by is None

    def test_copy_inside_the_cluster_marks_it_explained(self):
        """Default candidates (all 31 variables): the near-copy of h joins the cluster (its profile
        is like the children's), and the cluster is marked explained by it (the member rule added
        in a35aad5; before, only variables outside the cluster were checked). Measured on seeds
        0-9: COPY is in the top proposal and marks it, on all ten."""
        for seed in range(10):
            x, names, _, h = planted_factor(seed)
            xx = np.column_stack([x, h + 0.1 * np.random.default_rng(99).normal(size=h.size)])
            top = propose_from_search(Stepper(LinearGaussianFamilies(xx)), xx, [*names, "COPY"])[0]
            assert "COPY" in top.names and top.explained_by == "COPY", seed

    def test_two_member_cluster_is_not_explained_by_a_member(self):
        """In a 2-member cluster each member correlates >= 0.707 with z*; the member rule needs > 2."""
        rng = np.random.default_rng(0)
        a = rng.normal(size=300)
        x = np.column_stack([a, a + 0.3 * rng.normal(size=300), rng.normal(size=(300, 3))])
        xc = x - x.mean(axis=0)
        props = propose_clusters(x, np.zeros((5, 5)), (xc**2).sum(axis=0), list("abcde"))
        assert props[0].names == ["a", "b"] and props[0].explained_by is None

    def test_constant_column_is_not_a_copy(self):
        """A constant column (e.g. a disconnected hidden variable's posterior mean) correlates 0
        with z*. Before a35aad5: closest_corr ~1e267 (z.xc / max(sd, 1e-300) with sd = 0)."""
        x, names, _, _ = planted_factor(0)
        xx = np.column_stack([x, np.full(x.shape[0], 0.3)])
        xc = xx - xx.mean(axis=0)
        top = propose_clusters(
            xx, np.zeros((31, 31)), (xc**2).sum(axis=0), [*names, "CONST"], candidates=np.arange(30)
        )[0]
        assert top.closest_corr <= 1.0 and top.explained_by is None

    @pytest.mark.parametrize("seed", [0, 3])
    def test_exclude_drops_the_rejected_cluster(self, seed):
        x, names, _, _ = planted_factor(seed)
        stp = Stepper(LinearGaussianFamilies(x))
        first = propose_from_search(stp, x, names)
        again = propose_from_search(stp, x, names, exclude={first[0].key})
        assert again and all(p.key != first[0].key for p in again)
        assert first[1].key in {p.key for p in again}

    def test_output_sorted_by_gain_after_exclude(self):
        """Proposals stay sorted by estimated gain after an exclusion, seeds 0-9. Before a35aad5 the
        rejected cluster's subtree was appended last (seed 1: gains 392, 281, 169, 91, 841)."""
        for seed in range(10):
            x, names, _, _ = planted_factor(seed)
            stp = Stepper(LinearGaussianFamilies(x))
            first = propose_from_search(stp, x, names)[0]
            gains = [p.estimated_gain for p in propose_from_search(stp, x, names, exclude={first.key})]
            assert gains == sorted(gains, reverse=True), seed

    def test_fewer_than_two_candidates(self):
        x, names, _, _ = planted_factor(0)
        stp = Stepper(LinearGaussianFamilies(x))
        with pytest.raises(ParameterError, match="at least 2 candidate"):
            propose_from_search(stp, x, names, candidates=np.array([3]))
        with pytest.raises(ParameterError):
            propose_from_search(stp, x, names, candidates=np.array([], dtype=int))
        with pytest.raises(ParameterError):
            propose_clusters(x, np.zeros((30, 30)), np.ones(30), names, min_size=1)
