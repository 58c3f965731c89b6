"""Smoke cases of the twenty-fourth session's hold-out generators: ``h24g`` (benchmarks/planted_h24g.py,
through ``planted_general``) and ``h24m`` (benchmarks/bench_regulators_genome_h24.py).

They check each generator's contract (shapes and ranges, names, determinism, the planted structure as
its docstring says: a phosphoproteomics table of a small signalling network, log2 intensities with cells
missing below a detection limit, an unmeasured kinase of 5-15 sites; a human cell-line drug screen on
plates, cell lines as the strongest axis, whose p53 module and listed TF targets follow the removed TP53
only in lines where p53 works, a heat-shock program on the proteasome and HSP90 inhibitors' top doses, a
null without TP53's part) on seeds outside the hold-out ranges (2400-2409 and 2450-2459), the independent
score check on a table with missing cells, the h24m scorer's reading of kept Hs on stand-ins (no search);
they never run the search (the hold-outs' recovery is measured once, at the start of session 25, by the
lead; ``study_common_start`` refuses the next ones, test_bench_holdouts_h25)."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

import bench_regulators as br  # noqa: E402
import bench_regulators_genome_h24 as h24m  # noqa: E402
import planted_general as pg  # noqa: E402
import planted_h24g as ph  # noqa: E402
import screen_names as sn  # noqa: E402
from _holdout_tables import same_table  # noqa: E402
from bench_regulators_genome_h20 import design_r2  # noqa: E402
from genome_auto import Kept  # noqa: E402
from test_bench_holdouts_h20 import _Est, _pc1, _r  # noqa: E402
from test_bench_holdouts_mixed import _descendants  # noqa: E402

from engine.data import from_array  # noqa: E402
from engine.hidden import HiddenSearch  # noqa: E402

#: seed indices of ``h24g`` (seeds 2490-2499), outside the hold-out's 2400-2409
G_SEEDS = tuple(range(90, 100))


def _nan_r(a: np.ndarray, b: np.ndarray) -> float:
    """|r| over the cells where both are present."""
    both = ~np.isnan(a) & ~np.isnan(b)
    return abs(_r(a[both], b[both]))


class TestH24g:
    def test_stays_runnable_after_its_session(self):
        """``h24g`` was session 24's hold-out; ``h29g`` session 29's (test_bench_holdouts_h29)."""
        assert pg.HOLD_OUT == "h29g" and pg.SPECS["h24g"].seed0 == ph.SEED0 == 2400
        assert pg.OWN_MODULE["h24g"] is ph and "h23g" in pg.SPECS

    @pytest.mark.parametrize("seed", G_SEEDS)
    def test_shapes_network_and_missing_cells(self, seed):
        x, kids, hs = pg.generate_all("h24g", seed)
        m, n = x.shape
        assert 30 <= m <= 240 and m == ph.n_samples(seed) and 20 <= n <= 60 and n == pg.n_vars("h24g", seed)
        miss = np.isnan(x)
        assert 0.03 < miss.mean() < 0.3 and (~miss).mean(axis=0).min() >= 0.4 and not miss.all(axis=1).any()
        assert 15.0 < np.nanmin(x) and np.nanmax(x) < 40.0
        assert len(kids) == len(hs) == 1 and hs[0].shape == (m,) and 3 <= len(kids[0]) <= 15
        assert kids[0] <= set(range(n)) and abs(hs[0].mean()) < 1e-9 and abs(hs[0].std() - 1.0) < 1e-9
        net = ph.network(seed)
        rank = {int(v): i for i, v in enumerate(net.order)}
        keep = ph.kept_sites(seed)
        place = rank[ph.n_drawn(seed)]  # h's place in the order
        assert 0.05 < place / len(net.order) < 0.45 and all(rank[int(keep[v])] > place for v in kids[0])
        assert net.parent < 0 or rank[net.parent] < place
        assert all(rank[int(keep[p])] < rank[int(keep[c])] for p, c in pg.true_edges("h24g", seed))

    @pytest.mark.parametrize("seed", G_SEEDS)
    def test_missing_below_detection_not_at_random(self, seed):
        """An empty cell is a low one: before detection, the missing cells of a column sit below its present ones."""
        net = ph.network(seed)
        _, d0, _ = ph._drives(seed)
        y0 = ph._measure(seed, net, d0)
        _, miss0, _ = ph.detection(seed)
        gaps = [y0[~mc, j].mean() - y0[mc, j].mean() for j, mc in enumerate(miss0.T) if 5 <= mc.sum() < len(mc) - 5]
        assert len(gaps) >= 5 and np.median(gaps) > 0.8

    @pytest.mark.parametrize("seed", G_SEEDS)
    def test_null_is_the_same_table_without_h(self, seed):
        x, kids, _ = pg.generate_all("h24g", seed)
        xn, kn, hn = pg.generate_all("h24g", seed, null=True)
        assert xn.shape == x.shape and kn == [] and hn == []
        net, n0 = ph.network(seed), ph.n_drawn(seed)
        drawn = [(int(p), int(c)) for p, c in zip(*np.nonzero(net.w[:n0, :n0]), strict=True)]
        reached = _descendants({int(v) for v in net.children}, drawn)  # through filtered-out sites too
        off = [j for j, v in enumerate(ph.kept_sites(seed)) if int(v) not in reached]
        assert off and np.array_equal(np.isnan(x[:, off]), np.isnan(xn[:, off]))
        assert np.allclose(np.nan_to_num(x[:, off]), np.nan_to_num(xn[:, off]))  # same draws off h's paths
        assert not np.allclose(np.nan_to_num(x[:, sorted(kids[0])]), np.nan_to_num(xn[:, sorted(kids[0])]))

    def test_children_track_h_and_the_null_does_not(self):
        gaps = []
        for seed in G_SEEDS:
            x, kids, (h,) = pg.generate_all("h24g", seed)
            xn, _, _ = pg.generate_all("h24g", seed, null=True)
            on = np.median([_nan_r(x[:, v], h) for v in kids[0]])
            gaps.append(on - np.median([_nan_r(xn[:, v], h) for v in kids[0]]))
            assert on > 0.25
        assert min(gaps) > 0.05 and np.median(gaps) > 0.25

    def test_sites_of_one_protein_co_vary(self):
        """Sites sharing a protein share its abundance: beyond their drives they correlate."""
        rs = []
        for seed in G_SEEDS[:5]:
            net = ph.network(seed)
            _, d0, _ = ph._drives(seed)
            y0 = ph._measure(seed, net, d0)
            occ = np.log2(ph.expit(net.offset + net.gain * d0) / ph.expit(net.offset))
            rest = y0 - occ
            for p in np.unique(net.protein):
                s = np.flatnonzero(net.protein == p)
                if len(s) >= 2:
                    rs.append(_r(rest[:, s[0]], rest[:, s[1]]))
        assert len(rs) >= 5 and np.median(rs) > 0.3

    def test_seeds_vary_and_are_deterministic(self):
        nets = [ph.network(s) for s in G_SEEDS]
        assert {n.parent >= 0 for n in nets} == {True, False}
        ms = [ph.n_samples(s) for s in G_SEEDS]
        assert max(ms) > 2.5 * min(ms)
        a, b = ph.generate(G_SEEDS[0]), ph.generate(G_SEEDS[0])
        assert same_table(a[0], b[0]) and a[1] == b[1] and np.array_equal(a[2][0], b[2][0])


def test_independent_check_integrates_missing_cells():
    """``bench_regulators.independent_score`` on a table with empty cells agrees with the engine's
    observed-data BIC (missing cells integrated out), and a check on the mean-completed cells would not."""
    x, _, _ = pg.generate_all("h24g", G_SEEDS[3])
    x = x[:, :12]
    names = [f"X{i + 1}" for i in range(x.shape[1])]
    hs = HiddenSearch(from_array(x, names, standardize=False))
    hs.set_edges([(0, 1), (1, 2), (3, 4)])
    assert hs.dataset.has_missing
    assert br.independent_score(hs) - hs.observed_bic() == pytest.approx(0.0, abs=1e-6)
    full = HiddenSearch(from_array(np.where(np.isnan(x), np.nanmean(x, axis=0), x), names, standardize=False))
    full.set_edges([(0, 1), (1, 2), (3, 4)])
    assert abs(br.independent_score(full) - full.observed_bic()) < 1e-6
    assert abs(br.independent_score(full) - hs.observed_bic()) > 1.0


#: outside the ``h24m`` hold-out's 2450-2459; a reduced table
M_SEEDS, COLS = (2490, 2491, 2492), 700


@pytest.fixture(scope="module")
def tables():
    return [h24m.generate(s, n_cols=COLS) for s in M_SEEDS]


@pytest.fixture(scope="module")
def nulls():
    return [h24m.generate(s, True, n_cols=COLS) for s in M_SEEDS]


def _cols(g: dict, names: set[str]) -> np.ndarray:
    return g["values"][:, [g["names"].index(x) for x in sorted(names)]]


class TestH24m:
    def test_shapes_names_and_design(self, tables):
        for g in tables:
            m = len(g["labels"])
            assert 120 <= m <= 280 and g["values"].shape == (m, COLS) and len(g["names"]) == COLS
            assert np.isfinite(g["values"]).all() and g["values"].min() >= 0.0 and g["values"].max() < 20.0
            assert len(set(g["names"])) == COLS and g["names"] == sorted(g["names"]) and len(set(g["labels"])) == m
            assert all(re.fullmatch(r"DSQ\d{3}_[A-Z0-9]+_(6|24)H:[A-P]\d{2}", x) for x in g["labels"])
            assert 100 <= len(g["regulators"]) <= 140 and set(g["regulators"]) <= set(g["names"])
            assert g["star_name"] == "TP53" and "TP53" not in g["names"] and "TP53" not in g["regulators"]
            assert 30 <= len(g["module"]) <= 48 and g["module"] <= set(sn.P53_MODULE) & set(g["names"])
            assert 3 <= len(g["module_tfs"]) <= 6 and g["module_tfs"] <= set(g["regulators"]) & set(sn.P53_TF_TARGETS)
            assert 15 <= len(g["targets"][0]) <= 22 and len(g["on"]) >= 2
            status = [sn.CELL_LINES[x] for x in g["lines"]]
            assert 4 <= len(g["lines"]) <= 8 and sum(status) >= 2 and len(status) - sum(status) >= 2
            assert np.bincount(g["line"]).min() >= 16
            for p in range(int(g["plate"].max()) + 1):  # a plate: one line, one time, DMSO controls
                at = g["plate"] == p
                assert len(set(g["line"][at])) == len(set(g["time"][at])) == 1 and (g["compound"][at] == "DMSO").any()
            drug = g["compound"] != "DMSO"
            assert set(g["dose"][drug]) <= set(sn.DOSES) and not g["dose"][~drug].any()

    def test_module_and_its_tfs_track_p53_and_the_null_does_not(self, tables, nulls):
        for g, n in zip(tables, nulls, strict=True):
            on, off = abs(_r(_pc1(_cols(g, g["module"])), g["star"])), abs(_r(_pc1(_cols(n, g["module"])), g["star"]))
            assert on > 0.95 and off < on - 0.25
            tfs = np.median([abs(_r(c, g["star"])) for c in _cols(g, g["module_tfs"]).T])
            assert tfs > np.median([abs(_r(c, g["star"])) for c in _cols(n, g["module_tfs"]).T]) + 0.2

    def test_p53_answers_drugs_only_where_it_works(self, tables):
        for g in tables:
            f, star = g["functional"], g["star"]
            assert star[~f].std() < 0.4 * star[f].std() and star[~f].max() < np.median(star[f])
            kind = np.array([sn.COMPOUNDS.get(c, "") for c in g["compound"]])
            hit = f & np.isin(kind, ["dna", "mdm2"]) & (g["dose"] >= 1.11)
            assert hit.sum() >= 3 and star[hit].mean() > star[f & (g["compound"] == "DMSO")].mean() + 0.5

    def test_heat_shock_program_and_cell_lines(self, tables, nulls):
        for g, n in zip(tables, nulls, strict=True):
            on = g["drivers"][:, 0] > 0
            kind = np.array([sn.COMPOUNDS.get(c, "") for c in g["compound"]])
            assert np.all(np.isin(kind[on], ["proteasome", "hsp90"])) and np.all(g["dose"][on] >= 1.11)
            shift = []
            for t in (g, n):
                z = _cols(t, g["targets"][0])
                z = (z - z.mean(axis=0)) / z.std(axis=0)
                shift.append(np.median(np.abs(z[on].mean(axis=0) - z[~on].mean(axis=0))))
            assert shift[0] > 1.5 > 0.6 > shift[1] and n["on"] == []
            assert design_r2(_pc1(g["values"]), g["line"]) > 0.8  # the strongest axis is the cell line
            r2 = np.array([design_r2(c, g["line"]) for c in g["values"].T])
            shuffled = np.random.default_rng(0).permutation(g["line"])
            assert np.median(r2) > np.median([design_r2(c, shuffled) for c in g["values"].T]) + 0.2

    def test_deterministic_and_null_keeps_the_design(self, tables, nulls):
        g, n = tables[0], nulls[0]
        assert same_table(h24m.generate(M_SEEDS[0], n_cols=COLS)["values"], g["values"])
        assert n["names"] == g["names"] and n["regulators"] == g["regulators"] and n["labels"] == g["labels"]
        for key in ("line", "plate", "compound", "dose", "star", "factors"):
            assert np.array_equal(n[key], g[key])
        assert not np.allclose(n["values"], g["values"])

    def test_full_width(self):
        g = h24m.generate(2494)
        assert 2500 <= g["values"].shape[1] <= 3200 and g["values"].shape[1] == len(g["names"])


def _kept(name: str, prof: np.ndarray, g: dict, children: set[str]) -> Kept:
    cols = [g["star"], g["drivers"][:, 0], *g["factors"].T]
    return Kept(name, [abs(_r(prof, c)) for c in cols], children, [], 0.0, 0.1, 30.0, [])


def test_scorer_reads_kept_hs(tables, monkeypatch):
    """``run_seed``'s reading of stand-in kept Hs (no search): one on R* with its module and TF targets
    (recovered), one on the cell lines (LINE, false), one on the plates within a line (PLATE, false), one
    on the DMSO wells (COMPOUND, false), one on nothing (false)."""
    g = next(t for t in tables if any(len(set(t["plate"][t["line"] == i])) >= 2 for i in range(len(t["lines"]))))
    rng = np.random.default_rng(0)
    m = len(g["labels"])
    line = rng.normal(size=len(g["lines"]))[g["line"]] + 0.05 * rng.normal(size=m)
    plate = rng.normal(size=int(g["plate"].max()) + 1)[g["plate"]] + 0.05 * rng.normal(size=m)
    for _ in range(50):  # plates that the lines do not explain
        if design_r2(plate, g["line"]) < 0.8:
            break
        plate = rng.normal(size=int(g["plate"].max()) + 1)[g["plate"]] + 0.05 * rng.normal(size=m)
    dmso = (g["compound"] == "DMSO") + 0.01 * rng.normal(size=m)
    noise = rng.normal(size=m)
    profiles = {"H1": g["star"], "H2": line, "H3": plate, "H4": dmso, "H5": noise}
    few = set(sorted(g["names"])[:12])
    kept = [_kept("H1", g["star"], g, g["module"] | g["module_tfs"])]
    kept += [_kept(h, profiles[h], g, few) for h in ("H2", "H3", "H4", "H5")]
    assert kept[0].r[0] == pytest.approx(1.0) and all(max(k.r) < 0.9 for k in kept[1:])
    monkeypatch.setattr(h24m, "fit_auto", lambda gg, source, seed: (_Est(profiles), 1.0, 2.0))
    monkeypatch.setattr(h24m, "kept_of", lambda hs, gg: kept)
    monkeypatch.setattr(h24m, "top_proposals", lambda est: [])
    text, tally = h24m.run_seed(g, "h24m-2490", 2490)
    assert tally["star"] and tally["fast"] and tally["enriched"] and tally["tfs"] == len(g["module_tfs"])
    assert tally["false"] == 4 and tally["marks"] == 3 and text.count("FALSE") == 4 and not tally["drivers"][0]
    assert " LINE FALSE" in text and " PLATE FALSE" in text and "(DMSO)" in text and " COMPOUND FALSE" in text
    summary = h24m.summary("h24m", [tally, tally | {"star": False, "fast": False, "enriched": False}])
    assert "R* recovered (|r| >= 0.9) on 1/2 (1 within 300 s CPU)" in summary and "D recovered on 0/2" in summary
    _, t_null = h24m.run_seed({**g, "null": True}, "h24m-null-2490", 2490)
    assert t_null["false"] == 5 and not t_null["star"]
    assert "a hidden variable kept on 1/1" in h24m.summary("h24m-null", [t_null])
