"""Smoke cases of the twenty-ninth session's hold-out generators: ``h29g`` (benchmarks/planted_h29g.py,
through ``planted_general``) and ``h29m`` (benchmarks/bench_regulators_genome_h29.py).

They check each generator's contract (shapes and ranges, names, determinism, the planted structure as
its docstring says: a routine clinical laboratory panel, each analyte in its unit and rounded to its
printed resolution, values past a reportable limit handed as the limit, sex as a column, in-vitro
haemolysis on a few intracellular analytes with the H-index as its proxy, an unmeasured IL-6 over 5-15
acute-phase analytes; a TMT proteomics table of a cancer cell-line panel, log2 ratios against each plex's
bridge, whose TFEB module and listed TF targets follow the removed TFEB, complexes' subunits moving
together, ratio compression, proteins missing in whole plexes, the unfolded-protein response on in the
myeloma lines, a null without TFEB's part) on seeds outside the hold-out ranges (2900-2909 and
2950-2959), the independent score check on a table in its own units, the h29m scorer's reading of kept
Hs on stand-ins (no search), and ``study_common_start``'s refusal of the hold-outs; they never run the
search: the hold-outs' recovery is measured once, at the start of the next session, by the lead."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

import bench_regulators as br  # noqa: E402
import bench_regulators_genome_h29 as h29m  # noqa: E402
import planted_general as pg  # noqa: E402
import planted_h29g as ph  # noqa: E402
import study_common_start  # noqa: E402
import tmt_names as tn  # noqa: E402
from _holdout_tables import same_table  # noqa: E402
from bench_regulators_genome_h20 import design_r2  # noqa: E402
from genome_auto import Kept  # noqa: E402
from test_bench_holdouts_h20 import _Est, _lstsq_r, _r  # noqa: E402
from test_bench_holdouts_mixed import _descendants  # noqa: E402

from engine.data import from_array  # noqa: E402
from engine.hidden import HiddenSearch  # noqa: E402

#: seed indices of ``h29g`` (seeds 2990-2999), outside the hold-out's 2900-2909
G_SEEDS = tuple(range(90, 100))


@pytest.mark.parametrize("gen", ["h29m", "h29m-null", "h29g"])
def test_study_common_start_refuses_the_hold_outs(gen):
    with pytest.raises(SystemExit, match="held out"):
        study_common_start.main(["--gen", gen])


def _same_in_null(seed: int) -> list[int]:
    """The analytes h reaches neither directly nor through its children's descendants, sex and the
    H-index."""
    net, n = ph.network(seed), ph.n_vars(seed)
    edges = [(int(p), int(c)) for p, c in zip(*np.nonzero(net.w[: n - 2, : n - 2]), strict=True)]
    reached = _descendants({int(v) for v in net.children}, edges)
    return [v for v in range(n) if v not in reached]


class TestH29g:
    def test_is_the_hold_out(self):
        assert pg.HOLD_OUT == "h29g" and pg.SPECS["h29g"].seed0 == ph.SEED0 == 2900
        assert pg.OWN_MODULE["h29g"] is ph and "h28g" in pg.SPECS

    @pytest.mark.parametrize("seed", G_SEEDS)
    def test_shapes_network_and_values(self, seed):
        x, kids, hs = pg.generate_all("h29g", seed)
        m, n = x.shape
        assert 120 <= m <= 900 and m == ph.n_samples(seed) and 30 <= n <= 50 and n == pg.n_vars("h29g", seed)
        assert np.isfinite(x).all() and x.min() >= 0.0
        assert len(kids) == len(hs) == 1 and hs[0].shape == (m,) and 5 <= len(kids[0]) <= 15
        assert kids[0] <= set(range(n - 2)) and abs(hs[0].mean()) < 1e-9 and abs(hs[0].std() - 1.0) < 1e-9
        net = ph.network(seed)
        assert all(net.kind[v] != 0 for v in kids[0])  # never a homeostatic analyte
        rank = {int(v): i for i, v in enumerate(net.order)}
        place = rank[n - 2]  # h's place in the order
        assert 0.05 < place / len(net.order) < 0.45 and all(rank[v] > place for v in kids[0])
        assert net.parent < 0 or rank[net.parent] < place
        edges = pg.true_edges("h29g", seed)
        assert all(rank[p] < rank[c] for p, c in edges if p < n - 2)
        sexed = {c for p, c in edges if p == n - 2}
        assert 0.15 < len(sexed) / (n - 2) < 0.4 and set(np.unique(x[:, n - 2])) == {0.0, 1.0}

    @pytest.mark.parametrize("seed", G_SEEDS)
    def test_null_is_the_same_off_h_paths(self, seed):
        x, kids, _ = pg.generate_all("h29g", seed)
        xn, kn, hn = pg.generate_all("h29g", seed, null=True)
        assert xn.shape == x.shape and kn == [] and hn == []
        same = _same_in_null(seed)
        assert len(same) >= 4 and np.array_equal(x[:, same], xn[:, same])
        assert not np.allclose(x[:, sorted(kids[0])], xn[:, sorted(kids[0])])

    def test_children_track_h_and_the_null_does_not(self):
        gaps, fits = [], []
        for seed in G_SEEDS:
            x, kids, (h,) = pg.generate_all("h29g", seed)
            xn, _, _ = pg.generate_all("h29g", seed, null=True)
            on = np.median([abs(_r(x[:, v], h)) for v in kids[0]])
            gaps.append(on - np.median([abs(_r(xn[:, v], h)) for v in kids[0]]))
            fits.append(_lstsq_r(x[:, sorted(kids[0])], h))
            assert on > 0.5
        assert min(gaps) > 0.4 and min(fits) > 0.8 and np.median(fits) > 0.9

    def test_resolution_limits_and_haemolysis(self):
        """Every analyte sits on its printed grid (a homeostatic one with few distinct values), a limited
        analyte has a point mass at its limit, the H-index reads the haemolysis and the haemolysed
        analytes follow it."""
        for seed in G_SEEDS[:5]:
            xn, _, _ = pg.generate_all("h29g", seed, null=True)
            a, net, n = ph.assays(seed), ph.network(seed), ph.n_vars(seed) - 2
            steps = xn[:, :n] / a["resolution"]
            on_grid = (
                np.isclose(steps, np.round(steps)) | np.isclose(xn[:, :n], a["low"]) | np.isclose(xn[:, :n], a["high"])
            )
            assert on_grid.all()
            distinct = np.array([len(np.unique(c)) for c in xn[:, :n].T])
            assert np.median(distinct[net.kind == 0]) <= 45 and distinct.max() < len(xn) * 0.9
            low = np.flatnonzero(a["low"] > 0)
            assert all(0.02 < np.mean(xn[:, v] == a["low"][v]) < 0.4 for v in low)
            hb, index = ph.haemolysis(seed), xn[:, -1]
            assert _r(index, hb) > 0.95 and index.min() == ph.H_INDEX_STEP and np.mean(index == index.min()) > 0.5
            lysed = ph._draws(seed)["lysed"]
            assert 3 <= len(lysed) <= 6 and np.median([_r(xn[:, v], hb) for v in lysed]) > 0.2
        logs = [np.mean(ph.network(s).kind == 2) for s in G_SEEDS]
        assert 0.25 < np.mean(logs) < 0.65


def test_independent_check_on_the_panel():
    """``bench_regulators.independent_score`` on a laboratory panel in its own units agrees with the
    engine's observed-data BIC."""
    x, _, _ = pg.generate_all("h29g", G_SEEDS[1])
    x = x[:, :12]
    names = [f"X{i + 1}" for i in range(x.shape[1])]
    hs = HiddenSearch(from_array(x, names, standardize=False))
    hs.set_edges([(0, 1), (1, 2), (3, 4)])
    assert br.independent_score(hs) - hs.observed_bic() == pytest.approx(0.0, abs=1e-6)


#: outside the ``h29m`` hold-out's 2950-2959; a reduced table
M_SEEDS, COLS = (2990, 2991, 2992), 600


@pytest.fixture(scope="module")
def tables():
    return [h29m.generate(s, n_cols=COLS) for s in M_SEEDS]


@pytest.fixture(scope="module")
def nulls():
    return [h29m.generate(s, True, n_cols=COLS) for s in M_SEEDS]


def _cols(g: dict, names) -> np.ndarray:
    return g["values"][:, [g["names"].index(x) for x in sorted(names)]]


def _pc1(v: np.ndarray) -> np.ndarray:
    """The first PC of columns with NaN (each filled with its mean)."""
    v = np.where(np.isnan(v), np.nanmean(v, axis=0), v)
    z = (v - v.mean(axis=0)) / v.std(axis=0)
    return np.linalg.svd(z, full_matrices=False)[0][:, 0]


def _nan_r(a: np.ndarray, b: np.ndarray) -> float:
    ok = ~(np.isnan(a) | np.isnan(b))
    return _r(a[ok], b[ok])


LABEL = re.compile(r"[0-9A-Z]+_[A-Z_]+")


class TestH29m:
    def test_shapes_names_and_design(self, tables):
        for g in tables:
            m, v = len(g["labels"]), g["values"]
            assert 20 <= m <= 60 and v.shape == (m, COLS) and len(g["names"]) == COLS
            assert len(set(g["names"])) == COLS and g["names"] == sorted(g["names"]) and len(set(g["labels"])) == m
            assert all(LABEL.fullmatch(x) for x in g["labels"]) and np.all(np.diff(g["plex"]) >= 0)
            assert np.bincount(g["plex"]).max() in (10, 15) and 2 <= g["plex"].max() + 1 <= 6
            assert 100 <= len(g["regulators"]) <= 120 and set(g["regulators"]) <= set(g["names"])
            assert g["star_name"] == tn.STAR and tn.STAR not in g["names"] and tn.STAR not in g["regulators"]
            assert 30 <= len(g["module"]) <= 50 and g["module"] <= set(tn.CLEAR) & set(g["names"])
            assert 3 <= len(g["module_tfs"]) <= 6 and g["module_tfs"] <= set(g["regulators"]) & set(tn.STAR_TF_TARGETS)
            assert 15 <= len(g["targets"][0]) <= 22 and g["targets"][0] <= set(tn.UPR) & set(g["names"])
            assert not g["targets"][0] & set(g["regulators"]) and set(tn.UPR_TFS) <= set(g["regulators"])
            for k in g["lineages"]:
                assert set(tn.LINEAGES[k][2].split()) <= set(g["regulators"])
            assert 3 <= g["myeloma"].sum() <= 5 and g["lineages"][0] == "myeloma"
            assert 4 <= len(g["complexes"]) <= 7 and all(set(x) <= set(g["names"]) for x in g["complexes"].values())
            assert np.nanmax(np.abs(v)) < 6.0 and np.allclose(np.nanmedian(v, axis=1), 0.0)

    def test_proteins_miss_whole_plexes(self, tables):
        """A protein is measured in every line of a plex or in none, in at least half the plexes; TFs miss
        more often than the complexes' subunits."""
        for g in tables:
            gone = np.isnan(g["values"])
            n_plex = g["plex"].max() + 1
            per = np.array([gone[g["plex"] == p].mean(axis=0) for p in range(n_plex)])
            assert set(np.unique(per)) <= {0.0, 1.0} and per.sum(axis=0).max() <= n_plex // 2
            assert 0.01 < gone.mean() < 0.12
            at = {x: i for i, x in enumerate(g["names"])}
            sub = [at[x] for c in g["complexes"].values() for x in c]
            assert gone[:, [at[x] for x in g["regulators"]]].mean() > gone[:, sub].mean()

    def test_ratio_compression_and_the_bridge(self):
        """Two groups of lines 2 log2 apart read less far apart (co-isolated ions pull the ratios toward
        1); an abundant protein misses no plex."""
        rng = np.random.default_rng(0)
        plex = np.repeat(np.arange(3), 10)
        level = np.zeros((30, 200))
        level[::2, :50] = 2.0  # a quarter of the proteins: the rows' medians stay put
        y = h29m._measure(rng, level, plex, np.ones(200))
        hi, lo = y[::2, :50].mean(axis=0), y[1::2, :50].mean(axis=0)
        assert np.all(hi - lo < 1.95) and np.median(hi - lo) < 1.7 and np.all(hi - lo > 0.5)
        assert not np.isnan(y).any()

    def test_complexes_move_together(self, tables, nulls):
        """A complex's subunits (abundant: never missing) correlate; other proteins hardly do."""
        for t in (*tables, *nulls):
            within = []
            for genes in t["complexes"].values():
                c = np.corrcoef(_cols(t, genes).T)
                within.append(np.median(c[np.triu_indices(len(c), 1)]))
            sub = {y for c in t["complexes"].values() for y in c}
            rest = [x for x in t["names"] if x not in sub and not np.isnan(_cols(t, [x])).any()][:60]
            c = np.abs(np.corrcoef(_cols(t, rest).T))
            assert np.median(within) > 0.3 and np.median(c[np.triu_indices(len(c), 1)]) < 0.2

    def test_module_and_its_tfs_track_tfeb_and_the_null_does_not(self, tables, nulls):
        for g, n in zip(tables, nulls, strict=True):
            on, off = abs(_r(_pc1(_cols(g, g["module"])), g["star"])), abs(_r(_pc1(_cols(n, g["module"])), g["star"]))
            assert on > 0.9 and off < on - 0.5
            tfs = [np.median([abs(_nan_r(c, g["star"])) for c in _cols(t, g["module_tfs"]).T]) for t in (g, n)]
            assert tfs[0] > 0.25 and tfs[1] < tfs[0] - 0.15
            assert design_r2(g["star"], g["plex"]) < 0.4

    def test_upr_on_in_the_myeloma_lines(self, tables, nulls):
        for g, n in zip(tables, nulls, strict=True):
            on = g["drivers"][:, 0] > 0
            assert np.array_equal(on, g["myeloma"]) and len(g["on"]) == on.sum() >= 3 and n["on"] == []
            assert all(x.endswith("HAEMATOPOIETIC_AND_LYMPHOID_TISSUE") for x in g["on"])
            shifts = []
            for t in (g, n):
                z = _cols(t, g["targets"][0])
                z = (z - np.nanmean(z[~on], axis=0)) / np.nanstd(z[~on], axis=0)
                shifts.append(np.nanmedian(np.nanmean(z[on], axis=0)))
            assert shifts[0] > 2.0 > 1.0 > abs(shifts[1])

    def test_deterministic_and_null_keeps_the_design(self, tables, nulls):
        g, n = tables[0], nulls[0]
        assert same_table(h29m.generate(M_SEEDS[0], n_cols=COLS)["values"], g["values"])
        assert n["names"] == g["names"] and n["regulators"] == g["regulators"] and n["labels"] == g["labels"]
        for key in ("plex", "lineage", "star", "factors", "myeloma"):
            assert np.array_equal(n[key], g[key])
        assert np.array_equal(np.isnan(n["values"]), np.isnan(g["values"]))
        assert not np.allclose(n["values"], g["values"], equal_nan=True)

    def test_full_width(self):
        g = h29m.generate(2994)
        assert 2400 <= g["values"].shape[1] <= 2800 and g["values"].shape[1] == len(g["names"])


def _kept(name: str, prof: np.ndarray, g: dict, children: set[str]) -> Kept:
    cols = [g["star"], g["drivers"][:, 0], *g["factors"].T]
    return Kept(name, [abs(_r(prof, c)) for c in cols], children, [], 0.0, 0.1, 30.0, [])


def test_scorer_reads_kept_hs(tables, monkeypatch):
    """``run_seed``'s reading of stand-in kept Hs (no search): one on R* with its module and TF targets
    (recovered), one on a complex (COMPLEX, false), one on the plexes (PLEX, false), one on one line (ROW
    with its label, false), one on nothing (false), one partly on D with D's proteins among its children
    (not marked, not false)."""
    g = tables[0]
    rng = np.random.default_rng(0)
    m = len(g["labels"])
    cname, genes = next(iter(g["complexes"].items()))
    block = _pc1(_cols(g, genes))
    plex = rng.normal(size=int(g["plex"].max()) + 1)[g["plex"]] + 0.05 * rng.normal(size=m)
    row = 0.05 * rng.normal(size=m)
    row[9] = 5.0
    noise = rng.normal(size=m)
    near_d = g["drivers"][:, 0] + 0.2 * rng.normal(size=m)
    profiles = {"H1": g["star"], "H2": block, "H3": plex, "H4": row, "H5": noise, "H6": near_d}
    few = set(sorted(g["names"])[:12])
    kept = [_kept("H1", g["star"], g, g["module"] | g["module_tfs"])]
    kept += [_kept(h, profiles[h], g, few) for h in ("H2", "H3", "H4", "H5")]
    kept.append(_kept("H6", near_d, g, g["targets"][0] | few))
    kept[4].activity = "KLF4"  # the report reads H5 as a listed TF's activity: said, counted as before
    assert kept[0].r[0] == pytest.approx(1.0) and all(max(k.r) < 0.9 for k in kept[1:])
    assert 0.5 < kept[5].r[1] < 0.9
    monkeypatch.setattr(h29m, "fit_auto", lambda gg, source, seed: (_Est(profiles), 1.0, 2.0))
    monkeypatch.setattr(h29m, "kept_of", lambda hs, gg: kept)
    monkeypatch.setattr(h29m, "top_proposals", lambda est: [])
    text, tally = h29m.run_seed(g, "h29m-2990", 2990)
    assert text.startswith(f"seed 2990 M {m} plexes ") and " R* OK 1.00 enriched yes " in text
    assert tally["star"] and tally["fast"] and tally["enriched"] and tally["tfs"] == len(g["module_tfs"])
    assert tally["false"] == 4 and tally["marks"] == 3 and text.count("FALSE") == 4 and not tally["drivers"][0]
    assert " PLEX FALSE" in text and f" ROW {g['labels'][9]} FALSE" in text and f" COMPLEX {cname} FALSE" in text
    assert text.count(" ACTIVITY ") == 1 and "leverage 0.10) ACTIVITY KLF4" in text
    summary = h29m.summary("h29m", [tally, tally | {"star": False, "fast": False, "enriched": False}])
    assert "R* recovered (|r| >= 0.9) on 1/2 (1 within 300 s CPU)" in summary and "D recovered on 0/2" in summary
    assert "a complex, the plexes or one line 6" in summary
    _, t_null = h29m.run_seed({**g, "null": True}, "h29m-null-2990", 2990)
    assert t_null["false"] == 6 and not t_null["star"]
    assert "a hidden variable kept on 1/1" in h29m.summary("h29m-null", [t_null])
