"""Multiplicative-noise CPDs (JMLR 2007 section 8, eq. 16).

``X = g(u) (1 + eps)``, ``eps ~ N(0, sigma^2)``, i.e. ``q(x; g, sigma) = N(x; g, (g sigma)^2)``, with
the positive, invertible log-linear link ``g(u) = exp(theta_0 + sum_i alpha_i u_i)`` (the paper
leaves g open and only requires g > 0). The data must be positive. BIC dimension k + 2
(alphas, theta_0, sigma).

Fitting (ML). With ``r = x / g - 1`` the log-likelihood is
``-(M/2) log(2 pi sigma^2) - sum log g - sum r^2 / (2 sigma^2)``; sigma^2 = mean(r^2) is profiled
out and ``beta = (theta_0, alpha)`` is found by a batched, damped Gauss-Newton iteration with the
analytic gradient ``sum_m d_m [1 - (M/S) r_m (r_m + 1)]`` (``d_m = (1, u_m)``, ``S = sum r^2``) and
the positive-definite curvature ``(M/S) sum (r_m + 1)^2 d_m d_m^T``.

Generalized ideal parent (Def 8.1, eq. 22): ``g(u, y) = c_sigma x`` with
``c_sigma = (sqrt(1 + 4 sigma^2) - 1) / (2 sigma^2)`` maximizes q at every instance, so
``y = log(c_sigma x) - theta_0 - U alpha``. With this link ``g'/g = 1``, so the inner product of
Theorem 8.2 is ``K(a, b) = k_sigma a.b`` with ``k_sigma = 1 + 1/(sigma^2 c_sigma^2)``, and

    C1 = log P(x | u, y) - log P(x | u) - K(y, y)/2 + K(y, z)^2 / (2 K(z, z))

with sigma frozen (the paper's sigma' read as sigma) and theta_0 free together with alpha_z
(profiles centred, as for the linear CPD; with positive data the raw means would otherwise swamp
the measure). There is no C2 for this CPD (section 8.2:
optimizing sigma and alpha_z jointly depends on q); :meth:`add_similarity` returns C1 in both
slots, so the search ranks by C1 whatever ``measure`` says, and the app says so.
"""

from __future__ import annotations

import math

import numpy as np

from ..exceptions import DataValidationError, MissingValuesError
from ..listing import first_few
from .base import LOG_2PI, FamilyBase, FamilyFit, Parents, fit_in_chunks, parent_sum

__all__ = [
    "MultiplicativeFamilies",
    "fit_multiplicative_batch",
    "multiplicative_family_loglik",
    "multiplicative_prediction",
    "profile_nll_grad",
    "c_sigma",
]


def c_sigma(sigma2: float) -> float:
    """The factor of eq. (22): g at the ideal parent is ``c_sigma * x``."""
    return (math.sqrt(1.0 + 4.0 * sigma2) - 1.0) / (2.0 * sigma2)


def _objective(x, d, beta):
    """Negative profile log-likelihood pieces for a batch: eta, r, S, f (up to constants)."""
    eta = np.einsum("bmp,bp->bm", d, beta)
    r = x * np.exp(-eta) - 1.0
    s = np.einsum("bm,bm->b", r, r)
    m = x.shape[-1]
    f = 0.5 * m * np.log(np.maximum(s / m, 1e-300)) + eta.sum(axis=-1)
    return eta, r, s, f


def _gradient(d, r, s):
    """Gradient of the negative profile log-likelihood: sum_m d_m [1 - (M/S) r_m (r_m + 1)]."""
    m = r.shape[-1]
    return np.einsum("bmp,bm->bp", d, 1.0 - (m / s)[:, None] * r * (r + 1.0))


def profile_nll_grad(x: np.ndarray, u: np.ndarray, beta: np.ndarray) -> tuple[float, np.ndarray]:
    """Negative profile log-likelihood (up to constants) of one family and its analytic gradient."""
    x2 = np.asarray(x, dtype=float)[None, :]
    u2 = np.asarray(u, dtype=float).reshape(1, x2.shape[1], -1)
    d = np.concatenate([np.ones((1, x2.shape[1], 1)), u2], axis=2)
    _, r, s, f = _objective(x2, d, np.asarray(beta, dtype=float)[None, :])
    return float(f[0]), _gradient(d, r, s)[0]


def fit_multiplicative_batch(
    x: np.ndarray, u: np.ndarray, beta0: np.ndarray, *, max_iter: int = 60, tol: float = 1e-10
):
    """Fit B multiplicative families at once. ``x`` (B, M) positive, ``u`` (B, M, k), ``beta0``
    (B, k + 1) = (theta_0, alphas). Returns beta (B, k+1), sigma2 (B,), loglik (B,)."""
    b, m, k = u.shape
    d = np.concatenate([np.ones((b, m, 1)), u], axis=2)
    beta = np.array(beta0, dtype=float)
    eta, r, s, f = _objective(x, d, beta)
    lam = np.full(b, 1e-3)
    active = np.ones(b, dtype=bool)
    eye = np.eye(k + 1)
    for _ in range(max_iter):
        if not active.any():
            break
        i = np.flatnonzero(active)
        w = (m / s[i])[:, None]
        grad = _gradient(d[i], r[i], s[i])
        curv = np.einsum("bmp,bmq,bm->bpq", d[i], d[i], w * (r[i] + 1.0) ** 2)
        diag = np.einsum("bpp->bp", curv)
        step = np.linalg.solve(
            curv + lam[i][:, None, None] * (diag[:, :, None] * eye + 1e-12 * eye), -grad[:, :, None]
        )[:, :, 0]
        trial = beta[i] + step
        eta2, r2, s2, f2 = _objective(x[i], d[i], trial)
        better = f2 < f[i]
        acc = i[better]
        beta[acc], eta[acc], r[acc], s[acc], f[acc] = trial[better], eta2[better], r2[better], s2[better], f2[better]
        lam[acc] = np.maximum(lam[acc] / 3.0, 1e-12)
        lam[i[~better]] *= 4.0
        predicted = -np.einsum("bp,bp->b", grad, step)
        done = (predicted < tol * (1.0 + np.abs(f[i]))) | (lam[i] > 1e8)
        active[i[done]] = False
    sigma2 = s / m
    loglik = -0.5 * m * (LOG_2PI + np.log(sigma2) + 1.0) - eta.sum(axis=-1)
    return beta, sigma2, loglik


class _MulStats:
    __slots__ = ("fit", "beta", "sigma2", "y")

    def __init__(self, fit, beta, sigma2):
        self.fit, self.beta, self.sigma2, self.y = fit, beta, sigma2, None


class MultiplicativeFamilies(FamilyBase):
    """Multiplicative-noise family fits, C1 rankings (Theorem 8.2) and exact gains.

    Parameters
    ----------
    values : ndarray (M, N)
        Complete, strictly positive data (not standardized: scale only if needed).
    """

    cpd = "multiplicative"
    centred = False

    def __init__(self, values: np.ndarray, *, names=None, max_iter: int = 60) -> None:
        values = np.asarray(values, dtype=np.float64)
        if np.isnan(values).any():
            raise MissingValuesError("the data has missing cells; the multiplicative scorer needs complete data.")
        bad = np.flatnonzero((values <= 0).any(axis=0))
        if bad.size:
            label = first_few(
                [str(names[i]) if names is not None else f"column {i + 1}" for i in bad[:6]], total=bad.size
            )
            standardized = bool(
                np.allclose(values.mean(axis=0), 0.0, atol=1e-8) and np.allclose(values.std(axis=0), 1.0, atol=1e-6)
            )
            fix = (
                "The data were standardized (mean 0): load them without standardization (CLI: "
                "--no-standardize; in the app untick 'Standardize')."
                if standardized
                else "Shift or transform those variables so that every value is positive."
            )
            raise DataValidationError(
                f"the multiplicative-noise CPD needs strictly positive data; {label} have values <= 0. {fix}"
            )
        self.values = values
        self.logs = np.log(values)
        self._padded = np.column_stack([values, np.zeros(values.shape[0])])  # index N = a zero column
        self.n_samples, self.n_vars = values.shape
        self.max_iter = max_iter
        self._cache: dict[tuple[int, Parents], _MulStats] = {}
        self.n_fits = 0

    @staticmethod
    def n_params(n_parents: int) -> int:
        """BIC dimension: k alphas + theta_0 + sigma = k + 2."""
        return n_parents + 2

    def _fit_problems(self, children: np.ndarray, plists: list[tuple[int, ...]], beta0: np.ndarray):
        b = len(plists)
        k_max = max(len(p) for p in plists)
        idx = np.full((b, max(k_max, 1)), -1, dtype=np.intp)
        for j, ps in enumerate(plists):
            idx[j, : len(ps)] = ps
        u = self._padded[:, idx].transpose(1, 0, 2)[:, :, :k_max]
        x = self.values[:, children].T
        beta0 = np.pad(beta0, ((0, 0), (0, max(0, k_max + 1 - beta0.shape[1]))))[:, : k_max + 1]
        self.n_fits += b
        return fit_in_chunks(fit_multiplicative_batch, x, u, beta0, n_params=k_max + 1, max_iter=self.max_iter)

    def _commit(self, children, plists, beta, sigma2, loglik) -> np.ndarray:
        out = np.empty(len(plists))
        for j, ps in enumerate(plists):
            order = np.argsort(ps)
            key = tuple(int(ps[o]) for o in order)
            child = int(children[j])
            st = self._cache.get((child, key))
            if st is None:
                bj = np.concatenate([[beta[j, 0]], beta[j, 1 : len(ps) + 1][order]])
                fit = FamilyFit(
                    child,
                    key,
                    float(loglik[j]),
                    self.n_params(len(key)),
                    {
                        "theta0": float(bj[0]),
                        "coefficients": [float(a) for a in bj[1:]],
                        "variance": float(sigma2[j]),
                    },
                )
                st = self._cache[(child, key)] = _MulStats(fit, bj, float(sigma2[j]))
            out[j] = st.fit.loglik
        return out

    def _start(self, children, plists) -> np.ndarray:
        """Least squares of log x on [1, U] (exact when sigma -> 0)."""
        k_max = max(len(p) for p in plists)
        out = np.zeros((len(plists), k_max + 1))
        for j, ps in enumerate(plists):
            d = np.column_stack([np.ones(self.n_samples), self.values[:, list(ps)]])
            out[j, : len(ps) + 1] = np.linalg.lstsq(d, self.logs[:, children[j]], rcond=None)[0]
        return out

    def _stats(self, child: int, parents: Parents) -> _MulStats:
        st = self._cache.get((child, parents))
        if st is None:
            ch = np.array([child])
            beta, s2, ll = self._fit_problems(ch, [parents], self._start(ch, [parents]))
            self._commit(ch, [parents], beta, s2, ll)
            st = self._cache[(child, parents)]
        return st

    def fit(self, child: int, parents: Parents) -> FamilyFit:
        return self._stats(child, parents).fit

    def _ideal(self, child: int, parents: Parents, st: _MulStats) -> np.ndarray:
        if st.y is None:
            c = c_sigma(st.sigma2)
            eta = st.beta[0] + (self.values[:, list(parents)] @ st.beta[1:] if parents else 0.0)
            st.y = np.log(c * self.values[:, child]) - eta
        return st.y

    def ideal_profile(self, values: np.ndarray, child: int, parents: Parents) -> np.ndarray:
        """Generalized ideal parent (Def 8.1, eq. 22)."""
        return self._ideal(child, parents, self._stats(child, parents)).copy()

    def _c1(self, st: _MulStats, child: int, y: np.ndarray, z: np.ndarray) -> np.ndarray:
        m = self.n_samples
        s2 = st.sigma2
        c = c_sigma(s2)
        k_sig = 1.0 + 1.0 / (s2 * c * c)
        x = self.values[:, child]
        # log P(x | u, y): every instance at g = c x
        at_ideal = (
            -0.5 * m * (LOG_2PI + math.log(s2)) - float(np.log(c * x).sum()) - m * (1.0 / c - 1.0) ** 2 / (2 * s2)
        )
        # theta_0 moves with alpha_z (centred profiles): with positive data the raw profiles'
        # means would dominate the measure (the centring choice of engine.ideal)
        y = y - y.mean()
        z = z - z.mean(axis=0)
        yz = y @ z
        zz = np.einsum("m...,m...->...", z, z)
        with np.errstate(divide="ignore", invalid="ignore"):
            fit_term = np.where(zz > 0, yz**2 / zz, 0.0)
        return at_ideal - st.fit.loglik - 0.5 * k_sig * (float(y @ y) - fit_term)

    def add_similarity(self, child: int, parents: Parents):
        """C1 of Theorem 8.2 for every candidate (returned twice: there is no C2)."""
        st = self._stats(child, parents)
        c1 = self._c1(st, child, self._ideal(child, parents, st), self.values)
        c1[child] = np.nan
        if parents:
            c1[list(parents)] = np.nan
        return c1, c1.copy()

    def replace_similarity(self, child: int, parents: Parents):
        k = len(parents)
        n = self.n_vars
        if k == 0:
            return np.zeros((0, n)), np.zeros((0, n))
        st = self._stats(child, parents)
        y = self._ideal(child, parents, st)
        rows = []
        for i in range(k):
            yi = y + st.beta[1 + i] * self.values[:, parents[i]]
            row = self._c1(st, child, yi, self.values)
            rows.append(row)
        c1 = np.array(rows)
        c1[:, child] = np.nan
        c1[:, list(parents)] = np.nan
        return c1, c1.copy()

    def exact_add_many(self, requests):
        children, plists, starts, base, sizes = [], [], [], [], []
        for child, parents, cand in requests:
            cand = np.asarray(cand, dtype=np.intp)
            sizes.append(cand.size)
            if not cand.size:
                continue
            st = self._stats(child, parents)
            y = self._ideal(child, parents, st)
            z = self.values[:, cand] - self.values[:, cand].mean(axis=0)
            zz = np.einsum("mj,mj->j", z, z)
            alpha_z = np.where(zz > 0, (y @ z) / zz, 0.0)
            means = self.values[:, cand].mean(axis=0)
            for zi, az, mu in zip(cand, alpha_z, means, strict=True):
                children.append(child)
                plists.append(tuple(parents) + (int(zi),))
                start = np.append(st.beta, az)
                start[0] -= az * mu  # keep the mean prediction where it was
                starts.append(start)
                base.append(st.fit.loglik)
        if not children:
            return [np.zeros(0) for _ in requests]
        ch = np.array(children, dtype=np.intp)
        k_max = max(len(p) for p in plists)
        beta0 = np.zeros((len(plists), k_max + 1))
        for j, row in enumerate(starts):
            beta0[j, : row.size] = row
        beta, s2, ll = self._fit_problems(ch, plists, beta0)
        ll = self._commit(ch, plists, beta, s2, ll)
        gains = ll - np.array(base)
        out, pos = [], 0
        for n in sizes:
            out.append(gains[pos : pos + n])
            pos += n
        return out


def multiplicative_prediction(params: dict, u: np.ndarray) -> np.ndarray:
    """The family's mean ``g(u) = exp(theta_0 + U alpha)`` (JMLR 2007 eq. 16, log-linear link)."""
    return np.exp(float(params["theta0"]) + parent_sum(params, u))


def multiplicative_family_loglik(params: dict, x: np.ndarray, u: np.ndarray) -> float:
    """Log-likelihood of positive ``x`` given parents ``u`` under fixed multiplicative ``params`` (eq. 16)."""
    eta = float(params["theta0"]) + parent_sum(params, u, len(x))
    g = np.exp(eta)
    s2 = float(params["variance"])
    r = np.asarray(x, dtype=float) / g - 1.0
    return float(-0.5 * len(x) * (LOG_2PI + math.log(s2)) - np.sum(eta) - r @ r / (2 * s2))
