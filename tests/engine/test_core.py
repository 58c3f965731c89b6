"""Core identities of the linear-Gaussian engine, checked against independent computations.

Issue #2 item 8: C1 <= C2 <= exact gain; exact gain = least-squares refit difference; family BIC =
independent numpy computation; ideal with K >= N-1 follows greedy's trajectory; planted structure
recovered; plus DAG reachability and the stepper's API contracts.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.cpd.linear import LinearGaussianFamilies
from engine.dag import DAG
from engine.exceptions import CycleError, ParameterError
from engine.ideal import c1, c2, ideal_profile, replace_ideal_profile, similarity_matrix
from engine.learn import IdealParentSearch
from engine.score import BIC
from engine.search import Operator, Stepper
from engine.synth import random_network, sample_dataset


def ml_loglik(x: np.ndarray, u: np.ndarray) -> float:
    """Independent ML log-likelihood of a linear-Gaussian family by np.linalg.lstsq."""
    m = len(x)
    d = np.column_stack([np.ones(m), u]) if u.size else np.ones((m, 1))
    beta = np.linalg.lstsq(d, x, rcond=None)[0]
    rss = float(np.sum((x - d @ beta) ** 2))
    return -0.5 * m * (math.log(2 * math.pi * rss / m) + 1.0)


def network_bic(values: np.ndarray, edges) -> float:
    m, n = values.shape
    total = 0.0
    for c in range(n):
        ps = sorted(p for p, cc in edges if cc == c)
        total += ml_loglik(values[:, c], values[:, ps]) - 0.5 * math.log(m) * (len(ps) + 2)
    return total


@st.composite
def family_data(draw):
    m = draw(st.integers(8, 60))
    k = draw(st.integers(0, 3))
    seed = draw(st.integers(0, 10_000))
    shift = draw(st.floats(-3, 3))
    rng = np.random.default_rng(seed)
    u = rng.normal(size=(m, k))
    z = rng.normal(size=(m, 4)) + shift  # candidates with a non-zero mean
    x = u @ rng.normal(size=k) + z @ rng.normal(size=4) * 0.5 + rng.normal(size=m)
    return x, u, z


class TestBounds:
    @settings(max_examples=60, deadline=None)
    @given(family_data(), st.booleans())
    def test_c1_le_c2_le_exact(self, data, centred):
        x, u, z = data
        m = len(x)
        d = np.column_stack([np.ones(m), u])
        beta = np.linalg.lstsq(d, x, rcond=None)[0]
        y = ideal_profile(x, u, beta[1:], beta[0])
        base = ml_loglik(x, u)
        for j in range(z.shape[1]):
            exact = ml_loglik(x, np.column_stack([u, z[:, j]])) - base
            a, b = float(c1(y, z[:, j], centred=centred)), float(c2(y, z[:, j], centred=centred))
            assert a <= b + 1e-7 * max(1, abs(b))
            assert b <= exact + 1e-6 * max(1, abs(exact))

    def test_c1_formula_and_prop_3_3(self):
        rng = np.random.default_rng(0)
        y, z = rng.normal(size=50), rng.normal(size=50)
        s2 = 0.7
        assert c1(y, z, sigma2=s2, centred=False) == pytest.approx((y @ z) ** 2 / (2 * s2 * (z @ z)))
        cos2 = (y @ z) ** 2 / ((y @ y) * (z @ z))
        assert c1(y, z, centred=False) == pytest.approx(50 / 2 * cos2)
        assert c2(y, z, centred=False) == pytest.approx(-50 / 2 * math.log(1 - cos2))

    def test_similarity_matrix_equals_loops(self):
        rng = np.random.default_rng(1)
        ys, zs = rng.normal(size=(40, 3)), rng.normal(size=(40, 5))
        m1, m2 = similarity_matrix(ys, zs)
        for f in range(3):
            np.testing.assert_allclose(m1[f], c1(ys[:, f], zs))
            np.testing.assert_allclose(m2[f], c2(ys[:, f], zs))

    def test_replace_ideal_profile(self):
        rng = np.random.default_rng(2)
        y, u = rng.normal(size=20), rng.normal(size=20)
        np.testing.assert_allclose(replace_ideal_profile(y, u, 0.3), y + 0.3 * u)


class TestLinearFamilies:
    @pytest.fixture()
    def data(self):
        rng = np.random.default_rng(3)
        x = rng.normal(size=(120, 6))
        x[:, 0] += 0.8 * x[:, 1] - 0.5 * x[:, 2]
        x[:, 3] += 1.5  # a variable with a large mean (centring matters)
        return x

    def test_fit_equals_lstsq(self, data):
        fam = LinearGaussianFamilies(data)
        for parents in [(), (1,), (1, 2), (2, 3, 5)]:
            fit = fam.fit(0, parents)
            assert fit.loglik == pytest.approx(ml_loglik(data[:, 0], data[:, list(parents)]), rel=1e-10)
            d = np.column_stack([np.ones(120), data[:, list(parents)]])
            beta = np.linalg.lstsq(d, data[:, 0], rcond=None)[0]
            assert fit.params["intercept"] == pytest.approx(beta[0])
            np.testing.assert_allclose(fit.params["coefficients"], beta[1:], rtol=1e-8, atol=1e-10)

    def test_exact_add_replace_delete_equal_refits(self, data):
        fam = LinearGaussianFamilies(data)
        parents = (1, 2)
        base = ml_loglik(data[:, 0], data[:, [1, 2]])
        cand = np.array([3, 4, 5])
        expect = [ml_loglik(data[:, 0], data[:, [1, 2, j]]) - base for j in cand]
        np.testing.assert_allclose(fam.exact_add(0, parents, cand), expect, rtol=1e-8)
        expect = [ml_loglik(data[:, 0], data[:, [2, j]]) - base for j in cand]
        np.testing.assert_allclose(fam.exact_replace(0, parents, 0, cand), expect, rtol=1e-8)
        expect = [ml_loglik(data[:, 0], data[:, [2]]) - base, ml_loglik(data[:, 0], data[:, [1]]) - base]
        np.testing.assert_allclose(fam.delete_gains(0, parents), expect, rtol=1e-8)

    def test_add_and_replace_measures_bound_the_exact_gain(self, data):
        fam = LinearGaussianFamilies(data)
        for parents in [(), (1,), (1, 2)]:
            a1, a2 = fam.add_similarity(0, parents)
            cand = np.array([j for j in range(1, 6) if j not in parents])
            ex = fam.exact_add(0, parents, cand)
            assert np.all(a1[cand] <= a2[cand] + 1e-9) and np.all(a2[cand] <= ex + 1e-9)
            assert np.isnan(a1[0]) and all(np.isnan(a1[p]) for p in parents)
            r1, r2 = fam.replace_similarity(0, parents)
            for i in range(len(parents)):
                exr = fam.exact_replace(0, parents, i, cand)
                assert np.all(r1[i, cand] <= r2[i, cand] + 1e-9) and np.all(r2[i, cand] <= exr + 1e-9)

    def test_family_bic(self, data):
        fam = LinearGaussianFamilies(data)
        fit = fam.fit(0, (1, 2))
        expect = ml_loglik(data[:, 0], data[:, [1, 2]]) - 0.5 * math.log(120) * 4
        assert BIC(120).family(fit) == pytest.approx(expect)

    def test_duplicated_column_stays_finite(self, data):
        x = np.column_stack([data, data[:, 1]])
        fam = LinearGaussianFamilies(x)
        assert np.isfinite(fam.exact_add(0, (1,), np.array([6]))).all()
        r = Stepper(fam).run()
        assert np.isfinite(r.score)


class TestDAG:
    def test_reach_matches_closure_under_random_moves(self):
        rng = np.random.default_rng(0)
        for _ in range(100):
            d = DAG(7)
            for _ in range(30):
                p, c = (int(v) for v in rng.integers(7, size=2))
                if d.has_edge(p, c):
                    if rng.random() < 0.5:
                        d.remove_edge(p, c)
                    else:
                        legal = bool(d.reversal_mask(np.array([p]), np.array([c]))[0])
                        probe = d.copy()
                        probe.remove_edge(p, c)
                        assert legal == probe.can_add(c, p)
                        if legal:
                            d.reverse_edge(p, c)
                elif d.can_add(p, c):
                    d.add_edge(p, c)
                assert d.check_reach()

    def test_cycles_refused(self):
        d = DAG(3, [(0, 1), (1, 2)])
        assert not d.can_add(2, 0)
        with pytest.raises(CycleError):
            d.add_edge(2, 0)
        with pytest.raises(CycleError):
            DAG(2, [(0, 1), (1, 0)])


@pytest.fixture(scope="module")
def synth12():
    net = random_network(12, seed=5)
    return net, sample_dataset(net, 300, seed=6)


class TestStepper:
    def test_each_move_changes_the_bic_by_its_delta(self, synth12):
        _, ds = synth12
        x = ds.values
        s = Stepper(LinearGaussianFamilies(x), method="ideal", k=2)
        before = network_bic(x, s.edges())
        for _ in range(15):
            r = s.step()
            if r.move is None:
                break
            after = network_bic(x, s.edges())
            assert after - before == pytest.approx(r.move.delta_bic, rel=1e-7, abs=1e-7)
            assert s.score == pytest.approx(after, rel=1e-9)
            assert s.dag.check_reach()
            before = after

    def test_undo_reset_and_statuses(self, synth12):
        _, ds = synth12
        s = Stepper(LinearGaussianFamilies(ds.values), method="greedy")
        start = s.score
        first = s.step().move
        score1, edges1 = s.score, s.edges()
        s.step()
        assert s.undo() is not None
        assert s.score == pytest.approx(score1) and s.edges() == edges1
        again = s.step().move
        assert s.score > score1
        s.reset()
        assert s.n_iter == 0 and s.edges() == [] and s.score == pytest.approx(start)
        assert s.step().move == first
        res = s.run(max_steps=2)
        assert res.status == 2 and res.n_iter == 3
        res = s.run()
        assert res.status == 1 and res.converged
        del again

        def stop(intermediate_result):
            raise StopIteration

        s.reset()
        assert s.run(callback=stop).status == -2

    def test_constraints(self, synth12):
        _, ds = synth12
        s = Stepper(LinearGaussianFamilies(ds.values), max_parents=1, required=[(0, 1)], forbidden=[(2, 3), (3, 2)])
        r = s.run()
        assert (0, 1) in r.edges
        assert (2, 3) not in r.edges and (3, 2) not in r.edges
        assert max(len(s.parents(c)) for c in range(12)) <= 1
        with pytest.raises(ParameterError):
            Stepper(LinearGaussianFamilies(ds.values), required=[(0, 1)], forbidden=[(0, 1)])
        for bad in ({"k": 0}, {"method": "x"}, {"measure": "c3"}, {"max_parents": -1}, {"queue": "no"}):
            with pytest.raises(ParameterError):
                Stepper(LinearGaussianFamilies(ds.values), **bad)

    def test_propose_table(self, synth12):
        _, ds = synth12
        s = Stepper(LinearGaussianFamilies(ds.values), method="ideal", k=2)
        s.run(max_steps=5)
        t = s.propose()
        add = t.op == Operator.ADD
        for c, p in zip(t.child[add], t.parent[add], strict=True):
            assert s.dag.can_add(int(p), int(c))
        per_family = {}
        for c, sel, op in zip(t.child, t.selected, t.op, strict=True):
            if op in (Operator.ADD, Operator.REPLACE) and sel:
                per_family[c] = per_family.get(c, 0) + 1
        assert max(per_family.values()) <= 2
        n_exact = s.n_exact
        full = s.evaluate_all(t)
        assert s.n_exact == n_exact
        ok = np.isfinite(full.c1)
        assert np.isfinite(full.delta_loglik[ok]).all()
        assert np.all(full.c1[ok] <= full.c2[ok] + 1e-9)
        assert np.all(full.c2[ok] <= full.delta_loglik[ok] + 1e-7)

    @pytest.mark.parametrize("seed", [0, 1, 2])
    def test_ideal_with_large_k_follows_greedy(self, seed):
        net = random_network(10, seed=seed)
        ds = sample_dataset(net, 250, seed=seed + 10)
        g = Stepper(LinearGaussianFamilies(ds.values), method="greedy").run()
        moves = [(m.op, m.parent, m.child, m.removed) for m in g.history]
        for kw in ({"k": 9, "queue": "per_operator"}, {"k": 100, "queue": "shared"}):
            r = Stepper(LinearGaussianFamilies(ds.values), method="ideal", **kw).run()
            assert [(m.op, m.parent, m.child, m.removed) for m in r.history] == moves
            assert r.score == pytest.approx(g.score)

    def test_ideal_uses_fewer_exact_evaluations(self):
        net = random_network(15, seed=7)
        ds = sample_dataset(net, 300, seed=8)
        g = Stepper(LinearGaussianFamilies(ds.values), method="greedy").run()
        i = Stepper(LinearGaussianFamilies(ds.values), method="ideal", k=2).run()
        assert i.n_exact < g.n_exact / 3


def skeleton_f1(learned, true) -> float:
    a = {frozenset(e) for e in learned}
    b = {frozenset(e) for e in true}
    tp = len(a & b)
    return 2 * tp / (len(a) + len(b))


def test_planted_structure_recovered():
    """Skeleton F1 >= 0.9 for N=20, M=2000 (issue #2), averaged over five random networks
    (``random_network(20, expected_parents=1.2, signal=0.4, seed=s)``, s = 0..4). Plain hill
    climbing scored 0.87-1.00 per network (mean 0.92); with 5 random restarts 0.87-1.00
    (mean 0.95). Asserted: the mean with restarts >= 0.9 and every network >= 0.8."""
    scores = []
    for seed in range(5):
        net = random_network(20, expected_parents=1.2, signal=0.4, seed=seed)
        ds = sample_dataset(net, 2000, seed=100 + seed)
        est = IdealParentSearch(method="ideal", k=5, n_restarts=5, random_state=seed).fit(ds)
        scores.append(skeleton_f1(est.stepper_.edges(), net.edge_index()))
    assert np.mean(scores) >= 0.9
    assert min(scores) >= 0.8
