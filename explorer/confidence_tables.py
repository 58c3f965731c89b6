"""The Confidence page's tables: edges by strength, hidden regulators by support, and known gene
sets among the regulators' children, each with a search box (the tables sort by their headers).

Streamlit drawing only; the tables themselves come from :mod:`explorer.confidence_view` and
:mod:`explorer.gene_sets_box`. Keys start with ``ip_conf_``.
"""

from __future__ import annotations

import pandas as pd
import streamlit as st

from explorer import gene_sets_box, state
from explorer.confidence_view import edges_table, regulators_table, search_frame

__all__ = [
    "EDGE_COLUMNS",
    "KEY_EDGE_SEARCH",
    "KEY_EDGE_ABOVE",
    "KEY_REG_SEARCH",
    "edges_section",
    "regulators_section",
    "enrichment_section",
]

KEY_EDGE_SEARCH = "ip_conf_edge_search"
KEY_EDGE_ABOVE = "ip_conf_edge_above"
KEY_REG_SEARCH = "ip_conf_reg_search"

#: the edge table's columns: shares to two decimals (they were shown as "1", "0.54", "0.8889")
EDGE_COLUMNS = {
    "strength": st.column_config.NumberColumn(
        "strength", format="%.2f", help="Share of the replicates with this edge, either way round."
    ),
    "direction": st.column_config.NumberColumn(
        "direction", format="%.2f", help="Share of those replicates where it points from parent to child."
    ),
    "averaged": st.column_config.CheckboxColumn("averaged", help="In the averaged network at the slider's threshold."),
}


def edges_section(result, threshold: float, averaged) -> pd.DataFrame:
    """The edge table (search, only those at the slider's strength, sorting by the headers), with
    ``averaged`` the averaged network at the slider's threshold; returns the whole table."""
    st.subheader("Edges by strength")
    table = state.memo(
        "confidence_edges",
        (id(result), threshold),
        lambda: edges_table(result, threshold, averaged),
    )
    row = st.container(horizontal=True, vertical_alignment="bottom", gap="small")
    query = row.text_input("Search edges", key=KEY_EDGE_SEARCH, placeholder="a gene name…", width=260)
    above = row.checkbox("Only edges at the slider's strength", key=KEY_EDGE_ABOVE)
    shown = search_frame(table, query, ["parent", "child"])
    if above:
        shown = shown[shown["strength"] >= threshold]
    st.caption(f"{len(shown):,} of {len(table):,} pairs; click a column header to sort.")
    st.dataframe(
        shown,
        width="stretch",
        height=min(420, 38 + 35 * max(1, len(shown))),
        key="ip_conf_edges",
        hide_index=True,
        column_config=EDGE_COLUMNS,
    )
    return table


def regulators_section(result, enriched) -> None:
    """Hidden regulators by support, with their best known gene set when gene sets are loaded."""
    st.subheader("Hidden regulators by support")
    known = None if enriched is None else {name: gene_sets_box.top_set(rows) for name, rows in enriched[0].items()}
    regs = regulators_table(result, known)
    if regs.empty:
        st.info("No replicate added a hidden variable.")
        return
    query = st.text_input("Search regulators", key=KEY_REG_SEARCH, placeholder="a regulator or child…", width=260)
    st.dataframe(
        search_frame(regs, query),
        width="stretch",
        hide_index=True,
        key="ip_conf_regulators",
        column_config={"support": st.column_config.NumberColumn("support", format="%.2f")},
    )


def enrichment_section(result, enriched) -> None:
    """Known sets among the hidden regulators' core children and the averaged network's regulators."""
    if enriched is None:
        st.caption("Upload gene sets under 'Gene sets' in the sidebar to compare the regulators with known sets.")
        return
    st.subheader("Known gene sets among the regulators' children")
    st.caption(gene_sets_box.EXPLAIN + " Hidden regulators: their core children; observed ones: the averaged network.")
    frame = gene_sets_box.hidden_frame(enriched[0], "regulator")
    frame.insert(1, "n_children", frame["regulator"].map({r.name: len(r.core) for r in result.regulators or []}))
    frame = pd.concat([frame, gene_sets_box.regulator_frame(enriched[1])], ignore_index=True)
    gene_sets_box.show_table(frame, "ip_conf_enrich", "bootstrap_enrichment.csv", "enrichment")
