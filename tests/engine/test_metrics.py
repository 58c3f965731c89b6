"""Tests of engine.metrics.compare_edges on hand-built graphs with exact expected counts."""

from __future__ import annotations

import math

import pytest

from engine.exceptions import ParameterError
from engine.metrics import EDGE_STATUSES, EdgeComparison, compare_edges


class TestCompareEdges:
    def test_identical_graphs(self):
        true = [("A", "B"), ("B", "C"), ("A", "C")]
        cmp = compare_edges(list(reversed(true)), true)
        assert cmp.tp == 3 and cmp.fp == 0 and cmp.fn == 0
        assert cmp.precision == cmp.recall == cmp.f1 == 1.0
        assert cmp.skeleton_precision == cmp.skeleton_recall == cmp.skeleton_f1 == 1.0
        assert cmp.shd == 0
        assert cmp.reversed == cmp.extra == cmp.missing == []

    def test_hand_example_every_status(self):
        # truth: A->B, B->C, C->D ; learned: A->B (correct), C->B (reversed), A->D (extra);
        # C->D is missing.
        true = [("A", "B"), ("B", "C"), ("C", "D")]
        learned = [("A", "B"), ("C", "B"), ("A", "D")]
        cmp = compare_edges(learned, true)
        assert cmp.correct == [("A", "B")]
        assert cmp.reversed == [("C", "B")]
        assert cmp.extra == [("A", "D")]
        assert cmp.missing == [("C", "D")]
        assert (cmp.tp, cmp.fp, cmp.fn) == (1, 2, 2)
        assert cmp.precision == pytest.approx(1 / 3)
        assert cmp.recall == pytest.approx(1 / 3)
        assert cmp.f1 == pytest.approx(1 / 3)
        assert (cmp.skeleton_tp, cmp.skeleton_fp, cmp.skeleton_fn) == (2, 1, 1)
        assert cmp.skeleton_precision == pytest.approx(2 / 3)
        assert cmp.skeleton_recall == pytest.approx(2 / 3)
        assert cmp.skeleton_f1 == pytest.approx(2 / 3)
        # SHD: one missing + one extra + one reversal (counts 1, not 2)
        assert cmp.shd == 3
        assert (cmp.n_learned, cmp.n_true) == (3, 3)

    def test_reversal_counts_once_in_shd(self):
        cmp = compare_edges([("B", "A")], [("A", "B")])
        assert cmp.shd == 1
        assert cmp.tp == 0 and cmp.fp == 1 and cmp.fn == 1
        assert cmp.skeleton_tp == 1 and cmp.skeleton_f1 == 1.0

    def test_empty_learned_graph(self):
        cmp = compare_edges([], [(0, 1), (1, 2)])
        assert cmp.precision == 0.0  # zero_division default
        assert cmp.recall == 0.0 and cmp.f1 == 0.0
        assert cmp.shd == 2
        assert cmp.missing == [(0, 1), (1, 2)]

    def test_zero_division_value(self):
        cmp = compare_edges([], [], zero_division=1.0)
        assert cmp.precision == cmp.recall == 1.0
        assert cmp.shd == 0
        cmp = compare_edges([], [], zero_division=math.nan)
        assert math.isnan(cmp.precision)

    def test_empty_truth(self):
        cmp = compare_edges([(0, 1)], [])
        assert cmp.extra == [(0, 1)]
        assert cmp.precision == 0.0 and cmp.shd == 1

    def test_both_directions_learned(self):
        cmp = compare_edges([("A", "B"), ("B", "A")], [("A", "B")])
        assert cmp.correct == [("A", "B")]
        assert cmp.extra == [("B", "A")]
        assert cmp.reversed == []
        assert cmp.shd == 1

    def test_duplicates_merged(self):
        cmp = compare_edges([("A", "B"), ("A", "B")], [("A", "B")])
        assert cmp.n_learned == 1 and cmp.tp == 1 and cmp.fp == 0

    def test_integer_and_odd_labels(self):
        # labels are data, never code (names like "YR.GLASS", "1B", "a b", 0)
        true = [("YR.GLASS", "1B"), ("a b", "1B")]
        cmp = compare_edges([("1B", "YR.GLASS"), ("a b", "1B")], true)
        assert cmp.reversed == [("1B", "YR.GLASS")]
        assert cmp.correct == [("a b", "1B")]

    def test_status_mapping_and_dict(self):
        true = [("A", "B"), ("B", "C"), ("C", "D")]
        cmp = compare_edges([("A", "B"), ("C", "B"), ("A", "D")], true)
        status = cmp.status()
        assert status == {
            ("A", "B"): "correct",
            ("C", "B"): "reversed",
            ("A", "D"): "extra",
            ("C", "D"): "missing",
        }
        d = cmp.to_dict()
        assert d["shd"] == 3 and d["missing"] == [["C", "D"]]
        assert set(EDGE_STATUSES) <= set(d)

    def test_result_type(self):
        assert isinstance(compare_edges([], []), EdgeComparison)

    def test_rejects_self_loop(self):
        with pytest.raises(ParameterError, match="self-loop"):
            compare_edges([("A", "A")], [])

    def test_rejects_non_pairs(self):
        with pytest.raises(ParameterError, match="pairs"):
            compare_edges(["ABC"], [])
