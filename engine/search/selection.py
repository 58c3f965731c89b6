"""Candidate selection: which candidate moves of a family are scored exactly.

JMLR 2007 Algorithm 2 ranks a family's Add and Replace candidates by the ideal-parent measure
(C1 or C2, section 4.2) and scores exactly only the top K; Algorithm 1 (``greedy``) scores every
legal candidate. Delete and Reverse are always scored exactly. This module holds the per-family
cache of measures and exact gains (:class:`FamilyEntry`), the selector, and the deterministic
tie-breaking helpers shared by the stepper and the candidate table.
"""

from __future__ import annotations

import math

import numpy as np

from ..exceptions import DataValidationError
from .family_entry import FamilyEntry
from .settings import SearchSettings

__all__ = [
    "FamilyEntry",
    "select_candidates",
    "select_many",
    "measure_arrays",
    "top_k",
    "ranks",
    "argbest",
    "better",
    "default_entry_cache",
    "ensure_exact",
    "ENTRY_BYTES",
]

#: memory budget of the cached rankings of families that are no longer current (bytes)
ENTRY_BYTES = 256 * 2**20


def default_entry_cache(n_vars: int) -> int:
    """How many :class:`FamilyEntry` objects a stepper keeps: the ``n_vars`` current families plus
    older ones up to :data:`ENTRY_BYTES` (reckoned at six N-vectors an entry, as dense exact gains
    and rankings were; an evicted entry's exact gains are scored again), never fewer than 256
    older ones; ``max(2 N, 2048)`` in all when that fits."""
    extra = min(max(2 * n_vars, 2048) - n_vars, ENTRY_BYTES // (48 * max(n_vars, 1)))
    return n_vars + max(256, extra)


def measure_arrays(settings: SearchSettings, e: FamilyEntry) -> tuple[np.ndarray, np.ndarray]:
    """The family's Add and Replace measures under the search's ``measure`` (C1 or C2), over its
    candidate columns (:meth:`FamilyEntry.measures`)."""
    a1, a2, r1, r2 = e.measures()
    return (a2, r2) if settings.measure == "c2" else (a1, r1)


def select_candidates(
    settings: SearchSettings, e: FamilyEntry, legal_add: np.ndarray, rep_legal: np.ndarray
) -> tuple[np.ndarray, list[tuple[int, np.ndarray]], int]:
    """Candidates of one family sent to exact scoring.

    ``legal_add`` (C,) marks the legal new parents among the family's candidate columns,
    ``rep_legal`` (k, C) the legal replacements of each current parent. Returns (add positions,
    [(parent position i, replacement positions)] (positions among the candidate columns),
    number of candidates ranked). ``greedy`` sends every legal candidate; ``ideal`` the top
    ``k`` by the measure, in one shared queue or per operator (see :class:`SearchSettings`).
    """
    k_par = len(e.parents)
    if not (legal_add.any() or rep_legal.any()):  # e.g. a frozen family: no measure needed
        return _NONE, [(i, _NONE) for i in range(k_par)], 0
    if settings.method == "greedy":
        return np.flatnonzero(legal_add), [(i, np.flatnonzero(rep_legal[i])) for i in range(k_par)], 0
    add_m, rep_m = measure_arrays(settings, e)
    add_s = np.where(legal_add, add_m, -np.inf)
    rep_s = np.where(rep_legal, rep_m, -np.inf)
    n_ranked = int(legal_add.sum() + rep_legal.sum())
    if settings.queue == "shared":
        scores = np.concatenate([add_s, rep_s.ravel()])
        top = top_k(scores, settings.k)
        n = add_s.shape[0]
        add_idx = top[top < n]
        chosen: list[list[int]] = [[] for _ in range(k_par)]
        for f in top[top >= n].tolist():  # at most k of them
            chosen[f // n - 1].append(f % n)
        reps = [(i, np.array(sorted(z), dtype=np.intp) if z else _NONE) for i, z in enumerate(chosen)]
        return np.sort(add_idx), reps, n_ranked
    add_idx = np.sort(top_k(add_s, settings.k))
    reps = [(i, np.sort(top_k(rep_s[i], settings.k))) for i in range(k_par)]
    return add_idx, reps, n_ranked


_NONE = np.zeros(0, dtype=np.intp)
_NONE.flags.writeable = False


def select_many(
    settings: SearchSettings, entries: list[FamilyEntry], legal_adds: list[np.ndarray], rep_legals: list[np.ndarray]
) -> list[tuple[np.ndarray, list[tuple[int, np.ndarray]], int]]:
    """:func:`select_candidates` of several families (``ideal``, one shared queue), the same candidates
    found per group of families with the same parent count in a few array operations: the top ``k``
    finite scores of each row, ties to the lower index (:func:`top_k`'s rule), from a partition."""
    out: list = [None] * len(entries)
    groups: dict[tuple, list[int]] = {}
    for f, (e, la, rl) in enumerate(zip(entries, legal_adds, rep_legals, strict=True)):
        if la.any() or rl.any():
            groups.setdefault(rl.shape, []).append(f)
        else:  # as select_candidates: no measure needed
            out[f] = (_NONE, [(i, _NONE) for i in range(len(e.parents))], 0)
    for (k_par, width), idx in groups.items():
        pairs = [measure_arrays(settings, entries[f]) for f in idx]
        legal = np.concatenate(
            [
                np.stack([legal_adds[f] for f in idx]),
                np.stack([rep_legals[f] for f in idx]).reshape(len(idx), k_par * width),
            ],
            axis=1,
        )
        scores = np.concatenate(
            [np.stack([a for a, _ in pairs]), np.stack([r for _, r in pairs]).reshape(len(idx), k_par * width)], axis=1
        )
        n_ranked = legal.sum(axis=1).tolist()
        key = np.where(legal & np.isfinite(scores), -scores, np.inf)  # smallest first; not finite: never
        if settings.k < key.shape[1]:
            kth = np.partition(key, settings.k - 1, axis=1)[:, settings.k - 1 : settings.k]
            tie = key == kth
            need = settings.k - (key < kth).sum(axis=1, keepdims=True)
            pick = (key < kth) | (tie & (np.cumsum(tie, axis=1) <= need))
            pick &= key < np.inf
        else:
            pick = key < np.inf
        rows, pos = np.nonzero(pick)
        chosen: list[list[list[int]]] = [[[] for _ in range(k_par + 1)] for _ in idx]
        for r, p in zip(rows.tolist(), pos.tolist(), strict=True):
            chosen[r][p // width].append(p % width)
        for r, f in enumerate(idx):
            add, *reps = chosen[r]
            out[f] = (
                np.array(add, dtype=np.intp),
                [(i, np.array(z, dtype=np.intp) if z else _NONE) for i, z in enumerate(reps)],
                n_ranked[r],
            )
    return out


def top_k(scores: np.ndarray, k: int) -> np.ndarray:
    """Indices of the (up to) k largest finite scores; ties go to the lower index. O(n)."""
    finite = np.isfinite(scores)
    n_finite = int(finite.sum())
    if n_finite <= k:
        return np.flatnonzero(finite)
    s = np.where(finite, scores, -np.inf)
    kth = s[np.argpartition(-s, k - 1)[:k]].min()
    cand = np.flatnonzero(s >= kth)
    if cand.size > k:
        cand = cand[np.lexsort((cand, -s[cand]))[:k]]
    return cand


def ranks(pool: np.ndarray, values: np.ndarray) -> np.ndarray:
    """1-based rank of each value within ``pool`` (higher is better; NaN ignored)."""
    finite = np.sort(pool[np.isfinite(pool)])
    return (finite.size - np.searchsorted(finite, values, side="right") + 1).astype(np.intp)


def argbest(deltas: np.ndarray, idx: np.ndarray) -> int:
    """Position of the best delta; within tolerance, the lowest candidate index wins.

    Raises :class:`DataValidationError` when every delta is NaN or one is +inf (a numerical
    overflow upstream): skipping them would silently end the search with a wrong answer (#14)."""
    if deltas.size <= 8:  # a family's few selected candidates: the same answer in Python floats, faster
        vals = deltas.tolist()
        top = max(vals)
        if top < math.inf and all(v == v for v in vals):  # no NaN and no +inf
            tol = top - 1e-9 * max(1.0, abs(top))
            near = [i for i, v in enumerate(vals) if v >= tol]
            if len(near) == 1:
                return near[0]
            keys = idx[near].tolist()
            return near[keys.index(min(keys))]
    top = deltas.max()  # NaN if any is NaN
    if top < np.inf:  # no NaN and no +inf: the common case
        near = np.flatnonzero(deltas >= top - 1e-9 * max(1.0, abs(top)))
        return int(near[0]) if near.size == 1 else int(near[np.argmin(idx[near])])
    if np.isnan(deltas).all() or np.isposinf(deltas).any():
        raise DataValidationError(
            "the exact score changes of a family's candidates are not finite numbers (numerical over- or "
            "underflow); rescale the data, e.g. keep standardization on."
        )
    top = np.nanmax(deltas)
    near = np.flatnonzero(deltas >= top - 1e-9 * max(1.0, abs(top)))
    return int(near[np.argmin(idx[near])])


def better(d_new: float, key_new: tuple, d_old: float, key_old: tuple, tol: float) -> bool:
    """Whether a move with BIC change ``d_new`` beats ``d_old``; within a relative 1e-9 the
    smaller tie-break key (operator, child, parent, replaced parent) wins."""
    scale = 1e-9 * max(1.0, abs(d_new), abs(d_old))
    if d_new > d_old + scale:
        return True
    if d_new < d_old - scale:
        return False
    return key_new < key_old


def ensure_exact(stepper, requests: list) -> None:
    """Score exactly, in one batch, the candidates of ``requests`` not yet scored.

    Each request is ``("add", child, entry, -1, candidates)`` or ``("rep", child, entry, i,
    candidates)``. A replacement of parent i is scored as an addition to the family without
    it: ``Delta_rep = Delta_delete(i) + Delta_add(candidate | parents - {i})``. The model
    receives all additions at once (non-linear CPDs fit them as one vectorized batch); each
    gain computed counts in ``stepper.n_exact``.
    """
    jobs = []
    for kind, child, e, i, idx in requests:
        if kind == "add":
            need = idx[np.isnan(e.add_exact[idx])]
            parents = e.parents
        else:
            need = idx[np.isnan(e.rep_exact[i, idx])]
            parents = e.parents[:i] + e.parents[i + 1 :]
        if need.size:
            jobs.append((kind, child, e, i, need, parents))
    if not jobs:
        return
    gains = stepper.model.exact_add_many([(child, parents, need) for _, child, _, _, need, parents in jobs])
    for (kind, _child, e, i, need, _parents), g in zip(jobs, gains, strict=True):
        if kind == "add":
            e.add_exact[need] = g
        else:
            e.rep_exact[i, need] = e.del_dll[i] + g
        stepper.n_exact += int(need.size)
