"""Neighbourhood proposals: a hidden regulator's children hanging off one proxy child (#22, small M).

Semi-cliques (thesis ch. 4, :mod:`.semiclique`) are the structural signature of a hidden variable
H when the observed-only search ties its children together with the edges that marginalizing H out
needs (thesis Prop. 4.1.1: a clique among the children). Under EBIC (JMLR 2007's BIC extended for
few rows per variable, :mod:`engine.score`) at small M the search cannot afford those edges: it
keeps a *tree*, the child K that tracks H best made the parent of most of the others (K -> Y),
which has no 3-clique at all. The children's shared signal then lives in K's neighbourhood, not in
a semi-clique, and the ideal profiles (residuals on the tree) no longer show it, so neither source
proposes the set (``h17g`` seed 9: 11 children, the climbed oracle pays +26.3 nats, and ``auto``'s
only candidates are unrelated 3-sets).

A *neighbourhood* is a variable v with its parents and children in the learned network. It is a
candidate set of the semi-clique family: scored with the edges inside it removed
(:func:`~.candidates.score_candidate`), pruned by its one-factor loadings and grown through the
skeleton as a semi-clique is (:func:`~.candidates.prune`, :func:`~.candidates.grow`). A grown set
is offered only when the paper's complete-data estimate of its score change (section 5: C2 and the
root log-likelihood of z* as if observed) is positive: every try is a full trial, and on the null
networks of ``small-m`` trying the two best neighbourhoods whatever their estimate cost 6.5x the CPU
(16.2 against 2.5 s on seed 0) for nothing kept. The observed-data estimate (one factor, the rest of
the network fixed) is not asked to be positive too, as it was until session 23: at small M it is the
pessimistic one, since the trial re-learns the structure around H and the fixed network keeps the
edges a tree needed (``h22g`` 2200: the set of h's children -3.4 nats estimated, +6.6 complete, +3.8
realized; docs/decisions/hidden-regulators-neighbourhoods.md). The sets are ranked by common
variance (sum of squared loadings, as semi-cliques) and at most :data:`N_NEIGHBOURHOODS` of them,
none overlapping another, are offered; ``auto`` tries them in the semi-cliques' order
(:mod:`.trying_order`) and keeps H only when the observed-data score pays, as for every proposal.

Offered only where that tree is what the search keeps: on small networks (at most
:data:`~.trial.RELEARN_MAX_VARS` observed variables), under EBIC (data not tall), and without a
regulator list; elsewhere nothing changes.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from .prune import disjoint_best, parent_matrix

__all__ = ["NEIGHBOURHOOD", "NEIGHBOURHOODS", "N_NEIGHBOURHOODS", "neighbourhood_sets", "neighbourhoods"]

#: offer neighbourhood sets (small networks under EBIC, no regulator list)
NEIGHBOURHOODS = True

#: the proposal source of a neighbourhood set (the semi-clique family: :func:`~.trying_order.family`)
NEIGHBOURHOOD = "semi-clique, neighbourhood"

#: at most this many neighbourhood sets are offered per round, by common variance, none overlapping
N_NEIGHBOURHOODS = 2

#: networks of at most this many variables (:data:`~.trial.RELEARN_MAX_VARS`, the small networks; not
#: imported: .trial imports .report, which imports .candidates, which imports this module)
MAX_VARS = 150

#: the smallest set offered (a hidden parent of two variables is never better than an edge)
MIN_SIZE = 3


def neighbourhoods(parents: list[tuple[int, ...]], allowed: np.ndarray, min_size: int) -> list[np.ndarray]:
    """Every distinct set ``{v} + parents(v) + children(v)`` (restricted to ``allowed`` variables,
    v allowed) of at least ``min_size`` members, sorted, in the order of v."""
    n = len(parents)
    children: list[list[int]] = [[] for _ in range(n)]
    for c, ps in enumerate(parents):
        for p in ps:
            children[p].append(c)
    out, seen = [], set()
    for v in np.flatnonzero(allowed):
        near = sorted(u for u in {int(v), *parents[v], *children[v]} if allowed[u])
        if len(near) >= min_size and tuple(near) not in seen:
            seen.add(tuple(near))
            out.append(np.array(near, dtype=np.intp))
    return out


def neighbourhood_sets(parents, cand, scorer, explainers, seed_score: Callable, grow_one: Callable, names, exclude):
    """The neighbourhood candidates of one proposal round (module docstring), as (candidate score,
    :data:`NEIGHBOURHOOD`) pairs: each neighbourhood over the candidate children ``cand`` scored and
    pruned (``seed_score(members, True)``, a :class:`~.candidates.CandidateScore`), grown through
    the skeleton of ``parents`` (``grow_one(cs, adj=..., allowed=..., min_size=..., pmat=...)``),
    kept only when the paper's complete-data estimate is positive (module docstring), ranked by
    common variance (largest first), at most :data:`N_NEIGHBOURHOODS` of them, none sharing a member
    with a better one, none whose names are in ``exclude``. Empty unless
    :data:`NEIGHBOURHOODS`, the network has at most :data:`MAX_VARS` variables,
    ``scorer`` is EBIC and there is no regulator list (``explainers`` None)."""
    n = len(parents)
    if not NEIGHBOURHOODS or explainers is not None or n > MAX_VARS or scorer.name != "ebic":
        return []
    allowed = np.zeros(n, dtype=bool)
    allowed[np.asarray(cand, dtype=np.intp)] = True
    adj = np.zeros((n, n), dtype=bool)
    for c, ps in enumerate(parents):
        adj[list(ps), c] = adj[c, list(ps)] = True
    pmat = parent_matrix(parents)
    pool = []
    for members in neighbourhoods(parents, allowed, MIN_SIZE):
        cs = seed_score(members, True)
        if cs.members.size >= MIN_SIZE:
            cs = grow_one(cs, adj=adj, allowed=allowed, min_size=MIN_SIZE, pmat=pmat)
        if cs.members.size >= MIN_SIZE and cs.complete_gain > 0 and _fresh(cs, names, exclude):
            pool.append(cs)
    pool.sort(key=lambda cs: -float(np.sum(cs.factor_loadings**2)))  # common variance, as semi-cliques
    return disjoint_best(pool, n, NEIGHBOURHOOD, N_NEIGHBOURHOODS)


def _fresh(cs, names, exclude) -> bool:
    """Whether the set's names are not among ``exclude`` (tried, or the user's rejections)."""
    return frozenset(str(names[i]) for i in cs.members) not in exclude
