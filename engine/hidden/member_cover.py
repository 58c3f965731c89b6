"""When a listed regulator inside a proposed set explains it at genome scale (#22: "a known regulator
taken out of the data is not given back").

A proposal is ``explained_by`` a member (:func:`.proposals.make_proposal`) when a variable of the set
that may be a parent (a listed regulator) tracks z* at ``|r| >= 0.9``. On networks of at most
``RELEARN_MAX_VARS`` (150) observed variables :meth:`HiddenSearch.auto
<engine.hidden.search.HiddenSearch.auto>` tries such a set anyway (structural EM decides whether H or
the member becomes the parent); above that it dropped every one of them. On the full *E. coli*
table (FNR removed) that dropped FNR's own 377-gene grown semi-clique (44 of its 46 module genes):
its z* is tracked at |r| 0.91 by the listed regulator mhpR (b0346), a member, yet mhpR has only 104
of the other 376 members as children in the current network. Tried directly, the set pays
(+3,886 nats realized) and its H takes 45 of FNR's 46 module genes: H does work that mhpR, a
regulator of a fifth of the set, is not doing (benchmarks/RESULTS.md, "The full tables").

Rule (JMLR 2007 section 5: a hidden parent is proposed for a set whose members share a common
parent the network lacks). A member that tracks z* explains the set only when it already *is* the
common parent: when its children in the current network cover at least :data:`MIN_MEMBER_COVER` of
the other members (the share :data:`.explained.MIN_CHILD_SHARE` uses for an accepted H). A set
whose tracking member covers less is not explained by it, and ``auto`` tries it at genome scale
too (:func:`.trying_order.base_order`'s ``uncovered``). Nothing is refitted: the member's edges
are counted. The proposal's ``explained_by`` stays as it is (the listing still names the member
z* tracks).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from .proposals import ClusterProposal

__all__ = ["MEMBER_COVER", "MIN_MEMBER_COVER", "MemberCover", "member_cover", "uncovered_keys"]

#: the rule is on: at genome scale ``auto`` tries a set its tracking member does not cover (False: as before)
MEMBER_COVER = True

#: share of the other members a tracking member's children must cover for it to explain the set
MIN_MEMBER_COVER = 0.5


@dataclass(frozen=True)
class MemberCover:
    """How much of a proposal its tracking member (``explained_by``, one of its members) covers.

    Attributes
    ----------
    member : str
        The member z* tracks.
    n_children : int
        The other members that are its children in the current network.
    n_others : int
        The proposal's members other than it.
    covers : bool
        ``n_children >= min_share * n_others``: the member explains the set.
    """

    member: str
    n_children: int
    n_others: int
    covers: bool


def _edge_array(edges: Iterable[tuple[int, int]] | np.ndarray) -> np.ndarray:
    return np.asarray(edges if isinstance(edges, np.ndarray) else list(edges), dtype=int).reshape(-1, 2)


def member_cover(
    proposal: ClusterProposal,
    edges: Iterable[tuple[int, int]] | np.ndarray,
    names: Sequence[str],
    *,
    min_share: float = MIN_MEMBER_COVER,
) -> MemberCover | None:
    """The cover of ``proposal`` by its tracking member, or None when it is not explained by one of
    its own members. ``edges`` are the current network's (parent, child) indices into ``names``."""
    if proposal.explained_by is None or proposal.explained_by not in proposal.names:
        return None
    m = list(names).index(proposal.explained_by)
    e = _edge_array(edges)
    others = np.setdiff1d(np.asarray(proposal.members, dtype=int), [m])
    n = int(np.isin(e[e[:, 0] == m, 1], others).sum())
    return MemberCover(proposal.explained_by, n, int(others.size), n >= min_share * others.size)


def uncovered_keys(
    proposals: Iterable[ClusterProposal],
    edges: Iterable[tuple[int, int]] | np.ndarray,
    names: Sequence[str],
    *,
    min_share: float = MIN_MEMBER_COVER,
) -> set[frozenset]:
    """Keys of the proposals explained by one of their own members that does not cover them
    (:func:`member_cover`): at genome scale ``auto`` tries these as well."""
    if not MEMBER_COVER:
        return set()
    e = _edge_array(edges)
    out = set()
    for p in proposals:
        cover = member_cover(p, e, names, min_share=min_share)
        if cover is not None and not cover.covers:
            out.add(p.key)
    return out
