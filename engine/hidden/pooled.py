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
evidence per child. Reported with the decomposition of H's profile on its parents (``r2``: in the
regulator report its ``parents_r2``, the model's share of H's variance they explain, one number for
both; least squares when called alone; and ``weights``, X in SDs and H on unit variance) for the line
"H1 ~ -0.78 TF042 + 0.43 TF009 + 0.43 TF057 (R^2 0.95)".

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

__all__ = ["MIN_PARENTS", "STRONG_PER_CHILD", "PooledActivity", "pooled_activity"]

#: H needs at least this many observed (listed) parents to be read as their pooled activity
MIN_PARENTS = 2
#: realized gain per child (nats) from which H brings strong evidence per child (2 ln B >= 6)
STRONG_PER_CHILD = 3.0


@dataclass(frozen=True)
class PooledActivity:
    """A hidden variable H with observed parents, read as their pooled activity (see the module
    docstring): the parents, strongest first, with H's standardized weights on them, the R^2 of H's
    profile on them, H's realized gain per observed child, and whether H is read as the parents'
    pooled activity (``flagged``)."""

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
    r2: float | None = None,
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
    r2 : the R^2 of H on its parents when the caller has it: the regulator report passes its
        ``parents_r2`` (the model's ``1 - sigma_H^2 / Var(H)``), so that the report shows one R^2;
        None: the least-squares R^2 of H's profile on these parents
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
    x = values[:, ups] - values[:, ups].mean(axis=0)
    prof = values[:, hidden] - values[:, hidden].mean()
    if r2 is None:
        beta, *_ = np.linalg.lstsq(x, prof, rcond=None)
        res = prof - x @ beta
        r2 = float(1.0 - res @ res / (prof @ prof)) if prof @ prof > 0 else 0.0
    sd_h = float(prof.std()) or 1.0
    weights = [float(v) for v in coef[ups, hidden] * x.std(axis=0) / sd_h]
    per_child = float(realized_gain) / n_kids
    flagged = ups.size >= MIN_PARENTS and math.isfinite(per_child) and per_child < STRONG_PER_CHILD
    return PooledActivity([str(names[i]) for i in ups], weights, float(r2), per_child, bool(flagged))
