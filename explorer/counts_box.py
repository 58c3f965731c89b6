"""The sidebar's offer when the data look like raw sequencing counts.

A raw RNA-seq count matrix searched as it is lets each sample's sequencing depth pass for a regulator
(:mod:`engine.io.counts`). The evidence comes from :func:`engine.io.counts.counts_evidence` on the data as
loaded; the "Use log2 CPM" button puts them in log2 counts per million (:func:`engine.io.counts.log_cpm`,
never re-implemented here) as an undoable data edit with a new search (:func:`explorer.actions.edit_data`,
as "Name genes by" and "Leave out" do). Nothing is said while the data look the wrong way round: the row
totals are library sizes only once the samples are the rows (the Transpose box comes first). Keys start
with ``ip_counts_``. (A second box on the Search page, above the search's panel, was taken out in session
29: with it a session reconnected during a run showed a blank page, tests/app/test_browser_lost_session.py.)
"""

from __future__ import annotations

from dataclasses import dataclass

import streamlit as st

from engine.io import orientation_warning
from engine.io.counts import CountsEvidence, counts_evidence, is_log_cpm, log_cpm
from explorer import state
from explorer.actions import DataState, edit_data
from explorer.long_action import run_data_edit
from explorer.session import SearchSession

__all__ = ["UseLogCpm", "use_log_cpm", "evidence", "sidebar_offer", "BUTTON"]

#: the button's label
BUTTON = "Use log2 CPM"


@dataclass(frozen=True)
class UseLogCpm:
    """The counts put in log2 counts per million (a data edit); keeps the data and search from before."""

    previous: DataState

    def undo(self, session: SearchSession) -> str:
        session.set_data(self.previous)
        return "The data are the raw counts again (not log2 CPM); the search is the one from before."


def use_log_cpm(session: SearchSession, progress=None) -> str:
    """The session's data as loaded in log2 CPM (:func:`engine.io.counts.log_cpm`), with a new search on
    them (the same settings, regulator list, orientation and fill); the edit goes on the undo stack. Raises
    :class:`~engine.exceptions.IdealParentError` when the engine refuses (nothing changes)."""
    data = log_cpm(session.prepared.loaded)
    edited = edit_data(session, data, session.regulators, UseLogCpm, progress)
    d = edited.dataset
    return (
        f"In log2 counts per million: {d.n_samples} instances x {d.n_vars} variables, each count divided by its "
        "sample's library size, with a new search on them. Undo (Search page) takes it back."
    )


def evidence(session: SearchSession) -> CountsEvidence | None:
    """Why the data as loaded look like raw counts, or None (not counts, already in log2 CPM, or the
    table looks the wrong way round so its row totals are not library sizes); computed once per data set."""
    loaded = session.prepared.loaded

    def build() -> CountsEvidence | None:
        turned = orientation_warning(loaded) is not None and not session.transposed
        return None if turned else counts_evidence(loaded)

    return state.memo("counts_evidence", (session.data_version, session.transposed), build)


_HELP = (
    "Each count divided by its sample's total (library size) x 1e6, plus 1, then log2 (edgeR's log-CPM): the "
    "sequencing depth leaves the data and the very high genes no longer dominate. A new search starts; Undo "
    "takes it back. The file is not changed."
)


def sidebar_offer() -> None:
    """Under the sidebar's data summary: that the data are in log2 CPM, or a short warning and the button."""
    session = state.session()
    if session is None:
        return
    if is_log_cpm(session.prepared.loaded):
        st.caption("In log2 counts per million (each sample by its library size); Undo on the Search page goes back.")
        return
    seen = evidence(session)
    if seen is None:
        return
    st.warning(
        f"Raw counts? Whole numbers, library sizes {seen.libraries}: sequencing depth could pass for a regulator "
        "(the button below puts the counts in log2 CPM).",
        icon="⚠️",
    )
    if st.button(BUTTON, key="ip_counts_sidebar", help=_HELP):
        run_data_edit(
            "Putting the counts in log2 CPM and preparing a new search…",
            "Not transformed",
            lambda: use_log_cpm(session),
            clear_error=True,
        )
