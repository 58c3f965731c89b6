"""Smoke cases of the eighth #22 session's general-network hold-out, ``fanin``
(benchmarks/planted_fanin.py, through ``planted_general``; its genome hold-out,
``benchmarks/bench_regulators_genome_relay.py``, is in test_bench_holdouts_relay.py).

They check what the generator plants (shapes and ranges, determinism, the null is the same network
without the roots, every child has 1-3 observed co-parents as strong as its root, the children
follow their root, the noise kinds) on seeds outside the hold-out's 1400-1409; they never run the
search: the hold-out's recovery is measured once, at the end of the session, by
``bench_regulators.py --only fanin --hold-out`` and ``--only fanin-null --hold-out``."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

import planted_fanin as pf  # noqa: E402
import planted_general as pg  # noqa: E402
from test_bench_holdouts_mixed import _children_follow, _planted, _same_network_without_roots  # noqa: E402  (the same checks of the planted structure)

#: seed indices of ``fanin`` (seeds 1420-1425), outside the hold-out's 1400-1409
FANIN_SEEDS = tuple(range(20, 26))


def _skew(v: np.ndarray) -> float:
    z = (v - v.mean()) / v.std()
    return float((z**3).mean())


class TestFanin:
    def test_is_the_hold_out(self):
        assert pg.HOLD_OUT == "h29g" and pg.SPECS["fanin"].seed0 == pf.SEED0 == 1400

    @pytest.mark.parametrize("seed", FANIN_SEEDS)
    def test_shapes_and_ranges(self, seed):
        x, _, _, edges = _planted("fanin", seed, (100, 500), (30, 60), (5, 15))
        assert max(np.bincount([c for _, c in edges], minlength=x.shape[1])) <= 3  # in-degree 0-3

    def test_seeds_vary(self):
        assert {len(pg.generate_all("fanin", s)[1]) for s in FANIN_SEEDS} == {1, 2}
        assert len({pf.n_vars(s) for s in FANIN_SEEDS}) > 3
        w = np.concatenate([pf.dag(s)[1][pf.dag(s)[1] != 0] for s in FANIN_SEEDS])
        assert 0.3 < np.mean(w > 0) < 0.7  # positive and negative weights

    @pytest.mark.parametrize("seed", FANIN_SEEDS)
    def test_children_have_observed_co_parents_as_strong_as_h(self, seed):
        """Every planted child has 1-3 observed parents, none a child of the same root, and in a
        least-squares fit of the child on them and h, h's term is of the size of theirs."""
        x, kids, hs = pg.generate_all("fanin", seed)
        edges = pg.true_edges("fanin", seed)
        ratios = []
        for kid_set, h in zip(kids, hs, strict=True):
            for v in kid_set:
                pa = [p for p, c in edges if c == v]
                assert 1 <= len(pa) <= 3 and not set(pa) & kid_set
                design = np.column_stack([np.ones(len(x)), x[:, pa], h])
                coef = np.linalg.lstsq(design, x[:, v], rcond=None)[0]
                ratios.append(abs(coef[-1]) * h.std() / np.mean(np.abs(coef[1:-1]) * x[:, pa].std(axis=0)))
        assert 0.5 < np.median(ratios) < 2.0 and np.mean((np.array(ratios) > 0.25) & (np.array(ratios) < 4)) > 0.8

    def test_deterministic_and_null_is_the_same_network(self):
        _same_network_without_roots("fanin", FANIN_SEEDS[0])

    @pytest.mark.parametrize("seed", FANIN_SEEDS)
    def test_children_follow_their_root(self, seed):
        """Beyond their observed parents every planted child follows its root's h, and as a group
        far more than the other variables do; the children's residuals predict h at |r| > 0.9
        (what the recovery rule asks of the engine's H is reachable)."""
        for res, h in _children_follow("fanin", seed):
            design = np.column_stack([np.ones(len(h)), *res.values()])
            fit = design @ np.linalg.lstsq(design, h, rcond=None)[0]
            assert abs(np.corrcoef(fit, h)[0, 1]) > 0.9

    def test_noise_is_a_mix_of_gaussian_and_skewed(self):
        """About half the variables have centred gamma or log-normal noise, skewed either way (seen
        on the DAG's sources, whose values are their noise); the sd spreads over [0.5, 1.5]."""
        skews, kinds = [], []
        for seed in FANIN_SEEDS:
            sd, kind = pf.noise_kinds(seed)
            kinds.extend(kind.tolist())
            assert sd.min() >= 0.5 and sd.max() <= 1.5
            x, _, _ = pg.generate_all("fanin", seed, null=True)
            sources = set(range(x.shape[1])) - {c for _, c in pg.true_edges("fanin", seed)}
            skews.extend((kind[v], _skew(x[:, v])) for v in sources)
        assert set(kinds) == set(pf.NOISE_KINDS) and 0.35 < kinds.count("gaussian") / len(kinds) < 0.65
        skewed = [abs(s) for k, s in skews if k != "gaussian"]
        plain = [abs(s) for k, s in skews if k == "gaussian"]
        assert np.median(skewed) > 0.7 and np.median(plain) < 0.3
        assert any(s < -0.7 for k, s in skews if k != "gaussian") and any(s > 0.7 for k, s in skews if k != "gaussian")
