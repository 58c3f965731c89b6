"""Bootstrap confidence without a cluster (engine/bootstrap: strength, threshold, averaged network,
regulator matching, replicates, result format; issue #13). The Dask side is in
test_bootstrap_dask.py."""

from __future__ import annotations

import json

import numpy as np
import pytest

from engine import IdealParentSearch
from engine.bootstrap import (
    BootstrapResult,
    EdgeStrength,
    ReplicateOutcome,
    averaged_network,
    edge_counts,
    edge_strengths,
    inclusion_threshold,
    match_regulators,
    pair_strengths,
    replicate_seeds,
    resample,
    run_replicate,
)
from engine.data import from_array
from engine.exceptions import ParameterError
from engine.synth import random_network, sample_dataset

NAMES = ("A", "B", "C", "D")


class TestEdgeStrengths:
    def test_strength_and_direction_as_bnlearn(self):
        """4 replicates: A->B twice, B->A once, none once: strength 3/4, direction 2/3, written A -> B."""
        counts = edge_counts(4, [[(0, 1)], [(0, 1), (2, 3)], [(1, 0)], []])
        rows = edge_strengths(NAMES, counts, 4)
        assert rows[0] == EdgeStrength("A", "B", 0.75, pytest.approx(2 / 3))
        assert rows[1] == EdgeStrength("C", "D", 0.25, 1.0)
        assert len(rows) == 2  # one row per unordered pair seen, none for pairs never seen

    def test_dominant_direction_and_tie_in_variable_order(self):
        counts = edge_counts(4, [[(3, 0)], [(3, 0)], [(0, 3)], [(2, 1)], [(1, 2)]])
        rows = {frozenset((e.parent, e.child)): e for e in edge_strengths(NAMES, counts, 5)}
        assert (rows[frozenset("AD")].parent, rows[frozenset("AD")].child) == ("D", "A")
        assert rows[frozenset("AD")].direction == pytest.approx(2 / 3)
        tie = rows[frozenset("BC")]
        assert (tie.parent, tie.child, tie.direction) == ("B", "C", 0.5)

    def test_strongest_first(self):
        counts = edge_counts(4, [[(0, 1), (1, 2)], [(0, 1)], [(0, 1), (2, 3)], [(1, 2)]])
        rows = edge_strengths(NAMES, counts, 4)
        assert [e.strength for e in rows] == sorted((e.strength for e in rows), reverse=True)

    def test_pair_strengths_include_zeros(self):
        counts = edge_counts(4, [[(0, 1)], [(1, 0)]])
        s = pair_strengths(counts, 2)
        assert s.shape == (6,) and sorted(s) == [0, 0, 0, 0, 0, 1.0]


class TestInclusionThreshold:
    def test_two_levels(self):
        """Eight pairs at 0 and two at 1: F = 0.8 on [0, 1), so p0 = 0.8 and the threshold is the
        0.8 quantile, 0: both edges of strength 1 are significant."""
        assert inclusion_threshold(np.array([0.0] * 8 + [1.0] * 2)) == 0.0

    def test_flat_minimum_takes_its_middle(self):
        """Strengths 0 (x6), 0.5, 1 (x3): F = 0.6 on [0, 0.5) and 0.7 on [0.5, 1), so
        norm(p) = 0.5|0.6 - p| + 0.5|0.7 - p| is flat on [0.6, 0.7]; p0 = 0.65 and the type-1
        quantile is the 7th smallest strength, 0.5 (only the strength-1 edges are above it)."""
        assert inclusion_threshold(np.array([0.0] * 6 + [0.5] + [1.0] * 3)) == 0.5

    def test_unique_kink(self):
        """Strengths 0 (x5), 0.2, 0.6, 0.9 (x3): levels 0.5 on [0, .2), 0.6 on [.2, .6), 0.7 on
        [.6, .9), 1 on [.9, 1]: weights .2 .4 .3 .1, weighted median 0.6, so p0 = 0.6 and the
        threshold is the 6th smallest strength, 0.2."""
        assert inclusion_threshold(np.array([0.0] * 5 + [0.2, 0.6] + [0.9] * 3)) == 0.2

    def test_minimizes_the_l1_distance(self):
        """p0 (recovered from the threshold) is a minimum of the L1 distance on a dense grid."""
        rng = np.random.default_rng(0)
        for _ in range(20):
            s = np.round(rng.beta(0.3, 0.6, size=40), 2)
            t = inclusion_threshold(s)
            assert t in s
            u = np.unique(np.concatenate([[0.0], s, [1.0]]))
            levels = np.searchsorted(np.sort(s), u[:-1], side="right") / s.size

            def norm(p, u=u, levels=levels):
                return np.sum(np.diff(u) * np.abs(levels - p))

            best = min(norm(p) for p in np.linspace(0, 1, 2001))
            p_t = np.mean(s <= t)  # F(threshold): p0 lies in (F(t-), F(t)]
            p_lo = np.mean(s < t)
            assert min(norm(p) for p in np.linspace(p_lo, p_t, 50)) <= best + 1e-9

    def test_empty(self):
        assert inclusion_threshold(np.array([])) == 0.0


class TestAveragedNetwork:
    def test_threshold_and_strength_one(self):
        edges = [EdgeStrength("A", "B", 1.0, 1.0), EdgeStrength("C", "D", 0.6, 0.9), EdgeStrength("A", "C", 0.4, 1)]
        assert [(e.parent, e.child) for e in averaged_network(edges, NAMES, 0.5)] == [("A", "B"), ("C", "D")]
        assert [(e.parent, e.child) for e in averaged_network(edges, NAMES, 1.0)] == [("A", "B")]

    def test_weakest_edge_of_a_cycle_left_out(self):
        edges = [EdgeStrength("A", "B", 0.9, 1.0), EdgeStrength("B", "C", 0.8, 1.0), EdgeStrength("C", "A", 0.7, 1.0)]
        assert [(e.parent, e.child) for e in averaged_network(edges, NAMES, 0.5)] == [("A", "B"), ("B", "C")]


class TestMatchRegulators:
    def test_support_and_membership(self):
        hidden = [
            (0, [["a", "b", "c"]]),
            (1, [["a", "b", "d"]]),  # Jaccard 2/4 = 0.5 with the core {a, b, c}: the same regulator
            (2, [["x", "y"]]),
            (3, [["x", "y", "z"], ["a", "b", "c"]]),
            (4, []),
        ]
        regs = match_regulators(hidden, 5)
        assert [r.name for r in regs] == ["R1", "R2"]
        r1, r2 = regs
        assert r1.support == pytest.approx(3 / 5) and r1.replicates == [0, 1, 3]
        assert r1.children == pytest.approx({"a": 1.0, "b": 1.0, "c": 2 / 3, "d": 1 / 3})
        assert r1.core == ["a", "b", "c"]
        assert r2.support == pytest.approx(2 / 5) and r2.children == pytest.approx({"x": 1, "y": 1, "z": 0.5})

    def test_low_overlap_is_a_new_regulator(self):
        regs = match_regulators([(0, [["a", "b", "c"]]), (1, [["a", "d", "e"]])], 2)  # Jaccard 1/5
        assert [r.support for r in regs] == [0.5, 0.5]

    def test_a_regulator_founded_broad_gathers_what_its_final_core_matches(self):
        """#22 CLI review: one module read as several regulators because the first replicate's
        children set was broad; at the end a smaller regulator whose hidden variables match the
        larger one's final core (and share no replicate with it) is merged into it."""
        module = [f"m{i}" for i in range(10)]
        hidden = [
            (0, [module + [f"x{i}" for i in range(8)]]),  # broad: the module and 8 more
            (1, [module]),  # Jaccard 10/18 with that core: joins
            (2, [module[:8] + ["y1", "y2"]]),  # 8/20 with the broad core: a regulator of its own at first
            (3, [module]),  # joins; the core is now the module
            (4, [["z1", "z2", "z3"]]),
        ]
        regs = match_regulators(hidden, 5)
        assert [(r.support, r.replicates) for r in regs] == [(4 / 5, [0, 1, 2, 3]), (1 / 5, [4])]
        assert regs[0].core == sorted(module) and regs[0].children["m0"] == 1.0
        # a smaller regulator in a replicate the larger one already has stays apart
        hidden[2] = (2, [module[:8] + ["y1", "y2"], module])
        regs = match_regulators(hidden, 5)
        assert [len(r.replicates) for r in regs] == [4, 1, 1]

    def test_order_of_finishing_does_not_matter(self):
        hidden = [(2, [["a", "b"]]), (0, [["a", "b", "c"]]), (1, [["b", "c"]])]
        assert [r.to_dict() for r in match_regulators(hidden, 3)] == [
            r.to_dict() for r in match_regulators(sorted(hidden), 3)
        ]


@pytest.fixture(scope="module")
def small():
    net = random_network(6, expected_parents=1.0, seed=5)
    return sample_dataset(net, 120, seed=6)


class TestReplicates:
    def test_seeds_do_not_depend_on_the_number_of_replicates(self):
        a = replicate_seeds(7, 3)
        b = replicate_seeds(7, 10)
        for x, y in zip(a, b, strict=False):
            assert x.generate_state(4).tolist() == y.generate_state(4).tolist()

    def test_resample_is_seeded_and_restandardized(self, small):
        seeds = replicate_seeds(0, 2)
        d1, s1 = resample(small, seeds[0])
        d2, s2 = resample(small, seeds[0])
        d3, _ = resample(small, seeds[1])
        assert np.array_equal(d1.values, d2.values) and s1 == s2
        assert not np.array_equal(d1.values, d3.values)
        assert np.allclose(d1.values.mean(axis=0), 0) and np.allclose(d1.values.std(axis=0), 1)
        assert small.values.flags.writeable is False  # the user's data untouched

    def test_run_replicate_returns_observed_edges(self, small):
        out = run_replicate((small, IdealParentSearch()), 3, replicate_seeds(0, 4)[3])
        assert out.ok and out.index == 3 and out.edges and out.hidden == []
        assert all(0 <= p < small.n_vars and 0 <= c < small.n_vars for p, c in out.edges)

    def test_failing_replicate_names_itself(self):
        """A 0/1 column with a single 1: a resample without that row has a constant column."""
        x = np.random.default_rng(0).normal(size=(30, 3))
        x[:, 2] = 0.0
        x[5, 2] = 1.0
        ds = from_array(x, ["a", "b", "rare"])
        outs = [run_replicate((ds, IdealParentSearch()), r, s) for r, s in enumerate(replicate_seeds(1, 4))]
        failed = [o for o in outs if not o.ok]
        assert failed, "expected some resample to miss row 5"
        assert all(f"bootstrap replicate {o.index}" in o.error and "rare" in o.error for o in failed)


class TestResult:
    def _outcomes(self):
        return [
            ReplicateOutcome(2, edges=[(0, 1)]),
            ReplicateOutcome(0, edges=[(0, 1), (2, 3)]),
            ReplicateOutcome(1, error="bootstrap replicate 1: column 'D' is constant"),
            ReplicateOutcome(3, edges=[(1, 0)]),
        ]

    def test_failures_kept_apart(self):
        res = BootstrapResult.build(NAMES, self._outcomes(), 4)
        assert res.replicates == 3 and [o.index for o in res.failures] == [1]
        assert res.edges[0] == EdgeStrength("A", "B", 1.0, pytest.approx(2 / 3))
        assert res.failure_summary().startswith("1 of 4 replicates failed: replicate 1: ")

    def test_json_layout(self):
        res = BootstrapResult.build(NAMES, self._outcomes(), 4, threshold=0.5, hidden=True)
        d = json.loads(json.dumps(res.to_dict()))
        assert list(d)[:6] == ["replicates", "requested", "threshold", "threshold_method", "edges", "averaged"]
        assert d["replicates"] == 3 and d["requested"] == 4 and d["threshold"] == 0.5
        assert d["threshold_method"] == "given"
        assert all(set(e) == {"parent", "child", "strength", "direction"} for e in d["edges"] + d["averaged"])
        assert d["averaged"] == [{"parent": "A", "child": "B", "strength": 1.0, "direction": pytest.approx(2 / 3)}]
        assert d["failed"] == [{"replicate": 1, "error": "bootstrap replicate 1: column 'D' is constant"}]
        assert d["hidden"] == [] and "Jaccard" in d["hidden_matching"]

    def test_estimated_threshold_stated(self):
        res = BootstrapResult.build(NAMES, self._outcomes(), 4)
        assert "inclusion.threshold" in res.threshold_method
        assert res.threshold == inclusion_threshold(
            pair_strengths(edge_counts(4, [[(0, 1)], [(0, 1), (2, 3)], [(1, 0)]]), 3)
        )

    def test_bad_threshold(self):
        with pytest.raises(ParameterError, match="threshold"):
            BootstrapResult.build(NAMES, self._outcomes(), 4, threshold=1.5)

    def test_frames(self):
        res = BootstrapResult.build(NAMES, self._outcomes(), 4, threshold=0.5)
        frame = res.edges_frame()
        assert list(frame.columns) == ["parent", "child", "strength", "direction", "averaged"]
        assert frame["averaged"].tolist() == [True, False]


def test_get_params_round_trips():
    est = IdealParentSearch(method="greedy", k=3, max_parents=2, random_state=4)
    params = est.get_params()
    assert params["method"] == "greedy" and params["k"] == 3 and params["random_state"] == 4
    assert IdealParentSearch(**params).get_params() == params
