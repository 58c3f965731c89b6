"""Co-expression modules as hidden-variable proposals, and the order a person reviews them in (#22).

Scope: the proposals a person vets (the explorer's Hidden page, :func:`propose_for_review`).
:meth:`HiddenSearch.auto <engine.hidden.search.HiddenSearch.auto>` keeps its own proposals
(:func:`~.candidates.propose_from_search`) and its own order: nothing here changes what it keeps.

Why. After an observed-only search on a wide table (more genes than conditions) without a
regulator list, the genes of a module driven by an unmeasured regulator are tied by edges among
themselves, often as a tree (each gene hung on its most correlated neighbour, no triangle). The
semi-cliques of the network (grown from 3-cliques, thesis ch. 4) then miss it, and the ideal
profiles on that network are the residuals after the tree, which no longer share the regulator's
signal (JMLR 2007 section 5 clusters them). The module is plain in the measured values, where
WGCNA would find it: a block of co-expressed genes.

Source. **Co-expression modules**: the clusters of ideal profiles of the *empty* network, whose
ideal profiles are the centred values and whose cosines are the correlations
(:func:`~.proposals.propose_clusters` with no edge: the same dendrogram, eigenpairs and
tree-constrained partition), each re-scored on the current network with the edges inside it
removed (:func:`~.candidates.score_candidate`), as semi-cliques are.

Order. The estimate keeps the rest of the network fixed and charges each new edge its penalty: on
a table of few conditions no proposal may pay by it, and sorted by it the smallest sets come first.
A person reviews proposals as WGCNA ranks modules, by what one common regulator explains:

1. proposals that are not flagged and whose estimate is positive, by the estimate;
2. the other unflagged ones, by their common variance (sum of the members' squared one-factor
   loadings, with the inside edges removed: how much of their variance one parent explains);
3. proposals an accepted hidden variable already explains (most members its children, or z*
   tracking it: :mod:`.explained`), and on a bacterial table those whose members are mostly one
   operon (adjacent locus tags, :mod:`.operon`: one transcript, which ``auto`` sets aside), after
   the new ones: not a new regulator;
4. flagged ones (z* drawn from one or two instances, :mod:`.leverage`, or an on/off step in two
   conditions, :mod:`.onoff`) last, in the same order, and the first of each of up to
   :data:`NAMED_FLAGS` different flagging conditions (or pairs) kept in the list, so that an odd
   condition and a two-condition program are both named (neither pushes the other out).

Not checked: the co-expression source assumes complete data (the posterior means of missing cells).
"""

from __future__ import annotations

import math

import numpy as np
from scipy import sparse

from .candidates import candidate_proposal, propose_from_search, score_candidate
from .explained import mark_explained_by_hidden
from .operon import locus_index, one_operon
from .proposals import ClusterProposal, propose_clusters

__all__ = ["COEXPRESSION", "NAMED_FLAGS", "module_proposals", "propose_for_review", "review_order"]

#: the ``source`` of a proposal from a cluster of measured values
COEXPRESSION = "co-expression"

#: flagging conditions (or pairs) whose first proposal keeps a place in the review list
NAMED_FLAGS = 2


def module_proposals(
    stepper,
    values: np.ndarray,
    names,
    *,
    candidates: np.ndarray,
    n_sets: int,
    max_size: int | None = None,
    min_size: int = 3,
    explained_threshold: float = 0.9,
    exclude: set[frozenset] | None = None,
    labels=None,
    explainers: np.ndarray | None = None,
    hidden=(),
) -> list[ClusterProposal]:
    """Up to ``n_sets`` non-overlapping co-expression modules (see the module docstring), each
    scored on ``stepper``'s current network with the edges inside it removed: the best
    ``n_sets`` in :func:`review_order` (flagged or not) of ``n_sets + 5`` modules of the values' dendrogram (as
    :func:`~.candidates.propose_from_search` takes 5 more clusters than it returns). The
    dendrogram ranks modules by the values alone, where a block of genes tied by the network's
    own edges looks as good as a regulator's module; on the network the two differ."""
    values = np.asarray(values, dtype=float)
    model, scorer = stepper.model, stepper.scorer
    n = stepper.n_vars
    scatter = model.scatter
    modules = propose_clusters(
        values,
        sparse.csr_matrix((n, n)),  # the empty network: ideal profiles are the centred values
        np.diag(scatter).copy(),
        names,
        candidates=candidates,
        scatter=scatter,
        n_proposals=n_sets + 5,
        max_size=max_size,
        min_size=min_size,
        exclude=exclude,
        per_param=scorer.per_param,
    )
    parents = [tuple(stepper.parents(c)) for c in range(n)]
    xc = values - values.mean(axis=0)
    out = []
    for module in modules:
        cs = score_candidate(model, parents, np.asarray(module.members, dtype=np.intp), scorer, xc)
        out.append(
            candidate_proposal(
                cs, xc, values, names, explained_threshold, source=COEXPRESSION, labels=labels, explainers=explainers
            )
        )
    known = mark_explained_by_hidden(out, stepper.edges(), values, names, hidden)  # an accepted H's own: after
    return sorted(out, key=lambda p: _review_key(p, frozenset(known))[1:])[:n_sets]  # flagged too: the final order says


def _review_key(p: ClusterProposal, known: frozenset = frozenset()) -> tuple:
    pays = p.estimated_gain > 0
    common = p.common_variance if math.isfinite(p.common_variance) else 0.0
    return (p.flagged, p.key in known, not pays, -p.estimated_gain if pays else -common)


def review_order(
    proposals: list[ClusterProposal], n_proposals: int, known: frozenset = frozenset()
) -> list[ClusterProposal]:
    """The first ``n_proposals`` of ``proposals`` in review order (see the module docstring);
    ``known`` holds the keys of those an accepted hidden variable already explains."""
    ranked = sorted(proposals, key=lambda p: _review_key(p, known))
    flagged = [p for p in ranked if p.flagged]
    first = {frozenset(p.high_leverage): p for p in reversed(flagged)}  # the first of each flagging group
    named = [p for p in flagged if first[frozenset(p.high_leverage)] is p][: min(NAMED_FLAGS, n_proposals - 1)]
    rest = named + [p for p in flagged if all(p is not q for q in named)]
    out = [p for p in ranked if not p.flagged][: n_proposals - len(named)]
    out += rest[: n_proposals - len(out)]
    pos = {id(p): i for i, p in enumerate(ranked)}
    return sorted(out, key=lambda p: pos[id(p)])  # the named conditions last, in review order


def propose_for_review(
    stepper,
    values: np.ndarray,
    names,
    *,
    candidates: np.ndarray,
    n_proposals: int = 5,
    coexpression: bool = True,
    max_size: int | None = None,
    min_size: int = 3,
    exclude: set[frozenset] | None = None,
    labels=None,
    explainers: np.ndarray | None = None,
    hidden=(),
) -> list[ClusterProposal]:
    """Hidden-variable proposals for a person to vet: those of
    :func:`~.candidates.propose_from_search` and, with ``coexpression`` (meant for a search
    without a regulator list, where modules are tied by edges; on a network with edges), up to
    ``max(2, n_proposals // 2)`` co-expression modules not already among them, in :func:`review_order`.
    Those a variable of ``hidden`` (indices of accepted hidden variables) already explains have it as
    ``explained_by`` and come after the new ones (:mod:`.explained`)."""
    kw = dict(candidates=candidates, max_size=max_size, min_size=min_size, exclude=exclude)
    kw.update(labels=labels, explainers=explainers)
    found = propose_from_search(stepper, values, names, n_proposals=n_proposals, **kw)
    # on a network without edges the ideal-profile clusters are the co-expression modules already
    if coexpression and stepper.edges() and np.asarray(candidates).size >= max(min_size, 3):
        seen = {p.key for p in found}
        modules = module_proposals(stepper, values, names, n_sets=max(2, n_proposals // 2), hidden=hidden, **kw)
        found += [p for p in modules if p.key not in seen]
    known = mark_explained_by_hidden(found, stepper.edges(), values, names, hidden)
    return review_order(found, n_proposals, frozenset(known) | _one_operon(found, names))


def _one_operon(proposals: list[ClusterProposal], names) -> frozenset:
    """The keys of ``proposals`` whose members are mostly one run of adjacent locus tags (:mod:`.operon`)."""
    index = locus_index(list(names))
    return frozenset(p.key for p in proposals if index is not None and one_operon(p.members, names, index))
