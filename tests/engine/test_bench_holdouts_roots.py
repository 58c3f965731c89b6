"""Smoke cases of the seventh #22 session's general-network hold-out, ``roots``
(benchmarks/planted_roots.py, through ``planted_general``; its genome hold-out,
``benchmarks/bench_regulators_genome_pulse.py``, is in test_bench_holdouts_pulse.py).

They check what the generator plants (shapes and ranges, determinism, the null is the same network
without the roots, the children follow their root, the skeleton is small-world, the noise kinds)
on seeds outside the hold-out's 1200-1209; they never run the search: the hold-out's recovery is
measured once, at the end of the session, by ``bench_regulators.py --only roots --null``."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

import planted_general as pg  # noqa: E402
import planted_roots as pr  # noqa: E402
from test_bench_holdouts_mixed import (  # noqa: E402  (the same checks of the planted structure)
    _children_follow,
    _planted,
    _residual,
    _same_network_without_roots,
)

#: seed indices of ``roots`` (seeds 1220-1227), outside the hold-out's 1200-1209
ROOTS_SEEDS = tuple(range(20, 28))


class TestRoots:
    def test_stays_runnable_after_its_session(self):
        """``roots`` was the seventh session's hold-out; ``fanin`` is the eighth's (test_bench_holdouts_fanin.py)."""
        assert pg.HOLD_OUT == "h29g" and pg.SPECS["roots"].seed0 == pr.SEED0 == 1200

    @pytest.mark.parametrize("seed", ROOTS_SEEDS)
    def test_shapes_and_ranges(self, seed):
        x, kids, _, edges = _planted("roots", seed, (80, 400), (25, 45), (4, 9))
        n_parents = np.bincount([c for _, c in edges], minlength=x.shape[1])
        assert all(n_parents[v] <= 2 for k in kids for v in k)  # a child has 0-2 observed parents

    def test_seeds_vary(self):
        n_roots = {len(pg.generate_all("roots", s)[1]) for s in ROOTS_SEEDS}
        assert n_roots == {1, 2}
        assert len({pr.n_vars(s) for s in ROOTS_SEEDS}) > 3
        signs = [np.sign(w) for s in ROOTS_SEEDS for w in pr.dag(s)[1][pr.dag(s)[1] != 0]]
        assert 0.3 < np.mean(np.array(signs) > 0) < 0.7  # positive and negative weights

    def test_skeleton_is_small_world(self):
        """Mostly ring-local edges (within 3 positions), a few long-range ones (the rewired)."""
        local = total = 0
        for s in ROOTS_SEEDS:
            ring, _, w = pr._network(s)
            n = len(ring)
            pos = np.empty(n, dtype=int)
            pos[ring] = np.arange(n)
            for p, c in zip(*np.nonzero(w), strict=True):
                d = abs(pos[p] - pos[c])
                local += min(d, n - d) <= 3
                total += 1
        assert 0.6 < local / total < 0.97

    def test_deterministic_and_null_is_the_same_network(self):
        _same_network_without_roots("roots", ROOTS_SEEDS[0])

    @pytest.mark.parametrize("seed", ROOTS_SEEDS)
    def test_children_follow_their_root(self, seed):
        """Beyond their observed parents (which can be other children of the same h) every planted
        child follows its root's h, and as a group far more than the other variables do."""
        assert len(_children_follow("roots", seed)) in (1, 2)

    def test_small_roots_are_strong(self):
        """A root of 4 children has loads whose squares sum to >= 4.5: its children's residuals
        predict h at |r| > 0.88 (the recovery rule asks 0.9 of the engine's H)."""
        for seed in ROOTS_SEEDS:
            x, kids, hs = pg.generate_all("roots", seed)
            edges = pg.true_edges("roots", seed)
            for kid_set, h in zip(kids, hs, strict=True):
                design = np.column_stack([np.ones(len(x))] + [_residual(x, v, edges) for v in kid_set])
                fit = design @ np.linalg.lstsq(design, h, rcond=None)[0]
                assert abs(np.corrcoef(fit, h)[0, 1]) > 0.88

    def test_noise_kinds_and_skewed_roots(self):
        """About 30 % Laplace noise (heavier tails on the roots of the DAG), noise sd spread over
        [0.4, 2.0], and some planted h skewed."""
        kurt, share, skewed = [], [], 0
        for seed in ROOTS_SEEDS:
            sd, laplace = pr.noise_kinds(seed)
            share.append(laplace.mean())
            assert sd.min() >= 0.4 and sd.max() <= 2.0 and sd.max() / sd.min() > 2
            x, _, hs = pg.generate_all("roots", seed, null=True)
            sources = set(range(x.shape[1])) - {c for _, c in pg.true_edges("roots", seed)}
            for v in sources & set(np.flatnonzero(laplace).tolist()):
                z = (x[:, v] - x[:, v].mean()) / x[:, v].std()
                kurt.append((z**4).mean() - 3.0)
            skewed += sum(abs((h**3).mean()) > 0.5 for h in pg.generate_all("roots", seed)[2])
        assert 0.15 < np.mean(share) < 0.45 and np.median(kurt) > 1.0 and skewed >= 1
