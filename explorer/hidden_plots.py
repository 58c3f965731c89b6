"""Plot builders for the hidden-variable page (pure: engine objects in, plotly figures out)."""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go
from plotly.colors import qualitative

from engine.hidden import ClusterView
from explorer.plot_style import DOTS_ABOVE, HIDDEN_COLOUR

__all__ = ["cluster_profiles_figure", "correlation_heatmap", "ends", "instance_axis", "profile_ends", "unique_labels"]

#: up to this many instances the profile plot names every one on its axis
TICKS_ALL_UP_TO = 60


def cluster_profiles_figure(view: ClusterView, *, max_members: int = 12, named: bool = True) -> go.Figure:
    """Members' scaled ideal profiles (thin) and the proposed hidden profile z* (thick), with the
    instances sorted by z* so that agreement reads as lines rising together; the axis names the
    instances (the file's condition labels), so a profile carried by one condition shows which.
    ``named=False``: the data have no instance labels (the axis counts rows, e.g. single cells),
    and its title does not call them conditions."""
    order = view.order
    names = unique_labels(view.instances or [str(i + 1) for i in range(order.size)])
    xs = [names[i] for i in order]
    mode = "markers" if order.size > DOTS_ABOVE else "lines"
    fig = go.Figure()
    colours = qualitative.Set2 + qualitative.Pastel1
    drawn = view.names[:max_members]
    # one legend entry for the members (one per member wrapped into rows over the lines); each
    # line names its member on hover
    group = f"members' ideal profiles ({len(drawn)} of {len(view.names)} drawn)"
    for j, name in enumerate(drawn):
        y = view.ideal[order, j]
        y = (y - y.mean()) / max(y.std(), 1e-12)
        fig.add_trace(
            go.Scatter(
                x=xs,
                y=y,
                mode=mode,
                name=group,
                legendgroup="members",
                showlegend=j == 0,
                hovertemplate=f"{name}<br>%{{x}}: %{{y:.2f}}<extra></extra>",
                line={"width": 1, "color": colours[j % len(colours)]},
                marker={"size": 3, "color": colours[j % len(colours)]},
                opacity=0.75,
            )
        )
    fig.add_trace(
        go.Scatter(
            x=xs,
            y=view.profile[order],
            mode="lines",
            name="proposed hidden profile z*",
            line={"width": 3, "color": HIDDEN_COLOUR},
        )
    )
    xaxis = instance_axis(xs, named, "sorted by z*")
    fig.update_layout(
        height=400,
        margin={"l": 10, "r": 10, "t": 40, "b": 10},
        xaxis=xaxis,
        yaxis_title="standardized value",
        legend={"orientation": "h", "yanchor": "bottom", "y": 1.02, "x": 0},  # above the plot area
    )
    return fig


def profile_ends(view: ClusterView, named: bool, k: int = 5) -> str | None:
    """The ``k`` conditions where z* is highest and the ``k`` where it is lowest, by name, under the
    profile plot when its axis cannot name every condition (above :data:`TICKS_ALL_UP_TO`); None
    otherwise or without the file's labels. Walk of session 23 (172 TCGA tumours): a cancer-testis
    program on in about ten tumours showed which only on hover, its 28-character barcodes printed
    every fourth one on the axis."""
    order = view.order
    if not named or order.size <= TICKS_ALL_UP_TO or not view.instances:
        return None
    high, low = ends(unique_labels(view.instances), view.profile, order, k)
    return f"Highest z*: {high}; lowest: {low} (the plot's right and left ends; hover a point for any other condition)."


def ends(names: list[str], values, order, k: int) -> tuple[str, str]:
    """The ``k`` conditions at the top and at the bottom of ``order`` (ascending in ``values``), each as
    ``name (value)``: the captions of :func:`profile_ends` and of the accepted variables' activity plot."""

    def listed(idx) -> str:
        return ", ".join(f"{names[i]} ({values[i]:+.1f})" for i in idx)

    return listed(order[::-1][:k]), listed(order[:k])


def instance_axis(xs: list[str], named: bool, order: str) -> dict:
    """A category x axis over the instances ``xs`` (their labels, in the plot's ``order``, e.g. "sorted
    by z*"): every one named up to :data:`TICKS_ALL_UP_TO` (plotly's own choice skips every other one),
    about 40 ticks above. ``named``: the labels are the file's conditions, not row numbers."""
    axis = {
        "title": f"instances ({'conditions' if named else 'rows of the data'}), {order}",
        "type": "category",
        "tickangle": -45,
    }
    if len(xs) <= TICKS_ALL_UP_TO:
        # every condition named, legibly: the odd one a flag names is read off this axis (QA walk, session 28)
        size = 12 if len(xs) <= 30 else 10
        axis.update(tickmode="array", tickvals=xs, ticktext=xs, tickfont={"size": size, "color": "#31333f"})
    else:
        axis["nticks"] = 40
    return axis


def unique_labels(labels: list[str]) -> list[str]:
    """Instance labels made unique for a category axis (replicates often share a condition name;
    a repeat gets " #2", " #3", ... so that its point is not drawn on the first one's)."""
    seen: dict[str, int] = {}
    out = []
    for lab in labels:
        seen[lab] = seen.get(lab, 0) + 1
        out.append(lab if seen[lab] == 1 else f"{lab} #{seen[lab]}")
    return out


#: members up to which each heatmap cell prints its correlation (42 members printed 1,764 numbers
#: over one another in 360 pixels, QA walk on the yeast cell-cycle table; hovering still tells)
MAX_ANNOTATED = 12


def correlation_heatmap(names: list[str], corr: np.ndarray, title: str) -> go.Figure:
    """Correlation matrix of the cluster's members (-1 blue, +1 red); the values printed in the cells
    up to :data:`MAX_ANNOTATED` members, on hover always."""
    fig = go.Figure(
        go.Heatmap(
            z=corr,
            x=names,
            y=names,
            zmin=-1,
            zmax=1,
            colorscale="RdBu_r",
            text=np.round(corr, 2),
            texttemplate="%{text}" if len(names) <= MAX_ANNOTATED else "",
            hovertemplate="%{y} ~ %{x}: r = %{z:.2f}<extra></extra>",
            colorbar={"title": "r"},
        )
    )
    fig.update_layout(  # a member x member matrix, not genes x conditions: the title says so
        title=f"{title}: correlations between members",
        height=360,
        margin={"l": 10, "r": 10, "t": 40, "b": 10},
        yaxis={"autorange": "reversed"},
    )
    return fig
