"""Smoke cases of the twentieth session's hold-out generators: ``h20g`` (benchmarks/planted_h20g.py,
through ``planted_general``) and ``h20m`` (benchmarks/bench_regulators_genome_h20.py).

They check each generator's contract (shapes and ranges, names, determinism, the planted structure as
its docstring says: h in a negative feedback loop with its own child, observed loops, samples at the
equilibrium of the cyclic equations; a pseudobulk table whose interferon module and listed TF targets
follow the removed STAT1, an on/off stress program, donor, cell-type, sex and depth structure, a null
without any hidden effect) on seeds outside the hold-out ranges (2000-2009 and 2050-2059), and the
h20m scorer's reading of kept Hs on stand-ins (no search); they never run the search: the hold-outs'
recovery is measured once, at the start of the next session, by the lead."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

import bench_regulators_genome_h20 as h20m  # noqa: E402
import planted_general as pg  # noqa: E402
import planted_h20g as ph  # noqa: E402
from genome_auto import Kept  # noqa: E402
from test_bench_holdouts_mixed import _same_network_without_roots  # noqa: E402

#: seed indices of ``h20g`` (seeds 2090-2099), outside the hold-out's 2000-2009
G_SEEDS = tuple(range(90, 100))
#: outside the ``h20m`` hold-out's 2050-2059; a reduced table
M_SEED, COLS = 2090, 600


def _r(a: np.ndarray, b: np.ndarray) -> float:
    return float(np.corrcoef(a, b)[0, 1])


def _lstsq_r(x: np.ndarray, h: np.ndarray) -> float:
    design = np.column_stack([np.ones(len(x)), x])
    return abs(_r(design @ np.linalg.lstsq(design, h, rcond=None)[0], h))


class TestH20g:
    def test_stays_runnable_after_its_session(self):
        """``h20g`` was the twentieth session's hold-out; ``h29g`` the twenty-ninth's (test_bench_holdouts_h29)."""
        assert pg.HOLD_OUT == "h29g" and pg.SPECS["h20g"].seed0 == ph.SEED0 == 2000
        assert pg.OWN_MODULE["h20g"] is ph and "h19g" in pg.SPECS

    @pytest.mark.parametrize("seed", G_SEEDS)
    def test_shapes_and_the_loops(self, seed):
        x, kids, hs = pg.generate_all("h20g", seed)
        m, n = x.shape
        assert 50 <= m <= 600 and m == ph.n_samples(seed) and 30 <= n <= 70 and n == pg.n_vars("h20g", seed)
        assert np.isfinite(x).all() and np.allclose(x.std(axis=0), 1.0)
        assert len(kids) == len(hs) == 1 and hs[0].shape == (m,) and 4 <= len(kids[0]) <= 20
        net = ph.network(seed)
        rank = {int(v): i for i, v in enumerate(net.order)}
        assert all(rank[v] >= net.place for v in kids[0]) and (net.parent < 0 or rank[net.parent] < net.place)
        assert set(np.flatnonzero(net.c).tolist()) == kids[0] and np.sum(net.c**2) >= ph.MIN_LOAD2 - 1e-9
        assert 1 <= len(net.feedback) <= 2 and set(net.feedback) <= kids[0]
        for f in net.feedback:  # h -> f and f -> h of opposite signs: a negative loop
            assert net.b[n, f] * net.b[f, n] < 0 and np.sign(net.b[n, f]) == np.sign(net.c[f])
        assert np.count_nonzero(net.b[:n, n]) == len(net.feedback) + (net.parent >= 0)
        edges = pg.true_edges("h20g", seed)
        back = [(p, c) for p, c in edges if rank[p] > rank[c]]
        assert 1 <= len(net.loops) <= 3 and set(back) == set(net.loops)  # the observed loops, not a DAG
        assert np.max(np.abs(np.linalg.eigvals(net.b))) < ph.MAX_RHO

    def test_samples_are_the_equilibrium(self):
        net = ph.network(G_SEEDS[0])
        e = np.random.default_rng(0).normal(size=(5, len(net.b)))
        x = ph.equilibrium(net.b, e)
        assert np.allclose(x, x @ net.b + e)
        step = np.zeros_like(e)
        for _ in range(400):  # the time-lagged loop iterated to its fixed point
            step = step @ net.b + e
        assert np.allclose(step, x)

    def test_seeds_vary(self):
        nets = [ph.network(s) for s in G_SEEDS]
        assert {n.parent >= 0 for n in nets} == {True, False} and {len(n.feedback) for n in nets} == {1, 2}
        ms = [ph.n_samples(s) for s in G_SEEDS]
        assert max(ms) > 3 * min(ms)

    @pytest.mark.parametrize("seed", G_SEEDS)
    def test_null_is_the_network_without_h(self, seed):
        _same_network_without_roots("h20g", seed)

    @pytest.mark.parametrize("seed", G_SEEDS)
    def test_children_track_h_and_the_null_does_not(self, seed):
        x, kids, (h,) = pg.generate_all("h20g", seed)
        xn, _, _ = pg.generate_all("h20g", seed, null=True)
        k = sorted(kids[0])
        assert _lstsq_r(x[:, k], h) > 0.8
        assert np.median([abs(_r(x[:, v], h)) for v in k]) > 0.35
        assert np.median([abs(_r(xn[:, v], h)) for v in k]) < 0.25


@pytest.fixture(scope="module")
def table():
    return h20m.generate(M_SEED, n_cols=COLS)


@pytest.fixture(scope="module")
def null():
    return h20m.generate(M_SEED, True, n_cols=COLS)


def _cols(g: dict, names: set[str]) -> np.ndarray:
    return g["values"][:, [g["names"].index(x) for x in sorted(names)]]


def _pc1(v: np.ndarray) -> np.ndarray:
    z = (v - v.mean(axis=0)) / v.std(axis=0)
    return np.linalg.svd(z, full_matrices=False)[0][:, 0]


class TestH20m:
    def test_shapes_names_and_lists(self, table):
        g = table
        m = len(g["labels"])
        assert (
            20 <= m <= 80
            and g["values"].shape == (m, len(g["names"]))
            and COLS - 5 <= len(g["names"]) <= COLS
            and np.isfinite(g["values"]).all()
        )
        assert (g["values"] >= 0).all() and 0.002 < np.mean(g["values"] == 0) < 0.2  # log1p of counts, zeros
        assert len(set(g["names"])) == len(g["names"]) and g["names"] == sorted(g["names"])
        assert ((g["values"] > 0).sum(axis=0) >= h20m.MIN_DETECTED).all()
        assert len(set(g["labels"])) == m and g["labels"] == sorted(g["labels"])
        assert all(re.fullmatch(r"D\d{2}_\w+", x) for x in g["labels"])
        assert all(x.split("_")[1] == g["types"][t] for x, t in zip(g["labels"], g["cell_type"], strict=True))
        assert 100 <= len(g["regulators"]) <= 130 and set(g["regulators"]) <= set(g["names"])
        assert g["star_name"] == "STAT1" and "STAT1" not in g["names"] and "STAT1" not in g["regulators"]
        assert 30 <= len(g["module"]) <= 50 and g["module"] <= set(h20m.ISGS) and g["module"] <= set(g["names"])
        assert 5 <= len(g["module_tfs"]) <= 10 and g["module_tfs"] <= set(g["regulators"]) & set(h20m.ISG_TFS)
        assert 20 <= len(g["targets"][0]) <= 40 and not g["module"] & g["targets"][0]
        assert not (g["module"] | g["targets"][0]) & set(g["regulators"])
        assert {"XIST", "RPS4Y1"} <= set(g["names"])

    def test_the_module_and_its_tfs_track_stat1(self, table, null):
        g = table
        assert abs(_r(_pc1(_cols(g, g["module"])), g["star"])) > 0.8
        assert abs(_r(_pc1(_cols(null, g["module"])), g["star"])) < 0.5
        signs = [np.sign(_r(c, g["star"])) for c in _cols(g, g["module"]).T]
        assert np.mean(np.array(signs) > 0) > 0.7  # an activator
        tfs = [abs(_r(c, g["star"])) for c in _cols(g, g["module_tfs"]).T]
        tfs_null = [abs(_r(c, g["star"])) for c in _cols(null, g["module_tfs"]).T]
        assert np.median(tfs) > 0.25 and np.median(tfs) > np.median(tfs_null) + 0.15

    def test_the_stress_program(self, table, null):
        g = table
        d = g["drivers"][:, 0]
        assert 2 <= len(g["on"]) <= 4 and set(np.flatnonzero(d)) == {g["labels"].index(x) for x in g["on"]}
        assert np.median([abs(_r(c, d)) for c in _cols(g, g["targets"][0]).T]) > 0.2
        assert null["on"] == [] and np.median([abs(_r(c, d)) for c in _cols(null, g["targets"][0]).T]) < 0.2

    def test_donor_type_sex_and_depth(self, table):
        g = table
        assert np.ptp(g["depth"]) > np.log(30)  # libraries over more than 30-fold
        lineage = [t for ty in g["types"] for t in h20m.LINEAGE[ty]]
        assert np.median([h20m.design_r2(c, g["cell_type"]) for c in _cols(g, set(lineage)).T]) > 0.5
        assert abs(_r(_cols(g, {"XIST"})[:, 0], g["sex"])) > 0.8 and abs(_r(_cols(g, {"RPS4Y1"})[:, 0], g["sex"])) > 0.8
        assert 0.3 < h20m.design_r2(g["star"], g["donor"]) < 0.95  # R* is mostly a donor's interferon state

    def test_design_r2(self):
        groups = np.array([0, 0, 1, 1, 2, 2])
        assert h20m.design_r2(np.array([1.0, 1.0, 2.0, 2.0, 5.0, 5.0]), groups) == pytest.approx(1.0)
        assert h20m.design_r2(np.array([1.0, -1.0, 1.0, -1.0, 1.0, -1.0]), groups) == pytest.approx(0.0)

    def test_deterministic_and_null_keeps_the_design(self, table, null):
        again = h20m.generate(M_SEED, n_cols=COLS)
        assert np.array_equal(again["values"], table["values"])
        n = null
        assert (
            n["names"] == table["names"] and n["regulators"] == table["regulators"] and n["labels"] == table["labels"]
        )
        assert np.array_equal(n["depth"], table["depth"]) and np.array_equal(n["donor"], table["donor"])
        lineage = {t for ty in table["types"] for t in h20m.LINEAGE[ty]}
        same = [_r(a, b) for a, b in zip(_cols(n, lineage).T, _cols(table, lineage).T, strict=True)]
        assert np.median(same) > 0.95  # the same lineage TFs (the counts' normalization differs a little)

    def test_full_width(self):
        g = h20m.generate(2091)
        assert 2000 <= g["values"].shape[1] <= 2600 and g["values"].shape[1] == len(g["names"])


class _Hs:
    """A stand-in for a fitted ``HiddenSearch``: only the kept Hs' profiles."""

    def __init__(self, profiles: dict[str, np.ndarray]):
        self.profiles = profiles

    def hidden_profile(self, name: str) -> np.ndarray:
        return self.profiles[name]


class _Est:
    def __init__(self, profiles: dict[str, np.ndarray]):
        self.hidden_search_ = _Hs(profiles)


def test_scorer_reads_kept_hs(table, monkeypatch):
    """``run_seed``'s reading of three stand-in kept Hs (no search): one on R* with its module and TF
    targets, one on the cell types (TYPE, false), one on a donor-level factor (not marked)."""
    g = table
    rng = np.random.default_rng(0)
    types = g["cell_type"] + 0.05 * rng.normal(size=len(g["labels"]))
    profiles = {"H1": g["star"], "H2": types, "H3": g["factors"][:, 0]}
    star_kids = set(g["module"]) | set(g["module_tfs"])
    kept = [
        Kept("H1", [0.97, 0.1, 0.1, 0.1, 0.2, 0.2, 0.2], star_kids, ["IRF3"], 0.3, 0.1, 90.0),
        Kept("H2", [0.1, 0.1, 0.2, 0.1, 0.3, 0.3, 0.3], set(g["names"][:40]) - star_kids, [], 0.0, 0.1, 40.0),
        Kept("H3", [0.1, 0.1, 0.2, 0.1, 0.95, 0.3, 0.3], set(g["names"][-30:]) - star_kids, [], 0.0, 0.1, 20.0),
    ]
    monkeypatch.setattr(h20m, "fit_auto", lambda gg, source, seed: (_Est(profiles), 1.0, 2.0))
    monkeypatch.setattr(h20m, "kept_of", lambda hs, gg: kept)
    monkeypatch.setattr(h20m, "top_proposals", lambda est: [])
    monkeypatch.setattr(h20m, "_named", lambda gg, props, hs: [""])
    line, t = h20m.run_seed(g, "h20m-2090", M_SEED)
    assert t["star"] and t["fast"] and t["enriched"] and t["tfs"] == len(g["module_tfs"])
    assert t["false"] == 1 and t["design"] == 1 and "TYPE FALSE" in line and line.count("FALSE") == 1
    text = h20m.summary("h20m", [t, t | {"star": False, "fast": False, "enriched": False}])
    assert "R* recovered (|r| >= 0.9) on 1/2" in text and "kept Hs on the design (TYPE/DONOR/DEPTH/SEX) 2" in text
    assert f"listed TF targets among its children {len(g['module_tfs'])}" in text
    line_null, t_null = h20m.run_seed(null_of(g), "h20m-null-2090", M_SEED)
    assert t_null["false"] == 3 and not t_null["star"]


def null_of(g: dict) -> dict:
    return {**g, "null": True, "on": []}
