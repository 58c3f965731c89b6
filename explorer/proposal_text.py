"""A hidden-variable proposal in words, for the Hidden variables page: its status in the proposals
table, what removing the edges among its members costs, and how much one common parent explains.
The numbers are the engine's (:class:`engine.hidden.ClusterProposal`); nothing is recomputed."""

from __future__ import annotations

import math

from engine.hidden.report_table import STAND_IN_CORR

__all__ = ["carrier_text", "closest_text", "common_text", "removal_text", "status_text"]


def status_text(p) -> str:
    """The proposals table's status: "new", "≈ X" (X, outside the set, already carries z*), "hub X"
    (member X does) or "odd" (flagged: one or two conditions). Short enough for its cell
    (:mod:`explorer.hidden_columns`; with a regulator list X is always a listed regulator, as its help
    says); the warning above a flagged group names its conditions, and "Proposal #k" says each status
    in full."""
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
    edges = "the edge among them is" if n == 1 else f"the {n} edges among them are"
    return f"the members lose {prop.removed_loss:.2f} nats when {edges} removed"


def common_text(prop) -> str:
    """How much of the members' variance one common parent explains, in words (the review order's
    key for proposals that do not pay, engine.hidden.modules)."""
    if not math.isfinite(prop.common_variance) or not prop.names:
        return ""
    share = prop.common_variance / len(prop.names)
    return f"One common parent explains {share:.0%} of the members' remaining variance on average. "


def closest_text(prop, regulators=None) -> str:
    """The variable outside the set closest to z*, in words. With a regulator list, a close one
    (|r| >= STAND_IN_CORR) that is not listed cannot be the members' parent: it is most likely a
    member the cluster left out (a biologist saw a 27-gene proposal whose closest outside gene,
    |r| = 0.95, was the 28th gene of the module), which structural EM after Accept can add."""
    said = f"Closest variable outside the set: **{prop.closest}** (|correlation with z*| = {prop.closest_corr:.2f})."
    if regulators and prop.closest not in regulators and prop.closest_corr >= STAND_IN_CORR and not prop.explained_by:
        said = said[:-2] + (
            "): not on the regulator list, so not the members' parent; most likely a member the cluster left "
            "out (structural EM after Accept can make it a child)."
        )
    return said


def carrier_text(prop, regulators=None) -> str:
    """The variable that already carries z* (``explained_by``), in words: a member is the set's hub,
    unless z* rests on one or two odd conditions (flagged), where it only tracks z* best there. On
    the ``regulators`` list it is said to be a listed regulator (the QA walk's gadE, b3512, was
    called only "a hub of the set")."""
    if not prop.explained_by:
        return ""
    by = prop.explained_by
    if regulators and by in regulators and not prop.flagged:
        if by not in prop.names:
            return f" **{by}, a listed regulator, already explains this cluster.**"
        return (
            f" **Member {by}, a listed regulator, already carries this profile**: it is most likely the members' "
            "regulator itself, and edges from it do what a hidden parent would; Accept only adds to it if the "
            "realized change pays."
        )
    if by not in prop.names:
        return f" **{by} already explains this cluster.**"
    if prop.flagged:
        return (
            f" **Member {prop.explained_by} already carries this profile**, the member that tracks z* best; not "
            f"read as a hub of the set while z* rests on {' and '.join(prop.high_leverage)} (see below)."
        )
    return (
        f" **Member {prop.explained_by} already carries this profile** (a hub of the set): if it is the "
        "regulator, edges from it do what a hidden parent would; if the regulator is unmeasured, Accept and "
        "compare the realized change."
    )
