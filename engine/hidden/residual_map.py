"""The map from a candidate set's variables to its members' residuals, kept sparse (#22).

A hidden-variable candidate is scored on its members' residuals with the edges inside the set
removed (:func:`engine.hidden.candidates.score_candidate`): member i's residual is
``x_i - X_outs(i) b_i``, its value minus its fit on its parents outside the set. As a matrix ``W``
(rows: the members and their outside parents; one column per member, ``1 + |outs(i)|`` entries),
the residuals' scatter is ``W^T S W`` and their values ``Xc W``. With hundreds of members (a
grown or pruned semi-clique on a 4,000-gene table with 270 conditions) a dense ``W`` costs
O(|rows|^2 L) per score and the set is re-scored once per member pruned; the sparse products cost
O(|rows| nnz(W)). Equal to the dense products up to rounding (the sums run in another order).
"""

from __future__ import annotations

import numpy as np
from scipy import sparse

__all__ = ["residual_map", "residual_scatter"]


def residual_map(members, outs, coefficients, rows: np.ndarray) -> sparse.csc_matrix:
    """``W`` (len(rows) x len(members)): column i is 1 at member i and ``-b_i`` at its parents
    ``outs[i]`` (``coefficients[i]``, in the order of ``outs[i]``); ``rows`` are the sorted
    variables the rows stand for (every member and every outside parent)."""
    lengths = [1 + len(o) for o in outs]
    var = np.fromiter((v for i, o in zip(members, outs, strict=True) for v in (int(i), *o)), np.intp, sum(lengths))
    vals = [x for b, o in zip(coefficients, outs, strict=True) for x in (1.0, *(-np.asarray(b, float) if o else ()))]
    r = np.searchsorted(rows, var)  # each entry's row (rows sorted)
    order = np.lexsort((r, np.repeat(np.arange(len(members)), lengths)))  # by column, rows sorted within
    ptr = np.concatenate([[0], np.cumsum(lengths)])
    # the canonical CSC arrays scipy builds from (row, column) pairs, without its COO detour
    return sparse.csc_matrix((np.asarray(vals, dtype=float)[order], r[order], ptr), shape=(len(rows), len(members)))


def residual_scatter(w: sparse.csc_matrix, scatter_rows: np.ndarray) -> np.ndarray:
    """``W^T S W`` (dense, L x L) from ``S`` restricted to the rows of ``w`` (dense)."""
    wt = w.T
    return np.asarray(wt @ (wt @ scatter_rows).T)
