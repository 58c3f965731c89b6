"""Exact add gains of linear-Gaussian families along greedy paths, by one projection step per parent.

The order search (:mod:`engine.search.order`) chooses each family greedily among a variable's
predecessors, and visits tens of thousands of predecessor sets; the families it fits share their
parent sets (a set reached by one child is the set the next child's path passes through). The exact
gain of adding ``z`` to the family ``(x, U)`` (JMLR 2007 section 2, eq. 2; :meth:`LinearGaussianFamilies.exact_add
<engine.cpd.linear.LinearGaussianFamilies.exact_add>`) is

    ``-(M/2) log(1 - (y.z)^2 / ((y.y) (z_perp.z_perp)))``

with every term a residual scatter given ``U``: ``y.z = R_U[x, z]``, ``y.y = R_U[x, x]`` and
``z_perp.z_perp = R_U[z, z]``, where ``R_U = S - S[:, U] S_UU^{-1} S[U, :]``. With ``W_U`` the rows of
``L^{-1} S[U, :]`` (``L`` the Cholesky factor of ``S_UU``), ``R_U = S - W_U^T W_U``, and one parent
more adds one row (Gram-Schmidt: ``R_U[p, :] / sqrt(R_U[p, p])``). So ``W_U`` is kept per parent set
and extended by one row, and the gains of any child given ``U`` cost O(kN), with no Cholesky factor
and no fit.

The model's own :meth:`exact_add` is used instead wherever its floors act (an exact fit, a residual
variance at the variance floor, a squared correlation at its cap) and when a parent set is collinear,
so every gain is the model's up to rounding.
"""

from __future__ import annotations

import numpy as np

from ..cpd.linear import LinearGaussianFamilies
from ..ideal import R2_CAP

__all__ = ["LinearAddGains"]

#: parent sets whose projection rows are kept (cleared when full)
MAX_SETS = 20_000
#: a parent whose residual scatter given the others is below this share of its own is collinear
COLLINEAR = 1e-10


class LinearAddGains:
    """Add gains of the families of ``model`` (a :class:`LinearGaussianFamilies`), by parent set."""

    def __init__(self, model: LinearGaussianFamilies) -> None:
        self.model = model
        self.scatter = model.scatter
        self.diag = np.diag(model.scatter).copy()
        self.m = model.n_samples
        #: parent set -> (W_U (k, N), diag R_U (N,)), or None for a collinear set
        self._proj: dict[tuple[int, ...], tuple[np.ndarray, np.ndarray] | None] = {
            (): (np.zeros((0, self.diag.size)), self.diag)
        }

    def projection(self, parents: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray] | None:
        """``(W_U, diag R_U)`` of the sorted parent set ``parents``, None when it is collinear."""
        out = self._proj.get(parents, False)
        if out is not False:
            return out  # type: ignore[return-value]
        head, p = parents[:-1], parents[-1]
        below = self.projection(head)
        out = None
        if below is not None:
            w, zz = below
            if zz[p] > COLLINEAR * self.diag[p]:
                row = (self.scatter[p] - w[:, p] @ w) / np.sqrt(zz[p])
                out = (np.vstack([w, row]), zz - row * row)
        if len(self._proj) >= MAX_SETS:
            self._proj.clear()
            self._proj[()] = (np.zeros((0, self.diag.size)), self.diag)
        self._proj[parents] = out
        return out

    def gains(self, child: int, parents: tuple[int, ...], cand: np.ndarray) -> np.ndarray:
        """Exact log-likelihood gains (nats) of adding each of ``cand`` to ``(child, parents)``."""
        proj = self.projection(parents)
        model = self.model
        if proj is None:
            return model.exact_add(child, parents, cand)
        w, zz = proj
        wc = w[:, child]
        rss = float(self.scatter[child, child] - wc @ wc)
        floor = float(model._floor_var[child]) * self.m
        if not rss > floor:  # an exact fit or the variance floor: the model's own path
            return model.exact_add(child, parents, cand)
        yz = self.scatter[child, cand] - wc @ w[:, cand]
        z = zz[cand]
        with np.errstate(divide="ignore", invalid="ignore"):
            r2 = np.where(z > 1e-12 * self.diag[cand], yz * yz / (rss * z), 0.0)
        r2_max = r2.max(initial=0.0)
        if r2_max >= R2_CAP or rss * (1.0 - r2_max) < floor:
            return model.exact_add(child, parents, cand)
        return -0.5 * self.m * np.log1p(-r2)
