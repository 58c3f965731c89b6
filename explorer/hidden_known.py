"""A proposal that an accepted hidden variable already explains, in words, for the Hidden page.

After Accept, a cluster of H1's own children could come back as a proposal whose closest variable
was H1, unmarked: a biologist read it as a second regulator. The engine marks such proposals
(:mod:`engine.hidden.explained`: most members already H's children, or z* tracking H) with
``explained_by`` = H and lists them after the new ones; this module says so in the proposals
table's status ("already H1") and above the proposal, with the engine's figures. Nothing is
recomputed here but the counts the engine's :func:`~engine.hidden.explained.hidden_overlap` returns.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from engine.hidden.explained import HiddenOverlap, hidden_overlap
from engine.hidden.operon import locus_index, one_operon
from explorer.proposal_text import status_text

__all__ = ["known_status", "known_text", "network_text", "overlap_of"]


def network_text(session) -> str:
    """The network the proposals are for, in the caption's words: its edges and step, or, with no
    move since an Accept, that structural EM learned it (it said "step 0", which reads as unsearched)."""
    stepper, hidden = session.stepper, sorted(session.hidden_names())
    edges = f"{len(stepper.edges()):,} edges"
    if hidden and stepper.n_iter == 0:
        verb = "was" if len(hidden) == 1 else "were"
        return f"{edges}, learned by structural EM when {', '.join(hidden)} {verb} accepted"
    return f"{edges}, step {stepper.n_iter}"


def overlap_of(session, prop) -> HiddenOverlap | None:
    """How much of ``prop`` the session's accepted hidden variables cover (None: none accepted)."""
    hidden = range(session.dataset.n_vars, session.stepper.n_vars)
    if not len(hidden):
        return None
    return hidden_overlap(prop, session.stepper.edges(), session.values(), session.variable_names(), hidden)


def known_status(hidden_names, names: Sequence[str] | None = None) -> Callable:
    """The proposals table's status function: "already H1" for a proposal the accepted H1 explains,
    "one operon" for one whose members are mostly adjacent locus tags of the table's observed ``names``
    (:mod:`engine.hidden.operon`, the run the engine lists after the new ones: a newcomer read "new" on it
    and wondered why a proposal that pays sat below ones that do not), else
    :func:`~explorer.proposal_text.status_text`."""
    hidden_names = set(hidden_names)
    index = locus_index(list(names)) if names is not None else None  # None: not locus tags

    def status(p) -> str:
        if not p.flagged and p.explained_by in hidden_names:
            return f"already {p.explained_by}"
        if not p.flagged and index is not None and one_operon(p.members, names, index):  # an H member: skipped
            return "one operon"
        return status_text(p)

    return status


def known_text(prop, overlap: HiddenOverlap | None) -> str | None:
    """The line shown above a proposal that an accepted hidden variable explains, or that one is
    closest to (None otherwise): what it shares with that variable, in the engine's figures."""
    if overlap is None or (prop.explained_by != overlap.hidden and prop.closest != overlap.hidden):
        return None
    h, n, size = overlap.hidden, overlap.n_children, overlap.n_members
    shared = f"{n} of its {size} members {'is' if n == 1 else 'are'} already {h}'s children" if n else ""
    tracks = f"its shared profile z* tracks {h}'s inferred profile (|r| = {overlap.corr:.2f})"
    said = f"{shared} and {tracks}" if shared else tracks
    if prop.explained_by == h:
        return (
            f"**Already explained by {h} — not a new regulator.** {said[0].upper()}{said[1:]}. It is listed "
            f"after the new proposals. Accepting it would add a second hidden variable for genes {h} already "
            f"regulates; a member {h} lacks can become its child when the network is searched again."
        )
    return (
        f"**The closest variable, {h}, is a hidden variable you accepted**: {said}. Not enough to call it the "
        f"same regulator, but compare the two profiles before accepting a second one."
    )
