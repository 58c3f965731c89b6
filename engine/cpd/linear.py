"""Linear-Gaussian CPDs computed from sufficient statistics.

``X = theta_0 + sum_i alpha_i u_i + eps``, ``eps ~ N(0, sigma^2)`` (JMLR 2007 section 3.2).
Every quantity comes from the centred scatter matrix ``S = Xc^T Xc`` (the Gram matrix of the
centred data) and the column means, computed once; no family is ever refitted on raw rows.

* ML fit: ``alpha = S_UU^{-1} S_Ux``, ``theta_0 = mean_x - alpha . mean_U``,
  ``sigma^2 = RSS / M`` with ``RSS = S_xx - S_xU alpha`` (the ML value, not the unbiased one).
* Family log-likelihood: ``l = -(M/2) (log(2 pi sigma^2) + 1)``.
* Exact gain of adding Z (Frisch-Waugh-Lovell; reference section 1.3):
  ``Delta = -(M/2) log(1 - (y.z)^2 / ((y.y)(z_perp.z_perp)))`` where ``y.z = S_xz - S_xU S_UU^{-1} S_Uz``
  is the partial covariance and ``z_perp`` is Z's residual on [1, U]. For all N candidates at once
  this costs O(N k^2) from S.
* C1/C2 (Theorems 3.2 and 3.4) use ``z.z`` in place of ``z_perp.z_perp``; see :mod:`engine.ideal`
  for the centring choice.

Assumes complete data; missing values are handled by structural EM elsewhere.
"""

from __future__ import annotations

import math
import warnings

import numpy as np

from ..exceptions import MissingValuesError, NumericalWarning
from ..ideal import R2_CAP, c1_from_stats, c2_from_stats
from .base import (
    LOG_2PI,
    VARIANCE_FLOOR,
    FamilyBase,
    FamilyFit,
    Parents,
    cache_entries,
    floored_loglik,
    gaussian_loglik,
    parent_sum,
)

__all__ = ["LinearGaussianFamilies", "linear_family_loglik", "linear_prediction", "LOG_2PI"]


class _FamilyStats:
    """Per-(child, parents) cached quantities: the fit and the add statistics."""

    __slots__ = ("fit", "rss", "raw_rss", "alpha", "chol", "yz", "_proj")

    def __init__(self) -> None:
        self.fit: FamilyFit | None = None
        self.rss = 0.0
        self.raw_rss = 0.0
        self.alpha = np.zeros(0)
        self.chol = None
        self.yz: np.ndarray | None = None
        self._proj: np.ndarray | None = None


class LinearGaussianFamilies(FamilyBase):
    """Linear-Gaussian family fits, C1/C2 rankings and exact gains for one data set.

    Parameters
    ----------
    values : ndarray of shape (M, N)
        Complete data (no NaN). Not modified.
    centred : bool, default True
        Rank candidates by C1/C2 with centred candidate profiles (theta_0 free as well); with
        False, the paper's raw uncentred profiles are used. See :mod:`engine.ideal`.
    weights : ndarray of shape (M,), optional
        Not supported yet; reserved.

    Notes
    -----
    The variance of a family is floored at :data:`~engine.cpd.base.VARIANCE_FLOOR` times the
    child's own variance so that a child that is an exact linear function of its parents gets a
    large finite likelihood instead of +inf; the log-likelihood is then the exact one at the floored
    variance (:func:`~engine.cpd.base.floored_loglik`), so scoring the saved model agrees.
    """

    cpd = "linear"

    def __init__(self, values: np.ndarray, *, centred: bool = True) -> None:
        values = np.asarray(values, dtype=np.float64)
        if np.isnan(values).any():
            raise MissingValuesError(
                "the data has missing cells; the linear-Gaussian scorer needs complete data "
                "(learning with missing values uses structural EM)."
            )
        means = values.mean(axis=0)
        xc = values - means
        self._setup(means, xc.T @ xc, values.shape[0], centred)

    @classmethod
    def from_moments(
        cls, means: np.ndarray, scatter: np.ndarray, n_samples: int, *, centred: bool = True, symmetric: bool = False
    ) -> LinearGaussianFamilies:
        """Families from sufficient statistics: column means and centred scatter ``sum (x-mu)(x-mu)^T``.

        Used by structural EM, where they are *expected* statistics under the posterior Q
        (JMLR 2007 section 6): the fits then maximize the expected log-likelihood, and C1/C2 are
        computed from the expected scatter ``E[y.z]`` (same cost as ``E[y].E[z]`` from a Gram
        matrix, and closer to the exact expected gain). ``symmetric``: ``scatter`` is exactly
        symmetric already (numpy forms ``Xc^T Xc`` by a symmetric rank-k update) and is taken as
        it is, not copied: 0.5 (S + S^T) would give the same bits at two N x N passes.
        """
        obj = cls.__new__(cls)
        scatter = np.asarray(scatter, dtype=float)
        obj._setup(np.asarray(means, dtype=float), scatter, int(n_samples), centred, symmetric)
        return obj

    def _setup(self, means, scatter: np.ndarray, n_samples: int, centred: bool, symmetric: bool = False) -> None:
        self.n_samples, self.n_vars = n_samples, means.shape[0]
        self.centred = centred
        self.means = means
        #: centred scatter matrix S = Xc^T Xc (M times the ML covariance)
        if symmetric:
            self.scatter = scatter
        else:
            self.scatter = scatter + scatter.T
            self.scatter *= 0.5  # in place: one N x N temporary fewer, the same bits as 0.5 * (S + S^T)
        self._diag = np.diag(self.scatter).copy()
        # z.z used by C1/C2: centred or raw second moments
        self._zz_rank = self._diag if centred else self._diag + self.n_samples * self.means**2
        #: the variance floor of each child (VARIANCE_FLOOR times its ML variance)
        self._floor_var = VARIANCE_FLOOR * np.maximum(self._diag, 1e-300) / max(self.n_samples, 1)
        self._cache: dict[tuple[int, Parents], _FamilyStats] = {}
        self._block: tuple | None = None  # (key, candidate columns, S[:, cols]) of the last list
        #: fits kept in the cache (oldest dropped first; a dropped fit is recomputed exactly)
        self.cache_size = cache_entries(self.n_vars)

    # ------------------------------------------------------------------ basics
    @staticmethod
    def n_params(n_parents: int) -> int:
        """BIC dimension: k coefficients + intercept + variance = k + 2."""
        return n_parents + 2

    def _stats(self, child: int, parents: Parents) -> _FamilyStats:
        key = (child, parents)
        st = self._cache.get(key)
        if st is not None:
            return st
        st = _FamilyStats()
        s = self.scatter
        p = list(parents)
        if p:
            idx = np.array(p, dtype=np.intp)
            s_uu = s[idx[:, None], idx]
            s_ux = s[idx, child]
            try:
                # inverse Cholesky factor: S_UU^{-1} = L^{-T} L^{-1}; k is small, so plain matmuls
                # beat LAPACK call overhead in the hot path (one parent: 1 / sqrt(S_uu), the same
                # correctly rounded numbers LAPACK gives, without its call overhead)
                if len(p) == 1:
                    if not s_uu[0, 0] > 0:
                        raise np.linalg.LinAlgError("a constant parent")
                    chol = 1.0 / np.sqrt(s_uu)
                else:
                    chol = np.linalg.inv(np.linalg.cholesky(s_uu))
                alpha = chol.T @ (chol @ s_ux)
                if not np.all(np.isfinite(alpha)):
                    raise np.linalg.LinAlgError("non-finite coefficients")
            except np.linalg.LinAlgError:
                warnings.warn(
                    f"parents {p} of variable {child} are collinear; using a least-squares fit.",
                    NumericalWarning,
                    stacklevel=3,
                )
                chol = None
                alpha = np.linalg.lstsq(s_uu, s_ux, rcond=None)[0]
            rss = float(s[child, child] - s_ux @ alpha)
        else:
            chol = None
            alpha = np.zeros(0)
            rss = float(s[child, child])
        # an RSS within rounding of 0 (S_xx - S_xU alpha cancels to ~eps S_xx) is an exact fit
        if rss < 64.0 * np.finfo(float).eps * s[child, child]:
            rss = 0.0
        floor_var = float(self._floor_var[child])
        if len(self._cache) >= self.cache_size:
            for old in list(self._cache)[: len(self._cache) // 4]:
                del self._cache[old]
        # the ideal profile's y.y, kept positive for the rankings' ratios
        st.raw_rss = rss
        st.rss = max(rss, floor_var * self.n_samples)
        st.alpha = alpha
        st.chol = chol
        m = self.n_samples
        intercept = float(self.means[child] - (alpha @ self.means[p] if p else 0.0))
        st.fit = FamilyFit(
            child=child,
            parents=parents,
            loglik=float(floored_loglik(rss, m, floor_var)),
            n_params=self.n_params(len(p)),
            params={
                "intercept": intercept,
                "coefficients": [float(a) for a in alpha],
                "variance": max(rss / m, floor_var),
            },
        )
        self._cache[key] = st
        return st

    def fit(self, child: int, parents: Parents) -> FamilyFit:
        """ML fit of ``child`` given ``parents`` (sorted tuple) from the scatter matrix."""
        return self._stats(child, parents).fit  # type: ignore[return-value]

    def _yz(self, child: int, parents: Parents, st: _FamilyStats) -> np.ndarray:
        """Partial covariance y.z of the ideal profile with every variable: S_xz - alpha^T S_Uz."""
        if st.yz is None:
            s = self.scatter
            yz = s[child].copy()
            if parents:
                yz -= st.alpha @ s[list(parents)]
            st.yz = yz
        return st.yz

    def _mask_own(self, arr: np.ndarray, child: int, parents: Parents, cols: np.ndarray | None = None) -> np.ndarray:
        if cols is None:
            arr[..., (child, *parents)] = np.nan
        elif cols.size:  # the child and parents among the candidate columns
            own = np.array((child, *parents), dtype=np.intp)
            at = np.minimum(np.searchsorted(cols, own), cols.size - 1)
            arr[..., at[cols[at] == own]] = np.nan
        return arr

    #: rankings can be restricted to candidate columns (``cols=``) at O(R k) a family
    ranks_columns = True

    def block(self, cols: np.ndarray) -> np.ndarray:
        """The N x R scatter block ``S[:, cols]`` of the candidate columns (sorted indices),
        computed once per candidate list and kept (issue #11: regulators x variables)."""
        key = cols.tobytes()
        if self._block is None or self._block[0] != key:
            self._block = (key, np.array(cols, dtype=np.intp), np.ascontiguousarray(self.scatter[:, cols]))
        return self._block[2]

    def _yz_cols(self, child: int, parents: Parents, st: _FamilyStats, cols: np.ndarray) -> np.ndarray:
        """y.z of the ideal profile with the candidate columns only, from the N x R block."""
        blk = self.block(cols)
        yz = blk[child].copy()
        if parents:
            yz -= st.alpha @ blk[list(parents)]
        return yz

    def _yz_of(self, child: int, parents: Parents, st: _FamilyStats, cand: np.ndarray) -> np.ndarray:
        """y.z with the candidates ``cand``: from the cached N-vector, or, when the family has none
        and the candidates are among the last candidate columns, from the N x R block (O(R k))."""
        if st.yz is None and self._block is not None and cand.size:
            cols = self._block[1]
            at = np.minimum(np.searchsorted(cols, cand), cols.size - 1)
            if (cols[at] == cand).all():
                blk = self._block[2]
                yz = blk[child, at]
                if parents:
                    yz -= st.alpha @ blk[np.array(parents, dtype=np.intp)[:, None], at]
                return yz
        return self._yz(child, parents, st)[cand]

    # --------------------------------------------------------------- rankings
    def similarities(self, child: int, parents: Parents, cols: np.ndarray | None = None, at: np.ndarray | None = None):
        """(add C1, add C2, replace C1, replace C2): :meth:`add_similarity` and
        :meth:`replace_similarity` with the same arguments, ``y.z`` formed once for both."""
        st = self._stats(child, parents)
        yz = self._yz(child, parents, st) if cols is None else self._yz_cols(child, parents, st, cols)
        return (
            *self.add_similarity(child, parents, cols, at, yz),
            *self.replace_similarity(child, parents, cols, at, yz),
        )

    def add_similarity(
        self, child: int, parents: Parents, cols: np.ndarray | None = None, at: np.ndarray | None = None, yz=None
    ) -> tuple[np.ndarray, np.ndarray]:
        """C1, C2 of adding every variable to the family (Theorems 3.2 and 3.4), shape (N,).

        The ideal profile is the family's residual; ``y.z`` comes from the scatter matrix, so all
        N candidates cost O(N k). Entries for the child and its parents are NaN. With ``cols``
        (sorted candidate indices) only those columns, shape (R,), at O(R k) from :meth:`block`;
        with ``at`` as well (sorted positions among ``cols``) only those positions, the same bits
        as the full ranking's entries there (``y.z`` is formed whole, the rest is elementwise).
        """
        st = self._stats(child, parents)
        if yz is None:  # y.z over the columns (given by :meth:`similarities`)
            yz = self._yz(child, parents, st) if cols is None else self._yz_cols(child, parents, st, cols)
        zz = self._zz_rank if cols is None else self._zz_rank[cols]
        if at is not None:  # positions among the columns (variables when ``cols`` is None)
            yz, zz, cols = yz[at], zz[at], (at if cols is None else cols[at])
        m = self.n_samples
        c1 = self._mask_own(c1_from_stats(yz, st.rss, zz, m), child, parents, cols)
        c2 = self._mask_own(c2_from_stats(yz, st.rss, zz, m), child, parents, cols)
        return c1, c2

    def replace_similarity(
        self, child: int, parents: Parents, cols: np.ndarray | None = None, at: np.ndarray | None = None, yz=None
    ) -> tuple[np.ndarray, np.ndarray]:
        """C1, C2 of replacing parent ``parents[i]`` by each variable, shape (k, N) (with ``cols``:
        the candidate columns only, (k, R), at O(R k); with ``at`` too, those positions only, as
        in :meth:`add_similarity`).

        Uses the replace ideal profile ``y_i = y + alpha_i u_i`` (Definition 4.1) with all other
        parameters frozen, and measures the gain relative to the *current* family, so that Add and
        Replace candidates can share one queue (reference section 1.4)::

            C1_rep = (M / (2 y.y)) ((y_i.z)^2 / z.z - alpha_i^2 u_i.u_i)
            C2_rep = (M/2) log(y.y / (y_i.y_i - (y_i.z)^2 / z.z))

        Both are log-likelihoods at a feasible parameter point, hence lower bounds on the exact
        replace gain. Entries for the child and its current parents are NaN.
        """
        st = self._stats(child, parents)
        k = len(parents)
        n = (self.n_vars if cols is None else cols.size) if at is None else len(at)
        if k == 0:
            return np.zeros((0, n)), np.zeros((0, n))
        p = list(parents)
        if yz is None:
            yz = self._yz(child, parents, st) if cols is None else self._yz_cols(child, parents, st, cols)
        if cols is None:
            s, zz = self.scatter[p], self._zz_rank[None, :]
        else:
            s, zz = self.block(cols)[p], self._zz_rank[cols][None, :]
        if at is not None:
            s, yz, zz, cols = s[:, at], yz[at], zz[:, at], (at if cols is None else cols[at])
        alpha = st.alpha
        yy = st.rss
        # y_i.z = y.z + alpha_i S[u_i, z];  y_i.y_i = y.y + alpha_i^2 S[u_i, u_i]  (y is orthogonal to u_i)
        yiz = yz[None, :] + alpha[:, None] * s
        yiyi = yy + alpha**2 * self._diag[p]
        m = self.n_samples
        with np.errstate(divide="ignore", invalid="ignore"):
            fit_term = np.where(zz > 0, (yiz / np.sqrt(zz)) ** 2, 0.0)  # no overflow of (y_i.z)^2 at 1e+-100
        fit_term = np.minimum(fit_term, R2_CAP * yiyi[:, None])
        c1 = (m / (2.0 * yy)) * (fit_term - (alpha**2 * self._diag[p])[:, None])
        c2 = 0.5 * m * (np.log(yy) - np.log(yiyi[:, None] - fit_term))
        return self._mask_own(c1, child, parents, cols), self._mask_own(c2, child, parents, cols)

    # ------------------------------------------------------------ exact gains
    def exact_add(self, child: int, parents: Parents, candidates: np.ndarray) -> np.ndarray:
        """Exact log-likelihood gain (nats) of adding each candidate to the family.

        ``Delta = -(M/2) log(1 - (y.z)^2 / ((y.y)(z_perp.z_perp)))`` with ``z_perp.z_perp =
        S_zz - S_zU S_UU^{-1} S_Uz``; equal to the difference of two least-squares fits.
        """
        cand = np.asarray(candidates, dtype=np.intp)
        st = self._stats(child, parents)
        yz = self._yz_of(child, parents, st, cand)
        zz = self._diag[cand]  # a copy (fancy indexing)
        tiny = 1e-12 * zz
        if parents:
            s_uz = self.scatter[np.array(parents, dtype=np.intp)[:, None], cand]
            if st.chol is not None:
                w = st.chol @ s_uz
                zz -= np.einsum("ij,ij->j", w, w)
            else:
                s_uu = self.scatter[np.ix_(list(parents), list(parents))]
                zz -= np.einsum("ij,ij->j", s_uz, np.linalg.lstsq(s_uu, s_uz, rcond=None)[0])
        with np.errstate(divide="ignore", invalid="ignore"):
            # the cosine first: (y.z)^2 and (y.y)(z.z) over- or underflow on raw data around 1e+-100
            r2 = np.where(zz > tiny, (yz / (math.sqrt(st.rss) * np.sqrt(zz))) ** 2, 0.0)
        r2 = np.minimum(r2, R2_CAP)  # a square: never below 0
        m = self.n_samples
        gain = -0.5 * m * np.log1p(-r2)
        # below the variance floor the new family's log-likelihood is the one at the floored
        # variance (as in fit), which caps the gain; rss (1 - r2) falls as r2 grows, so the
        # largest r2 tells whether any candidate gets there
        floor_var = float(self._floor_var[child])
        r2_max = r2.max(initial=0.0)
        if r2_max >= R2_CAP or st.rss * (1.0 - r2_max) < floor_var * m:
            new_rss = np.where(r2 >= R2_CAP, 0.0, st.rss * (1.0 - r2))  # r2 at its cap: an exact fit
            low = new_rss < floor_var * m
            gain[low] = floored_loglik(new_rss[low], m, floor_var) - st.fit.loglik  # type: ignore[union-attr]
        return gain

    def delete_gains(self, child: int, parents: Parents) -> np.ndarray:
        """Exact log-likelihood change of deleting each current parent, shape (k,), without refits.

        Removing parent i raises the RSS by ``alpha_i^2 / (S_UU^{-1})_ii`` (the squared t-statistic
        identity of least squares), so all k deletions cost O(k^2) from the family's inverse Cholesky
        factor ``L^{-1}`` (``(S_UU^{-1})_ii = sum_r (L^{-1})_ri^2``). Collinear parents (no
        factor) fall back to refitting each reduced family.
        """
        st = self._stats(child, parents)
        if not parents or st.chol is None:
            return super().delete_gains(child, parents)
        s_xx = self.scatter[child, child]
        inv_diag = np.einsum("ri,ri->i", st.chol, st.chol)
        rss = st.raw_rss + st.alpha**2 / inv_diag
        rss = np.where(rss < 64.0 * np.finfo(float).eps * s_xx, 0.0, rss)  # as in a refit: an exact fit
        return floored_loglik(rss, self.n_samples, float(self._floor_var[child])) - st.fit.loglik  # type: ignore[union-attr]

    def exact_add_many(self, requests: list[tuple[int, Parents, np.ndarray]]) -> list[np.ndarray]:
        """:meth:`exact_add` for several (child, parents, candidates) requests."""
        return [self.exact_add(c, p, idx) for c, p, idx in requests]

    def ideal_profile(self, values: np.ndarray, child: int, parents: Parents) -> np.ndarray:
        """The family's ideal profile on ``values`` (the training data): its residual (Sec. 3.2)."""
        params = self.fit(child, parents).params
        return values[:, child] - values[:, list(parents)] @ np.asarray(params["coefficients"]) - params["intercept"]


def linear_prediction(params: dict, u: np.ndarray) -> np.ndarray:
    """The family's mean ``theta_0 + U alpha`` (JMLR 2007 section 3.2) under fitted ``params``."""
    return float(params["intercept"]) + parent_sum(params, u)


def linear_family_loglik(params: dict, x: np.ndarray, u: np.ndarray) -> float:
    """Log-likelihood (nats) of ``x`` given parent values ``u`` under fixed linear-Gaussian ``params``.

    Used to evaluate a learned network on held-out data without refitting.
    """
    return gaussian_loglik(x, float(params["intercept"]) + parent_sum(params, u, len(x)), params["variance"])
