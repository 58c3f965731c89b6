"""Why :meth:`HiddenSearch.auto <engine.hidden.search.HiddenSearch.auto>` stopped, and what it left untried
when the reason was ``max_hidden`` (#22).

The paper's protocol (JMLR 2007 section 9.2) adds hidden variables while the observed-data score
improves; ``max_hidden`` caps them. The two stops read alike to a user ("3 hidden variables added")
and mean different things: either nothing more paid (every proposal tried in a row failed, or none
was left to try), or the cap was reached with proposals still in line, each of which might pay. At
~270 conditions the second is the usual case: on the full *E. coli* and *B. subtilis* tables the
removed regulators' sets (FNR's, SigD's) are ``auto``'s 5th-6th candidates and pay when tried
(benchmarks/RESULTS.md, "The full tables"), behind profile clusters that pay as well.

So the search keeps the last round's trying order (:meth:`.considered.Considered.announce`) and, when
it stops, :func:`stop_record` says why (:data:`AT_LIMIT` or :data:`NOTHING_PAID`) and, at the cap, lists
the proposals of that order not tried: their size, estimate (section 5's estimated score change, the
edges inside the set removed), their members with the largest loadings first, z*'s leverage
(:mod:`.leverage`), and how many of their members are already children of a kept H (the order was made
before the last H was kept, so a set may overlap it). Nothing is recomputed: these are the figures the
proposals carried when ``auto`` ordered them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from .proposals import ClusterProposal
from .report import HiddenVariable

__all__ = [
    "AT_LIMIT",
    "NOTHING_PAID",
    "TOP_MEMBERS",
    "AutoStop",
    "UntriedProposal",
    "proposal_record",
    "stop_record",
    "untried_in",
]

#: ``auto`` stopped because ``max_hidden`` hidden variables were kept
AT_LIMIT = "max_hidden"
#: ``auto`` stopped because no proposal was left that paid (the failures in a row, or none left to try)
NOTHING_PAID = "nothing_paid"
#: members listed in ``top_members`` (largest |loading| first)
TOP_MEMBERS = 8


def proposal_record(p: ClusterProposal) -> dict:
    """One proposal as the result's JSON lists it, set aside (``flagged_proposals``,
    :meth:`.considered.Considered.to_list`) or left in line (``untried_proposals``, :class:`UntriedProposal`):
    ``members``, ``n_members``, ``source``, ``estimated_gain`` (section 5's estimate; None when not
    finite), ``leverage`` (largest share of z*'s energy in one instance, :mod:`.leverage`; None when
    unset), ``flagged_instances`` (the instances that flag it, empty if none) and ``step_conditions``
    (an on/off step's, :mod:`.onoff`). None in place of a non-finite number keeps the JSON valid."""
    gain, lev = float(p.estimated_gain), float(p.leverage)
    return {
        "members": list(p.names),
        "n_members": len(p.names),
        "source": p.source,
        "estimated_gain": gain if math.isfinite(gain) else None,
        "leverage": lev if math.isfinite(lev) else None,
        "flagged_instances": list(p.high_leverage),
        "step_conditions": list(p.step_conditions),
    }


@dataclass
class UntriedProposal:
    """A proposal in ``auto``'s last trying order that it did not try: the proposal as ``auto`` ordered it
    (section 5's figures, nothing recomputed) and how many of its members each kept H already has as children."""

    proposal: ClusterProposal
    #: kept hidden variable -> how many of the members are its children (only those sharing any)
    overlap: dict[str, int] = field(default_factory=dict)

    @property
    def members(self) -> list[str]:
        return list(self.proposal.names)

    @property
    def n_members(self) -> int:
        return len(self.proposal.names)

    @property
    def source(self) -> str:
        return self.proposal.source

    @property
    def estimated_gain(self) -> float:
        return float(self.proposal.estimated_gain)

    @property
    def flagged(self) -> bool:
        """Always False from ``auto``'s order (it never tries a flagged proposal), kept for the reader."""
        return self.proposal.flagged

    @property
    def top_members(self) -> list[str]:
        """The members with the largest |loading| on z* first (at most :data:`TOP_MEMBERS`)."""
        p = self.proposal
        order = np.argsort(-np.abs(np.asarray(p.loadings, dtype=float)), kind="stable")[:TOP_MEMBERS]
        return [p.names[int(i)] for i in order]

    def to_dict(self) -> dict:
        """:func:`proposal_record`, with ``top_members`` and ``overlap``."""
        return {**proposal_record(self.proposal), "top_members": self.top_members, "overlap": dict(self.overlap)}


@dataclass
class AutoStop:
    """Why ``auto`` stopped (``reason``: :data:`AT_LIMIT` or :data:`NOTHING_PAID`), with ``max_hidden``,
    the hidden variables kept, and at the limit the proposals of its last round not tried, in the order
    it would have tried them (``proposed``: whether that round was made at all; a two-layer search whose
    first H is the parent of every variable reaches ``max_hidden = 1`` before any proposal)."""

    reason: str
    max_hidden: int
    n_hidden: int
    untried: list[UntriedProposal] = field(default_factory=list)
    proposed: bool = False

    @property
    def at_limit(self) -> bool:
        return self.reason == AT_LIMIT

    @property
    def n_positive(self) -> int:
        """Untried proposals whose estimate is positive."""
        return sum(1 for p in self.untried if p.estimated_gain > 0)

    @property
    def largest(self) -> UntriedProposal | None:
        """The untried proposal with the most members (the first in order among equals)."""
        return max(self.untried, key=lambda p: p.n_members, default=None)

    def to_dict(self) -> dict:
        """The JSON's ``untried_proposals`` (written at the limit only: :func:`engine.learn_em.fit_em`)."""
        return {
            "stopped": self.reason,
            "max_hidden": int(self.max_hidden),
            "n_hidden": int(self.n_hidden),
            "proposed": bool(self.proposed),
            "n_untried": len(self.untried),
            "n_positive": self.n_positive,
            "proposals": [p.to_dict() for p in self.untried],
        }


def _untried(p: ClusterProposal, hidden: list[HiddenVariable]) -> UntriedProposal:
    members = set(p.names)
    overlap = {h.name: len(members & set(h.children)) for h in hidden}
    return UntriedProposal(p, {k: v for k, v in overlap.items() if v})


def untried_in(
    order: list[ClusterProposal], tried: set[frozenset], hidden: list[HiddenVariable]
) -> list[UntriedProposal]:
    """The proposals of ``order`` (a round's trying order) not in ``tried`` (keys auto tried or refused)
    and not the start of a kept H (its proposed members), in order."""
    kept = {frozenset(h.members) for h in hidden}
    return [_untried(p, hidden) for p in order if p.key not in tried and p.key not in kept]


def stop_record(
    order: list[ClusterProposal] | None, tried: set[frozenset], hidden: list[HiddenVariable], max_hidden: int
) -> AutoStop:
    """Why ``auto`` stopped with these ``hidden`` variables kept, and at ``max_hidden`` what its last trying
    ``order`` (None: no round was made) left untried (``tried``: the keys it tried or refused)."""
    if len(hidden) < max_hidden:
        return AutoStop(NOTHING_PAID, int(max_hidden), len(hidden), proposed=order is not None)
    untried = untried_in(order, tried, hidden) if order is not None else []
    return AutoStop(AT_LIMIT, int(max_hidden), len(hidden), untried, proposed=order is not None)
