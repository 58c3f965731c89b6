"""Smoke cases of the fifth #22 session's hold-out generators: ``tanh`` in
``benchmarks/planted_general.py`` and ``benchmarks/bench_regulators_genome_batch.py``.

They check what the generators plant (shapes, determinism per seed, the planted children are
children, the batches, replicates and low genes are there) on seeds outside the hold-out ranges
(800-809 and 900-909), and never run the search: the hold-outs' recovery is measured once, at the
end of the session, by ``bench_regulators.py --only tanh`` and the batch script."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

import bench_regulators_genome_batch as batch  # noqa: E402
import planted_general as pg  # noqa: E402

#: ``generate_all("tanh", s)`` uses seed 800 + s: these are 820-822, outside the hold-out's 800-809
TANH_SEEDS = (20, 21, 22)
#: outside the batch hold-out's 900-909
BATCH_SEED = 3


class TestTanh:
    def test_stays_runnable_after_its_session(self):
        """``tanh`` was the fifth session's hold-out; ``fanin`` is the eighth's (test_bench_holdouts_fanin.py)."""
        assert pg.HOLD_OUT == "h29g" and "modular" in pg.SPECS and pg.SPECS["tanh"].seed0 == 800

    @pytest.mark.parametrize("seed", TANH_SEEDS)
    def test_shapes_and_ranges(self, seed):
        x, kids, hs = pg.generate_all("tanh", seed)
        m, n = x.shape
        assert 80 <= m <= 400 and 30 <= n <= 50 and n == pg.n_vars("tanh", seed)
        assert len(kids) == len(hs) == 1 and 5 <= len(kids[0]) <= 15 and hs[0].shape == (m,)
        assert np.allclose(x.std(axis=0), 1.0)
        edges = pg.true_edges("tanh", seed)
        assert 0.05 < len(edges) / (n * (n - 1) / 2) < 0.2  # edge probability drawn in [0.08, 0.15]

    def test_deterministic_and_null_is_the_same_network(self):
        x, kids, hs = pg.generate_all("tanh", TANH_SEEDS[0])
        x2, kids2, hs2 = pg.generate_all("tanh", TANH_SEEDS[0])
        assert np.array_equal(x, x2) and kids == kids2 and np.array_equal(hs[0], hs2[0])
        xn, kn, hn = pg.generate_all("tanh", TANH_SEEDS[0], null=True)
        assert xn.shape == x.shape and kn == [] and hn == []
        untouched = [v for v in range(x.shape[1]) if not _descends(v, kids[0], TANH_SEEDS[0])]
        assert untouched and np.allclose(xn[:, untouched], x[:, untouched])  # same noise off h's paths

    @pytest.mark.parametrize("seed", TANH_SEEDS)
    def test_planted_children_are_children(self, seed):
        """Every planted child follows h (|r| > 0.2) beyond what its parents explain, and
        the children as a group follow it far more than the other variables do."""
        x, (kids,), (h,) = pg.generate_all("tanh", seed)
        edges = pg.true_edges("tanh", seed)
        for v in kids:
            pa = [p for p, c in edges if c == v]
            design = np.column_stack([np.ones(len(x)), x[:, pa]])
            resid = x[:, v] - design @ np.linalg.lstsq(design, x[:, v], rcond=None)[0]
            assert abs(np.corrcoef(resid, h)[0, 1]) > 0.2
        others = [v for v in range(x.shape[1]) if v not in kids]
        r_kids = np.median([abs(np.corrcoef(x[:, v], h)[0, 1]) for v in kids])
        assert r_kids > 2 * np.median([abs(np.corrcoef(x[:, v], h)[0, 1]) for v in others])

    def test_noise_is_heavy_tailed(self):
        """Pooled over the seeds: the noise-only roots have excess kurtosis well above a normal's 0."""
        kurt = []
        for seed in TANH_SEEDS:
            x, _, _ = pg.generate_all("tanh", seed, null=True)
            children = {c for _, c in pg.true_edges("tanh", seed)}
            for v in set(range(x.shape[1])) - children:
                z = (x[:, v] - x[:, v].mean()) / x[:, v].std()
                kurt.append((z**4).mean() - 3.0)
        assert np.median(kurt) > 0.3


def _descends(v: int, kids: set[int], seed: int) -> bool:
    """v is a planted child or a descendant of one (its values depend on h)."""
    edges = pg.true_edges("tanh", seed)
    reach, grew = set(kids), True
    while grew:
        new = {c for p, c in edges if p in reach} - reach
        reach |= new
        grew = bool(new)
    return v in reach


class TestBatch:
    @pytest.fixture(scope="class")
    @classmethod
    def table(cls):
        return batch.generate(BATCH_SEED)

    def test_shapes_and_lists(self, table):
        g = table
        m = len(g["labels"])
        assert 30 <= m <= 36 and g["values"].shape == (m, 2500) and len(g["names"]) == 2500
        assert len(g["regulators"]) == 115 and "TF000" not in g["names"] and set(g["regulators"]) <= set(g["names"])
        assert 30 <= len(g["module"]) <= 50 and g["module"] <= set(g["names"]) and g["removed"].shape == (m,)
        assert np.isfinite(g["values"]).all()

    def test_deterministic(self, table):
        again = batch.generate(BATCH_SEED)
        assert np.array_equal(again["values"], table["values"]) and again["labels"] == table["labels"]

    def test_module_follows_the_removed_regulator(self, table):
        g = table
        cols = [g["names"].index(n) for n in sorted(g["module"])]
        r = [abs(np.corrcoef(g["values"][:, c], g["removed"])[0, 1]) for c in cols]
        assert np.median(r) > 0.6

    def test_batches_shift_genes(self, table):
        g = table
        labels, counts = np.unique(g["batch"], return_counts=True)
        assert len(labels) in (2, 3) and counts.min() >= 8
        r2 = [batch.batch_r2(g["values"][:, j], g["batch"]) for j in range(2500)]
        assert 0.15 < np.mean(np.array(r2) > 0.3) < 0.8  # a random subset of genes is shifted

    def test_replicates_are_near_duplicates(self, table):
        g = table
        assert 2 <= len(g["replicates"]) <= 4
        z = (g["values"] - g["values"].mean(axis=0)) / g["values"].std(axis=0)
        for rep, orig in g["replicates"].items():
            i, j = g["labels"].index(rep), g["labels"].index(orig)
            assert g["batch"][i] == g["batch"][j] and np.corrcoef(z[i], z[j])[0, 1] > 0.9
            assert np.allclose(g["removed"][i], g["removed"][j])

    def test_low_genes_are_floored(self, table):
        g = table
        assert 15 <= len(g["low"]) <= 30 and not g["low"] & g["module"]
        for name in g["low"]:
            col = g["values"][:, g["names"].index(name)]
            assert (col == col.min()).sum() >= 4 and col.std() > 0

    def test_null_lists_r_and_keeps_the_lab(self, table):
        n = batch.generate(BATCH_SEED, null=True)
        assert n["removed"] is None and "TF000" in n["regulators"] and len(n["regulators"]) == 116
        assert n["values"].shape == (len(table["labels"]), 2501)
        assert np.array_equal(n["batch"], table["batch"]) and n["replicates"] == table["replicates"]

    def test_batch_r2_matches_the_basis(self, table):
        """The script reads a kept H's batch R^2 from |r| with an orthonormal batch basis."""
        prof = np.random.default_rng(0).normal(size=len(table["labels"])) + table["batch"]
        q = batch._basis(table["batch"])
        via_r = sum(np.corrcoef(prof, q[:, k])[0, 1] ** 2 for k in range(q.shape[1]))
        assert via_r == pytest.approx(batch.batch_r2(prof, table["batch"]))
        assert batch.batch_r2(table["batch"].astype(float), table["batch"]) == pytest.approx(1.0)

    def test_seed_line_names_a_batch_h(self, table, monkeypatch):
        """The per-seed line and verdict from what auto kept (``run_auto`` stood in for: no search):
        an H on the batch labels is marked BATCH and does not count as R; one on R does."""
        from genome_auto import Kept

        def fake(g, source, seed):
            cols = g["removed"].T  # R, then the batch basis
            r_batch = [abs(np.corrcoef(table["batch"], c)[0, 1]) for c in cols]
            kids = set(sorted(table["module"])[:5])
            return (
                [
                    Kept("H1", r_batch, {"g0001"}, [], 0.0, 0.1, 12.0),
                    Kept("H2", [1.0] + [0.0] * (len(cols) - 1), kids, ["TF005"], 0.3, 0.1, 40.0),
                ],
                1.0,
                1.0,
            )

        monkeypatch.setattr(batch, "run_auto", fake)
        line, ok, kept = batch.run_seed(table, "batch-3", BATCH_SEED)
        assert ok and kept and "H1 1 kids" in line and "BATCH" in line.split(";")[0]
        assert "H2 5 kids r=1.00 in-module=5" in line and "BATCH" not in line.split(";")[1].split("|")[0]
        assert "1 kept H tracks a batch" in line
