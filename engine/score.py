"""The decomposable BIC score (Schwarz 1978; JMLR 2007 eq. 1).

``BIC(D, G) = sum_families [ l_X(D : U, theta_hat) - (log M / 2) Dim(X | U) ]``

With complete data the score decomposes over families, so a move changes only the families it
touches, and the change of one family is its log-likelihood change minus the change in penalty.
Log-likelihoods are in nats. This module knows nothing about search operators.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from .cpd.base import FamilyFit

__all__ = ["BIC", "family_bic"]


@dataclass(frozen=True)
class BIC:
    """BIC penalty for a data set of ``n_samples`` instances."""

    n_samples: int

    @property
    def per_param(self) -> float:
        """Penalty per free parameter: ``log(M) / 2``."""
        return 0.5 * math.log(self.n_samples)

    def family(self, fit: FamilyFit) -> float:
        """BIC term of one family: ``loglik - (log M / 2) * n_params``."""
        return fit.loglik - self.per_param * fit.n_params

    def delta(self, delta_loglik, delta_params: int):
        """BIC change of a move from its log-likelihood change and parameter-count change."""
        return delta_loglik - self.per_param * delta_params


def family_bic(fit: FamilyFit, n_samples: int) -> float:
    """BIC term of one fitted family."""
    return BIC(n_samples).family(fit)
