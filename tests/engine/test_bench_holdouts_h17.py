"""Smoke cases of the seventeenth session's hold-out generators: ``h17g`` (benchmarks/planted_h17g.py,
through ``planted_general``) and ``h17m`` (benchmarks/bench_regulators_genome_h17.py).

They check each generator's contract (shapes and ranges, names, determinism, the planted structure
as its docstring says: h's observed parents, leaf or relay children, the deletion and
over-expression conditions, the two-signed module, the odd conditions, the missing cells, a null
without any hidden effect) on seeds outside the hold-out ranges (1700-1709 and 1750-1759); they
never run the search: the hold-outs' recovery is measured once, at the end of the session, by the
lead."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

import bench_regulators_genome_h17 as h17m  # noqa: E402
import planted_general as pg  # noqa: E402
import planted_h17g as ph  # noqa: E402
from _holdout_tables import same_table  # noqa: E402
from test_bench_holdouts_mixed import _residual, _same_network_without_roots  # noqa: E402  (the same checks of the planted structure)

#: seed indices of ``h17g`` (seeds 1790-1797), outside the hold-out's 1700-1709
G_SEEDS = tuple(range(90, 98))
#: outside the ``h17m`` hold-out's 1750-1759; a reduced table
M_SEED, COLS = 1790, 600


def _r(a: np.ndarray, b: np.ndarray) -> float:
    """Correlation over the cells where both are observed."""
    ok = ~(np.isnan(a) | np.isnan(b))
    return float(np.corrcoef(a[ok], b[ok])[0, 1])


class TestH17g:
    def test_stays_runnable_after_its_session(self):
        """``h17g`` was the seventeenth session's hold-out; ``h29g`` the twenty-ninth's (test_bench_holdouts_h29)."""
        assert pg.HOLD_OUT == "h29g" and pg.SPECS["h17g"].seed0 == ph.SEED0 == 1700
        assert pg.OWN_MODULE["h17g"] is ph

    @pytest.mark.parametrize("seed", G_SEEDS)
    def test_shapes_and_places(self, seed):
        x, kids, hs = pg.generate_all("h17g", seed)
        m, n = x.shape
        assert 50 <= m <= 500 and m == ph.n_samples(seed) and 40 <= n <= 60 and n == pg.n_vars("h17g", seed)
        assert np.isfinite(x).all() and np.allclose(x.std(axis=0), 1.0)
        assert len(kids) == len(hs) == 1 and 5 <= len(kids[0]) <= 16 and hs[0].shape == (m,)
        net = ph.network(seed)
        rank = {int(v): i for i, v in enumerate(net.order)}
        assert all(rank[p] < rank[c] for p, c in pg.true_edges("h17g", seed))  # a DAG along its order
        assert all(rank[u] < net.place for u in net.h_parents) and len(net.h_parents) in (1, 2)
        assert all(rank[v] >= net.place for v in kids[0])  # h sits before its children
        assert set(net.sigmoid) <= kids[0] and not kids[0] & set(net.h_parents)
        assert np.sum(net.c**2) >= ph.MIN_LOAD2 - 1e-9 and set(np.flatnonzero(net.c).tolist()) == kids[0]

    def test_seeds_vary(self):
        nets = [ph.network(s) for s in G_SEEDS + tuple(range(98, 110))]
        assert {n.mode for n in nets} == {"leaf", "relay"} and {len(n.h_parents) for n in nets} == {1, 2}
        assert sum(len(n.sigmoid) for n in nets) >= len(nets) // 2
        kinds = np.concatenate([ph.noise_kinds(s)[1] for s in G_SEEDS])
        assert set(kinds) == set(ph.NOISE_KINDS)
        ms = [ph.n_samples(s) for s in G_SEEDS]
        assert max(ms) > 3 * min(ms)

    @pytest.mark.parametrize("seed", G_SEEDS)
    def test_leaf_or_relay_children(self, seed):
        """``leaf``: no child of h has an observed child; ``relay``: half or more of them do, and
        only the relays among them gained children."""
        net = ph.network(seed)
        kids = net.children
        out = {int(v): int(np.count_nonzero(net.w[v])) for v in kids}
        if net.mode == "leaf":
            assert not net.relays and not any(out.values())
        else:
            assert set(net.relays) <= set(out) and all(out[v] >= 1 for v in net.relays)
            rank = {int(v): i for i, v in enumerate(net.order)}
            later = [sum(rank[u] > rank[v] and u not in out for u in rank) for v in kids]
            assert len(net.relays) >= min(np.ceil(len(kids) / 2), sum(k > 0 for k in later))

    @pytest.mark.parametrize("seed", G_SEEDS)
    def test_null_is_the_network_without_h(self, seed):
        _same_network_without_roots("h17g", seed)

    @pytest.mark.parametrize("seed", G_SEEDS)
    def test_h_follows_its_parents_and_drives_its_children(self, seed):
        """h's observed parents explain about ``h_r2`` of it and at most 0.7; beyond their observed
        parents the children follow h, the other variables (h's grandchildren included) do not."""
        x, kids, hs = pg.generate_all("h17g", seed)
        h, net, edges = hs[0], ph.network(seed), pg.true_edges("h17g", seed)
        design = np.column_stack([np.ones(len(x)), x[:, list(net.h_parents)]])
        r2 = 1.0 - np.var(h - design @ np.linalg.lstsq(design, h, rcond=None)[0])
        assert abs(r2 - net.h_r2) < 0.2 and r2 < 0.7
        r_kids = [abs(_r(_residual(x, v, edges), h)) for v in kids[0]]
        others = [abs(_r(_residual(x, v, edges), h)) for v in range(x.shape[1]) if v not in kids[0]]
        assert np.mean(np.array(r_kids) > 0.2) >= 0.75 and np.median(r_kids) > 4 * np.median(others)
        if net.mode == "relay":  # h reaches the relays' children through them
            grand = {int(u) for v in net.relays for u in np.flatnonzero(net.w[v])} - kids[0]
            assert np.median([abs(_r(x[:, u], h)) for u in grand]) > 2 * np.median(others)


@pytest.fixture(scope="module")
def table():
    return h17m.generate(M_SEED, n_cols=COLS)


@pytest.fixture(scope="module")
def null():
    return h17m.generate(M_SEED, True, n_cols=COLS)


def _cols(g: dict, names: set[str]) -> np.ndarray:
    return g["values"][:, [g["names"].index(x) for x in sorted(names)]]


class TestH17m:
    def test_shapes_names_and_lists(self, table):
        g = table
        m = len(g["labels"])
        assert 27 <= m <= 40 and g["values"].shape == (m, COLS)
        assert len(set(g["names"])) == COLS and len(set(g["labels"])) == m
        assert all(re.fullmatch(r"b\d{4}", x) for x in g["names"])
        assert 110 <= len(g["regulators"]) <= 120 and set(g["regulators"]) <= set(g["names"])
        assert g["star_name"] not in g["names"] and g["star_name"] not in g["regulators"]  # R* removed from both
        assert g["relay"] in g["regulators"] and g["repressed"] <= g["module"] and g["hill"] <= g["module"]
        assert 30 <= len(g["module"]) <= 50 and len(g["repressed"]) == len(g["module"]) // 2
        assert 20 <= len(g["targets"][0]) <= 40 and not g["module"] & g["targets"][0]
        assert not (g["module"] | g["targets"][0]) & set(g["regulators"])
        assert g["star"].shape == (m,) and g["drivers"].shape == (m, 1)
        assert 0.009 <= np.isnan(g["values"]).mean() <= 0.031  # 1-3 % of the cells missing

    def test_strains_odd_and_on_conditions(self, table):
        """2-3 deletions below every graded value of R*, 1-2 over-expressions above; 1-2 odd
        conditions and D's 3-5 among the ordinary conditions, apart."""
        g = table
        kind, labels = g["kind"], g["labels"]
        assert labels == sorted(labels) and 2 <= (kind < 0).sum() <= 3 and 1 <= (kind > 0).sum() <= 2
        assert all(labels[i].startswith(("d" if kind[i] < 0 else "p") + g["star_name"]) for i in np.flatnonzero(kind))
        graded = g["star"][kind == 0]
        assert g["star"][kind < 0].max() < graded.min() and g["star"][kind > 0].min() > graded.max()
        ordinary = {labels[i] for i in np.flatnonzero(kind == 0)}
        assert 1 <= len(g["odd"]) <= 2 and 3 <= len(g["on"]) <= 5
        assert set(g["odd"]) <= ordinary and set(g["on"]) <= ordinary and not set(g["odd"]) & set(g["on"])
        rows = [labels.index(x) for x in g["odd"]]
        odd = _cols(g, g["odd_genes"])
        z = (odd - np.nanmedian(odd, axis=0)) / np.nanstd(odd, axis=0)
        assert 80 <= len(g["odd_genes"]) <= 120 and np.nanmedian(np.abs(z[rows])) > 2.0

    def test_module_follows_r_star_with_two_signs(self, table):
        g = table
        mod = _cols(g, g["module"])
        filled = np.where(np.isnan(mod), np.nanmean(mod, axis=0), mod)
        z = (filled - filled.mean(axis=0)) / filled.std(axis=0)
        assert abs(_r(np.linalg.svd(z, full_matrices=False)[0][:, 0], g["star"])) > 0.9  # a linear summary
        down = [_r(c, g["star"]) for c in _cols(g, g["repressed"]).T]
        up = [_r(c, g["star"]) for c in _cols(g, g["module"] - g["repressed"]).T]
        assert np.median(down) < -0.5 and np.median(up) > 0.5
        d = g["drivers"][:, 0]
        assert np.median([abs(_r(c, d)) for c in _cols(g, g["targets"][0]).T]) > 0.3  # on in 3-5 of 27-40

    def test_deterministic_and_null_has_no_hidden_effect(self, table, null):
        again = h17m.generate(M_SEED, n_cols=COLS)
        assert same_table(again["values"], table["values"]) and again["labels"] == table["labels"]
        n = null
        assert n["names"] == table["names"] and n["regulators"] == table["regulators"] and n["on"] == []
        assert n["labels"] == table["labels"] and n["odd"] == table["odd"]
        assert np.array_equal(np.isnan(n["values"]), np.isnan(table["values"]))  # the same holes
        assert np.median([abs(_r(c, table["star"])) for c in _cols(n, table["module"]).T]) < 0.3
        assert np.median([abs(_r(c, table["drivers"][:, 0])) for c in _cols(n, table["targets"][0]).T]) < 0.3
        tfs = [n["names"].index(x) for x in n["regulators"]]
        assert np.array_equal(n["values"][:, tfs], table["values"][:, tfs], equal_nan=True)  # the same TFs

    def test_summary_counts_the_odd_conditions(self):
        base = {"kept": 1, "false": 1, "listed": 0, "cpu": 10.0, "flagged": True, "enriched": True}
        base |= {"relayed": False, "star": True, "fast": True, "best_star": 0.95, "best_drivers": [0.2]}
        base |= {"drivers": [False], "named": [""], "odd": 1, "top_odd": True, "odd_named": True}
        text = h17m.summary("h17m", [base, base | {"odd": 0, "top_odd": False, "odd_named": False}])
        assert "kept Hs on an odd condition 1" in text and "the top proposal an odd condition on 1/2" in text
        assert "R* recovered (|r| >= 0.9) on 2/2" in text and "module enriched (p < 0.001) on 2/2" in text

    def test_full_width(self):
        assert h17m.generate(1791)["values"].shape[1] == h17m.N_COLS == 2500
