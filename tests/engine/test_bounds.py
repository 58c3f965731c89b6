"""Tests for engine.bounds: select_rows and the C1 <= C2 <= Delta summary of a candidate table."""

from __future__ import annotations

import math

import numpy as np
import pytest

from engine.bounds import bound_summary, select_rows
from engine.data import Dataset
from engine.learn import IdealParentSearch
from engine.search import CandidateTable, Move, Operator


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

    # issue 24: which gaps a plot can show. Rows: C1 well below C2 = exact; C1 = C2 < exact;
    # all three equal; a non-positive exact gain (a Replace that loses)
    g = bound_summary(table([1.0, 3.0, 4.0, -9.0], [2.0, 3.0, 4.0, -2.0], [2.0, 5.0, 4.0, -2.0], [0, 1, 2, 3]))
    assert (g.n_c1_gap, g.n_c2_exact, g.n_nonpositive, g.n_positive) == (2, 3, 1, 3)


class TestWhenC2IsExact:
    """Issue 24: C2 equals the exact gain of an Add move when the candidate is uncorrelated with the
    child's parents (Frisch-Waugh: Delta = -(M/2) log(1 - (y.z)^2 / ((y.y)(z_perp.z_perp)))), so at
    step 0 every Add point lies on y = x; a parent correlated with the candidate opens the gap."""

    def test_no_parents_c2_is_exact(self, dataset):
        st = IdealParentSearch(method="ideal", k=2).make_stepper(dataset)
        s = bound_summary(st.evaluate_all(select_rows(st.propose(), ["add"])))
        assert s.n > 0 and s.n_c2_exact == s.n

    def test_correlated_parent_puts_c2_below_exact(self):
        rng = np.random.default_rng(0)
        m = 400
        a = rng.normal(size=m)
        b = 0.8 * a + 0.6 * rng.normal(size=m)  # the candidate, correlated with the parent a
        x = a + b + rng.normal(size=m)
        values = np.column_stack([a, b, x])
        values = (values - values.mean(0)) / values.std(0)
        st = IdealParentSearch(method="greedy").make_stepper(
            Dataset(("a", "b", "x"), values, np.zeros(values.shape, bool))
        )
        st.apply(Move(Operator.ADD, 0, 2))
        table = select_rows(st.evaluate_all(st.propose()), ["add"])
        row = np.flatnonzero((table.parent == 1) & (table.child == 2))[0]
        assert table.c2[row] < table.delta_loglik[row] - 1.0
        assert bound_summary(select_rows(table, ["add"])).n_c2_exact < len(table)


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
