"""Gene-set over-representation: hypergeometric p, Benjamini-Hochberg q (issue #23)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

from engine.enrichment import benjamini_hochberg, enrich, hypergeometric_p, network_enrichment
from engine.io.gene_sets import GeneSets, match_gene_sets


def gene_sets(sets: dict[str, list[str]]) -> GeneSets:
    return GeneSets(list(sets), [tuple(g) for g in sets.values()], [""] * len(sets), "test", "GMT")


class TestHypergeometricP:
    def test_hand_computed(self):
        # universe 10, set of 4, query of 3, all 3 in the set: C(4,3) C(6,0) / C(10,3) = 4/120
        assert hypergeometric_p(3, 4, 3, 10) == pytest.approx(4 / 120)
        # overlap 2 or more: [C(4,2) C(6,1) + C(4,3)] / C(10,3) = (36 + 4) / 120
        assert hypergeometric_p(2, 4, 3, 10) == pytest.approx(40 / 120)
        assert hypergeometric_p(0, 4, 3, 10) == pytest.approx(1.0)

    def test_against_scipy_elementwise(self):
        rng = np.random.default_rng(0)
        m = 2500
        n = rng.integers(1, 400, 200)
        big_n = rng.integers(1, 60, 200)
        k = np.array([rng.integers(1, min(a, b) + 1) for a, b in zip(n, big_n, strict=True)])
        got = hypergeometric_p(k, n, big_n, m)
        want = [
            sum(stats.hypergeom.pmf(j, m, a, b) for j in range(kk, min(a, b) + 1))
            for kk, a, b in zip(k, n, big_n, strict=True)
        ]
        np.testing.assert_allclose(got, want, rtol=1e-9, atol=1e-300)

    def test_edges_of_the_support_and_tiny_p(self):
        assert hypergeometric_p(0, 4, 3, 10) == pytest.approx(1.0)
        assert hypergeometric_p(4, 4, 3, 10) == 0.0  # more overlap than the query has
        k = np.array([1, 5, 40, 60])
        np.testing.assert_allclose(
            hypergeometric_p(k, 80, 60, 20000), stats.hypergeom.sf(k - 1, 20000, 80, 60), rtol=1e-9
        )
        assert hypergeometric_p(60, 80, 60, 20000) > 0  # about 1e-180, not rounded to 0
        assert hypergeometric_p(np.array([[1, 2], [2, 3]]), 5, 5, 50).shape == (2, 2)

    def test_many_blocks(self, monkeypatch):
        from engine import enrichment

        monkeypatch.setattr(enrichment, "_BLOCK", 7)  # one or two rows per block
        rng = np.random.default_rng(3)
        n, big_n = rng.integers(1, 30, 50), rng.integers(1, 30, 50)
        k = rng.integers(0, 30, 50)
        want = stats.hypergeom.sf(k - 1, 100, n, big_n)
        np.testing.assert_allclose(hypergeometric_p(k, n, big_n, 100), want, rtol=1e-9, atol=1e-300)


class TestBenjaminiHochberg:
    def test_hand_computed(self):
        p = [0.01, 0.04, 0.03, 0.20]
        # sorted 0.01, 0.03, 0.04, 0.20 -> 0.04, 0.06, 0.0533, 0.20 -> step-up minima 0.04, 0.0533, 0.0533, 0.20
        np.testing.assert_allclose(benjamini_hochberg(p), [0.04, 0.16 / 3, 0.16 / 3, 0.20])

    def test_untested_sets_count_as_p_one(self):
        p = np.array([0.001, 0.02, 0.5])
        full = benjamini_hochberg(np.concatenate([p, np.ones(7)]))
        np.testing.assert_allclose(benjamini_hochberg(p, n_tests=10), full[:3])

    def test_against_scipy(self):
        p = np.random.default_rng(1).uniform(size=300) ** 3
        np.testing.assert_allclose(benjamini_hochberg(p), stats.false_discovery_control(p, method="bh"))

    def test_capped_and_empty(self):
        assert benjamini_hochberg([0.9, 0.95]).max() <= 1.0
        assert benjamini_hochberg([]).size == 0
        with pytest.raises(ValueError, match="n_tests"):
            benjamini_hochberg([0.1, 0.2], n_tests=1)


class TestEnrich:
    def test_hand_computed_case(self):
        universe = [f"g{i}" for i in range(10)]
        sets = gene_sets({"A": ["g0", "g1", "g2", "g3"], "B": ["g4", "g5"], "C": ["g9", "absent"], "D": ["x"]})
        m = match_gene_sets(sets, universe)
        rows = enrich(m, {"H1": ["g0", "g1", "g2"]})["H1"]
        assert [r.set for r in rows] == ["A"]  # B, C do not overlap; D is not tested (no gene in the data)
        (a,) = rows
        assert (a.overlap, a.set_size, a.genes) == (3, 4, ("g0", "g1", "g2"))
        assert a.p == pytest.approx(4 / 120)
        assert a.q == pytest.approx(min(1.0, 4 / 120 * 3 / 1))  # 3 sets tested (A, B, C)

    def test_many_sets_against_scipy_and_bh(self):
        rng = np.random.default_rng(2)
        universe = [f"g{i}" for i in range(300)]
        sets = {f"S{i}": list(rng.choice(universe, size=rng.integers(5, 60), replace=False)) for i in range(80)}
        m = match_gene_sets(gene_sets(sets), universe)
        query = list(rng.choice(universe, size=25, replace=False))
        rows = enrich(m, {"q": query}, top=None)["q"]
        p_all = []
        for name, genes in sets.items():
            k = len(set(genes) & set(query))
            p_all.append(stats.hypergeom.sf(k - 1, 300, len(genes), 25))
            row = next((r for r in rows if r.set == name), None)
            assert (row is None) == (k == 0)
            if row is not None:
                assert row.overlap == k and row.p == pytest.approx(p_all[-1], rel=1e-9)
        q_all = stats.false_discovery_control(np.array(p_all), method="bh")
        for r in rows:
            assert r.q == pytest.approx(q_all[list(sets).index(r.set)], rel=1e-9)
        assert [r.p for r in rows] == sorted(r.p for r in rows)

    def test_top_and_empty_queries(self):
        universe = [f"g{i}" for i in range(20)]
        m = match_gene_sets(gene_sets({f"S{i}": [f"g{i}", f"g{i + 1}"] for i in range(15)}), universe)
        out = enrich(m, {"a": [f"g{i}" for i in range(10)], "b": [], "c": ["not a variable"]}, top=3)
        assert len(out["a"]) == 3 and out["b"] == [] and out["c"] == []


class TestNetworkEnrichment:
    def test_hidden_and_regulators(self):
        universe = [f"g{i}" for i in range(12)]
        m = match_gene_sets(gene_sets({"T1": ["g1", "g2", "g3"], "T2": ["g5", "g6"]}), universe)
        edges = [("H1", "g1"), ("H1", "g2"), ("H1", "g3"), ("g0", "g5"), ("g0", "g6"), ("g4", "g7"), ("g0", "H1")]
        hidden, regs = network_enrichment(m, edges, hidden=["H1", "H2"])
        assert [r.set for r in hidden["H1"]] == ["T1"] and hidden["H2"] == []
        assert hidden["H1"][0].p == pytest.approx(1 / math.comb(12, 3))
        assert [(r["regulator"], r["set"], r["n_children"]) for r in regs] == [("g0", "T2", 2)]
        assert set(regs[0]) == {"regulator", "n_children", "set", "overlap", "set_size", "p", "q", "genes"}
        # with a regulator list only the listed regulators are tested
        _, regs = network_enrichment(m, edges, regulators=["g4"])
        assert regs == []
