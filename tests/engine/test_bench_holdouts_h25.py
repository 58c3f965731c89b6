"""Smoke cases of the twenty-fifth session's hold-out generators: ``h25g`` (benchmarks/planted_h25g.py,
through ``planted_general``) and ``h25m`` (benchmarks/bench_regulators_genome_h25.py).

They check each generator's contract (shapes and ranges, names, determinism, the planted structure as
its docstring says: an untargeted metabolomics table, log-normal levels with heteroscedastic noise,
total-ion-count normalised (closed) and log2, an unmeasured enzyme of 4-20 metabolites none of which is
among the most abundant; a GTEx-like multi-tissue atlas, the tissue the strongest axis, donors crossed
with tissues, whose NRF2 module and listed TF targets follow the removed NFE2L2, tissue-restricted and
answering smoking in the tissues facing smoke, an agonal-hypoxia program in the slow-death donors'
samples, a null without NFE2L2's part) on seeds outside the hold-out ranges (2500-2509 and 2550-2559),
the independent score check on a table in its own units, the h25m scorer's reading of kept Hs on
stand-ins (no search); they never run the search (the hold-outs' recovery is measured once, at the start
of session 26, by the lead; ``study_common_start`` refuses the next ones, test_bench_holdouts_h26)."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

import atlas_names as an  # noqa: E402
import bench_regulators as br  # noqa: E402
import bench_regulators_genome_h25 as h25m  # noqa: E402
import planted_general as pg  # noqa: E402
import planted_h25g as ph  # noqa: E402
from _holdout_tables import same_table  # noqa: E402
from bench_regulators_genome_h20 import design_r2  # noqa: E402
from genome_auto import Kept  # noqa: E402
from test_bench_holdouts_h20 import _Est, _pc1, _r  # noqa: E402
from test_bench_holdouts_mixed import _descendants  # noqa: E402

from engine.data import from_array  # noqa: E402
from engine.hidden import HiddenSearch  # noqa: E402

#: seed indices of ``h25g`` (seeds 2590-2599), outside the hold-out's 2500-2509
G_SEEDS = tuple(range(90, 100))


def _off_paths(seed: int) -> list[int]:
    """The metabolites h reaches neither directly nor through its children's descendants."""
    net, n = ph.network(seed), ph.n_vars(seed)
    edges = [(int(p), int(c)) for p, c in zip(*np.nonzero(net.w[:n, :n]), strict=True)]
    reached = _descendants({int(v) for v in net.children}, edges)
    return [v for v in range(n) if v not in reached]


class TestH25g:
    def test_stays_runnable_after_its_session(self):
        """``h25g`` was the twenty-fifth session's hold-out; ``h29g`` the twenty-ninth's (test_bench_holdouts_h29)."""
        assert pg.HOLD_OUT == "h29g" and pg.SPECS["h25g"].seed0 == ph.SEED0 == 2500
        assert pg.OWN_MODULE["h25g"] is ph and "h24g" in pg.SPECS

    @pytest.mark.parametrize("seed", G_SEEDS)
    def test_shapes_network_and_closure(self, seed):
        x, kids, hs = pg.generate_all("h25g", seed)
        m, n = x.shape
        assert 50 <= m <= 500 and m == ph.n_samples(seed) and 30 <= n <= 60 and n == pg.n_vars("h25g", seed)
        assert np.isfinite(x).all() and 5.0 < x.min() and x.max() < 35.0
        total = (2.0**x).sum(axis=1)  # closed: every sample sums to the same total
        assert np.allclose(total, total[0], rtol=1e-9)
        assert len(kids) == len(hs) == 1 and hs[0].shape == (m,) and 4 <= len(kids[0]) <= 20
        assert kids[0] <= set(range(n)) and abs(hs[0].mean()) < 1e-9 and abs(hs[0].std() - 1.0) < 1e-9
        net = ph.network(seed)
        rank = {int(v): i for i, v in enumerate(net.order)}
        place = rank[n]  # h's place in the order
        assert 0.05 < place / len(net.order) < 0.45 and all(rank[v] > place for v in kids[0])
        assert net.parent < 0 or rank[net.parent] < place
        assert all(rank[p] < rank[c] for p, c in pg.true_edges("h25g", seed))
        top = set(np.argsort(net.mu)[-int(np.ceil(ph.TOP * n)) :].tolist())
        assert not kids[0] & top  # none of h's children among the most abundant

    @pytest.mark.parametrize("seed", G_SEEDS)
    def test_null_has_the_same_areas_off_h_paths(self, seed):
        """Off h's paths the peak areas are the same draws; closed, they differ by one shift per sample."""
        x, kids, _ = pg.generate_all("h25g", seed)
        xn, kn, hn = pg.generate_all("h25g", seed, null=True)
        assert xn.shape == x.shape and kn == [] and hn == []
        off = _off_paths(seed)
        assert len(off) >= 2
        a, an0 = ph.peak_areas(seed), ph.peak_areas(seed, null=True)
        assert np.array_equal(a[:, off], an0[:, off])
        shift = x[:, off] - xn[:, off]
        assert np.allclose(shift, shift[:, :1], atol=1e-9)
        assert not np.allclose(a[:, sorted(kids[0])], an0[:, sorted(kids[0])])

    def test_children_track_h_and_the_null_does_not(self):
        gaps = []
        for seed in G_SEEDS:
            x, kids, (h,) = pg.generate_all("h25g", seed)
            xn, _, _ = pg.generate_all("h25g", seed, null=True)
            on = np.median([abs(_r(x[:, v], h)) for v in kids[0]])
            gaps.append(on - np.median([abs(_r(xn[:, v], h)) for v in kids[0]]))
            assert on > 0.4
        assert min(gaps) > 0.2 and np.median(gaps) > 0.4

    def test_faint_metabolites_are_noisier(self):
        """Heteroscedastic noise: beyond its level, a faint metabolite's log area varies more than an
        abundant one's (the dilution is common to both)."""
        for seed in G_SEEDS[:5]:
            net = ph.network(seed)
            z, _, _ = ph._drives(seed)
            rest = np.log(ph.peak_areas(seed)) - net.spread * z
            var, order = rest.var(axis=0), np.argsort(net.mu)
            k = max(3, len(order) // 5)
            assert np.median(var[order[:k]]) > np.median(var[order[-k:]]) + 0.01

    def test_seeds_vary_and_are_deterministic(self):
        nets = [ph.network(s) for s in G_SEEDS]
        assert {n.parent >= 0 for n in nets} == {True, False}
        ms = [ph.n_samples(s) for s in G_SEEDS]
        assert max(ms) > 2.5 * min(ms)
        assert len({len(n.children) for n in nets}) >= 4
        a, b = ph.generate(G_SEEDS[0]), ph.generate(G_SEEDS[0])
        assert same_table(a[0], b[0]) and a[1] == b[1] and np.array_equal(a[2][0], b[2][0])


def test_independent_check_on_the_closed_table():
    """``bench_regulators.independent_score`` on a metabolomics table in its own log2 units agrees with the
    engine's observed-data BIC."""
    x, _, _ = pg.generate_all("h25g", G_SEEDS[1])
    x = x[:, :12]
    names = [f"X{i + 1}" for i in range(x.shape[1])]
    hs = HiddenSearch(from_array(x, names, standardize=False))
    hs.set_edges([(0, 1), (1, 2), (3, 4)])
    assert br.independent_score(hs) - hs.observed_bic() == pytest.approx(0.0, abs=1e-6)


#: outside the ``h25m`` hold-out's 2550-2559; a reduced table
M_SEEDS, COLS = (2590, 2591, 2592), 500


@pytest.fixture(scope="module")
def tables():
    return [h25m.generate(s, n_cols=COLS) for s in M_SEEDS]


@pytest.fixture(scope="module")
def nulls():
    return [h25m.generate(s, True, n_cols=COLS) for s in M_SEEDS]


def _cols(g: dict, names: set[str]) -> np.ndarray:
    return g["values"][:, [g["names"].index(x) for x in sorted(names)]]


def _within(v: np.ndarray, groups: np.ndarray) -> np.ndarray:
    """``v`` (samples x columns) less each group's mean."""
    out = np.array(v, dtype=float)
    for k in np.unique(groups):
        out[groups == k] -= out[groups == k].mean(axis=0)
    return out


class TestH25m:
    def test_shapes_names_and_design(self, tables):
        for g in tables:
            m = len(g["labels"])
            assert 120 <= m <= 260 and g["values"].shape == (m, COLS) and len(g["names"]) == COLS
            assert np.isfinite(g["values"]).all() and g["values"].min() >= 0.0 and g["values"].max() < 20.0
            assert len(set(g["names"])) == COLS and g["names"] == sorted(g["names"]) and len(set(g["labels"])) == m
            assert g["labels"] == sorted(g["labels"])
            assert all(re.fullmatch(r"GTEX-[0-9A-Z]{4,5}-\d{4}-SM-[0-9A-Z]{5}", x) for x in g["labels"])
            assert 100 <= len(g["regulators"]) <= 140 and set(g["regulators"]) <= set(g["names"])
            assert g["star_name"] == "NFE2L2" and "NFE2L2" not in g["names"] and "NFE2L2" not in g["regulators"]
            assert 30 <= len(g["module"]) <= 50 and g["module"] <= set(an.NRF2_MODULE) & set(g["names"])
            tf_targets = set(g["regulators"]) & set(an.NRF2_TF_TARGETS)
            assert 3 <= len(g["module_tfs"]) <= 6 and g["module_tfs"] <= tf_targets
            assert 15 <= len(g["targets"][0]) <= 22 and g["targets"][0] <= set(an.HYPOXIA) & set(g["names"])
            assert 5 <= len(g["tissues"]) <= 8 and 1 <= sum(an.TISSUES[t] for t in g["tissues"]) <= 2
            for d in np.unique(g["donor"]):  # a donor gives a tissue once at most
                at = g["donor"] == d
                assert len(set(g["tissue"][at])) == at.sum() and len({g["labels"][i][:10] for i in np.flatnonzero(at)})
            slow = np.unique(g["donor"][g["hardy"] == 4])
            assert 2 <= len(slow) <= 4 and {"XIST", "RPS4Y1"} <= set(g["names"])

    def test_module_and_its_tfs_track_nrf2_and_the_null_does_not(self, tables, nulls):
        for g, n in zip(tables, nulls, strict=True):
            on, off = abs(_r(_pc1(_cols(g, g["module"])), g["star"])), abs(_r(_pc1(_cols(n, g["module"])), g["star"]))
            assert on > 0.9 and off < on - 0.4
            # within tissues (a TF's mRNA moves with its tissue far more than with NRF2)
            star = _within(g["star"][:, None], g["tissue"])[:, 0]
            tfs = [
                np.median([abs(_r(c, star)) for c in _within(_cols(t, g["module_tfs"]), g["tissue"]).T]) for t in (g, n)
            ]
            assert tfs[0] > 0.25 > 0.15 > tfs[1]

    def test_nrf2_is_tissue_restricted_and_varies_within_tissues(self, tables):
        for g in tables:
            star, tissue = g["star"], g["tissue"]
            assert 0.05 < design_r2(star, tissue) < 0.8 and np.median(np.abs(_within(star[:, None], tissue))) > 0.3
            exposed = np.array([an.TISSUES[g["tissues"][t]] for t in tissue])
            smoke = exposed & g["smoker"]
            if smoke.sum() >= 3:  # smokers' exposed tissues above the non-smokers' same tissues
                assert star[smoke].mean() > star[exposed & ~g["smoker"]].mean() + 0.3

    def test_hypoxia_program_tissues_and_sex(self, tables, nulls):
        for g, n in zip(tables, nulls, strict=True):
            on = g["drivers"][:, 0] > 0
            assert np.array_equal(on, g["hardy"] == 4) and len(g["on"]) == on.sum() >= 2 and n["on"] == []
            shift = []
            for t in (g, n):
                z = _within(_cols(t, g["targets"][0]), g["tissue"])
                z = z / z.std(axis=0)
                shift.append(np.median(z[on].mean(axis=0) - z[~on].mean(axis=0)))
            assert shift[0] > 1.0 > 0.5 > abs(shift[1])
            assert design_r2(_pc1(g["values"]), g["tissue"]) > 0.8  # the strongest axis is the tissue
            r2 = np.array([design_r2(c, g["tissue"]) for c in g["values"].T])
            shuffled = np.random.default_rng(0).permutation(g["tissue"])
            assert np.median(r2) > np.median([design_r2(c, shuffled) for c in g["values"].T]) + 0.3
            xist = g["values"][:, g["names"].index("XIST")]
            assert xist[~g["male"]].min() > xist[g["male"]].max()

    def test_deterministic_and_null_keeps_the_design(self, tables, nulls):
        g, n = tables[0], nulls[0]
        assert same_table(h25m.generate(M_SEEDS[0], n_cols=COLS)["values"], g["values"])
        assert n["names"] == g["names"] and n["regulators"] == g["regulators"] and n["labels"] == g["labels"]
        for key in ("donor", "tissue", "male", "smoker", "hardy", "star", "factors"):
            assert np.array_equal(n[key], g[key])
        assert not np.allclose(n["values"], g["values"])

    def test_full_width(self):
        g = h25m.generate(2594)
        assert 2500 <= g["values"].shape[1] <= 3200 and g["values"].shape[1] == len(g["names"])


def _kept(name: str, prof: np.ndarray, g: dict, children: set[str]) -> Kept:
    cols = [g["star"], g["drivers"][:, 0], *g["factors"].T]
    return Kept(name, [abs(_r(prof, c)) for c in cols], children, [], 0.0, 0.1, 30.0, [])


def test_scorer_reads_kept_hs(tables, monkeypatch):
    """``run_seed``'s reading of stand-in kept Hs (no search): one on R* with its module and TF targets
    (recovered), one on the tissues (TISSUE, false), one on the donors (DONOR, false), one on the donor's
    sex (DONOR and SEX, false), one on nothing (false), one partly on D with D's genes among its children
    (donor-level as D is: not marked, not false)."""
    g = tables[0]
    rng = np.random.default_rng(0)
    m = len(g["labels"])
    tissue = rng.normal(size=len(g["tissues"]))[g["tissue"]] + 0.05 * rng.normal(size=m)
    donor = rng.normal(size=int(g["donor"].max()) + 1)[g["donor"]] + 0.05 * rng.normal(size=m)
    sex = g["male"] + 0.01 * rng.normal(size=m)
    noise = rng.normal(size=m)
    near_d = g["drivers"][:, 0] + 0.3 * rng.normal(size=int(g["donor"].max()) + 1)[g["donor"]]
    profiles = {"H1": g["star"], "H2": tissue, "H3": donor, "H4": sex, "H5": noise, "H6": near_d}
    few = set(sorted(g["names"])[:12])
    kept = [_kept("H1", g["star"], g, g["module"] | g["module_tfs"])]
    kept += [_kept(h, profiles[h], g, few) for h in ("H2", "H3", "H4", "H5")]
    kept.append(_kept("H6", near_d, g, g["targets"][0] | few))
    kept[4].activity = "MAFF"  # the report reads H5 as a listed TF's activity: said, counted as before
    assert kept[0].r[0] == pytest.approx(1.0) and all(max(k.r) < 0.9 for k in kept[1:])
    assert 0.5 < kept[5].r[1] < 0.9 and design_r2(near_d, g["donor"]) >= 0.8
    monkeypatch.setattr(h25m, "fit_auto", lambda gg, source, seed: (_Est(profiles), 1.0, 2.0))
    monkeypatch.setattr(h25m, "kept_of", lambda hs, gg: kept)
    monkeypatch.setattr(h25m, "top_proposals", lambda est: [])
    text, tally = h25m.run_seed(g, "h25m-2590", 2590)
    assert tally["star"] and tally["fast"] and tally["enriched"] and tally["tfs"] == len(g["module_tfs"])
    assert tally["false"] == 4 and tally["marks"] == 3 and text.count("FALSE") == 4 and not tally["drivers"][0]
    assert " TISSUE FALSE" in text and " DONOR FALSE" in text and " DONOR SEX FALSE" in text
    assert text.count(" ACTIVITY ") == 1 and "leverage 0.10) ACTIVITY MAFF" in text
    summary = h25m.summary("h25m", [tally, tally | {"star": False, "fast": False, "enriched": False}])
    assert "R* recovered (|r| >= 0.9) on 1/2 (1 within 300 s CPU)" in summary and "D recovered on 0/2" in summary
    _, t_null = h25m.run_seed({**g, "null": True}, "h25m-null-2590", 2590)
    assert t_null["false"] == 6 and not t_null["star"]
    assert "a hidden variable kept on 1/1" in h25m.summary("h25m-null", [t_null])
