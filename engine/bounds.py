"""Bound checks of the Bounds page: how the estimates C1 and C2 compare with the exact gain.

* :func:`select_rows` -- the rows of a :class:`engine.search.CandidateTable` with chosen operators.
* :func:`bound_summary` / :class:`BoundSummary` -- how well ``C1 <= C2 <= Delta`` (JMLR 2007
  section 3.2, Theorems 3.2 and 3.4) holds on a candidate table, and how well C1 and C2 order the
  candidates (rank correlation with the exact gain, agreement on each family's best candidate).

References
----------
.. [1] G. Elidan, I. Nachman, N. Friedman. "Ideal Parent" Structure Learning for Continuous
   Variable Bayesian Networks. JMLR 8:1799-1833, 2007.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, fields

import numpy as np
from scipy import stats

from .search import CandidateTable, Operator

__all__ = ["BoundSummary", "bound_summary", "select_rows", "GAP_RTOL", "EXACT_RTOL"]


@dataclass
class BoundSummary:
    """How the estimates C1, C2 compare with the exact gain on a set of candidate moves.

    For linear Gaussian CPDs ``C1 <= C2 <= Delta`` (JMLR section 3.2), so ``frac_c1_below``,
    ``frac_c2_below`` and ``frac_c1_le_c2`` are 1. ``spearman_*`` are rank correlations with the
    exact gain (how well the estimate orders candidates); ``top_agreement`` is the fraction of
    families (with at least two candidates) whose best candidate by C2 is also the best exactly.
    ``max_excess_c2`` is the largest ``C2 - Delta`` (<= 0 when C2 is a bound everywhere).

    ``n_c1_gap`` counts the candidates whose C1 lies visibly below C2 (by more than
    :data:`GAP_RTOL` of C2), ``n_c2_exact`` those whose C2 equals the exact gain (within
    :data:`EXACT_RTOL`). Both are common and say which of the bound's two gaps a plot can show:
    C1 = (M/2) cos^2 phi and C2 = -(M/2) log sin^2 phi agree to first order in cos^2 phi, so
    only candidates that explain much of the ideal profile separate them; and for a linear
    Gaussian Add move C2 *is* the exact gain when the candidate is uncorrelated with the child's
    current parents (always so for a child without parents, the candidates being centred):
    Delta = -(M/2) log(1 - (y.z)^2 / ((y.y)(z_perp.z_perp))), z_perp the candidate's residual
    on the parents (Frisch-Waugh-Lovell; see ``ideal-parent-math.md`` section 1.3).
    """

    n: int
    frac_c1_below: float
    frac_c2_below: float
    frac_c1_le_c2: float
    spearman_c1: float
    spearman_c2: float
    n_families: int
    top_agreement: float
    max_excess_c1: float
    max_excess_c2: float
    n_add: int = 0
    n_replace: int = 0
    n_c1_gap: int = 0
    n_c2_exact: int = 0
    n_nonpositive: int = 0

    @property
    def n_positive(self) -> int:
        """Candidates whose C1, C2 and exact gain are all > 0: the points log axes can draw."""
        return self.n - self.n_nonpositive


def select_rows(table: CandidateTable, ops: Sequence[Operator | int | str]) -> CandidateTable:
    """The rows of ``table`` whose operator is one of ``ops`` (Operator, its value or its name).

    Returns a new table (copies), so filling exact gains in one does not touch the other."""
    wanted = {int(Operator[o.upper()]) if isinstance(o, str) else int(o) for o in ops}
    mask = np.isin(np.asarray(table.op, dtype=int), sorted(wanted))
    return CandidateTable(**{f.name: np.array(getattr(table, f.name)[mask]) for f in fields(CandidateTable)})


#: C1 counts as visibly below C2 when C2 - C1 exceeds this share of max(1, |C2|)
GAP_RTOL = 0.01
#: C2 counts as equal to the exact gain when |Delta - C2| is within this share of max(1, |Delta|)
EXACT_RTOL = 1e-3

#: values closer than this (relative to the largest) rank as ties in the rank correlations
RANK_RTOL = 1e-12


def _rounded(a: np.ndarray) -> np.ndarray:
    """``a`` rounded to :data:`RANK_RTOL` of its largest magnitude, so that values equal in exact
    arithmetic (e.g. C1 of X -> Y and Y -> X with no other parents) tie instead of being ordered
    by their last bits."""
    top = float(np.max(np.abs(a))) if a.size else 0.0
    if top == 0.0:
        return a
    step = top * RANK_RTOL
    return np.round(a / step) * step


def _spearman(a: np.ndarray, b: np.ndarray) -> float:
    a, b = _rounded(a), _rounded(b)
    if a.size < 2 or np.ptp(a) == 0 or np.ptp(b) == 0:
        return float("nan")
    return float(stats.spearmanr(a, b).statistic)


def bound_summary(table: CandidateTable, tol: float = 1e-9) -> BoundSummary:
    """Summarize C1/C2 against the exact log-likelihood change over a candidate table.

    Only rows with a finite exact ``delta_loglik`` and finite C1 and C2 count (Add and Replace
    rows; Delete and Reverse have no estimate). A value counts as "below" when
    ``c <= exact + tol * max(1, |exact|)``.

    Notes
    -----
    The inequality checked is ``C1 <= C2 <= Delta`` (JMLR 2007 section 3.2, Theorems 3.2 and 3.4).
    Rank correlations use :func:`scipy.stats.spearmanr`.
    """
    c1 = np.asarray(table.c1, dtype=float)
    c2 = np.asarray(table.c2, dtype=float)
    ex = np.asarray(table.delta_loglik, dtype=float)
    ok = np.isfinite(c1) & np.isfinite(c2) & np.isfinite(ex)
    c1, c2, ex = c1[ok], c2[ok], ex[ok]
    child = np.asarray(table.child)[ok]
    ops = np.asarray(table.op)[ok]
    n = int(ok.sum())
    nan = float("nan")
    if n == 0:
        return BoundSummary(0, nan, nan, nan, nan, nan, 0, nan, nan, nan)
    slack = tol * np.maximum(1.0, np.abs(ex))
    c1_scale = tol * np.maximum(1.0, np.abs(c2))
    agree, n_fam = 0, 0
    for c in np.unique(child):
        rows = np.flatnonzero(child == c)
        if rows.size < 2:
            continue
        n_fam += 1
        best_c2 = rows[np.argmax(c2[rows])]
        top = ex[rows].max()
        agree += bool(ex[best_c2] >= top - tol * max(1.0, abs(top)))
    return BoundSummary(
        n=n,
        frac_c1_below=float(np.mean(c1 <= ex + slack)),
        frac_c2_below=float(np.mean(c2 <= ex + slack)),
        frac_c1_le_c2=float(np.mean(c1 <= c2 + c1_scale)),
        spearman_c1=_spearman(c1, ex),
        spearman_c2=_spearman(c2, ex),
        n_families=n_fam,
        top_agreement=float(agree / n_fam) if n_fam else nan,
        max_excess_c1=float(np.max(c1 - ex)),
        max_excess_c2=float(np.max(c2 - ex)),
        n_add=int((ops == Operator.ADD).sum()),
        n_replace=int((ops == Operator.REPLACE).sum()),
        n_c1_gap=int(np.sum(c2 - c1 > GAP_RTOL * np.maximum(1.0, np.abs(c2)))),
        n_c2_exact=int(np.sum(np.abs(ex - c2) <= EXACT_RTOL * np.maximum(1.0, np.abs(ex)))),
        n_nonpositive=int(np.sum((c1 <= 0) | (c2 <= 0) | (ex <= 0))),
    )
