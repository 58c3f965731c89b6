"""Sidebar controls for interventional data: the condition column and the targets table.

The design is part of the data (``engine.interventions``): choosing a condition column, editing the
targets table (``st.data_editor``: one row per variable an experiment set; conditions not listed
are observational) or ticking the per-condition intercepts reloads the data with it, so every
family is then scored only on the rows where its child was not set (Cooper & Yoo 1999).
"""

from __future__ import annotations

from collections.abc import Callable

import pandas as pd
import streamlit as st

__all__ = ["controls", "NONE", "W_CONDITION", "W_TARGETS", "W_INTERCEPTS"]

#: the condition-column choice for observational data
NONE = "(none: all rows observational)"
W_CONDITION = "w_condition_column"
W_TARGETS = "w_targets_table"
W_INTERCEPTS = "w_condition_intercepts"
#: a column with more distinct values than this is not offered as a condition column
MAX_CONDITIONS = 200


def _condition_columns(frame: pd.DataFrame) -> list[str]:
    """Columns that can name conditions: text columns, or any column with few distinct values."""
    out: list[str] = []
    names = [str(c).strip() for c in frame.columns]
    for i, col in enumerate(names):
        if not col or names.count(col) > 1:  # unnamed or repeated: the loader names the problem
            continue
        values = frame.iloc[:, i]
        n = values.nunique(dropna=True)
        numeric = pd.to_numeric(values, errors="coerce").notna().mean() > 0.9
        if 1 < n <= MAX_CONDITIONS and (not numeric or n <= 20):
            out.append(col)
    return out


def controls(
    scope: str, frame_loader: Callable[[], pd.DataFrame], default: tuple[str, tuple] | None
) -> tuple[str, tuple[tuple[str, str], ...], bool] | None:
    """The design chosen in the sidebar, as ``(column, targets, intercepts)``, or None (observational).

    ``scope`` names the data source (the widgets start from ``default``, the source's own column and
    targets, whenever it changes); ``frame_loader()`` gives the table as read, for its columns.
    """
    with st.expander("Experiments (interventions)", expanded=default is not None):
        if st.session_state.get("_design_scope") != scope:
            st.session_state["_design_scope"] = scope
            st.session_state[W_CONDITION] = default[0] if default else NONE
            st.session_state["_targets_default"] = list(default[1]) if default else []
            st.session_state.pop(W_TARGETS, None)
        try:
            frame = frame_loader()
        except Exception:  # the loader's own error is shown by the data loading itself
            return None
        options = [NONE] + _condition_columns(frame)
        if st.session_state.get(W_CONDITION) not in options:
            st.session_state[W_CONDITION] = NONE
        column = st.selectbox(
            "Condition column",
            options,
            key=W_CONDITION,
            help="The column naming each row's experimental condition; it is then not a variable.",
        )
        if column == NONE:
            st.caption("Pick the column that names each row's condition to learn from experiments.")
            return None
        position = [str(c).strip() for c in frame.columns].index(column)
        conditions = sorted({str(c).strip() for c in frame.iloc[:, position].dropna()})
        variables = [str(c).strip() for c in frame.columns if str(c).strip() != column]
        start = pd.DataFrame(st.session_state["_targets_default"], columns=["condition", "target"])
        edited = st.data_editor(
            start,
            num_rows="dynamic",
            key=W_TARGETS,
            hide_index=True,
            width="stretch",
            column_config={
                # pixel widths: both columns must fit the sidebar beside the row handles
                "condition": st.column_config.SelectboxColumn("condition", options=conditions, required=True, width=98),
                "target": st.column_config.SelectboxColumn("target", options=variables, required=True, width=60),
            },
        )
        st.caption(
            f"{len(conditions)} conditions. One row per variable an experiment set; conditions not "
            "listed are observational. A family is scored only on the rows where its child was not set."
        )
        intercepts = st.checkbox(
            "One intercept per condition",
            key=W_INTERCEPTS,
            help="Every family gets its own intercept in each condition (for reagents that shift levels "
            "without setting a measured variable). Fewer false edges on Sachs; see benchmarks/RESULTS.md.",
        )
    pairs = tuple(
        (str(c).strip(), str(t).strip())
        for c, t in edited[["condition", "target"]].itertuples(index=False)
        if pd.notna(c) and pd.notna(t) and str(c).strip() and str(t).strip()
    )
    return str(column), pairs, bool(intercepts)
