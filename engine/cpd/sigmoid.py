"""Sigmoid-Gaussian CPDs (JMLR 2007 eq. 4 and section 7).

``X = theta_1 * sigmoid(sum_i alpha_i u_i) + theta_0 + eps``, ``eps ~ N(0, sigma^2)``. There is no
bias inside the sigmoid (as in the paper); the only offsets are theta_0 and the scale theta_1
outside it. BIC dimension k + 3 (alphas, theta_0, theta_1, sigma^2).

Fitting (ML): the batched variable-projection Levenberg-Marquardt kernel of
:mod:`engine.cpd.sigmoid_fit`, over all the families of a request at once, run to first-order
optimality. Starts: the warm start (current alphas plus the ideal-parent estimate
alpha_z = (z*.y*)/(z*.z*) for the new parent), and where that gains nothing, or for a fit from
scratch, a linear start (least squares of the current ideal target logit(p) on the parents); the
better one is kept. A fit that ends nearly linear gets a steep second start (issue #14).

No-parent convention (reference 1.2, UNSPECIFIED in the paper). With no parents g is the constant
theta_1/2 + theta_0, so theta_0 and theta_1 are not identifiable; the ML fit is the mean and the
variance of X. For the ideal profile we fix ``theta_1 = 6 max|x - mean|`` and
``theta_0 = mean - theta_1/2``: the prediction stays the ML mean, every x lies strictly inside g's
image (theta_0, theta_0 + theta_1), and p = (x - theta_0)/theta_1 stays within (0.42, 0.58), where
the sigmoid is nearly linear, so that the linearization of Theorem 7.1 is accurate for root
families (with a tighter bracket, e.g. 2.2 max|x - mean|, the k1/k2 correction over-states every
root family's gains by tens of nats).

Ideal profile (Def 3.1): ``p = (x - theta_0)/theta_1`` clipped to ``[eps, 1 - eps]`` (the closest
point in g's image), ``y = logit(p) - U alpha``; weights ``g'(y) = theta_1 p (1 - p)``. C1/C2 use the
distorted profiles ``y* = y o g' + e``, ``z* = z o g'`` with the corrections of Theorem 7.1 (so that
candidates of different families are comparable), where ``e = x - x_g`` is the part of x outside
g's image that no parent can explain (0 inside; the paper's derivation assumes x - g(u, y) = 0)::

    C1 = (M/2) (1 - k1 sin^2(phi) / k2),   C2 = (M/2) log(k2 / (k1 sin^2(phi)))
    k1 = y*.y*,  k2 = current RSS

These are approximations (first-order Taylor expansion of g), not bounds. Replace = exact delete +
the add measures of the smaller family (see :meth:`SigmoidGaussianFamilies.replace_similarity`).
"""

from __future__ import annotations

import numpy as np

from ..exceptions import MissingValuesError
from .base import (
    VARIANCE_FLOOR,
    FamilyBase,
    FamilyFit,
    Parents,
    cache_entries,
    floored_loglik,
    gaussian_loglik,
    parent_sum,
)
from .sigmoid_fit import fit_sigmoid_batch, fit_sigmoid_starts, profile_rss_grad, sigmoid

__all__ = [
    "SigmoidGaussianFamilies",
    "fit_sigmoid_batch",
    "profile_rss_grad",
    "sigmoid",
    "sigmoid_family_loglik",
    "sigmoid_prediction",
    "P_EPS",
]

#: clipping of p = (x - theta_0)/theta_1 into the open image of the sigmoid
P_EPS = 1e-3


class _SigStats:
    """A cached family fit (final once stored) and its ideal-profile arrays (rebuilt on demand)."""

    __slots__ = ("child", "parents", "n_params", "alpha", "theta0", "theta1", "rss", "variance", "loglik", "_fit")
    __slots__ += ("ystar", "gprime", "y")

    def __init__(self, child, parents, n_params, alpha, theta0, theta1, rss, n_samples, floor_var):
        self.child, self.parents, self.n_params = child, parents, n_params
        rss = max(rss, 0.0)
        # the rankings' y.y stays positive; the likelihood is the exact one at the floored variance
        self.alpha, self.theta0, self.theta1, self.rss = alpha, theta0, theta1, max(rss, floor_var * n_samples)
        self.variance = max(rss / n_samples, floor_var)
        self.loglik = float(floored_loglik(rss, n_samples, floor_var))
        self._fit: FamilyFit | None = None
        self.ystar = self.gprime = self.y = None

    @property
    def fit(self) -> FamilyFit:
        """The fit as a :class:`FamilyFit` (built on first use: the search needs only loglik)."""
        if self._fit is None:
            self._fit = FamilyFit(
                child=self.child,
                parents=self.parents,
                loglik=self.loglik,
                n_params=self.n_params,
                params={
                    "theta0": self.theta0,
                    "theta1": self.theta1,
                    "coefficients": [float(a) for a in self.alpha],
                    "variance": self.variance,
                },
            )
        return self._fit


class SigmoidGaussianFamilies(FamilyBase):
    """Sigmoid-Gaussian family fits, distorted C1/C2 rankings and exact gains for one data set.

    Parameters
    ----------
    values : ndarray (M, N)
        Complete data.
    max_iter : int
        Levenberg-Marquardt iterations per fit.
    correction : bool, default True
        Apply Theorem 7.1's k1/k2 correction (the paper). With False, C1/C2 are the distorted
        measures with k1 taken equal to the current RSS k2, i.e. the explained fraction of the
        linearized residual applied to the actual one. Measured here (benchmarks/RESULTS.md):
        the correction over-estimates gains when the sigmoid saturates (k1 < k2), which hurts
        comparisons across families; without it C2 tracks the exact gain much more closely.
    """

    cpd = "sigmoid"
    centred = False

    def __init__(self, values: np.ndarray, *, max_iter: int = 200, correction: bool = True) -> None:
        values = np.asarray(values, dtype=np.float64)
        if np.isnan(values).any():
            raise MissingValuesError("the data has missing cells; the sigmoid scorer needs complete data.")
        self.values = values
        self.n_samples, self.n_vars = values.shape
        self.max_iter = max_iter
        self.correction = bool(correction)
        self._cache: dict[tuple[int, Parents], _SigStats] = {}
        self.cache_size = cache_entries(self.n_vars)
        #: each child's variance floor (VARIANCE_FLOOR times its variance, as for linear families)
        self._floor_var = VARIANCE_FLOOR * np.maximum(values.var(axis=0), 1e-300)
        self._padded = np.column_stack([values, np.zeros(self.n_samples)])
        mu = values.mean(axis=0)
        t1 = 6.0 * np.maximum(np.max(np.abs(values - mu), axis=0), 1e-12)
        p = np.clip((values - (mu - t1 / 2.0)) / t1, P_EPS, 1 - P_EPS)
        self._root_logit = np.log(p / (1 - p))
        self.n_fits = 0  # single-family optimizations run (batched ones count each problem)
        self._n_profiles = 0

    @staticmethod
    def n_params(n_parents: int) -> int:
        """BIC dimension: k alphas + theta_0 + theta_1 + variance = k + 3 for k >= 1.

        Without parents g is the constant theta_0 + theta_1/2: only that constant and the
        variance are free (identifiable), so a root counts 2 parameters, like a linear root."""
        return n_parents + 3 if n_parents > 0 else 2

    # ---------------------------------------------------------------- fitting
    def _fit_problems(self, children: np.ndarray, idx: np.ndarray, starts: list[np.ndarray]):
        """Fit B families (any children, any parent counts) as one batch.

        ``idx`` (B, p_max) holds each family's parents, padded with N: the padding selects a
        column of zeros whose alpha stays 0 (its gradient is 0). All starts of all problems run
        together and the best start per problem is kept, weak fits with a steep second start
        (:func:`~engine.cpd.sigmoid_fit.fit_sigmoid_starts`). ``starts`` are arrays
        (B, p <= p_max) aligned with ``idx``. Returns (alpha (B, p_max), theta0, theta1, rss);
        nothing is cached here (see :meth:`_commit`).
        """
        b, p_max = idx.shape
        u = self._padded[:, idx].transpose(1, 0, 2)  # (B, M, p_max)
        x = self.values[:, children].T  # (B, M)
        a0 = np.zeros((len(starts), b, p_max))
        for s, a in enumerate(starts):
            a0[s, :, : a.shape[1]] = a[:, :p_max]
        alpha, t0, t1, rss = fit_sigmoid_starts(x, u, a0, max_iter=self.max_iter)
        self.n_fits += b
        return alpha, t0, t1, np.maximum(rss, 0.0)

    def _commit(self, children, idx, alpha, t0, t1, rss) -> np.ndarray:
        """Cache the fits of families not cached yet; return every family's *cached* log-likelihood.

        The first fit stored for a family is final. Exact gains are always differences of cached
        fits, so the gain of a move equals the change of the network score when it is applied,
        and the search cannot cycle on fits that improved after a gain was computed."""
        order = np.argsort(idx, axis=1, kind="stable")
        rows = np.take_along_axis(idx, order, axis=1).tolist()  # sorted parents, padding last
        alpha = np.take_along_axis(alpha, order, axis=1)
        sizes = (idx < self.n_vars).sum(axis=1).tolist()
        out = np.empty(len(rows))
        for j, (child, row, k) in enumerate(zip(children.tolist(), rows, sizes, strict=True)):
            key = tuple(row[:k])
            st = self._cache.get((child, key))
            if st is None:
                st = self._store(child, key, alpha[j, :k], float(t0[j]), float(t1[j]), float(rss[j]))
            out[j] = st.loglik
        return out

    def _store(self, child, parents, alpha, theta0, theta1, rss) -> _SigStats:
        alpha = np.array(alpha, dtype=float)
        floor_var = float(self._floor_var[child])
        st = _SigStats(
            child, parents, self.n_params(len(parents)), alpha, theta0, theta1, rss, self.n_samples, floor_var
        )
        self._cache[(child, parents)] = st
        self._n_profiles += 1
        if self._n_profiles > self.cache_size:
            # fits are never dropped (they must stay fixed); only the ideal-profile arrays are
            self._n_profiles = 0
            for old in self._cache.values():
                old.y = old.gprime = old.ystar = None
        return st

    def _linear_start(self, child, parent_sets) -> np.ndarray:
        """Least squares of the root-convention ideal target logit(p) on the parents.

        ``child`` is one index or an array with one child per problem; ``parent_sets`` an index
        matrix (B, p) (padding index N selects the zero column)."""
        children = np.broadcast_to(np.asarray(child, dtype=np.intp), (parent_sets.shape[0],))
        target = self._root_logit[:, children].T  # (B, M)
        u = self._padded[:, parent_sets].transpose(1, 0, 2)
        gram = np.einsum("bmp,bmq->bpq", u, u) + 1e-9 * np.eye(parent_sets.shape[1])
        rhs = np.einsum("bmp,bm->bp", u, target)
        return np.linalg.solve(gram, rhs[:, :, None])[:, :, 0]

    def _root_theta(self, child: int) -> tuple[float, float]:
        x = self.values[:, child]
        mu = x.mean()
        t1 = 6.0 * max(np.max(np.abs(x - mu)), 1e-12)
        return mu - t1 / 2.0, t1

    def _stats(self, child: int, parents: Parents) -> _SigStats:
        key = (child, parents)
        st = self._cache.get(key)
        if st is not None:
            return st
        x = self.values[:, child]
        if not parents:
            t0, t1 = self._root_theta(child)
            rss = float(((x - x.mean()) ** 2).sum())
            return self._store(child, parents, np.zeros(0), t0, t1, rss)
        ps = np.array([parents], dtype=np.intp)
        starts = [self._linear_start(child, ps)]
        prev = self._cache.get((child, parents[:-1]))
        if prev is not None:  # warm start from the family without the last parent
            starts.append(np.append(prev.alpha, 0.0)[None, :])
        children = np.array([child])
        self._commit(children, ps, *self._fit_problems(children, ps, starts))
        return self._cache[key]

    def fit(self, child: int, parents: Parents) -> FamilyFit:
        """ML fit of the family (cached)."""
        return self._stats(child, parents).fit  # type: ignore[return-value]

    # ---------------------------------------------------------- ideal profile
    def _ideal(self, child: int, parents: Parents, st: _SigStats):
        if st.ystar is None:
            x = self.values[:, child]
            s = self.values[:, list(parents)] @ st.alpha if parents else np.zeros(self.n_samples)
            p = np.clip((x - st.theta0) / st.theta1, P_EPS, 1 - P_EPS) if st.theta1 != 0 else np.full_like(x, 0.5)
            y = np.log(p / (1 - p)) - s
            gp = st.theta1 * p * (1 - p)
            # x - x_g: what no parent can explain where x lies outside g's image (0 inside)
            e = x - (st.theta0 + st.theta1 * p)
            st.y, st.gprime, st.ystar = y, gp, y * gp + e
        return st.y, st.gprime, st.ystar

    def ideal_profile(self, values: np.ndarray, child: int, parents: Parents) -> np.ndarray:
        """Ideal parent profile y (Def 3.1 by inverting g, clipped to g's image)."""
        return self._ideal(child, parents, self._stats(child, parents))[0].copy()

    def ideal_weights(self, child: int, parents: Parents) -> np.ndarray:
        """The weights g'(y) that distort the geometry (Theorem 7.1)."""
        return self._ideal(child, parents, self._stats(child, parents))[1].copy()

    def _measures(self, ystar_dot_z, ystar_sq, zstar_sq, k2):
        m = self.n_samples
        with np.errstate(divide="ignore", invalid="ignore"):
            r2 = np.where(zstar_sq > 0, ystar_dot_z**2 / (np.maximum(ystar_sq, 1e-300) * zstar_sq), 0.0)
        sin2 = np.clip(1.0 - r2, 1e-12, 1.0)
        k1 = ystar_sq if self.correction else k2
        c1 = 0.5 * m * (1.0 - k1 * sin2 / k2)
        c2 = 0.5 * m * np.log(k2 / np.maximum(k1 * sin2, 1e-300))
        return c1, c2

    def add_similarity(self, child: int, parents: Parents) -> tuple[np.ndarray, np.ndarray]:
        """Distorted C1, C2 with the k1/k2 correction (Theorem 7.1) for every candidate, shape (N,)."""
        st = self._stats(child, parents)
        _, gp, ystar = self._ideal(child, parents, st)
        zstar = self.values * gp[:, None]
        yz = ystar @ zstar
        zz = np.einsum("mj,mj->j", zstar, zstar)
        c1, c2 = self._measures(yz, float(ystar @ ystar), zz, st.rss)
        c1[child] = c2[child] = np.nan
        if parents:
            c1[list(parents)] = c2[list(parents)] = np.nan
        return c1, c2

    def replace_similarity(self, child: int, parents: Parents) -> tuple[np.ndarray, np.ndarray]:
        """C1, C2 of replacing each parent, relative to the current fit, shape (k, N).

        Replacing U_i = deleting it (its exact gain is known from the family fits) and adding a
        candidate to the smaller family, whose own ideal profile and weights give the Theorem 7.1
        measures. (The paper leaves the non-linear Replace as "minor modifications" of the add
        case; linearizing around the replace ideal profile y + alpha_i u_i of Def 4.1 instead is
        far from the fitted point, since it removes a whole parent's input, and grossly
        over-estimates the gain when the sigmoid saturates.)
        """
        k = len(parents)
        n = self.n_vars
        if k == 0:
            return np.zeros((0, n)), np.zeros((0, n))
        cur = self._stats(child, parents).loglik
        self.delete_gains(child, parents)  # fits every reduced family in one batch
        rows1, rows2 = [], []
        for i in range(k):
            reduced = parents[:i] + parents[i + 1 :]
            base = self._stats(child, reduced).loglik - cur
            a1, a2 = self.add_similarity(child, reduced)
            rows1.append(base + a1)
            rows2.append(base + a2)
        c1, c2 = np.array(rows1), np.array(rows2)
        c1[:, child] = c2[:, child] = np.nan
        c1[:, list(parents)] = c2[:, list(parents)] = np.nan
        return c1, c2

    # ------------------------------------------------------------ exact gains
    def exact_add_many(self, requests: list[tuple[int, Parents, np.ndarray]]) -> list[np.ndarray]:
        """Exact gains for several (child, parents, candidates) requests, all fitted in one batch.

        Each candidate z is warm-started from the current alphas plus the ideal-parent estimate
        alpha_z = (z*.y*)/(z*.z*); problems whose warm-started fit ends no better than their
        smaller family (e.g. a warm start stuck on a step function) are refitted from the nested
        and linear starts.
        """
        sizes = [np.asarray(cand).size for _, _, cand in requests]
        live = [(c, ps, np.asarray(cand, dtype=np.intp)) for c, ps, cand in requests if np.asarray(cand).size]
        if not live:
            return [np.zeros(0) for _ in requests]
        p_max = max(len(ps) for _, ps, _ in live) + 1
        b = sum(sizes)
        idx = np.full((b, p_max), self.n_vars, dtype=np.intp)
        warm = np.zeros((b, p_max))
        children = np.empty(b, dtype=np.intp)
        width = np.empty(b, dtype=np.intp)  # parents of each new family
        base_rss, base_ll = np.empty(b), np.empty(b)
        pos = 0
        for child, parents, cand in live:
            st = self._stats(child, parents)
            _, gp, ystar = self._ideal(child, parents, st)
            zstar = self.values[:, cand] * gp[:, None]
            zz = np.einsum("mj,mj->j", zstar, zstar)
            rows = slice(pos, pos + cand.size)
            k = len(parents)
            idx[rows, :k] = parents
            idx[rows, k] = cand
            warm[rows, :k] = st.alpha
            warm[rows, k] = np.where(zz > 0, (ystar @ zstar) / np.maximum(zz, 1e-300), 0.0)
            children[rows], width[rows], base_rss[rows], base_ll[rows] = child, k + 1, st.rss, st.loglik
            pos += cand.size
        alpha, t0, t1, rss = self._fit_problems(children, idx, [warm])
        bad = np.flatnonzero(rss >= base_rss * (1.0 - 1e-12))  # no better than without the candidate
        if bad.size:
            nested = warm[bad].copy()
            nested[np.arange(bad.size), width[bad] - 1] = 1e-3
            lin = self._linear_start(children[bad], idx[bad])
            a_b, t0_b, t1_b, rss_b = self._fit_problems(children[bad], idx[bad], [nested, lin])
            won = rss_b < rss[bad]
            tgt = bad[won]
            alpha[tgt], t0[tgt], t1[tgt], rss[tgt] = a_b[won], t0_b[won], t1_b[won], rss_b[won]
        gains = self._commit(children, idx, alpha, t0, t1, rss) - base_ll
        out, pos = [], 0
        for n in sizes:
            out.append(gains[pos : pos + n])
            pos += n
        return out

    def delete_gains(self, child: int, parents: Parents) -> np.ndarray:
        """Exact log-likelihood change of deleting each current parent, shape (k,).

        The reduced families not yet fitted are fitted in one batch, warm-started from the
        current alphas without the deleted parent."""
        k = len(parents)
        if k == 0:
            return np.zeros(0)
        st = self._stats(child, parents)
        reduced = [parents[:i] + parents[i + 1 :] for i in range(k)]
        todo = [i for i in range(k) if reduced[i] and (child, reduced[i]) not in self._cache]
        if todo:
            ps = np.array([reduced[i] for i in todo], dtype=np.intp)
            warm = np.array([np.delete(st.alpha, i) for i in todo])
            children = np.full(len(todo), child, dtype=np.intp)
            fits = self._fit_problems(children, ps, [warm, self._linear_start(child, ps)])
            self._commit(children, ps, *fits)
        return np.array([self._stats(child, r).loglik - st.loglik for r in reduced])


def sigmoid_prediction(params: dict, u: np.ndarray) -> np.ndarray:
    """The family's mean ``theta_0 + theta_1 sigmoid(U alpha)`` (JMLR 2007 eq. 4) under fitted ``params``.

    Without parents it is the constant ``theta_0 + theta_1 / 2``."""
    return _mean(params, parent_sum(params, u))


def sigmoid_family_loglik(params: dict, x: np.ndarray, u: np.ndarray) -> float:
    """Log-likelihood (nats) of ``x`` given parents ``u`` under fixed sigmoid-Gaussian ``params``."""
    return gaussian_loglik(x, _mean(params, parent_sum(params, u, len(x))), params["variance"])


def _mean(params: dict, s: np.ndarray) -> np.ndarray:
    return float(params["theta0"]) + float(params["theta1"]) * sigmoid(s)
