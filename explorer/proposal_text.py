"""A hidden-variable proposal in words, for the Hidden variables page: its status in the proposals
table, what removing the edges among its members costs, and how much one common parent explains.
The numbers are the engine's (:class:`engine.hidden.ClusterProposal`); nothing is recomputed."""

from __future__ import annotations

import math

import numpy as np

from engine.hidden.global_shift import TableAxes, global_shift, shift_line, shift_reading, table_axes
from engine.hidden.operon import operon_reading, operon_text
from engine.hidden.report_table import STAND_IN_CORR
from engine.hidden.sex_genes import sex_axis, sex_reading, sex_text

__all__ = [
    "carrier_text",
    "closest_text",
    "common_text",
    "flag_group_text",
    "flag_text",
    "operon_warning",
    "sex_warning",
    "proposal_warnings",
    "shift_warning",
    "removal_text",
    "shared_text",
    "status_text",
    "step_text",
]


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


def _program(p) -> bool:
    """A program on in two conditions (engine.hidden.onoff): flagged by exactly its step's two conditions."""
    return len(p.step_conditions) == 2 and p.high_leverage == p.step_conditions


def flag_group_text(instances, group, ranks: str) -> str:
    """The warning above a group of proposals flagged by the same ``instances`` (one condition or
    two): an odd condition, or a program on in two conditions only (a treatment measured twice is
    real biology, but its evidence is two instances)."""
    head = f"{len(group)} proposal(s) ({ranks}; {len({n for p in group for n in p.names}):,} variables in all)"
    if any(_program(p) for p in group):
        return (
            f"**A program on in {' and '.join(instances)} only: {head}**: many genes shifted together in those two "
            "conditions and nowhere else. It may be real (a shock or treatment measured twice), but its evidence is "
            "two conditions, so it is listed last and the command line's automatic search (`learn --hidden auto`) "
            "does not try it; accept it yourself if those conditions are a treatment you expect."
        )
    return (
        f"**{head} draw most of their profile from {', '.join(instances)}**: one or two conditions, not a regulator "
        "acting across the data. They are listed last, and the command line's automatic search "
        "(`learn --hidden auto`) does not try them (a similar set resting less on that condition can still be "
        "tried, and kept if it pays). Check those conditions (a failed sample, a one-off shock)."
    )


def flag_text(prop) -> str:
    """The warning on one flagged proposal: its program's two conditions, or its odd condition(s)."""
    if _program(prop):
        return (
            f"**A program on in {prop.high_leverage[0]} and {prop.high_leverage[1]} only** ({len(prop.names)} genes "
            f"shifted there, {prop.leverage:.0%} of z*'s energy in one of them): its evidence is two conditions. "
            "Accept it if those conditions are a treatment you expect (see the profile plot)."
        )
    return (
        f"**One odd sample?** {prop.leverage:.0%} of z*'s energy (its squared deviations from its mean) is in "
        f"{prop.high_leverage[0]}"
        + (f" and most of the rest in {prop.high_leverage[1]}" if len(prop.high_leverage) > 1 else "")
        + ": this proposal mostly explains the members' values there (see the profile plot's right or left end)."
    )


def step_text(prop) -> str | None:
    """Where an on/off step's members shift, in words (``prop.step_conditions``, the engine's
    :func:`engine.hidden.onoff.name_step`); None for a set of another source, or a program in two
    conditions (its flag says so). A biologist reading "on/off step" in the table could not tell in
    which conditions (QA walk on E. coli: a 36-gene step, the Zur regulon among them, in four)."""
    if not prop.step_conditions or _program(prop):
        return None
    k = len(prop.step_conditions)
    return (
        f"**On/off step in {k} conditions:** {', '.join(prop.step_conditions)}. The members' unexplained parts "
        f"shift together there (all up or all down) and not in the other {prop.profile.size - k}, as a response "
        "switched on in a few conditions would (a shock, a nutrient); one end of the profile plot shows the step. "
        "A step in few conditions is not tested for chance here: Accept's realized change is the test."
    )


def shared_text(proposals, pick: int) -> str | None:
    """Which other listed proposals share two or more members with proposal ``pick`` (0-based), by rank
    and gene; None when none does. Walk of session 23 (172 tumours): a 34-gene MYC module and a 5-gene set
    holding three of its genes were listed as ranks 2 and 4 without a word that they overlap, so Accept
    on one changes the other."""
    own = set(proposals[pick].names)
    parts = []
    for i, p in enumerate(proposals):
        common = [n for n in p.names if n in own] if i != pick else []
        if len(common) >= 2:  # one gene in common is often chance (a hub in two modules)
            more = f" and {len(common) - 6} more" if len(common) > 6 else ""
            parts.append(f"#{i + 1} ({len(common)}: {', '.join(common[:6])}{more})")
    if not parts:
        return None
    return (
        f"**Shares members with** {'; '.join(parts)}: overlapping proposals may be one program seen twice; after "
        "Accepting one, propose again to see what is left of the other."
    )


def operon_warning(prop, names) -> str | None:
    """The warning on a proposal whose members are mostly one run of adjacent locus tags (a bacterial
    table's names, :mod:`engine.hidden.operon`): likely one operon, not a regulator; None otherwise.
    ``names``: the table's observed names (``prop.members`` index them). Run auto sets such a proposal aside
    (:mod:`engine.hidden.considered`) and the list shows it after the others; the words say both."""
    text = operon_text(operon_reading(prop.members, names), "This proposal", "members")
    if text is None:
        return None
    return (
        f"{text}. Listed after the other proposals, and Run auto sets it aside; Accept it here if you know "
        "a regulator of these genes beyond their shared transcript."
    )


def shift_warning(prop, values: np.ndarray, axes: TableAxes | None = None) -> str | None:
    """The warning on a proposal whose profile z* follows the whole table's per-condition level or its first
    principal component (:mod:`engine.hidden.global_shift`, the reading a kept H gets in the report, here
    before Accept: the members' loadings stand in for H's coefficients); None otherwise or below the
    reading's table size. ``values``: the observed table (M, n), whose columns ``prop.members`` index;
    ``axes``: its :func:`~engine.hidden.global_shift.table_axes` when the caller keeps them (the Hidden page
    does, per table: an M x M eigenproblem, ~50 ms at 4,218 x 266, not redone on every render)."""
    coef = np.zeros(np.shape(values)[1])
    coef[np.asarray(prop.members, dtype=np.intp)] = np.where(np.asarray(prop.loadings) != 0, prop.loadings, 1.0)
    shift = global_shift(table_axes(values) if axes is None else axes, prop.profile, coef)
    line = shift_line(None if shift is None else shift.to_dict(), "This proposal", "members")
    return None if line is None else f"{line}: {shift_reading('it')}."


def sex_warning(prop, values: np.ndarray, names) -> str | None:
    """The warning on a proposal whose profile z* follows the table's sex axis (``XIST`` against the Y genes,
    :mod:`engine.hidden.sex_genes`: the reading a kept H gets in the report, here before Accept); None otherwise
    and on tables without those genes."""
    reading = sex_reading(prop.profile, sex_axis(values, names))
    line = sex_text(None if reading is None else reading.to_dict(), "This proposal")
    return None if line is None else f"{line}."


def proposal_warnings(prop, values: np.ndarray, names, axes: TableAxes | None = None) -> list[str]:
    """The readings a proposal gets before Accept, as warnings: one operon (:func:`operon_warning`), a
    global shift of the table (:func:`shift_warning`, with the table's ``axes`` when kept) and the samples'
    sex (:func:`sex_warning`); ``values`` and ``names``: the observed table's. A proposal flagged as one or two
    odd instances gets no global-shift reading: a failed array that moves many genes also makes the table's first
    component, and the flag already names it (normalising would not be the fix)."""
    shift = None if getattr(prop, "flagged", None) else shift_warning(prop, values, axes)
    found = (operon_warning(prop, names), shift, sex_warning(prop, values, names))
    return [w for w in found if w is not None]
