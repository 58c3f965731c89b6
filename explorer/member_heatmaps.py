"""The Hidden page's correlation heatmaps of a proposal's members: their values and their ideal profiles.

The ideal profiles are computed without the edges inside the set (:func:`engine.hidden.report.cluster_view`).
When no member has a parent outside the set, each ideal profile is the member's centred values over
their scale, so the two matrices are the same: two identical heatmaps side by side read as a bug (QA
walk on the Sachs sample), so one is drawn, titled and explained as both.
"""

from __future__ import annotations

import numpy as np
import streamlit as st

from explorer.hidden_plots import correlation_heatmap

__all__ = ["member_correlations"]

SAME_NOTE = (
    "No member has a parent outside the set, so with the edges among them removed their ideal profiles are "
    "their values: one matrix for both."
)


def member_correlations(view) -> None:
    """Draw the members' value and ideal-profile correlations (one heatmap when they are the same)."""
    if np.allclose(view.member_corr, view.ideal_corr, atol=5e-3):
        left, _ = st.columns(2)
        with left:
            st.plotly_chart(
                correlation_heatmap(view.names, view.member_corr, "Members' values = ideal profiles"),
                key="ip_hidden_corr_values",
            )
            st.caption(SAME_NOTE)
        return
    left, right = st.columns(2)
    with left:
        st.plotly_chart(
            correlation_heatmap(view.names, view.member_corr, "Members' values"), key="ip_hidden_corr_values"
        )
    with right:
        st.plotly_chart(
            correlation_heatmap(view.names, view.ideal_corr, "Members' ideal profiles"), key="ip_hidden_corr_ideal"
        )
