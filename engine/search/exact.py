"""The exactly score-optimal DAG of a few variables (Silander & Myllymäki 2006).

For a decomposable score (BIC, EBIC; :mod:`engine.score`) the best network is found without a
search heuristic in three dynamic programmes over subsets:

1. *Local scores*: every family ``score(X | S)`` for every parent set ``S`` of the other ``N - 1``
   variables (up to ``max_parents``), from the search's own family model: the empty families are
   fitted (:meth:`FamilyModel.fit`), every larger one is its subset's log-likelihood plus the exact
   gain of one more parent (:meth:`FamilyModel.exact_add_many`, batched as the search batches its
   exact gains), and the penalty is the score's own (:meth:`engine.score.BIC.family`, at the
   family's row count under interventions, with its per-condition intercepts).
2. *Best parents within a set*: ``bps(X, C) = max_{S ⊆ C} score(X | S)``, one vectorized max over
   the subsets missing each bit in turn.
3. *Best sinks*: ``best(W) = max_{s in W} best(W \\ {s}) + bps(s, W \\ {s})`` over all ``2^N``
   subsets ``W``, layer by layer in ``|W|``; the optimal order is read back from the sinks and each
   variable takes its best parents among its predecessors.

Memory: a float and an int32 table of ``N 2^(N-1)`` numbers and a few of ``2^N`` (20 variables:
about 130 MB),
refused above :data:`MAX_EXACT_VARS` variables or :data:`MAX_EXACT_FAMILIES` families. Time is
dominated by step 1 (one exact gain per family). The result is the global optimum of the score
(ties broken towards smaller parent sets); for non-linear CPDs whose fits are local optima it is
the optimum over the fits the model returns.

References
----------
.. [1] Silander, Myllymäki. A simple approach for finding the globally optimal Bayesian network
   structure. UAI 2006, sections 3-4.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from dataclasses import dataclass
from math import comb

import numpy as np

from ..cpd.base import FamilyModel, Parents
from ..exceptions import ParameterError
from ..score import BIC

__all__ = [
    "ExactResult",
    "exact_search",
    "exact_for_stepper",
    "exact_families",
    "local_scores",
    "MAX_EXACT_VARS",
    "MAX_EXACT_FAMILIES",
]

#: most variables the exact search accepts (the tables grow as N 2^N)
MAX_EXACT_VARS = 20
#: most families (child, parent set) it scores (each is one exact gain)
MAX_EXACT_FAMILIES = 600_000


@dataclass(frozen=True)
class ExactResult:
    """The score-optimal DAG: each variable's parents, the network score, each family's score."""

    parents: tuple[Parents, ...]
    score: float
    family_scores: np.ndarray
    n_families: int

    def edges(self) -> list[tuple[int, int]]:
        """The optimal DAG's edges ``(parent, child)``, sorted."""
        return sorted((p, c) for c, ps in enumerate(self.parents) for p in ps)


def _popcount(masks: np.ndarray) -> np.ndarray:
    """Number of set bits of each (non-negative, < 2^32) integer."""
    return np.unpackbits(masks.astype("<u4").view(np.uint8).reshape(-1, 4), axis=1).sum(axis=1)


def _n_families(n: int, cap: int) -> int:
    return n * sum(comb(n - 1, k) for k in range(min(cap, n - 1) + 1))


def local_scores(
    model: FamilyModel,
    scorer: BIC,
    *,
    max_parents: int | None = None,
    allowed: np.ndarray | None = None,
) -> np.ndarray:
    """``table[X, S]``: the score of ``X``'s family with parent set ``S`` (bit ``i`` of ``S`` is the
    ``i``-th variable other than ``X``); ``-inf`` for sets above ``max_parents`` or holding a parent
    ``allowed[parent, X]`` forbids. See the module docstring (step 1)."""
    n = model.n_vars
    cap = n - 1 if max_parents is None else min(int(max_parents), n - 1)
    size = 1 << (n - 1)
    logliks = np.full((n, size), np.nan)  # becomes the score table in place
    pens = np.zeros((n, cap + 1))
    for x in range(n):
        fit0 = model.fit(x, ())
        logliks[x, 0] = fit0.loglik
        for k in range(cap + 1):  # the score's penalty of k parents on this family's rows
            dummy = dataclasses.replace(
                fit0,
                loglik=0.0,
                parents=tuple(range(k)),
                n_params=fit0.n_params - model.n_params(0) + model.n_params(k),
            )
            pens[x, k] = -scorer.family(dummy)
    others = [np.array([u for u in range(n) if u != x], dtype=np.intp) for x in range(n)]
    ok = np.ones((n, n), dtype=bool) if allowed is None else np.asarray(allowed, dtype=bool)
    masks = np.arange(size, dtype=np.int64)
    count = _popcount(masks)
    top = np.zeros(size, dtype=np.int64)  # index of the highest set bit (+1), 0 for the empty set
    for b in range(n - 1):
        top[masks >= (1 << b)] = b + 1
    for k in range(cap):
        layer = masks[count == k]
        requests, where = [], []
        for x in range(n):
            okx = ok[others[x], x]
            for s in layer:
                bits = np.arange(int(top[s]), n - 1)
                bits = bits[okx[bits]]
                if bits.size and np.isfinite(logliks[x, s]):
                    parents = tuple(int(others[x][i]) for i in range(n - 1) if s >> i & 1)
                    requests.append((x, parents, others[x][bits]))
                    where.append((x, int(s), bits))
        gains = model.exact_add_many(requests) if requests else []
        for (x, s, bits), g in zip(where, gains, strict=True):
            logliks[x, s | (1 << bits)] = logliks[x, s] + np.asarray(g, dtype=float)
    sizes = np.minimum(count, cap)
    for x in range(n):
        logliks[x] -= pens[x, sizes]
    logliks[np.isnan(logliks)] = -np.inf
    return logliks


def _best_parents(table: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``bps[X, C]``, the best family score of ``X`` with parents within ``C``, and that parent set
    (step 2; ties go to the subset). In place on reshaped views: the sets with bit ``b`` and the
    same sets without it are the two halves of axis 2 of ``(N, 2^(N-2-b), 2, 2^b)``."""
    n, size = table.shape
    bps, arg = table, np.broadcast_to(np.arange(size, dtype=np.int32), (n, size)).copy()
    for b in range(n - 1):
        v, a = bps.reshape(n, -1, 2, 1 << b), arg.reshape(n, -1, 2, 1 << b)
        better = v[:, :, 0, :] >= v[:, :, 1, :]
        np.copyto(v[:, :, 1, :], v[:, :, 0, :], where=better)
        np.copyto(a[:, :, 1, :], a[:, :, 0, :], where=better)
    return bps, arg


def _drop_bit(w: np.ndarray, s: int) -> np.ndarray:
    """Subsets of all variables (bit ``v`` = variable ``v``) as subsets of the variables other than
    ``s`` (bit ``i`` = the ``i``-th of them); ``w`` must not hold ``s``."""
    low = w & ((1 << s) - 1)
    return low | ((w >> (s + 1)) << s)


def exact_search(
    model: FamilyModel,
    scorer: BIC,
    *,
    max_parents: int | None = None,
    forbidden: Iterable[tuple[int, int]] = (),
    required: Iterable[tuple[int, int]] = (),
) -> ExactResult:
    """The DAG of highest score (Silander & Myllymäki 2006; module docstring).

    ``scorer``: the network score (e.g. a :class:`~engine.search.Stepper`'s ``scorer``; its
    :meth:`~engine.score.BIC.parent_cap` bounds the parents, as in the search);
    ``forbidden`` / ``required``: ``(parent, child)`` index pairs that may not / must appear."""
    n = model.n_vars
    cap = min(n - 1 if max_parents is None else int(max_parents), n - 1, scorer.parent_cap())
    if n > MAX_EXACT_VARS or _n_families(n, cap) > MAX_EXACT_FAMILIES:
        raise ParameterError(
            f"the exact search over {n} variables would score {_n_families(n, cap):,} families (limits: "
            f"{MAX_EXACT_VARS} variables, {MAX_EXACT_FAMILIES:,} families); lower max_parents or use the greedy search."
        )
    allowed = np.ones((n, n), dtype=bool)
    for p, c in forbidden:
        allowed[p, c] = False
    table = local_scores(model, scorer, max_parents=cap, allowed=allowed)
    size = 1 << (n - 1)
    masks = np.arange(size, dtype=np.int64)
    for p, c in required:  # sets without a required parent are out
        bit = p if p < c else p - 1
        table[c, (masks >> bit) & 1 == 0] = -np.inf
    bps, arg = _best_parents(table)  # in place: table is bps from here on
    full = 1 << n
    ws = np.arange(full, dtype=np.int64)
    wcount = _popcount(ws)
    best = np.full(full, -np.inf)
    best[0] = 0.0
    sink = np.full(full, -1, dtype=np.intp)
    for k in range(1, n + 1):
        layer = ws[wcount == k]
        for s in range(n):
            has = layer[(layer >> s) & 1 == 1]
            rest = has ^ (1 << s)
            cand = best[rest] + bps[s, _drop_bit(rest, s)]
            better = (cand > best[has]) | (sink[has] < 0)
            best[has] = np.where(better, cand, best[has])
            sink[has] = np.where(better, s, sink[has])
    if not np.isfinite(best[full - 1]):
        raise ParameterError("no DAG satisfies the required and forbidden edges and the parent cap.")
    parents: list[Parents] = [()] * n
    fam = np.zeros(n)
    w = full - 1
    while w:
        s = int(sink[w])
        rest = w ^ (1 << s)
        idx = int(_drop_bit(np.array([rest]), s)[0])
        others = [u for u in range(n) if u != s]
        parents[s] = tuple(others[i] for i in range(n - 1) if int(arg[s, idx]) >> i & 1)
        fam[s] = bps[s, idx]
        w = rest
    return ExactResult(tuple(parents), float(best[full - 1]), fam, _n_families(n, cap))


def exact_families(stepper) -> int:
    """How many families :func:`exact_for_stepper` would score for this stepper (its cost: one
    exact gain each), ``MAX_EXACT_FAMILIES + 1`` above :data:`MAX_EXACT_VARS` variables."""
    n = stepper.n_vars
    if n > MAX_EXACT_VARS:
        return MAX_EXACT_FAMILIES + 1
    cap = min(stepper.constraints.max_parents, n - 1, stepper.scorer.parent_cap())
    return _n_families(n, cap)


def exact_for_stepper(stepper) -> ExactResult:
    """The exact optimum of the search's own problem: ``stepper``'s family model and score, its
    parent cap, and its required and forbidden edges (a candidate-regulator list forbids every
    other parent). The greedy search of the same stepper can only reach a score at most this."""
    con = stepper.constraints
    forbidden = [(int(p), int(c)) for p, c in np.argwhere(con.forbidden)]
    required = [(int(p), int(c)) for p, c in np.argwhere(con.required)]
    return exact_search(
        stepper.model, stepper.scorer, max_parents=con.max_parents, forbidden=forbidden, required=required
    )
