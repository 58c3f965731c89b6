"""Smoke cases of the twenty-sixth session's hold-out generators: ``h26g`` (benchmarks/planted_h26g.py,
through ``planted_general``) and ``h26m`` (benchmarks/bench_regulators_genome_h26.py).

They check each generator's contract (shapes and ranges, names, determinism, the planted structure as
its docstring says: a longitudinal plasma-protein panel of subjects at repeated visits, the rows not
independent (subject levels, noise autocorrelated in time), an unmeasured slow signal of 5-15 proteins;
a K562 CRISPRi Perturb-seq screen in pseudobulk rows, each row's knocked-down gene low in its row, whose
ATF4 module and listed TF targets follow the removed ATF4 (high in the rows knocking down the stress
response's triggers), a cholesterol program on in the few rows knocking down its triggers, rows of few
cells where a knockdown kills, a null without ATF4's part) on seeds outside the hold-out ranges
(2600-2609 and 2650-2659), the independent score check on a table in its own units, the h26m scorer's
reading of kept Hs on stand-ins (no search); they never run the search (the hold-outs' recovery is measured
once, at the start of session 27, by the lead; ``study_common_start`` refuses the next ones,
test_bench_holdouts_h27)."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

import bench_regulators as br  # noqa: E402
import bench_regulators_genome_h26 as h26m  # noqa: E402
import perturb_names as pn  # noqa: E402
import planted_general as pg  # noqa: E402
import planted_h26g as ph  # noqa: E402
from _holdout_tables import same_table  # noqa: E402
from bench_regulators_genome_h20 import design_r2  # noqa: E402
from genome_auto import Kept  # noqa: E402
from test_bench_holdouts_h20 import _Est, _pc1, _r  # noqa: E402
from test_bench_holdouts_mixed import _descendants  # noqa: E402

from engine.data import from_array  # noqa: E402
from engine.hidden import HiddenSearch  # noqa: E402

#: seed indices of ``h26g`` (seeds 2690-2699), outside the hold-out's 2600-2609
G_SEEDS = tuple(range(90, 100))


def _off_paths(seed: int) -> list[int]:
    """The proteins h reaches neither directly nor through its children's descendants."""
    net, n = ph.network(seed), ph.n_vars(seed)
    edges = [(int(p), int(c)) for p, c in zip(*np.nonzero(net.w[:n, :n]), strict=True)]
    reached = _descendants({int(v) for v in net.children}, edges)
    return [v for v in range(n) if v not in reached]


class TestH26g:
    def test_stays_runnable_after_its_session(self):
        """``h26g`` was the twenty-sixth session's hold-out; ``h29g`` the twenty-ninth's (test_bench_holdouts_h29)."""
        assert pg.HOLD_OUT == "h29g" and pg.SPECS["h26g"].seed0 == ph.SEED0 == 2600
        assert pg.OWN_MODULE["h26g"] is ph and "h25g" in pg.SPECS

    @pytest.mark.parametrize("seed", G_SEEDS)
    def test_shapes_network_and_visits(self, seed):
        x, kids, hs = pg.generate_all("h26g", seed)
        m, n = x.shape
        assert 60 <= m <= 360 and m == ph.n_samples(seed) and 30 <= n <= 60 and n == pg.n_vars("h26g", seed)
        assert np.isfinite(x).all() and -5.0 < x.min() and x.max() < 20.0
        assert len(kids) == len(hs) == 1 and hs[0].shape == (m,) and 5 <= len(kids[0]) <= 15
        assert kids[0] <= set(range(n)) and abs(hs[0].mean()) < 1e-9 and abs(hs[0].std() - 1.0) < 1e-9
        net = ph.network(seed)
        rank = {int(v): i for i, v in enumerate(net.order)}
        place = rank[n]  # h's place in the order
        assert 0.05 < place / len(net.order) < 0.45 and all(rank[v] > place for v in kids[0])
        assert net.parent < 0 or rank[net.parent] < place
        assert all(rank[p] < rank[c] for p, c in pg.true_edges("h26g", seed))
        subject, day = ph.subjects(seed), ph.days(seed)
        visits = np.bincount(subject)
        assert 4 <= len(visits) <= 16 and visits.min() >= ph.MIN_VISITS and np.all(np.diff(subject) >= 0)
        first = np.r_[True, subject[1:] != subject[:-1]]
        assert np.all(day[first] == 0.0) and np.all(np.diff(day)[~first[1:]] >= 0.0) and day.max() <= 365.0

    @pytest.mark.parametrize("seed", G_SEEDS)
    def test_null_is_the_same_off_h_paths(self, seed):
        x, kids, _ = pg.generate_all("h26g", seed)
        xn, kn, hn = pg.generate_all("h26g", seed, null=True)
        assert xn.shape == x.shape and kn == [] and hn == []
        off = _off_paths(seed)
        assert len(off) >= 2 and np.array_equal(x[:, off], xn[:, off])
        assert not np.allclose(x[:, sorted(kids[0])], xn[:, sorted(kids[0])])

    def test_children_track_h_and_the_null_does_not(self):
        gaps = []
        for seed in G_SEEDS:
            x, kids, (h,) = pg.generate_all("h26g", seed)
            xn, _, _ = pg.generate_all("h26g", seed, null=True)
            on = np.median([abs(_r(x[:, v], h)) for v in kids[0]])
            gaps.append(on - np.median([abs(_r(xn[:, v], h)) for v in kids[0]]))
            assert on > 0.5
        assert min(gaps) > 0.2 and np.median(gaps) > 0.4

    def test_rows_are_not_independent(self):
        """Consecutive visits of one subject are alike, subjects differ, and independent noise processes
        correlate by chance far beyond an i.i.d. table's spread."""
        for seed in G_SEEDS[:5]:
            x, _, _ = pg.generate_all("h26g", seed)
            subject = ph.subjects(seed)
            same = subject[1:] == subject[:-1]
            lag1 = np.median([_r(c[1:][same], c[:-1][same]) for c in x.T])
            assert lag1 > 0.4 and np.median([design_r2(c, subject) for c in x.T]) > 0.2
            e = ph.noises(seed)
            pairs = np.abs(np.corrcoef(e.T)[np.triu_indices(e.shape[1], 1)])
            assert np.quantile(pairs, 0.95) > 1.5 * 1.96 / np.sqrt(len(subject))

    def test_seeds_vary_and_are_deterministic(self):
        nets = [ph.network(s) for s in G_SEEDS]
        assert {n.parent >= 0 for n in nets} == {True, False}
        ms = [ph.n_samples(s) for s in G_SEEDS]
        assert max(ms) > 2.5 * min(ms)
        assert (
            len({len(n.children) for n in nets}) >= 4 and len({len(np.bincount(ph.subjects(s))) for s in G_SEEDS}) >= 3
        )
        a, b = ph.generate(G_SEEDS[0]), ph.generate(G_SEEDS[0])
        assert same_table(a[0], b[0]) and a[1] == b[1] and np.array_equal(a[2][0], b[2][0])


def test_independent_check_on_the_panel():
    """``bench_regulators.independent_score`` on a protein panel in its own NPX units agrees with the
    engine's observed-data BIC."""
    x, _, _ = pg.generate_all("h26g", G_SEEDS[1])
    x = x[:, :12]
    names = [f"X{i + 1}" for i in range(x.shape[1])]
    hs = HiddenSearch(from_array(x, names, standardize=False))
    hs.set_edges([(0, 1), (1, 2), (3, 4)])
    assert br.independent_score(hs) - hs.observed_bic() == pytest.approx(0.0, abs=1e-6)


#: outside the ``h26m`` hold-out's 2650-2659; a reduced table
M_SEEDS, COLS = (2690, 2691, 2692), 600


@pytest.fixture(scope="module")
def tables():
    return [h26m.generate(s, n_cols=COLS) for s in M_SEEDS]


@pytest.fixture(scope="module")
def nulls():
    return [h26m.generate(s, True, n_cols=COLS) for s in M_SEEDS]


def _cols(g: dict, names: set[str]) -> np.ndarray:
    return g["values"][:, [g["names"].index(x) for x in sorted(names)]]


LABEL = re.compile(r"\d{4}_(non-targeting_\d{2}|[A-Za-z0-9-]+_P1P2_ENSG\d{11})")


class TestH26m:
    def test_shapes_names_and_design(self, tables):
        for g in tables:
            m = len(g["labels"])
            assert 120 <= m <= 260 and g["values"].shape == (m, COLS) and len(g["names"]) == COLS
            assert np.isfinite(g["values"]).all() and g["values"].min() >= 0.0 and g["values"].max() < 20.0
            assert len(set(g["names"])) == COLS and g["names"] == sorted(g["names"]) and len(set(g["labels"])) == m
            assert g["labels"] == sorted(g["labels"]) and all(LABEL.fullmatch(x) for x in g["labels"])
            assert 100 <= len(g["regulators"]) <= 140 and set(g["regulators"]) <= set(g["names"])
            assert g["star_name"] == "ATF4" and "ATF4" not in g["names"] and "ATF4" not in g["regulators"]
            assert 30 <= len(g["module"]) <= 50 and g["module"] <= set(pn.ATF4_MODULE) & set(g["names"])
            tf_targets = set(g["regulators"]) & set(pn.ATF4_TF_TARGETS)
            assert 3 <= len(g["module_tfs"]) <= 6 and g["module_tfs"] <= tf_targets
            assert 15 <= len(g["targets"][0]) <= 22 and g["targets"][0] <= set(pn.STEROL) & set(g["names"])
            kind, target = g["kind"], g["target"]
            assert 8 <= np.sum(kind == "control") <= 16 and 2 <= np.sum(kind == "sterol") <= 5
            assert np.all((target == "") == (kind == "control")) and len(set(target[target != ""])) == np.sum(
                target != ""
            )
            assert set(target[target != ""]) <= set(g["names"]) and np.mean(kind == "isr") >= pn.MIN_ISR - 0.01
            assert set(target[kind == "tf"]) <= set(g["regulators"]) and np.sum(kind == "quiet") > 0
            assert all(g["labels"][i].split("_")[1] == target[i] for i in np.flatnonzero(target != ""))

    def test_module_and_its_tfs_track_atf4_and_the_null_does_not(self, tables, nulls):
        for g, n in zip(tables, nulls, strict=True):
            on, off = abs(_r(_pc1(_cols(g, g["module"])), g["star"])), abs(_r(_pc1(_cols(n, g["module"])), g["star"]))
            assert on > 0.9 and off < on - 0.5
            tfs = [np.median([abs(_r(c, g["star"])) for c in _cols(t, g["module_tfs"]).T]) for t in (g, n)]
            assert tfs[0] > 0.2 and tfs[1] < tfs[0] - 0.1

    def test_atf4_is_high_where_the_stress_response_is_triggered(self, tables):
        for g in tables:
            star, kind = g["star"], g["kind"]
            isr = kind == "isr"
            assert np.median(star[isr]) > 1.0 > np.median(star[~isr]) + 0.5 and 0.05 < np.mean(star > 1.0) < 0.3
            assert abs(np.median(star[kind == "control"])) < 0.8

    def test_knockdowns_sterol_program_and_depth(self, tables, nulls):
        for g, n in zip(tables, nulls, strict=True):
            for t in (g, n):  # the knocked-down gene is low in its own row (table and null alike)
                z = (t["values"] - t["values"].mean(axis=0)) / (t["values"].std(axis=0) + 1e-12)
                kd = [z[i, t["names"].index(x)] for i, x in enumerate(t["target"]) if x]
                assert np.median(kd) < -2.5
            on = g["drivers"][:, 0] > 0
            assert np.array_equal(on, g["kind"] == "sterol") and len(g["on"]) == on.sum() >= 2 and n["on"] == []
            shift = []
            for t in (g, n):
                z = _cols(t, g["targets"][0])
                z = (z - z[~on].mean(axis=0)) / z[~on].std(axis=0)
                shift.append(np.median(z[on].mean(axis=0)))
            assert shift[0] > 1.0 > 0.5 > abs(shift[1])
            ess = np.isin(g["kind"], list(pn.CLASSES))
            ctrl = g["kind"] == "control"
            assert np.median(g["cells"][ctrl]) > 2.0 * np.median(g["cells"][ess])
            assert np.median(g["library"][ctrl]) > 2.0 * np.median(g["library"][ess])

    def test_deterministic_and_null_keeps_the_design(self, tables, nulls):
        g, n = tables[0], nulls[0]
        assert same_table(h26m.generate(M_SEEDS[0], n_cols=COLS)["values"], g["values"])
        assert n["names"] == g["names"] and n["regulators"] == g["regulators"] and n["labels"] == g["labels"]
        for key in ("target", "kind", "efficacy", "cells", "star", "factors"):
            assert np.array_equal(n[key], g[key])
        assert not np.allclose(n["values"], g["values"])

    def test_full_width(self):
        g = h26m.generate(2694)
        assert 2500 <= g["values"].shape[1] <= 3200 and g["values"].shape[1] == len(g["names"])


def _kept(name: str, prof: np.ndarray, g: dict, children: set[str]) -> Kept:
    cols = [g["star"], g["drivers"][:, 0], *g["factors"].T]
    return Kept(name, [abs(_r(prof, c)) for c in cols], children, [], 0.0, 0.1, 30.0, [])


def test_scorer_reads_kept_hs(tables, monkeypatch):
    """``run_seed``'s reading of stand-in kept Hs (no search): one on R* with its module and TF targets
    (recovered), one on the rows' kinds (CLASS, false), one on one row (ROW with its label, false), one on
    the depth (DEPTH, false), one on nothing (false), one partly on D with D's genes among its children (not
    marked, not false)."""
    g = tables[0]
    rng = np.random.default_rng(0)
    m = len(g["labels"])
    kinds = rng.normal(size=len(h26m.KINDS))[g["kind_index"]] + 0.05 * rng.normal(size=m)
    row = 0.05 * rng.normal(size=m)
    row[7] = 5.0
    depth = np.log(g["library"]) + 0.05 * rng.normal(size=m)
    noise = rng.normal(size=m)
    near_d = g["drivers"][:, 0] + 0.15 * rng.normal(size=m)
    profiles = {"H1": g["star"], "H2": kinds, "H3": row, "H4": depth, "H5": noise, "H6": near_d}
    few = set(sorted(g["names"])[:12])
    kept = [_kept("H1", g["star"], g, g["module"] | g["module_tfs"])]
    kept += [_kept(h, profiles[h], g, few) for h in ("H2", "H3", "H4", "H5")]
    kept.append(_kept("H6", near_d, g, g["targets"][0] | few))
    kept[4].activity = "CEBPB"  # the report reads H5 as a listed TF's activity: said, counted as before
    assert kept[0].r[0] == pytest.approx(1.0) and all(max(k.r) < 0.9 for k in kept[1:])
    assert 0.5 < kept[5].r[1] < 0.9
    monkeypatch.setattr(h26m, "fit_auto", lambda gg, source, seed: (_Est(profiles), 1.0, 2.0))
    monkeypatch.setattr(h26m, "kept_of", lambda hs, gg: kept)
    monkeypatch.setattr(h26m, "top_proposals", lambda est: [])
    text, tally = h26m.run_seed(g, "h26m-2690", 2690)
    assert tally["star"] and tally["fast"] and tally["enriched"] and tally["tfs"] == len(g["module_tfs"])
    assert tally["false"] == 4 and tally["marks"] == 3 and text.count("FALSE") == 4 and not tally["drivers"][0]
    assert " CLASS FALSE" in text and f" ROW {g['labels'][7]} FALSE" in text and " DEPTH FALSE" in text
    assert text.count(" ACTIVITY ") == 1 and "leverage 0.10) ACTIVITY CEBPB" in text
    summary = h26m.summary("h26m", [tally, tally | {"star": False, "fast": False, "enriched": False}])
    assert "R* recovered (|r| >= 0.9) on 1/2 (1 within 300 s CPU)" in summary and "D recovered on 0/2" in summary
    assert "a class of knockdowns, one row or the depth 6" in summary
    _, t_null = h26m.run_seed({**g, "null": True}, "h26m-null-2690", 2690)
    assert t_null["false"] == 6 and not t_null["star"]
    assert "a hidden variable kept on 1/1" in h26m.summary("h26m-null", [t_null])
