"""The observed-data log-likelihood of a linear-Gaussian network, hidden and missing cells
integrated out exactly (JMLR 2007 section 6: what decides whether a hidden variable helped), and
the Markov-blanket restriction of structural EM after a hidden variable is added (thesis ch. 4).

A linear-Gaussian network is jointly Gaussian, so the marginal of any set of observed cells is
Gaussian too; instances are grouped by their pattern of observed cells, one Cholesky per pattern.
"""

from __future__ import annotations

import numpy as np

from ..cpd.linear import LOG_2PI

__all__ = ["freeze_families", "marginal_loglik", "markov_blanket"]


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


def markov_blanket(edges, node: int) -> set[int]:
    """Parents, children and the children's other parents of ``node`` (index pairs ``edges``)."""
    children = {c for p, c in edges if p == node}
    return ({p for p, c in edges if c == node} | children | {p for p, c in edges if c in children}) - {node}


def freeze_families(stepper, frozen: np.ndarray) -> None:
    """Keep the families of the ``frozen`` variables (bool (N,)) as they are in ``stepper``: their
    current parents become required and every other parent forbidden (the thesis's FindHidden
    variant 2 lets only the new variable and its Markov blanket change, ch. 4). Set before the
    stepper's first move (the constraint masks are read afresh on each move)."""
    stepper.constraints.freeze(np.flatnonzero(frozen), stepper.dag.adj)
