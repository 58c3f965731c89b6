"""Pruning and growing a candidate set without re-scoring it member by member (#22 item 4).

A candidate set C is scored on its members' residuals with the edges inside C removed
(:func:`~.candidates.score_candidate`): member i is refitted on its parents outside C,
``U_i' = U_i \\ C``, and the residuals' scatter is ``Y^T Y = W^T S W`` (:mod:`.residual_map`).
:func:`~.candidates.prune` drops the member with the smallest one-factor loading while it is below
``MIN_LOADING``, the factor refitted after each drop; :func:`~.candidates.grow` screens every
skeleton neighbour X_v of the set by ``|corr(y_v, z*)|``, y_v the residual of X_v on its parents
outside the set. At ~270 conditions a grown semi-clique holds hundreds of members and its
neighbours are thousands of genes; re-scoring the whole set per member dropped (every member's
fit, the map W, ``W^T S W``, the penalties, z*) and fitting the neighbours one at a time in a
Python loop were most of a proposal round on 4,000-gene tables.

* :class:`MemberResiduals` keeps ``Y^T Y`` between drops. Dropping member j changes only the
  residuals of the members that had j as a parent (j is now outside the set, so it joins their
  outside parents): those are refitted (``model.fit``, the same fits the full score makes) and
  their rows and columns of ``Y^T Y`` recomputed, ``(S W_A)`` then ``W^T (S W_A)``; row and
  column j are deleted. The cosines are formed as :func:`~.candidates.score_candidate` forms
  them, kept, and only those members' rows and columns formed again (the same entries bit for
  bit); the factor is refitted on them as before.
* :func:`~.candidates.grow` keeps, across the seeds of one proposal round, every round's start and
  every pruned grown set: seeds of one large module grow through the same sets (on a yeast cell-cycle
  table 300 prunes of 500-750 members were 207 distinct sets: the first round 72 -> 61 s CPU).
* :func:`neighbour_screen` fits every neighbour on its outside parents at once: the parent sets,
  padded to the largest of a chunk (neighbours sorted by parent count, so chunks are alike), give a
  stack of ``S_UU`` systems solved in one batched call (memory ``chunk * k^2``), and
  ``y_v . z = x_v . z - b_v . X_U^T z`` and ``y_v . y_v = S_vv - 2 b_v . S_Uv + b_v^T S_UU b_v``
  come from the scatter and one product ``z^T X`` (no pass over the data per neighbour). A fit
  within rounding of exact (residual < :data:`EXACT_FIT` of the sum of squares) has its residual
  formed from the values, as before.
* :func:`grow_best` grows each distinct pruned semi-clique once, and at most :data:`MAX_GROWN` of
  them (those with the most common variance): the one approximation here, which changes nothing on
  a network with fewer semi-cliques (~12,000 on a 4,000-gene table at ~270 conditions, 0-2 on the
  2,500 x 27 generators; benchmarks/RESULTS.md "The full tables").

The first two equal the member-by-member computation up to rounding (sums run in another order; the
batched solve is an LU, ``model.fit`` an inverse Cholesky): ``tests/engine/test_hidden_prune.py``
checks them against it, drop by drop and proposal by proposal. Not checked here: that ``model``
is linear-Gaussian with a ``scatter`` matrix (as :func:`~.candidates.score_candidate` needs).
"""

from __future__ import annotations

import numpy as np
from scipy import sparse

from .residual_map import residual_map, residual_scatter

__all__ = [
    "MAX_GROWN",
    "MemberResiduals",
    "disjoint_best",
    "grow_best",
    "neighbour_screen",
    "neighbours",
    "parent_matrix",
]


class MemberResiduals:
    """The residual scatter ``Y^T Y`` of a candidate set's members (inside edges removed), kept
    up to date as members are dropped one at a time.

    Parameters
    ----------
    model : LinearGaussianFamilies (``fit`` and ``scatter``)
    parents : list of tuple of int, every variable's current parents
    members : array of int, the set (its order is kept; a drop deletes a position)
    """

    def __init__(self, model, parents, members) -> None:
        self.model = model
        self.parents = parents
        self.members = np.asarray(members, dtype=np.intp).copy()
        self.inside = set(int(v) for v in self.members)
        outs = [self._outs(int(i)) for i in self.members]
        coefs = [self._coefs(int(i), o) for i, o in zip(self.members, outs, strict=True)]
        idx = np.array(sorted(self.inside.union(*[set(o) for o in outs])), dtype=np.intp)
        w = residual_map(self.members, outs, coefs, idx)
        self.yty = residual_scatter(w, model.scatter[np.ix_(idx, idx)])  # as score_candidate forms it
        # each member's column of W over all N variables: (variables, values)
        self.cols = [_column(int(i), o, c) for i, o, c in zip(self.members, outs, coefs, strict=True)]
        self.kids: dict[int, list[int]] = {}  # member -> the members it is a parent of
        for i in self.members:
            for p in parents[int(i)]:
                self.kids.setdefault(int(p), []).append(int(i))
        self._cos: np.ndarray | None = None  # the cosines, kept between drops

    @property
    def size(self) -> int:
        return int(self.members.size)

    def _outs(self, i: int) -> tuple[int, ...]:
        return tuple(p for p in self.parents[i] if p not in self.inside)

    def _coefs(self, i: int, outs: tuple[int, ...]):
        return self.model.fit(i, outs).params["coefficients"] if outs else ()

    def cosines(self) -> np.ndarray:
        """The members' residual cosines, formed as :func:`~.candidates.score_candidate` forms them
        (the caller may not change the array: it is kept and updated by :meth:`drop`)."""
        if self._cos is None:
            rss = np.maximum(np.diag(self.yty), 1e-300)
            self._cos = np.clip(self.yty / np.sqrt(np.outer(rss, rss)), -1.0, 1.0)
            np.fill_diagonal(self._cos, 1.0)
        return self._cos

    def drop(self, j: int) -> np.ndarray:
        """Drop the member at position ``j``; returns the new cosines (L-1 x L-1)."""
        gone = int(self.members[j])
        self.inside.discard(gone)
        keep = np.arange(self.size) != j
        self.members = self.members[keep]
        del self.cols[j]
        self.yty = self.yty[np.ix_(keep, keep)]
        if self._cos is not None:
            self._cos = self._cos[np.ix_(keep, keep)]
        # members that had the dropped one as a parent: it is outside now, so one more outside parent
        changed = np.flatnonzero(np.isin(self.members, self.kids.get(gone, ()))).tolist()
        for k in changed:
            i = int(self.members[k])
            outs = self._outs(i)
            self.cols[k] = _column(i, outs, self._coefs(i, outs))
        if changed:
            lengths = [r.size for r, _ in self.cols]
            ptr = np.concatenate([[0], np.cumsum(lengths)])
            rows = np.concatenate([r for r, _ in self.cols])
            vals = np.concatenate([v for _, v in self.cols])
            n = self.model.scatter.shape[0]
            w = sparse.csc_matrix((vals, rows, ptr), shape=(n, self.size))  # W, N x L
            sw = np.asarray(w[:, changed].T @ self.model.scatter).T  # S W_A, N x |A| (S symmetric)
            cols = np.asarray(w.T @ sw)  # W^T S W_A, L x |A|
            self.yty[:, changed] = cols
            self.yty[changed, :] = cols.T
            if self._cos is not None:  # the changed rows and columns, each entry as cosines() forms it
                rss = np.maximum(np.diag(self.yty), 1e-300)
                self._cos[:, changed] = np.clip(self.yty[:, changed] / np.sqrt(np.outer(rss, rss[changed])), -1.0, 1.0)
                self._cos[changed, :] = np.clip(self.yty[changed, :] / np.sqrt(np.outer(rss[changed], rss)), -1.0, 1.0)
                self._cos[changed, changed] = 1.0
        return self.cosines()


def _column(i: int, outs: tuple[int, ...], coefs) -> tuple[np.ndarray, np.ndarray]:
    """Member i's column of W: 1 at i, ``-b_i`` at its outside parents."""
    return np.array((i, *outs), dtype=np.intp), np.concatenate([[1.0], -np.asarray(coefs, dtype=float)])


def parent_matrix(parents) -> sparse.csr_matrix:
    """``P[c, p] = 1`` for every edge p -> c (rows: children; sparse, one entry per edge)."""
    n = len(parents)
    cols = np.fromiter((p for ps in parents for p in ps), dtype=np.intp)
    ptr = np.zeros(n + 1, dtype=np.intp)
    ptr[1:] = np.cumsum([len(ps) for ps in parents])
    return sparse.csr_matrix((np.ones(cols.size, dtype=bool), cols, ptr), shape=(n, n))


def neighbours(adj, members: np.ndarray) -> np.ndarray:
    """Boolean mask of the variables adjacent to any of ``members`` in the skeleton ``adj``
    (sparse or dense), as ``adj[members].sum(axis=0) > 0`` gives it: read from the CSR arrays
    (a grown set's rows gathered by index, without building a sliced sparse matrix per round)."""
    members = np.asarray(members, dtype=np.intp)
    if not sparse.issparse(adj):
        return np.asarray(adj)[members].any(axis=0)
    adj = adj.tocsr()
    at = _ranges(adj.indptr[members], adj.indptr[members + 1] - adj.indptr[members])
    mask = np.zeros(adj.shape[1], dtype=bool)
    mask[adj.indices[at[adj.data[at] != 0]]] = True
    return mask


def _skeleton(parents) -> sparse.csr_matrix:
    """Symmetric adjacency of the current network (sparse: memory grows with the edges, not N²)."""
    n = len(parents)
    rows = np.fromiter((p for ps in parents for p in ps), dtype=np.intp)
    cols = np.fromiter((c for c, ps in enumerate(parents) for _ in ps), dtype=np.intp)
    one = np.ones(rows.size, dtype=bool)
    adj = sparse.csr_matrix((one, (rows, cols)), shape=(n, n), dtype=bool)
    return (adj + adj.T).tocsr()


#: neighbours fitted per batched solve in :func:`neighbour_screen` (memory chunk * k^2 floats)
SCREEN_CHUNK = 256


def neighbour_screen(
    model, pmat: sparse.csr_matrix, xc: np.ndarray, near: np.ndarray, inside: np.ndarray, z: np.ndarray
) -> np.ndarray:
    """``|y_v . z| / ||y_v||`` for each neighbour v in ``near``: y_v the residual of X_v on its
    parents outside the set (``inside`` a boolean mask), least-squares coefficients from the
    scatter as :meth:`model.fit <engine.cpd.linear.LinearGaussianFamilies.fit>` gives them;
    ``z`` unit-norm and centred, ``pmat`` from :func:`parent_matrix`.

    A chunk whose stack of ``S_UU`` is not positive definite (collinear parents) is fitted one
    neighbour at a time by ``model.fit``, which then falls back to least squares as it always does.
    """
    near = np.asarray(near, dtype=np.intp)
    ptr, cols = _outside_parents(pmat, near, inside)  # sorted: the same order as model.fit's
    order = np.argsort(np.diff(ptr), kind="stable")  # chunks of like parent counts: little padding
    counts = np.diff(ptr)[order]
    ptr, cols = np.concatenate([[0], np.cumsum(counts)]), cols[_ranges(ptr[order], counts)]
    s = model.scatter
    g = z @ xc  # x_u . z for every variable
    dot, rss = g[near[order]].copy(), s[near[order], near[order]].copy()
    for lo in range(0, near.size, SCREEN_CHUNK):
        hi = min(lo + SCREEN_CHUNK, near.size)
        k = int(counts[lo:hi].max())
        if k:
            v = near[order[lo:hi]]
            u, mask = _padded(ptr, cols, lo, hi, k)
            b, s_uu, rhs = _batched_fit(model, s, v, u, mask)
            dot[lo:hi] -= np.einsum("ck,ck->c", b, g[u])  # y.z = x_v.z - b.(X_U^T z)
            # y.y = S_vv - 2 b.S_Uv + b^T S_UU b, the residual sum of squares of the fit
            rss[lo:hi] += np.einsum("ck,ck->c", b, np.einsum("cij,cj->ci", s_uu, b) - 2.0 * rhs)
    corr = np.zeros(near.size)
    # a fit within rounding of exact leaves a residual of rounding noise, formed from the values
    # as before rather than from the scatter (where it cancels)
    noisy = rss < EXACT_FIT * np.diag(s)[near[order]]
    corr[order] = np.abs(dot) / np.sqrt(np.maximum(rss, 1e-300))
    for k in order[noisy]:
        corr[k] = _one_neighbour(model, pmat, xc, int(near[k]), inside, z)
    return corr


#: a neighbour whose fit leaves less than this share of its sum of squares gets its residual
#: formed from the values (:func:`_one_neighbour`), not from the scatter
EXACT_FIT = 1e-6


def _one_neighbour(model, pmat, xc, v: int, inside, z) -> float:
    """|corr(y_v, z)| with y_v formed from the values (the one-at-a-time computation)."""
    outs = tuple(int(p) for p in pmat.indices[pmat.indptr[v] : pmat.indptr[v + 1]] if not inside[p])
    y = xc[:, v]
    if outs:
        y = y - xc[:, list(outs)] @ np.asarray(model.fit(v, tuple(sorted(outs))).params["coefficients"], dtype=float)
    return abs(float(y @ z)) / max(float(np.linalg.norm(y)), 1e-300)


def _padded(indptr: np.ndarray, indices: np.ndarray, lo: int, hi: int, k: int) -> tuple[np.ndarray, np.ndarray]:
    """Rows lo..hi of the CSR arrays ``indptr``/``indices`` as a (rows, k) array of column
    indices (pads point at column 0) and the mask of the real entries."""
    ptr = indptr[lo : hi + 1]
    counts = np.diff(ptr)
    row = np.repeat(np.arange(hi - lo), counts)
    pos = np.arange(ptr[0], ptr[-1]) - np.repeat(ptr[:-1], counts)
    u = np.zeros((hi - lo, k), dtype=np.intp)
    mask = np.zeros((hi - lo, k), dtype=bool)
    u[row, pos] = indices[ptr[0] : ptr[-1]]
    mask[row, pos] = True
    return u, mask


def _ranges(starts: np.ndarray, lengths: np.ndarray) -> np.ndarray:
    """The concatenated index ranges ``starts[i] .. starts[i] + lengths[i]`` (CSR rows gathered)."""
    lengths = np.asarray(lengths, dtype=np.intp)
    offsets = np.concatenate([[0], np.cumsum(lengths)[:-1]]).astype(np.intp)
    return np.repeat(np.asarray(starts, dtype=np.intp) - offsets, lengths) + np.arange(int(lengths.sum()))


def _outside_parents(pmat: sparse.csr_matrix, near: np.ndarray, inside: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """CSR arrays ``(indptr, indices)``: row r holds the parents of ``near[r]`` outside the set
    (``inside`` a mask), sorted; what ``pmat[near]`` with the inside columns removed holds."""
    starts = pmat.indptr[near]
    lengths = pmat.indptr[near + 1] - starts
    at = _ranges(starts, lengths)
    cols, row = pmat.indices[at], np.repeat(np.arange(near.size), lengths)
    keep = ~inside[cols] & (pmat.data[at] != 0)
    cols, row = cols[keep], row[keep]
    o = np.lexsort((cols, row))
    return np.concatenate([[0], np.cumsum(np.bincount(row, minlength=near.size))]), cols[o]


def _batched_fit(model, s: np.ndarray, v: np.ndarray, u: np.ndarray, mask: np.ndarray):
    """Least-squares coefficients of each X_v on its padded parents ``u`` (zeros at the pads),
    with the systems ``S_UU`` (identity at the pads) and right-hand sides ``S_Uv`` (zeros)."""
    both = mask[:, :, None] & mask[:, None, :]
    s_uu = np.where(both, s[u[:, :, None], u[:, None, :]], 0.0)
    pad = np.flatnonzero(~mask.ravel())
    s_uu.reshape(-1, mask.shape[1])[pad, pad % mask.shape[1]] = 1.0  # identity on the pads
    rhs = np.where(mask, s[u, v[:, None]], 0.0)
    try:
        np.linalg.cholesky(s_uu)  # model.fit's test for collinear parents
        return np.linalg.solve(s_uu, rhs[:, :, None])[:, :, 0], s_uu, rhs
    except np.linalg.LinAlgError:
        b = np.zeros(mask.shape)
        for r in range(v.size):  # the rare chunk with collinear parents: model.fit's own fallback
            ps = tuple(int(p) for p in u[r, mask[r]])
            if ps:
                b[r, : len(ps)] = model.fit(int(v[r]), ps).params["coefficients"]
        return b, s_uu, rhs


#: at most this many distinct pruned semi-cliques are grown (None: every one), those with the
#: largest common variance (sum of squared one-factor loadings, the order the semi-clique pool is
#: picked in); see :func:`grow_best`. Networks with fewer are unchanged by it (the benchmarks'
#: generators, RESULTS.md "The full tables"); at ~270 conditions there are ~12,000.
MAX_GROWN: int | None = 100


def grow_best(seeds, grow_one, limit: int | None = None, grow_all=None) -> dict:
    """The grown set of each pruned semi-clique in ``seeds`` (pairs of a candidate score and its
    source; others are skipped), by position, where growing changed it: ``grow_one(cs)``
    (:func:`~.candidates.grow`) once per distinct member set, for the ``limit`` (default
    :data:`MAX_GROWN`) distinct sets with the largest common variance, ties in seed order; or
    ``grow_all(list of cs)`` once for all of them (:func:`~.grow_batch.grow_many`, the same sets).

    A regulator-listed network at ~270 conditions has ~12,000 semi-cliques (pairs of regulators
    with the children they share) and each grows into a set of hundreds of members; only the few
    grown sets with the most common variance are proposed (:func:`~.candidates.propose_from_search`).
    """
    limit = MAX_GROWN if limit is None else limit
    semis = [k for k, (_, src) in enumerate(seeds) if "semi-clique" in src]
    semis.sort(key=lambda k: -float(np.sum(seeds[k][0].factor_loadings ** 2)))  # stable: seed order on ties
    first: dict[tuple[int, ...], object] = {}  # each distinct set to grow, in that order
    for k in semis:
        key = tuple(int(v) for v in seeds[k][0].members)
        if key not in first and (limit is None or len(first) < limit):
            first[key] = seeds[k][0]
    if not first:
        return {}
    grown = grow_all(list(first.values())) if grow_all is not None else [grow_one(cs) for cs in first.values()]
    done = dict(zip(first, grown, strict=True))
    out = {}
    for k in semis:
        key = tuple(int(v) for v in seeds[k][0].members)
        if key in done and not np.array_equal(done[key].members, seeds[k][0].members):
            out[k] = done[key]
    return out


def disjoint_best(pool, n: int, source: str, limit: int) -> list:
    """The first ``limit`` candidate sets of ``pool`` (already in rank order) that share no member
    with a set picked before them, each paired with ``source``; ``n`` the number of variables."""
    used = np.zeros(n, dtype=bool)
    out = []
    for cs in pool:
        if not used[cs.members].any():
            used[cs.members] = True
            out.append((cs, source))
        if len(out) >= limit:
            break
    return out
