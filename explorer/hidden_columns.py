"""Column settings of the Hidden page's proposals table (widths in px and help texts).

Every column, C1 and C2 and the leverage included, fits the page at 1280 px with the sidebar open
(about 818 px for the table): the widths sum to at most :data:`TABLE_WIDTH`. A long member list is cut
at the column's edge (all are listed under "Proposal #k").
"""

from __future__ import annotations

import streamlit as st

__all__ = ["PROPOSAL_WIDTHS", "TABLE_WIDTH", "proposal_columns"]

#: the widest the columns may sum to (px): the table's inner width at 1280 px, sidebar open
TABLE_WIDTH = 812

#: column widths (px) of the proposals table
PROPOSAL_WIDTHS = {
    "rank": st.column_config.NumberColumn("rank", width=45),
    "members": st.column_config.TextColumn(
        "members", width=130, help="All the members are listed under the proposal below."
    ),
    "size": st.column_config.NumberColumn("size", width=45),
    "source": st.column_config.TextColumn("source", width=70),
    "edges replaced": st.column_config.NumberColumn(
        "replaced", width=65, help="Edges among the members that the hidden variable replaces."
    ),
    "C1 bound": st.column_config.NumberColumn("C1", width=60, help="The paper's C1 bound (nats)."),
    "C2 bound": st.column_config.NumberColumn("C2", width=60, help="The paper's C2 bound (nats)."),
    "closest existing variable": st.column_config.TextColumn(
        "closest variable", width=115, help="The existing variable closest to the shared profile z*."
    ),
}


def proposal_columns(score_label: str) -> dict:
    """The ``column_config`` of the proposals table; ``score_label`` names the search's score (BIC, EBIC)."""
    return {
        **PROPOSAL_WIDTHS,
        f"estimated Δ{score_label}": st.column_config.NumberColumn(
            f"est. Δ{score_label}", width=78, help=f"Estimated change of the {score_label} on the observed data."
        ),
        "status": st.column_config.TextColumn(
            "status",
            width=75,
            help="new: no existing variable carries the cluster's shared profile z*. ≈ X: variable X "
            "(outside the cluster, or a member) correlates with z* so strongly that it already plays the "
            "role of the hidden parent. odd: z* draws most of its energy from the named condition(s), "
            "one odd sample rather than a regulator; such proposals are listed last.",
        ),
        "leverage": st.column_config.NumberColumn(
            "leverage",
            width=68,
            help="The largest share of z*'s energy (sum of squares about its mean) in one instance. "
            "Flagged above 0.5, or when two instances hold more than 0.8.",
        ),
    }
