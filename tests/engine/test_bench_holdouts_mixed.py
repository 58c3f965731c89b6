"""Smoke cases of the sixth #22 session's hold-out generators: ``mixed`` (benchmarks/planted_mixed.py,
through ``planted_general``) and ``benchmarks/bench_regulators_genome_slots.py``.

They check what the generators plant (shapes and ranges, determinism, the null is the same network
without the roots, the children follow their root, the stand-in's correlation, the programs) and
how a seed is scored, on seeds outside the hold-out ranges (1000-1009 and 1100-1109); they never run
the search: the hold-outs' recovery is measured once, at the end of the session, by
``bench_regulators.py --only mixed --null`` and the slots script."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

import bench_regulators_genome_slots as slots  # noqa: E402
import planted_general as pg  # noqa: E402
import planted_mixed as pm  # noqa: E402
from genome_auto import Kept  # noqa: E402

#: seed indices of ``mixed`` (seeds 1020-1025), outside the hold-out's 1000-1009
MIXED_SEEDS = tuple(range(20, 26))
#: outside the slots hold-out's 1100-1109
SLOTS_SEED = 1120


class TestMixed:
    def test_stays_runnable_after_its_session(self):
        """``mixed`` was the sixth session's hold-out; ``fanin`` is the eighth's (test_bench_holdouts_fanin.py)."""
        assert pg.HOLD_OUT == "h29g" and pg.SPECS["mixed"].seed0 == pm.SEED0 == 1000

    @pytest.mark.parametrize("seed", MIXED_SEEDS)
    def test_shapes_and_ranges(self, seed):
        x, kids, hs = pg.generate_all("mixed", seed)
        m, n = x.shape
        assert m in pm.M_CHOICES and 25 <= n <= 60 and n == pg.n_vars("mixed", seed)
        assert len(kids) == len(hs) in (1, 2) and 4 <= len(kids[0]) <= 20 and hs[0].shape == (m,)
        if len(kids) == 2:
            assert 3 <= len(kids[1]) <= 8 and len(kids[0] & kids[1]) <= 1
        assert np.allclose(x.std(axis=0), 1.0) and np.isfinite(x).all()
        assert 0.0 < len(pg.true_edges("mixed", seed)) / (n * (n - 1) / 2) < 0.18

    def test_seeds_vary_roots_and_density(self):
        n_roots = {len(pg.generate_all("mixed", s)[1]) for s in MIXED_SEEDS}
        assert n_roots == {1, 2}
        dens = [len(pm.true_edges(s)) / (pm.n_vars(s) * (pm.n_vars(s) - 1) / 2) for s in MIXED_SEEDS]
        assert max(dens) > 1.5 * min(dens)

    def test_deterministic_and_null_is_the_same_network(self):
        seed = MIXED_SEEDS[0]
        x, kids, hs = pg.generate_all("mixed", seed)
        x2, kids2, hs2 = pg.generate_all("mixed", seed)
        assert (
            np.array_equal(x, x2) and kids == kids2 and all(np.array_equal(a, b) for a, b in zip(hs, hs2, strict=True))
        )
        xn, kn, hn = pg.generate_all("mixed", seed, null=True)
        assert xn.shape == x.shape and kn == [] and hn == []
        reach = _descendants(set().union(*kids), pm.true_edges(seed))
        untouched = [v for v in range(x.shape[1]) if v not in reach]
        assert untouched and np.allclose(xn[:, untouched], x[:, untouched])

    @pytest.mark.parametrize("seed", MIXED_SEEDS)
    def test_planted_children_follow_their_root(self, seed):
        """Beyond what their observed parents explain (which can be other children of h), the
        planted children follow their root's h, and the other variables do not (h reaches them
        only through their parents)."""
        x, kids, hs = pg.generate_all("mixed", seed)
        edges = pm.true_edges(seed)
        planted = set().union(*kids)
        for kid_set, h in zip(kids, hs, strict=True):
            r_kids = [abs(np.corrcoef(_residual(x, v, edges), h)[0, 1]) for v in kid_set]
            r_others = [
                abs(np.corrcoef(_residual(x, v, edges), h)[0, 1]) for v in range(x.shape[1]) if v not in planted
            ]
            assert np.mean(np.array(r_kids) > 0.15) >= 0.8 and np.median(r_kids) > 3 * np.median(r_others)

    def test_responses_are_mixed(self):
        """Pooled over seeds, the children's residuals after a linear fit on their parents show
        curvature (a quadratic or hinge term) or a spread that grows with a parent in some children."""
        nonlinear = 0
        for seed in MIXED_SEEDS:
            x, _, _ = pg.generate_all("mixed", seed, null=True)
            edges = pm.true_edges(seed)
            for v in {c for _, c in edges}:
                pa = [p for p, c in edges if c == v]
                resid = _residual(x, v, edges)
                bend = max(abs(np.corrcoef(resid, x[:, p] ** 2)[0, 1]) for p in pa)
                spread = max(abs(np.corrcoef(resid**2, x[:, p])[0, 1]) for p in pa)
                nonlinear += bool(max(bend, spread) > 0.3 and len(x) >= 120)
        assert nonlinear >= 5


def _residual(x: np.ndarray, v: int, edges: list[tuple[int, int]]) -> np.ndarray:
    """x_v minus its least-squares fit on its observed parents."""
    design = np.column_stack([np.ones(len(x)), x[:, [p for p, c in edges if c == v]]])
    return x[:, v] - design @ np.linalg.lstsq(design, x[:, v], rcond=None)[0]


def _planted(
    name: str, seed: int, m_range: tuple[int, int], n_range: tuple[int, int], kid_range: tuple[int, int]
) -> tuple[np.ndarray, list[set[int]], list[np.ndarray], list[tuple[int, int]]]:
    """``generate_all(name, seed)`` of a generator with its own module and disjoint roots (``roots``,
    ``fanin``), checked for what each promises: M, N and every child set in their ranges, one or two
    roots with one h each, unit-variance finite columns, edges along the generator's order. Returns
    the data, child sets, h's and edges."""
    x, kids, hs = pg.generate_all(name, seed)
    m, n = x.shape
    assert m_range[0] <= m <= m_range[1] and n_range[0] <= n <= n_range[1] and n == pg.n_vars(name, seed)
    assert len(kids) == len(hs) in (1, 2) and all(kid_range[0] <= len(k) <= kid_range[1] for k in kids)
    assert all(h.shape == (m,) for h in hs) and (len(kids) == 1 or not kids[0] & kids[1])
    assert np.allclose(x.std(axis=0), 1.0) and np.isfinite(x).all()
    edges = pg.true_edges(name, seed)
    order, _ = pg.OWN_MODULE[name].dag(seed)
    rank = {int(v): i for i, v in enumerate(order)}
    assert all(rank[p] < rank[c] for p, c in edges)  # a DAG along its order
    return x, kids, hs, edges


def _same_network_without_roots(name: str, seed: int) -> None:
    """``generate_all(name, seed)`` is deterministic, and its null is the same network and noise
    without the roots: the variables off every root's paths are the same to the last digit."""
    x, kids, hs = pg.generate_all(name, seed)
    x2, kids2, hs2 = pg.generate_all(name, seed)
    assert np.array_equal(x, x2) and kids == kids2
    assert all(np.array_equal(a, b) for a, b in zip(hs, hs2, strict=True))
    xn, kn, hn = pg.generate_all(name, seed, null=True)
    assert xn.shape == x.shape and kn == [] and hn == []
    reached = _descendants(set().union(*kids), pg.true_edges(name, seed))
    untouched = [v for v in range(x.shape[1]) if v not in reached]
    assert untouched and np.allclose(xn[:, untouched], x[:, untouched])  # the same noise off h's paths


def _children_follow(name: str, seed: int) -> list[tuple[dict[int, np.ndarray], np.ndarray]]:
    """Beyond their observed parents every planted child of ``generate_all(name, seed)`` follows its
    root's h (|r| > 0.2), and as a group far more than the other variables do (median over 4x).
    Per root: its children's residuals on their observed parents, and its h."""
    x, kids, hs = pg.generate_all(name, seed)
    edges = pg.true_edges(name, seed)
    planted = set().union(*kids)
    r_others = {v: _residual(x, v, edges) for v in range(x.shape[1]) if v not in planted}
    out = []
    for kid_set, h in zip(kids, hs, strict=True):
        res = {v: _residual(x, v, edges) for v in kid_set}
        r_kids = [abs(np.corrcoef(r, h)[0, 1]) for r in res.values()]
        others = [abs(np.corrcoef(r, h)[0, 1]) for r in r_others.values()]
        assert min(r_kids) > 0.2 and np.median(r_kids) > 4 * np.median(others)
        out.append((res, h))
    return out


def _descendants(start: set[int], edges: list[tuple[int, int]]) -> set[int]:
    reach, grew = set(start), True
    while grew:
        new = {c for p, c in edges if p in reach} - reach
        reach |= new
        grew = bool(new)
    return reach


class TestSlots:
    @pytest.fixture(scope="class")
    @classmethod
    def table(cls):
        return slots.generate(SLOTS_SEED)

    def test_shapes_and_lists(self, table):
        g = table
        m = len(g["labels"])
        assert 24 <= m <= 32 and g["values"].shape == (m, 2400) and len(g["names"]) == 2400
        assert 100 <= len(g["regulators"]) <= 120 and "reg000" not in g["names"]
        assert set(g["regulators"]) <= set(g["names"]) and g["stand_in"] in g["regulators"]
        assert 30 <= len(g["module"]) <= 50 and 3 <= len(g["program_genes"]) <= 4
        assert all(20 <= len(p) <= 150 for p in g["program_genes"]) and np.isfinite(g["values"]).all()
        assert not any(p & g["module"] for p in g["program_genes"])

    def test_deterministic_and_null_lists_r_star(self, table):
        again = slots.generate(SLOTS_SEED)
        assert np.array_equal(again["values"], table["values"])
        n = slots.generate(SLOTS_SEED, null=True)
        assert n["values"].shape == (len(table["labels"]), 2401) and "reg000" in n["regulators"]
        assert np.allclose(n["values"][:, n["names"].index("reg000")], table["star"])
        assert np.array_equal(n["programs"], table["programs"]) and n["module"] == table["module"]

    def test_stand_in_is_partial_and_modules_follow(self, table):
        g, v = table, table["values"]
        r_s = abs(np.corrcoef(v[:, g["names"].index(g["stand_in"])], g["star"])[0, 1])
        assert 0.55 <= r_s <= 0.75
        cols = [g["names"].index(x) for x in g["module"]]
        assert np.median([abs(np.corrcoef(v[:, c], g["star"])[0, 1]) for c in cols]) > 0.6
        for j, genes in enumerate(g["program_genes"]):
            cols = [g["names"].index(x) for x in genes]
            assert np.median([abs(np.corrcoef(v[:, c], g["programs"][:, j])[0, 1]) for c in cols]) > 0.5

    def test_some_genes_are_counts(self, table):
        v = table["values"][:, len(table["regulators"]) :]
        integer_like = np.all(np.isclose(np.exp2(v) - 1.0, np.round(np.exp2(v) - 1.0)), axis=0)
        assert 0.15 < integer_like.mean() < 0.35

    def test_seed_line_scores_each_kept_h(self, table, monkeypatch):
        """``run_auto`` stood in for (no search): an H on R* recovers it, one on a program is
        named, one on nothing planted is false, one on the listed stand-in is LISTED."""
        k = table["programs"].shape[1]

        def fake(g, source, seed):
            assert g["removed"].shape == (len(table["labels"]), 2 + k)
            mod = set(sorted(table["module"])[:4])
            return (
                [
                    Kept("H1", [0.95, 0.6] + [0.1] * k, mod, ["reg007"], 0.3, 0.1, 40.0),
                    Kept("H2", [0.1, 0.1, 0.97] + [0.1] * (k - 1), {"g0001"}, [], 0.0, 0.2, 30.0),
                    Kept("H3", [0.2, 0.3] + [0.4] * k, {"g0002"}, [], 0.0, 0.9, 5.0),
                    Kept("H4", [0.6, 0.95] + [0.1] * k, {"g0003"}, [], 0.0, 0.1, 5.0),
                ],
                2.0,
                12.0,
            )

        monkeypatch.setattr(slots, "run_auto", fake)
        line, tally = slots.run_seed(table, "slots-1120", SLOTS_SEED)
        assert tally["ok"] and tally == {**tally, "false": 1, "listed": 1, "programs": 1, "kept": 4}
        assert "H1 4 kids r*=0.95" in line and "=R*" in line and "=A1" in line and "FALSE" in line
        assert "LISTED" in line and "in-module=4" in line and "12.0 s CPU OK" in line
        slow = {**table}
        monkeypatch.setattr(slots, "run_auto", lambda g, s, i: (fake(g, s, i)[0], 90.0, 90.0))
        assert not slots.run_seed(slow, "slots-1120", SLOTS_SEED)[1]["ok"]  # past the 60 s CPU limit

    def test_an_h_on_the_stand_in_is_listed_even_when_far_from_r_star(self, table, monkeypatch):
        """S correlates with R* at only 0.55-0.75: an H at |r| 0.95 with S may be below 0.5 with R*;
        it tracks the listed stand-in (LISTED, counted apart), not nothing planted (FALSE)."""
        k = table["programs"].shape[1]
        kept = [Kept("H1", [0.45, 0.95] + [0.1] * k, {"g0003"}, [], 0.0, 0.1, 5.0)]
        monkeypatch.setattr(slots, "run_auto", lambda g, s, i: (kept, 2.0, 12.0))
        line, tally = slots.run_seed(table, "slots-1120", SLOTS_SEED)
        assert tally["listed"] == 1 and tally["false"] == 0 and "LISTED" in line and "FALSE" not in line
