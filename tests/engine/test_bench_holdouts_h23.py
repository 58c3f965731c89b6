"""Smoke cases of the twenty-third session's hold-out generators: ``h23g`` (benchmarks/planted_h23g.py,
through ``planted_general``) and ``h23m`` (benchmarks/bench_regulators_genome_h23.py).

They check each generator's contract (shapes and ranges, names, determinism, the planted structure as
its docstring says: a small Hill-regulated network measured as a perturbation screen, knockouts at zero,
knockdowns, wild types and multifactorial samples, a never-perturbed hidden regulator of 5-15 genes; an
E. coli microarray compendium of many series with replicates, time courses, knockouts, lab and platform
offsets, whose CRP module and listed TF targets follow the removed CRP, an SHX stringent program, a null
without CRP's part) on seeds outside the hold-out ranges (2300-2309 and 2350-2359), the h23m scorer's
reading of kept Hs on stand-ins (no search); they never run the search (the hold-outs' recovery was
measured once, at the start of session 24, by the lead; ``study_common_start`` refuses the next ones,
test_bench_holdouts_h25)."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

import bench_regulators_genome_h23 as h23m  # noqa: E402
import ecoli_names as en  # noqa: E402
import planted_general as pg  # noqa: E402
import planted_h23g as ph  # noqa: E402
from _holdout_tables import same_table  # noqa: E402
from bench_regulators_genome_h20 import design_r2  # noqa: E402
from genome_auto import Kept  # noqa: E402
from test_bench_holdouts_h20 import _Est, _lstsq_r, _pc1, _r  # noqa: E402
from test_bench_holdouts_mixed import _same_network_without_roots  # noqa: E402

#: seed indices of ``h23g`` (seeds 2390-2399), outside the hold-out's 2300-2309
G_SEEDS = tuple(range(90, 100))


class TestH23g:
    def test_stays_runnable_after_its_session(self):
        """``h23g`` was the twenty-third session's hold-out; ``h29g`` the twenty-ninth's (test_bench_holdouts_h29)."""
        assert pg.HOLD_OUT == "h29g" and pg.SPECS["h23g"].seed0 == ph.SEED0 == 2300
        assert pg.OWN_MODULE["h23g"] is ph and "h22g" in pg.SPECS

    @pytest.mark.parametrize("seed", G_SEEDS)
    def test_shapes_network_and_design(self, seed):
        x, kids, hs = pg.generate_all("h23g", seed)
        m, n = x.shape
        assert 40 <= m <= 400 and m == ph.n_samples(seed) and 25 <= n <= 50 and n == pg.n_vars("h23g", seed)
        assert np.isfinite(x).all() and x.min() >= 0.0 and (x.std(axis=0) > 0).all()
        assert len(kids) == len(hs) == 1 and hs[0].shape == (m,) and 5 <= len(kids[0]) <= 15
        net = ph.network(seed)
        rank = {int(v): i for i, v in enumerate(net.order)}
        assert net.order[net.place] == n and all(rank[v] > net.place for v in kids[0])
        assert net.parent < 0 or rank[net.parent] < net.place
        assert set(np.flatnonzero(net.w[n, :n]).tolist()) == kids[0]
        assert all(rank[p] < rank[c] for p, c in pg.true_edges("h23g", seed))  # a DAG along the order
        assert np.mean([net.w[:n, v].any() for v in kids[0]]) >= 0.4  # observed co-parents
        kind, target = ph.design(seed)
        assert len(kind) == m and 2 <= np.sum(kind == 1) <= 5 and np.mean(kind == 0) > 0.25
        assert 0.15 <= np.mean(kind == 2) <= 0.45 and np.all((target >= 0) == (kind >= 2)) and target.max() < n
        ko = np.flatnonzero(kind == 2)  # a knocked-out gene reads measurement noise only
        assert np.all(x[ko, target[ko]] < 0.15) and np.median(x[kind == 0]) > 0.1
        # the knocked-out genes cycle: none twice before every gene once
        counts = np.bincount(target[ko], minlength=n)
        assert counts.max() - counts.min() <= 1

    @pytest.mark.parametrize("seed", G_SEEDS)
    def test_null_is_the_network_without_h(self, seed):
        _same_network_without_roots("h23g", seed)
        x, _ = ph.true_values(seed)
        xn, _ = ph.true_values(seed, null=True)
        assert np.array_equal(x[:, -1], xn[:, -1])  # h itself is the same; only its effect is gone

    @pytest.mark.parametrize("seed", G_SEEDS)
    def test_children_track_h_and_the_null_does_not(self, seed):
        x, kids, (h,) = pg.generate_all("h23g", seed)
        xn, _, _ = pg.generate_all("h23g", seed, null=True)
        k = sorted(kids[0])
        assert _lstsq_r(x[:, k], h) > 0.65
        on, off = np.median([abs(_r(x[:, v], h)) for v in k]), np.median([abs(_r(xn[:, v], h)) for v in k])
        assert on > 0.2 and on > off + 0.1

    def test_knockouts_reach_the_children(self):
        """A knocked-out parent moves its children away from the wild type (the screen's information)."""
        moved = []
        for seed in G_SEEDS:
            x, _, _ = ph.generate(seed)
            kind, target = ph.design(seed)
            net = ph.network(seed)
            n = x.shape[1]
            wt = x[kind == 1].mean(axis=0)
            for i in np.flatnonzero(kind == 2):
                for c in np.flatnonzero(net.w[target[i], :n]):
                    moved.append(abs(x[i, c] - wt[c]) / max(x[kind == 1, c].std(), 0.02))
        assert len(moved) > 100 and np.median(moved) > 2.0

    def test_seeds_vary_and_are_deterministic(self):
        nets = [ph.network(s) for s in G_SEEDS]
        assert {n.parent >= 0 for n in nets} == {True, False}
        ms = [ph.n_samples(s) for s in G_SEEDS]
        assert max(ms) > 2.5 * min(ms)
        a, b = ph.generate(G_SEEDS[0]), ph.generate(G_SEEDS[0])
        assert np.array_equal(a[0], b[0]) and a[1] == b[1] and np.array_equal(a[2][0], b[2][0])


#: outside the ``h23m`` hold-out's 2350-2359; a reduced table
M_SEEDS, COLS = (2390, 2391, 2392), 700


@pytest.fixture(scope="module")
def tables():
    return [h23m.generate(s, n_cols=COLS) for s in M_SEEDS]


@pytest.fixture(scope="module")
def nulls():
    return [h23m.generate(s, True, n_cols=COLS) for s in M_SEEDS]


def _cols(g: dict, names: set[str]) -> np.ndarray:
    return g["values"][:, [g["names"].index(x) for x in sorted(names)]]


def _shift(g: dict, genes: set[str], rows: np.ndarray) -> float:
    """The median over ``genes`` of |their mean on ``rows`` - off them|, in each gene's sd."""
    z = _cols(g, genes)
    z = (z - z.mean(axis=0)) / z.std(axis=0)
    return float(np.median(np.abs(z[rows].mean(axis=0) - z[~rows].mean(axis=0))))


class TestH23m:
    def test_shapes_names_and_lists(self, tables):
        for g in tables:
            m = len(g["labels"])
            assert 300 <= m <= 500 and g["values"].shape == (m, COLS) and len(g["names"]) == COLS
            assert np.isfinite(g["values"]).all() and 3.0 < g["values"].min() and g["values"].max() < 20.0
            assert len(set(g["names"])) == COLS and g["names"] == sorted(g["names"]) and len(set(g["labels"])) == m
            assert all(re.fullmatch(r"GSE\d+(_[A-Za-z0-9]+){2,3}_r\d", x) for x in g["labels"])
            assert 120 <= len(g["regulators"]) <= 170 and set(g["regulators"]) <= set(g["names"])
            assert g["star_name"] == "crp" and "crp" not in g["names"] and "crp" not in g["regulators"]
            assert 150 <= len(g["module"]) <= 250 and g["module"] <= set(g["names"]) - set(g["regulators"])
            assert 5 <= len(g["module_tfs"]) <= 10 and g["module_tfs"] <= set(g["regulators"]) & set(en.CRP_TF_TARGETS)
            assert {x for op in g["operons"] for x in op.split()} <= g["module"] and "lacZ lacY lacA" in en.OPERONS
            assert 60 <= len(g["targets"][0]) <= 100 and g["targets"][0] <= set(en.RIBOSOMAL) | set(en.AMINO)
            assert 4 <= len(g["on"]) <= 8 and all("_SHX_t" in x and "_SHX_t000" not in x for x in g["on"])
            sizes = np.bincount(g["series"])
            assert sizes.max() <= 20 and len(sizes) >= 15 and np.bincount(g["condition"]).max() <= 3

    def test_module_and_its_tfs_track_crp_and_the_null_does_not(self, tables, nulls):
        for g, n in zip(tables, nulls, strict=True):
            assert abs(_r(_pc1(_cols(g, g["module"])), g["star"])) > 0.95
            assert abs(_r(_pc1(_cols(n, g["module"])), g["star"])) < 0.5
            tfs = np.median([abs(_r(c, g["star"])) for c in _cols(g, g["module_tfs"]).T])
            assert tfs > np.median([abs(_r(c, g["star"])) for c in _cols(n, g["module_tfs"]).T]) + 0.15
            signs = np.array([np.sign(_r(c, g["star"])) for c in _cols(g, g["module"]).T])
            assert 0.6 < np.mean(signs > 0) < 0.98  # mostly activated, some repressed
            low = np.array([en.MEDIA[x] < 0 for x in g["medium"]])
            assert g["star"][low].mean() < g["star"][~low].mean() - 0.5  # cAMP low on glucose

    def test_stringent_program_knockouts_and_replicates(self, tables, nulls):
        for g, n in zip(tables, nulls, strict=True):
            d, on = g["drivers"][:, 0], g["drivers"][:, 0] > 0
            assert abs(_r(_pc1(_cols(g, g["targets"][0])), d)) > 0.5 and n["on"] == []
            assert abs(_r(_pc1(_cols(n, g["targets"][0])), d)) < 0.3
            assert _shift(g, g["targets"][0], on) > 1.5 > 0.6 > _shift(n, g["targets"][0], on)
            kos = sorted(set(g["ko"]) - {"", "crp"})
            assert kos
            for t in kos:  # a deleted TF's probe reads background
                v, ko = _cols(g, {t})[:, 0], np.array([x == t for x in g["ko"]])
                assert v[ko].mean() < v[~ko].mean() - 1.0
            z = (g["values"] - g["values"].mean(axis=0)) / g["values"].std(axis=0)
            c = np.corrcoef(z)
            same = g["condition"][:, None] == g["condition"][None, :]
            series = (g["series"][:, None] == g["series"][None, :]) & ~same
            off = ~np.eye(len(z), dtype=bool)
            assert c[same & off].mean() > c[series].mean() + 0.1 > c[~series & ~same].mean() + 0.1

    def test_series_batch(self, tables):
        g = tables[0]
        r2 = np.array([design_r2(c, g["series"]) for c in g["values"].T])
        shuffled = np.random.default_rng(0).permutation(g["series"])
        assert np.median(r2) > np.median([design_r2(c, shuffled) for c in g["values"].T]) + 0.05

    def test_seeds_vary(self, tables):
        seeds = range(2390, 2400)
        assert {h23m.two_platforms(s) for s in seeds} == {h23m.has_dcrp(s) for s in seeds} == {True, False}
        for s, g in zip(M_SEEDS, tables, strict=True):
            assert g["platform"].any() == h23m.two_platforms(s) and ("crp" in g["ko"]) == h23m.has_dcrp(s)
            dcrp = np.array([x == "crp" for x in g["ko"]])  # the dcrp arrays hold CRP at its floor
            assert not dcrp.any() or g["star"][dcrp].max() < g["star"][~dcrp].min()

    def test_deterministic_and_null_keeps_the_design(self, tables, nulls):
        g, n = tables[0], nulls[0]
        assert same_table(h23m.generate(M_SEEDS[0], n_cols=COLS)["values"], g["values"])
        assert n["names"] == g["names"] and n["regulators"] == g["regulators"] and n["labels"] == g["labels"]
        for key in ("series", "condition", "platform", "star", "factors"):
            assert np.array_equal(n[key], g[key])
        off = [j for j, x in enumerate(g["names"]) if x not in g["module"] | g["targets"][0]]
        assert not np.allclose(n["values"][:, off], g["values"][:, off])  # TF targets, factors' genes
        assert not np.allclose(n["values"], g["values"])

    def test_full_width(self):
        g = h23m.generate(2394)
        assert 2500 <= g["values"].shape[1] <= 3200 and g["values"].shape[1] == len(g["names"])


def _kept(name: str, prof: np.ndarray, g: dict, children: set[str]) -> Kept:
    cols = [g["star"], g["drivers"][:, 0], *g["factors"].T]
    return Kept(name, [abs(_r(prof, c)) for c in cols], children, [], 0.0, 0.1, 30.0, [])


def test_scorer_reads_kept_hs(tables, monkeypatch):
    """``run_seed``'s reading of stand-in kept Hs (no search): one on R* with its module and TF targets
    (recovered), one on the series (SERIES, false), one on a knockout's arrays (KO, false), one on one
    condition's replicates (CONDITION, false), one on a second platform (PLATFORM, false), one on
    nothing (false)."""
    g = tables[0]
    rng = np.random.default_rng(0)
    m = len(g["labels"])
    series = rng.normal(size=int(g["series"].max()) + 1)[g["series"]] + 0.05 * rng.normal(size=m)
    t = sorted(set(g["ko"]) - {"", "crp"})[0]
    ko = np.array([x == t for x in g["ko"]], float) + 0.01 * rng.normal(size=m)
    size = np.bincount(g["series"])[g["series"]]  # a condition of 3 replicates in a larger series
    c = int(next(c for c in np.flatnonzero(np.bincount(g["condition"]) == 3) if size[g["condition"] == c][0] > 6))
    cond = (g["condition"] == c).astype(float) + 0.01 * rng.normal(size=m)
    platform = (g["series"] % 3 == 0).astype(int)
    g = {**g, "platform": platform}
    plat = platform + 0.05 * rng.normal(size=m)
    noise = rng.normal(size=m)
    profiles = {"H1": g["star"], "H2": series, "H3": ko, "H4": cond, "H5": plat, "H6": noise}
    few = set(sorted(g["names"])[:12])
    kept = [_kept("H1", g["star"], g, g["module"] | g["module_tfs"])]
    kept += [_kept(h, profiles[h], g, few) for h in ("H2", "H3", "H4", "H5", "H6")]
    assert kept[0].r[0] == pytest.approx(1.0) and all(max(k.r) < 0.9 for k in kept[1:])
    monkeypatch.setattr(h23m, "fit_auto", lambda gg, source, seed: (_Est(profiles), 1.0, 2.0))
    monkeypatch.setattr(h23m, "kept_of", lambda hs, gg: kept)
    monkeypatch.setattr(h23m, "top_proposals", lambda est: [])
    line, tally = h23m.run_seed(g, "h23m-2390", M_SEEDS[0])
    assert tally["star"] and tally["fast"] and tally["enriched"] and tally["tfs"] == len(g["module_tfs"])
    assert tally["false"] == 5 and tally["marks"] == 4 and line.count("FALSE") == 5 and not tally["drivers"][0]
    assert "SERIES FALSE" in line and f"(KO {t})" in line and " KO FALSE" in line and " CONDITION FALSE" in line
    assert "PLATFORM SERIES FALSE" in line  # a platform is a union of series
    text = h23m.summary("h23m", [tally, tally | {"star": False, "fast": False, "enriched": False}])
    assert "R* recovered (|r| >= 0.9) on 1/2 (1 within 300 s CPU)" in text and "D recovered on 0/2" in text
    _, t_null = h23m.run_seed({**g, "null": True}, "h23m-null-2390", M_SEEDS[0])
    assert t_null["false"] == 6 and not t_null["star"]
    assert "a hidden variable kept on 1/1" in h23m.summary("h23m-null", [t_null])
