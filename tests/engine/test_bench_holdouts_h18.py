"""Smoke cases of the eighteenth session's hold-out generators: ``h18g`` (benchmarks/planted_h18g.py,
through ``planted_general``) and ``h18m`` (benchmarks/bench_regulators_genome_h18.py).

They check each generator's contract (shapes and ranges, names, determinism, the planted structure
as its docstring says: the cascade h1 -> h2 with h2's observed parents, the hybrid children, 2-4
observed parents per child; R* regulated by two listed TFs, the overlapping second module, the
replicate groups, the library sizes and log2 CPM, a null without any hidden effect) on seeds outside
the hold-out ranges (1800-1809 and 1850-1859); they never run the search: the hold-outs' recovery is
measured once, at the end of the session, by the lead."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

import bench_regulators_genome_h18 as h18m  # noqa: E402
import planted_general as pg  # noqa: E402
import planted_h18g as ph  # noqa: E402
from test_bench_holdouts_mixed import _residual, _same_network_without_roots  # noqa: E402

#: seed indices of ``h18g`` (seeds 1890-1897), outside the hold-out's 1800-1809
G_SEEDS = tuple(range(90, 98))
#: outside the ``h18m`` hold-out's 1850-1859; a reduced table
M_SEED, COLS = 1890, 600


def _r(a: np.ndarray, b: np.ndarray) -> float:
    return float(np.corrcoef(a, b)[0, 1])


class TestH18g:
    def test_stays_runnable_after_its_session(self):
        """``h18g`` was the eighteenth session's hold-out; ``h29g`` the twenty-ninth's (test_bench_holdouts_h29)."""
        assert pg.HOLD_OUT == "h29g" and pg.SPECS["h18g"].seed0 == ph.SEED0 == 1800
        assert pg.OWN_MODULE["h18g"] is ph

    @pytest.mark.parametrize("seed", G_SEEDS)
    def test_shapes_and_the_cascade(self, seed):
        x, kids, hs = pg.generate_all("h18g", seed)
        m, n = x.shape
        assert 50 <= m <= 500 and m == ph.n_samples(seed) and 30 <= n <= 60 and n == pg.n_vars("h18g", seed)
        assert np.isfinite(x).all() and np.allclose(x.std(axis=0), 1.0)
        assert len(kids) == len(hs) == 2 and all(h.shape == (m,) for h in hs)
        net = ph.network(seed)
        hyb = set(net.hybrids)
        assert 0 <= len(hyb) <= 2 and hyb == kids[0] & kids[1]  # the hybrids are children of both
        assert 7 <= len(kids[0] - hyb) <= 14 and 7 <= len(kids[1]) <= 14
        rank = {int(v): i for i, v in enumerate(net.order)}
        assert all(rank[p] < rank[c] for p, c in pg.true_edges("h18g", seed))  # a DAG along its order
        assert all(rank[v] >= net.places[0] for v in kids[0]) and all(rank[v] >= net.places[1] for v in kids[1])
        assert all(rank[u] < net.places[1] for u in net.h2_parents) and not set(net.h2_parents) & (kids[0] | kids[1])
        indeg = np.count_nonzero(net.w, axis=0)
        assert all(2 <= indeg[v] <= 4 for v in kids[0] | kids[1])  # 2-4 observed parents per child
        for j in (0, 1):
            assert np.sum(net.c[j] ** 2) >= ph.MIN_LOAD2 - 1e-9 and set(np.flatnonzero(net.c[j]).tolist()) == kids[j]

    def test_seeds_vary(self):
        nets = [ph.network(s) for s in G_SEEDS + tuple(range(98, 110))]
        assert {len(n.h2_parents) for n in nets} == {0, 1, 2} and {len(n.hybrids) for n in nets} == {0, 1, 2}
        assert all(n.saturating for n in nets)
        ms = [ph.n_samples(s) for s in G_SEEDS]
        assert max(ms) > 3 * min(ms)

    @pytest.mark.parametrize("seed", G_SEEDS)
    def test_null_is_the_network_without_h(self, seed):
        _same_network_without_roots("h18g", seed)

    @pytest.mark.parametrize("seed", G_SEEDS)
    def test_h2_follows_h1_and_each_drives_its_children(self, seed):
        """h1 is skewed (on in a minority); h1 explains about ``from_h1`` of h2 and h1 with h2's
        observed parents about ``from_h1 + from_obs``; beyond their observed parents each hidden
        variable's own children follow it, h2's children follow h2 more than h1, and the other
        variables follow neither as much."""
        x, kids, (h1, h2) = pg.generate_all("h18g", seed)
        net, edges = ph.network(seed), pg.true_edges("h18g", seed)
        assert np.mean(h1**3) > 0.0  # right-skewed: the "on" state is the minority
        assert abs(_r(h1, h2) ** 2 - net.from_h1) < 0.2 and abs(_r(h1, h2)) < 0.8
        design = np.column_stack([np.ones(len(x)), h1, x[:, list(net.h2_parents)]])
        r2 = 1.0 - np.var(h2 - design @ np.linalg.lstsq(design, h2, rcond=None)[0])
        assert abs(r2 - net.from_h1 - net.from_obs) < 0.2 and r2 < 0.85
        planted = kids[0] | kids[1]
        others = [abs(_r(_residual(x, v, edges), h2)) for v in range(x.shape[1]) if v not in planted]
        for h, own in ((h1, kids[0]), (h2, kids[1])):
            r_kids = [abs(_r(_residual(x, v, edges), h)) for v in own]
            assert np.mean(np.array(r_kids) > 0.2) >= 0.7 and np.median(r_kids) > 3 * np.median(others)
        only2 = kids[1] - kids[0]
        on_2 = [abs(_r(_residual(x, v, edges), h2)) for v in only2]
        on_1 = [abs(_r(_residual(x, v, edges), h1)) for v in only2]
        assert np.median(on_2) > np.median(on_1)

    def test_children_are_explained_in_part(self):
        """A hidden parent explains c^2 / (1 + c^2) of a child: 20-50 % before the scaling up, and
        on average under 0.6 after it."""
        share = [c**2 / (1 + c**2) for s in G_SEEDS for row in ph.network(s).c for c in row[row != 0]]
        assert min(share) >= ph.H_SHARE[0] - 1e-9 and np.mean(share) < 0.6


@pytest.fixture(scope="module")
def table():
    return h18m.generate(M_SEED, n_cols=COLS)


@pytest.fixture(scope="module")
def null():
    return h18m.generate(M_SEED, True, n_cols=COLS)


def _cols(g: dict, names: set[str]) -> np.ndarray:
    return g["values"][:, [g["names"].index(x) for x in sorted(names)]]


def _pc1(v: np.ndarray) -> np.ndarray:
    z = (v - v.mean(axis=0)) / v.std(axis=0)
    return np.linalg.svd(z, full_matrices=False)[0][:, 0]


class TestH18m:
    def test_shapes_names_and_lists(self, table):
        g = table
        m = len(g["labels"])
        assert 24 <= m <= 60 and g["values"].shape == (m, COLS)
        assert len(set(g["names"])) == COLS and len(set(g["labels"])) == m and g["labels"] == sorted(g["labels"])
        assert all(re.fullmatch(r"BSU\d{5}", x) for x in g["names"])
        assert 100 <= len(g["regulators"]) <= 130 and set(g["regulators"]) <= set(g["names"])
        for x in (g["star_name"], g["second_name"]):  # both removed from table and list
            assert x not in g["names"] and x not in g["regulators"]
        assert set(g["star_parents"]) <= set(g["regulators"]) and len(set(g["star_parents"])) == 2
        assert 30 <= len(g["module"]) <= 50 and 15 <= len(g["module2"]) <= 25 and 5 <= len(g["overlap"]) <= 10
        assert g["overlap"] == g["module"] & g["module2"]
        assert 20 <= len(g["targets"][0]) <= 40 and not (g["module"] | g["module2"]) & g["targets"][0]
        assert not (g["module"] | g["module2"] | g["targets"][0]) & set(g["regulators"])

    def test_counts_per_million_with_library_sizes(self, table):
        """log2(CPM + 1) of Poisson counts: every row sums to a million, libraries 1.5-12 M reads
        over a wide range (the reduced table's genes are brighter: no cell floored at 0)."""
        v, depth = table["values"], table["depth"]
        assert np.isfinite(v).all() and v.min() >= 0.0 and (v == 0).mean() < 0.05
        assert np.allclose((2.0**v - 1.0).sum(axis=1), 1e6, rtol=1e-9)
        assert np.all((depth >= np.log(1.5e6)) & (depth <= np.log(12e6))) and np.ptp(depth) > np.log(3)

    def test_replicates_and_the_program(self, table):
        g = table
        sizes = np.bincount(g["group"])
        assert sizes.min() >= 1 and sizes.max() <= 3 and (sizes >= 2).any()
        stem = [re.sub(r"__\d+$", "", x) for x in g["labels"]]
        assert all(len({stem[i] for i in np.flatnonzero(g["group"] == k)}) == 1 for k in range(len(sizes)))
        on = [g["labels"].index(x) for x in g["on"]]
        assert 2 <= len(on) <= 4 and set(np.flatnonzero(np.isin(g["group"], g["group"][on]))) == set(on)
        d = g["drivers"][:, 0]
        assert np.median([abs(_r(c, d)) for c in _cols(g, g["targets"][0]).T]) > 0.3

    def test_r_star_its_two_regulators_and_the_second_module(self, table):
        g = table
        assert 0.3 <= g["star_r2"] <= 0.85
        assert abs(_r(_pc1(_cols(g, g["module"])), g["star"])) > 0.9  # a linear summary tracks R*
        assert abs(_r(_pc1(_cols(g, g["module2"] - g["overlap"])), g["second"])) > 0.8
        assert abs(_r(g["star"], g["second"])) < 0.5
        both = _cols(g, g["overlap"]).T
        assert np.median([abs(_r(c, g["star"])) for c in both]) > 0.3
        assert np.median([abs(_r(c, g["second"])) for c in both]) > 0.3
        only = _cols(g, g["module"] - g["overlap"]).T
        r = np.array([abs(_r(c, g["star"])) for c in only])
        assert np.median(r) > 0.4 and np.median(r) < 0.9  # combinatorial: R* explains a part of each

    def test_deterministic_and_null_has_no_hidden_effect(self, table, null):
        again = h18m.generate(M_SEED, n_cols=COLS)
        assert np.array_equal(again["values"], table["values"]) and again["labels"] == table["labels"]
        n = null
        assert n["names"] == table["names"] and n["regulators"] == table["regulators"] and n["on"] == []
        assert n["labels"] == table["labels"] and np.array_equal(n["depth"], table["depth"])
        for genes, act in ((table["module"], "star"), (table["module2"], "second")):
            assert np.median([abs(_r(c, table[act])) for c in _cols(n, genes).T]) < 0.3
        assert np.median([abs(_r(c, table["drivers"][:, 0])) for c in _cols(n, table["targets"][0]).T]) < 0.3
        tfs = [n["names"].index(x) for x in n["regulators"]]
        same = [_r(a, b) for a, b in zip(n["values"][:, tfs].T, table["values"][:, tfs].T, strict=True)]
        assert np.median(same) > 0.95  # the same TFs (the counts' draws and composition differ a little)

    def test_summary_counts_the_second_regulator(self):
        base = {"kept": 2, "false": 0, "listed": 0, "cpu": 10.0, "flagged": False, "enriched": True}
        base |= {"relayed": 2, "star": True, "fast": True, "best_star": 0.95, "best_drivers": [0.2]}
        base |= {"drivers": [False], "named": [""], "second": True, "second_enriched": True, "depth": 0, "r2": 0.6}
        text = h18m.summary("h18m", [base, base | {"second": False, "relayed": 1, "depth": 1}])
        assert "R2 recovered (|r| >= 0.9) on 1/2" in text and "kept Hs on the library depth 1" in text
        assert "both T1, T2 as parents on 1/2, one on 1/2" in text and "R* recovered (|r| >= 0.9) on 2/2" in text

    def test_full_width(self):
        g = h18m.generate(1891)
        assert 2000 <= g["values"].shape[1] <= 2500 and g["values"].shape[1] == len(g["names"])
