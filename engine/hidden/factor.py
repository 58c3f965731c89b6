"""The one-factor fit that scores a candidate hidden variable on the observed data (JMLR 2007
section 5's candidate sets, scored as :mod:`.candidates` explains: H integrated out, not z* taken as
observed). Kept in its own module so :mod:`.candidates` and the batched growth (:mod:`.grow_batch`)
share it; :func:`~.seed_batch.factor_fit_batch` is the same EM for a stack of sets.
"""

from __future__ import annotations

import numpy as np

__all__ = ["factor_fit"]


def factor_fit(corr: np.ndarray, n_samples: int, loadings: np.ndarray, n_iter: int = 60) -> tuple[float, np.ndarray]:
    """Observed-data log-likelihood gain (nats) of one common factor for variables with residual
    correlation matrix ``corr``, at the maximum-likelihood loadings (EM for factor analysis,
    Rubin & Thayer 1982, started from ``loadings``)::

        -(M/2) [ log det S + tr(S^-1 R) - L ],   S = diag(psi) + a a^T,

    against the same variables independent (the hidden variable integrated out: what the
    observed-data score of the network with H gains in these families). For L = 2 it is the pair's
    mutual information, -(M/2) log(1 - r^2). Unlike the paper's complete-data estimate (C2 plus
    the root log-likelihood of z*), it does not reward z* for fitting each member's own noise.
    Returns the gain and the loadings ``a`` (standardized scale).
    """
    r = np.asarray(corr, dtype=float)
    a = np.clip(np.asarray(loadings, dtype=float), -0.99, 0.99)
    psi = np.maximum(1.0 - a**2, 1e-3)
    d = np.diag(r).copy()
    for _ in range(n_iter):
        # beta = a^T (diag(psi) + a a^T)^-1 by Sherman-Morrison: O(L), no inverse
        u = a / psi
        beta = u / (1.0 + a @ u)
        rb = r @ beta
        czz = 1.0 - beta @ a + beta @ rb
        a_new = rb / czz
        psi_new = np.maximum(d - a_new * rb, 1e-6)
        done = abs(a_new - a).max() < 1e-6  # the method, not np.max: same value, no wrapper per step
        a, psi = a_new, psi_new
        if done:
            break
    # S = diag(psi) + a a^T: log det S and tr(S^-1 R) by the determinant lemma and Sherman-Morrison, O(L^2)
    u = a / psi
    logdet = float(np.log(psi).sum() + np.log1p(a @ u))
    trace = float(np.sum(d / psi) - u @ r @ u / (1.0 + a @ u))
    return float(-0.5 * n_samples * (logdet + trace - r.shape[0])), a
