"""Parametric EM iterations inside structural EM (JMLR 2007 section 6).

When an M-step's search leaves the structure as it was, the next iterations only move the
parameters and the posterior Q of the hidden and missing cells; EM for a common factor creeps
(linear convergence), and running a full structure search for each of those small moves made
most of the cost of Accept and of ``auto`` (#12). These iterations keep the structure, alternate
ML parameters on the expected statistics with the mean-field E-step, and stop when the
variational bound gains less than ``tol * |bound|``; each one raises the bound, as a full
iteration does, so the monotone trace and the convergence test of :meth:`StructuralEM.run` hold.
"""

from __future__ import annotations

import math

__all__ = ["parametric_em"]


def parametric_em(em, model, max_steps: int, tol: float):
    """Up to ``max_steps`` parametric EM iterations of ``em`` (a :class:`~.em.StructuralEM`) on its
    current structure, from the expected statistics ``model``; returns the final expected model."""
    last = -math.inf
    for _ in range(max_steps):
        em.e_step(em._params(model))
        model = em.expected_model()
        bound = em._expected_bic(model) + em.entropy()
        if bound - last <= tol * max(1.0, abs(bound)):
            break
        last = bound
    return model
