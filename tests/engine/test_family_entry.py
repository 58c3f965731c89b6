"""Rankings and exact gains in memory that grows with the edges (issue #11, deliverables 2 and 3)."""

from __future__ import annotations

import numpy as np
import pytest

from engine.cpd.linear import LinearGaussianFamilies
from engine.search import Stepper
from engine.search import family_entry as fe
from engine.search.family_entry import Gains, RankCache
from engine.synth import random_network, sample


@pytest.fixture(scope="module")
def values() -> np.ndarray:
    return sample(random_network(30, seed=3), 300, seed=4)


def trajectory(stepper: Stepper) -> list:
    stepper.run()
    return [(m.op, m.parent, m.child, m.removed, m.rank, m.delta_loglik) for m in stepper.history]


class TestGains:
    @pytest.mark.parametrize(("n", "dense"), [(10, True), (10, False), (1000, False)])
    def test_unknown_is_nan_and_values_come_back(self, n, dense):
        g = Gains(n, dense)
        assert np.isnan(g[3])
        assert np.isnan(g[np.array([1, 2])]).all()
        g[np.array([7, 2])] = np.array([0.5, -1.0])
        g[4] = 2.0
        g[np.array([2])] = np.array([3.0])  # overwrite
        np.testing.assert_array_equal(g[np.array([2, 4, 7, 9])], [3.0, 2.0, 0.5, np.nan])
        assert g[7] == 0.5
        mask = np.zeros(n, dtype=bool)
        mask[[4, 7]] = True
        np.testing.assert_array_equal(g[mask], [2.0, 0.5])
        # a dict of the few scored while small (1000 variables), a dense vector once many are scored
        assert (g._dense is None) == (n == 1000)
        many = np.arange(5, n, max(n // 100, 1))[:100]
        g[many] = np.arange(float(many.size))
        assert g._dense is not None
        np.testing.assert_array_equal(g[np.array([2, 4, many[-1]])], [3.0, 2.0, many.size - 1.0])


class TestRankCache:
    def test_least_recently_used_dropped_beyond_budget(self):
        cache = RankCache(budget=3 * 80)
        made = []

        def make(i):
            made.append(i)
            return (np.zeros(10) + i,)

        for i in range(4):
            cache.get(i, lambda i=i: make(i))
        assert cache.nbytes <= 3 * 80
        cache.get(3, lambda: make(-1))  # kept: not recomputed
        cache.get(0, lambda: make(0))  # dropped first: recomputed
        assert made == [0, 1, 2, 3, 0]


class TestBoundedRankings:
    def test_tiny_rank_budget_gives_the_same_search(self, values, monkeypatch):
        full = trajectory(Stepper(LinearGaussianFamilies(values), score="bic"))
        monkeypatch.setattr(fe, "RANK_BYTES", 2000)  # two or three rankings: the rest recomputed
        small = Stepper(LinearGaussianFamilies(values), score="bic")
        assert small.rank_cache.budget == 2000
        assert trajectory(small) == full
        assert small.rank_cache.nbytes <= 2000

    def test_sparse_exact_gains_give_the_same_search(self, values, monkeypatch):
        full = Stepper(LinearGaussianFamilies(values), score="bic")
        moves = trajectory(full)
        monkeypatch.setattr(fe, "DENSE_GAINS_VARS", 0)
        sparse = Stepper(LinearGaussianFamilies(values), score="bic")
        assert trajectory(sparse) == moves
        assert sparse.n_exact == full.n_exact

    def test_sparse_reversal_cache_gives_the_same_search(self, values, monkeypatch):
        from engine.search import reversal

        moves = trajectory(Stepper(LinearGaussianFamilies(values), score="bic"))
        monkeypatch.setattr(reversal, "DENSE_VARS", 0)
        sparse = Stepper(LinearGaussianFamilies(values), score="bic")
        assert sparse.reversals._table is None
        assert trajectory(sparse) == moves


class TestRegulatorColumns:
    def test_rankings_on_columns_equal_the_full_ones(self, values):
        model = LinearGaussianFamilies(values)
        cols = np.array([0, 2, 5, 11, 17, 29])
        for child, parents in [(3, ()), (5, (0, 11)), (20, (2, 7, 29))]:
            whole = (*model.add_similarity(child, parents), *model.replace_similarity(child, parents))
            on_cols = (
                *model.add_similarity(child, parents, cols=cols),
                *model.replace_similarity(child, parents, cols=cols),
            )
            for full, part in zip(whole, on_cols, strict=True):
                assert part.shape[-1] == cols.size
                np.testing.assert_allclose(part, full[..., cols], rtol=1e-12, atol=1e-12)

    def test_regulator_search_equals_forbidding_the_others(self, values):
        regs = list(range(0, 30, 4))
        forbidden = [(p, c) for p in range(30) if p not in regs for c in range(30) if c != p]
        a = Stepper(LinearGaussianFamilies(values), score="bic", regulators=regs)
        b = Stepper(LinearGaussianFamilies(values), score="bic", forbidden=forbidden)
        assert [m[:5] for m in trajectory(a)] == [m[:5] for m in trajectory(b)]
        assert a.score == pytest.approx(b.score, rel=1e-12)
        assert (a.n_exact, a.n_ranked) == (b.n_exact, b.n_ranked)
        # the families rank only the R candidate columns
        e = a.entry(1)
        assert all(m.shape[-1] == len(regs) for m in e.measures())
        assert e.add_c2.shape == (30,) and np.isnan(e.add_c2[1])
