"""What ``learn`` and ``bootstrap`` say on stderr about hidden variables and known gene sets
(the JSON holds all of it; these lines are the summary a person reads)."""

from __future__ import annotations

from .output import say

__all__ = ["regulator_table", "report_hidden", "report_support", "say_top_sets"]


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
        if "enrichment" in entries.get(r.name, {}):
            r.extra["enrichment"] = entries[r.name]["enrichment"]
    n = hs.n_observed
    listed = None if hs.em.regulators is None else [hs.names[i] for i in hs.em.regulators]
    return report_table(reports, hs.em.mean[:, :n], hs.names[:n], listed)


def report_support(result, quiet: bool) -> None:
    """The hidden regulators found across replicates, most supported first (5 of them with
    ``quiet``, else 20), each with its support and its most frequent children; the JSON has all."""
    regs = result.regulators or []
    if not regs:
        say(f"hidden regulators: none added in {result.replicates} replicate(s).")
        return
    say(f"hidden regulators: {len(regs)} matched across replicates by their children (Jaccard >= 0.5)")
    limit = 5 if quiet else 20
    for r in regs[:limit]:
        kids = list(r.children.items())
        shown = ", ".join(f"{c} {f:.2f}" for c, f in kids[:8]) + (
            f", ... ({len(kids)} children)" if len(kids) > 8 else ""
        )
        say(f"  {r.name}: support {r.support:.2f} ({len(r.replicates)} replicates), children (frequency): {shown}")
    if len(regs) > limit:
        say(f"  ... and {len(regs) - limit} more in the JSON ('hidden')")


def report_hidden(est, net, quiet: bool) -> None:
    """What the hidden-variable search did (unless ``quiet``), then one line (none with
    ``--quiet``, which silences every line but errors): the hidden variables added, or that none
    was and why."""
    if not quiet:
        for line in est.hidden_log_:
            say(f"  - hidden variables: {line}")
    if net.hidden:
        added = "; ".join(
            (f"{h['name']} <- {', '.join(h['parents'])}; " if h.get("parents") else "")
            + f"{h['name']} -> {', '.join(h.get('children') or []) or 'no children'}"
            for h in net.hidden
        )
        say(f"hidden variables added: {added}")
        for h in net.hidden:
            if h.get("realized_gain") is not None:
                say(
                    f"  {h['name']}: estimated score change {h['estimated_gain']:+.2f}, "
                    f"realized {h['realized_gain']:+.2f}"
                    f" (observed data, against the best network without it found: "
                    f"{h['baseline_score']:.2f} -> {h['score_after']:.2f})"
                )
    elif est.max_hidden == 0:
        say("no hidden variable was added: --max-hidden is 0.")
    else:
        reasons = [line for line in est.hidden_log_[1:] if line != "stopped"]
        say(f"no hidden variable was added: {reasons[-1] if reasons else 'none was proposed'}.")
