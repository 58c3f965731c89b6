"""The mean-field E-step's fixed point in closed form (JMLR 2007 section 6; #22 speed).

For a linear-Gaussian network the mean-field coordinate ascent of :mod:`.meanfield` converges to
the exact posterior means of the unobserved cells, and each cell's variance is one over its
diagonal entry of the precision: ``Q(x_j[m]) = N(E[x_j | x_O[m]], 1 / K_jj)``. Both are read off
the network's sparse precision ``K = (I - B) D^{-1} (I - B)^T`` (as :func:`.marginal.marginal_loglik`
does), one small solve per pattern of unobserved cells::

    E[x_U | x_O] = mu_U - K_UU^{-1} (K e)_U,   e = x - mu on O and 0 on U.

The sweeps cost a Python step per unobserved column per sweep (thousands of columns with missing
cells on a yeast table, tens of sweeps); the solve costs one sparse product over all instances and
a |U| x |U| Cholesky per pattern. Same fixed point: the sweeps stop within ``mf_tol`` of it.
"""

from __future__ import annotations

import numpy as np
from scipy import sparse
from scipy.linalg import cho_factor, cho_solve
from scipy.sparse.linalg import spsolve

from .meanfield import mean_field_sweeps

__all__ = ["exact_posterior", "mean_field_step"]


def exact_posterior(mean: np.ndarray, var: np.ndarray, observed: np.ndarray, params) -> int:
    """Set ``mean`` and ``var`` (M, N) of every unobserved cell (``observed`` False) to the
    mean-field fixed point under ``params`` (``coef[parent, child]``, ``intercept``,
    ``variance``), in place. Returns 1 (one direct step), 0 when every cell is observed."""
    if observed.all():
        return 0
    coef, d = params.coef, np.asarray(params.variance, dtype=float)
    n = coef.shape[0]
    b = params.sparse_coef() if hasattr(params, "sparse_coef") else sparse.csr_matrix(np.asarray(coef, dtype=float))
    i_b = sparse.identity(n, format="csr") - b  # rows: (I - B)
    mu = np.atleast_1d(spsolve(i_b.T.tocsc(), np.asarray(params.intercept, dtype=float)))
    e = np.where(observed, mean - mu, 0.0)
    rd = (e - (b.T @ e.T).T) / d  # D^{-1} (I - B)^T e per instance
    k_diag = np.asarray(i_b.multiply(i_b).multiply(1.0 / d[None, :]).sum(axis=1)).ravel()
    patterns, inverse = _patterns(~observed)
    for pi, pat in enumerate(patterns):
        u = np.flatnonzero(pat)
        if u.size == 0:
            continue
        rows = np.flatnonzero(inverse == pi)
        iu = i_b[u]
        kuu = (iu.multiply(1.0 / d[None, :]) @ iu.T).toarray()
        g = np.asarray(iu @ rd[rows].T)  # (K e)_U, (|U|, rows)
        sol = cho_solve(cho_factor(kuu, lower=True, check_finite=False), g, check_finite=False)
        mean[np.ix_(rows, u)] = mu[u][None, :] - sol.T
    unobs = ~observed
    var[unobs] = np.broadcast_to(1.0 / k_diag[None, :], var.shape)[unobs]
    return 1


def _patterns(unobserved: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The distinct rows of ``unobserved`` (M, N) and each instance's row among them. Without missing
    cells every instance has the same pattern (the hidden columns): said without sorting the rows."""
    if (unobserved == unobserved[0]).all():
        return unobserved[:1], np.zeros(unobserved.shape[0], dtype=np.intp)
    patterns, inverse = np.unique(unobserved, axis=0, return_inverse=True)
    return patterns, np.asarray(inverse).reshape(-1)


def mean_field_step(mean, var, observed, params, max_sweeps: int, tol: float) -> int:
    """The E-step of :class:`~.em.StructuralEM`: :func:`exact_posterior`, or the sweeps of
    :func:`~.meanfield.mean_field_sweeps` (``max_sweeps``, ``tol``) when a ``K_UU`` is not
    positive definite (a variance at 0). Returns the sweeps used."""
    try:
        return exact_posterior(mean, var, observed, params)
    except np.linalg.LinAlgError:
        return mean_field_sweeps(mean, var, observed, params, max_sweeps, tol)
