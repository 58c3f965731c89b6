"""Plot builders for the inspector, bounds and teaching pages.

Pure functions: engine result objects (from :mod:`engine.inspect` and :mod:`engine.search`) in,
plotly figures out. No streamlit here and no model arithmetic: every number drawn was computed by
the engine; these functions only choose what goes on which axis.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import plotly.graph_objects as go
from plotly.colors import qualitative
from plotly.subplots import make_subplots

from engine.inspect import FamilyProfiles
from engine.search import CandidateTable, Operator
from engine.teaching import IdealParentExample, SigmoidLinearization

__all__ = [
    "CANDIDATE_COLOURS",
    "profiles_figure",
    "bounds_scatter",
    "figure1_panel_a",
    "figure1_panel_b",
    "figure1_panel_c",
    "figure1_panel_d",
    "sigmoid_link_figure",
    "sigmoid_loglik_figure",
    "sigmoid_contour_figure",
]

CANDIDATE_COLOURS = qualitative.Set1[1:] + qualitative.Dark2
#: one colour per child family in the bounds scatter (48 before any repeats)
FAMILY_COLOURS = qualitative.Dark24 + qualitative.Light24
X_COLOUR = "#1f77b4"
PRED_COLOUR = "#d62728"
IDEAL_COLOUR = "black"
_OP_SYMBOL = {int(Operator.ADD): "circle", int(Operator.REPLACE): "diamond"}
_OP_NAME = {int(o): o.name.capitalize() for o in Operator}
#: above this many instances the inspector draws candidate profiles as dots instead of lines
DOTS_ABOVE = 150


def _mode(n: int) -> str:
    return "lines+markers" if n <= 120 else "lines"


def _layout(fig: go.Figure, height: int, title: str | None = None, legend_rows: int = 1) -> go.Figure:
    """Common layout: the title, then the legend in the top margin, then the plot area.

    The legend sits in the margin (container coordinates) so that it never covers subplot titles.
    """
    title_px = 40 if title else 8
    legend_px = 22 * legend_rows
    fig.update_layout(
        height=height,
        margin=dict(l=60, r=20, t=title_px + legend_px + 34, b=50),
        title=dict(text=title, y=1.0 - 12 / height, yanchor="top", yref="container") if title else None,
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


# ------------------------------------------------------------------------- inspector
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
    mode = _mode(m)
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
    return _layout(fig, (660 if has_w else 600) + 22 * (k > 2), legend_rows=1 + (k > 2))


# --------------------------------------------------------------------------- bounds
def bounds_scatter(
    table: CandidateTable,
    measure: str = "c2",
    names: Sequence[str] | None = None,
    *,
    log: bool = False,
    max_legend: int = 25,
) -> go.Figure:
    """Scatter of an estimate (C1 or C2, y axis) against the exact log-likelihood gain (x axis).

    One point per Add/Replace candidate with a finite exact gain; colour = child family, symbol =
    operator; the dashed line is y = x. Points on or below it are under-estimates (JMLR Figure 2).
    With ``log`` both axes are logarithmic and only points with positive values are drawn.
    """
    if measure not in ("c1", "c2"):
        raise ValueError(f"measure must be 'c1' or 'c2', got {measure!r}")
    est = np.asarray(getattr(table, measure), dtype=float)
    ex = np.asarray(table.delta_loglik, dtype=float)
    ok = np.isfinite(est) & np.isfinite(ex)
    if log:
        ok &= (est > 0) & (ex > 0)
    rows = np.flatnonzero(ok)
    label = measure.upper()
    fig = go.Figure()
    children = np.unique(np.asarray(table.child)[rows])
    show_legend = children.size <= max_legend
    for j, c in enumerate(children):
        r = rows[np.asarray(table.child)[rows] == c]
        cname = str(names[int(c)]) if names is not None else str(int(c))
        text = [f"{_OP_NAME[int(table.op[i])]}: {table.move(int(i)).edge_label(names)}" for i in r]
        fig.add_trace(
            go.Scattergl(
                x=ex[r],
                y=est[r],
                mode="markers",
                name=cname,
                text=text,
                marker=dict(
                    size=7,
                    opacity=0.75,
                    color=FAMILY_COLOURS[j % len(FAMILY_COLOURS)],
                    symbol=[_OP_SYMBOL.get(int(table.op[i]), "circle") for i in r],
                ),
                hovertemplate="%{text}<br>exact gain %{x:.3f}<br>" + f"{label} %{{y:.3f}}<extra>child {cname}</extra>",
                showlegend=show_legend,
            )
        )
    if rows.size:
        lo = float(min(ex[rows].min(), est[rows].min()))
        hi = float(max(ex[rows].max(), est[rows].max()))
        lo = lo if log else min(lo, 0.0)
        hi = max(hi, lo * 10 if log else 1e-9)
    else:
        lo, hi = (0.1, 1.0) if log else (0.0, 1.0)
    fig.add_trace(
        go.Scatter(
            x=[lo, hi],
            y=[lo, hi],
            mode="lines",
            name="y = x",
            hoverinfo="skip",
            line=dict(color="grey", dash="dash"),
            showlegend=True,
        )
    )
    axis_type = "log" if log else "linear"
    fig.update_xaxes(title_text="exact log-likelihood gain \u0394 (nats)", type=axis_type, exponentformat="power")
    fig.update_yaxes(title_text=f"{label} (nats)", type=axis_type, exponentformat="power")
    # tall enough for a legend entry per child family (about 20 px each)
    height = int(min(900, max(480, 20 * (children.size + 1) + 120))) if show_legend else 480
    fig = _layout(fig, height, f"{label} vs exact gain ({rows.size} candidates)")
    fig.update_layout(
        margin=dict(t=60),
        legend=dict(orientation="v", yref="paper", y=1, x=1.02, yanchor="top", title="child"),
    )
    return fig


# ------------------------------------------------------------------------- Figure 1
def _profile(
    fig: go.Figure,
    y: np.ndarray,
    name: str,
    color: str,
    dash: str | None = None,
    width: float = 2,
    row: int | None = None,
) -> None:
    trace = go.Scatter(
        x=np.arange(y.size),
        y=y,
        mode=_mode(y.size),
        name=name,
        line=dict(color=color, dash=dash, width=width),
        marker=dict(size=4),
        hovertemplate="instance %{x}<br>%{y:.3f}<extra>" + name + "</extra>",
    )
    if row is None:
        fig.add_trace(trace)
    else:
        fig.add_trace(trace, row=row, col=1)


def figure1_panel_a(ex: IdealParentExample) -> go.Figure:
    """(a) The parent U (top) and the child X with its prediction from U (bottom)."""
    fig = make_subplots(
        rows=2,
        cols=1,
        shared_xaxes=True,
        vertical_spacing=0.12,
        subplot_titles=("parent U", "child X and its prediction from U"),
    )
    _profile(fig, ex.u, "U", "#2ca02c", row=1)
    _profile(fig, ex.x, "X", X_COLOUR, row=2)
    _profile(fig, ex.prediction_u, "prediction from U", PRED_COLOUR, "dot", row=2)
    fig.update_xaxes(title_text="instance", row=2, col=1)
    return _layout(fig, 420, "(a) current family X | U")


def figure1_panel_b(ex: IdealParentExample) -> go.Figure:
    """(b) The ideal parent profile: the residual of (a)."""
    fig = go.Figure()
    _profile(fig, ex.ideal, "ideal parent profile Y", IDEAL_COLOUR, "dot", 2.5)
    fig.update_xaxes(title_text="instance")
    fig.update_yaxes(title_text="y = x - prediction")
    return _layout(fig, 300, "(b) ideal parent: what is left to explain")


def figure1_panel_c(ex: IdealParentExample) -> go.Figure:
    """(c) Each candidate (scaled by alpha_z) against the ideal profile, C1/C2 in the titles."""
    fig = make_subplots(
        rows=2,
        cols=1,
        shared_xaxes=True,
        vertical_spacing=0.14,
        subplot_titles=[f"candidate {ex.names[2 + j]}: C1 = {ex.c1[j]:.2f}, C2 = {ex.c2[j]:.2f}" for j in range(2)],
    )
    for j in range(2):
        _profile(fig, ex.ideal, "ideal profile Y", IDEAL_COLOUR, "dot", 2.5, row=j + 1)
        _profile(
            fig,
            ex.scaled[:, j],
            f"{ex.names[2 + j]} \u00d7 alpha_z ({ex.alpha[j]:.2f})",
            CANDIDATE_COLOURS[j],
            row=j + 1,
        )
        fig.data[-2].showlegend = j == 0
    fig.update_xaxes(title_text="instance", row=2, col=1)
    return _layout(fig, 470, "(c) candidates compared with the ideal profile", legend_rows=2)


def figure1_panel_d(ex: IdealParentExample) -> go.Figure:
    """(d) X with the prediction from U alone and from U plus the best candidate (refitted)."""
    fig = go.Figure()
    best = ex.names[2 + ex.best]
    _profile(fig, ex.x, "X", X_COLOUR)
    _profile(fig, ex.prediction_u, "prediction from U", PRED_COLOUR, "dot")
    _profile(fig, ex.prediction_best, f"prediction from U and {best}", "#9467bd", "dash")
    fig.update_xaxes(title_text="instance")
    return _layout(fig, 340, f"(d) after adding {best}: log-likelihood +{ex.gain:.2f} nats")


# ------------------------------------------------------------------------- Figure 4
def sigmoid_link_figure(sl: SigmoidLinearization) -> go.Figure:
    """(a)/(b): the sigmoid g(z) and its tangent at the ideal value y, one panel per instance."""
    n = sl.x.size
    fig = make_subplots(
        rows=1,
        cols=n,
        subplot_titles=[f"x = {sl.x[i]:.2f}: y = {sl.y[i]:.3f}, g'(y) = {sl.gprime[i]:.4f}" for i in range(n)],
    )
    for i in range(n):
        z = sl.z_axis[i]
        _exact_and_linear(fig, i, z, sl.g_exact[i], sl.g_lin[i], "g(z) (sigmoid)", "linear approximation at Y")
        # dashed guides: from X on the y axis to the curve, down to Y on the z axis
        fig.add_trace(
            go.Scatter(
                x=[z[0], sl.y[i], sl.y[i]],
                y=[sl.x[i], sl.x[i], float(sl.g_exact[i].min())],
                mode="lines+markers",
                name="inverting g: X \u2192 Y",
                line=dict(color="grey", dash="dash", width=1),
                marker=dict(size=[0, 8, 0]),
                showlegend=i == 0,
            ),
            row=1,
            col=i + 1,
        )
        fig.update_xaxes(title_text="value of the new parent z", row=1, col=i + 1)
    fig.update_yaxes(title_text="g(z)", row=1, col=1)
    return _layout(fig, 360, "(a, b) the link function and its tangent at the ideal parent value")


def _exact_and_linear(fig: go.Figure, i: int, z, exact, linear, exact_name: str, linear_name: str) -> None:
    """The exact curve (dotted) and its linearization (solid) in panel ``i`` of a one-row figure."""
    for y, name, line in (
        (exact, exact_name, dict(color=X_COLOUR, dash="dot", width=2.5)),
        (linear, linear_name, dict(color=PRED_COLOUR, width=2)),
    ):
        fig.add_trace(go.Scatter(x=z, y=y, mode="lines", name=name, line=line, showlegend=i == 0), row=1, col=i + 1)


def sigmoid_loglik_figure(sl: SigmoidLinearization) -> go.Figure:
    """(c)/(d): each instance's log-likelihood as a function of z, exact and linearized."""
    n = sl.x.size
    fig = make_subplots(
        rows=1,
        cols=n,
        shared_yaxes=True,
        subplot_titles=[f"x{'₁₂'[i] if i < 2 else i + 1} = {sl.x[i]:.2f}" for i in range(n)],
    )
    for i in range(n):
        z = sl.z_axis[i]
        _exact_and_linear(fig, i, z, sl.ll_exact[i], sl.ll_lin[i], "exact log-likelihood", "linearized")
        fig.update_xaxes(title_text="z", row=1, col=i + 1)
    lo = float(np.percentile(np.concatenate([sl.ll_exact.ravel(), sl.ll_lin.ravel()]), 5))
    hi = float(max(sl.ll_exact.max(), sl.ll_lin.max()))
    fig.update_yaxes(range=[lo, hi + 0.1 * (hi - lo)])
    fig.update_yaxes(title_text="log-likelihood of the instance", row=1, col=1)
    return _layout(fig, 340, "(c, d) likelihood of each instance as z moves away from Y")


def sigmoid_contour_figure(sl: SigmoidLinearization, *, skewed: bool = False) -> go.Figure:
    """(e): contours of the two-instance log-likelihood over (z1, z2), exact vs linearized.

    With ``skewed`` the axes are ``z * g'(y)`` (panel f): the linearized contours become circles.
    """
    if sl.x.size < 2:
        raise ValueError("the contour plot needs two instances")
    ax0 = sl.skewed_axis[0] if skewed else sl.z_axis[0]
    ax1 = sl.skewed_axis[1] if skewed else sl.z_axis[1]
    top = float(max(sl.surface_exact.max(), sl.surface_lin.max()))
    lo = float(np.percentile(sl.surface_lin, 60))
    contours = dict(start=lo, end=top, size=(top - lo) / 10, coloring="lines", showlabels=False)
    fig = go.Figure()
    fig.add_trace(
        go.Contour(
            x=ax0,
            y=ax1,
            z=sl.surface_exact,
            name="exact",
            contours=contours,
            line=dict(width=2, dash="dot"),
            colorscale=[[0, X_COLOUR], [1, X_COLOUR]],
            showscale=False,
            showlegend=True,
            hovertemplate="z1 %{x:.2f}<br>z2 %{y:.2f}<br>exact %{z:.2f}<extra></extra>",
        )
    )
    fig.add_trace(
        go.Contour(
            x=ax0,
            y=ax1,
            z=sl.surface_lin,
            name="linearized",
            contours=contours,
            line=dict(width=2),
            colorscale=[[0, PRED_COLOUR], [1, PRED_COLOUR]],
            showscale=False,
            showlegend=True,
            hovertemplate="z1 %{x:.2f}<br>z2 %{y:.2f}<br>linearized %{z:.2f}<extra></extra>",
        )
    )
    cx = sl.y[0] * (sl.gprime[0] if skewed else 1.0)
    cy = sl.y[1] * (sl.gprime[1] if skewed else 1.0)
    fig.add_trace(
        go.Scatter(
            x=[cx],
            y=[cy],
            mode="markers",
            name="ideal parent (y₁, y₂)",
            marker=dict(color="black", size=10, symbol="x"),
        )
    )
    if skewed:
        fig.update_xaxes(title_text=f"z₁ × g'(y₁)  (x₁ = {sl.x[0]:.2f})")
        fig.update_yaxes(title_text=f"z₂ × g'(y₂)  (x₂ = {sl.x[1]:.2f})", scaleanchor="x", scaleratio=1)
        title = "(f) axes scaled by g'(Y): circles"
    else:
        fig.update_xaxes(title_text=f"z₁  (instance 1: x₁ = {sl.x[0]:.2f})")
        fig.update_yaxes(title_text=f"z₂  (instance 2: x₂ = {sl.x[1]:.2f})", scaleanchor="x", scaleratio=1)
        title = "(e) log-likelihood of both instances over (z₁, z₂)"
    return _layout(fig, 460, title)
