"""Tests for engine.bounds: select_rows and the C1 <= C2 <= Delta summary of a candidate table."""

from __future__ import annotations

import math

import numpy as np
import pytest

from engine.bounds import bound_summary, select_rows
from engine.search import CandidateTable, Operator


# -------------------------------------------------------------------- bound_summary
def test_bound_summary_linear_is_all_below(stepper):
    table = stepper.evaluate_all(stepper.propose())
    s = bound_summary(table)
    assert s.n > 20 and s.n_add > 0
    assert s.frac_c1_below == 1.0
    assert s.frac_c2_below == 1.0
    assert s.frac_c1_le_c2 == 1.0
    assert s.max_excess_c2 <= 1e-9
    assert 0.5 < s.spearman_c2 <= 1.0
    assert 0.0 <= s.top_agreement <= 1.0 and s.n_families > 0
    # Delete/Reverse rows (no estimates) are ignored
    est = np.isfinite(table.c1) & np.isfinite(table.c2) & np.isfinite(table.delta_loglik)
    assert s.n == int(est.sum())


def test_bound_summary_counts_violations_and_agreement():
    def table(c1, c2, ex, child):
        n = len(c1)
        return CandidateTable(
            op=np.zeros(n, dtype=np.int8),
            parent=np.arange(n),
            child=np.asarray(child),
            removed=np.full(n, -1),
            c1=np.asarray(c1, float),
            c2=np.asarray(c2, float),
            delta_loglik=np.asarray(ex, float),
            delta_bic=np.asarray(ex, float) - 1,
            rank=np.zeros(n, dtype=int),
            selected=np.ones(n, dtype=bool),
        )

    s = bound_summary(table([1, 2, 5, 0.5], [1.5, 3, 6, 0.4], [2, 2.5, 5.5, np.nan], [0, 0, 1, 1]))
    assert s.n == 3
    assert s.frac_c1_below == 1.0
    assert s.frac_c2_below == pytest.approx(1 / 3)
    assert s.max_excess_c2 == pytest.approx(0.5)
    # family 0 has 2 rows: best C2 is row 1 (3.0) but best exact is row 1 (2.5) -> agree
    assert s.n_families == 1 and s.top_agreement == 1.0
    empty = bound_summary(table([np.nan], [np.nan], [1.0], [0]))
    assert empty.n == 0 and math.isnan(empty.spearman_c2)


def test_select_rows(stepper):
    table = stepper.propose()
    add = select_rows(table, ["add"])
    assert len(add) == int((table.op == Operator.ADD).sum()) and np.all(add.op == Operator.ADD)
    both = select_rows(table, [Operator.ADD, "Replace"])
    assert len(both) == int(np.isin(table.op, [Operator.ADD, Operator.REPLACE]).sum())
    both.delta_loglik[:] = 123.0
    assert not np.any(table.delta_loglik == 123.0)


def test_rank_correlation_ties_values_equal_but_for_rounding():
    """C1 of X -> Y and Y -> X is the same number in exact arithmetic; a last-bit difference must
    not make the C1 rank correlation 0.999 where C2's, with exactly equal values, is 1."""
    from engine.bounds import _spearman

    exact = np.array([1.0, 2.0, 3.0, 3.0, 5.0])
    ulp = np.array([1.0, 2.0, 3.0, np.nextafter(3.0, 4.0), 5.0])
    assert _spearman(ulp, exact) == pytest.approx(1.0, abs=1e-15)
    assert _spearman(exact + np.array([0, 0, 0, 1e-6, 0]), exact) < 1.0  # a real difference still counts
