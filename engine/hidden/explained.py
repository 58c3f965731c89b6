"""Proposals an accepted hidden variable already explains (#22: after Accept, the Hidden page listed
a cluster of H1's own children again, its closest variable H1 and no mark, which a biologist reads
as a second regulator).

Scope: the proposals a person vets (:func:`.modules.propose_for_review`), on a network that
already has hidden variables (the variables ``hidden``, e.g. H1 after an Accept).

Why it happens. The co-expression source clusters the *measured* values, and an accepted H's
children still co-express there: that is what H explains. Re-scored on the network with H, the
members keep H as a parent, yet their residuals can still carry part of H's inferred profile (H's
loadings are fitted from expected statistics, in which E[H^2] includes the posterior variance, not
by least squares on the posterior mean): on planted tables z* of such a cluster tracked H at |r|
0.2-0.6, below the 0.9 at which a variable is marked ``explained_by``
(:func:`.proposals.make_proposal`), or not at all while most members were H's children.

Rule. A proposal is explained by the hidden variable H when at least :data:`MIN_CHILD_SHARE` of
its members are already H's children in the current network, or when z* tracks H's inferred
profile (its posterior mean) at ``|r| >= min_corr`` (:data:`~.report_table.STAND_IN_CORR`, the
threshold of every other stand-in). Among several hidden variables, the one with most children
among the members, then the one z* tracks best. The proposal's ``explained_by`` is set to H's
name: it is listed after the new proposals (:func:`.modules.review_order`) and said to be no new
regulator. Nothing is refitted: the edges are counted and one correlation per H is taken.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from .proposals import ClusterProposal, profile_correlations
from .report_table import STAND_IN_CORR

__all__ = ["MIN_CHILD_SHARE", "HiddenOverlap", "hidden_overlap", "mark_explained_by_hidden"]

#: share of a proposal's members already children of a hidden variable from which it explains them
MIN_CHILD_SHARE = 0.5


@dataclass(frozen=True)
class HiddenOverlap:
    """How much of a proposal an existing hidden variable already covers.

    Attributes
    ----------
    hidden : str
        The hidden variable's name.
    n_children : int
        Members that are already its children in the current network.
    n_members : int
        The proposal's members.
    corr : float
        ``|corr(z*, H's inferred profile)|``.
    explains : bool
        Whether the rule of the module docstring holds.
    """

    hidden: str
    n_children: int
    n_members: int
    corr: float
    explains: bool

    def to_dict(self) -> dict:
        return {
            "hidden": self.hidden,
            "n_children": self.n_children,
            "n_members": self.n_members,
            "corr": float(self.corr),
            "explains": self.explains,
        }


def hidden_overlap(
    proposal: ClusterProposal,
    edges: Sequence[tuple[int, int]],
    values: np.ndarray,
    names: Sequence[str],
    hidden: Sequence[int],
    *,
    min_share: float = MIN_CHILD_SHARE,
    min_corr: float = STAND_IN_CORR,
) -> HiddenOverlap | None:
    """The hidden variable (one of the indices ``hidden``) that covers ``proposal`` most: most of
    its children among the members, then the largest ``|corr(z*, H)|``; None without hidden
    variables. ``edges`` are the current network's (parent, child) indices, ``values`` every
    variable's values (hidden ones: their posterior means)."""
    hidden = [int(h) for h in hidden]
    if not hidden:
        return None
    members = set(proposal.members)
    kids = {h: sum(1 for p, c in edges if p == h and c in members) for h in hidden}
    cols = np.asarray(values, dtype=float)[:, hidden]
    corr = np.abs(profile_correlations(np.asarray(proposal.profile, dtype=float), cols - cols.mean(axis=0), cols))
    best = max(range(len(hidden)), key=lambda i: (kids[hidden[i]], corr[i]))
    h, n, r = hidden[best], kids[hidden[best]], float(corr[best])
    top = int(np.argmax(corr))
    if n < min_share * len(members) and corr[top] >= min_corr:  # z* tracks another H closely: that one
        h, n, r = hidden[top], kids[hidden[top]], float(corr[top])
    explains = n >= min_share * len(members) or r >= min_corr
    return HiddenOverlap(str(names[h]), n, len(members), r, explains)


def mark_explained_by_hidden(
    proposals: list[ClusterProposal],
    edges: Sequence[tuple[int, int]],
    values: np.ndarray,
    names: Sequence[str],
    hidden: Sequence[int],
    **rule,
) -> set[frozenset]:
    """Set ``explained_by`` to the hidden variable's name on each proposal of ``proposals`` it
    explains (:func:`hidden_overlap`, keyword ``rule`` its thresholds); returns their keys."""
    marked = set()
    for p in proposals:
        found = hidden_overlap(p, edges, values, names, hidden, **rule)
        if found is not None and found.explains:
            p.explained_by = found.hidden
            marked.add(p.key)
    return marked
