"""Modules behind listed stand-ins: a co-expressed module with the listed regulators that stand in for its
hidden driver (#22 item 2, session 22).

Why. With a regulator list, a removed regulator R* that drives a co-expressed module *and* several listed
TFs is replaced, in the learned network without H, by those TFs: each of R*'s listed targets T becomes a
parent of many module genes (``h20m``: 10-36 of 30-50). The module genes' ideal profiles (JMLR 2007
section 5: their residuals given their current parents) then keep R* only collectively: T has taken its
share, and at M = 20-40 conditions the residuals' pairwise correlations are barely above chance, so no
cluster of ideal profiles assembles the module (the best proposal holds <= 10 of its genes, ranked
11th-34th; benchmarks/RESULTS.md "Why h20m's R* is missed (session 21)"). The same on the real tables:
*E. coli*'s FNR behind mhpR, *B. subtilis*'s SigD.

Source. The module is plain in the measured values (the raw pairwise |r| 0.38-0.51, their first component
tracking R* at 0.93-0.97). So the co-expression modules (:func:`~.proposals.propose_clusters` on the empty
network: the ideal profiles are then the centred values, the cosines the correlations) are taken, and to
each the listed regulators that are parents of at least :data:`MIN_CHILDREN` of its members and whose
values track the module's profile at :data:`MIN_TRACK` or more: its *stand-ins* (R*'s listed targets track
R* at 0.55-0.77 on ``h20m``). The proposal is the module with its stand-ins, scored as
every candidate set is (:func:`~.candidates.score_candidate`, the edges inside the set removed: the
stand-ins' edges to the module, so each gene is scored on its other parents; the stand-ins themselves
become H's children, as R*'s listed targets are) and pruned by its one-factor loadings
(:func:`~.candidates.prune`). A module without a stand-in is left to the other sources.

What decides. The estimate: one common factor of the module genes and stand-ins against the stand-ins as
the module's parents. Where a stand-in is the module's own regulator (its regulon), the factor is that
stand-in, nothing is gained and the estimate is negative (the penalties of H); and z* then tracks the
stand-in, so the set is ``explained_by`` it (a member that covers the set: :mod:`.member_cover`) and ``auto``
does not try it. Where the stand-ins share a driver they do not carry whole, the factor explains what they
leave, the estimate is positive, and ``auto`` tries the set in its trying order as any cluster of profiles
(:mod:`.trying_order`: both estimates positive, by the estimate); structural EM and the keep rule decide.
At most :data:`N_STANDIN` sets a round, none sharing a member with a better one and none flagged (one or
two instances hold most of z*'s energy, :mod:`.leverage`: never tried, so it takes no place). Cost: one
dendrogram of the values (as the Hidden page's co-expression modules) and one scored, pruned set per module
with a stand-in, each round (the values' dendrogram does not change between rounds; it is not cached).

Off by default (:data:`STANDINS`) until measured on the seen generators and their nulls
(docs/decisions/hidden-standin-modules.md).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from scipy import sparse

from .leverage import profile_leverage
from .proposals import profile_correlations, propose_clusters
from .prune import disjoint_best, parent_matrix

__all__ = [
    "MIN_CHILDREN",
    "MIN_TRACK",
    "N_MODULES",
    "N_STANDIN",
    "STANDIN",
    "STANDINS",
    "coexpression_modules",
    "standin_sets",
    "standins",
]

#: offer modules with their listed stand-ins (with a regulator list)
STANDINS = False

#: the proposal source of such a set (a cluster of profiles' family in :mod:`.trying_order`)
STANDIN = "co-expression, stand-ins"

#: a listed regulator is a stand-in of a module when it is a parent of at least this many of its members
MIN_CHILDREN = 2

#: ... and its values track the module's profile (the first component of its values) at least this much
MIN_TRACK = 0.5

#: co-expression modules of the values' dendrogram examined per round (best partition first)
N_MODULES = 40

#: at most this many sets offered per round, by the estimate, none sharing a member with a better one
N_STANDIN = 2

#: smallest module examined (members of the dendrogram's cluster, stand-ins not counted)
MIN_SIZE = 5


def standins(pmat: sparse.csr_matrix, members: np.ndarray, listed: np.ndarray, track: np.ndarray) -> np.ndarray:
    """The listed regulators (boolean mask ``listed``) that are parents of at least :data:`MIN_CHILDREN` of
    ``members`` in the network whose parents ``pmat`` holds (:func:`~.prune.parent_matrix`: rows children)
    and whose values track the module (``track``: |corr| with its profile, every variable) at
    :data:`MIN_TRACK` or more; members themselves excluded; sorted indices."""
    counts = np.asarray(pmat[members].sum(axis=0)).ravel()
    hit = (counts >= MIN_CHILDREN) & listed & (track >= MIN_TRACK)
    hit[members] = False
    return np.flatnonzero(hit)


def coexpression_modules(stepper, values: np.ndarray, names, cand: np.ndarray, n_modules: int) -> list:
    """``n_modules`` non-overlapping co-expression modules of ``values`` over the variables ``cand``
    (:class:`~.proposals.ClusterProposal`): clusters of ideal profiles on the empty network
    (:func:`~.proposals.propose_clusters`: the centred values, their correlations as cosines; the best
    partition of the dendrogram first), at least :data:`MIN_SIZE` members each, flagged ones too."""
    n = stepper.n_vars
    scatter = stepper.model.scatter
    found = propose_clusters(
        values,
        sparse.csr_matrix((n, n)),
        np.diag(scatter).copy(),
        names,
        candidates=cand,
        scatter=scatter,
        n_proposals=n_modules,
        min_size=MIN_SIZE,
        per_param=stepper.scorer.per_param,
    )
    return found


def standin_sets(
    stepper,
    values: np.ndarray,
    names,
    cand: np.ndarray,
    explainers: np.ndarray | None,
    seed_score: Callable,
    exclude,
) -> list[tuple[object, str]]:
    """The stand-in candidates of one proposal round (module docstring), as (candidate score,
    :data:`STANDIN`) pairs: each of :data:`N_MODULES` co-expression modules (:func:`coexpression_modules`)
    with its stand-ins among ``explainers`` (the
    listed regulators that are candidate children ``cand``) is scored and pruned by ``seed_score(members,
    True)`` (a :class:`~.candidates.CandidateScore`), and the best :data:`N_STANDIN` by the estimate, none
    sharing a member with a better one and none whose names are in ``exclude``, are returned. Empty unless
    :data:`STANDINS` and there is a regulator list."""
    if not STANDINS or explainers is None:
        return []
    n = stepper.n_vars
    parents = [tuple(stepper.parents(c)) for c in range(n)]
    pmat = parent_matrix(parents)
    cand = np.asarray(cand, dtype=np.intp)
    listed = np.zeros(n, dtype=bool)
    listed[np.intersect1d(np.asarray(explainers, dtype=np.intp), cand)] = True
    pool, seen = [], set()
    xc = values - values.mean(axis=0)
    for module in coexpression_modules(stepper, values, names, cand, N_MODULES):
        members = np.asarray(module.members, dtype=np.intp)
        track = np.abs(profile_correlations(module.profile, xc, values))
        stand = standins(pmat, members, listed, track)
        if stand.size == 0:
            continue
        key = tuple(np.union1d(members, stand).tolist())
        if key in seen:
            continue
        seen.add(key)
        cs = seed_score(np.array(key, dtype=np.intp), True)
        if frozenset(str(names[i]) for i in cs.members) not in exclude and not profile_leverage(cs.profile).flagged:
            pool.append(cs)  # a flagged set (one or two instances) is never tried: it takes no place
    pool.sort(key=lambda cs: -cs.gain)
    return disjoint_best(pool, n, STANDIN, N_STANDIN)
