"""The Search page's counter captions (kept here: the page is at the module size limit).

Before the first move the counters are not zero: choosing the first move already ranks every
candidate parent of every family by the cheap C1/C2 estimates and fits the best ``k`` per family
exactly (:meth:`engine.search.Stepper.refresh`); the greedy method fits every candidate. A newcomer
sees "Moves 0" beside non-zero counts, so the page says why in one line.

After Undo the counters describe the network shown (:attr:`explorer.track.SearchTrack.shown_work`:
the work of the moves taken back is left out), and one line says what those moves had cost and
what the search has done in all; before, Undo left "Moves 2" beside the counts of move 3, which a
teacher comparing the two methods read as the work that reached the network on the screen.
"""

from __future__ import annotations

import streamlit as st

from explorer import text
from explorer.track import SearchTrack, Work

__all__ = ["convergence_progress", "first_move_caption", "first_move_note", "log_caption", "undone_note"]


def log_caption(track: SearchTrack) -> str:
    """The line above a move log: moves, exact evaluations, ranked candidates and search time of the
    network shown (the moves Undo took back left out)."""
    work = track.shown_work
    return (
        f"Moves: {track.stepper.n_iter} · exact evaluations: {work.n_exact:,} · "
        f"ranked candidates: {work.n_ranked:,} · search time {text.duration(work.elapsed_s)}"
    )


def undone_note(track: SearchTrack) -> str | None:
    """What the moves Undo took back had cost, and the search's totals (None when none was undone)."""
    if not track.n_undone:
        return None
    gone, total = track.undone, Work.of(track.stepper)
    return (
        f"The counters describe the network shown. Undo took back {track.n_undone} move(s), whose "
        f"{gone.n_exact:,} exact evaluations, {gone.n_ranked:,} ranked candidates and "
        f"{text.duration(gone.elapsed_s)} are left out; their scores stay cached, so stepping forward again "
        f"costs little. Work done in all: {total.n_exact:,} exact evaluations, {total.n_ranked:,} ranked "
        f"candidates, {text.duration(total.elapsed_s)}."
    )


def first_move_note(stepper, work: Work | None = None) -> str | None:
    """Why the counters (``work``, default the stepper's totals) are not zero before any move (None
    after a move, or when nothing was counted)."""
    work = Work.of(stepper) if work is None else work
    if stepper.n_iter or work.elapsed_s > 0 or not (work.n_exact or work.n_ranked):
        return None
    removals = ", and each current edge's removal" if stepper.edges() else ""
    if work.n_ranked:
        how = (
            f"ranked {work.n_ranked:,} candidate moves by the cheap C1/C2 estimates and fitted only the "
            f"best {stepper.k} per family exactly{removals} ({work.n_exact:,} exact evaluations)"
        )
    else:  # greedy: no ranking, every candidate fitted
        how = f"fitted every candidate move exactly ({work.n_exact:,} exact evaluations)"
    return f"No move yet, but the search has already chosen the first one: it {how}."


def first_move_caption(track: SearchTrack) -> None:
    """Show :func:`first_move_note` for the network shown as a caption when there is one."""
    note = first_move_note(track.stepper, track.shown_work)
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
