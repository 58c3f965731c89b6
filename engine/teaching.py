"""Worked examples of the Teaching page: the paper's Figures 1 and 4, computed live.

* :func:`ideal_parent_example` -- Figure 1 (a)-(d) (JMLR 2007 section 3): a small synthetic family
  X | U, its ideal parent profile (Definition 3.1, the residual of section 3.2), two candidates
  compared with it by alpha_z, C1 and C2 (Theorems 3.2 and 3.4), and the refit with the best one.
* :func:`sigmoid_linearization_example` -- Figure 4 (section 7): the first-order expansion of a
  sigmoid link around the ideal parent value and its effect on the likelihood surface
  (the distorted geometry of Theorem 7.1).

Every number comes from the engine's own CPD family (:class:`engine.cpd.linear.LinearGaussianFamilies`)
and similarity measures (:mod:`engine.ideal`); nothing here touches a search.

References
----------
.. [1] G. Elidan, I. Nachman, N. Friedman. "Ideal Parent" Structure Learning for Continuous
   Variable Bayesian Networks. JMLR 8:1799-1833, 2007.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from .cpd.linear import LinearGaussianFamilies
from .cpd.sigmoid import P_EPS, sigmoid
from .exceptions import ParameterError
from .ideal import c1 as ideal_c1
from .ideal import c2 as ideal_c2
from .ideal import ideal_profile as linear_ideal_profile
from .inspect import family_prediction, weighted_alpha

__all__ = [
    "IdealParentExample",
    "SigmoidLinearization",
    "ideal_parent_example",
    "sigmoid_linearization_example",
]


# ------------------------------------------------------------------- Figure 1, live
@dataclass
class IdealParentExample:
    """The paper's Figure 1 (a)-(d), computed on a small synthetic family.

    X has one parent U in the current model; a hidden "true second parent" H also drives X. Two
    candidates are offered: Z1 is a noisy copy of H (close to the ideal profile), Z2 an unrelated
    signal. Profiles are over instances 0..M-1.

    Attributes
    ----------
    u, x, hidden : ndarray (M,)
        The parent, the child and the hidden second parent.
    prediction_u : ndarray (M,)
        (a) The prediction of X from U alone (linear Gaussian ML fit).
    ideal : ndarray (M,)
        (b) The ideal parent profile: the residual ``x - prediction_u`` (section 3.2).
    candidates : ndarray (M, 2)
        (c) The candidate profiles Z1, Z2.
    scaled : ndarray (M, 2)
        ``alpha_z z`` (centred z) of each candidate, to lay over the ideal profile.
    alpha, c1, c2, exact : ndarray (2,)
        alpha_z, C1, C2 and the exact log-likelihood gain of adding each candidate (nats).
    best : int
        Index (0 or 1) of the candidate with the larger C2.
    prediction_best : ndarray (M,)
        (d) The prediction of X from U and the best candidate (refitted).
    loglik_u, loglik_best : float
        Family log-likelihoods before and after adding the best candidate.
    names : tuple of str
        ``("U", "X", "Z1", "Z2")``.
    """

    n_samples: int
    noise: float
    seed: int
    u: np.ndarray
    x: np.ndarray
    hidden: np.ndarray
    prediction_u: np.ndarray
    ideal: np.ndarray
    candidates: np.ndarray
    scaled: np.ndarray
    alpha: np.ndarray
    c1: np.ndarray
    c2: np.ndarray
    exact: np.ndarray
    best: int
    prediction_best: np.ndarray
    loglik_u: float
    loglik_best: float
    names: tuple[str, str, str, str] = ("U", "X", "Z1", "Z2")

    @property
    def gain(self) -> float:
        """Log-likelihood gain of adding the best candidate (equals ``exact[best]``)."""
        return self.loglik_best - self.loglik_u


def _smooth_signal(rng: np.random.Generator, t: np.ndarray, n_waves: int = 3) -> np.ndarray:
    """A smooth random curve over instances (sum of random sinusoids), standardized."""
    f = rng.uniform(0.5, 3.0, size=n_waves)
    ph = rng.uniform(0, 2 * np.pi, size=n_waves)
    amp = rng.uniform(0.5, 1.0, size=n_waves)
    s = (amp[:, None] * np.sin(2 * np.pi * f[:, None] * t[None, :] + ph[:, None])).sum(axis=0)
    return (s - s.mean()) / s.std()


def ideal_parent_example(n_samples: int = 40, noise: float = 0.3, seed: int = 0) -> IdealParentExample:
    """Build the paper's Figure 1 live (JMLR 2007 section 3, Figure 1).

    ``X = U + H + noise * eps`` with smooth random profiles U and H (H plays the hidden true second
    parent); candidates ``Z1 = H + noise * eps'`` and ``Z2`` an independent smooth signal plus
    noise. The family X | U is fitted with :class:`engine.cpd.linear.LinearGaussianFamilies`; the
    ideal profile is :func:`engine.ideal.ideal_profile`; C1/C2 are :func:`engine.ideal.c1` and
    :func:`engine.ideal.c2` (centred candidates, the engine's default); exact gains are
    ``exact_add`` and the refit is ``fit(X, (U, Z_best))``.

    Parameters
    ----------
    n_samples : int
        M, number of instances (>= 5).
    noise : float
        Standard deviation of the noise in X and in the candidates (>= 0).
    seed : int
    """
    if int(n_samples) < 5:
        raise ParameterError(f"`n_samples` == {n_samples}; the example needs at least 5 instances.")
    if not noise >= 0:
        raise ParameterError(f"`noise` == {noise}; it must be >= 0.")
    m = int(n_samples)
    rng = np.random.default_rng(seed)
    t = np.linspace(0.0, 1.0, m)
    u = _smooth_signal(rng, t)
    h = _smooth_signal(rng, t)
    other = _smooth_signal(rng, t)
    x = 0.5 + u + h + noise * rng.normal(size=m)
    z1 = h + noise * rng.normal(size=m)
    z2 = other + noise * rng.normal(size=m)
    values = np.column_stack([u, x, z1, z2])
    model = LinearGaussianFamilies(values)
    fit_u = model.fit(1, (0,))
    alpha_u = np.asarray(fit_u.params["coefficients"])
    pred_u = fit_u.params["intercept"] + u * alpha_u[0]
    y = linear_ideal_profile(x, u[:, None], alpha_u, fit_u.params["intercept"])
    z = values[:, 2:]
    c1 = np.asarray(ideal_c1(y, z, centred=model.centred), dtype=float)
    c2 = np.asarray(ideal_c2(y, z, centred=model.centred), dtype=float)
    alpha, zc = weighted_alpha(y, z, None, model.centred)
    exact = model.exact_add(1, (0,), np.array([2, 3]))
    best = int(np.argmax(c2))
    fit_b = model.fit(1, tuple(sorted((0, 2 + best))))
    pred_b = family_prediction(model, fit_b.params, values[:, list(fit_b.parents)])
    return IdealParentExample(
        n_samples=m,
        noise=float(noise),
        seed=int(seed),
        u=u,
        x=x,
        hidden=h,
        prediction_u=pred_u,
        ideal=y,
        candidates=z.copy(),
        scaled=zc * alpha[None, :],
        alpha=alpha,
        c1=c1,
        c2=c2,
        exact=np.asarray(exact, dtype=float),
        best=best,
        prediction_best=pred_b,
        loglik_u=float(fit_u.loglik),
        loglik_best=float(fit_b.loglik),
    )


# ------------------------------------------------------------------- Figure 4, live
@dataclass
class SigmoidLinearization:
    """The paper's Figure 4: a sigmoid link linearized at the ideal parent value.

    For each instance i (X has no parents; ``s`` is the fixed contribution of other parents):

    * ``p[i] = (x[i] - theta0) / theta1`` clipped into (eps, 1 - eps), ``y[i] = logit(p[i]) - s``
      (the ideal parent value, by inverting g), ``gprime[i] = theta1 p (1 - p)`` (g'(y)).
    * (a)/(b) ``z_axis[i]`` with ``g_exact[i] = theta0 + theta1 sigmoid(s + z)`` and its tangent
      ``g_lin[i] = g(y) + (z - y) g'(y)``.
    * (c)/(d) ``ll_exact[i]`` / ``ll_lin[i]``: log N(x[i]; g, sigma^2) along ``z_axis[i]``.
    * (e) ``surface_exact`` / ``surface_lin`` of shape (G, G): the two-instance log-likelihood
      ``ll_0(z_0) + ll_1(z_1)``, rows indexed by ``z_axis[1]``, columns by ``z_axis[0]`` (plotly
      contour convention).
    * (f) ``skewed_axis[i] = z_axis[i] * gprime[i]``: plotted against these axes, the linearized
      contours become circles (the distorted geometry of Theorem 7.1).
    """

    x: np.ndarray
    theta0: float
    theta1: float
    s: float
    sigma: float
    p: np.ndarray
    y: np.ndarray
    gprime: np.ndarray
    z_axis: np.ndarray
    g_exact: np.ndarray
    g_lin: np.ndarray
    ll_exact: np.ndarray
    ll_lin: np.ndarray
    surface_exact: np.ndarray
    surface_lin: np.ndarray
    skewed_axis: np.ndarray


def _gauss_loglik(x: float, mean: np.ndarray, sigma: float) -> np.ndarray:
    return -0.5 * (np.log(2 * np.pi * sigma**2) + (x - mean) ** 2 / sigma**2)


def sigmoid_linearization_example(
    x_values: Sequence[float] = (0.5, 0.85),
    theta0: float = 0.0,
    theta1: float = 1.0,
    s: float = 0.0,
    sigma: float = 0.1,
    half_width: float = 3.0,
    n_grid: int = 121,
    eps: float = P_EPS,
) -> SigmoidLinearization:
    """Figure 4 of JMLR 2007 (section 7): linearizing ``g = theta1 sigmoid(s + z) + theta0``.

    The ideal value ``y = logit(p) - s`` with ``p = (x - theta0)/theta1`` clipped to
    ``[eps, 1 - eps]`` (Definition 3.1, closest point in g's image) and ``g'(y) = theta1 p (1-p)``.
    The first-order expansion ``g(z) ~ g(y) + (z - y) g'(y)`` turns the Gaussian log-likelihood of
    each instance into a parabola whose width scales as ``sigma / g'(y)``: saturated instances
    (small g') are less sensitive to z. Weighting by g' (Theorem 7.1) removes that difference.

    With the defaults: x = 0.5 gives y = 0, g' = 0.25; x = 0.85 gives y = 1.7346, g' = 0.1275.

    Parameters
    ----------
    x_values : sequence of float
        Child values of the instances (two for the contour surfaces).
    theta0, theta1 : float
        Offset and scale of the sigmoid (theta1 != 0).
    s : float
        Contribution ``sum_i alpha_i u_i`` of the current parents (0: no parents).
    sigma : float
        Noise standard deviation of the CPD (> 0).
    half_width : float
        Each z axis spans ``y +- half_width``.
    n_grid : int
        Points per axis.
    eps : float
        Clipping of p into the open interval (0, 1).
    """
    x = np.asarray(x_values, dtype=float).ravel()
    if x.size < 1:
        raise ParameterError("`x_values` is empty.")
    if theta1 == 0:
        raise ParameterError("`theta1` must be non-zero (the sigmoid would be flat).")
    if not sigma > 0:
        raise ParameterError(f"`sigma` == {sigma}; it must be > 0.")
    if int(n_grid) < 3:
        raise ParameterError(f"`n_grid` == {n_grid}; use at least 3 points.")
    p = np.clip((x - theta0) / theta1, eps, 1.0 - eps)
    y = np.log(p / (1.0 - p)) - s
    gp = theta1 * p * (1.0 - p)
    grid = np.linspace(-half_width, half_width, int(n_grid))
    z_axis = y[:, None] + grid[None, :]
    g_exact = theta0 + theta1 * sigmoid(s + z_axis)
    g_at_y = theta0 + theta1 * p
    g_lin = g_at_y[:, None] + (z_axis - y[:, None]) * gp[:, None]
    ll_exact = np.stack([_gauss_loglik(x[i], g_exact[i], sigma) for i in range(x.size)])
    ll_lin = np.stack([_gauss_loglik(x[i], g_lin[i], sigma) for i in range(x.size)])
    if x.size >= 2:
        surf_exact = ll_exact[1][:, None] + ll_exact[0][None, :]
        surf_lin = ll_lin[1][:, None] + ll_lin[0][None, :]
    else:
        surf_exact = surf_lin = np.zeros((0, 0))
    return SigmoidLinearization(
        x=x,
        theta0=float(theta0),
        theta1=float(theta1),
        s=float(s),
        sigma=float(sigma),
        p=p,
        y=y,
        gprime=gp,
        z_axis=z_axis,
        g_exact=g_exact,
        g_lin=g_lin,
        ll_exact=ll_exact,
        ll_lin=ll_lin,
        surface_exact=surf_exact,
        surface_lin=surf_lin,
        skewed_axis=z_axis * gp[:, None],
    )
