"""A hidden-variable proposal in words, for the Hidden variables page: its status in the proposals
table, what removing the edges among its members costs, and how much one common parent explains.
The numbers are the engine's (:class:`engine.hidden.ClusterProposal`); nothing is recomputed."""

from __future__ import annotations

import math

__all__ = ["common_text", "removal_text", "status_text"]


def status_text(p) -> str:
    """The proposals table's status: "new", "≈ X" (X, outside the set, already carries z*), "hub X"
    (member X does) or "odd" (flagged: one or two conditions). Short enough for its cell
    (:mod:`explorer.hidden_columns`); the warning above a flagged group names its conditions, and
    "Proposal #k" says each status in full."""
    if p.flagged:
        return "odd"
    if not p.explained_by:
        return "new"
    return ("hub " if p.explained_by in p.names else "≈ ") + p.explained_by


def removal_text(prop) -> str:
    """What removing the edges among a proposal's members costs, in words (none to remove: say so,
    rather than "lose 0.00 when the 0 edge(s) among them are removed")."""
    n = len(prop.removed_edges)
    if n == 0:
        return "no edge joins the members, so none is removed"
    edges = "the edge" if n == 1 else f"the {n} edges"
    return f"the members lose {prop.removed_loss:.2f} nats when {edges} among them are removed"


def common_text(prop) -> str:
    """How much of the members' variance one common parent explains, in words (the review order's
    key for proposals that do not pay, engine.hidden.modules)."""
    if not math.isfinite(prop.common_variance) or not prop.names:
        return ""
    share = prop.common_variance / len(prop.names)
    return f"One common parent explains {share:.0%} of the members' remaining variance on average. "
