"""Display text of the explorer: how settings, moves and runs are put in words on the pages.

Pure functions (no Streamlit), so the wording is tested without an app.
"""

from __future__ import annotations

import math
import time
from typing import TYPE_CHECKING

from engine.io.regulators import resolve_regulators
from engine.search import Move, SearchSettings

if TYPE_CHECKING:
    from engine.data import Dataset
    from explorer.session import SearchSession

__all__ = [
    "other_method",
    "method_label",
    "cpd_label",
    "settings_summary",
    "regulators_summary",
    "design_summary",
    "move_record",
    "run_message",
    "duration",
    "score_help",
]


def duration(seconds: float) -> str:
    """A time span in words a person reads at a glance: "0.4 ms", "36 ms", "1.2 s", "2 min 5 s"
    (a step of a small network takes milliseconds, which "0.00 s" hid)."""
    if not math.isfinite(seconds) or seconds < 0:
        return "–"
    if seconds < 0.001:
        return f"{seconds * 1000:.1f} ms"
    if seconds < 1:
        return f"{seconds * 1000:.0f} ms"
    if seconds < 60:
        return f"{seconds:.1f} s"
    minutes, rest = divmod(round(seconds), 60)
    return f"{minutes} min {rest} s"


def score_help(name: str, reason: str) -> str:
    """The score metric's help: what the number is, which way is better and what a difference means
    (newcomer walk, session 19: "EBIC (nats) -25,543.9" said neither). BIC is the paper's score (JMLR
    2007 section 2); EBIC adds the extended BIC's penalty for the number of possible parents
    (Chen & Chen 2008; docs/method.md)."""
    what = {
        "bic": "BIC: the log-likelihood of the data under the network minus a penalty for each parameter",
        "ebic": "EBIC, the extended BIC: the log-likelihood of the data under the network minus a penalty "
        "for each parameter and for the number of possible parents (so that wide data do not gain spurious ones)",
    }.get(name.lower(), name.upper())
    return (
        f"The network score the search maximizes, {what}; {reason}. Higher (closer to 0) is better. "
        "Its size depends on the data; compare it only between networks on the same data: a move that "
        "raises it by d nats (natural-log units) makes the data e^d times more likely, net of the penalty."
    )


def other_method(method: str) -> str:
    """The method the comparison twin uses."""
    return "greedy" if method == "ideal" else "ideal"


def method_label(method: str) -> str:
    return {"ideal": "Ideal parent", "greedy": "Greedy"}.get(method, method)


def cpd_label(settings: SearchSettings) -> str:
    """The CPD as the pages name it, with its options, e.g. 'sigmoid (k1/k2 correction off)'."""
    options = [f"{s.caption} {'on' if getattr(settings, s.name) else 'off'}" for s in settings.cpd_type.settings]
    return f"{settings.cpd} ({', '.join(options)})" if options else settings.cpd


def listed_regulators(regulators: list[str] | None, covariates=()) -> list[str]:
    """The names the user listed: the regulators in force (once each) without the data's
    ``covariates``, which are added to the list as parents but were not listed."""
    added = set(covariates)
    return [r for r in dict.fromkeys(regulators or ()) if r not in added]


def regulators_summary(regulators: list[str] | None, names, covariates=()) -> str:
    """The candidate-regulator list in force, with counts, e.g. "regulators: 115 of 143 listed
    names found" ("" without a list: every variable may be a parent). The data's ``covariates``,
    added to the list as parents, are not names the user listed and are not counted."""
    listed = listed_regulators(regulators, covariates)
    if not listed:
        return ""
    found = len(listed) - len(resolve_regulators(listed, list(names))[2])  # as the engine matches them
    return f"regulators: {found} of {len(listed)} listed name{'s' if len(listed) != 1 else ''} found"


def settings_summary(settings: SearchSettings, regulators: list[str] | None = None, names=(), covariates=()) -> str:
    """Every search setting in force, in words (what the sidebar shows may not be applied yet),
    with the candidate-regulator list and its counts when there is one (``names``: the data's
    variables; ``covariates``: its covariate columns, parents added to the list, not counted)."""
    mp = settings.max_parents
    parts = [f"max parents {mp if mp else 'unlimited'}", f"CPD {cpd_label(settings)}"]
    if settings.method == "ideal":
        queue = "shared" if settings.queue == "shared" else "per operator"
        head = f"Ideal parent, K={settings.k}, measure {settings.measure.upper()}, {queue} queue"
    else:
        head = "Greedy"
    regs = regulators_summary(regulators, names, covariates)
    return ", ".join([head, *parts]) + (f"; {regs}" if regs else "")


def design_summary(dataset: Dataset) -> str:
    """The experimental design the search uses, in words ("" for observational data), e.g.
    "experiments: 9 conditions (column 'condition'), 7 targets, one intercept per condition"."""
    design = dataset.interventions
    if design is None:
        return ""
    n_cond, n_targets = len(design.condition_names), len(design.targets)
    intercepts = "one intercept per condition" if design.intercepts else "no per-condition intercepts"
    return (
        f"experiments: {n_cond} conditions (column {design.column!r}), {n_targets} target(s), each family "
        f"scored without the rows that set its child; {intercepts}"
    )


def move_record(step: int, move: Move, names: list[str], n_exact: int) -> dict:
    """One row of the move log."""

    def num(x: float):
        return None if x is None or not math.isfinite(x) else float(x)

    return {
        "step": step,
        "operator": move.op.name.capitalize(),
        "edge": move.edge_label(names),
        "C1": num(move.c1),
        "C2": num(move.c2),
        "exact gain": num(move.delta_loglik),
        "exact ΔBIC": num(move.delta_bic),
        "rank": int(move.rank) if move.rank else None,
        "exact evaluations": int(n_exact),
        "key": (int(move.op), move.parent, move.child, move.removed),
    }


def run_message(session: SearchSession) -> str:
    """How a finished run ended, for the page: stopped, converged or the requested steps."""
    run = session.run
    n = session.stepper.n_iter - run.start_iter
    secs = time.perf_counter() - run.start_time
    if run.loop.status == -2:
        return f"Stopped by you after {n} move(s) ({duration(secs)})."
    if session.all_converged():
        return (  # wall clock: the page's live updates included, unlike the 'Search time' metric
            f"Converged: no legal move improves the score ({n} move(s) in this run, {duration(secs)} with the "
            "page's live updates)."
        )
    early = [w for w, track in session.tracks() if track.converged]
    note = ""
    if early:
        who = " and ".join("the main search" if w == "main" else "the comparison search" for w in early)
        note = f" ({who} converged on the way)"
    return f"Ran the requested steps: {n} move(s) in {duration(secs)}{note}."
