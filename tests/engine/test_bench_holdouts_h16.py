"""Smoke cases of the sixteenth session's hold-out generators: ``h16g`` (benchmarks/planted_h16g.py,
through ``planted_general``) and ``h16m`` (benchmarks/bench_regulators_genome_h16.py).

They check each generator's contract (shapes and ranges, unique names, determinism, the planted
children and module, the regulator list without the removed regulator, the null without any hidden
effect) on seeds outside the hold-out ranges (1600-1609 and 1650-1659); they never run the search:
the hold-outs' recovery is measured once, at the end of the session, by the lead."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

import bench_regulators_genome_h16 as h16m  # noqa: E402
import planted_general as pg  # noqa: E402
import planted_h16g as ph  # noqa: E402
from test_bench_holdouts_mixed import _residual, _same_network_without_roots  # noqa: E402  (the same checks of the planted structure)

#: seed indices of ``h16g`` (seeds 1620-1625), outside the hold-out's 1600-1609
G_SEEDS = tuple(range(20, 26))
#: outside the ``h16m`` hold-out's 1650-1659; a reduced table
M_SEED, COLS = 1670, 600


class TestH16g:
    def test_stays_runnable_after_its_session(self):
        """``h16g`` was the sixteenth session's hold-out; ``h18g`` is the eighteenth's (test_bench_holdouts_h18.py)."""
        assert pg.HOLD_OUT == "h29g" and pg.SPECS["h16g"].seed0 == ph.SEED0 == 1600

    @pytest.mark.parametrize("seed", G_SEEDS)
    def test_shapes_units_and_roots(self, seed):
        x, kids, hs = pg.generate_all("h16g", seed)
        m, n = x.shape
        assert 50 <= m <= 500 and 30 <= n <= 55 and n == pg.n_vars("h16g", seed) and np.isfinite(x).all()
        assert len(kids) == len(hs) in (1, 2) and all(h.shape == (m,) for h in hs)
        assert 6 <= len(kids[0]) <= 18 and (len(kids) == 1 or 4 <= len(kids[1]) <= 10)
        shared = ph.shared_children(seed)
        assert (len(kids) == 1 and not shared) or (shared == kids[0] & kids[1] and 2 <= len(shared) <= 4)
        scale, offset = ph.units(seed)
        assert np.allclose(x.std(axis=0), scale) and np.allclose(x.mean(axis=0), offset)  # not standardized
        edges = pg.true_edges("h16g", seed)
        order, _ = ph.dag(seed)
        rank = {int(v): i for i, v in enumerate(order)}
        assert all(rank[p] < rank[c] for p, c in edges)  # a DAG along its order

    def test_seeds_vary(self):
        sets = [pg.generate_all("h16g", s)[1] for s in G_SEEDS + tuple(range(26, 34))]
        assert {len(k) for k in sets} == {1, 2} and len({ph.n_vars(s) for s in G_SEEDS}) > 3
        scales = np.concatenate([ph.units(s)[0] for s in G_SEEDS])
        assert scales.max() / scales.min() > 1e4  # units over orders of magnitude
        kinds = np.concatenate([ph.noise_kinds(s)[1] for s in G_SEEDS])
        assert set(kinds) == set(ph.NOISE_KINDS)

    def test_feed_forward_loops_among_children(self):
        """Some pairs of one root's children are joined by an edge (h -> a -> b and h -> b)."""
        n_ffl = 0
        for s in G_SEEDS:
            kids = pg.generate_all("h16g", s)[1]
            n_ffl += sum(p in k and c in k for p, c in pg.true_edges("h16g", s) for k in kids)
        assert n_ffl >= len(G_SEEDS)

    @pytest.mark.parametrize("seed", G_SEEDS)
    def test_null_is_the_network_without_roots(self, seed):
        _same_network_without_roots("h16g", seed)

    @pytest.mark.parametrize("seed", G_SEEDS)
    def test_children_follow_their_roots(self, seed):
        """In a least-squares fit of each planted child on its observed parents and every h, h's
        coefficient has the planted load's sign, and as a group the children's residuals on their
        observed parents follow their root far more than the other variables' do (a child whose
        feed-forward parent or second root takes much of h's share may itself follow it weakly)."""
        x, kids, hs = pg.generate_all("h16g", seed)
        edges = pg.true_edges("h16g", seed)
        *_, c = ph._network(seed)
        planted = set().union(*kids)
        for v in planted:
            design = np.column_stack([np.ones(len(x)), x[:, [p for p, q in edges if q == v]], *hs])
            coef = np.linalg.lstsq(design, x[:, v], rcond=None)[0][-len(hs) :]
            assert all(np.sign(coef[j]) == np.sign(c[j, v]) for j in range(len(hs)) if c[j, v] != 0.0)
        others = [_r(_residual(x, v, edges), hs[0]) for v in range(x.shape[1]) if v not in planted]
        for kid_set, h in zip(kids, hs, strict=True):
            r_kids = [_r(_residual(x, v, edges), h) for v in kid_set]
            assert np.mean(np.array(r_kids) > 0.2) >= 0.75 and np.median(r_kids) > 4 * np.median(others)


@pytest.fixture(scope="module")
def table():
    return h16m.generate(M_SEED, n_cols=COLS)


@pytest.fixture(scope="module")
def null():
    return h16m.generate(M_SEED, True, n_cols=COLS)


def _r(a: np.ndarray, b: np.ndarray) -> float:
    return abs(float(np.corrcoef(a, b)[0, 1]))


def _cols(g: dict, names: set[str]) -> np.ndarray:
    return g["values"][:, [g["names"].index(x) for x in sorted(names)]]


class TestH16m:
    def test_shapes_names_and_lists(self, table):
        g = table
        m = len(g["labels"])
        assert 27 <= m <= 60 and g["values"].shape == (m, COLS) and np.isfinite(g["values"]).all()
        assert len(set(g["names"])) == COLS and len(set(g["labels"])) == m
        assert all(re.fullmatch(r"Y[A-P][LR]\d{3}[WC]", x) for x in g["names"])
        assert 108 <= len(g["regulators"]) <= 122 and set(g["regulators"]) <= set(g["names"])
        assert g["star_name"] not in g["names"] and g["star_name"] not in g["regulators"]  # R* removed from both
        assert g["gate"] in g["regulators"] and g["gated"] <= g["module"]
        assert 30 <= len(g["module"]) <= 50 and 0.25 <= len(g["gated"]) / len(g["module"]) <= 0.65
        assert 20 <= len(g["targets"][0]) <= 40 and not g["module"] & g["targets"][0]
        assert not (g["module"] | g["targets"][0]) & set(g["regulators"])
        assert g["star"].shape == (m,) and g["drivers"].shape == (m, 1)

    def test_time_courses(self, table):
        """2-4 series of at least 6 time points, labelled by minutes; the factors autocorrelated
        along each series; D on in 2-4 consecutive points of one series."""
        g = table
        assert 2 <= len(g["series"]) <= 4 and all(len(r) >= 6 for r in g["series"])
        assert all(re.fullmatch(r"(alpha|cdc15|cdc28|elu)_\d{3}min", x) for x in g["labels"])
        lag = [np.mean([np.corrcoef(f[r[:-1]], f[r[1:]])[0, 1] for r in g["series"]]) for f in g["factors"].T]
        assert np.median(lag) > 0.3
        on = np.flatnonzero(g["drivers"][:, 0])
        assert 2 <= len(on) <= 4 and np.all(np.diff(on) == 1) and any(set(on) <= set(r) for r in g["series"])
        assert g["on"] == [g["labels"][i] for i in on]

    def test_module_follows_r_star_and_gating(self, table):
        g = table
        mod = _cols(g, g["module"])
        z = (mod - mod.mean(axis=0)) / mod.std(axis=0)
        assert _r(np.linalg.svd(z, full_matrices=False)[0][:, 0], g["star"]) > 0.9  # a linear summary tracks R*
        gated = [_r(c, g["star"]) for c in _cols(g, g["gated"]).T]
        plain = [_r(c, g["star"]) for c in _cols(g, g["module"] - g["gated"]).T]
        assert np.median(plain) > 0.6 and np.median(gated) > 0.4
        t = g["values"][:, g["names"].index(g["gate"])]
        assert np.median([_r(c, t) for c in _cols(g, g["gated"]).T]) > np.median(
            [_r(c, t) for c in _cols(g, g["module"] - g["gated"]).T]
        )
        d = g["drivers"][:, 0]
        assert np.median([_r(c, d) for c in _cols(g, g["targets"][0]).T]) > 0.5

    def test_deterministic_and_null_has_no_hidden_effect(self, table, null):
        again = h16m.generate(M_SEED, n_cols=COLS)
        assert np.array_equal(again["values"], table["values"]) and again["labels"] == table["labels"]
        n = null
        assert n["names"] == table["names"] and n["regulators"] == table["regulators"] and n["on"] == []
        assert n["star_name"] not in n["names"] + n["regulators"]
        assert np.median([_r(c, table["star"]) for c in _cols(n, table["module"]).T]) < 0.3
        assert np.median([_r(c, table["drivers"][:, 0]) for c in _cols(n, table["targets"][0]).T]) < 0.3
        tfs = [n["names"].index(x) for x in n["regulators"]]
        assert np.array_equal(n["values"][:, tfs], table["values"][:, tfs])  # the same TFs and conditions

    def test_full_width(self):
        assert h16m.generate(1671)["values"].shape[1] == h16m.N_COLS == 2500
