"""The observed-data log-likelihood of a linear-Gaussian network, hidden and missing cells
integrated out exactly (JMLR 2007 section 6: what decides whether a hidden variable helped).

A linear-Gaussian network is jointly Gaussian, so the marginal of any set of observed cells is
Gaussian too; instances are grouped by their pattern of observed cells, one Cholesky per pattern.
"""

from __future__ import annotations

import numpy as np

from ..cpd.linear import LOG_2PI

__all__ = ["marginal_loglik"]


def marginal_loglik(
    intercept: np.ndarray, coef: np.ndarray, variance: np.ndarray, values: np.ndarray, observed: np.ndarray
) -> float:
    """Log-likelihood (nats) of the observed cells of ``values`` under a linear-Gaussian network.

    The network ``x = b0 + coef^T x + eps`` is jointly Gaussian with mean ``A b0`` and covariance
    ``A diag(variance) A^T``, ``A = (I - coef^T)^{-1}``; each instance is scored on its observed
    cells (rows are grouped by missingness pattern, so the cost is one Cholesky per pattern).
    """
    n = coef.shape[0]
    a = np.linalg.inv(np.eye(n) - coef.T)
    mu = a @ intercept
    cov = (a * variance) @ a.T
    patterns, inverse = np.unique(observed, axis=0, return_inverse=True)
    inverse = np.asarray(inverse).reshape(-1)
    total = 0.0
    for pi, pat in enumerate(patterns):
        cols = np.flatnonzero(pat)
        if cols.size == 0:
            continue
        rows = np.flatnonzero(inverse == pi)
        sub = cov[np.ix_(cols, cols)]
        chol = np.linalg.cholesky(sub)
        diff = values[np.ix_(rows, cols)] - mu[cols]
        sol = np.linalg.solve(chol, diff.T)
        logdet = 2.0 * np.sum(np.log(np.diag(chol)))
        total += -0.5 * (rows.size * (cols.size * LOG_2PI + logdet) + np.sum(sol**2))
    return float(total)
