"""Smoke cases of the nineteenth session's hold-out generators: ``h19g`` (benchmarks/planted_h19g.py,
through ``planted_general``) and ``h19m`` (benchmarks/bench_regulators_genome_h19.py).

They check each generator's contract (shapes and ranges, names, determinism, the planted structure as
its docstring says: the mediator h with its observed parents, the incoherent direct edges against the
mediated path, the cofactor-gated children; R*'s module in whole operons of adjacent genes, a repressed
majority, the array bias and outlier arrays, cells missing below detection, a null without any hidden
effect) on seeds outside the hold-out ranges (1900-1909 and 1950-1959); they never run the search: the
hold-outs' recovery is measured once, at the end of the session, by the lead."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

import bench_regulators_genome_h19 as h19m  # noqa: E402
import planted_general as pg  # noqa: E402
import planted_h19g as ph  # noqa: E402
from _holdout_tables import same_table  # noqa: E402
from test_bench_holdouts_mixed import _residual, _same_network_without_roots  # noqa: E402

#: seed indices of ``h19g`` (seeds 1990-1997), outside the hold-out's 1900-1909
G_SEEDS = tuple(range(90, 98))
#: outside the ``h19m`` hold-out's 1950-1959; a reduced table
M_SEED, COLS = 1990, 600


def _r(a: np.ndarray, b: np.ndarray) -> float:
    return float(np.corrcoef(a, b)[0, 1])


class TestH19g:
    def test_stays_runnable_after_its_session(self):
        """``h19g`` was the nineteenth session's hold-out; ``h29g`` the twenty-ninth's (test_bench_holdouts_h29)."""
        assert pg.HOLD_OUT == "h29g" and pg.SPECS["h19g"].seed0 == ph.SEED0 == 1900
        assert pg.OWN_MODULE["h19g"] is ph and "h18g" in pg.SPECS

    @pytest.mark.parametrize("seed", G_SEEDS)
    def test_shapes_and_the_motifs(self, seed):
        x, kids, hs = pg.generate_all("h19g", seed)
        m, n = x.shape
        assert 40 <= m <= 600 and m == ph.n_samples(seed) and 35 <= n <= 70 and n == pg.n_vars("h19g", seed)
        assert np.isfinite(x).all() and np.allclose(x.std(axis=0), 1.0)
        assert len(kids) == len(hs) == 1 and hs[0].shape == (m,) and 4 <= len(kids[0]) <= 20
        net = ph.network(seed)
        rank = {int(v): i for i, v in enumerate(net.order)}
        assert all(rank[p] < rank[c] for p, c in pg.true_edges("h19g", seed))  # a DAG along its order
        assert all(rank[v] >= net.place for v in kids[0])
        before = set(net.parents) | {net.cofactor}
        assert len(before) == len(net.parents) + 1 and all(rank[u] < net.place for u in before)
        assert not before & kids[0] and set(net.iffl) <= kids[0] and set(net.gated) <= kids[0]
        u1, a1 = net.parents[0], net.a[0]
        for v in net.iffl:  # the direct arm opposes the mediated one
            assert net.w[u1, v] != 0.0 and np.sign(net.w[u1, v]) == -np.sign(a1 * net.c[v])
        assert all(net.w[net.cofactor, v] != 0.0 for v in net.gated)
        assert np.sum(net.c**2) >= ph.MIN_LOAD2 - 1e-9 and set(np.flatnonzero(net.c).tolist()) == kids[0]

    def test_seeds_vary(self):
        nets = [ph.network(s) for s in G_SEEDS + tuple(range(98, 110))]
        assert {len(n.parents) for n in nets} == {1, 2} and all(n.iffl and n.gated for n in nets)
        degree = [np.count_nonzero(n.w) / len(n.order) for n in nets]
        assert min(degree) > 1.2  # denser than the seen generators' base DAGs
        ms = [ph.n_samples(s) for s in G_SEEDS]
        assert max(ms) > 3 * min(ms)

    @pytest.mark.parametrize("seed", G_SEEDS)
    def test_null_is_the_network_without_h(self, seed):
        _same_network_without_roots("h19g", seed)

    @pytest.mark.parametrize("seed", G_SEEDS)
    def test_h_follows_its_parents_and_drives_its_children(self, seed):
        """h's observed parents explain about R^2 of it (at most 0.75); beyond their observed parents
        h's children follow h, far more than the other variables do; a linear summary of the children
        tracks h."""
        x, kids, (h,) = pg.generate_all("h19g", seed)
        net, edges = ph.network(seed), pg.true_edges("h19g", seed)
        design = np.column_stack([np.ones(len(x)), x[:, list(net.parents)]])
        r2 = 1.0 - np.var(h - design @ np.linalg.lstsq(design, h, rcond=None)[0])
        assert abs(r2 - net.r2) < 0.2 and r2 < 0.75
        r_kids = [abs(_r(_residual(x, v, edges), h)) for v in kids[0]]
        others = [abs(_r(_residual(x, v, edges), h)) for v in range(x.shape[1]) if v not in kids[0]]
        assert np.mean(np.array(r_kids) > 0.2) >= 0.7 and np.median(r_kids) > 3 * np.median(others)
        design = np.column_stack([np.ones(len(x)), x[:, sorted(kids[0])]])
        assert abs(_r(design @ np.linalg.lstsq(design, h, rcond=None)[0], h)) > 0.85

    def test_the_gate_modulates(self):
        q = np.linspace(-3.0, 3.0, 61)
        g = ph.gate(q, 3.0, 0.0)
        assert g.min() >= ph.GATE_FLOOR and g.max() <= 2.0 - ph.GATE_FLOOR and np.all(np.diff(g) > 0)
        assert g[-1] > 5 * g[0]


@pytest.fixture(scope="module")
def table():
    return h19m.generate(M_SEED, n_cols=COLS)


@pytest.fixture(scope="module")
def null():
    return h19m.generate(M_SEED, True, n_cols=COLS)


def _cols(g: dict, names: set[str]) -> np.ndarray:
    v = g["values"][:, [g["names"].index(x) for x in sorted(names)]]
    return np.where(np.isnan(v), np.nanmean(v, axis=0), v)


def _pc1(v: np.ndarray) -> np.ndarray:
    z = (v - v.mean(axis=0)) / v.std(axis=0)
    return np.linalg.svd(z, full_matrices=False)[0][:, 0]


class TestH19m:
    def test_shapes_names_and_lists(self, table):
        g = table
        m = len(g["labels"])
        assert 20 <= m <= 80 and g["values"].shape == (m, COLS)
        assert len(set(g["names"])) == COLS and len(set(g["labels"])) == m and g["labels"] == sorted(g["labels"])
        assert all(re.fullmatch(r"b\d{4}", x) for x in g["names"]) and g["names"] == sorted(g["names"])
        assert all(re.fullmatch(r"GSE\d{4}_\w+_\w+", x) for x in g["labels"])
        assert 100 <= len(g["regulators"]) <= 130 and set(g["regulators"]) <= set(g["names"])
        assert g["star_name"] not in g["names"] and g["star_name"] not in g["regulators"]
        assert 30 <= len(g["module"]) <= 50 and 20 <= len(g["targets"][0]) <= 40
        assert not g["module"] & g["targets"][0] and not (g["module"] | g["targets"][0]) & set(g["regulators"])
        assert set().union(*g["module_operons"]) == g["module"]

    def test_operons_are_adjacent_and_co_expressed(self, table):
        g = table
        pos = {x: i for i, x in enumerate(g["names"])}
        listed = set(g["regulators"])
        ops = [sorted(o) for o in g["operons"]]
        assert len(ops) > 20 and all(2 <= len(o) <= h19m.OPERON_MAX for o in ops)
        for o in ops:  # adjacent genes (a listed TF may sit between two tags of one operon)
            between = g["names"][pos[o[0]] : pos[o[-1]] + 1]
            assert set(o) <= set(between) and set(between) - set(o) <= listed
        pairs = [o[:2] for o in ops if not set(o) & (g["module"] | g["targets"][0])]
        r = [_r(*_cols(g, set(p)).T) for p in pairs]
        assert np.median(r) > 0.5  # one transcript

    def test_the_module_tracks_the_repressor(self, table):
        g = table
        v = _cols(g, g["module"])
        assert abs(_r(_pc1(v), g["star"])) > 0.8
        signs = [np.sign(_r(c, g["star"])) for c in v.T]
        assert np.mean(np.array(signs) < 0) > 0.5  # most genes down where R* is high
        d = g["drivers"][:, 0]
        on = [g["labels"].index(x) for x in g["on"]]
        assert 2 <= len(on) <= 4 and set(np.flatnonzero(d)) == set(on)
        assert np.median([abs(_r(c, d)) for c in _cols(g, g["targets"][0]).T]) > 0.2

    def test_array_bias_and_missing_below_detection(self, table):
        g = table
        v = g["values"]
        miss = np.isnan(v)
        assert 0.01 < miss.mean() < 0.08 and miss.mean(axis=0).max() <= h19m.MAX_COL_MISSING + 1e-9
        means = np.nanmean(v, axis=0)
        faint = means < np.quantile(means, 0.2)
        assert miss[:, faint].mean() > 3 * miss[:, ~faint].mean()  # not at random: faint spots go missing
        assert 1 <= len(g["outliers"]) <= 2 and all(x in g["labels"] for x in g["outliers"])
        bad = [g["labels"].index(x) for x in g["outliers"]]
        assert np.abs(g["bias"][bad]).min() > np.median(np.abs(g["bias"]))

    def test_deterministic_and_null_has_no_hidden_effect(self, table, null):
        again = h19m.generate(M_SEED, n_cols=COLS)
        assert same_table(again["values"], table["values"])
        n = null
        assert n["names"] == table["names"] and n["regulators"] == table["regulators"] and n["on"] == []
        assert n["labels"] == table["labels"] and np.array_equal(n["bias"], table["bias"])
        assert n["operons"] == table["operons"]
        assert abs(_r(_pc1(_cols(n, table["module"])), table["star"])) < 0.5
        assert np.median([abs(_r(c, table["drivers"][:, 0])) for c in _cols(n, table["targets"][0]).T]) < 0.3
        listed = set(n["regulators"])
        same = [_r(a, b) for a, b in zip(_cols(n, listed).T, _cols(table, listed).T, strict=True)]
        assert np.median(same) > 0.95  # the same TFs (their holes differ a little)

    def test_summary_counts_array_and_operon_hs(self):
        base = {"kept": 2, "false": 1, "listed": 0, "cpu": 10.0, "flagged": False, "enriched": True, "units": 5}
        base |= {"star": True, "fast": True, "best_star": 0.95, "best_drivers": [0.2], "drivers": [False]}
        base |= {"named": [""], "array": 1, "operon": 0}
        text = h19m.summary("h19m", [base, base | {"star": False, "fast": False, "enriched": False, "operon": 1}])
        assert "kept Hs on the array bias 2, on one operon 1" in text and "module enriched (p < 0.001) on 1/2" in text
        assert "R* recovered (|r| >= 0.9) on 1/2 (1 within 60 s CPU)" in text

    def test_full_width(self):
        g = h19m.generate(1991)
        assert 2000 <= g["values"].shape[1] <= 2600 and g["values"].shape[1] == len(g["names"])
