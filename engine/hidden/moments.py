"""Structural EM's expected sufficient statistics, updated where they change (#22 item 4: speed).

Each M-step of structural EM (JMLR 2007 section 6) searches on the expected scatter
``S = E[Xc^T Xc]`` under the posterior Q: the scatter of the posterior means plus, on the diagonal, the
summed posterior variances. Only the columns with an unobserved cell (hidden variables, observed ones
with missing cells: the *free* columns) change from one E-step to the next; the block among fully
observed columns is the same data every time. Forming ``S`` afresh is ``N^2 M`` work per E-step, at
2500 genes the largest single cost of an EM iteration after the search, and comparing it entry by
entry to the last one (:func:`engine.search.carry.unchanged`) as much again (py-spy of an ``h20m``
genome run: 6 % and 7 % of ``--hidden auto``).

:class:`ExpectedMoments` keeps the last scatter and recomputes only the free columns' rows and columns
(``|free| N M`` work), while the fully observed columns' values are those it was formed on (checked,
``N M``); otherwise (the first E-step, another free set, more than :data:`MAX_FREE_SHARE` of the
columns free) it forms ``S`` whole. Every model it makes carries a :class:`MomentsToken`: two models
with the same token share the fixed block bit for bit (it was copied, not recomputed), so
:func:`~engine.search.carry.unchanged` need compare only the free rows. The free rows themselves are
dot products in another order than the whole product's and may differ from it in the last bits; the
scatter stays exactly symmetric.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..cpd.linear import LinearGaussianFamilies

__all__ = ["INCREMENTAL", "MAX_FREE_SHARE", "ExpectedMoments", "MomentsToken"]

#: update the free columns only (False: form the whole scatter at every E-step, as before)
INCREMENTAL = True
#: above this share of free columns the whole scatter is formed (the update would not pay)
MAX_FREE_SHARE = 0.5


@dataclass(frozen=True, eq=False)
class MomentsToken:
    """Shared by the models whose scatter outside the ``rows`` (the free columns, sorted) is one copy."""

    rows: np.ndarray


class ExpectedMoments:
    """The expected statistics of one structural EM, kept between E-steps (see the module docstring)."""

    def __init__(self) -> None:
        self._scatter: np.ndarray | None = None
        self._fixed: np.ndarray | None = None  # the fully observed columns' values the scatter was formed on
        self._token: MomentsToken | None = None

    def model(self, mean: np.ndarray, var: np.ndarray, observed: np.ndarray) -> LinearGaussianFamilies:
        """Families on the expected statistics of posterior ``mean`` and ``var`` (M, N) with ``observed``
        cells (variance 0 there): the column means, ``S = Xc^T Xc + diag(sum var)``."""
        m, n = mean.shape
        free = np.flatnonzero(~observed.all(axis=0))
        fixed = np.flatnonzero(observed.all(axis=0))
        mu = mean.mean(axis=0)
        xc = mean - mu
        if self._reusable(mean, var, free, fixed):
            scatter = self._scatter.copy()
            xf = xc[:, free]
            block = xf.T @ xc
            scatter[free, :] = block
            scatter[:, free] = block.T
            scatter[np.ix_(free, free)] = xf.T @ xf  # exactly symmetric (a symmetric rank-k update)
            scatter[free, free] += var[:, free].sum(axis=0)
        else:
            scatter = xc.T @ xc
            scatter[np.diag_indices_from(scatter)] += var.sum(axis=0)  # no N x N diagonal matrix
            self._fixed = mean[:, fixed].copy()
            self._token = MomentsToken(free)
        self._scatter = scatter  # the model's own, never written in place: the next update copies it
        model = LinearGaussianFamilies.from_moments(mu, scatter, m, symmetric=True)
        model.moments_token = self._token
        return model

    def _reusable(self, mean: np.ndarray, var: np.ndarray, free: np.ndarray, fixed: np.ndarray) -> bool:
        """The last scatter may be updated: same shape and free columns, the fixed columns' values the same
        and their variances 0, few enough free columns."""
        if not INCREMENTAL or self._scatter is None or self._token is None:
            return False
        if self._scatter.shape[0] != mean.shape[1] or not np.array_equal(free, self._token.rows):
            return False
        if free.size > MAX_FREE_SHARE * mean.shape[1] or np.any(var[:, fixed]):
            return False
        return bool(np.array_equal(mean[:, fixed], self._fixed))
