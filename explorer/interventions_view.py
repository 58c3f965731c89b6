"""Truth page sections: every reference edge by status, and the rows each family was scored on.

With interventional data each family is scored only on the rows where its child was not set by an
experiment (Cooper & Yoo 1999; :mod:`engine.interventions`): the table says how many rows that is
and which conditions were left out for it.
"""

from __future__ import annotations

import pandas as pd
import streamlit as st

from engine.data import Dataset
from engine.metrics import compare_edges

__all__ = ["edge_table", "family_rows_table", "render"]

#: the order and wording of the statuses in the edge table
STATUS_LABELS = {"correct": "found", "reversed": "reversed", "missing": "missing", "extra": "extra"}


def edge_table(truth: list[tuple[str, str]], learned: list[tuple[str, str]]) -> pd.DataFrame:
    """One row per reference or learned edge: ``parent``, ``child`` (as in the reference network
    for reversed and missing edges, as learned for extra ones) and ``status``."""
    cmp = compare_edges(learned, truth)
    rows = [(p, c, "found") for p, c in cmp.correct]
    rows += [(c, p, "reversed") for p, c in cmp.reversed]  # written the reference network's way
    rows += [(p, c, "missing") for p, c in cmp.missing]
    rows += [(p, c, "extra") for p, c in cmp.extra]
    return pd.DataFrame(rows, columns=["parent", "child", "status"])


def family_rows_table(dataset: Dataset) -> pd.DataFrame | None:
    """Per variable: the rows its family was scored on and the conditions left out (None when the
    data carry no experimental design)."""
    design = dataset.interventions
    if design is None:
        return None
    rows = design.family_rows
    return pd.DataFrame(
        {
            "variable": list(dataset.names),
            "rows scored": [int(r) for r in rows],
            "of": design.n_samples,
            "conditions left out": [", ".join(design.left_out(i)) or "-" for i in range(dataset.n_vars)],
        }
    )


def render(dataset: Dataset, truth: list[tuple[str, str]] | None, learned: list[tuple[str, str]]) -> None:
    """The edge-by-edge comparison (when a reference is known) and the per-family rows."""
    if truth is not None:
        with st.expander("Every edge by status (found, reversed, missing, extra)"):
            st.dataframe(edge_table(truth, learned), hide_index=True, width="stretch")
    table = family_rows_table(dataset)
    if table is None:
        return
    design = dataset.interventions
    st.subheader("Rows each family was scored on")
    targets = "; ".join(f"{c} → {t}" for c, t in design.targets) or "none (all conditions observational)"
    st.caption(
        f"Condition column {design.column!r}: {len(design.condition_names)} conditions, {design.n_samples} rows. "
        f"Targets: {targets}. A family leaves out the rows where an experiment set its child (Cooper & Yoo "
        "1999); its BIC penalty uses its own row count."
        + (
            " Every family has one intercept per condition."
            if design.intercepts
            else " A reagent that shifts proteins it does not set (a stimulation, say) can show up as extra "
            "edges: 'One intercept per condition' in the sidebar's Experiments box lets each family's "
            "level move between conditions instead."
        )
    )
    st.dataframe(table, hide_index=True, width="stretch")
