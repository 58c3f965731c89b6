"""Shared look of the explorer's plotly figures: colours, when to draw dots, and the layout.

Used by :mod:`explorer.inspect_plots`, :mod:`explorer.bounds_plots`, :mod:`explorer.teaching_plots`,
:mod:`explorer.hidden_plots` and :mod:`explorer.network_view`, so that one quantity has one colour
on every page.
"""

from __future__ import annotations

import plotly.graph_objects as go
from plotly.colors import qualitative

__all__ = [
    "CANDIDATE_COLOURS",
    "X_COLOUR",
    "PRED_COLOUR",
    "IDEAL_COLOUR",
    "HIDDEN_COLOUR",
    "DOTS_ABOVE",
    "TOOLBAR_PX",
    "line_mode",
    "apply_layout",
]

#: one colour per candidate parent (the inspector's top candidates, Figure 1's Z1 and Z2)
CANDIDATE_COLOURS = qualitative.Set1[1:] + qualitative.Dark2
#: the child's data
X_COLOUR = "#1f77b4"
#: a prediction of the child (and the linearization in Figure 4)
PRED_COLOUR = "#d62728"
#: the ideal parent profile
IDEAL_COLOUR = "black"
#: hidden variables: their nodes' border, their edges, the proposed hidden profile
HIDDEN_COLOUR = "#7048e8"
#: above this many instances, profiles over instances are drawn as dots instead of lines
DOTS_ABOVE = 150


def line_mode(n: int) -> str:
    """Plotly ``mode`` of a profile over ``n`` instances: markers only while they stay readable."""
    return "lines+markers" if n <= 120 else "lines"


#: height (px) of the strip at the top of a figure where Streamlit shows plotly's toolbar (the
#: modebar, at the top right on hover): no legend starts inside it
TOOLBAR_PX = 32


def apply_layout(fig: go.Figure, height: int, title: str | None = None, legend_rows: int = 1) -> go.Figure:
    """Common layout: the title, then the legend in the top margin, then the plot area.

    The legend sits in the margin (container coordinates) so that it never covers subplot titles;
    title and legend start below :data:`TOOLBAR_PX`, so that the plot's toolbar (shown while the
    pointer is on the plot) covers neither.
    """
    title_px = TOOLBAR_PX + (30 if title else 0)
    legend_px = 22 * legend_rows
    height = height + 24  # the strip kept clear for the toolbar comes on top of the plot area asked for
    fig.update_layout(
        height=height,
        margin=dict(l=60, r=20, t=title_px + legend_px + 34, b=50),
        title=dict(text=title, y=1.0 - (TOOLBAR_PX + 2) / height, yanchor="top", yref="container") if title else None,
        legend=dict(
            orientation="h",
            yref="container",
            y=1.0 - title_px / height,
            yanchor="top",
            xanchor="left",
            x=0,
        ),
        hovermode="closest",
        template="plotly_white",
    )
    return fig
