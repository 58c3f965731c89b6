"""The decomposable network scores: BIC (JMLR 2007 eq. 1) and the extended BIC for wide data.

``BIC(D, G) = sum_families [ l_X(D : U, theta_hat) - (log M / 2) Dim(X | U) ]``

The extended BIC (Chen & Chen 2008; for Gaussian graphs Foygel & Drton 2010) adds, for a family of
``k`` parents chosen among ``p`` candidate parents, ``gamma * log C(p, k)`` nats to the penalty
(``2 gamma log C(p, k)`` on the ``-2 loglik`` scale of the papers). With many candidates and few
rows, the best of a hundred random candidates beats BIC's ``(log M) / 2`` by chance for almost every
child; EBIC's extra term pays for that choice and keeps the score consistent when ``p >> M``.

Both scores decompose over families, so a move changes only the families it touches, and the change
of one family is its log-likelihood change minus the change in penalty. Log-likelihoods are in
nats. This module knows nothing about search operators; :func:`choose_score` picks the score for a
data shape (``score="auto"``) and says why.

References
----------
.. [1] Schwarz. Estimating the dimension of a model. Annals of Statistics 6:461-464, 1978.
.. [2] Chen, Chen. Extended Bayesian information criteria for model selection with large model
   spaces. Biometrika 95:759-771, 2008.
.. [3] Foygel, Drton. Extended Bayesian information criteria for Gaussian graphical models.
   NIPS 2010.
"""

from __future__ import annotations

import dataclasses
import math
import warnings
from dataclasses import dataclass
from functools import lru_cache
from typing import ClassVar

import numpy as np
from scipy.special import betainc, gammaln

from .cpd.base import FamilyFit
from .exceptions import DataValidationError

__all__ = [
    "BIC",
    "EBIC",
    "SCORES",
    "EBIC_GAMMA",
    "TALL_RATIO",
    "WIDE_PARENT_RATIO",
    "ScoreChoice",
    "choose_score",
    "false_parent_rate",
    "check_enough_rows",
    "MAX_FALSE_PARENTS",
    "family_bic",
    "AddPenalties",
    "make_score",
]

#: score names of ``--score`` (``auto`` picks one by the data's shape: :func:`choose_score`)
SCORES = ("auto", "bic", "ebic")
#: EBIC's gamma by default: 1, the value that keeps EBIC consistent for any p = O(M^kappa)
#: (Chen & Chen 2008); 0.5 over-fits few rows (benchmarks/RESULTS.md, "Scores for wide data")
EBIC_GAMMA = 1.0
#: data count as tall (the paper's BIC) when they have at least this many rows per variable
TALL_RATIO = 2.0
#: under EBIC a family gets at most ``WIDE_PARENT_RATIO * M`` parents (and never more than M - 3)
WIDE_PARENT_RATIO = 0.25


@dataclass(frozen=True)
class BIC:
    """The BIC of a data set of ``n_samples`` instances: ``loglik - (log M / 2) * Dim``."""

    n_samples: int
    name: ClassVar[str] = "bic"

    @property
    def per_param(self) -> float:
        """Penalty per free parameter: ``log(M) / 2``."""
        return 0.5 * math.log(self.n_samples)

    def penalty(self, n_params: int, n_parents: int) -> float:
        """Penalty (nats) of a family with ``n_params`` free parameters and ``n_parents`` parents."""
        return self.per_param * n_params

    def family(self, fit: FamilyFit) -> float:
        """Score term of one fitted family: ``loglik - penalty``; the penalty uses the family's own
        row count when it is scored on fewer rows (``fit.n_rows``, interventional data)."""
        scorer = self if fit.n_rows is None else self.for_rows(fit.n_rows)
        return fit.loglik - scorer.penalty(fit.n_params, len(fit.parents))

    def for_rows(self, n_rows: int) -> BIC:
        """The same score for a family scored on ``n_rows`` rows (its ``log(M) / 2`` per parameter:
        under interventions each family's likelihood covers only the rows where the experiment did
        not set its child, so its penalty uses that count)."""
        return self if int(n_rows) == self.n_samples else dataclasses.replace(self, n_samples=int(n_rows))

    def delta(self, delta_loglik, delta_params: int):
        """BIC change of a move from its log-likelihood change and parameter-count change."""
        return delta_loglik - self.per_param * delta_params

    def add_penalties(self, n_params, n_max: int) -> np.ndarray:
        """``out[k]``: penalty increase of a family with ``k`` parents gaining one (k = 0..n_max).

        ``n_params(k)`` is the CPD's parameter count (its BIC dimension) for ``k`` parents."""
        pens = [self.penalty(n_params(k), k) for k in range(n_max + 2)]
        return np.diff(np.asarray(pens, dtype=float))

    def parent_cap(self) -> int:
        """Most parents any family may have: ``M - 3`` (two residual degrees of freedom beyond the
        intercept, or the ML variance collapses to 0 and the likelihood to +inf)."""
        return max(self.n_samples - 3, 0)

    def cap_reason(self) -> str:
        """Where :meth:`parent_cap` comes from, for messages."""
        return f"the score's automatic cap M - 3 at M = {self.n_samples}"

    def describe(self) -> dict:
        """The score's name and parameters, as stored in the result JSON."""
        return {"name": self.name}


@lru_cache(maxsize=65536)
def _log_binom(p: int, k: int) -> float:
    """log C(p, k) (EBIC's term; kept per (p, k): the search asks for the same few millions of times)."""
    return float(gammaln(p + 1) - gammaln(k + 1) - gammaln(p - k + 1))


@dataclass(frozen=True)
class EBIC(BIC):
    """The extended BIC: BIC plus ``gamma * log C(p, k)`` for ``k`` parents among ``p`` candidates.

    Parameters
    ----------
    n_samples : int
    n_candidates : int
        ``p``, the number of variables that may be a family's parent (N - 1, or the number of
        candidate regulators).
    gamma : float in [0, 1]
        0 gives BIC; 1 (the default) is Chen & Chen's always-consistent choice.

    Notes
    -----
    A family that can interpolate its child has an unbounded likelihood, whatever the penalty; so
    EBIC also caps the parents at ``WIDE_PARENT_RATIO * M`` (:meth:`parent_cap`), keeping at least
    three residual degrees of freedom per parent.
    """

    n_candidates: int = 1
    gamma: float = EBIC_GAMMA
    name: ClassVar[str] = "ebic"

    def penalty(self, n_params: int, n_parents: int) -> float:
        p, k = max(int(self.n_candidates), 0), int(n_parents)
        if k > p:  # more parents than candidates (e.g. required edges outside a regulator list)
            k = p
        return self.per_param * n_params + self.gamma * _log_binom(p, k)

    def parent_cap(self) -> int:
        return min(super().parent_cap(), int(WIDE_PARENT_RATIO * self.n_samples))

    def cap_reason(self) -> str:
        if int(WIDE_PARENT_RATIO * self.n_samples) >= super().parent_cap():
            return super().cap_reason()
        return f"EBIC's automatic cap {WIDE_PARENT_RATIO:g} M at M = {self.n_samples}, not a user setting"

    def describe(self) -> dict:
        return {"name": self.name, "gamma": self.gamma, "n_candidates": int(self.n_candidates)}


#: refuse to search when a family would get more chance parents than this, in expectation
MAX_FALSE_PARENTS = 1.0


def false_parent_rate(score: BIC, n_params) -> float:
    """Probability that a candidate independent of the child still passes the score as its first
    parent (linear-Gaussian families).

    Adding one parent to an empty family gains ``-(M/2) log(1 - r^2)`` nats, where ``r^2`` is the
    squared sample correlation; for an independent candidate ``r^2 ~ Beta(1/2, (M-2)/2)``. The
    move passes when the gain beats the penalty increase ``d``, i.e. when
    ``r^2 > 1 - exp(-2 d / M)``. Times the number of candidates this is the expected number of
    chance parents per variable: with few rows and many candidates it exceeds 1 and every
    variable gets spurious parents, whatever the data say.
    """
    m = int(score.n_samples)
    if m <= 2:
        return 1.0
    d = float(score.add_penalties(n_params, 0)[0])
    r2_min = -math.expm1(-2.0 * d / m)
    return float(1.0 - betainc(0.5, 0.5 * (m - 2), r2_min))


def check_enough_rows(choice: ScoreChoice, dataset, n_params) -> None:
    """Refuse data too short for the chosen score to tell a parent from chance.

    Under EBIC, when more than :data:`MAX_FALSE_PARENTS` candidate per variable would pass as a
    first parent with no relation to it (:func:`false_parent_rate` times the candidates), raise
    :class:`~engine.exceptions.DataValidationError` naming the ways out; under BIC (the user's
    choice, or tall data) the same figure is a ``UserWarning``. ``n_params(k)`` is the CPD's
    parameter count."""
    n_cand = choice.score.n_candidates if choice.name == "ebic" else dataset.n_vars - 1
    expected = false_parent_rate(choice.score, n_params) * n_cand
    if expected <= MAX_FALSE_PARENTS:
        return
    what = (
        f"{dataset.n_samples} instances are too few to choose parents among {n_cand:,} candidates: "
        f"under {choice.name.upper()} about {expected:,.1f} candidates per variable would pass as a "
        "parent by chance alone"
    )
    if choice.name == "bic":
        warnings.warn(f"{what}; the extended BIC (score='ebic') guards against that.", UserWarning, stacklevel=4)
        return
    raise DataValidationError(
        f"{dataset.source or 'data'}: {what}. Use more instances, restrict the parents to candidate "
        "regulators (--regulators), or check the orientation: if rows are variables, transpose."
    )


@dataclass(frozen=True)
class ScoreChoice:
    """The score a search uses and why (printed on stderr by the CLI, stored in the JSON)."""

    score: BIC
    reason: str

    @property
    def name(self) -> str:
        return self.score.name

    def describe(self) -> dict:
        return {**self.score.describe(), "reason": self.reason}


def choose_score(
    name: str,
    n_samples: int,
    n_vars: int,
    *,
    n_candidates: int | None = None,
    gamma: float = EBIC_GAMMA,
    n_parent_only: int = 0,
) -> ScoreChoice:
    """The score for ``name`` (``"bic"``, ``"ebic"`` or ``"auto"``) on data of this shape.

    ``auto`` is the paper's BIC when the data are tall (at least :data:`TALL_RATIO` rows per
    variable) and no candidate-parent list is given, and EBIC otherwise: with as many candidates as
    rows, plain BIC gives almost every variable spurious parents and, without a cap, families that
    interpolate their child (see ``benchmarks/RESULTS.md``, "Scores for wide data").
    ``n_candidates`` is the number of possible parents of a family (default ``n_vars - 1``).
    ``n_parent_only`` of the variables are sample covariates (:mod:`engine.parent_only`): the shape
    rule counts the other ``n_vars - n_parent_only`` only, since annotations are not genes
    (docs/decisions/score-auto.md); EBIC, when chosen, still counts them among the candidates.
    """
    p = n_vars - 1 if n_candidates is None else int(n_candidates)
    regulators = n_candidates is not None
    if name == "auto":
        n_genes = n_vars - int(n_parent_only)
        aside = (
            f"; {n_parent_only} parent-only variable{'s' * (n_parent_only != 1)} not counted" if n_parent_only else ""
        )
        if n_samples >= TALL_RATIO * n_genes and not regulators:
            name, why = "bic", f"tall data ({n_samples} rows, {n_genes} variables{aside})"
        elif regulators:
            name, why = "ebic", f"a candidate-parent list ({p} candidates for {n_samples} rows)"
        else:
            name, why = "ebic", f"wide data ({n_samples} rows for {n_genes} variables{aside})"
        reason = f"chosen automatically: {why}"
    else:
        reason = "chosen by the user"
    return ScoreChoice(make_score(name, n_samples, n_candidates=p, gamma=gamma), reason)


def make_score(name: str, n_samples: int, *, n_candidates: int = 1, gamma: float = EBIC_GAMMA) -> BIC:
    """The score object of a concrete score name (``"bic"`` or ``"ebic"``)."""
    if name == "bic":
        return BIC(n_samples)
    if name == "ebic":
        return EBIC(n_samples, n_candidates=n_candidates, gamma=gamma)
    raise ValueError(f"unknown score {name!r}; expected 'bic' or 'ebic'.")


class AddPenalties:
    """The penalty increase of a family gaining a parent, shared or per family.

    ``add(k, child)``: penalty increase of ``child``'s family with ``k`` parents gaining one
    (:meth:`BIC.add_penalties`). When families are scored on different numbers of rows
    (``family_rows``: interventional data), each uses its own count; otherwise one table serves all.
    """

    def __init__(self, score: BIC, n_params, n_max: int, family_rows=None) -> None:
        #: shared[k]: the penalty increase at the data's row count, k = 0..n_max
        self.shared = score.add_penalties(n_params, n_max)
        self._table: np.ndarray | None = None
        if family_rows is not None:
            uniq, row_of = np.unique(np.asarray(family_rows, dtype=np.int64), return_inverse=True)
            self._table = np.stack([score.for_rows(int(m)).add_penalties(n_params, n_max) for m in uniq])
            self._row_of = row_of.ravel()

    def add(self, k: int, child: int | None = None) -> float:
        """Penalty increase of ``child``'s family with ``k`` parents gaining one."""
        if self._table is None or child is None:
            return float(self.shared[k])
        return float(self._table[self._row_of[child], k])

    def reverse(self, n_par: np.ndarray, us: np.ndarray, cs: np.ndarray) -> np.ndarray:
        """Penalty change of reversing each edge u -> c: c loses a parent, u gains one."""
        if self._table is None:
            return self.shared[n_par[us]] - self.shared[n_par[cs] - 1]
        tab, row_of = self._table, self._row_of
        return tab[row_of[us], n_par[us]] - tab[row_of[cs], n_par[cs] - 1]


def family_bic(fit: FamilyFit, n_samples: int) -> float:
    """BIC term of one fitted family."""
    return BIC(n_samples).family(fit)
