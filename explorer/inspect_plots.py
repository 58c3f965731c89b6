"""The Inspector page's figure: one family's profiles over the training instances.

Pure function: a :class:`engine.inspect.FamilyProfiles` in, a plotly figure out (JMLR 2007
Figure 1 (a) and (c) on the real data; for non-linear CPDs the weights g'(y) and the distorted
profiles of Theorem 7.1). No Streamlit and no model arithmetic here: every number drawn was
computed by the engine.
"""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from engine.inspect import FamilyProfiles
from explorer.plot_style import (
    CANDIDATE_COLOURS,
    DOTS_ABOVE,
    IDEAL_COLOUR,
    PRED_COLOUR,
    X_COLOUR,
    apply_layout,
    line_mode,
)

__all__ = ["profiles_figure"]


def profiles_figure(fp: FamilyProfiles, n_candidates: int | None = None, *, distorted: bool = False) -> go.Figure:
    """The inspector's picture of one family, instances along the x axis (in ``fp.order``).

    Top panel: the child's profile and the current prediction (JMLR Figure 1a). Middle panel: the
    ideal parent profile and the top candidates scaled by alpha_z (Figure 1c). When the family has
    weights g'(y) (non-linear CPDs) a bottom panel shows them; with ``distorted`` the middle panel
    shows the weighted profiles ``y o g'`` and ``alpha_z z o g'`` instead (Theorem 7.1).
    """
    order = np.asarray(fp.order)
    m = order.size
    pos = np.arange(m)
    k = len(fp.candidates) if n_candidates is None else max(0, min(int(n_candidates), len(fp.candidates)))
    has_w = fp.weights is not None
    use_star = bool(distorted and has_w)
    rows = 3 if has_w else 2
    child = fp.child_name or f"variable {fp.child}"
    titles = [
        f"{child}: data and current prediction",
        ("weighted " if use_star else "") + "ideal parent profile and the best candidates (scaled by alpha_z)",
    ]
    if has_w:
        titles.append("instance weights g'(y) (how much each instance counts)")
    fig = make_subplots(
        rows=rows,
        cols=1,
        shared_xaxes=True,
        vertical_spacing=0.08,
        subplot_titles=titles,
        row_heights=[0.4, 0.45, 0.15][:rows] if has_w else [0.45, 0.55],
    )
    mode = line_mode(m)
    hover = "instance %{customdata}<br>%{y:.3f}<extra>%{fullData.name}</extra>"
    fig.add_trace(
        go.Scatter(
            x=pos,
            y=fp.x[order],
            customdata=order,
            mode=mode,
            name=f"{child} (data)",
            line=dict(color=X_COLOUR),
            marker=dict(size=4),
            hovertemplate=hover,
        ),
        row=1,
        col=1,
    )
    parents = ", ".join(fp.parent_names or [str(p) for p in fp.parents]) or "no parents"
    fig.add_trace(
        go.Scatter(
            x=pos,
            y=fp.prediction[order],
            customdata=order,
            mode="lines",
            name=f"prediction from {parents}",
            line=dict(color=PRED_COLOUR, dash="dot", width=2),
            hovertemplate=hover,
        ),
        row=1,
        col=1,
    )
    ideal = fp.ideal_star if use_star else fp.ideal
    scaled = fp.scaled_star if use_star else fp.scaled
    ideal_trace = dict(
        x=pos,
        y=ideal[order],
        customdata=order,
        mode=mode,
        name="ideal parent profile",
        line=dict(color=IDEAL_COLOUR, dash="dot", width=2.5),
        marker=dict(size=4),
        hovertemplate=hover,
    )
    fig.add_trace(go.Scatter(**ideal_trace), row=2, col=1)
    names = fp.candidate_names or [str(c) for c in fp.candidates]
    # many instances: candidates as dots, so the ideal curve stays visible through them
    dots = m > DOTS_ABOVE
    for j in range(k):
        colour = CANDIDATE_COLOURS[j % len(CANDIDATE_COLOURS)]
        fig.add_trace(
            go.Scatter(
                x=pos,
                y=scaled[order, j],
                customdata=order,
                mode="markers" if dots else "lines",
                name=f"{names[j]} (C2 = {fp.c2[j]:.2f})",
                line=dict(color=colour, width=1.5),
                marker=dict(color=colour, size=3.5),
                opacity=0.55 if dots else 0.85,
                hovertemplate=hover,
            ),
            row=2,
            col=1,
        )
    if dots:  # draw the ideal profile again on top of the dots
        fig.add_trace(go.Scatter(**ideal_trace, showlegend=False), row=2, col=1)
    if has_w:
        fig.add_trace(
            go.Scatter(
                x=pos,
                y=fp.weights[order],
                customdata=order,
                mode="lines",
                name="g'(y)",
                line=dict(color="grey"),
                hovertemplate=hover,
            ),
            row=3,
            col=1,
        )
    xlabel = "instances, sorted by the ideal profile" if not np.array_equal(order, pos) else "instance"
    fig.update_xaxes(title_text=xlabel, row=rows, col=1)
    fig.update_yaxes(title_text=child, row=1, col=1)
    fig.update_yaxes(title_text="profile value", row=2, col=1)
    return apply_layout(fig, (660 if has_w else 600) + 22 * (k > 2), legend_rows=1 + (k > 2))
