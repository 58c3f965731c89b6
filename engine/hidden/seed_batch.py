"""Scoring and pruning many small candidate sets at once (#22 item 4): the seeds of a proposal round.

A regulator-listed network at ~270 conditions has ~12,000 semi-cliques (pairs of regulators with
the children they share, 3-13 members; benchmarks/RESULTS.md "The full tables"). Each is scored by
:func:`~.candidates.score_candidate` (JMLR 2007 section 5: the members' residuals with the edges
inside the set removed, ``Y^T Y = W^T S W``, the top eigenpair of their cosines, eq. 11-13, and the
one-factor fit :func:`~.candidates.factor_fit`) and then pruned (:func:`~.candidates.prune`: the
member with the smallest one-factor loading dropped while below ``MIN_LOADING``, the factor refitted
each time). One seed at a time, the factor's EM iterations, an L x L ``eigh`` and a sparse ``W`` per
seed and per drop were ~90 % of a proposal round on the full tables: thousands of tiny numpy calls.

Here the sets of equal member count are stacked and each step runs once for the whole stack:

* ``W`` (padded to the stack's largest row count, zeros at the pads) and ``S`` restricted to each
  set's rows, so ``Y^T Y`` is two batched products; the members' fits from
  :class:`~.fit_batch.FamilyTable` (a stack of fits per parent count, as ``model.fit`` computes each);
* one stacked ``eigh`` (the same LAPACK routine per matrix), and :func:`factor_fit_batch`, the
  factor's EM for every set at once, each set stopping at the iteration where it stops alone;
* a pruned set drops its weakest member and joins the stack one size smaller; a set that stops is
  scored in full (the estimate's terms as :func:`~.candidates.score_candidate` adds them, z* for
  the whole stack from one sparse product).

Exact up to rounding: the same sets, the same drops, the same estimates (sums run in another
order). ``tests/engine/test_hidden_seed_batch.py`` checks it against the one-at-a-time code.
Sets larger than :data:`BATCH_MAX` (profile clusters of hundreds of members; only the top pair
above ``DENSE_EIGH``, :mod:`.top_pair`) are scored one at a time as before.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np
from scipy import sparse

from .fit_batch import FamilyTable
from .proposals import DENSE_EIGH

__all__ = ["BATCH_MAX", "ROOT_PER_INSTANCE", "SEED_CHUNK", "factor_fit_batch", "score_seeds"]

#: the estimate's root term per instance (nats): -(log 2 pi + 1) / 2 (:mod:`.candidates`)
ROOT_PER_INSTANCE = -0.5 * (math.log(2.0 * math.pi) + 1.0)

#: sets with at most this many members are scored in stacks (a dense ``eigh``, as score_cluster)
BATCH_MAX = DENSE_EIGH

#: :func:`factor_fit_batch` compacts its arrays when at most this share of the carried sets still
#: iterates (a copy of the stack's matrices at every iteration a set stopped cost as much as the EM)
COMPACT = 0.75

#: sets per stack (memory ``SEED_CHUNK * rows^2`` floats for the gathered scatter blocks)
SEED_CHUNK = 512


def factor_fit_batch(
    corr: np.ndarray, n_samples: int, loadings: np.ndarray, n_iter: int = 60
) -> tuple[np.ndarray, np.ndarray]:
    """:func:`~.candidates.factor_fit` for a stack of ``B`` correlation matrices (B, L, L) at once:
    the observed-data log-likelihood gain of one common factor (Rubin & Thayer 1982 EM, started
    from ``loadings`` (B, L)), ``-(M/2) [log det S + tr(S^-1 R) - L]``, ``S = diag(psi) + a a^T``.
    Each set iterates until its own loadings move less than 1e-6 (or ``n_iter``), as alone.
    Returns the gains (B,) and the loadings (B, L)."""
    r = np.asarray(corr, dtype=float)
    a = np.clip(np.asarray(loadings, dtype=float), -0.99, 0.99).copy()
    psi = np.maximum(1.0 - a**2, 1e-3)
    d = np.diagonal(r, axis1=1, axis2=2).copy()
    # the sets still iterating: ``live`` indexes the stack's arrays as compacted; a set that stops keeps its
    # values from that iteration and is carried along (``open`` False) until a quarter of the carried
    # arrays are stopped sets, then the arrays are compacted (not copied at every iteration a set stops)
    live = np.arange(r.shape[0])
    open_ = np.ones(live.size, dtype=bool)
    al, pl, rl, dl = a, psi, r, d
    for _ in range(n_iter):
        if not open_.any():
            break
        u = al / pl  # beta = a^T (diag(psi) + a a^T)^-1 by Sherman-Morrison
        beta = u / (1.0 + np.einsum("bi,bi->b", al, u))[:, None]
        rb = (rl @ beta[:, :, None])[:, :, 0]  # R beta per set: a stacked BLAS matvec, 2-3x einsum's at L ~ 100
        czz = 1.0 - np.einsum("bi,bi->b", beta, al) + np.einsum("bi,bi->b", beta, rb)
        a_new = rb / czz[:, None]
        psi_new = np.maximum(dl - a_new * rb, 1e-6)
        done = open_ & (np.abs(a_new - al).max(axis=1) < 1e-6)
        al, pl = a_new, psi_new
        if done.any():
            a[live[done]], psi[live[done]] = al[done], pl[done]
            open_ &= ~done
            if open_.sum() <= COMPACT * open_.size:
                live, al, pl, rl, dl = live[open_], al[open_], pl[open_], rl[open_], dl[open_]
                open_ = np.ones(live.size, dtype=bool)
    a[live[open_]], psi[live[open_]] = al[open_], pl[open_]  # those stopped by n_iter
    u = a / psi  # log det S and tr(S^-1 R): the determinant lemma and Sherman-Morrison
    au = np.einsum("bi,bi->b", a, u)
    logdet = np.log(psi).sum(axis=1) + np.log1p(au)
    trace = np.sum(d / psi, axis=1) - np.einsum("bi,bij,bj->b", u, r, u) / (1.0 + au)
    return -0.5 * n_samples * (logdet + trace - r.shape[1]), a


class _Stack:
    """Sets of ``L`` members each: their residual maps ``W`` (B, R, L) over their rows ``rows``
    (B, R; padded with 0 and zero rows of ``W``), and per member its outside parents and fit."""

    def __init__(self, model, parents, sets: list[np.ndarray], fits: FamilyTable) -> None:
        self.sets = sets
        b, size = len(sets), sets[0].size
        self.outs, keys = [], []
        for members in sets:
            inside = set(members.tolist())
            outs = [tuple(p for p in parents[i] if p not in inside) for i in members.tolist()]
            self.outs.append(outs)
            keys.extend(zip(members.tolist(), outs, strict=True))
        fits.add(keys)
        cols = [fits.column(i, o) for i, o in keys]
        lengths = [r.size for r, _ in cols]
        seed = np.repeat(np.repeat(np.arange(b), size), lengths)
        col = np.repeat(np.tile(np.arange(size), b), lengths)
        var = np.concatenate([r for r, _ in cols])
        val = np.concatenate([v for _, v in cols])
        n = model.scatter.shape[0]
        uniq, at = np.unique(seed * n + var, return_inverse=True)  # each set's rows, sorted
        first = np.searchsorted(uniq // n, np.arange(b))
        count = np.diff(np.append(first, uniq.size))
        width = int(count.max())
        self.rows = np.zeros((b, width), dtype=np.intp)
        self.rows[uniq // n, np.arange(uniq.size) - first[uniq // n]] = uniq % n
        self.w = np.zeros((b, width, size))
        self.w[seed, at - first[seed], col] = val  # one entry per (member, variable)
        self.n_rows = count

    def scatter(self, s: np.ndarray) -> np.ndarray:
        """``Y^T Y = W^T S W`` for every set (B, L, L)."""
        n = s.shape[0]
        s_rows = np.take(s.ravel(), self.rows[:, :, None] * n + self.rows[:, None, :])  # S on each set's rows
        wt = np.swapaxes(self.w, 1, 2)
        return wt @ (s_rows @ self.w)


def _cosines(yty: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The residual cosines as :func:`~.candidates.score_candidate` forms them, and the RSS."""
    rss = np.maximum(np.diagonal(yty, axis1=1, axis2=2), 1e-300)
    cos = np.clip(yty / np.sqrt(rss[:, :, None] * rss[:, None, :]), -1.0, 1.0)
    cos[:, np.arange(yty.shape[1]), np.arange(yty.shape[1])] = 1.0
    return cos, rss


def _top_pairs(cos: np.ndarray, m: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """:func:`~.proposals.score_cluster` for a stack: lambda* (on the scale of M * cosines), v*
    (summing to >= 0) and the members' C2 (eq. 11-13)."""
    w, v = np.linalg.eigh(cos)
    lam = w[:, -1] * m
    vec = v[:, :, -1]
    vec = np.where((vec.sum(axis=1) < 0)[:, None], -vec, vec)
    r2 = np.clip(lam[:, None] * vec**2 / m, 0.0, 1.0 - 1e-12)
    return lam, vec, -0.5 * m * np.log1p(-r2)


def score_seeds(
    model,
    parents,
    sets: list[np.ndarray],
    pruned: list[bool],
    scorer,
    xc: np.ndarray,
    min_size: int,
    one_at_a_time: Callable[[np.ndarray, bool], object],
    rules: tuple[type, float],
) -> list:
    """The :class:`~.candidates.CandidateScore` of every set in ``sets``, pruned
    (:func:`~.candidates.prune` with ``min_size``) where ``pruned`` says so: what
    ``score_candidate`` then ``prune`` give one set at a time, computed in stacks of equal size.
    ``rules``: the CandidateScore class and ``MIN_LOADING``. Sets larger than :data:`BATCH_MAX`
    go to ``one_at_a_time(members, pruned)``."""
    make, min_loading = rules
    m = xc.shape[0]
    fits = FamilyTable(model, scorer)
    small = [np.asarray(s, dtype=np.intp) for s in sets if 2 <= len(s) <= BATCH_MAX]
    if small:  # the members' current families, all at once
        fits.add((i, tuple(parents[i])) for i in np.unique(np.concatenate(small)).tolist())
    out: list = [None] * len(sets)
    pending: dict[int, list[tuple[int, np.ndarray]]] = {}
    for k, s in enumerate(sets):
        s = np.asarray(s, dtype=np.intp)
        if s.size > BATCH_MAX or s.size < 2:
            out[k] = one_at_a_time(s, pruned[k])
        else:
            pending.setdefault(s.size, []).append((k, s))
    n_par = np.array([len(p) for p in parents])
    while pending:
        size = max(pending)
        items = pending.pop(size)
        items.sort(key=lambda item: int(n_par[item[1]].sum()))  # stacks of like row counts: little padding
        for lo in range(0, len(items), SEED_CHUNK):
            chunk = items[lo : lo + SEED_CHUNK]
            stack = _Stack(model, parents, [s for _, s in chunk], fits)
            cos, rss = _cosines(stack.scatter(model.scatter))
            lam, vec, c2m = _top_pairs(cos, m)
            fgain, load = factor_fit_batch(cos, m, vec * np.sqrt(lam / m)[:, None])
            weakest = np.argmin(np.abs(load), axis=1)
            drop = np.abs(load[np.arange(len(chunk)), weakest]) < min_loading
            done = []
            for b, (k, s) in enumerate(chunk):
                if pruned[k] and size > min_size and drop[b]:
                    pending.setdefault(size - 1, []).append((k, np.delete(s, weakest[b])))
                else:
                    done.append(b)
            if done:
                z = _profiles(stack, rss, vec, xc, done)
                for b, zb in zip(done, z, strict=True):
                    k = chunk[b][0]
                    out[k] = _candidate(
                        make,
                        fits,
                        parents,
                        stack,
                        b,
                        scorer,
                        m,
                        lam[b],
                        vec[b].copy(),
                        c2m[b].copy(),
                        fgain[b],
                        load[b].copy(),
                        zb,
                    )
    return out


def _profiles(stack: _Stack, rss: np.ndarray, vec: np.ndarray, xc: np.ndarray, done: list[int]) -> np.ndarray:
    """z* = Xc W diag(1 / sigma) v* for the sets ``done`` of the stack (one row each)."""
    sig = np.sqrt(rss[done] / xc.shape[0])
    weights = np.einsum("brl,bl->br", stack.w[done], vec[done] / sig)  # on each set's rows
    rows = stack.rows[done]
    cols = np.repeat(np.arange(len(done)), rows.shape[1])
    mat = sparse.csc_matrix((weights.ravel(), (rows.ravel(), cols)), shape=(xc.shape[1], len(done)))
    return np.asarray(mat.T @ xc.T)  # (sets, M); pads carry zero weight


def _candidate(make, fits: FamilyTable, parents, stack: _Stack, b: int, scorer, m: int, lam, vec, c2m, fgain, load, z):
    """The CandidateScore of set ``b`` of the stack, its estimate's terms summed as
    :func:`~.candidates.score_candidate` sums them."""
    members = stack.sets[b].tolist()
    outs = stack.outs[b]
    inside = set(members)
    removed = [(int(p), i) for i in members for p in parents[i] if p in inside]
    current = sum(fits[i, tuple(parents[i])][1] for i in members)
    kept = sum(fits[i, o][1] for i, o in zip(members, outs, strict=True))
    add_pen = sum(scorer.penalty(len(o) + 3, len(o) + 1) - scorer.penalty(len(o) + 2, len(o)) for o in outs)
    gain = kept + float(fgain) - add_pen - scorer.penalty(2, 0) - current
    complete = kept + float(c2m.sum()) + m * ROOT_PER_INSTANCE - add_pen - scorer.penalty(2, 0) - current
    return make(
        stack.sets[b], float(gain), float(lam), vec, c2m, z, removed, float(current - kept), load, float(complete)
    )
