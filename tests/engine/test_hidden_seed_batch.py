"""Proposal seeds scored and pruned in stacks (#22 item 4): engine/hidden/seed_batch.py and
fit_batch.py against the one-at-a-time code they replace (``score_candidate`` then ``prune``,
``factor_fit``, ``model.fit``; kept here as the reference), set by set on small generated tables
with and without a regulator list, and proposal by proposal."""

from __future__ import annotations

import warnings
from functools import partial

import numpy as np
import pytest

from engine.cpd.linear import LinearGaussianFamilies
from engine.hidden import candidates, seed_batch
from engine.hidden.candidates import factor_fit, prune, score_candidate
from engine.hidden.fit_batch import FamilyTable
from engine.hidden.proposals import score_cluster
from engine.hidden.seed_batch import factor_fit_batch, score_seeds
from engine.score import BIC
from tests.engine.test_hidden_prune import candidate_sets, hidden_table


def reference_seeds(model, parents, sets, pruned, scorer, xc, min_size, *_):
    """The code before: each set scored, then pruned, one at a time."""
    out = []
    for s, p in zip(sets, pruned, strict=True):
        cs = score_candidate(model, parents, np.asarray(s, dtype=np.intp), scorer, xc)
        out.append(prune(cs, model, parents, scorer, xc, min_size) if p else cs)
    return out


def batched(model, parents, sets, pruned, scorer, xc, min_size):
    """score_seeds as propose_from_search calls it."""
    one = partial(candidates._one_seed, model, parents, scorer, xc, min_size)
    rules = (candidates.CandidateScore, candidates.MIN_LOADING)
    return score_seeds(model, parents, sets, pruned, scorer, xc, min_size, one, rules)


def assert_same(new, ref, atol: float = 1e-9):
    """The same candidate to rounding: members, drops, estimates, loadings, z*, removed edges
    (``atol`` on loadings: a member fitted exactly has residual cosines of rounding noise)."""
    assert len(new) == len(ref)
    for a, b in zip(new, ref, strict=True):
        assert a.members.tolist() == b.members.tolist()
        assert sorted(a.removed) == sorted(b.removed)
        assert a.gain == pytest.approx(b.gain, rel=1e-10, abs=1e-8)
        assert a.complete_gain == pytest.approx(b.complete_gain, rel=1e-10, abs=1e-8)
        assert a.removed_loss == pytest.approx(b.removed_loss, rel=1e-10, abs=1e-8)
        assert a.eigenvalue == pytest.approx(b.eigenvalue, rel=1e-10)
        np.testing.assert_allclose(a.loadings, b.loadings, atol=atol)
        np.testing.assert_allclose(a.c2_members, b.c2_members, rtol=1e-9, atol=1e-8)
        np.testing.assert_allclose(a.factor_loadings, b.factor_loadings, atol=atol)
        np.testing.assert_allclose(a.profile, b.profile, rtol=1e-9, atol=atol * np.abs(b.profile).max())


SEEDS = [(0, False), (2, True), (3, True), (4, False)]


class TestScoreSeeds:
    @pytest.mark.parametrize(("seed", "regs"), SEEDS)
    def test_equals_scoring_and_pruning_one_at_a_time(self, seed, regs, monkeypatch):
        """Every semi-clique, every parent's star and each of those joined with its neighbours
        (sets of 3 to ~30 members: pruned in stacks, the largest one at a time), pruned or only
        scored; small stacks so that sets of one size span several."""
        x, stp = hidden_table(seed, regulators=regs)
        parents, _, sets = candidate_sets(stp)
        sets += [np.asarray(s)[:3] for s in sets[:6]]  # seeds of three: never pruned below min_size
        xc = x - x.mean(axis=0)
        rng = np.random.default_rng(seed)
        pruned = [bool(rng.random() < 0.8) for _ in sets]
        monkeypatch.setattr(seed_batch, "SEED_CHUNK", 3)
        monkeypatch.setattr(seed_batch, "BATCH_MAX", 12)
        ref = reference_seeds(stp.model, parents, sets, pruned, stp.scorer, xc, 3)
        new = batched(stp.model, parents, sets, pruned, stp.scorer, xc, 3)
        assert_same(new, ref)
        dropped = sum(a.members.size < len(s) for a, s in zip(new, sets, strict=True))
        assert dropped > 3  # prune drops members of these sets
        assert any(len(s) > 12 for s in sets) and any(len(s) == 3 for s in sets)

    def test_one_seed_a_seed_of_three_and_min_size(self):
        x, stp = hidden_table(1, regulators=True)
        parents, _, sets = candidate_sets(stp)
        xc = x - x.mean(axis=0)
        for s in [sets[0], np.asarray(sets[0])[:3]]:  # a batch with one seed; a seed of three
            for min_size in (3, 4):
                args = (stp.model, parents, [s], [True], stp.scorer, xc, min_size)
                assert_same(batched(*args), reference_seeds(*args))

    def test_collinear_members_and_an_exact_fit(self):
        """Two members with the same values (residual cosine 1), a member that its outside parents
        explain exactly (residual of rounding noise), and a constant parent (model.fit's least squares)."""
        rng = np.random.default_rng(5)
        h = rng.normal(size=60)
        x = rng.normal(size=(60, 10))
        x[:, 2:7] += h[:, None]
        x[:, 3] = x[:, 2]
        x[:, 8] = 3.0
        x[:, 6] = x[:, 0] - 2.0 * x[:, 1]
        model = LinearGaussianFamilies(x)
        parents = [(), (), (0,), (0, 2), (1, 2, 3), (0, 8), (0, 1), (5, 6), (), (4, 5)]
        xc = x - x.mean(axis=0)
        sets = [np.array(s) for s in ([2, 3, 4], [2, 3, 4, 5, 7, 9], [4, 5, 6, 7], [0, 2, 3, 4, 5, 6, 7, 9], [2, 4, 5])]
        scorer = BIC(60)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # the constant parent's collinearity warning
            for pruned in (True, False):
                args = (model, parents, sets, [pruned] * len(sets), scorer, xc, 3)
                assert_same(batched(*args), reference_seeds(*args), atol=1e-6)


class TestFactorFitBatch:
    def test_equals_factor_fit_set_by_set_including_the_iteration_cap(self):
        """Sets with a strong common factor (loadings near 1: EM still moving after 60 iterations)
        stacked with sets that converge in 25-45; each stops where it stops alone. Also a stack of one."""
        rng = np.random.default_rng(0)
        m = 400
        for size in (3, 5, 8):
            corr, start = [], []
            for k in range(12):
                x = rng.normal(size=(m, size)) + (0.7, 1.0, 3.0)[k % 3] * rng.normal(size=(m, 1))
                c = np.corrcoef(x.T)
                lam, vec, _ = score_cluster(c, m)
                corr.append(c)
                start.append(vec * np.sqrt(lam / m))
            corr, start = np.array(corr), np.array(start)
            capped = [
                factor_fit(c, m, a, n_iter=60)[0] != factor_fit(c, m, a, n_iter=61)[0]
                for c, a in zip(corr, start, strict=True)
            ]
            assert any(capped) and not all(capped)
            for n_iter in (60, 2):
                gains, loads = factor_fit_batch(corr, m, start, n_iter=n_iter)
                for c, a, g, ld in zip(corr, start, gains, loads, strict=True):
                    ref_g, ref_a = factor_fit(c, m, a, n_iter=n_iter)
                    assert g == pytest.approx(ref_g, rel=1e-11, abs=1e-10)
                    np.testing.assert_allclose(ld, ref_a, atol=1e-12)
            g1, _ = factor_fit_batch(corr[:1], m, start[:1])
            assert g1[0] == pytest.approx(factor_fit(corr[0], m, start[0])[0], rel=1e-11)


class TestFamilyTable:
    def test_equals_model_fit(self, monkeypatch):
        """Coefficients and score terms of families with 0 to 4 parents, in stacks of 2, as model.fit
        gives them; a constant parent and a collinear pair go through model.fit's least squares."""
        rng = np.random.default_rng(3)
        x = rng.normal(size=(50, 9))
        x[:, 5] = x[:, 0] + x[:, 1]  # collinear with 0 and 1
        x[:, 6] = 2.0  # constant
        x[:, 7] = x[:, 2] - x[:, 3]  # an exact fit on (2, 3)
        model = LinearGaussianFamilies(x)
        scorer = BIC(50)
        keys = [(8, ()), (0, (1,)), (0, (6,)), (7, (2, 3)), (8, (0, 1, 5)), (8, (0, 1, 2)), (4, (0, 1, 2, 3))]
        keys += [(8, (2, 6)), (4, (1, 2)), (3, (0,)), (2, (1, 4, 8))]
        monkeypatch.setattr("engine.hidden.fit_batch.STACK_FLOATS", 8)
        table = FamilyTable(model, scorer)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            table.add(keys)
            for key in keys:
                fit = model.fit(*key)
                coefs, term = table[key]
                np.testing.assert_allclose(coefs, fit.params["coefficients"], rtol=1e-10, atol=1e-12)
                assert term == pytest.approx(scorer.family(fit), rel=1e-11)
                rows, vals = table.column(*key)
                assert rows.tolist() == [key[0], *key[1]]
                np.testing.assert_allclose(vals, [1.0, *(-np.asarray(fit.params["coefficients"]))], atol=1e-12)


class TestProposals:
    @pytest.mark.parametrize(("seed", "regs"), [(1, False), (3, True)])
    def test_same_proposals_in_the_same_order(self, seed, regs, monkeypatch):
        x, stp = hidden_table(seed, regulators=regs)
        names = [f"G{i}" for i in range(stp.n_vars)]
        kw = dict(min_size=3, n_proposals=8, explainers=np.arange(6) if regs else None)
        new = candidates.propose_from_search(stp, x, names, **kw)
        with monkeypatch.context() as mp:
            mp.setattr(candidates, "score_seeds", reference_seeds)
            ref = candidates.propose_from_search(stp, x, names, **kw)
        assert [(p.members, p.source) for p in new] == [(p.members, p.source) for p in ref]
        np.testing.assert_allclose([p.estimated_gain for p in new], [p.estimated_gain for p in ref], rtol=1e-9)
        np.testing.assert_allclose([p.common_variance for p in new], [p.common_variance for p in ref], rtol=1e-9)
        assert any("semi-clique" in p.source for p in new)
