"""The order in which :meth:`HiddenSearch.auto <engine.hidden.search.HiddenSearch.auto>` tries a
round's proposals (#12, #22), and the other family's turn at genome scale.

The proposals come from two families of candidate sets (JMLR 2007 section 5; thesis ch. 4):

* **profile clusters** (source ``profiles``): genes whose ideal profiles (residuals of their
  current families) are alike; they are seldom tied by edges, so the estimate, which keeps the
  rest of the network fixed, charges almost nothing for removed edges;
* **semi-cliques** (every source naming ``semi-clique``: semi-cliques, grown ones, and a set that
  is both): genes the observed-only search has tied together by edges among themselves. Their
  estimate charges every removed inside edge as a loss and none of the re-search around H as a
  gain, which makes a regulator's full child set look worse than any subset of it (#12), so they
  are tried after the positive estimates, by common variance (sum of squared one-factor loadings).

The base order (:func:`base_order`, as before): the first H is tried on the best positive estimate
(a profile cluster's complete-data estimate positive too); then on/off steps (:mod:`.onoff`), the
other positive estimates, and the semi-cliques by common variance.

**The other family's turn** (measured, off: :data:`FAMILY_TURN`; genome scale only, above
``RELEARN_MAX_VARS`` observed variables; :func:`family_turn`). At ~270 conditions almost every
co-expression cluster pays (the *E. coli* PRECISE table: the three largest positive profile clusters
kept at +3,456 to +14,072 nats), so every slot of ``--max-hidden`` went to a profile cluster, one per
round. The turn: once an H of one family has been kept and none of the other, the other family's
candidate of largest common variance is tried first, once per kept H (its turn is spent whether or
not it pays; a turn that fails counts as a failure, as any try). The first H is chosen as before.
It was meant to give FNR's grown semi-clique (44 of its 46 module genes, estimate -24,200) a slot;
measured on the full tables it would not: that set was not among the proposals ``auto`` tried at all
(a listed regulator among its own members tracks its z*, so it is ``explained_by``; since the member
rule of :mod:`.member_cover` it is tried, ``auto``'s 5th in the first round; tried directly it
pays, +3,886 nats, and holds 45 of FNR's 46 module genes), and on
*B. subtilis* the turn would go to a grown set unrelated to SigD (SigD's own 7-gene semi-clique,
``auto``'s 6th, pays when tried: +9,363 nats, 63 of its 64 module genes). So it stays off
(docs/decisions/hidden-regulators-family-turn.md; benchmarks/RESULTS.md, "The full tables").

**Rankings** (measured, off: :data:`GENOME_RANK`; genome scale only; :func:`ranked`). Every candidate
sorted by common variance, or by the estimate with the removed inside edges given back: both put FNR's
set first on *E. coli* (cv 131.3, +21,120 against the largest profile cluster's 37.1, +4,740) and, on
*B. subtilis*, an unrelated 314-gene set; neither brings SigD's 7-gene set ahead of the broad profile
clusters (docs/decisions/hidden-regulators-member-cover.md).
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, field
from functools import partial

from .onoff import ONOFF
from .proposals import ClusterProposal

__all__ = [
    "FAMILY_TURN",
    "GENOME_RANK",
    "RANKS",
    "Turns",
    "base_order",
    "family",
    "family_turn",
    "ranked",
    "trying_order",
]

#: at genome scale, once an H of one family (profile clusters, semi-cliques) is kept and none of the
#: other, the other family's best candidate by common variance is tried first, once per kept H
#: (measured on the full tables, off: module docstring)
FAMILY_TURN = False

#: at genome scale, rank every candidate auto tries (on/off steps kept in place) by one of :data:`RANKS`
#: instead of :func:`base_order`'s estimate-then-common-variance (measured on the full tables, off:
#: docs/decisions/hidden-regulators-member-cover.md)
GENOME_RANK: str | None = None

#: the rankings measured: common variance (how much of the members' variance one parent explains), and the
#: estimate with the removed inside edges given back (``estimated_gain + removed_loss``, the set's own gain)
RANKS = {"common_variance": lambda p: p.common_variance, "free_gain": lambda p: p.estimated_gain + p.removed_loss}

#: the two families whose turns alternate
FAMILIES = ("profiles", "semi-clique")


def family(source: str) -> str:
    """The family of a proposal's source: ``"semi-clique"`` for any source naming semi-cliques
    (grown, or also a profile cluster), ``ONOFF`` for on/off steps, else ``"profiles"``."""
    if source == ONOFF:
        return ONOFF
    return "semi-clique" if "semi-clique" in (source or "") else "profiles"


@dataclass
class Turns:
    """Which families had their turn since the last kept H (``n_hidden`` hidden variables then)."""

    n_hidden: int = 0
    used: set[str] = field(default_factory=set)


def _common(p: ClusterProposal) -> float:
    return -p.common_variance


def base_order(
    props: list[ClusterProposal], *, two_layer: bool, own: bool, n_hidden: int, uncovered: Collection[frozenset] = ()
) -> list[ClusterProposal]:
    """The proposals auto tries, in order: a positive estimate first (a profile cluster's complete-data
    estimate positive too), then semi-cliques by common variance (:mod:`.candidates`); on/off steps
    (:mod:`.onoff`), whatever their estimate, after the first until an H is kept, then first. With
    ``own`` (small general networks) a set whose z* one of its own members nearly matches is kept:
    structural EM decides whether H or that member becomes the parent (#22); without it, only such a
    set whose key is in ``uncovered`` (the member's children cover few of the others: :mod:`.member_cover`)."""
    props = [p for p in props if p.explained_by is None or (p.explained_by in p.names and (own or p.key in uncovered))]
    good = [p for p in props if p.estimated_gain > 0 and ("semi-clique" in p.source or p.complete_gain > 0)]
    semis = [] if two_layer else [p for p in props if "semi-clique" in p.source and p.estimated_gain <= 0]
    steps = [p for p in props if p.source == ONOFF and all(p is not q for q in good)]  # whatever the estimate
    order = partial(sorted, key=_common)
    head = [] if n_hidden else good[:1]  # the first H as before #22's steps; then the steps first
    return head + order(steps) + good[len(head) :] + order(semis)


def ranked(order: list[ClusterProposal], rank: str, *, n_hidden: int) -> list[ClusterProposal]:
    """``order`` (:func:`base_order`) with every candidate but the on/off steps sorted by ``RANKS[rank]``,
    largest first; the steps keep their place (after the first until an H is kept, then first)."""
    steps = [p for p in order if p.source == ONOFF]
    rest = sorted((p for p in order if p.source != ONOFF), key=lambda p: -RANKS[rank](p))
    head = [] if n_hidden else rest[:1]
    return head + steps + rest[len(head) :]


def family_turn(order: list[ClusterProposal], kept_sources: list[str], turns: Turns) -> list[ClusterProposal]:
    """``order`` with the other family's turn (module docstring): when the kept hidden variables'
    sources hold one of :data:`FAMILIES` and not the other, and the other has not had its turn since
    the last kept H, its candidate of largest common variance goes first after the on/off steps
    (which keep their place). The turn is spent (``turns.used``) when that candidate is first."""
    if len(kept_sources) != turns.n_hidden:  # an H was kept (or the model changed): new turns
        turns.n_hidden, turns.used = len(kept_sources), set()
    kept = {family(s) for s in kept_sources} & set(FAMILIES)
    if len(kept) != 1:
        return order
    (other,) = set(FAMILIES) - kept
    if other in turns.used:
        return order
    waiting = [p for p in order if family(p.source) == other]
    if not waiting:
        return order
    pick = min(waiting, key=_common)  # stable: the first in ``order`` among equal common variances
    steps = [p for p in order if p.source == ONOFF and p is not pick]
    rest = [p for p in order if p.source != ONOFF and p is not pick]
    if not steps:
        turns.used.add(other)
    return steps + [pick] + rest


def trying_order(
    props: list[ClusterProposal],
    *,
    two_layer: bool,
    small: bool,
    kept_sources: list[str],
    turns: Turns,
    uncovered: Collection[frozenset] = (),
) -> list[ClusterProposal]:
    """The order auto tries ``props`` in: :func:`base_order` (``uncovered`` at genome scale only: the sets
    a member tracks but does not cover, :mod:`.member_cover`), then at genome scale (not ``small``, not
    two-layer) :func:`ranked` by :data:`GENOME_RANK` and :func:`family_turn`, each when switched on."""
    free = () if two_layer or small else uncovered
    own = not two_layer and small
    order = base_order(props, two_layer=two_layer, own=own, n_hidden=len(kept_sources), uncovered=free)
    if not (two_layer or small) and GENOME_RANK is not None:
        order = ranked(order, GENOME_RANK, n_hidden=len(kept_sources))
    if two_layer or small or not FAMILY_TURN:
        return order
    return family_turn(order, kept_sources, turns)
