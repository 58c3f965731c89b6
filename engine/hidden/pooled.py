"""A hidden variable that pools the weak effects of measured regulators (#22 item 5, session 17).

On genome tables with a regulator list and no hidden regulator (the ``null`` generators of
``benchmarks/bench_regulators_genome*.py``), ``--hidden auto`` keeps hidden variables H with two or
three listed regulators X as parents, whose children are mostly the targets of one hub among X
(18 of 20, 24 of 26, 27 of 31 in the generator's truth; docs/decisions/genome-null-pooled-activity.md).
Each target depends on the hub with a weight of its own (0.3-1.0 among 1-3 parents at 27
conditions): effects too weak for EBIC to keep edge by edge, which one shared parent H <- X,
``H = w'X + u``, collects at the price of one edge per child. The observed-data score rightly pays
for it (docs/decisions/genome-null-hidden-regulators.md: the likelihood is exact and H predicts
held-out conditions better), but what it found is the **pooled activity of listed regulators**
over targets they already regulate, not a new regulator: H adds little to each child. A
hidden regulator the table lacks adds much to each of its targets, which no listed regulator
explains: the same realized gain spread over fewer, tighter children.

The reading: for a kept H with at least :data:`MIN_PARENTS` observed parents (among the
candidates, a regulator list), its realized gain per child (the observed-data score against the
best network without H, JMLR 2007 section 6's score, divided by H's observed children) against
:data:`STRONG_PER_CHILD`, 3 nats: ``2 ln B >= 6``, "strong" evidence on Kass and Raftery's (1995)
scale for a Bayes factor B (the realized BIC/EBIC gain approximates ``ln B``). H is read as its
parents' pooled activity (``flagged``) when, averaged over its children, it does not bring strong
evidence per child, **or** when it is its parents' weighted sum: they explain
:data:`COMBINATION_R2` (0.95) of H's variance, H's own part under a twentieth. That share is the
report's ``parents_r2``, ``1 - sigma_H^2 / Var(H)`` (the noise variance of H's linear-Gaussian family
against H's variance implied by the network, JMLR 2007 section 6), the one R^2 shown everywhere (the
JSON's ``parents_r2`` and ``pooled.r2``, the CSV's ``parents_r2`` and ``pooled_of``, learn's stderr,
the Hidden page); with a hidden parent besides the listed ones it counts that parent too. The second
leg (session 18, ``h17m``/``h17m-null`` 1757: two hubs with 542 and 684 targets, H's 34-41 children
mostly targets of both, 3.5-4.9 nats a child, R^2 0.98) reads the hub Hs whose children respond
strongly enough to pass the first; whatever H regulates, in the data it does so as that weighted
sum of listed regulators (docs/decisions/genome-null-hub-targets.md; session 19 re-measured it on
``parents_r2`` in place of a least-squares R^2 of H's posterior profile: the same Hs named).
Reported with H's standardized weights on its parents (``weights``, X in SDs and H on unit variance)
for the line "H1 ~ -0.78 TF042 + 0.43 TF009 + 0.43 TF057 (R^2 0.93)".

A reading for a person, not a keep rule: the gain is real. An H without listed parents is not read
here: an on/off driver of a few conditions also brings little per child, and it is no listed
regulator's activity. With one parent, :mod:`.activity` reads H when its children keep that parent;
a one-parent H whose children do not is of the same kind as the pooled ones (two-null 308's second
and third Hs), but reading it was not part of the rule fixed before the test runs: measured as a
variant, not adopted (docs/decisions/genome-null-pooled-activity.md).

References
----------
.. [1] Elidan G., Nachman I., Friedman N. (2007). "Ideal Parent" structure learning for continuous
       variable Bayesian networks. JMLR 8, 1799-1833 (hidden variables, sections 5-6).
.. [2] Kass R. E., Raftery A. E. (1995). Bayes factors. JASA 90(430), 773-795 (section 3.2:
       2 ln B from 6 to 10 is "strong" evidence).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import asdict, dataclass

import numpy as np

__all__ = ["COMBINATION_R2", "MIN_PARENTS", "STRONG_PER_CHILD", "PooledActivity", "pooled_activity", "pooled_reason"]

#: H needs at least this many observed (listed) parents to be read as their pooled activity
MIN_PARENTS = 2
#: realized gain per child (nats) from which H brings strong evidence per child (2 ln B >= 6)
STRONG_PER_CHILD = 3.0
#: share of H's variance its parents explain (the report's ``parents_r2``) from which H is read as
#: their weighted sum
COMBINATION_R2 = 0.95


@dataclass(frozen=True)
class PooledActivity:
    """A hidden variable H with observed parents, read as their pooled activity (see the module
    docstring): the parents, strongest first, with H's standardized weights on them, the share of H's
    variance its parents explain (``r2``: the report's ``parents_r2``), H's realized gain per observed
    child, and whether H is read as the parents' pooled activity (``flagged``)."""

    regulators: list[str]
    weights: list[float]
    r2: float
    gain_per_child: float
    flagged: bool

    def to_dict(self) -> dict:
        return asdict(self)


def pooled_activity(
    coef: np.ndarray,
    values: np.ndarray,
    names: Sequence[str],
    n_observed: int,
    hidden: int,
    realized_gain: float,
    candidates: Sequence[int] | None = None,
    *,
    parents_r2: float,
) -> PooledActivity | None:
    """:class:`PooledActivity` of hidden variable ``hidden``, or None when it has no observed parent
    (among ``candidates``, default every observed variable) or no observed child.

    Parameters
    ----------
    coef : (N, N) ``coef[parent, child]`` of a linear-Gaussian network, observed variables first
    values : (M, N) observed values and the hidden variables' posterior means (H's profile)
    names : the N names
    n_observed : how many variables are observed
    hidden : H's index (>= ``n_observed``)
    realized_gain : H's realized observed-data score gain (nats; NaN: not flagged)
    candidates : indices of the observed variables that count as H's parents (a regulator list)
    parents_r2 : the share of H's variance its parents explain, ``1 - sigma_H^2 / Var(H)`` (the
        regulator report's, :func:`.report.regulator_report`)
    """
    coef = np.asarray(coef, dtype=float)
    values = np.asarray(values, dtype=float)
    ups = np.flatnonzero(coef[:n_observed, hidden])
    if candidates is not None:
        ups = np.intersect1d(ups, np.asarray(list(candidates), dtype=int))
    n_kids = int(np.count_nonzero(coef[hidden, :n_observed]))
    if ups.size == 0 or n_kids == 0:
        return None
    ups = ups[np.argsort(-np.abs(coef[ups, hidden] * values[:, ups].std(axis=0)), kind="stable")]
    x = values[:, ups]
    sd_h = float(values[:, hidden].std()) or 1.0
    weights = [float(v) for v in coef[ups, hidden] * x.std(axis=0) / sd_h]
    r2 = float(parents_r2)
    per_child = float(realized_gain) / n_kids
    weak = math.isfinite(per_child) and per_child < STRONG_PER_CHILD
    flagged = ups.size >= MIN_PARENTS and (weak or r2 >= COMBINATION_R2)
    return PooledActivity([str(names[i]) for i in ups], weights, r2, per_child, bool(flagged))


def pooled_reason(pool: dict) -> str:
    """Why a report's ``pooled`` reading is flagged, in words: ``"under 3 nats a child"`` or, for the
    second leg, ``"its listed parents explain 98% of its variance"`` (``parents_r2``)."""
    if math.isfinite(pool["gain_per_child"]) and pool["gain_per_child"] < STRONG_PER_CHILD:
        return f"under {STRONG_PER_CHILD:g} nats a child"
    return f"its listed parents explain {pool['r2']:.0%} of its variance"
