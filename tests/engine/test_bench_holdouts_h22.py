"""Smoke cases of the twenty-second session's hold-out generators: ``h22g`` (benchmarks/planted_h22g.py,
through ``planted_general``) and ``h22m`` (benchmarks/bench_regulators_genome_h22.py).

They check each generator's contract (shapes and ranges, names, determinism, the planted structure as
its docstring says: a hidden regulator of 5-15 genes measured as bulk RNA-seq, negative-binomial counts
at modest depth over unequal libraries as log2(1 + CPM); a human bulk tumour cohort whose MYC module and
listed TF targets follow the removed MYC beyond its copy number, with purity and infiltration, arm-level
copy number and an amplicon, a sequencing-centre batch, an on/off cancer-testis program, missing cells,
a null whose module follows MYC's copy number alone) on seeds outside the hold-out ranges (2200-2209 and
2250-2259), and the h22m scorer's reading of kept Hs on stand-ins (no search); they never run the search:
the hold-outs' recovery is measured once, at the start of the next session, by the lead."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

import bench_regulators_genome_h22 as h22m  # noqa: E402
import human_names as hn  # noqa: E402
import planted_general as pg  # noqa: E402
import planted_h22g as ph  # noqa: E402
from _holdout_tables import same_table  # noqa: E402
from bench_regulators_genome_h20 import design_r2  # noqa: E402
from genome_auto import Kept  # noqa: E402
from test_bench_holdouts_h20 import _Est, _lstsq_r, _pc1, _r  # noqa: E402
from test_bench_holdouts_mixed import _same_network_without_roots  # noqa: E402

#: seed indices of ``h22g`` (seeds 2290-2299), outside the hold-out's 2200-2209
G_SEEDS = tuple(range(90, 100))


class TestH22g:
    def test_was_the_hold_out(self):
        """``h22g`` was session 22's hold-out; ``h29g`` session 29's (test_bench_holdouts_h29)."""
        assert pg.HOLD_OUT == "h29g" and pg.SPECS["h22g"].seed0 == ph.SEED0 == 2200
        assert pg.OWN_MODULE["h22g"] is ph and "h21g" in pg.SPECS

    @pytest.mark.parametrize("seed", G_SEEDS)
    def test_shapes_and_the_count_table(self, seed):
        x, kids, hs = pg.generate_all("h22g", seed)
        m, n = x.shape
        assert 40 <= m <= 400 and m == ph.n_samples(seed) and 30 <= n <= 60 and n == pg.n_vars("h22g", seed)
        assert np.isfinite(x).all() and x.min() >= 0.0 and (x.std(axis=0) > 0.1).all()
        assert len(kids) == len(hs) == 1 and hs[0].shape == (m,) and 5 <= len(kids[0]) <= 15
        net = ph.network(seed)
        rank = {int(v): i for i, v in enumerate(net.order)}
        assert all(rank[v] >= net.place for v in kids[0]) and (net.parent < 0 or rank[net.parent] < net.place)
        assert set(np.flatnonzero(net.c).tolist()) == kids[0] and np.sum(net.c**2) >= ph.MIN_LOAD2 - 1e-9
        assert all(rank[p] < rank[c] for p, c in pg.true_edges("h22g", seed))  # a DAG along the order
        co = [np.count_nonzero(net.b[:n, v]) > 0 for v in kids[0]]
        assert np.mean(co) >= 0.4 and all(net.b[n, v] != 0 for v in kids[0])
        # what the table holds: log2(1 + CPM) of whole read counts over each sample's library
        _, counts = ph.true_values(seed)
        assert np.allclose(x, ph.log_cpm(counts, net.library)) and np.array_equal(counts, np.round(counts))
        back = (2.0**x - 1.0) * net.library[:, None] / 1e6
        assert np.allclose(back, np.round(back), atol=1e-6)
        assert 2e6 * 0.2 <= np.median(net.library) <= 2e7 * 5 and net.library.max() > 2.5 * net.library.min()
        assert net.cpm[sorted(kids[0])].min() >= 8.0 and counts[:, sorted(kids[0])].mean(axis=0).min() > 10

    def test_faint_genes_are_noisier(self):
        """The count step's noise is set by the level: a faint gene's log2(1 + CPM) follows its
        biological level z less closely than a highly expressed gene's."""
        faint, bright = [], []
        for seed in G_SEEDS:
            net = ph.network(seed)
            x, _, _ = ph.generate(seed)
            z, _ = ph.true_values(seed)
            for v in range(x.shape[1]):
                r = abs(_r(x[:, v], z[:, v])) ** 2 / net.amp[v] ** 2  # per unit of biological variance
                (faint if net.cpm[v] < 5 else bright if net.cpm[v] > 100 else []).append(r)
        assert len(faint) > 20 and len(bright) > 20 and np.median(faint) < np.median(bright)

    def test_seeds_vary(self):
        nets = [ph.network(s) for s in G_SEEDS]
        assert {n.parent >= 0 for n in nets} == {True, False}
        ms = [ph.n_samples(s) for s in G_SEEDS]
        depths = [np.median(n.library) for n in nets]
        assert max(ms) > 2.5 * min(ms) and max(depths) > 3 * min(depths)

    @pytest.mark.parametrize("seed", G_SEEDS)
    def test_null_is_the_network_without_h(self, seed):
        _same_network_without_roots("h22g", seed)

    @pytest.mark.parametrize("seed", G_SEEDS)
    def test_children_track_h_and_the_null_does_not(self, seed):
        x, kids, (h,) = pg.generate_all("h22g", seed)
        xn, _, _ = pg.generate_all("h22g", seed, null=True)
        k = sorted(kids[0])
        assert _lstsq_r(x[:, k], h) > 0.85
        assert np.median([abs(_r(x[:, v], h)) for v in k]) > 0.4
        assert np.median([abs(_r(xn[:, v], h)) for v in k]) < 0.2


#: outside the ``h22m`` hold-out's 2250-2259; a reduced table
M_SEEDS, COLS = (2290, 2291, 2292), 600


@pytest.fixture(scope="module")
def tables():
    return [h22m.generate(s, n_cols=COLS) for s in M_SEEDS]


@pytest.fixture(scope="module")
def nulls():
    return [h22m.generate(s, True, n_cols=COLS) for s in M_SEEDS]


def _cols(g: dict, names: set[str]) -> np.ndarray:
    v = g["values"][:, [g["names"].index(x) for x in sorted(names)]]
    return np.where(np.isnan(v), np.nanmean(v, axis=0), v)


class TestH22m:
    def test_shapes_names_and_lists(self, tables):
        for g in tables:
            m = len(g["labels"])
            assert 120 <= m <= 300 and g["values"].shape == (m, COLS) and len(g["names"]) == COLS
            assert 20 <= np.isnan(g["values"]).sum() <= 60 and np.nanmin(g["values"]) >= 0.0
            assert len(set(g["names"])) == COLS and g["names"] == sorted(g["names"])
            assert len(set(g["labels"])) == m and g["labels"] == sorted(g["labels"])
            pattern = r"TCGA-[A-Z0-9]{2}-[A-Z0-9]{4}-01A-11R-A\d{3}-(\d{2})"
            centres = [re.fullmatch(pattern, x).group(1) for x in g["labels"]]
            assert centres == [g["centres"][c] for c in g["centre"]] and 2 <= len(g["centres"]) <= 3
            assert 100 <= len(g["regulators"]) <= 130 and set(g["regulators"]) <= set(g["names"])
            assert g["star_name"] == "MYC" and "MYC" not in g["names"] and "MYC" not in g["regulators"]
            assert 30 <= len(g["module"]) <= 50 and g["module"] <= set(g["names"]) - set(g["regulators"])
            assert 3 <= len(g["module_tfs"]) <= 6 and g["module_tfs"] <= set(g["regulators"]) & set(hn.MYC_TF_TARGETS)
            assert 3 <= len(g["on"]) <= max(3, round(0.08 * m)) and 15 <= len(g["targets"][0]) <= 25
            assert g["segments"].shape == (m, len(hn.ARMS) + 1) and set(g["segment_of"]) == set(g["names"])
            assert {g["segment_of"][x] for x in g["amplicon"]} == {h22m.AMP_NAME} and "ERBB2" in g["amplicon"]
            assert {g["segment_of"][x] for x in g["targets"][0]} == {"Xq"}
            assert np.allclose(g["purity"] + g["immune"] + g["stroma"], 1.0) and g["purity"].min() >= 0.15

    def test_composition(self, tables):
        for g in tables:
            assert abs(_r(_pc1(_cols(g, g["immune_genes"])), g["immune"])) > 0.8
            assert abs(_r(_pc1(_cols(g, g["stroma_genes"])), g["stroma"])) > 0.8

    def test_chromosome_neighbours_co_vary(self, tables):
        """A gene on an arm with recurrent events follows its arm's dosage more than another such arm's
        (copy number makes neighbours co-vary); the amplicon's genes are up in its tumours; 8q is
        gained in a fifth of the tumours or more."""
        arms = list(hn.RECURRENT)
        for g in tables:
            v, names, segs, seg_names = _cols(g, set(g["names"])), sorted(g["names"]), g["segments"], g["segment_names"]
            own, other = [], []
            for j, x in enumerate(names):
                if (arm := g["segment_of"][x]) in arms:
                    far = arms[(arms.index(arm) + 5) % len(arms)]
                    own.append(abs(_r(v[:, j], segs[:, seg_names.index(arm)])))
                    other.append(abs(_r(v[:, j], segs[:, seg_names.index(far)])))
            assert len(own) > 100 and np.median(own) > 2 * np.median(other) + 0.02
            amp = _cols(g, g["amplicon"])
            z, on = (amp - amp.mean(axis=0)) / amp.std(axis=0), np.isin(g["labels"], g["amplified"])
            assert on.sum() >= 5 and np.median(z[on].mean(axis=0) - z[~on].mean(axis=0)) > 0.7
            assert np.mean(segs[:, seg_names.index("8q")] > 0) > 0.2

    def test_the_module_and_its_tfs_track_myc_beyond_its_copy_number(self, tables, nulls):
        for g, n in zip(tables, nulls, strict=True):
            pc, pc_null = _pc1(_cols(g, g["module"])), _pc1(_cols(n, g["module"]))
            assert abs(_r(pc, g["star"])) > 0.93 and abs(_r(g["star"], g["star_cn"])) < 0.75
            assert abs(_r(pc_null, g["star_cn"])) > 0.9 and abs(_r(pc_null, g["star"])) < 0.75
            signs = [np.sign(_r(c, g["star"])) for c in _cols(g, g["module"]).T]
            assert np.mean(np.array(signs) > 0) > 0.7  # an activator
            tfs = np.median([abs(_r(c, g["star"])) for c in _cols(g, g["module_tfs"]).T])
            assert tfs > np.median([abs(_r(c, g["star"])) for c in _cols(n, g["module_tfs"]).T]) + 0.1

    def test_the_on_off_program_and_the_centres(self, tables, nulls):
        for g, n in zip(tables, nulls, strict=True):
            d = g["drivers"][:, 0]
            assert abs(_r(_pc1(_cols(g, g["targets"][0])), d)) > 0.9 and n["on"] == []
            assert abs(_r(_pc1(_cols(n, g["targets"][0])), d)) < 0.5
            v = _cols(g, set(g["names"]))
            shuffled = np.random.default_rng(0).permutation(g["centre"])
            r2 = [design_r2(c, g["centre"]) for c in v.T]
            assert np.mean(np.array(r2) > 0.05) > np.mean([design_r2(c, shuffled) > 0.05 for c in v.T]) + 0.1

    def test_deterministic_and_null_keeps_the_design(self, tables, nulls):
        g, n = tables[0], nulls[0]
        assert same_table(h22m.generate(M_SEEDS[0], n_cols=COLS)["values"], g["values"])
        assert n["names"] == g["names"] and n["regulators"] == g["regulators"] and n["labels"] == g["labels"]
        assert np.array_equal(np.isnan(n["values"]), np.isnan(g["values"]))
        for key in ("purity", "immune", "segments", "depth", "star_cn", "centre"):
            assert np.array_equal(n[key], g[key])
        assert not np.allclose(np.nan_to_num(n["values"]), np.nan_to_num(g["values"]))

    def test_full_width(self):
        g = h22m.generate(2294)
        assert 2200 <= g["values"].shape[1] <= 2700 and g["values"].shape[1] == len(g["names"])


def _kept(name: str, prof: np.ndarray, g: dict, children: set[str], flagged: list[str] | None = None) -> Kept:
    cols = [g["star"], g["drivers"][:, 0], g["purity"], g["immune"], g["stroma"], g["depth"], *g["factors"].T]
    return Kept(name, [abs(_r(prof, c)) for c in cols], children, [], 0.0, 0.1, 30.0, flagged or [])


def test_scorer_reads_kept_hs(tables, monkeypatch):
    """``run_seed``'s reading of stand-in kept Hs (no search): one on R* with its module and TF targets
    (recovered), one on purity with the stroma genes (PURITY and STROMA, false), one on the amplicon's
    dosage with its genes (CNV, false), one on the sequencing centres (BATCH, false), one on nothing with
    mostly immune children (IMMUNE, false)."""
    g = tables[0]
    rng = np.random.default_rng(0)
    amp = g["segments"][:, g["segment_names"].index(h22m.AMP_NAME)]
    centre = g["centre"] + 0.05 * rng.normal(size=len(g["labels"]))
    noise = rng.normal(size=len(g["labels"]))
    profiles = {"H1": g["star"], "H2": g["purity"], "H3": amp, "H4": centre, "H5": noise}
    t_cells = set(sorted(g["immune_genes"])[:8])
    kept = [
        _kept("H1", g["star"], g, g["module"] | g["module_tfs"]),
        _kept("H2", g["purity"], g, set(g["stroma_genes"])),
        _kept("H3", amp, g, set(g["amplicon"])),
        _kept("H4", centre, g, set(sorted(g["names"])[:30])),
        _kept("H5", noise, g, t_cells | set(sorted(g["names"])[-4:])),
    ]
    assert kept[0].r[0] == pytest.approx(1.0) and max(kept[3].r) < 0.9 and max(kept[4].r) < 0.5
    assert h22m.cnv_reading(noise, g["targets"][0], g)[2] == 0.0  # D's genes share Xq, which has no events
    monkeypatch.setattr(h22m, "fit_auto", lambda gg, source, seed: (_Est(profiles), 1.0, 2.0))
    monkeypatch.setattr(h22m, "kept_of", lambda hs, gg: kept)
    monkeypatch.setattr(h22m, "top_proposals", lambda est: [])
    line, t = h22m.run_seed(g, "h22m-2290", M_SEEDS[0])
    assert t["star"] and t["fast"] and t["enriched"] and t["tfs"] == len(g["module_tfs"])
    assert t["false"] == 4 and t["marks"] == 4 and line.count("FALSE") == 4 and not t["drivers"][0]
    assert "PURITY STROMA FALSE" in line and "CNV FALSE" in line and "BATCH FALSE" in line
    assert "on one segment 1.00" in line and "IMMUNE FALSE" in line
    text = h22m.summary("h22m", [t, t | {"star": False, "fast": False, "enriched": False}])
    assert "R* recovered (|r| >= 0.9) on 1/2 (1 within 300 s CPU)" in text and "D recovered on 0/2" in text
    _, t_null = h22m.run_seed({**g, "null": True}, "h22m-null-2290", M_SEEDS[0])
    assert t_null["false"] == 5 and not t_null["star"]
    assert "a hidden variable kept on 1/1" in h22m.summary("h22m-null", [t_null])
