"""Smoke cases of the twenty-first session's hold-out generators: ``h21g`` (benchmarks/planted_h21g.py,
through ``planted_general``) and ``h21m`` (benchmarks/bench_regulators_genome_h21.py).

They check each generator's contract (shapes and ranges, names, determinism, the planted structure as
its docstring says: h over measured specific regulators that share its children in feed-forward
loops, collider-heavy children, heavy-tailed noise and measurement error; a yeast cell-cycle time
course whose G1/S module and listed TF targets follow the removed SWI4 beyond the cell-cycle phase,
autocorrelated neighbouring time points, one odd time point, missing cells, a null whose module
follows the phase alone) on seeds outside the hold-out ranges (2100-2109 and 2150-2159), and the
h21m scorer's reading of kept Hs on stand-ins (no search); they never run the search: the hold-outs'
recovery is measured once, at the start of the next session, by the lead."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

import bench_regulators_genome_h21 as h21m  # noqa: E402
import planted_general as pg  # noqa: E402
import planted_h21g as ph  # noqa: E402
import yeast_names  # noqa: E402
from _holdout_tables import same_table  # noqa: E402
from genome_auto import Kept  # noqa: E402
from test_bench_holdouts_h20 import _Est, _lstsq_r, _pc1, _r  # noqa: E402
from test_bench_holdouts_mixed import _same_network_without_roots  # noqa: E402

#: seed indices of ``h21g`` (seeds 2190-2199), outside the hold-out's 2100-2109
G_SEEDS = tuple(range(90, 100))


def _excess_kurtosis(v: np.ndarray) -> float:
    z = (v - v.mean()) / v.std()
    return float(np.mean(z**4) - 3.0)


class TestH21g:
    def test_stays_runnable_after_its_session(self):
        """``h21g`` was the twenty-first session's hold-out; ``h29g`` the twenty-ninth's (test_bench_holdouts_h29)."""
        assert pg.HOLD_OUT == "h29g" and pg.SPECS["h21g"].seed0 == ph.SEED0 == 2100
        assert pg.OWN_MODULE["h21g"] is ph and "h20g" in pg.SPECS

    @pytest.mark.parametrize("seed", G_SEEDS)
    def test_shapes_and_the_loops(self, seed):
        x, kids, hs = pg.generate_all("h21g", seed)
        m, n = x.shape
        assert 60 <= m <= 400 and m == ph.n_samples(seed) and 35 <= n <= 70 and n == pg.n_vars("h21g", seed)
        assert np.isfinite(x).all() and np.allclose(x.std(axis=0), 1.0)
        assert len(kids) == len(hs) == 1 and hs[0].shape == (m,) and 5 <= len(kids[0]) <= 20
        net = ph.network(seed)
        rank = {int(v): i for i, v in enumerate(net.order)}
        assert all(rank[v] >= net.place for v in kids[0]) and (net.parent < 0 or rank[net.parent] < net.place)
        assert set(np.flatnonzero(net.c).tolist()) == kids[0] and np.sum(net.c**2) >= ph.MIN_LOAD2 - 1e-9
        assert all(rank[p] < rank[c] for p, c in pg.true_edges("h21g", seed))  # a DAG along the order
        assert 1 <= len(net.q) <= 2 and set(net.q) <= kids[0]
        for u in net.q:  # q regulates h's later children (feed-forward loops) and targets of its own
            assert set(net.shared[u]) <= kids[0] - set(net.q) and all(rank[v] > rank[u] for v in net.shared[u])
            assert all(net.b[u, v] != 0 for v in net.shared[u]) and net.q_own[u] and not set(net.q_own[u]) & kids[0]
        for v in kids[0]:  # collider-heavy: two or more observed parents besides h
            assert np.count_nonzero(net.b[:n, v]) >= ph.MIN_PARENTS and net.b[n, v] != 0
        assert set(net.df[:n].tolist()) <= {3, 4, 5} and net.df[n] == 0
        var = x.var(axis=0)  # the measurement error's share of the column (scaled to unit variance)
        x0, err = ph.true_values(seed)
        share = err.var(axis=0) / (x0[:, :n] + err).var(axis=0)
        assert np.allclose(var, 1.0) and 0.01 < np.median(share) < 0.2 and share.max() < 0.3

    def test_loops_are_mostly_coherent_and_noise_heavy_tailed(self):
        signs, kurt = [], []
        for seed in G_SEEDS:
            net = ph.network(seed)
            for u, kids in net.shared.items():
                signs += [np.sign(net.c[u] * net.b[u, v]) == np.sign(net.c[v]) for v in kids]
            x0, _ = ph.true_values(seed)
            kurt += [_excess_kurtosis(x0[:, v]) for v in range(len(net.order)) if not net.b[:, v].any()]
        assert len(signs) >= 30 and 0.5 < np.mean(signs) < 0.9  # coherent on 70 %
        assert np.median(kurt) > 1.0  # Student-t 3-5 df on the roots: heavy tails

    def test_seeds_vary(self):
        nets = [ph.network(s) for s in G_SEEDS]
        assert {n.parent >= 0 for n in nets} == {True, False} and {len(n.q) for n in nets} == {1, 2}
        ms = [ph.n_samples(s) for s in G_SEEDS]
        assert max(ms) > 2.5 * min(ms)

    @pytest.mark.parametrize("seed", G_SEEDS)
    def test_null_is_the_network_without_h(self, seed):
        _same_network_without_roots("h21g", seed)

    @pytest.mark.parametrize("seed", G_SEEDS)
    def test_children_track_h_and_the_null_does_not(self, seed):
        x, kids, (h,) = pg.generate_all("h21g", seed)
        xn, _, _ = pg.generate_all("h21g", seed, null=True)
        k = sorted(kids[0])
        assert _lstsq_r(x[:, k], h) > 0.85
        assert np.median([abs(_r(x[:, v], h)) for v in k]) > 0.4
        assert np.median([abs(_r(xn[:, v], h)) for v in k]) < 0.2


#: outside the ``h21m`` hold-out's 2150-2159; a reduced table
M_SEEDS, COLS = (2190, 2191, 2192, 2193), 600


@pytest.fixture(scope="module")
def tables():
    return [h21m.generate(s, n_cols=COLS) for s in M_SEEDS]


@pytest.fixture(scope="module")
def nulls():
    return [h21m.generate(s, True, n_cols=COLS) for s in M_SEEDS]


def _cols(g: dict, names: set[str]) -> np.ndarray:
    v = g["values"][:, [g["names"].index(x) for x in sorted(names)]]
    return np.where(np.isnan(v), np.nanmean(v, axis=0), v)


class TestH21m:
    def test_shapes_names_and_lists(self, tables):
        for g in tables:
            m = len(g["labels"])
            assert 44 <= m <= 56 and g["values"].shape == (m, COLS) and len(g["names"]) == COLS
            assert 20 <= np.isnan(g["values"]).sum() <= 30 and np.isfinite(g["values"][~np.isnan(g["values"])]).all()
            assert len(set(g["names"])) == COLS and g["names"] == sorted(g["names"])
            assert all(yeast_names.PATTERN.fullmatch(x) for x in g["names"])
            assert len(set(g["labels"])) == m and all(
                re.fullmatch(r"(alpha|cdc15|cdc28|elu)_\d{3}", x) for x in g["labels"]
            )
            assert 2 <= len(g["series_names"]) <= 3 and [x.split("_")[0] for x in g["labels"]] == [
                g["series_names"][k] for k in g["series"]
            ]
            assert 45 <= len(g["regulators"]) <= 55 and set(g["regulators"]) <= set(g["names"])
            assert g["star_name"] == "YER111C" == yeast_names.STAR and yeast_names.COMMON["YER111C"] == "SWI4"
            assert "YER111C" not in g["names"] and "YER111C" not in g["regulators"]
            assert 30 <= len(g["module"]) <= 50 and g["module"] <= set(g["names"]) - set(g["regulators"])
            assert 3 <= len(g["module_tfs"]) <= 6 and g["module_tfs"] <= set(g["regulators"]) & set(
                yeast_names.R_TARGET_TFS
            )
            assert len(g["periodic"]) > 0.2 * COLS and not g["periodic"] & g["module"]

    def test_neighbouring_time_points_are_alike(self, tables):
        g = tables[0]
        v = _cols(g, set(g["names"]))
        same = np.flatnonzero(np.diff(g["series"]) == 0)  # pairs of neighbours within one series
        lag1 = [np.corrcoef(c[same], c[same + 1])[0, 1] for c in v.T]
        shuffled = np.random.default_rng(0).permutation(len(same))
        lag_rand = [np.corrcoef(c[same], c[same + 1][shuffled])[0, 1] for c in v.T]
        assert np.median(lag1) > 0.25 and abs(np.median(lag_rand)) < 0.1

    def test_the_phase_structure(self, tables):
        for g in tables:
            design = h21m.phase_design(g)
            assert h21m.phase_r2(_pc1(_cols(g, g["periodic"])), design) > 0.9  # a strong clock, no regulator
            assert np.sqrt(h21m.phase_r2(g["star"], design)) < 0.85  # no phase profile reaches |r| 0.9 with R*
            assert abs(_r(g["star"], g["star_phase"])) > 0.4  # R* is periodic too

    def test_the_module_and_its_tfs_track_swi4_beyond_the_phase(self, tables, nulls):
        for g, n in zip(tables, nulls, strict=True):
            design = h21m.phase_design(g)
            pc, pc_null = _pc1(_cols(g, g["module"])), _pc1(_cols(n, g["module"]))
            assert abs(_r(pc, g["star"])) > 0.95 and h21m.beyond(pc, g["star"], design) > 0.8
            assert abs(_r(pc_null, g["star_phase"])) > 0.95 and h21m.beyond(pc_null, g["star"], design) < 0.5
            assert abs(_r(pc_null, g["star"])) < 0.85  # the null's module follows the phase alone
            signs = [np.sign(_r(c, g["star"])) for c in _cols(g, g["module"]).T]
            assert np.mean(np.array(signs) > 0) > 0.7  # an activator
            tfs = np.median([abs(_r(c, g["star"])) for c in _cols(g, g["module_tfs"]).T])
            assert tfs > np.median([abs(_r(c, g["star"])) for c in _cols(n, g["module_tfs"]).T]) + 0.1

    def test_the_odd_time_point(self, tables, nulls):
        for g, n in zip(tables, nulls, strict=True):
            i = g["labels"].index(g["odd"])
            assert g["series"][i] == g["series"][i - 1] and n["odd"] == g["odd"]  # not a series' first
            v = _cols(g, set(g["names"]))
            z = (v - v.mean(axis=0)) / v.std(axis=0)
            assert 80 <= np.sum(np.abs(z[i]) > 4) <= 130 and np.sum(np.abs(np.delete(z, i, axis=0)) > 4) < 40
            assert not g["odd_genes"] & (g["module"] | set(g["regulators"]))

    def test_deterministic_and_null_keeps_the_design(self, tables, nulls):
        g, n = tables[0], nulls[0]
        assert same_table(h21m.generate(M_SEEDS[0], n_cols=COLS)["values"], g["values"])
        assert n["names"] == g["names"] and n["regulators"] == g["regulators"] and n["labels"] == g["labels"]
        assert np.array_equal(np.isnan(n["values"]), np.isnan(g["values"]))
        same = [j for j, x in enumerate(g["names"]) if x in set(g["regulators"]) - g["module_tfs"]]
        assert np.array_equal(n["values"][:, same], g["values"][:, same], equal_nan=True)  # the other TFs
        assert not np.allclose(np.nan_to_num(n["values"]), np.nan_to_num(g["values"]))

    def test_full_width(self):
        g = h21m.generate(2194)
        assert 2400 <= g["values"].shape[1] <= 2700 and g["values"].shape[1] == len(g["names"])


def _kept(name: str, prof: np.ndarray, g: dict, children: set[str], flagged: list[str] | None = None) -> Kept:
    odd = (np.array(g["labels"]) == g["odd"]).astype(float)
    r = [abs(_r(prof, c)) for c in np.column_stack([g["star"], odd, g["factors"]]).T]
    return Kept(name, r, children, [], 0.0, 0.1, 30.0, flagged or [])


def test_scorer_reads_kept_hs(tables, monkeypatch):
    """``run_seed``'s reading of stand-in kept Hs (no search): one on R* with its module and TF targets
    (recovered), one on the G1/S phase alone with the periodic genes (PHASE, false), one on the odd
    time point (ODD, false)."""
    g = tables[0]
    rng = np.random.default_rng(0)
    odd = (np.array(g["labels"]) == g["odd"]).astype(float) + 0.05 * rng.normal(size=len(g["labels"]))
    profiles = {"H1": g["star"], "H2": g["star_phase"], "H3": odd}
    star_kids = g["module"] | g["module_tfs"]
    kept = [
        _kept("H1", g["star"], g, star_kids),
        _kept("H2", g["star_phase"], g, set(sorted(g["periodic"])[:60])),
        _kept("H3", odd, g, set(sorted(g["odd_genes"])[:40]), [g["odd"]]),
    ]
    assert kept[0].r[0] == pytest.approx(1.0) and kept[1].r[0] < 0.9 and kept[2].r[1] > 0.9
    monkeypatch.setattr(h21m, "fit_auto", lambda gg, source, seed: (_Est(profiles), 1.0, 2.0))
    monkeypatch.setattr(h21m, "kept_of", lambda hs, gg: kept)
    monkeypatch.setattr(h21m, "top_proposals", lambda est: [])
    line, t = h21m.run_seed(g, "h21m-2190", M_SEEDS[0])
    assert t["star"] and t["fast"] and t["enriched"] and t["tfs"] == len(g["module_tfs"])
    assert t["false"] == 2 and t["marks"] == 2 and line.count("FALSE") == 2
    assert "PHASE FALSE" in line and "ODD FALSE" in line and "beyond 1.00" in line
    text = h21m.summary("h21m", [t, t | {"star": False, "fast": False, "enriched": False}])
    assert "R* recovered (|r| >= 0.9) on 1/2" in text and "module enriched (p < 0.001) on 1/2" in text
    _, t_null = h21m.run_seed({**g, "null": True}, "h21m-null-2190", M_SEEDS[0])
    assert t_null["false"] == 3 and not t_null["star"]
    assert "a hidden variable kept on 1/1" in h21m.summary("h21m-null", [t_null])
