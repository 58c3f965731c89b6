"""The strength of every edge of one learned network: the score lost when that edge alone goes.

bnlearn's ``arc.strength(criterion = "bic")`` [1]_ measures an arc by the change of the network score
when the arc is removed and nothing else changes. The score decomposes over families, so only the
child's family changes: it is refitted without that parent, every other family stays as it is. We
report the loss with the sign turned, in nats, so that larger = stronger (decisions.md)::

    strength(u -> x) = score(x | U) - score(x | U \\ {u})
                     = -(delete gain of u in x's family) - (penalty of U) + (penalty of U \\ {u})

with the run's own score (BIC or EBIC, a family scored on its own rows under interventions: the
penalty at that row count), through the CPD family model that scored the search. The log-likelihood
change is the model's :meth:`~engine.cpd.base.FamilyModel.delete_gains`, the same figures the
stepper's Delete moves use: for linear-Gaussian families all k deletions of a family come from its
inverse Cholesky factor at O(k^2) (no refit), other CPDs refit each reduced family. So the whole
network costs O(edges) family updates.

A positive strength is what a converged greedy search guarantees (no Delete improves the score); a
negative one marks an edge the score would rather lose (a required edge, or a search stopped
early). With hidden variables the family scores are the expected complete-data scores structural EM
maximizes (JMLR 2007 section 6), from the final posterior's expected statistics.

References
----------
.. [1] Scutari. Learning Bayesian networks with the bnlearn R package. JSS 35(3), 2010;
   bnlearn ``arc.strength`` (criterion "bic": the score difference with the arc removed).
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from .cpd.base import FamilyModel, Parents
from .score import BIC

__all__ = ["arc_strengths", "family_strengths"]


def family_strengths(model: FamilyModel, scorer: BIC, child: int, parents: Parents) -> np.ndarray:
    """Strength (nats, larger = stronger) of each edge ``parents[i] -> child``, shape (k,)."""
    parents = tuple(parents)
    k = len(parents)
    if not k:
        return np.zeros(0)
    fit = model.fit(child, parents)
    score = scorer if fit.n_rows is None else scorer.for_rows(fit.n_rows)
    d_params = model.n_params(k) - model.n_params(k - 1)
    d_penalty = score.penalty(fit.n_params, k) - score.penalty(fit.n_params - d_params, k - 1)
    lost_loglik = -np.asarray(model.delete_gains(child, parents), dtype=float)
    return lost_loglik - d_penalty


def arc_strengths(model: FamilyModel, scorer: BIC, parents: Mapping[int, Parents]) -> dict[tuple[int, int], float]:
    """``{(parent, child): strength}`` for every edge of the network ``parents[child]``."""
    out: dict[tuple[int, int], float] = {}
    for child, ps in parents.items():
        ps = tuple(sorted(int(p) for p in ps))
        for p, s in zip(ps, family_strengths(model, scorer, int(child), ps), strict=True):
            out[(p, int(child))] = float(s)
    return out
