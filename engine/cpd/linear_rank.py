"""C1/C2 rankings of many linear-Gaussian families at once, the same bits as one family at a time.

JMLR 2007 Algorithm 2 ranks every Add and Replace candidate of a family by C1 (Theorem 3.2) and C2
(Theorem 3.4), with the replace ideal profile of Definition 4.1 (section 4).
:meth:`~engine.cpd.linear.LinearGaussianFamilies.similarities` does it for one family in O(R k) from
the scatter matrix, but in some forty numpy calls on R-vectors: when a structure search starts (every
M-step of structural EM, at 2,000-2,600 genes) all N families are ranked, and those calls' overhead,
not their arithmetic, was a fifth of ``--hidden auto``'s time (#22 item 4, session 22).

:func:`similarities_many` ranks a list of families with one set of calls per group of families with the
same number of parents. Each family's partial covariance ``y.z`` is formed as before, by its own
``alpha @ S[U, cols]`` (a BLAS product whose rounding may depend on the vector's length and position,
so it is not stacked); everything after it is elementwise, and the same elementwise operations on the
same numbers give the same bits in a stacked array (``tests/engine/test_linear_rank.py`` compares
them with :meth:`similarities`, whole and at positions ``at``).
"""

from __future__ import annotations

from collections import defaultdict

import numpy as np

from ..ideal import R2_CAP
from .base import Parents
from .linear import LinearGaussianFamilies

__all__ = ["similarities_many"]

Ranking = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]

#: numbers in one group's stacked (F, k + 1, R) arrays at most (families ranked in chunks beyond it)
CHUNK = 2**20


def similarities_many(
    model: LinearGaussianFamilies,
    families: list[tuple[int, Parents]],
    cols: np.ndarray | None = None,
    at: list[np.ndarray | None] | None = None,
) -> list[Ranking]:
    """``[model.similarities(child, parents, cols, a) for (child, parents), a in zip(families, at)]``
    (``at``: positions among ``cols`` per family, None for the whole ranking; default all None), the
    same arrays to the bit, computed per group of families with the same parent count and positions."""
    at = [None] * len(families) if at is None else at
    groups: dict[tuple, list[int]] = defaultdict(list)
    for i, ((_, parents), a) in enumerate(zip(families, at, strict=True)):
        groups[(len(parents), None if a is None else a.tobytes())].append(i)
    out: list[Ranking | None] = [None] * len(families)
    for (k, _), idx in groups.items():
        a = at[idx[0]]
        width = (model.n_vars if cols is None else cols.size) if a is None else a.size
        step = max(1, CHUNK // ((k + 1) * max(width, 1)))  # bounds the (F, k, R) temporaries
        for lo in range(0, len(idx), step):
            part = idx[lo : lo + step]
            for i, r in zip(part, _group(model, [families[i] for i in part], cols, a), strict=True):
                out[i] = r
    return out  # type: ignore[return-value]


def _group(model: LinearGaussianFamilies, fams: list[tuple[int, Parents]], cols, at) -> list[Ranking]:
    """Rankings of families with the same number of parents k and the same positions ``at``."""
    sts = [model._stats(c, p) for c, p in fams]
    if cols is None:
        yz = np.stack([model._yz(c, p, st) for (c, p), st in zip(fams, sts, strict=True)])
        zz, s_all, cc = model._zz_rank, model.scatter, None
    else:
        yz = np.stack([model._yz_cols(c, p, st, cols) for (c, p), st in zip(fams, sts, strict=True)])
        zz, s_all, cc = model._zz_rank[cols], model.block(cols), cols
    if at is not None:
        yz, zz, cc = yz[:, at], zz[at], (at if cols is None else cols[at])
    m = model.n_samples
    yy = np.array([st.rss for st in sts])
    k = len(fams[0][1])
    n_fam = len(fams)
    # add (Theorems 3.2, 3.4): engine.ideal.c1_from_stats / c2_from_stats, row by row
    sigma2 = yy / m
    with np.errstate(divide="ignore", invalid="ignore"):
        c1 = np.where(zz > 0, (yz / np.sqrt(zz)) ** 2 / (2.0 * sigma2)[:, None], 0.0)
        r2 = np.where((zz > 0) & (yy > 0)[:, None], (yz / (np.sqrt(yy)[:, None] * np.sqrt(zz))) ** 2, 0.0)
    c1[sigma2 <= 0] = 0.0
    r2 = np.minimum(r2, R2_CAP)
    c2 = -0.5 * m * np.log1p(-r2)
    own = np.array([(c, *p) for c, p in fams], dtype=np.intp).reshape(n_fam, k + 1)
    rows, pos = _own_positions(own, cc, yz.shape[1])
    c1[rows, pos] = np.nan
    c2[rows, pos] = np.nan
    if k == 0:
        empty = np.zeros((0, yz.shape[1]))
        return [(c1[f].copy(), c2[f].copy(), empty, empty.copy()) for f in range(n_fam)]
    # replace (Definition 4.1): LinearGaussianFamilies.replace_similarity, family by family
    par = own[:, 1:]
    s = s_all[par]  # (F, k, R)
    if at is not None:
        s = s[:, :, at]
    alpha = np.stack([st.alpha for st in sts])  # (F, k)
    sq = alpha**2 * model._diag[par]
    yiz = yz[:, None, :] + alpha[:, :, None] * s
    yiyi = yy[:, None] + sq
    with np.errstate(divide="ignore", invalid="ignore"):
        fit_term = np.where(zz > 0, (yiz / np.sqrt(zz)) ** 2, 0.0)
    fit_term = np.minimum(fit_term, R2_CAP * yiyi[:, :, None])
    r1 = (m / (2.0 * yy))[:, None, None] * (fit_term - sq[:, :, None])
    rc2 = 0.5 * m * (np.log(yy)[:, None, None] - np.log(yiyi[:, :, None] - fit_term))
    r1[rows, :, pos] = np.nan
    rc2[rows, :, pos] = np.nan
    return [(c1[f].copy(), c2[f].copy(), r1[f].copy(), rc2[f].copy()) for f in range(n_fam)]


def _own_positions(own: np.ndarray, cc: np.ndarray | None, width: int) -> tuple[np.ndarray, np.ndarray]:
    """(family rows, positions) of each family's child and parents among the ranked columns ``cc``
    (all variables when None), as ``LinearGaussianFamilies._mask_own`` finds them."""
    rows = np.repeat(np.arange(own.shape[0]), own.shape[1])
    var = own.ravel()
    if cc is None:
        return rows, var
    if not cc.size:
        return rows[:0], var[:0]
    at = np.minimum(np.searchsorted(cc, var), cc.size - 1)
    hit = cc[at] == var
    return rows[hit], at[hit]
