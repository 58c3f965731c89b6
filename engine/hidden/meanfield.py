"""The mean-field E-step of structural EM (JMLR 2007 section 6; thesis section 7.4).

With a linear-Gaussian network the posterior of the unobserved cells (hidden variables and missing
values) is Gaussian; the mean-field approximation Q factorizes it per cell and is found by
coordinate ascent. Only each cell's first and second moments are needed by the M-step's expected
sufficient statistics, and for Gaussians the fixed point has the exact posterior means.
"""

from __future__ import annotations

import numpy as np

__all__ = ["mean_field_sweeps"]


def mean_field_sweeps(
    mean: np.ndarray,
    var: np.ndarray,
    observed: np.ndarray,
    params,
    max_sweeps: int,
    tol: float,
    *,
    keep: np.ndarray | None = None,
    priors: tuple[np.ndarray, np.ndarray] | None = None,
) -> int:
    """Coordinate ascent on the mean-field Q, in place: ``mean`` and ``var`` (M, N) of every cell
    are updated where ``observed`` is False, given the network ``params`` (``coef[parent, child]``,
    ``intercept``, ``variance``). Stops when the largest relative change of a mean is below
    ``tol`` or after ``max_sweeps`` sweeps; returns the sweeps used.

    Interventional data (:mod:`engine.interventions.em`): ``keep`` (M, N) weights each family's
    terms by row (0 where its child was set by an experiment: the mutilated network of that row),
    and ``priors`` = (mean, variance) (M, N) is the intervention distribution that stands in for
    a set cell's own family. Without them every row counts, and the arithmetic is the plain one."""
    n_samples, n_vars = mean.shape
    unobs_cols = np.flatnonzero((~observed).any(axis=0))
    if unobs_cols.size == 0:
        return 0
    coef, b0, s2 = params.coef, params.intercept, params.variance
    children = [np.flatnonzero(coef[j]) for j in range(n_vars)]
    parents = [np.flatnonzero(coef[:, j]) for j in range(n_vars)]
    scale = np.maximum(np.abs(mean).max(axis=0), 1.0)
    sweeps = 0
    for sweeps in range(1, max_sweeps + 1):  # noqa: B007 - reported
        delta = 0.0
        for j in unobs_cols:
            rows = ~observed[:, j]
            pa = parents[j]
            pred = b0[j] + (mean[:, pa] @ coef[pa, j] if pa.size else np.zeros(n_samples))
            own = 1.0 if keep is None else keep[:, j]
            prec = own / s2[j]
            acc = own * pred / s2[j]
            if priors is not None:
                prec = prec + (1.0 - own) / priors[1][:, j]
                acc = acc + (1.0 - own) * priors[0][:, j] / priors[1][:, j]
            for c in children[j]:
                pc = parents[c]
                resid = mean[:, c] - b0[c] - mean[:, pc] @ coef[pc, c] + coef[j, c] * mean[:, j]
                w = 1.0 if keep is None else keep[:, c]
                prec = prec + w * coef[j, c] ** 2 / s2[c]
                acc = acc + w * coef[j, c] * resid / s2[c]
            new = acc / prec
            delta = max(delta, float(np.max(np.abs(new[rows] - mean[rows, j])) / scale[j]))
            mean[rows, j] = new[rows]
            inv = 1.0 / prec
            var[rows, j] = inv[rows] if np.ndim(inv) else inv
        if delta < tol:
            break
    return sweeps
