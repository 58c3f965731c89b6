"""The regulator report's line per accepted hidden variable, in a biologist's terms (Hidden variables
page): its parents among the candidate regulators, what its closest observed variable is to it (one of
its own children, its hub gene in WGCNA's terms unless the profile rests on one odd condition, or a gene
outside the module that may already play its role) and whether its inferred profile rests on one or two
conditions (:mod:`engine.hidden.leverage`), and whether it may read as an observed parent's activity beyond
its measured level (:mod:`engine.hidden.activity`; or a separate regulator that moves with that parent's
level: the coefficients look alike, newcomer walk of session 19), as its listed parents' pooled activity
(:mod:`engine.hidden.pooled`) or as a global shift of the whole table (:mod:`engine.hidden.global_shift`).
The numbers are the engine's (:class:`engine.hidden.report.RegulatorReport`, and the profile's leverage and
the stand-in threshold from :mod:`engine.hidden.report_table`); nothing is recomputed here."""

from __future__ import annotations

from collections.abc import Sequence

from engine.hidden.activity import activity_evidence, activity_readings
from engine.hidden.global_shift import shift_line, shift_reading
from engine.hidden.hub_targets import hub_text
from engine.hidden.operon import operon_text
from engine.hidden.pooled import pooled_reason
from engine.hidden.report import RegulatorReport
from engine.hidden.report_table import STAND_IN_CORR, pooled_text, profile_flags
from engine.hidden.sex_genes import sex_text
from engine.listing import first_few

__all__ = ["STAND_IN_CORR", "report_line", "profile_flags"]


def report_line(r: RegulatorReport, regulators: Sequence[str] | None) -> str:
    """Markdown: one accepted hidden variable ``r`` (``regulators``: the list in force, or None)."""
    children = {c.child for c in r.children}
    if r.parents:
        head = f" (depends on {', '.join(r.parents)}, which explain {r.parents_r2:.0%} of its variance)"
    elif regulators:
        head = f" (none of the {len(regulators)} listed regulators is its parent)"
    else:
        head = ""
    listed_kids = [c.child for c in r.children if regulators and c.child in regulators and not r.parents]
    if listed_kids:  # H -> TF and TF -> H are one equivalence class when neither has another parent
        kids = first_few(listed_kids, 5)
        head = head[:-1] + (
            f"; listed regulator(s) {kids} among its children: the score cannot tell H -> TF from TF -> H "
            "when neither has another parent, so H may be that regulator's own signal)"
        )
    close, corr = r.closest_observed, r.closest_corr
    leverage, flagged = profile_flags(r)
    odd = " and ".join(flagged)
    oc = r.extra.get("odd_conditions") or {}  # conditions odd in the whole table (engine/hidden/leverage.py)
    share = oc["share"] if oc.get("flagged") and flagged == oc["conditions"] else leverage
    if close is None:
        said = "no observed variable to compare with"
    elif close in children and flagged:  # a profile resting on one odd condition is no module's hub
        said = (
            f"closest observed variable **{close}** (|r| = {corr:.2f}), one of its children: "
            f"the child that tracks it best, not read as a hub gene while its profile rests on {odd}"
        )
    elif close in children:
        said = (
            f"closest observed variable **{close}** (|r| = {corr:.2f}), one of its children: "
            "the child it explains best (the module's hub gene, in WGCNA's terms)"
        )
        if regulators and close not in regulators:
            said += ", not on the regulator list, so the search could not make it the others' parent"
    else:
        said = f"closest observed variable **{close}** (|r| = {corr:.2f})"
        if corr >= STAND_IN_CORR:
            said += ", not one of its children: that variable may already play its role"
    line = f"**{r.name}**{head}: {said}; estimated {r.estimated_gain:+.2f}, realized {r.realized_gain:+.2f} nats."
    act = r.extra.get("activity") or {}
    if act.get("flagged"):  # engine/hidden/activity.py: a co-parent's coefficients, or its children taken over
        reg = act["regulator"]
        line += f" **{reg}'s activity?** {activity_evidence(act, r.name, len(r.children))}: " + activity_readings(
            r.name, reg
        )
    pool = r.extra.get("pooled") or {}
    if pool.get("flagged"):  # engine/hidden/pooled.py: >= 2 listed parents, < 3 nats a child or R^2 >= 0.95
        line += f" **Pooled activity?** {r.name} ~ {pooled_text(pool)}: {pooled_reason(pool)}, not a new regulator."
    hub = r.extra.get("hub_targets") or {}
    if hub.get("flagged"):  # engine/hidden/hub_targets.py: children not set apart from its parents' targets
        line += f" **Its parents' targets?** {r.name}: {hub_text(hub)}: not a new regulator."
    if (shift := shift_line(r.extra.get("global_shift"), r.name)) is not None:  # engine/hidden/global_shift.py
        line += f" **The whole table's level?** {shift}: {shift_reading(r.name)}."
    if (op := operon_text(r.extra.get("operon"), r.name)) is not None:  # engine/hidden/operon.py
        line += f" **One operon?** {op}."
    if (sex := sex_text(r.extra.get("sex"), r.name)) is not None:  # engine/hidden/sex_genes.py
        line += f" **The samples' sex?** {sex}."
    if flagged:
        line += (
            f" **One odd sample?** {share:.0%} of its profile's energy is in {odd}: "
            "check those conditions before trusting it."
        )
    return line
