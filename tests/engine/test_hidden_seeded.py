"""Seeded proposals (the iterative signature algorithm over ideal profiles) at genome scale (#22)."""

from __future__ import annotations

import numpy as np
import pytest

import engine.hidden.candidates as candidates
import engine.hidden.seeded as seeded
from engine.cpd.linear import LinearGaussianFamilies
from engine.data import from_array
from engine.hidden import HiddenSearch, propose_from_search
from engine.hidden.seeded import SEEDED, is_new, seeded_sets, standardized_profiles
from engine.search import Stepper


def on_off_table(seed: int, n: int, amp: float, m: int = 27, width: int = 40):
    """``width`` genes raised by ``amp`` sd in 3 of ``m`` conditions (an on/off driver D), every
    gene with unit noise: a weak, wide module (each gene correlates about 0.5-0.6 with D)."""
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(m, n))
    d = np.zeros(m)
    d[rng.choice(m, size=3, replace=False)] = 1.0
    x[:, :width] += amp * d[:, None]
    return x, d, [f"g{j:03d}" for j in range(n)]


def r(a, b) -> float:
    return abs(float(np.corrcoef(a, b)[0, 1]))


class TestSeededSets:
    def test_blocks_give_the_same_sets_and_each_set_is_a_fixed_point(self, monkeypatch):
        x, d, _ = on_off_table(0, 300, 2.5)
        y = standardized_profiles(x - x.mean(axis=0), np.zeros((300, 300)), np.arange(300))
        assert np.allclose(np.linalg.norm(y, axis=0), 1.0)
        whole = seeded_sets(y, limit=5)
        monkeypatch.setattr(seeded, "BLOCK_CELLS", 7 * 300)  # blocks of 7 seeds
        blocks = seeded_sets(y, limit=5)
        assert [s.tolist() for s, _ in whole] == [s.tolist() for s, _ in blocks]
        assert [lam for _, lam in whole] == pytest.approx([lam for _, lam in blocks])
        for k, (s, lam) in enumerate(whole):
            # independent check: lambda is the top squared singular value of the set's profiles,
            # and one more round from the set's first principal component (SVD) keeps the
            # module's set (chance sets at the margin may still swap members)
            u, sv, _ = np.linalg.svd(y[:, s], full_matrices=False)
            assert lam == pytest.approx(sv[0] ** 2, rel=1e-3)
            top = np.argsort(-np.abs(u[:, 0] @ y))[: s.size]
            assert len(set(top) & set(s)) >= (s.size - 1 if k == 0 else s.size // 2)
        assert np.mean(whole[0][0] < 40) > 0.6, "the strongest fixed point is the planted module"
        # distinct sets: no two with Jaccard >= 0.5
        for i, (s, _) in enumerate(whole):
            assert is_new(s, [set(t.tolist()) for t, _ in whole[:i]])

    def test_jaccard_rule(self):
        assert not is_new([1, 2, 3, 4], [{1, 2, 3, 5}]) and is_new([1, 2, 3, 4], [{1, 2, 5, 6}])


class TestWeakWideModule:
    def test_seeded_source_finds_what_linkage_misses(self):
        """Planted on/off module of 40 genes among 400 (empty network): no cluster of ideal
        profiles holds more than a few of its genes, the seeded source proposes most of them,
        first, with both estimates positive (so :meth:`HiddenSearch.auto` tries it)."""
        x, d, names = on_off_table(2, 400, 2.7)
        s = Stepper(LinearGaussianFamilies(x))
        plain = propose_from_search(s, x, names, min_size=3, seeded=False)
        assert all(sum(i < 40 for i in p.members) <= 3 and r(p.profile, d) < 0.6 for p in plain)
        props = propose_from_search(s, x, names, min_size=3, seeded=True)
        top = props[0]
        assert top.source == SEEDED and r(top.profile, d) > 0.9
        assert sum(i < 40 for i in top.members) >= 9 and np.mean(np.array(top.members) < 40) >= 0.9
        assert top.estimated_gain > 0 and top.complete_gain > 0

    def test_auto_keeps_the_module_only_with_the_seeded_source(self, monkeypatch):
        x, d, names = on_off_table(0, 500, 2.0)
        ds = from_array(x, names)
        regs = {"regulators": names[-40:]}
        hs = HiddenSearch(ds, seed=0, em_options=regs)
        hs.auto(max_hidden=1)
        assert [h.source for h in hs.hidden] == [SEEDED]
        kids = hs.hidden[0].children
        assert r(hs.hidden_profile("H1"), d) > 0.9 and sum(c < "g040" for c in kids) >= 0.8 * len(kids) >= 12
        monkeypatch.setattr(candidates, "SEEDED_MIN_VARS", 10**6)  # the source off: nothing kept
        off = HiddenSearch(ds, seed=0, em_options=regs)
        off.auto(max_hidden=1)
        assert off.hidden == []

    def test_null_proposes_nothing_auto_keeps(self):
        """500 independent genes: the seeded source still proposes its best sets, none is kept."""
        rng = np.random.default_rng(0)
        names = [f"g{j:03d}" for j in range(500)]
        ds = from_array(rng.normal(size=(27, 500)), names)
        hs = HiddenSearch(ds, seed=0, em_options={"regulators": names[:40]})
        hs.auto(max_hidden=2)
        assert hs.hidden == []
        props = hs.propose()
        assert any(p.source == SEEDED for p in props)
