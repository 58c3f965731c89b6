"""Structural EM on interventional data with missing cells (JMLR 2007 section 6; Cooper & Yoo 1999).

The mutilated network of a row drops the families of the variables its experiment set. Structural
EM keeps its shape under that mask; what changes is which likelihood terms each row has:

* **E-step** (mean-field, as :func:`engine.hidden.meanfield.mean_field_sweeps`): a missing cell of
  X gets the term of X's own family only in rows where X was not set, and the term of each child's
  family only in rows where that child was not set. A missing cell of a variable the experiment set
  has, in place of its family, the *intervention distribution*: a Gaussian with the mean and
  variance of that variable's observed values in the rows of the same condition (estimated from the
  data; without it the cell's posterior would be improper when it has no unmasked child).
* **M-step**: the masked search (:class:`MaskedFamilies`) on the expected sufficient statistics of
  each family's own rows (means and centred scatter plus the posterior variances of those rows).
* **Observed-data score**: the exact marginal likelihood of the mutilated network, the set
  variables of each condition being roots with their intervention distribution, minus the log
  density of their observed values under it (so that, as on complete data, a set variable's value
  is conditioned on, not scored), minus each family's penalty at its own row count.

Per-condition intercepts and hidden variables are not combined with this (refused by the estimator).
"""

from __future__ import annotations

import math

import numpy as np

from ..cpd.linear import LinearGaussianFamilies
from ..hidden import StructuralEM, marginal_loglik
from ..hidden.meanfield import mean_field_sweeps
from .design import Interventions
from .families import MaskedFamilies

__all__ = ["MaskedStructuralEM", "intervention_priors", "mutilated_marginal_loglik"]

LOG_2PI = math.log(2.0 * math.pi)


def intervention_priors(
    values: np.ndarray, observed: np.ndarray, mask: np.ndarray, codes: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Mean and variance (both M x N) of the intervention distribution of every set cell: those of
    the variable's observed values in the rows of the row's condition (all its observed values when
    fewer than two there). 0 and 1 where nothing was set."""
    mu, s2 = np.zeros(mask.shape), np.ones(mask.shape)
    for code in np.unique(codes[mask.any(axis=1)]):
        rows = codes == code
        for j in np.flatnonzero(mask[rows].any(axis=0)):  # the condition's targets (a handful)
            seen = values[rows & observed[:, j], j]
            if seen.size < 2:
                seen = values[observed[:, j], j]
            mu[rows, j] = seen.mean()
            s2[rows, j] = max(float(seen.var()), 1e-8 * max(float(np.nanvar(values[:, j])), 1e-300))
    return mu, s2


def mutilated_marginal_loglik(
    b0: np.ndarray,
    coef: np.ndarray,
    var: np.ndarray,
    values: np.ndarray,
    observed: np.ndarray,
    mask: np.ndarray,
    codes: np.ndarray,
    priors: tuple[np.ndarray, np.ndarray] | None = None,
) -> float:
    """Log-likelihood of the observed cells of ``values`` under the mutilated linear-Gaussian
    network of each row: its set variables (``mask``) are roots with their intervention
    distribution (``priors``, default standard normal), missing cells are integrated out, and the
    set variables' observed values are conditioned on (their density is subtracted)."""
    mu, s2 = priors if priors is not None else (np.zeros(mask.shape), np.ones(mask.shape))
    total = 0.0
    for code in np.unique(codes):
        rows = np.flatnonzero(codes == code)
        first = rows[0]
        targets = mask[first]
        b, w, s = b0.copy(), coef.copy(), var.copy()
        b[targets], w[:, targets], s[targets] = mu[first, targets], 0.0, s2[first, targets]
        total += marginal_loglik(b, w, s, values[rows], observed[rows])
        seen = observed[rows][:, targets]
        z = (values[rows][:, targets] - mu[first, targets]) ** 2 / s2[first, targets]
        total += 0.5 * float(np.sum(np.where(seen, z + LOG_2PI + np.log(s2[first, targets]), 0.0)))
    return float(total)


class MaskedStructuralEM(StructuralEM):
    """:class:`~engine.hidden.StructuralEM` whose families are scored on their own rows
    (``design``: the :class:`Interventions` of ``dataset``); see the module docstring."""

    def __init__(self, dataset, settings=None, *, design: Interventions, **options) -> None:
        super().__init__(dataset, settings, **options)
        self.design = design.with_extra(self.n_vars - self.n_obs)
        raw = np.where(self.observed, self.mean, np.nan)
        self.priors = intervention_priors(raw, self.observed, self.design.mask, self.design.codes)
        self._keep = (~self.design.mask).astype(float)  # each family's E-step terms, by row

    def expected_model(self) -> MaskedFamilies:
        """The masked families on the expected sufficient statistics of each family's rows."""

        def on_rows(keep: np.ndarray) -> LinearGaussianFamilies:
            x, v = self.mean[keep], self.var[keep]
            mu = x.mean(axis=0)
            xc = x - mu
            return LinearGaussianFamilies.from_moments(mu, xc.T @ xc + np.diag(v.sum(axis=0)), int(keep.sum()))

        return MaskedFamilies.on_rows(on_rows, self.mean, self.design)

    def e_step(self, params) -> int:
        return mean_field_sweeps(
            self.mean,
            self.var,
            self.observed,
            params,
            self.mf_iter,
            self.mf_tol,
            keep=self._keep,
            priors=self.priors,
        )

    def _expected_bic(self, model) -> float:
        """The expected score plus the expected log density of the set-but-missing cells under
        their intervention distribution (the term the E-step maximizes for them)."""
        cells = self.design.mask & ~self.observed
        mu, s2 = self.priors
        term = -0.5 * (LOG_2PI + np.log(s2) + ((self.mean - mu) ** 2 + self.var) / s2)
        return super()._expected_bic(model) + float(term[cells].sum())

    def observed_loglik(self) -> float:
        par = self.params()
        return mutilated_marginal_loglik(
            par.intercept,
            par.coef,
            par.variance,
            self.mean,
            self.observed,
            self.design.mask,
            self.design.codes,
            self.priors,
        )

    def observed_bic(self) -> float:
        """Observed-data score with each family's penalty at its own row count."""
        scorer, rows = self.scorer, self.design.family_rows
        penalty = sum(scorer.for_rows(int(rows[c])).penalty(len(p) + 2, len(p)) for c, p in enumerate(self.parents()))
        return self.observed_loglik() - penalty
