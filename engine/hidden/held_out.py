"""Held-out observed-data log-likelihood of a network with one hidden variable H against a network
without it, both refitted on training instances with their structures fixed (JMLR 2007 section 6).

The observed-data score that decides whether ``auto`` keeps H (section 6: H integrated out) is
measured on the instances EM fitted. :mod:`.out_of_sample` asks instead whether H *predicts*
instances it has not seen: both networks are refitted on the training instances (EM with the
structure fixed for the network with H, section 6's E- and M-steps; least squares for the one
without) and the held-out instances are scored with H integrated out.

**Only the families that differ are refitted** (exact when every other cell is observed). In a
linear-Gaussian network ``log p(x) = sum_v log p(x_v | pa_v)`` over the observed families, with H
integrated out of the families of its children C only (H has no other role in the observed cells)::

    log p1(x) = sum_{v not in C} log p1(x_v | pa1_v) + log E_{h ~ p(h | pa_H)} prod_{c in C} p1(x_c | pa1_c, h)

A family with the same parents in both networks and no hidden input has the same maximum-likelihood
parameters in both (the same training cells), so its term cancels in the difference; EM's E-step for
H reads only H's Markov blanket and its M-step changes only H's and C's families. The difference is
therefore the families in ``D`` = C and every observed variable whose parents differ, and H's
family. For one instance, with ``u_c = x_c - mu_c - w_c m`` (``mu_c``: the child's other parents'
part, ``m``, ``s^2``: H's prior mean and variance given its parents, ``sigma_c^2``: the child's
noise), the integral is the Gaussian ``N(u; 0, Sigma + s^2 w w^T)``, by the matrix determinant lemma
and Woodbury's identity::

    sum_c log N(u_c; 0, sigma_c^2) - 1/2 log(1 + s^2 A) + s^2 B^2 / (2 (1 + s^2 A)),
    A = sum_c w_c^2 / sigma_c^2,   B = sum_c w_c u_c / sigma_c^2.

(a child whose parents include other children of H is still one factor of the chain rule.)
Other hidden variables and missing cells are read at their posterior means in the full-data fit
(``model.mean``), as observed, in both networks: that part is not exact (the full-data posterior has
seen the held-out instances), and says so in :mod:`.out_of_sample`.

Everything is vectorized over instances and families: the families are solved together as a stack of
small normal-equation systems (padded to the largest family).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..cpd.linear import LOG_2PI

__all__ = ["EM_ITER", "LocalFamilies", "fold_gain", "local_families"]

#: EM iterations of the refit of the network with H on a training fold (structure fixed)
EM_ITER = 100
#: EM stops earlier when H's posterior means move less than this (in H's standard deviations)
EM_TOL = 1e-6
#: a family's noise variance is kept at least this share of its child's variance
VAR_FLOOR = 1e-6


@dataclass(frozen=True)
class LocalFamilies:
    """The families that differ between the network with H and the network without it.

    Attributes
    ----------
    values : ndarray (M, N)
        Every variable's value at every instance (observed cells; posterior means elsewhere), columns of
        the network with H.
    h : int
        H's column.
    h_parents : ndarray of int
        H's parents (columns).
    children : ndarray of int (F,)
        The observed variables in ``D`` (module docstring), each one family.
    with_h : ndarray of int (F, P)
        Their parents in the network with H, H excluded (-1 pads).
    loads : ndarray of bool (F,)
        Whether H is a parent of the family's variable.
    without_h : ndarray of int (F, P0)
        Their parents in the network without H (-1 pads).
    """

    values: np.ndarray
    h: int
    h_parents: np.ndarray
    children: np.ndarray
    with_h: np.ndarray
    loads: np.ndarray
    without_h: np.ndarray


def _pad(parent_lists: list[list[int]]) -> np.ndarray:
    width = max((len(p) for p in parent_lists), default=0)
    out = np.full((len(parent_lists), width), -1, dtype=np.intp)
    for i, ps in enumerate(parent_lists):  # over families (not instances): a setup step
        out[i, : len(ps)] = ps
    return out


def local_families(model, before, name: str) -> LocalFamilies:
    """The families of ``model`` (a fitted :class:`~.em.StructuralEM` with hidden variable ``name``) and
    ``before`` (the network without it, its variables a subset of ``model``'s by name) that differ."""
    names, h = model.names, model.names.index(name)
    index = {n: i for i, n in enumerate(names)}
    pa1 = [[] for _ in names]
    for p, c in model.edges:
        pa1[c].append(p)
    pa0 = [[] for _ in names]
    for p, c in before.edges:
        pa0[index[before.names[c]]].append(index[before.names[p]])
    fams = [v for v in range(model.n_obs) if h in pa1[v] or sorted(pa1[v]) != sorted(pa0[v])]
    return LocalFamilies(
        values=np.asarray(model.mean, dtype=float),
        h=h,
        h_parents=np.asarray(sorted(pa1[h]), dtype=np.intp),
        children=np.asarray(fams, dtype=np.intp),
        with_h=_pad([sorted(p for p in pa1[v] if p != h) for v in fams]),
        loads=np.asarray([h in pa1[v] for v in fams], dtype=bool),
        without_h=_pad([sorted(pa0[v]) for v in fams]),
    )


def _design(values: np.ndarray, parents: np.ndarray, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Stacked designs (F, n, 1 + P): an intercept and each family's parents at ``rows`` (0 on pads),
    and which columns are used (F, 1 + P)."""
    used = np.concatenate([np.ones((parents.shape[0], 1), dtype=bool), parents >= 0], axis=1)
    x = values[np.ix_(rows, np.maximum(parents, 0).ravel())].reshape(rows.size, *parents.shape)
    z = np.concatenate([np.ones((parents.shape[0], rows.size, 1)), np.moveaxis(x, 0, 1)], axis=2)
    return z * used[:, None, :], used


def _solve(gram: np.ndarray, rhs: np.ndarray, used: np.ndarray) -> np.ndarray:
    """Each family's normal equations (pads: an identity row, so their coefficient is 0)."""
    gram = gram + np.einsum("fq,qr->fqr", (~used).astype(float), np.eye(used.shape[1]))
    return np.linalg.solve(gram, rhs[..., None])[..., 0]


def _loglik(resid: np.ndarray, var: np.ndarray) -> np.ndarray:
    """Gaussian log-density of residuals (F, n) with variances (F,) per family and instance."""
    return -0.5 * (LOG_2PI + np.log(var)[:, None] + resid**2 / var[:, None])


def _floor(y: np.ndarray) -> np.ndarray:
    return VAR_FLOOR * np.maximum(y.var(axis=1), 1e-12) + 1e-12


def _without_h(fam: LocalFamilies, train: np.ndarray, test: np.ndarray) -> np.ndarray:
    """Held-out log-likelihood (F, n_test) of the families without H, fitted by least squares."""
    y_tr, y_te = fam.values[train][:, fam.children].T, fam.values[test][:, fam.children].T
    z, used = _design(fam.values, fam.without_h, train)
    beta = _solve(np.einsum("fnq,fnr->fqr", z, z), np.einsum("fnq,fn->fq", z, y_tr), used)
    var = np.maximum(np.mean((y_tr - np.einsum("fnq,fq->fn", z, beta)) ** 2, axis=1), _floor(y_tr))
    zt, _ = _design(fam.values, fam.without_h, test)
    return _loglik(y_te - np.einsum("fnq,fq->fn", zt, beta), var)


def _h_design(fam: LocalFamilies, rows: np.ndarray) -> np.ndarray:
    return np.column_stack([np.ones(rows.size), fam.values[np.ix_(rows, fam.h_parents)]])


def _with_h(fam: LocalFamilies, train: np.ndarray, test: np.ndarray) -> np.ndarray:
    """Held-out log-likelihood (n_test,) of the families with H, H integrated out, after EM with the
    structure fixed on ``train`` (started from H's posterior in ``values``)."""
    y_tr = fam.values[train][:, fam.children].T
    z0, used0 = _design(fam.values, fam.with_h, train)
    z = np.concatenate([z0, np.zeros((*z0.shape[:2], 1))], axis=2)
    used = np.concatenate([used0, fam.loads[:, None]], axis=1)
    zh = _h_design(fam, train)
    eh = fam.values[train, fam.h].copy()
    vh = float(np.var(eh)) * 1e-2 + 1e-12  # a start; the first E-step replaces it
    floor = _floor(y_tr)
    for _ in range(EM_ITER):  # EM iterations, each vectorized over instances and families
        z[fam.loads, :, -1] = eh
        gram = np.einsum("fnq,fnr->fqr", z, z)
        gram[fam.loads, -1, -1] += train.size * vh
        beta = _solve(gram, np.einsum("fnq,fn->fq", z, y_tr), used)
        w = np.where(fam.loads, beta[:, -1], 0.0)
        mu = np.einsum("fnq,fq->fn", z[:, :, :-1], beta[:, :-1])  # every parent's part but H's
        var = np.maximum(np.mean((y_tr - mu - w[:, None] * eh) ** 2, axis=1) + w**2 * vh, floor)
        gamma = np.linalg.lstsq(zh, eh, rcond=None)[0]
        prior = zh @ gamma
        s2 = max(float(np.mean((eh - prior) ** 2)) + vh, 1e-12)
        a = float(np.sum(w**2 / var))
        vh = 1.0 / (1.0 / s2 + a)
        new = vh * (prior / s2 + (w / var) @ (y_tr - mu))
        done = np.max(np.abs(new - eh)) <= EM_TOL * max(float(np.std(new)), 1e-12)
        eh = new
        if done:
            break
    zt0, _ = _design(fam.values, fam.with_h, test)
    y_te = fam.values[test][:, fam.children].T
    m = _h_design(fam, test) @ gamma
    u = y_te - np.einsum("fnq,fq->fn", zt0, beta[:, :-1]) - w[:, None] * m
    b = (w / var) @ u
    return _loglik(u, var).sum(axis=0) - 0.5 * np.log1p(s2 * a) + 0.5 * s2 * b**2 / (1.0 + s2 * a)


def fold_gain(fam: LocalFamilies, train: np.ndarray, test: np.ndarray) -> np.ndarray:
    """Per held-out instance (``test``), the log-likelihood of the network with H (H integrated out)
    minus the network without it, both refitted on ``train`` with their structures fixed (nats)."""
    train, test = np.asarray(train, dtype=np.intp), np.asarray(test, dtype=np.intp)
    return _with_h(fam, train, test) - _without_h(fam, train, test).sum(axis=0)
