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

import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

import planted_general as pg  # noqa: E402
import planted_h21g as ph  # noqa: E402
from test_bench_holdouts_h20 import _lstsq_r, _r  # noqa: E402
from test_bench_holdouts_mixed import _same_network_without_roots  # noqa: E402

#: seed indices of ``h21g`` (seeds 2190-2199), outside the hold-out's 2100-2109
G_SEEDS = tuple(range(90, 100))


def _excess_kurtosis(v: np.ndarray) -> float:
    z = (v - v.mean()) / v.std()
    return float(np.mean(z**4) - 3.0)


class TestH21g:
    def test_is_the_hold_out(self):
        assert pg.HOLD_OUT == "h21g" and pg.SPECS["h21g"].seed0 == ph.SEED0 == 2100
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
