"""ML parameters of a linear-Gaussian network on (expected) sufficient statistics (structural EM's
M-step parameters, JMLR 2007 section 6), gathered from the families' fits in one pass."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy import sparse

from ..cpd.base import FamilyModel, Parents

__all__ = ["Params", "ml_params"]


@dataclass
class Params:
    """Intercepts, coefficients ``coef[parent, child]`` and noise variances of every family."""

    intercept: np.ndarray
    coef: np.ndarray  # [parent, child]
    variance: np.ndarray
    #: ``coef`` as a sparse matrix when built from the families (:func:`ml_params`), else None
    coef_csr: sparse.csr_matrix | None = None

    def sparse_coef(self) -> sparse.csr_matrix:
        """``coef`` as a CSR matrix (the E-step's and the marginal likelihood's ``B``), without an N x N scan
        when :func:`ml_params` built it: the same entries, the same structure (zeros dropped, indices sorted)."""
        return sparse.csr_matrix(np.asarray(self.coef, dtype=float)) if self.coef_csr is None else self.coef_csr


def ml_params(model: FamilyModel, parents: list[Parents]) -> Params:
    """The ML fit of every family ``(child, parents[child])`` of ``model``."""
    n = len(parents)
    fits = [model.fit(c, ps) for c, ps in enumerate(parents)]
    par = Params(np.zeros(n), np.zeros((n, n)), np.ones(n))
    par.intercept[:] = [f.params["intercept"] for f in fits]
    par.variance[:] = [f.params["variance"] for f in fits]
    rows = [p for ps in parents for p in ps]
    cols = [c for c, ps in enumerate(parents) for _ in ps]
    values = [a for f in fits for a in f.params["coefficients"]]
    if rows:
        par.coef[rows, cols] = values
    b = sparse.csr_matrix((np.asarray(values, dtype=float), (rows, cols)), shape=(n, n))
    b.eliminate_zeros()
    b.sort_indices()
    par.coef_csr = b
    return par
