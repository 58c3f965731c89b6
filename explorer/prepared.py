"""The data a session searches: the data set as loaded, or, when it has missing cells, the same
data completed by the engine's structural EM or, above :data:`explorer.fill_choice.QUICK_FILL_ABOVE`
variables, by the quick fill (:func:`engine.impute.quick_fill`; the person can switch,
:func:`explorer.fill_choice.switch_fill`).

Data that look the wrong way round (:func:`engine.io.orientation_warning`: the rows named like genes)
are not completed on loading: a structural EM over the wrong variables (the conditions) would take
seconds and fill the cells from a network the Transpose then throws away (newcomer walk, session 19).
Their cells are held at their variables' means (``pending``) until the orientation is settled: a
Transpose prepares the turned data, or the person keeps this orientation (``settled=True``).

A single stepper needs complete data (:meth:`engine.learn.IdealParentSearch.make_stepper`); the
CLI and ``fit`` learn with missing cells by structural EM, whose every M-step runs a whole search.
The explorer steps one move at a time, so it searches data completed once, when they are loaded:
:func:`engine.learn_em.complete_missing` fills each missing cell with its posterior mean under a
linear-Gaussian network learned by structural EM (JMLR 2007 section 6), for at most
:data:`EM_ITERATIONS` iterations. Every page then works on the completed data, the banner says so
(:func:`banner`), and the data as loaded are kept unchanged beside them (a transpose turns those
round and completes them again). Nothing here imports Streamlit.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import nullcontext
from dataclasses import dataclass, replace

import numpy as np

from engine.cpd import get_cpd
from engine.data import Dataset, mean_filled
from engine.hidden.em_progress import reporting
from engine.impute import FILL_METHODS, QuickFill, quick_fill
from engine.io import filled_cells, missing_summary, orientation_warning
from engine.learn_em import Completion, complete_missing
from engine.listing import first_few
from engine.search import SearchSettings
from explorer import fill_choice

__all__ = ["EM_ITERATIONS", "SHOWN_CELLS", "PreparedData", "prepare", "banner"]

#: structural EM iterations run to complete a loaded data set: one M-step search and one E-step.
#: On a 600-gene x 40-condition lab file the filled cells' RMS error (standardized units) is 1.07
#: for column means, 0.833 after 1 iteration, 0.821 after 2 and 0.824 at convergence (5), for 1/4
#: of the time (benchmarks/RESULTS.md, "Lab-like file in the explorer")
EM_ITERATIONS = 1
#: filled cells named in the banner (all of them are in the table under it and in the export)
SHOWN_CELLS = 6


@dataclass(frozen=True)
class PreparedData:
    """The data as loaded and the data searched (the same object when nothing is missing)."""

    loaded: Dataset
    searched: Dataset
    #: how the cells were filled: structural EM (a Completion) or the quick fill (a QuickFill)
    completion: Completion | QuickFill | None
    #: how many cells are missing and where (None when none is)
    missing: str | None

    @property
    def pending(self) -> bool:
        """Cells are missing and not completed: held at their variables' means until the orientation is
        settled (see the module docstring; the only way :func:`prepare` leaves missing cells uncompleted)."""
        return self.missing is not None and self.completion is None

    @property
    def missing_count(self) -> str | None:
        """How many cells are missing, ``"4 missing cell(s)"``, without where (None when none is)."""
        return None if self.missing is None else _count(self.missing)

    def cells(self) -> list[dict]:
        """Each filled cell, ``{"variable", "instance", "value"}`` on the file's scale
        (:func:`engine.io.filled_cells`; empty when nothing was missing or the fill is pending)."""
        return filled_cells(self.loaded, self.searched.values) if self.completion is not None else []


def _count(summary: str) -> str:
    """The count of :func:`engine.io.missing_summary`'s text, before where the cells are."""
    return summary.split(" (")[0]


def prepare(
    dataset: Dataset,
    settings: SearchSettings,
    regulators: list[str] | None = None,
    progress: Callable[[int, int, str], None] | None = None,
    settled: bool = False,
    fill: str | None = None,
) -> PreparedData:
    """``dataset`` ready to search: completed by structural EM or the quick fill when cells are
    missing (``fill``: ``"em"`` or ``"quick"``, default :func:`explorer.fill_choice.default_fill`).

    ``progress(iteration, of, text)`` is called before and after each EM iteration, and every
    second in between with where the search is (for a progress bar). Raises
    :class:`~engine.exceptions.IdealParentError` when the engine refuses the data. Data that look
    the wrong way round are held at their variables' means (``pending``) unless ``settled``."""
    if not dataset.has_missing:
        return PreparedData(dataset, dataset, None, None)
    summary = missing_summary(dataset)
    if not settled and orientation_warning(dataset) is not None:
        values = mean_filled(dataset)  # each cell at its variable's mean, as structural EM starts
        held = replace(dataset, values=values, missing=np.zeros(values.shape, dtype=bool))
        return PreparedData(dataset, held, None, summary)  # pending: missing, not completed
    if (fill or fill_choice.default_fill(dataset)) == "quick":  # engine.impute: a fraction of a second
        if progress is not None:
            progress(0, 1, f"filling {_count(summary)} from the variables most correlated with each")
        quick = quick_fill(dataset, settings)
        return PreparedData(dataset, quick.dataset, quick, summary)

    def each(rec) -> None:
        if progress is not None:
            progress(rec.iteration, EM_ITERATIONS, f"structural EM iteration {rec.iteration}: {rec.n_edges} edges")

    opening = (
        f"filling {_count(summary)} by structural EM: a whole structure search over "
        f"{dataset.n_vars:,} variables, then the posterior of every missing cell"
    )
    if progress is not None:
        progress(0, EM_ITERATIONS, opening)
    # and where the search is, every second (engine.hidden.em_progress)
    said = (lambda status: progress(0, EM_ITERATIONS, f"{opening}; {status.text}")) if progress else None
    with reporting(said) if said is not None else nullcontext():
        completion = complete_missing(
            dataset,
            settings,  # the EM's families are linear-Gaussian whatever the CPD; it keeps positive data positive
            max_iter=EM_ITERATIONS,
            regulators=regulators,
            callback=each,
        )
    return PreparedData(dataset, completion.dataset, completion, summary)


def banner(prepared: PreparedData, cpd: str = "linear", command: str | None = None) -> str | None:
    """What the pages say about missing cells (Markdown; None when none is missing); ``command`` is
    the CLI command that reads the file as the app did (default: a generic one naming ``FILE``)."""
    c = prepared.completion
    if isinstance(c, QuickFill):
        return _quick_banner(prepared, c, command)
    if prepared.pending:
        return (
            f"**This file has {prepared.missing_count}.** They are filled once the orientation is settled (by "
            f"structural EM, or above {fill_choice.QUICK_FILL_ABOVE} variables by the quick fill from the most "
            "correlated ones; Transpose in the box above, or keep this orientation below): filling them "
            "now would learn a network over what are probably the conditions. Until then each is its column's mean."
        )
    if c is None:
        return None
    ran = "converged" if c.converged else f"{c.n_iter} iteration{'s' if c.n_iter > 1 else ''}"
    return _bullets(
        f"**This file has {prepared.missing}.** The search runs on your data with each missing cell "
        f"filled by its posterior mean under a linear-Gaussian network ({c.n_edges} edges) learned by "
        f"structural EM ({ran}; JMLR 2007 section 6), computed {_when(prepared)}.",
        f"**Filled**, on the file's scale: {_shown(prepared)}.",
        _SAME_DATA,
        "**The full structural EM** (the cells re-estimated with the network): learn from the command line (`"
        + (command or "python -m engine learn FILE --number-repeats --skip-unusable")
        + "` reads the file as this app does) or with `IdealParentSearch(...).fit(data)`"
        + ("." if get_cpd(cpd).structural_em else f". (With the {cpd} CPD the fill is still linear-Gaussian.)"),
        f"**The quick fill**, from the variables most correlated with each cell, takes {_other(prepared)}.",
    )


#: what every page does with the filled cells (both banners)
_SAME_DATA = (
    "**Step, Run and every page** use these completed data, an approximation: the filled cells are not "
    "re-estimated as the network changes. The file and the values as loaded are unchanged."
)


def _bullets(lead: str, *items: str) -> str:
    """A banner as Markdown: its lead sentence, then one bullet per point (one paragraph of eight
    sentences was hard to read: newcomer walk, session 25)."""
    return lead + "\n\n" + "\n".join(f"- {item}" for item in items)


def _shown(prepared: PreparedData) -> str:
    """The first filled cells on the file's scale, and "(listed below)" when there are more."""
    cells = prepared.cells()
    shown = first_few(
        [f"{x['variable']} at {x['instance']} = {x['value']:.4g}" for x in cells[:SHOWN_CELLS]],
        SHOWN_CELLS,
        total=len(cells),
    )
    return shown + (" (listed below)" if len(cells) > SHOWN_CELLS else "")


def _when(prepared: PreparedData) -> str:
    """When the cells were filled: after a transpose, or once on loading."""
    if any(n.startswith("transposed") for n in prepared.loaded.notes):
        return "after the transpose, from the file's own cells (never from values filled before it)"
    return "once when the data were loaded (a Transpose fills them again from the file's own cells)"


def _other(prepared: PreparedData) -> str:
    """About how long the fill that did not run would take (:mod:`explorer.fill_choice`)."""
    if isinstance(prepared.completion, QuickFill):
        return fill_choice.rough(fill_choice.em_seconds(prepared.loaded))
    return "a second or two (the button below)"


def _quick_banner(prepared: PreparedData, c: QuickFill, command: str | None) -> str:
    """The banner when the quick fill (:func:`engine.impute.quick_fill`) filled the cells."""
    how = FILL_METHODS[c.method].replace("k most", f"{c.k} most")
    chosen = f"; k = {c.k} refilled held-out observed cells best" if c.k_errors else ""
    return _bullets(
        f"**This file has {prepared.missing}.** The search runs on your data with each missing cell "
        f"filled by the quick fill: {how}{chosen}, in {c.seconds:.1f} s, computed {_when(prepared)}.",
        f"**Filled**, on the file's scale: {_shown(prepared)}.",
        _SAME_DATA,
        "**Structural EM** (JMLR 2007 section 6) fills each cell with "
        f"its posterior mean under a network learned from all {prepared.loaded.n_vars:,} variables instead: "
        f"one iteration would take {_other(prepared)} of CPU here, longer on a busy machine (the button below "
        "runs it; Undo comes back).",
        "**The full structural EM** runs from the command line (`"
        + (command or "python -m engine learn FILE --number-repeats --skip-unusable")
        + "` reads the file as this app does).",
    )
