"""ML parameters of a linear-Gaussian network on (expected) sufficient statistics (structural EM's
M-step parameters, JMLR 2007 section 6), gathered from the families' fits in one pass."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..cpd.base import FamilyModel, Parents

__all__ = ["Params", "ml_params"]


@dataclass
class Params:
    """Intercepts, coefficients ``coef[parent, child]`` and noise variances of every family."""

    intercept: np.ndarray
    coef: np.ndarray  # [parent, child]
    variance: np.ndarray


def ml_params(model: FamilyModel, parents: list[Parents]) -> Params:
    """The ML fit of every family ``(child, parents[child])`` of ``model``."""
    n = len(parents)
    fits = [model.fit(c, ps) for c, ps in enumerate(parents)]
    par = Params(np.zeros(n), np.zeros((n, n)), np.ones(n))
    par.intercept[:] = [f.params["intercept"] for f in fits]
    par.variance[:] = [f.params["variance"] for f in fits]
    rows = [p for ps in parents for p in ps]
    if rows:
        cols = [c for c, ps in enumerate(parents) for _ in ps]
        par.coef[rows, cols] = [a for f in fits for a in f.params["coefficients"]]
    return par
