"""Batched maximum-likelihood fitting of sigmoid-Gaussian families (JMLR 2007 eq. 4).

``X = theta_1 * sigmoid(sum_i alpha_i u_i) + theta_0 + eps``. For fixed alpha, theta_0 and theta_1
are the least-squares coefficients of x on [1, h] with h = sigmoid(U alpha), and sigma^2 = RSS / M;
so only alpha is optimized, by Levenberg-Marquardt on the variable-projection residual
(Golub-Pereyra with Kaufman's Jacobian ``J = -P_perp (theta_1 h' o U)``, P_perp projecting out
span{1, h}). The Jacobian is analytic and the fits of many families run as one vectorized batch
(B problems x M instances x p parameters), so scoring all N candidates of a family costs a handful
of batched numpy passes, not N optimizer calls. The family model that chooses the starts and
caches the fits is :class:`engine.cpd.sigmoid.SigmoidGaussianFamilies`.
"""

from __future__ import annotations

import numpy as np

from .base import fit_in_chunks

__all__ = [
    "GTOL",
    "fit_sigmoid_batch",
    "fit_sigmoid_starts",
    "linear_limit",
    "optimality",
    "profile_rss_grad",
    "sigmoid",
]


def sigmoid(s: np.ndarray) -> np.ndarray:
    """Numerically stable logistic function."""
    return 0.5 * (1.0 + np.tanh(0.5 * s))


def _state(u: np.ndarray, xc: np.ndarray, a: np.ndarray):
    """Profiled fit of a batch at alphas ``a`` (u: (B, M, p), xc: centred child values (B, M)).

    Returns ``t = tanh(U alpha / 2)`` (so h = sigmoid(U alpha) = (1 + t)/2 and h' = (1 - t^2)/4),
    the centred hc = h - mean(h), hh = hc.hc, the least-squares theta_1 = hc.x / hc.hc, the
    residuals r = x - theta_0 - theta_1 h and the RSS. theta_0 = mean(x) - theta_1 mean(h) is
    implied (x is centred), so it is only formed once a fit is final."""
    m = u.shape[1]
    t = np.tanh(0.5 * np.matmul(u, a[:, :, None])[:, :, 0])
    hc = 0.5 * (t - (np.add.reduce(t, axis=1) * (1.0 / m))[:, None])
    hh = np.einsum("bm,bm->b", hc, hc)
    t1 = np.einsum("bm,bm->b", hc, xc)
    ok = hh > 1e-300
    t1 = np.where(ok, t1 / np.where(ok, hh, 1.0), 0.0)
    r = xc - t1[:, None] * hc
    return t, hc, hh, t1, r, np.einsum("bm,bm->b", r, r)


def _normal_equations(u, t, hc, hh, theta1, r):
    """Gauss-Newton matrix and gradient of the variable-projection problem, shape (B, p, p), (B, p).

    With ``g = theta_1 h' o U`` (the derivative of the fit in alpha) and P_perp the projection
    off span{1, h}, Kaufman's Jacobian is ``-G`` with ``G = P_perp g``, so ``A = G'G`` and
    ``grad = G'r`` (the gradient of the profiled RSS(alpha) is -2 grad). G is formed explicitly:
    near the linear regime (small U alpha) theta_1 grows like 1/alpha, and the shortcut
    ``A = g'g - (g'1)(g'1)'/M - (g'hc)(g'hc)'/hh`` would cancel to rounding noise.
    """
    b, m, p = u.shape
    g = ((0.25 * theta1)[:, None] * (1.0 - t * t))[:, :, None] * u
    # column sums of g and its products with hc in one batched product
    c = np.matmul(np.stack((np.ones((b, m)), hc), axis=1), g)  # (B, 2, p)
    g -= (c[:, 0, :] * (1.0 / m))[:, None, :]
    g -= hc[:, :, None] * (c[:, 1, :] / np.maximum(hh, 1e-300)[:, None])[:, None, :]
    gt = g.transpose(0, 2, 1)
    return np.matmul(gt, g), np.matmul(gt, r[:, :, None])[:, :, 0]


#: first-order optimality tolerance of a fit: the largest cosine between the residual and a column
#: of the (projected) Jacobian, the scale-free test of ``scipy.optimize.least_squares``' ``gtol``
GTOL = 1e-6
#: LM iterations after which an unfinished problem also tries, each iteration, a step along alpha
RADIAL_AFTER = 10


def _optimality(a_mat: np.ndarray, grad: np.ndarray, rss: np.ndarray) -> np.ndarray:
    """``max_j |G_j . r| / (|G_j| |r|)`` per problem from the Gauss-Newton matrix ``A = G'G`` and
    ``grad = G'r`` (0 for columns with G_j = 0, e.g. padding)."""
    diag = np.einsum("bii->bi", a_mat)
    den = np.sqrt(diag * rss[:, None])
    return np.max(np.where(den > 1e-300, np.abs(grad) / np.where(den > 1e-300, den, 1.0), 0.0), axis=1, initial=0.0)


def fit_sigmoid_batch(
    x: np.ndarray,
    u: np.ndarray,
    alpha0: np.ndarray,
    *,
    max_iter: int = 200,
    gtol: float = GTOL,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Fit B sigmoid families with the same child at once (variable-projection Levenberg-Marquardt).

    Parameters
    ----------
    x : ndarray (M,) or (B, M)
        Child values (one child for all problems, or one per problem).
    u : ndarray (B, M, p)
        Parent values of each problem.
    alpha0 : ndarray (B, p)
        Starting alphas.
    max_iter : int
        Levenberg-Marquardt iterations per problem.
    gtol : float
        A problem has converged when it is first-order optimal: every column of its Jacobian is
        within ``gtol`` of orthogonal to the residual (see :func:`optimality`).

    Returns
    -------
    alpha (B, p), theta0 (B,), theta1 (B,), rss (B,)

    Notes
    -----
    Convergence is tested on the gradient (first order), not on a small RSS change: at a
    slowly converging fit each step gains little, yet many steps together gain nats (issue #14).
    A problem also stops when no step can lower its RSS any more (the damping grows past 1e10,
    or the step falls below 1e-12 of alpha: the RSS is then limited by rounding) or after
    ``max_iter`` iterations. The damping follows Nielsen's gain-ratio rule. A problem not done
    after :data:`RADIAL_AFTER` iterations also tries, each iteration, a step along alpha itself
    (alpha times a factor that doubles while it pays and shrinks when not): its fit is usually
    creeping towards a step function (|alpha| -> infinity, where the RSS has its infimum but
    no minimum, so the gradient test never passes) and would use all of ``max_iter``.

    The iterations run on a compact working set: a problem that converges is written out and
    dropped, so a batch costs what its unfinished problems cost. Every operation is one numpy
    call over the working set.
    """
    u = np.asarray(u, dtype=float)
    b, m, p = u.shape
    x = np.broadcast_to(np.asarray(x, dtype=float), (b, m))
    alpha = np.array(alpha0, dtype=float).reshape(b, p)
    # alpha = 0 is a saddle (h constant, theta_1 = 0, zero gradient): start just off it
    flat = np.all(np.abs(alpha) < 1e-8, axis=1)
    alpha[flat] = 0.1
    xbar = x.mean(axis=1)
    theta0, theta1, rss_out = np.empty(b), np.empty(b), np.empty(b)

    idx = np.arange(b)  # the problems still iterating; the arrays below hold their state
    uw, xc, aw = u, x - xbar[:, None], alpha.copy()
    t, hc, hh, t1, r, rss = _state(uw, xc, aw)
    lam, nu = np.full(b, 1e-3), np.full(b, 2.0)
    grow = np.full(b, 2.0)
    stuck = np.zeros(b, dtype=bool)
    diag = np.arange(p) * (p + 1)  # positions of the diagonal in a flattened (p, p) matrix
    for it in range(max_iter + 1):
        a_mat, grad = _normal_equations(uw, t, hc, hh, t1, r)
        done = stuck | (_optimality(a_mat, grad, rss) <= gtol)
        if it == max_iter:
            done[:] = True
        n_done = np.count_nonzero(done)
        if n_done:
            j = idx[done]
            alpha[j], rss_out[j], theta1[j] = aw[done], rss[done], t1[done]
            theta0[j] = xbar[j] - t1[done] * (0.5 + 0.5 * t[done].mean(axis=1))
            if n_done == idx.size:
                break
            keep = ~done
            idx, uw, xc, aw, lam, nu = idx[keep], uw[keep], xc[keep], aw[keep], lam[keep], nu[keep]
            grow = grow[keep]
            t, hc, hh, t1, r, rss = t[keep], hc[keep], hh[keep], t1[keep], r[keep], rss[keep]
            a_mat, grad = a_mat[keep], grad[keep]
        flat_a = a_mat.reshape(idx.size, p * p)
        d_a = flat_a[:, diag] * lam[:, None] + 1e-12 * lam[:, None]  # the damping lam D
        flat_a[:, diag] += d_a
        try:
            step = np.linalg.solve(a_mat, grad[:, :, None])[:, :, 0]
        except np.linalg.LinAlgError:
            step = np.matmul(np.linalg.pinv(a_mat), grad[:, :, None])[:, :, 0]
        trial = aw + step
        t2, hc2, hh2, t12, r2, rss2 = _state(uw, xc, trial)
        better = rss2 < rss
        # Nielsen's damping update from the gain ratio, actual over predicted decrease, where
        # the damped Gauss-Newton model predicts h'(grad + lam D h)
        ratio = (rss - rss2) / np.maximum(np.einsum("bp,bp->b", step, grad + d_a * step), 1e-300)
        lam_ok = np.maximum(lam * np.maximum(1.0 / 3.0, 1.0 - (2.0 * ratio - 1.0) ** 3), 1e-12)
        lam_bad = lam * nu
        nu = np.where(better, 2.0, 2.0 * nu)
        if np.count_nonzero(better) == idx.size:
            aw, t, hc, hh, t1, r, rss = trial, t2, hc2, hh2, t12, r2, rss2
            lam = lam_ok
        else:
            col = better[:, None]
            aw, t, hc, r = (np.where(col, new, old) for new, old in ((trial, aw), (t2, t), (hc2, hc), (r2, r)))
            hh, t1, rss = (np.where(better, new, old) for new, old in ((hh2, hh), (t12, t1), (rss2, rss)))
            lam = np.where(better, lam_ok, lam_bad)
        if it >= RADIAL_AFTER:
            # slow problems creep towards a step function (|alpha| -> infinity) or sit on a
            # ridge along alpha; a trial along alpha itself, its factor adapted, speeds that up
            trial = aw * grow[:, None]
            t2, hc2, hh2, t12, r2, rss2 = _state(uw, xc, trial)
            ok = rss2 < rss
            col = ok[:, None]
            aw, t, hc, r = (np.where(col, new, old) for new, old in ((trial, aw), (t2, t), (hc2, hc), (r2, r)))
            hh, t1, rss = (np.where(ok, new, old) for new, old in ((hh2, hh), (t12, t1), (rss2, rss)))
            grow = np.where(ok, np.minimum(2.0 * grow - 1.0, 16.0), np.maximum(0.5 + 0.5 * grow, 1.125))
        biggest = np.maximum.reduce(np.abs(aw), axis=1)
        stuck = (lam > 1e10) | (np.maximum.reduce(np.abs(step), axis=1) <= 1e-12 * (1.0 + biggest))
    return alpha, theta0, theta1, rss_out


#: a fit whose U alpha has a standard deviation below this is nearly linear over the data ("weak")
WEAK_SD = 0.1
#: the steep second start of a weak fit (and the cap on a start's steepness): sd(U alpha) = STEEP_SD
STEEP_SD = 4.0
#: LM iterations of a steep second start before it must be ahead of the first fit to go on
RACE_ITER = 10
#: a fit whose U alpha has a standard deviation above this has gone to a step function ("saturated")
SATURATED_SD = 30.0
#: the steepness (sd of U alpha) of the least-squares-direction starts a saturated fit races against
SATURATED_STARTS = (1.0, 2.0, 4.0, 8.0)
#: LM iterations of those starts before only the leader goes on
SATURATED_RACE_ITER = 30
#: the steepness of the start that reaches the linear limit (alpha -> 0) of a family
LINEAR_LIMIT_SD = 0.05


def _chunked(x, u, a0, max_iter):
    return fit_in_chunks(fit_sigmoid_batch, x, u, a0, n_params=u.shape[2], max_iter=max_iter)


def fit_sigmoid_starts(
    x: np.ndarray, u: np.ndarray, starts: np.ndarray, *, max_iter: int = 200
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Fit B families from S starts each and keep the best; weak fits get a steep second start.

    Parameters
    ----------
    x : ndarray (B, M)
    u : ndarray (B, M, p)
    starts : ndarray (S, B, p)

    Returns
    -------
    alpha (B, p), theta0 (B,), theta1 (B,), rss (B,) of the best fit per family.

    Notes
    -----
    - A saturated start (sd(U alpha) above :data:`STEEP_SD`: nearly a step function, h' ~ 0 at
      most instances, e.g. the warm start from a family whose fit went to a step) is scaled back
      to that steepness, or it has no gradient to follow.
    - A fit that ends nearly linear over the data (sd(U alpha) < :data:`WEAK_SD`) sits at or near
      the linear limit alpha -> 0 (theta_1 -> infinity), which is stationary, so a weak family's
      fit can stop there when a steeper sigmoid fits better (issue #14). It gets a second start,
      the same alpha scaled to sd(U alpha) = STEEP_SD. To keep the cost down the second starts
      race: each runs :data:`RACE_ITER` iterations, and only those already below their first fit
      (in a trial on one AA fold of the Table 1 benchmark, 243 of the 252 that gained > 0.1 nats) run to convergence.
    - A fit that ends on a step function (sd(U alpha) > :data:`SATURATED_SD`) has crept to a
      non-minimum at |alpha| -> infinity, often in a poor basin: the fits of noise are highly
      multi-modal (issue #14: from the same start, scipy's trust region ended up to 2.3 nats
      better). It races starts along the least-squares direction of the linear limit at
      :data:`SATURATED_STARTS` steepness and its own alpha scaled back to STEEP_SD, for
      :data:`SATURATED_RACE_ITER` iterations; the leader runs to convergence and is kept if better.
    - The family contains its linear limit (alpha -> 0: theta_1 sigmoid(U alpha) is then affine
      in U alpha), so no fit may end above the linear regression's RSS; one that does is
      refitted from that limit (:func:`linear_limit`).
    - All of it is batched: S + 6 kernel calls at most, whatever B.
    """
    n_starts, b, p = starts.shape
    xs, us = (x, u) if n_starts == 1 else (np.concatenate([x] * n_starts), np.concatenate([u] * n_starts))
    a0 = starts.reshape(n_starts * b, p).copy()
    spread0 = np.einsum("bmp,bp->bm", us, a0).std(axis=1)
    a0 *= np.minimum(1.0, STEEP_SD / np.maximum(spread0, 1e-300))[:, None]
    alpha, t0, t1, rss = _chunked(xs, us, a0, max_iter)
    pick = np.argmin(rss.reshape(n_starts, b), axis=0)
    sel = pick * b + np.arange(b)
    alpha, t0, t1, rss = alpha[sel], t0[sel], t1[sel], rss[sel]
    spread = np.einsum("bmp,bp->bm", u, alpha).std(axis=1)
    weak = np.flatnonzero((spread < WEAK_SD) & (spread > 1e-300))
    if weak.size:
        steep = alpha[weak] * (STEEP_SD / spread[weak])[:, None]
        lead = _chunked(x[weak], u[weak], steep, RACE_ITER)
        ahead = np.flatnonzero(lead[3] < rss[weak])
        if ahead.size:
            w = weak[ahead]
            fits = _chunked(x[w], u[w], lead[0][ahead], max_iter)
            won = fits[3] < rss[w]
            alpha[w[won]], t0[w[won]], t1[w[won]], rss[w[won]] = (f[won] for f in fits)
    beta, rss_lin = linear_limit(x, u)
    spread_lin = np.einsum("bmp,bp->bm", u, beta).std(axis=1)
    spread = np.einsum("bmp,bp->bm", u, alpha).std(axis=1)
    sat = np.flatnonzero(spread > SATURATED_SD)
    if sat.size:
        scale = 1.0 / np.maximum(spread_lin[sat], 1e-300)
        cand = [beta[sat] * (sd * scale)[:, None] for sd in SATURATED_STARTS]
        cand.append(alpha[sat] * (STEEP_SD / spread[sat])[:, None])
        _race(x, u, sat, np.stack(cand), (alpha, t0, t1, rss), max_iter)
    behind = np.flatnonzero(rss > rss_lin * (1.0 + 1e-9))
    if behind.size:
        start = beta[behind] * (LINEAR_LIMIT_SD / np.maximum(spread_lin[behind], 1e-300))[:, None]
        _race(x, u, behind, start[None], (alpha, t0, t1, rss), max_iter)
    return alpha, t0, t1, rss


def _race(x, u, rows, starts, fits, max_iter) -> None:
    """Race ``starts`` (S, R, p) for the problems ``rows`` against their current ``fits`` (alpha,
    theta0, theta1, rss, updated in place): each start runs :data:`SATURATED_RACE_ITER` iterations
    (all of them at once if S = 1), the leader of each problem runs to convergence and replaces
    the current fit where it ends lower."""
    n_starts, n, p = starts.shape
    if n_starts == 1:
        won_fit = _chunked(x[rows], u[rows], starts[0], max_iter)
    else:
        lead = _chunked(
            np.concatenate([x[rows]] * n_starts),
            np.concatenate([u[rows]] * n_starts),
            starts.reshape(n_starts * n, p),
            SATURATED_RACE_ITER,
        )
        best = np.argmin(lead[3].reshape(n_starts, n), axis=0)
        won_fit = _chunked(x[rows], u[rows], lead[0][best * n + np.arange(n)], max_iter)
    won = won_fit[3] < fits[3][rows]
    for target, new in zip(fits, won_fit, strict=True):
        target[rows[won]] = new[won]


def linear_limit(x: np.ndarray, u: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The linear limit of B sigmoid families: the least-squares direction beta (B, p) of the
    centred child on the centred parents and its RSS (B,). As alpha = c beta with c -> 0,
    theta_1 sigmoid(U alpha) + theta_0 tends to the linear regression, so the infimum of a
    family's RSS is at most this (the sigmoid family nests the linear one in the limit)."""
    xc = x - x.mean(axis=1, keepdims=True)
    uc = u - u.mean(axis=1, keepdims=True)
    gram = np.einsum("bmp,bmq->bpq", uc, uc) + 1e-9 * np.eye(u.shape[2])
    beta = np.linalg.solve(gram, np.einsum("bmp,bm->bp", uc, xc)[:, :, None])[:, :, 0]
    res = xc - np.einsum("bmp,bp->bm", uc, beta)
    return beta, np.einsum("bm,bm->b", res, res)


def optimality(x: np.ndarray, u: np.ndarray, alpha: np.ndarray) -> float:
    """First-order optimality of one family's fit at ``alpha`` (theta_0, theta_1 profiled out).

    The largest cosine between the residual r and a column of the variable-projection Jacobian
    G (Kaufman's, see :func:`fit_sigmoid_batch`): ``max_j |G_j . r| / (|G_j| |r|)``. It is 0 at a
    stationary point of the RSS and does not depend on the scale of x or of the parents, like the
    ``gtol`` test of ``scipy.optimize.least_squares``.
    """
    x = np.asarray(x, dtype=float)
    u3 = np.asarray(u, dtype=float).reshape(1, len(x), -1)
    a = np.asarray(alpha, dtype=float).reshape(1, -1)
    t, hc, hh, t1, r, rss = _state(u3, (x - x.mean())[None, :], a)
    a_mat, grad = _normal_equations(u3, t, hc, hh, t1, r)
    return float(_optimality(a_mat, grad, rss)[0])


def profile_rss_grad(x: np.ndarray, u: np.ndarray, alpha: np.ndarray) -> tuple[float, np.ndarray]:
    """RSS of one family at ``alpha`` (theta_0, theta_1 profiled out) and its analytic gradient."""
    x = np.asarray(x, dtype=float)
    u3 = np.asarray(u, dtype=float).reshape(1, len(x), -1)
    a = np.asarray(alpha, dtype=float).reshape(1, -1)
    t, hc, hh, t1, r, rss = _state(u3, (x - x.mean())[None, :], a)
    _, grad = _normal_equations(u3, t, hc, hh, t1, r)
    return float(rss[0]), -2.0 * grad[0]
