"""What ``learn`` and ``bootstrap`` say on stderr about hidden variables and known gene sets
(the JSON holds all of it; these lines are the summary a person reads)."""

from __future__ import annotations

import shlex

from ..hidden.activity import activity_evidence, activity_readings
from ..hidden.considered import last_outcome
from ..hidden.global_shift import shift_line, shift_reading
from ..hidden.hub_targets import hub_text
from ..hidden.operon import operon_text
from ..hidden.pooled import pooled_reason
from ..hidden.report_table import pooled_text
from ..hidden.sex_genes import sex_text
from .live import cap_lists, readable
from .output import say

#: operon runs named in the note on proposals set aside as one operon
SHOWN_RUNS = 5

__all__ = ["regulator_table", "report_hidden", "report_support", "say_top_sets", "untried_line"]


def say_top_sets(hidden: list[dict], edges) -> None:
    """One stderr line per hidden variable: its best known gene set (or that none overlaps)."""
    for h in hidden:
        n = sum(1 for p, _ in edges if p == h["name"])
        rows = h.get("enrichment") or []
        if not rows:
            say(f"  {h['name']}: no known gene set holds any of its {n} children")
            continue
        r = rows[0]
        say(
            f"  {h['name']}: top known set {r['set']}: {r['overlap']} of its {n} children "
            f"(set of {r['set_size']} in the data), p {r['p']:.2g}, q {r['q']:.2g}"
        )


def regulator_table(est, result: dict):
    """``learn``'s regulator report as a table (:func:`engine.hidden.report_table.report_table`, the
    explorer's CSV too): the fitted hidden search's reports, with each hidden variable's enrichment
    rows from ``result`` (the JSON, when ``--gene-sets`` was given); no row without hidden variables."""
    from ..hidden.report_table import report_table

    hs = getattr(est, "hidden_search_", None)
    if hs is None or not hs.hidden:
        return report_table([])
    entries = {h["name"]: h for h in result.get("hidden", [])}
    reports = hs.report()
    for r in reports:
        for key in ("enrichment", "trait"):  # --gene-sets' rows, --traits' followed trait
            if entries.get(r.name, {}).get(key) is not None:
                r.extra[key] = entries[r.name][key]
    n = hs.n_observed
    listed = None if hs.em.regulators is None else [hs.names[i] for i in hs.em.regulators]
    return report_table(reports, hs.em.mean[:, :n], hs.names[:n], listed)


def report_support(result, quiet: bool) -> None:
    """The hidden regulators found across replicates with support at least the averaged network's
    threshold (``result.threshold``), most supported first (5 of them with ``quiet``, else 20), each
    with its support and its most frequent children, then how many more the JSON has; when none
    reaches the threshold, the most supported one. The JSON has all."""
    regs = result.regulators or []
    if not regs:
        say(f"hidden regulators: none added in {result.replicates} replicate(s).")
        return
    floor = float(result.threshold)
    say(f"hidden regulators: {len(regs)} matched across replicates by their children (Jaccard >= 0.5)")
    shown = [r for r in regs if r.support >= floor][: 5 if quiet else 20] or regs[:1]
    for r in shown:
        kids = list(r.children.items())
        listed = ", ".join(f"{c} {f:.2f}" for c, f in kids[:8]) + (
            f", ... ({len(kids)} children)" if len(kids) > 8 else ""
        )
        n = len(r.replicates)
        times = f"{n} replicate{'s' if n != 1 else ''}"
        say(f"  {r.name}: support {r.support:.2f} ({times}), children (frequency): {listed}")
    if len(regs) > len(shown):
        below = sum(1 for r in regs if r.support < floor)
        why = f", {below} of them with support below {floor:.2f} (the averaged network's threshold)" if below else ""
        say(f"  ... and {len(regs) - len(shown)} more in the JSON ('hidden'){why}")


def _say_readings(h: dict) -> None:
    """A kept H read as a measured regulator's activity (``engine/hidden/activity.py``), as its
    listed parents' pooled activity (``engine/hidden/pooled.py``), as their targets
    (``engine/hidden/hub_targets.py``) or as a global shift of the table (``engine/hidden/global_shift.py``):
    one line each, when flagged."""
    name, act, pool = h["name"], h.get("activity"), h.get("pooled")
    if pool and pool.get("flagged"):
        say(
            f"  {name} ~ {pooled_text(pool)}: {pooled_reason(pool)}, read {name} as the pooled activity of "
            f"{', '.join(pool['regulators'])} on targets they regulate with weak effects, not a new regulator"
        )
    hub = h.get("hub_targets")  # engine/hidden/hub_targets.py: children not set apart from its parents' targets
    if hub and hub.get("flagged"):
        say(f"  {name}: {hub_text(hub)}: read {name} as its parents' targets, not a new regulator")
    if (line := shift_line(h.get("global_shift"), name)) is not None:  # global_shift.py: the table's level or PC1
        say(f"  {line}: {shift_reading(name)}")
    if (line := operon_text(h.get("operon"), name)) is not None:  # engine/hidden/operon.py: one operon?
        say(f"  {line}")
    if (line := sex_text(h.get("sex"), name)) is not None:  # engine/hidden/sex_genes.py: XIST against the Y genes
        say(f"  {line}")
    if act and act.get("flagged"):  # engine/hidden/activity.py: a co-parent's coefficients, or its children taken
        say(
            f"  {name}: {activity_evidence(act, name, len(h.get('children') or []))}: "
            + activity_readings(name, act["regulator"])
        )


def report_hidden(est, net, n_candidates: int | None = None, labelled: bool = True) -> None:
    """What the hidden-variable search ended with (its lines were said as they happened,
    :mod:`.live`): the hidden variables added, or that none was and why; a kept H whose profile is
    one or two conditions; when auto stopped at ``--max-hidden``, how many proposals it left untried
    (:func:`untried_line`); the proposals set aside as one or two conditions' (those conditions named);
    and, when EBIC's candidate parents now count the added H's, how (``n_candidates``: the count
    said before the search; ``labelled``: the instances have names in the file, so ``--drop`` can
    name a condition). ``--quiet`` silences every line but errors."""
    if net.hidden:
        added = "; ".join(
            (f"{h['name']} <- {', '.join(h['parents'])}; " if h.get("parents") else "")
            + f"{h['name']} -> {', '.join(h.get('children') or []) or 'no children'}"
            for h in net.hidden
        )
        say(f"hidden variables added: {cap_lists(added)}")
        score = str((net.score_info or {}).get("name", "bic")).upper()
        for h in net.hidden:
            if h.get("realized_gain") is not None:
                say(
                    f"  {h['name']}: score change estimated {h['estimated_gain']:+,.2f}, realized "
                    f"{h['realized_gain']:+,.2f} (observed-data {score} {h['baseline_score']:,.2f} -> "
                    f"{h['score_after']:,.2f}, from the best network found without {h['name']})"
                )
            _say_readings(h)
            if h.get("flagged_instances"):
                say(
                    f"  {h['name']}: its profile is mostly {_conditions(h['flagged_instances'])} "
                    f"(leverage {h['leverage']:.2f}): check that condition before reading {h['name']} as a regulator"
                )
    elif est.max_hidden == 0:
        say("no hidden variable was added: --max-hidden is 0.")
    else:
        reason = last_outcome(est.hidden_log_)  # the last outcome, not the progress lines
        say(f"no hidden variable was added: {readable(reason) if reason else 'none was proposed'}.")
    if (line := untried_line(net)) is not None:
        say(line)
    set_aside = getattr(net, "flagged_proposals", None) or []
    flagged = [p for p in set_aside if not p.get("operon")]  # by one or two conditions (engine/hidden/leverage.py)
    operons = [p["operon"] for p in set_aside if p.get("operon")]  # as one operon (engine/hidden/considered.py)
    if operons:
        runs = ", ".join(f"{r['first']}-{r['last']}" for r in operons[:SHOWN_RUNS])
        more = f" and {len(operons) - SHOWN_RUNS} more" if len(operons) > SHOWN_RUNS else ""
        say(
            f"note: {len(operons)} proposed hidden variable(s) set aside as one operon each (most of their members "
            f"are adjacent genes, co-transcribed, not a regulator's targets): {runs}{more} "
            "('flagged_proposals' in the JSON)"
        )
    if flagged:
        odd = list(dict.fromkeys(c for p in flagged for c in p["flagged_instances"]))
        top = max(flagged, key=lambda p: p["n_members"])
        say(
            f"note: {len(flagged)} proposed hidden variable(s) set aside because one or two conditions make "
            f"their profile: {_conditions(odd)} (the largest: {top['n_members']} variables, leverage "
            f"{top['leverage']:.2f}, the share of its profile's energy in one condition); a condition off in many "
            "genes at once (a failed array? a one-off treatment?) is worth a look ('flagged_proposals' in the JSON); "
            + (
                f"to learn without it, leave it out: --drop {' '.join(map(shlex.quote, odd[:2]))}"
                if labelled
                else f"to learn without it, delete its row of the file (data row {' and '.join(odd[:2])}: the rows "
                "have no labels for --drop)"
            )
        )
        for p in (p for p in flagged if len(p.get("step_conditions") or []) == 2):
            say(
                f"note: one of them is a program on in {_conditions(p['step_conditions'])} only ({p['n_members']} "
                "variables shifted together there): real perhaps (a treatment measured twice), but resting on two "
                "conditions; accept it in the explorer's Hidden page if those conditions are a treatment you expect"
            )
    now = (net.score_info or {}).get("n_candidates")
    if n_candidates is not None and now is not None and int(now) != int(n_candidates) and net.hidden:
        say(
            f"note: {str(net.score_info.get('name')).upper()} counts {now} candidate parents in the result: "
            f"the {n_candidates} said above and the hidden variable(s) added ('score.n_candidates' in the JSON)"
        )


def untried_line(net) -> str | None:
    """The note when ``--hidden auto`` stopped at ``--max-hidden`` (the result's ``untried_proposals``,
    :mod:`engine.hidden.untried`): how many proposals of its last round it left untried, how many of them
    with a positive estimate, the largest; None when it stopped because nothing more paid."""
    rec = getattr(net, "untried_proposals", None) or {}
    if rec.get("stopped") != "max_hidden" or not rec.get("proposed"):
        return None
    cap = f"auto stopped at --max-hidden {rec['max_hidden']}"
    props = rec.get("proposals") or []
    if not props:
        return f"note: {cap}; no other proposal was in line in its last round (a larger --max-hidden proposes again)"
    top = max(props, key=lambda p: p["n_members"])
    gain = top.get("estimated_gain")
    est = "no estimate" if gain is None else f"est. {gain:+,.0f}"
    shared = sum(1 for p in props if p.get("overlap"))
    overlap = f"; {shared} share members with a kept H's children" if shared else ""
    n = len(props)
    return (
        f"note: {cap} with {n} proposal{'s' if n != 1 else ''} untried ({rec['n_positive']} with a positive "
        f"estimate; the largest: {top['n_members']:,} variables, {est}{overlap}): raise --max-hidden to try them, or "
        "accept them one at a time in the explorer's Hidden page ('untried_proposals' in the JSON); the estimate "
        "keeps the rest of the network fixed, so one below zero may still pay when tried"
    )


def _conditions(names: list[str]) -> str:
    """``'heat_t30'`` or ``'heat_t30' and 'lowFe_t0'`` (quoted condition names)."""
    quoted = [repr(str(n)) for n in names]
    return quoted[0] if len(quoted) == 1 else ", ".join(quoted[:-1]) + " and " + quoted[-1]
