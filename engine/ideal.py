"""Ideal parent profiles and the similarity measures C1 and C2.

Implements Elidan, Nachman & Friedman, "Ideal Parent" Structure Learning for Continuous Variable
Bayesian Networks, JMLR 8 (2007), section 3 (Definition 3.1, Theorem 3.2, Proposition 3.3,
Theorem 3.4) and section 4 (Definition 4.1, the replace ideal parent).

For a linear-Gaussian family X | U with ML parameters (alpha, theta_0, sigma^2):

* ideal profile for Add:      y = x - U alpha - theta_0            (the residual)
* ideal profile for Replace:  y_i = y + alpha_i u_i                 (Def 4.1: drop U_i's term)
* C1(y, z) = (1 / (2 sigma^2)) (y.z)^2 / (z.z)                      (Thm 3.2)
           = (M/2) cos^2(phi_yz)     when sigma^2 = y.y / M          (Prop 3.3)
* C2(y, z) = -(M/2) log sin^2(phi_yz)                               (Thm 3.4)

Both are lower bounds on the exact log-likelihood gain of adding Z: C1 <= C2 <= Delta.

Centring choice (reference section 1.3). The paper compares the ideal profile with the *raw*
candidate profile z, which keeps the intercept theta_0 frozen; a candidate with a large mean is
then badly under-rated. With ``centred=True`` (the engine's default) candidates are centred first,
which is the same as letting theta_0 move together with alpha_z. The result is still a value of the
likelihood at a feasible parameter setting, so it is still a lower bound on the exact gain, and a
much tighter one. On standardized data (the default when loading) the two choices coincide.

All functions are vectorized: ``z`` may be a matrix whose columns are candidates, and
:func:`similarity_matrix` compares every family's ideal profile with every candidate at once.

References
----------
.. [1] G. Elidan, I. Nachman, N. Friedman. "Ideal Parent" Structure Learning for Continuous
   Variable Bayesian Networks. JMLR 8:1799-1833, 2007. https://jmlr.org/papers/v8/elidan07a.html
"""

from __future__ import annotations

import numpy as np

__all__ = [
    "ideal_profile",
    "replace_ideal_profile",
    "c1",
    "c2",
    "c1_from_stats",
    "c2_from_stats",
    "similarity_matrix",
    "R2_CAP",
]

#: Squared cosines are capped just below 1 so that a candidate identical to the ideal profile
#: gets a large finite C2 instead of +inf (log 0).
R2_CAP = 1.0 - 1e-12


def ideal_profile(x: np.ndarray, parents: np.ndarray, alpha: np.ndarray, theta0: float) -> np.ndarray:
    """Ideal parent profile of a linear-Gaussian family (JMLR section 3.2).

    ``y = x - U alpha - theta_0``: the value a new parent with scale 1 would need in every instance
    for the family to predict ``x`` exactly, i.e. the residual of the current regression.

    Parameters
    ----------
    x : ndarray of shape (M,)
        The child's profile.
    parents : ndarray of shape (M, k)
        The current parents' profiles (k may be 0).
    alpha : ndarray of shape (k,)
        The parents' scale parameters (regression coefficients).
    theta0 : float
        The intercept.
    """
    x = np.asarray(x, dtype=float)
    parents = np.asarray(parents, dtype=float).reshape(x.shape[0], -1)
    return x - parents @ np.asarray(alpha, dtype=float) - theta0


def replace_ideal_profile(y: np.ndarray, u_i: np.ndarray, alpha_i: float) -> np.ndarray:
    """Replace ideal profile (JMLR Definition 4.1) for a linear family: ``y_i = y + alpha_i u_i``.

    The scale parameters fitted with the full parent set U stay frozen; only U_i's term is taken
    out, so the profile is what a parent replacing U_i would have to supply.
    """
    return np.asarray(y, dtype=float) + alpha_i * np.asarray(u_i, dtype=float)


def _dots(y: np.ndarray, z: np.ndarray, centred: bool) -> tuple[np.ndarray, np.ndarray, float]:
    y = np.asarray(y, dtype=float)
    z = np.asarray(z, dtype=float)
    if centred:
        z = z - z.mean(axis=0)
    yz = y @ z
    zz = np.einsum("m...,m...->...", z, z)
    return yz, zz, float(y @ y)


def c1_from_stats(yz, yy, zz, n_samples: int, sigma2: float | None = None) -> np.ndarray:
    """C1 from dot products (Theorem 3.2): ``(1/(2 sigma^2)) (y.z)^2 / (z.z)``.

    ``sigma2`` defaults to the ML variance ``y.y / M`` (Proposition 3.3). Candidates with
    ``z.z == 0`` get 0.
    """
    yz = np.asarray(yz, dtype=float)
    zz = np.asarray(zz, dtype=float)
    if sigma2 is None:
        sigma2 = float(yy) / n_samples
    if sigma2 <= 0:  # a zero ideal profile: nothing left to explain
        return np.zeros_like(np.broadcast_to(yz, np.broadcast(yz, zz).shape), dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        # (y.z / sqrt(z.z))^2, not (y.z)^2 / z.z: on raw data around 1e+-100 (y.z)^2 over- or underflows
        out = np.where(zz > 0, (yz / np.sqrt(zz)) ** 2 / (2.0 * sigma2), 0.0)
    return out


def c2_from_stats(yz, yy, zz, n_samples: int) -> np.ndarray:
    """C2 from dot products (Theorem 3.4): ``-(M/2) log(1 - (y.z)^2 / ((y.y)(z.z)))``.

    Uses the ML variance ``y.y / M``; the squared cosine is capped at :data:`R2_CAP`.
    """
    yz = np.asarray(yz, dtype=float)
    zz = np.asarray(zz, dtype=float)
    yy = np.asarray(yy, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        # the cosine first: (y.z)^2 and (y.y)(z.z) over- or underflow on raw data around 1e+-100
        r2 = np.where((zz > 0) & (yy > 0), (yz / (np.sqrt(yy) * np.sqrt(zz))) ** 2, 0.0)
    r2 = np.minimum(r2, R2_CAP)  # a square: never below 0
    return -0.5 * n_samples * np.log1p(-r2)


def c1(y: np.ndarray, z: np.ndarray, *, sigma2: float | None = None, centred: bool = True) -> np.ndarray:
    """C1 similarity between an ideal profile ``y`` and candidate profile(s) ``z``.

    Parameters
    ----------
    y : ndarray of shape (M,)
        Ideal parent profile (the residual; it has mean 0 when the family has an intercept).
    z : ndarray of shape (M,) or (M, n)
        Candidate profile(s), one per column.
    sigma2 : float, optional
        The family's frozen variance; defaults to ``y.y / M`` (its ML value).
    centred : bool
        Centre the candidates first (frees theta_0 too; see the module notes).

    Returns
    -------
    float or ndarray of shape (n,)
        The log-likelihood gain (nats) when only alpha_z is fitted.

    Notes
    -----
    ``C1 = (1/(2 sigma^2)) (y.z)^2/(z.z)``; JMLR 2007 Theorem 3.2, thesis Thm 7.1.2.
    """
    yz, zz, yy = _dots(y, z, centred)
    return c1_from_stats(yz, yy, zz, np.asarray(y).shape[0], sigma2)


def c2(y: np.ndarray, z: np.ndarray, *, centred: bool = True) -> np.ndarray:
    """C2 similarity: the gain when alpha_z and the variance are both fitted.

    Notes
    -----
    ``C2 = -(M/2) log sin^2(phi_yz)``; JMLR 2007 Theorem 3.4, thesis Thm 7.1.4.
    """
    yz, zz, yy = _dots(y, z, centred)
    return c2_from_stats(yz, yy, zz, np.asarray(y).shape[0])


def similarity_matrix(
    ideal: np.ndarray, candidates: np.ndarray, *, centred: bool = True
) -> tuple[np.ndarray, np.ndarray]:
    """C1 and C2 of every ideal profile against every candidate, in one matrix product.

    Parameters
    ----------
    ideal : ndarray of shape (M, F)
        One ideal profile per family (column).
    candidates : ndarray of shape (M, N)
        One candidate profile per column.

    Returns
    -------
    c1, c2 : ndarray of shape (F, N)
        ``c1[f, j]`` compares family f's ideal profile with candidate j.
    """
    ideal = np.asarray(ideal, dtype=float)
    z = np.asarray(candidates, dtype=float)
    if centred:
        z = z - z.mean(axis=0)
    m = ideal.shape[0]
    yz = ideal.T @ z
    zz = np.einsum("mj,mj->j", z, z)[None, :]
    yy = np.einsum("mf,mf->f", ideal, ideal)[:, None]
    sigma2 = yy / m
    with np.errstate(divide="ignore", invalid="ignore"):
        c1_ = np.where((zz > 0) & (sigma2 > 0), yz**2 / (2.0 * sigma2 * zz), 0.0)
        r2 = np.where((zz > 0) & (yy > 0), yz**2 / (yy * zz), 0.0)
    c2_ = -0.5 * m * np.log1p(-np.clip(r2, 0.0, R2_CAP))
    return c1_, c2_
