"""The warning box of the Home and Search pages when the data look the wrong way round.

The evidence comes from :func:`engine.io.orientation_warning` (labels, not shape alone: a
correctly oriented wide table gets no box). The box's "Transpose" button turns the data round as
an undoable data edit (:func:`explorer.actions.transpose_data`), with the sidebar's regulator list
applied to the turned data; while that edit is the last action, an "Undo transpose"
button restores the data as loaded.
"""

from __future__ import annotations

import streamlit as st

from engine.exceptions import IdealParentError
from engine.io import orientation_warning
from explorer import actions, lab_options, state
from explorer.missing_box import em_progress

__all__ = ["orientation_box"]


def orientation_box(prefix: str) -> None:
    """Draw the box (nothing when the data show no sign of being transposed); widget keys start
    with ``prefix``."""
    session = state.session()
    last = session.undo_stack[-1] if session.undo_stack else None
    if isinstance(last, actions.TransposeData):
        row = st.container(horizontal=True, vertical_alignment="center")
        row.info(
            f"Transposed: the data are now {session.dataset.n_samples} instances x {session.dataset.n_vars} "
            "variables, with a new search on them.",
            icon=":material/swap_horiz:",
        )
        if row.button("Undo transpose", key=f"{prefix}_undo_transpose"):
            session.undo()
            state.put(state.REGULATOR_NOTE, None)  # it spoke of the turned data
            st.rerun()
        return
    warning = state.memo("orientation_warning", session.data_version, lambda: orientation_warning(session.dataset))
    if warning is None:
        return
    with st.container(border=True):
        st.warning(
            f"**These data look the wrong way round.** {warning.reason[0].upper()}{warning.reason[1:]}, so the "
            f"{warning.n_rows:,} rows are probably the variables (e.g. genes) and the {warning.n_cols:,} columns "
            f"the instances (conditions). As loaded, the search learns a network over the {warning.n_cols:,} "
            "columns. Transpose turns the data round (Undo takes it back).",
            icon=":material/warning:",
        )
        if st.button("Transpose", key=f"{prefix}_transpose", type="primary"):
            try:
                listed = lab_options.regulators_from_widgets()  # gene ids: rows until the data are turned
            except IdealParentError:
                listed = None
            try:
                with st.spinner(f"Turning the data round and preparing a search over {warning.n_rows:,} variables…"):
                    actions.transpose_data(session, progress=em_progress(), regulators=listed)
            except IdealParentError as exc:
                st.error(f"Not transposed: {exc}")
                return
            lab_options.say_regulators_turned(listed)
            st.rerun()
