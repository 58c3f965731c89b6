"""The accepted hidden variables' inferred profiles over the conditions, drawn on the Hidden page.

Before this plot an accepted H's activity was only a CSV download: a biologist who had just accepted
a regulator could not see in which conditions it is high or low without leaving the app (newcomer
walk, session 19). The values are :func:`explorer.export.inferred_profiles`: the posterior mean of
each hidden variable per instance under the network structural EM learned (JMLR 2007 section 6),
in SDs of H, the scale of the regulator report's loadings. The instances keep the file's order, so
a design written as ``WT_heat_30min_rep1, WT_heat_30min_rep2, ...`` reads as its blocks.
"""

from __future__ import annotations

import pandas as pd
import plotly.graph_objects as go
import streamlit as st

from explorer.hidden_plots import TICKS_ALL_UP_TO, ends, instance_axis, unique_labels
from explorer.plot_style import DOTS_ABOVE, HIDDEN_COLOUR

__all__ = ["highest_text", "inferred_profiles_figure", "show_inferred_profiles"]

#: the second, third, ... hidden variable's colour (the first is the app's hidden-variable colour)
OTHER_COLOURS = ("#e8590c", "#2b8a3e", "#1971c2", "#c2255c")


def inferred_profiles_figure(profiles: pd.DataFrame, *, named: bool = True) -> go.Figure:
    """One line per hidden variable over the instances in the file's order (``profiles``: the
    ``instance`` column, then one column per H in SDs of H). ``named``: the instances are the file's
    condition labels, every one written on the axis up to :data:`explorer.hidden_plots.TICKS_ALL_UP_TO`."""
    xs = unique_labels([str(x) for x in profiles["instance"]])
    hidden = [c for c in profiles.columns if c != "instance"]
    mode = "markers" if len(xs) > DOTS_ABOVE else "lines+markers"
    fig = go.Figure()
    for j, h in enumerate(hidden):
        colour = HIDDEN_COLOUR if j == 0 else OTHER_COLOURS[(j - 1) % len(OTHER_COLOURS)]
        fig.add_trace(
            go.Scatter(
                x=xs,
                y=profiles[h].to_numpy(),
                mode=mode,
                name=h,
                line={"width": 2, "color": colour},
                marker={"size": 5, "color": colour},
                hovertemplate=f"{h}<br>%{{x}}: %{{y:.2f}} SD<extra></extra>",
            )
        )
    xaxis = instance_axis(xs, named, "in the file's order")
    fig.add_hline(y=0, line={"width": 1, "color": "#adb5bd", "dash": "dot"})
    fig.update_layout(
        height=380,
        margin={"l": 10, "r": 10, "t": 40, "b": 10},
        xaxis=xaxis,
        yaxis_title="inferred activity (SD of H)",
        legend={"orientation": "h", "yanchor": "bottom", "y": 1.02, "x": 0},
        showlegend=True,
    )
    return fig


def highest_text(profiles: pd.DataFrame, named: bool, k: int = 5) -> str | None:
    """Each hidden variable's ``k`` conditions of highest and of lowest inferred activity, by name,
    when the axis cannot name every condition (above :data:`~explorer.hidden_plots.TICKS_ALL_UP_TO`);
    None otherwise or without the file's labels. Walk of session 23 (172 TCGA tumours): after Accept,
    which tumours carry the cancer-testis program was readable only by hovering its ten high points."""
    if not named or len(profiles) <= TICKS_ALL_UP_TO:
        return None
    xs = unique_labels([str(x) for x in profiles["instance"]])
    lines = []
    for h in (c for c in profiles.columns if c != "instance"):
        y = profiles[h].to_numpy()
        high, low = ends(xs, y, y.argsort(), k)
        lines.append(f"**{h}** highest in {high}; lowest in {low}")
    return "Inferred activity at its ends: " + ". ".join(lines) + "."


def show_inferred_profiles(profiles: pd.DataFrame, *, named: bool) -> None:
    """The figure, with a caption saying what the values are and where the numbers are."""
    st.plotly_chart(inferred_profiles_figure(profiles, named=named), key="ip_hidden_inferred_chart")
    if (top := highest_text(profiles, named)) is not None:
        st.caption(top)  # the axis names only about one condition in four there
    st.caption(
        "Each accepted hidden variable's inferred activity per condition: its posterior mean under the "
        "network, in SDs of H (0 is its mean). Where it is high its positive-loading children are up and its "
        "negative-loading ones down (the sign column of the regulator report). The same values are in "
        '"Download inferred profiles (CSV)".'
    )
