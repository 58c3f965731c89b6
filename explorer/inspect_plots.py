"""The Inspector page's figures: one family's profiles, and its best candidates against the ideal
profile.

Pure functions: a :class:`engine.inspect.FamilyProfiles` in, plotly figures out.
:func:`profiles_figure` draws the profiles over the instances (JMLR 2007 Figure 1 (a) and (b) on
the real data; for non-linear CPDs the weights g'(y) of Theorem 7.1); :func:`candidates_figure`
draws the ideal profile against each candidate with its least-squares line ``alpha_z z``
(Figure 1 (c) as a scatter: a good candidate's points hug its line). No Streamlit and no model
arithmetic here: every number drawn was computed by the engine.
"""

from __future__ import annotations

import math

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from engine.inspect import FamilyProfiles
from explorer.plot_style import (
    CANDIDATE_COLOURS,
    IDEAL_COLOUR,
    PRED_COLOUR,
    X_COLOUR,
    apply_layout,
    line_mode,
)

__all__ = ["profiles_figure", "candidates_figure", "CANDIDATE_COLUMNS"]

#: panels per row in :func:`candidates_figure`
CANDIDATE_COLUMNS = 3


#: at most this many instances are named one by one along the x axis (more are named on hover)
NAMED_TICKS = 60


def profiles_figure(fp: FamilyProfiles, *, distorted: bool = False, labels=None, hidden: bool = False) -> go.Figure:
    """The inspector's picture of one family, instances along the x axis (in ``fp.order``), named
    by ``labels`` (the file's instance labels, e.g. conditions, one per row of the family) on
    hover and, up to :data:`NAMED_TICKS` instances, along the axis.

    Top panel: the child's profile and the current prediction (JMLR Figure 1a). Middle panel: the
    ideal parent profile, their difference (Figure 1b). When the family has weights g'(y)
    (non-linear CPDs) a bottom panel shows them; with ``distorted`` the middle panel shows the
    weighted profile ``y o g'`` instead (Theorem 7.1). A ``hidden`` child has no data: its top
    panel is the profile structural EM inferred (its posterior mean per instance), and says so.
    """
    order = np.asarray(fp.order)
    m = order.size
    pos = np.arange(m)
    has_w = fp.weights is not None
    use_star = bool(distorted and has_w)
    rows = 3 if has_w else 2
    child = fp.child_name or f"variable {fp.child}"
    titles = [
        f"{child}: {'inferred profile' if hidden else 'data'} and current prediction",
        ("weighted " if use_star else "") + "ideal parent profile: what the prediction still misses",
    ]
    if has_w:
        titles.append("instance weights g'(y) (how much each instance counts)")
    fig = make_subplots(
        rows=rows,
        cols=1,
        shared_xaxes=True,
        vertical_spacing=0.08,
        subplot_titles=titles,
        row_heights=[0.45, 0.4, 0.15][:rows] if has_w else [0.55, 0.45],
    )
    mode = line_mode(m)
    named = labels is not None and len(labels) == m
    # hover: the instance's label (or its number), from customdata
    tags = np.asarray([str(lab) for lab in labels], dtype=object) if named else pos
    hover = "instance %{customdata}<br>%{y:.3f}<extra>%{fullData.name}</extra>"
    fig.add_trace(
        go.Scatter(
            x=pos,
            y=fp.x[order],
            customdata=tags[order],
            mode=mode,
            name=f"{child} ({'inferred by EM, not measured' if hidden else 'data'})",
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
            customdata=tags[order],
            mode="lines",
            name=f"prediction from {parents}",
            line=dict(color=PRED_COLOUR, dash="dot", width=2),
            hovertemplate=hover,
        ),
        row=1,
        col=1,
    )
    ideal = fp.ideal_star if use_star else fp.ideal
    fig.add_trace(
        go.Scatter(
            x=pos,
            y=ideal[order],
            customdata=tags[order],
            mode=mode,
            name="ideal parent profile",
            line=dict(color=IDEAL_COLOUR, dash="dot", width=2.5),
            marker=dict(size=4),
            hovertemplate=hover,
        ),
        row=2,
        col=1,
    )
    if has_w:
        fig.add_trace(
            go.Scatter(
                x=pos,
                y=fp.weights[order],
                customdata=tags[order],
                mode="lines",
                name="g'(y)",
                line=dict(color="grey"),
                hovertemplate=hover,
            ),
            row=3,
            col=1,
        )
    xlabel = "instances, sorted by the ideal profile" if not np.array_equal(order, pos) else "instance"
    if named and m <= NAMED_TICKS:  # conditions named where they are: an odd one shows which
        fig.update_xaxes(tickvals=pos, ticktext=list(tags[order]), tickangle=-45, row=rows, col=1)
        xlabel = (
            "instances (conditions), sorted by the ideal profile" if xlabel != "instance" else "instance (condition)"
        )
    fig.update_xaxes(title_text=xlabel, row=rows, col=1)
    fig.update_yaxes(title_text=child, row=1, col=1)
    fig.update_yaxes(title_text="profile value", row=2, col=1)
    fig.update_yaxes(title_text="ideal profile" + (" y·g'" if use_star else " y"), row=2, col=1)
    return apply_layout(fig, 620 if has_w else 560)


def candidates_figure(fp: FamilyProfiles, n_candidates: int | None = None, *, distorted: bool = False) -> go.Figure:
    """The ideal profile (vertical) against each of the best candidates (horizontal), one panel
    per candidate and one point per instance, with the candidate's least-squares line
    ``alpha_z z``, ``alpha_z = (y.z)/(z.z)`` (Theorem 3.2).

    A candidate that matches the ideal profile has its points close to its line: |cos phi| near 1
    and a large C2 = -(M/2) log(1 - cos^2 phi) (Theorem 3.4). With ``distorted`` (non-linear CPDs)
    both profiles are weighted by g'(y), as Theorem 7.1 compares them. The panels share the
    vertical axis, so the candidates are compared on one scale.
    """
    k = len(fp.candidates) if n_candidates is None else max(0, min(int(n_candidates), len(fp.candidates)))
    use_star = bool(distorted and fp.weights is not None)
    ideal = fp.ideal_star if use_star else fp.ideal
    z_all = fp.profiles_star if use_star else fp.profiles
    names = fp.candidate_names or [str(c) for c in fp.candidates]
    cols = max(1, min(k, CANDIDATE_COLUMNS))
    rows = max(1, math.ceil(k / cols))
    titles = [f"{names[j]}: cos φ = {fp.cosine[j]:+.2f}, C2 = {fp.c2[j]:.1f}" for j in range(k)]
    fig = make_subplots(
        rows=rows,
        cols=cols,
        shared_yaxes=True,
        horizontal_spacing=0.05,
        vertical_spacing=0.16 if rows > 1 else 0.1,
        subplot_titles=titles or None,
    )
    instances = np.arange(ideal.shape[0])
    # translucent small dots: thousands of instances still show where the points are dense
    opacity = 0.6 if ideal.shape[0] <= 300 else 0.3
    star = "·g'" if use_star else ""
    for j in range(k):
        r, c = divmod(j, cols)
        colour = CANDIDATE_COLOURS[j % len(CANDIDATE_COLOURS)]
        z = z_all[:, j]
        fig.add_trace(
            go.Scattergl(
                x=z,
                y=ideal,
                customdata=instances,
                mode="markers",
                name=names[j],
                marker=dict(color=colour, size=4, opacity=opacity),
                hovertemplate=f"instance %{{customdata}}<br>{names[j]}{star} %{{x:.3f}}<br>ideal y{star} "
                "%{y:.3f}<extra></extra>",
                showlegend=False,
            ),
            row=r + 1,
            col=c + 1,
        )
        ends = np.array([np.min(z), np.max(z)]) if z.size else np.zeros(2)
        fig.add_trace(
            go.Scatter(
                x=ends,
                y=fp.alpha[j] * ends,
                mode="lines",
                name=f"alpha_z = {fp.alpha[j]:.3f}",
                line=dict(color=IDEAL_COLOUR, width=2),
                hovertemplate=f"best fit alpha_z·z, alpha_z = {fp.alpha[j]:.3f}<extra></extra>",
                showlegend=False,
            ),
            row=r + 1,
            col=c + 1,
        )
        fig.update_xaxes(title_text=f"{names[j]}{star} (candidate z)", row=r + 1, col=c + 1)
    for r in range(rows):
        fig.update_yaxes(title_text=f"ideal profile y{star}", row=r + 1, col=1)
    fig = apply_layout(fig, 110 + 290 * rows)
    fig.update_layout(showlegend=False, margin=dict(t=50))
    return fig
