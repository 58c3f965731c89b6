"""Pruning and growing candidate sets without re-scoring member by member (#22 item 4): the kept
residual scatter and the batched neighbour screen of engine/hidden/prune.py against the
one-at-a-time computation they replace (kept here as the reference), drop by drop, neighbour by
neighbour, and proposal by proposal (the same sets, sources and order) on small generated tables."""

from __future__ import annotations

import numpy as np
import pytest

from engine.cpd.linear import LinearGaussianFamilies
from engine.hidden import candidates
from engine.hidden.candidates import MIN_LOADING, _skeleton, grow, prune, score_candidate
from engine.hidden.proposals import score_cluster
from engine.hidden.prune import MemberResiduals, grow_best, neighbour_screen, parent_matrix
from engine.hidden.semiclique import find_semicliques
from engine.search import Stepper


def hidden_table(seed: int, n: int = 36, m: int = 120, regulators: bool = False):
    """Two hidden drivers of 9 and 7 genes (loads +-0.7..1.4), a sparse random DAG among the
    genes on top, learned without the drivers: their children are tied by edges (semi-cliques
    with neighbours that the factor does not explain). With ``regulators`` the first 6 genes are
    the only allowed parents (the genome-scale shape)."""
    rng = np.random.default_rng(seed)
    h = rng.normal(size=(m, 2))
    x = rng.normal(size=(m, n))
    for d, kids in enumerate((range(6, 15), range(15, 22))):
        for c in kids:
            x[:, c] += rng.choice([-1, 1]) * rng.uniform(0.7, 1.4) * h[:, d]
    for c in range(1, n):  # a sparse random DAG on top (parents earlier in the order)
        pool = min(c, 6) if regulators else c
        for p in rng.choice(pool, size=min(pool, 3), replace=False):
            if rng.random() < 0.3:
                x[:, c] += rng.uniform(0.5, 1.0) * x[:, p]
    x = (x - x.mean(axis=0)) / x.std(axis=0)
    stp = Stepper(LinearGaussianFamilies(x), regulators=range(6) if regulators else None)
    stp.run()
    return x, stp


def reference_prune(cs, model, parents, scorer, xc, min_size=3):
    """The code before #22 item 4: every drop re-scores the whole set."""
    dropped = []
    while cs.members.size > min_size:
        j = int(np.argmin(np.abs(cs.factor_loadings)))
        if abs(cs.factor_loadings[j]) >= MIN_LOADING:
            break
        dropped.append(int(cs.members[j]))
        cs = score_candidate(model, parents, np.delete(cs.members, j), scorer, xc)
    return cs, dropped


def reference_screen(model, pmat, xc, near, inside, z):
    """The code before #22 item 4: one least-squares fit per neighbour."""
    corr = np.zeros(near.size)
    for k, v in enumerate(near):
        outs = tuple(int(p) for p in sorted(pmat[v].indices) if not inside[p])
        y = xc[:, v]
        if outs:
            y = y - xc[:, list(outs)] @ np.asarray(model.fit(int(v), outs).params["coefficients"], dtype=float)
        corr[k] = abs(float(y @ z)) / max(float(np.linalg.norm(y)), 1e-300)
    return corr


def candidate_sets(stp):
    """Every semi-clique of the learned skeleton and every parent with its children (a regulator's
    star, the genome-scale shape), each also joined with all its neighbours (sets with many weak
    members, as a grown set before its prune)."""
    parents = [tuple(stp.parents(c)) for c in range(stp.n_vars)]
    adj = _skeleton(parents)
    stars = [np.array([p, *(c for c in range(stp.n_vars) if p in parents[c])]) for p in range(stp.n_vars)]
    out = []
    for s in [*find_semicliques(adj), *(np.sort(s) for s in stars if s.size >= 4)]:
        out.append(np.asarray(s))
        near = np.flatnonzero(np.asarray(adj[s].sum(axis=0)).ravel() > 0)
        out.append(np.union1d(s, near))
    return parents, adj, out


SEEDS = [(0, False), (1, False), (2, True), (3, True), (4, False)]


class TestMemberResiduals:
    @pytest.mark.parametrize(("seed", "regs"), SEEDS)
    def test_cosines_after_each_drop_equal_a_fresh_score(self, seed, regs):
        x, stp = hidden_table(seed, regulators=regs)
        parents, _, sets = candidate_sets(stp)
        xc = x - x.mean(axis=0)
        rng = np.random.default_rng(seed)
        n_drops = 0
        for s in sets:
            res = MemberResiduals(stp.model, parents, s)
            members = s.copy()
            while members.size > 3:
                j = int(rng.integers(members.size))  # any position, not only the weakest
                cos = res.drop(j)
                members = np.delete(members, j)
                np.testing.assert_array_equal(res.members, members)
                np.testing.assert_allclose(cos, _fresh_cosines(stp.model, parents, members), rtol=0, atol=1e-10)
                fresh = score_candidate(stp.model, parents, members, stp.scorer, xc)
                assert score_cluster(cos, x.shape[0])[0] == pytest.approx(fresh.eigenvalue, rel=1e-10)
                n_drops += 1
        assert n_drops > 10

    @pytest.mark.parametrize(("seed", "regs"), SEEDS[:3])
    def test_kept_cosines_are_the_formula_on_the_kept_scatter(self, seed, regs):
        """The cosines drop() updates in place (only the changed members' rows and columns) are
        bit-equal to forming them again from the kept ``Y^T Y``, as cosines() did before."""
        _, stp = hidden_table(seed, regulators=regs)
        parents, _, sets = candidate_sets(stp)
        rng = np.random.default_rng(seed)
        changed = 0
        for s in sets:
            res = MemberResiduals(stp.model, parents, s)
            while res.size > 3:
                j = int(rng.integers(res.size))
                changed += bool(res.kids.get(int(res.members[j])))  # the drop changes other members' rows
                cos = res.drop(j)
                rss = np.maximum(np.diag(res.yty), 1e-300)
                full = np.clip(res.yty / np.sqrt(np.outer(rss, rss)), -1.0, 1.0)
                np.fill_diagonal(full, 1.0)
                np.testing.assert_array_equal(cos, full)
        assert changed > 10


def _fresh_cosines(model, parents, members):
    """The cosines of a set scored from scratch (the map and W^T S W that score_candidate forms)."""
    return MemberResiduals(model, parents, members).cosines()


class TestPrune:
    @pytest.mark.parametrize(("seed", "regs"), SEEDS)
    def test_same_set_and_score_as_rescoring_each_drop(self, seed, regs):
        x, stp = hidden_table(seed, regulators=regs)
        parents, _, sets = candidate_sets(stp)
        xc = x - x.mean(axis=0)
        total = 0
        for s in sets:
            cs = score_candidate(stp.model, parents, s, stp.scorer, xc)
            ref, dropped = reference_prune(cs, stp.model, parents, stp.scorer, xc)
            new = prune(cs, stp.model, parents, stp.scorer, xc)
            total += len(dropped)
            assert new.members.tolist() == ref.members.tolist()
            assert new.members.tolist() == [v for v in s.tolist() if v not in dropped]
            assert new.gain == pytest.approx(ref.gain, rel=1e-9, abs=1e-9)
            np.testing.assert_allclose(new.factor_loadings, ref.factor_loadings, atol=1e-8)
            assert sorted(new.removed) == sorted(ref.removed)
        assert total > 5  # the tables make prune drop members


class TestNeighbourScreen:
    @pytest.mark.parametrize(("seed", "regs"), SEEDS)
    def test_equals_one_fit_per_neighbour(self, seed, regs):
        x, stp = hidden_table(seed, regulators=regs)
        parents, adj, sets = candidate_sets(stp)
        pmat = parent_matrix(parents)
        xc = x - x.mean(axis=0)
        rng = np.random.default_rng(seed)
        for s in sets:
            inside = np.zeros(stp.n_vars, dtype=bool)
            inside[s] = True
            near = np.flatnonzero((np.asarray(adj[s].sum(axis=0)).ravel() > 0) & ~inside)
            z = rng.normal(size=x.shape[0])
            z -= z.mean()
            z /= np.linalg.norm(z)
            ref = reference_screen(stp.model, pmat, xc, near, inside, z)
            np.testing.assert_allclose(neighbour_screen(stp.model, pmat, xc, near, inside, z), ref, atol=1e-10)

    def test_chunks_and_collinear_parents(self, monkeypatch):
        """Chunks of 3 neighbours; one neighbour has a constant parent, so its chunk is fitted by
        model.fit (least squares, with its warning), the others in batches; one is an exact fit."""
        rng = np.random.default_rng(7)
        x = rng.normal(size=(80, 12))
        x[:, 1] = 3.0
        x[:, 10] = x[:, 0] - 2.0 * x[:, 2]  # an exact fit: its residual is formed from the values
        xc = x - x.mean(axis=0)
        parents = [(), (), (), (0, 1), (2,), (0, 2), (), (2, 4), (0, 2, 4), (5,), (0, 2), (3, 4)]
        model = LinearGaussianFamilies(x)
        pmat = parent_matrix(parents)
        inside = np.zeros(12, dtype=bool)
        inside[[4, 6]] = True
        near = np.array([3, 5, 7, 8, 9, 11, 10])
        z = xc[:, 6] / np.linalg.norm(xc[:, 6])
        monkeypatch.setattr("engine.hidden.prune.SCREEN_CHUNK", 3)
        with pytest.warns(Warning, match="collinear"):
            ref = reference_screen(model, pmat, xc, near, inside, z)
        np.testing.assert_allclose(neighbour_screen(model, pmat, xc, near, inside, z), ref, atol=1e-10)

    def test_parent_matrix_rows_are_the_parents(self):
        parents = [(), (0,), (0, 1), (), (1, 3)]
        pmat = parent_matrix(parents)
        assert [tuple(pmat[c].indices.tolist()) for c in range(5)] == parents


class TestProposals:
    @pytest.mark.parametrize(("seed", "regs"), SEEDS)
    def test_same_proposals_in_the_same_order(self, seed, regs, monkeypatch):
        x, stp = hidden_table(seed, regulators=regs)
        names = [f"G{i}" for i in range(stp.n_vars)]
        kw = dict(min_size=3, n_proposals=8, explainers=np.arange(6) if regs else None)
        new = candidates.propose_from_search(stp, x, names, **kw)
        grown_before = sum(p.source == candidates.GROWN for p in new)
        with monkeypatch.context() as mp:
            mp.setattr(candidates, "prune", lambda *a, **k: reference_prune(*a, **k)[0])
            mp.setattr(candidates, "neighbour_screen", reference_screen)
            ref = candidates.propose_from_search(stp, x, names, **kw)
        assert [(p.members, p.source) for p in new] == [(p.members, p.source) for p in ref]
        np.testing.assert_allclose([p.estimated_gain for p in new], [p.estimated_gain for p in ref], rtol=1e-9)
        np.testing.assert_allclose([p.common_variance for p in new], [p.common_variance for p in ref], rtol=1e-9)
        assert grown_before == sum(p.source == candidates.GROWN for p in ref)

    def test_the_tables_grow_sets(self):
        """At least one of the tables offers a grown set (so the screen decides something)."""
        grown = 0
        for seed, regs in SEEDS:
            x, stp = hidden_table(seed, regulators=regs)
            parents, adj, _ = candidate_sets(stp)
            xc = x - x.mean(axis=0)
            allowed = np.ones(stp.n_vars, dtype=bool)
            for s in find_semicliques(adj):
                cs = prune(score_candidate(stp.model, parents, s, stp.scorer, xc), stp.model, parents, stp.scorer, xc)
                g = grow(cs, stp.model, parents, stp.scorer, xc, adj, allowed)
                grown += g.members.size > cs.members.size
        assert grown > 0


class TestGrowMemo:
    @pytest.mark.parametrize(("seed", "regs"), SEEDS)
    def test_same_grown_sets_and_no_state_pruned_twice(self, seed, regs, monkeypatch):
        """grow with one memo for all seeds (as propose_from_search) gives each seed the set it
        grows alone, and prunes each distinct grown set once."""
        x, stp = hidden_table(seed, regulators=regs)
        parents, adj, _ = candidate_sets(stp)
        xc = x - x.mean(axis=0)
        allowed = np.ones(stp.n_vars, dtype=bool)
        seeds = [
            prune(score_candidate(stp.model, parents, s, stp.scorer, xc), stp.model, parents, stp.scorer, xc)
            for s in find_semicliques(adj)
        ]
        alone = [grow(cs, stp.model, parents, stp.scorer, xc, adj, allowed) for cs in seeds]
        pruned = []
        real = candidates.prune
        monkeypatch.setattr(
            candidates, "prune", lambda cs, *a, **k: pruned.append(cs.members.tolist()) or real(cs, *a, **k)
        )
        memo: dict = {}
        shared = [grow(cs, stp.model, parents, stp.scorer, xc, adj, allowed, memo=memo) for cs in seeds + seeds]
        for a, b in zip(alone + alone, shared, strict=True):
            assert a.members.tolist() == b.members.tolist()
            assert a.gain == pytest.approx(b.gain, rel=1e-12)
        assert len(pruned) == len({tuple(m) for m in pruned}) > 0  # each grown set pruned once
        before = len(pruned)
        grow(seeds[0], stp.model, parents, stp.scorer, xc, adj, allowed, memo=memo)
        assert len(pruned) == before  # a seed grown again costs nothing


class TestGrowBest:
    @staticmethod
    def seed(members, loadings, source="semi-clique"):
        cs = candidates.CandidateScore(
            np.array(members),
            0.0,
            0.0,
            np.zeros(len(members)),
            np.zeros(len(members)),
            np.zeros(3),
            [],
            0.0,
            np.array(loadings, dtype=float),
            0.0,
        )
        return cs, source

    def test_each_distinct_set_grown_once_and_unchanged_sets_left_out(self):
        seeds = [
            self.seed([0, 1, 2], [0.5, 0.5, 0.5]),
            self.seed([3, 4, 5], [0.9, 0.9, 0.9]),
            self.seed([0, 1, 2], [0.5, 0.5, 0.5], "profiles + semi-clique"),
            self.seed([6, 7, 8], [0.9, 0.9, 0.9], "profiles"),  # not a semi-clique: never grown
        ]
        calls = []

        def grow_one(cs):
            calls.append(cs.members.tolist())
            return cs if cs.members[0] == 3 else self.seed([*cs.members.tolist(), 9], [0.5] * 4)[0]

        out = grow_best(seeds, grow_one)
        assert calls == [[3, 4, 5], [0, 1, 2]]  # by common variance, each distinct set once
        assert sorted(out) == [0, 2] and out[0] is out[2]
        assert out[0].members.tolist() == [0, 1, 2, 9]

    def test_limit_grows_the_sets_with_most_common_variance(self):
        seeds = [self.seed([3 * k, 3 * k + 1, 3 * k + 2], [0.1 * (k + 1)] * 3) for k in range(5)]
        calls = []
        grow_best(seeds, lambda cs: calls.append(int(cs.members[0])) or cs, limit=2)
        assert calls == [12, 9]
