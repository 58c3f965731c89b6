"""The Teaching page's figures: the paper's Figure 1 (the ideal parent idea) and Figure 4
(linearizing a sigmoid link), drawn from :mod:`engine.teaching`'s live examples.

* :func:`figure1_panel_a` .. :func:`figure1_panel_d` -- JMLR 2007 Figure 1 (a)-(d), section 3;
* :func:`sigmoid_link_figure`, :func:`sigmoid_loglik_figure`, :func:`sigmoid_contour_figure` --
  Figure 4 (a)-(f), section 7 and Theorem 7.1.

Pure functions, no Streamlit and no model arithmetic: every number drawn was computed by the engine.
"""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from engine.teaching import IdealParentExample, SigmoidLinearization
from explorer.plot_style import CANDIDATE_COLOURS, IDEAL_COLOUR, PRED_COLOUR, X_COLOUR, apply_layout, line_mode

__all__ = [
    "figure1_panel_a",
    "figure1_panel_b",
    "figure1_panel_c",
    "figure1_panel_d",
    "sigmoid_link_figure",
    "sigmoid_loglik_figure",
    "sigmoid_contour_figure",
]


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
        mode=line_mode(y.size),
        name=name,
        line=dict(color=color, dash=dash, width=width),
        marker=dict(size=4),
        hovertemplate="instance %{x}<br>%{y:.3f}<extra>" + name + "</extra>",
    )
    if row is None:
        fig.add_trace(trace)
    else:
        fig.add_trace(trace, row=row, col=1)


def _two_rows(titles, spacing: float) -> go.Figure:
    """Two panels stacked over a shared instance axis."""
    return make_subplots(rows=2, cols=1, shared_xaxes=True, vertical_spacing=spacing, subplot_titles=titles)


def figure1_panel_a(ex: IdealParentExample) -> go.Figure:
    """(a) The parent U (top) and the child X with its prediction from U (bottom)."""
    fig = _two_rows(("parent U", "child X and its prediction from U"), 0.12)
    _profile(fig, ex.u, "U", "#2ca02c", row=1)
    _profile(fig, ex.x, "X", X_COLOUR, row=2)
    _profile(fig, ex.prediction_u, "prediction from U", PRED_COLOUR, "dot", row=2)
    fig.update_xaxes(title_text="instance", row=2, col=1)
    fig.update_yaxes(title_text="u", row=1, col=1)
    fig.update_yaxes(title_text="x", row=2, col=1)
    return apply_layout(fig, 420, "(a) current family X | U")


def figure1_panel_b(ex: IdealParentExample) -> go.Figure:
    """(b) The ideal parent profile: the residual of (a)."""
    fig = go.Figure()
    _profile(fig, ex.ideal, "ideal parent profile Y", IDEAL_COLOUR, "dot", 2.5)
    fig.update_xaxes(title_text="instance")
    fig.update_yaxes(title_text="y = x - prediction")
    return apply_layout(fig, 300, "(b) ideal parent: what is left to explain")


def figure1_panel_c(ex: IdealParentExample) -> go.Figure:
    """(c) Each candidate (scaled by alpha_z) against the ideal profile, C1/C2 in the titles."""
    titles = [f"candidate {ex.names[2 + j]}: C1 = {ex.c1[j]:.2f}, C2 = {ex.c2[j]:.2f}" for j in range(2)]
    fig = _two_rows(titles, 0.14)
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
    fig.update_yaxes(title_text="y and alpha_z \u00d7 z")
    return apply_layout(fig, 470, "(c) candidates compared with the ideal profile", legend_rows=2)


def figure1_panel_d(ex: IdealParentExample) -> go.Figure:
    """(d) X with the prediction from U alone and from U plus the best candidate (refitted)."""
    fig = go.Figure()
    best = ex.names[2 + ex.best]
    _profile(fig, ex.x, "X", X_COLOUR)
    _profile(fig, ex.prediction_u, "prediction from U", PRED_COLOUR, "dot")
    _profile(fig, ex.prediction_best, f"prediction from U and {best}", "#9467bd", "dash")
    fig.update_xaxes(title_text="instance")
    fig.update_yaxes(title_text="x")
    return apply_layout(fig, 340, f"(d) after adding {best}: log-likelihood +{ex.gain:.2f} nats")


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
    return apply_layout(fig, 360, "(a, b) the link function and its tangent at the ideal parent value")


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
    return apply_layout(fig, 340, "(c, d) likelihood of each instance as z moves away from Y")


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
    # exact dotted, linearized solid: the same pairing as in the other Figure 4 panels
    for surface, name, line, colour in (
        (sl.surface_exact, "exact", dict(width=2, dash="dot"), X_COLOUR),
        (sl.surface_lin, "linearized", dict(width=2), PRED_COLOUR),
    ):
        fig.add_trace(
            go.Contour(
                x=ax0,
                y=ax1,
                z=surface,
                name=name,
                contours=contours,
                line=line,
                colorscale=[[0, colour], [1, colour]],
                showscale=False,
                showlegend=True,
                hovertemplate="z1 %{x:.2f}<br>z2 %{y:.2f}<br>" + name + " %{z:.2f}<extra></extra>",
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
    return apply_layout(fig, 460, title)
