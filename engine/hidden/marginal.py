"""The observed-data log-likelihood of a linear-Gaussian network, hidden and missing cells
integrated out exactly (JMLR 2007 section 6: what decides whether a hidden variable helped), and
the Markov-blanket restriction of structural EM after a hidden variable is added (thesis ch. 4).

A linear-Gaussian network is jointly Gaussian, so the marginal of any set of observed cells is
Gaussian too; it is computed from the network's sparse precision matrix, one small solve per
pattern of unobserved cells.
"""

from __future__ import annotations

import numpy as np
from scipy import sparse
from scipy.sparse.linalg import spsolve

from ..cpd.linear import LOG_2PI

__all__ = ["freeze_families", "marginal_loglik", "markov_blanket", "observed_penalty"]


def marginal_loglik(
    intercept: np.ndarray, coef, variance: np.ndarray, values: np.ndarray, observed: np.ndarray
) -> float:
    """Log-likelihood (nats) of the observed cells of ``values`` under a linear-Gaussian network
    (``coef[parent, child]`` dense, or sparse as :meth:`.params.Params.sparse_coef` gives it).

    The network ``x = b0 + coef^T x + eps`` is jointly Gaussian with mean ``mu = A b0``,
    ``A = (I - coef^T)^{-1}``, and precision ``K = (I - B) D^{-1} (I - B)^T`` (``B = coef``,
    ``D = diag(variance)``), sparse like the network. Each instance is scored on its observed cells
    O with the unobserved ones U (hidden variables, missing cells) integrated out, by the Schur
    complement of ``K_UU``::

        Sigma_OO^{-1} = K_OO - K_OU K_UU^{-1} K_UO,    log det Sigma_OO = log det K_UU + sum log d

    (``det(I - B) = 1`` for a DAG). With ``e`` the instance's deviations from ``mu`` (0 on U),
    ``e_O^T Sigma_OO^{-1} e_O = |D^{-1/2} (I - B)^T e|^2 - g^T K_UU^{-1} g``, ``g = (K e)_U``:
    one sparse product over all instances, and per pattern of unobserved cells a |U| x |U| solve.
    No N x N matrix is formed: at 2500 variables the dense covariance and its Cholesky per pattern
    cost seconds per call (#22).
    """
    n = coef.shape[0]
    b = coef.tocsr() if sparse.issparse(coef) else sparse.csr_matrix(np.asarray(coef, dtype=float))  # B, sparse
    d = np.asarray(variance, dtype=float)
    mu = spsolve((sparse.identity(n, format="csc") - b.T.tocsc()), np.asarray(intercept, dtype=float))
    mu = np.atleast_1d(mu)
    e = np.where(observed, values - mu, 0.0)
    r = e - (b.T @ e.T).T  # residual of every family, (I - B)^T e per instance
    rd = r / d
    q = np.sum(r * rd, axis=1)
    logdet_d = float(np.sum(np.log(d)))
    n_obs = observed.sum(axis=1)
    patterns, inverse = np.unique(~observed, axis=0, return_inverse=True)
    inverse = np.asarray(inverse).reshape(-1)
    logdet = np.full(values.shape[0], logdet_d)
    for pi, pat in enumerate(patterns):
        u = np.flatnonzero(pat)
        if u.size == 0:
            continue
        rows = np.flatnonzero(inverse == pi)
        # rows U of (I - B): e_u - B[u, :]
        iu = sparse.csr_matrix((np.ones(u.size), (np.arange(u.size), u)), shape=(u.size, n)) - b[u]
        kuu = (iu.multiply(1.0 / d[None, :]) @ iu.T).toarray()
        g = (iu @ rd[rows].T).T
        chol = np.linalg.cholesky(kuu)
        sol = np.linalg.solve(chol, g.T)
        q[rows] -= np.sum(sol**2, axis=0)
        logdet[rows] += 2.0 * np.sum(np.log(np.diag(chol)))
    live = n_obs > 0
    return float(-0.5 * np.sum((n_obs * LOG_2PI + logdet + q)[live]))


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


def observed_penalty(scorer, parents) -> float:
    """The penalty of the families with ``parents`` (one parent set per variable) by ``scorer``
    (BIC's, or EBIC's when that is the score): each family's intercept, variance and coefficients."""
    return float(sum(scorer.penalty(len(p) + 2, len(p)) for p in parents))
