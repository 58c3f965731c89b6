"""Column settings of the Hidden page's proposals table (widths in px and help texts).

Every column, C1 and C2 and the leverage included, fits the page at 1280 px; a long member list is
cut at the column's edge (all are listed under "Proposal #k").
"""

from __future__ import annotations

import streamlit as st

__all__ = ["PROPOSAL_WIDTHS", "proposal_columns"]

#: column widths (px) of the proposals table
PROPOSAL_WIDTHS = {
    "rank": st.column_config.NumberColumn("rank", width=45),
    "members": st.column_config.TextColumn(
        "members", width=155, help="All the members are listed under the proposal below."
    ),
    "size": st.column_config.NumberColumn("size", width=45),
    "source": st.column_config.TextColumn("source", width=70),
    "edges replaced": st.column_config.NumberColumn(
        "replaced", width=65, help="Edges among the members that the hidden variable replaces."
    ),
    "C1 bound": st.column_config.NumberColumn("C1 bound", width=70),
    "C2 bound": st.column_config.NumberColumn("C2 bound", width=70),
    "closest existing variable": st.column_config.TextColumn(
        "closest variable", width=120, help="The existing variable closest to the shared profile z*."
    ),
}


def proposal_columns(score_label: str) -> dict:
    """The ``column_config`` of the proposals table; ``score_label`` names the search's score (BIC, EBIC)."""
    return {
        **PROPOSAL_WIDTHS,
        f"estimated Δ{score_label}": st.column_config.NumberColumn(width=100),
        "status": st.column_config.TextColumn(
            "status",
            width=75,
            help="new: no existing variable carries the cluster's shared profile z*. covered by X: "
            "variable X (outside the cluster, or a member) correlates with z* so strongly that it "
            "already plays the role of the hidden parent. one odd sample?: z* draws most of its "
            "energy from the named condition(s); such proposals are listed last.",
        ),
        "leverage": st.column_config.NumberColumn(
            "leverage",
            width=70,
            help="The largest share of z*'s energy (sum of squares about its mean) in one instance. "
            "Flagged above 0.5, or when two instances hold more than 0.8.",
        ),
    }
