"""The Bounds page's figure: C1 or C2 against the exact gain, one point per candidate move.

Pure function: a :class:`engine.search.CandidateTable` in, a plotly figure out (JMLR 2007
Figure 2: points below y = x are under-estimates, as C1 <= C2 <= Delta of section 3.2 says for
linear Gaussian CPDs). No Streamlit and no model arithmetic here.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import plotly.graph_objects as go
from plotly.colors import qualitative

from engine.search import CandidateTable, Operator
from explorer.plot_style import TOOLBAR_PX, apply_layout

__all__ = ["bounds_scatter", "FAMILY_COLOURS"]

#: one colour per child family in the bounds scatter (48 before any repeats)
FAMILY_COLOURS = qualitative.Dark24 + qualitative.Light24
#: plotly marker symbol numbers: 0 circle, 2 diamond
_OP_SYMBOL = {int(Operator.ADD): 0, int(Operator.REPLACE): 2}
#: the same shapes in the legend's title, which names what each marks
_OP_GLYPH = {int(Operator.ADD): "\u25cf", int(Operator.REPLACE): "\u25c6"}
#: a stepped colour scale over the family colours, for one trace coloured by family index / len
_FAMILY_SCALE = [
    [edge, c] for k, c in enumerate(FAMILY_COLOURS) for edge in (k / len(FAMILY_COLOURS), (k + 1) / len(FAMILY_COLOURS))
]


def _family_shade(fam: np.ndarray) -> np.ndarray:
    """Positions on :data:`_FAMILY_SCALE` of family numbers ``fam`` (the middle of each step)."""
    return (fam % len(FAMILY_COLOURS) + 0.5) / len(FAMILY_COLOURS)


_OP_NAME = {int(o): o.name.capitalize() for o in Operator}
#: height of one legend entry (px), to size the figure so that its legend does not scroll
LEGEND_ROW_PX = 20


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
    operator; the dashed line is y = x (first in the legend, so a long legend never hides it).
    Points on or below it are under-estimates (JMLR Figure 2). With ``log`` both axes are
    logarithmic: a point with a value <= 0 (a Replace that loses, a negative sigmoid C1) has no
    place on them, and the title says how many were left out (issue 24).
    """
    if measure not in ("c1", "c2"):
        raise ValueError(f"measure must be 'c1' or 'c2', got {measure!r}")
    est = np.asarray(getattr(table, measure), dtype=float)
    ex = np.asarray(table.delta_loglik, dtype=float)
    ok = np.isfinite(est) & np.isfinite(ex)
    n_finite = int(ok.sum())
    if log:
        ok &= (est > 0) & (ex > 0)
    rows = np.flatnonzero(ok)
    n_left_out = n_finite - rows.size
    label = measure.upper()
    fig = go.Figure()
    children = np.unique(np.asarray(table.child)[rows])
    show_legend = children.size <= max_legend
    child_of = np.asarray(table.child)
    # one trace per family while a legend can list them; above that one trace for every point
    # (a thousand traces would take seconds to build and to draw), coloured by family all the same
    groups = [rows[child_of[rows] == c] for c in children] if show_legend else [rows]
    for j, r in enumerate(groups):
        fam = np.searchsorted(children, child_of[r])
        cnames = [str(names[int(c)]) if names is not None else str(int(c)) for c in child_of[r]]
        text = [f"{_OP_NAME[int(table.op[i])]}: {table.move(int(i)).edge_label(names)}" for i in r]
        fig.add_trace(
            go.Scattergl(
                x=ex[r],
                y=est[r],
                mode="markers",
                name=cnames[0] if show_legend and cnames else "candidates",
                text=text,
                customdata=cnames,
                marker=dict(
                    size=7,
                    opacity=0.75,
                    symbol=np.array([_OP_SYMBOL.get(int(table.op[i]), 0) for i in r], dtype=int),
                    **(
                        {"color": FAMILY_COLOURS[j % len(FAMILY_COLOURS)]}
                        if show_legend
                        else {"color": _family_shade(fam), "colorscale": _FAMILY_SCALE, "cmin": 0, "cmax": 1}
                    ),
                ),
                hovertemplate="%{text}<br>exact gain %{x:.3f}<br>"
                + f"{label} %{{y:.3f}}<extra>child %{{customdata}}</extra>",
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
            legendrank=1,  # first in the legend: the families follow (default rank 1000)
        )
    )
    axis_type = "log" if log else "linear"
    fig.update_xaxes(title_text="exact log-likelihood gain \u0394 (nats)", type=axis_type, exponentformat="power")
    fig.update_yaxes(title_text=f"{label} (nats)", type=axis_type, exponentformat="power")
    # the plot area (height minus the margins) is tall enough for the legend's title, the y = x
    # entry and one entry per child family (about 20 px each), so the legend never scrolls
    top, bottom = TOOLBAR_PX + 60, 50  # the title below the plot's toolbar, then the plot
    rows_needed = (children.size if show_legend else 1) + 3  # the title (two lines) and y = x
    height = int(min(1000, max(480, LEGEND_ROW_PX * rows_needed + top + bottom + 20)))
    title = f"{label} vs exact gain ({rows.size} candidates)"
    if n_left_out:
        title = (
            f"{label} vs exact gain ({rows.size} of {n_finite} candidates)<br><sup>{n_left_out} with a value "
            "≤ 0 cannot be drawn on log axes</sup>"
        )
    fig = apply_layout(fig, height, title)
    fig.update_layout(
        margin=dict(t=top + (14 if n_left_out else 0), b=bottom),
        legend=dict(orientation="v", yref="paper", y=1, x=1.02, yanchor="top", title=_legend_title(table, rows)),
    )
    return fig


def _legend_title(table: CandidateTable, rows: np.ndarray) -> str:
    """'child' and, under it, the marker shape of each operator drawn (circle Add, diamond Replace):
    the colours group the children, the shapes were explained only under "How to read these plots"."""
    ops = sorted({int(o) for o in np.asarray(table.op)[rows]} & set(_OP_GLYPH))
    if not ops:
        return "child"
    return "child<br>" + "  ".join(f"{_OP_GLYPH[o]} {_OP_NAME[o]}" for o in ops)
