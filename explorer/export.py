"""What the Truth & export page downloads: the session's network as the CLI writes it, with every
setting needed to learn it again (issue #24).

:func:`export_settings` lists the search settings, the candidate-regulator list and how the data
were read (file, orientation, scale, ``drop``, ``no_header``... in the CLI's names, as
:attr:`explorer.session.SearchSession.source` recorded them; turning the data round with the
Transpose button flips ``transpose``), plus any setting another part of the app adds to the
session's settings. :func:`export_dict` is the CLI's JSON result with those settings, ``stats``
counting the moves of an accepted hidden variable's structural EM, each hidden variable's report
fields (as the CLI's ``--hidden auto`` writes them) and ``rerun``: the ``python -m engine learn``
command that learns the network again (:func:`engine.cli.rerun.rerun_command`, the CLI's own
builder), with ``rerun_note`` where the command cannot reproduce the session exactly.
"""

from __future__ import annotations

import shlex
from typing import TYPE_CHECKING

import pandas as pd

from engine.cli.rerun import rerun_command
from engine.io.counts import is_log_cpm
from explorer.fill_choice import FILL_NAMES, fill_of

if TYPE_CHECKING:
    from explorer.session import SearchSession

__all__ = ["export_settings", "export_dict", "rerun_notes", "inferred_profiles"]


def export_settings(session: SearchSession) -> dict:
    """Every setting needed to learn the session's network again, in the CLI's names."""
    out = dict(session.settings.to_dict())
    stepped = session.hidden is None and not session.main.converged
    # a search not run to convergence is reproduced by as many moves (--max-steps)
    out["max_iter"] = session.stepper.n_iter if stepped else None
    out["regulators"] = list(session.regulators) if session.regulators else None
    if session.regulators and session.regulator_file:  # the list is the user's uploaded file: the command names it
        out["regulators_file"] = session.regulator_file
    source = dict(session.source)
    if session.transposed:  # turned round by the Transpose button since it was loaded
        source["transpose"] = not source.get("transpose", False)
    if not session.dataset.covariates:  # uploaded, then set aside by a Transpose (or its Undo)
        source.pop("covariates", None)
    out.update(source)
    if is_log_cpm(session.prepared.loaded):  # "Use log2 CPM" (explorer.counts_box): the CLI's --log-cpm
        out["log_cpm"] = True
    if session.dataset.covariates:  # the uploaded covariates' variables, as learn records them (score reads them)
        out["parent_only"] = list(session.dataset.covariates)
    if session.hidden is not None:
        out["hidden_accepted"] = sorted(session.hidden_names())
    return out


def rerun_notes(session: SearchSession) -> list[str]:
    """Where the rerun command does not reproduce the session exactly, in words."""
    notes = []
    if session.hidden is not None:
        notes.append(
            f"the hidden variable(s) {', '.join(sorted(session.hidden_names()))} were accepted by hand in the "
            "explorer: the command learns the observed network (add --hidden auto to let the CLI propose its own)"
        )
    if session.prepared.pending:  # explorer/prepared.py: the data look the wrong way round, not yet settled
        notes.append(
            "the explorer searched the data with their missing cells at their columns' means (the orientation "
            "not settled: Transpose, or keep it on the Home page); the command learns by structural EM"
        )
    if session.prepared.completion is not None:
        notes.append(
            "the explorer searched the data with their missing cells filled once by "
            f"{FILL_NAMES[fill_of(session.prepared.completion)]}; the command "
            "learns by structural EM throughout, which may end on a somewhat different network"
        )
    from explorer.gene_names import NAMED

    for named in (n for n in session.dataset.notes if n.startswith(NAMED)):  # the explorer's own renaming
        notes.append(
            f"the explorer {named.split(' (')[0]}: the command names them by the file's first column (ids); "
            "a regulator list of symbols matches none of them"
        )
    from explorer.leave_out import LEFT_OUT

    for left in (n for n in session.dataset.notes if n.startswith(LEFT_OUT)):  # a flagged condition dropped
        gone = left[len(LEFT_OUT) :]
        notes.append(
            f"the explorer left out {gone}: the command reads every instance of the file (add --drop "
            f"{' '.join(map(shlex.quote, gone.split(', ')))})"
        )
    if session.source.get("generated"):
        notes.append(f"the data were generated in the explorer: download them (Data, CSV) as {session.source['data']}")
    elif not session.source.get("data"):
        notes.append("the data are not a file: save them as CSV and name it in the command")
    return notes


def _stats(session: SearchSession, stats: dict) -> dict:
    """``stats`` with the moves that built the network after a hidden variable was accepted: those
    before each Accept, those of the last acceptance's structural EM, and those stepped since."""
    if session.hidden is None:
        return stats
    from explorer.actions import AcceptHidden

    before = sum(a.previous.stepper.n_iter for a in session.undo_stack if isinstance(a, AcceptHidden))
    em = session.hidden.em
    return {
        **stats,
        "steps": int(stats.get("steps", 0)) + before + int(em.n_moves),
        "exact_evaluations": int(stats.get("exact_evaluations", 0)) + int(em.n_exact),
        "em_iterations": int(em.n_iter_),
    }


def _hidden(session: SearchSession, hidden: list[dict]) -> list[dict]:
    """Each hidden variable's entry with the report fields of the hidden search (gains, scores
    before and after, closest observed variable, per-child loadings), the report made from the
    same fit of the current network as the exported edges (steps taken after Accept included);
    its children and profile are the current network's."""
    if session.hidden is None or not hidden:
        return hidden
    hs = session.hidden
    gains = {h.name: (h.estimated_gain, h.realized_gain) for h in hs.hidden}
    reports = session.current_fit().report(session.values(), gains, session.dataset.instance_labels, hs.em.regulators)
    report = {d["name"]: d for d in hs.summary(reports)["hidden"]}
    return [{**report.get(h["name"], {}), **h} for h in hidden]


def export_dict(session: SearchSession) -> dict:
    """The session's network as the CLI's JSON result, with the settings, counters and hidden-variable
    reports needed to learn it again, and the command that does (``rerun``)."""
    net = session.learned_network()
    out = net.to_dict()
    out["settings"] = export_settings(session)
    out["stats"] = _stats(session, dict(out.get("stats") or {}))
    out["hidden"] = _hidden(session, list(out.get("hidden") or []))
    out["rerun"] = rerun_command(out["settings"])
    notes = rerun_notes(session)
    if notes:
        out["rerun_note"] = "; ".join(notes) + "."
    return out


def inferred_profiles(session: SearchSession) -> pd.DataFrame:
    """The accepted hidden variables' profiles as the Hidden page's download gives them: one row per
    instance (``instance``: the file's label, or 1..M), one column per hidden variable, each the
    posterior mean in SDs of H under the current network, the scale of the regulator report's
    loadings and of the export's ``hidden`` profiles and edge weights (:mod:`engine.hidden.scale`)."""
    dataset, names = session.dataset, session.variable_names()
    sds = session.current_fit().sds
    values = session.values()
    accepted = session.hidden_names()  # once: a set of every name per call, not per variable (O(N) not O(N^2))
    hidden = [n for n in names if n in accepted]
    out = pd.DataFrame({h: values[:, names.index(h)] / sds[h] for h in hidden})
    labels = list(dataset.instance_labels) if dataset.instance_labels else list(range(1, dataset.n_samples + 1))
    out.insert(0, "instance", labels)
    return out
