"""Why an accepted hidden variable pays or not: its realized observed-data score change split into
the log-likelihood it adds and the penalty the score in force charges for it (#22).

The realized change of Accept is ``S(after) - S(before)``, both observed-data scores of the same
kind (:meth:`~.em.StructuralEM.observed_bic`: the exact marginal log-likelihood, hidden and missing
cells integrated out, minus the sum of the families' penalties), ``before`` being the network
without H searched to convergence. So

    realized = (loglik_after - loglik_before) - (penalty_after - penalty_before)

exactly. BIC charges ``log(M) / 2`` nats per free parameter; EBIC adds ``gamma * log C(p, k)`` per
family of ``k`` parents among ``p`` candidates (:mod:`engine.score`), which on few conditions and
many candidates is most of the penalty. :class:`PayBreakdown` also gives the same two networks'
change under BIC, and the number of conditions from which a variable of the same effect per condition
would pay (an extrapolation at the same effect size, said as such where it is shown). The maximized
log-likelihood gain of ``k`` more free parameters is, in expectation, ``k / 2`` nats of chance fit
(Wilks: twice the gain is about chi-square with ``k`` degrees of freedom, non-central when there is an
effect) plus ``M`` times the effect per condition; so the gain at ``M'`` conditions is extrapolated as
``k / 2 + (gain - k / 2) * M' / M``, the BIC part of the penalty grows as ``log(M') / 2`` per
parameter, EBIC's part not at all. A gain of at most ``k / 2`` is what chance alone gives: no
extrapolation then.

Not checked: the two models must be on the same data (the caller's baseline and the accepted model).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .em import StructuralEM
from .marginal import observed_penalty
from .trial import carry_posteriors

__all__ = ["PayBreakdown", "baseline_model", "pay_breakdown", "score_parts"]

#: the largest number of conditions :func:`pay_breakdown` extrapolates to (times the data's M)
MAX_CONDITIONS_FACTOR = 100


@dataclass(frozen=True)
class PayBreakdown:
    """An accepted hidden variable's realized score change, split (see the module docstring)."""

    #: the score in force, "bic" or "ebic"
    score: str
    #: conditions (instances) of the data
    n_samples: int
    #: observed-data score after minus before (nats)
    realized_gain: float
    #: observed-data log-likelihood after minus before (nats)
    loglik_gain: float
    #: penalty after minus before, by the score in force (nats)
    penalty: float
    #: penalty after minus before, by BIC (``log(M) / 2`` per free parameter)
    bic_penalty: float
    #: free parameters after minus before
    n_params: int
    #: the fewest conditions from which the same effect per condition outweighs the penalty (module
    #: docstring; None: the gain is no more than the ``n_params / 2`` nats of chance fit, or the
    #: conditions needed are beyond ``MAX_CONDITIONS_FACTOR * M``)
    conditions_to_pay: int | None

    @property
    def pays(self) -> bool:
        """True when the realized change is positive (the score in force prefers the network with H)."""
        return self.realized_gain > 0

    @property
    def bic_gain(self) -> float:
        """The same two networks' score change under BIC."""
        return self.loglik_gain - self.bic_penalty


def score_parts(em: StructuralEM) -> tuple[float, float, int]:
    """``(observed log-likelihood, penalty by the score in force, free parameters)`` of ``em``'s
    network; the first minus the second is :meth:`~.em.StructuralEM.observed_bic`."""
    parents = em.parents()
    return em.observed_loglik(), observed_penalty(em.scorer, parents), int(sum(len(p) + 2 for p in parents))


def baseline_model(search) -> StructuralEM:
    """The network of a :class:`~.search.HiddenSearch` without a new variable, searched to
    convergence by structural EM on a new model (the search's own model is left as it is); its
    observed-data score is :meth:`~.search.HiddenSearch.baseline_score`."""
    em = search._structural_em(
        hidden={h.name: (search.hidden_profile(h.name), []) for h in search.hidden}, initial_edges=search.edges()
    )
    carry_posteriors(em, search.em, [h.name for h in search.hidden])
    em.run()
    return em


def pay_breakdown(
    before: StructuralEM, after: StructuralEM, before_parts: tuple[float, float, int] | None = None
) -> PayBreakdown:
    """:class:`PayBreakdown` of ``after`` (the model with the new hidden variable) against ``before``
    (the network without it; ``before_parts``: its :func:`score_parts` when already computed)."""
    ll_b, pen_b, k_b = before_parts if before_parts is not None else score_parts(before)
    ll_a, pen_a, k_a = score_parts(after)
    m = int(after.n_samples)
    gain, penalty, k = ll_a - ll_b, pen_a - pen_b, k_a - k_b
    per_param = 0.5 * math.log(m)
    return PayBreakdown(
        score=after.score_choice.name,
        n_samples=m,
        realized_gain=gain - penalty,
        loglik_gain=gain,
        penalty=penalty,
        bic_penalty=per_param * k,
        n_params=k,
        conditions_to_pay=_conditions_to_pay(gain, penalty, k, m),
    )


def _conditions_to_pay(gain: float, penalty: float, k: int, m: int) -> int | None:
    """The fewest M' >= M with ``k / 2 + (gain - k / 2) * M' / M > log(M') / 2 * k + (penalty -
    log(M) / 2 * k)`` (the module docstring), or None (see :attr:`PayBreakdown.conditions_to_pay`)."""
    chance = 0.5 * max(k, 0)  # the expected chance fit of k more parameters (nats)
    if gain <= chance:
        return None
    fixed = penalty - 0.5 * math.log(m) * k  # EBIC's part: does not grow with M
    ms = np.arange(1, MAX_CONDITIONS_FACTOR * m + 1)
    ok = chance + (gain - chance) * ms / m > 0.5 * np.log(ms) * k + fixed
    ok[: m - 1] = False  # from the data's own M on
    hit = np.flatnonzero(ok)
    return int(ms[hit[0]]) if hit.size else None
