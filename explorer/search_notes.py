"""The Search page's counter captions (kept here: the page is at the module size limit).

Before the first move the counters are not zero: choosing the first move already ranks every
candidate parent of every family by the cheap C1/C2 estimates and fits the best ``k`` per family
exactly (:meth:`engine.search.Stepper.refresh`); the greedy method fits every candidate. A newcomer
sees "Moves 0" beside non-zero counts, so the page says why in one line.
"""

from __future__ import annotations

import streamlit as st

from explorer import text

__all__ = ["convergence_progress", "first_move_caption", "first_move_note", "log_caption"]


def log_caption(stepper) -> str:
    """The line above a move log: moves, exact evaluations, ranked candidates and search time."""
    return (
        f"Moves: {stepper.n_iter} · exact evaluations: {stepper.n_exact:,} · "
        f"ranked candidates: {stepper.n_ranked:,} · search time {text.duration(stepper.elapsed_s)}"
    )


def first_move_note(stepper) -> str | None:
    """Why the counters are not zero before any move (None after a move, or when nothing was counted)."""
    if stepper.n_iter or stepper.elapsed_s > 0 or not (stepper.n_exact or stepper.n_ranked):
        return None  # a move made (and perhaps undone since): the counters' tooltips say what they keep
    removals = ", and each current edge's removal" if stepper.edges() else ""
    if stepper.n_ranked:
        how = (
            f"ranked {stepper.n_ranked:,} candidate moves by the cheap C1/C2 estimates and fitted only the "
            f"best {stepper.k} per family exactly{removals} ({stepper.n_exact:,} exact evaluations)"
        )
    else:  # greedy: no ranking, every candidate fitted
        how = f"fitted every candidate move exactly ({stepper.n_exact:,} exact evaluations)"
    return f"No move yet, but the search has already chosen the first one: it {how}."


def first_move_caption(stepper) -> None:
    """Show :func:`first_move_note` as a caption when there is one."""
    note = first_move_note(stepper)
    if note:
        st.caption(note)


def convergence_progress(done: int, log: list[dict], score_label: str) -> tuple[float, str]:
    """The progress bar's share and line while a run goes to convergence, whose length is not known
    in advance: the share of the first move's gain used up (below 1 while it runs), and the last
    gain under the name of the score in force (``score_label``: BIC, EBIC...)."""
    if not log:
        return 0.0, "Running to convergence..."
    first, last = log[0]["exact ΔBIC"], log[-1]["exact ΔBIC"]  # the log's key for the score change
    frac = min(0.99, max(0.0, 1.0 - last / first)) if first and first > 0 else 0.0
    said = (
        f"Running to convergence: {done} move(s) so far, last Δ{score_label} {last:.2f} "
        "(bar: share of the first gain used up)"
    )
    return frac, said
