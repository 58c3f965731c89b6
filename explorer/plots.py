"""The Search page's score trace and move-log tables: engine records in, plotly figures and
pandas tables out.

* :func:`score_trace_figure`: the score (BIC, EBIC) over steps (one or two searches);
* :func:`move_log_frame`, :func:`compare_logs`, :func:`highlight_steps`: the move log as a table,
  and two logs side by side with the steps where they differ marked.

The network drawings are in :mod:`explorer.network_view`, their node positions in
:mod:`explorer.graph_layout`. Nothing here imports Streamlit.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

import pandas as pd
import plotly.graph_objects as go

__all__ = [
    "score_trace_figure",
    "move_log_frame",
    "compare_logs",
    "highlight_steps",
    "LOG_COLUMNS",
    "COMPARE_LOG_COLUMNS",
]

#: Columns of the move log table, in order.
LOG_COLUMNS = ["step", "operator", "edge", "C1", "C2", "exact gain", "exact ΔBIC", "rank", "exact evaluations"]
#: the columns of each log in compare mode: two logs side by side have half the width, so the
#: exact gain (the Bounds page compares it with C2) is left out for the score change and the rank
COMPARE_LOG_COLUMNS = ["operator", "edge", "C2", "exact ΔBIC", "rank"]


# ------------------------------------------------------------------------------- plotly / tables
def score_trace_figure(
    traces: Mapping[str, Sequence[tuple[int, float]]], *, height: int = 300, score: str = "BIC"
) -> go.Figure:
    """The network score (nats) after each step, one line per search.

    ``traces`` maps a label to (step, score) pairs, e.g. ``{"ideal": [...], "greedy": [...]}``;
    ``score`` names the score on the axis (the session's ``score_label``: BIC, EBIC...). The
    second line is dashed, so that it stays visible where the two searches coincide.
    """
    fig = go.Figure()
    for i, (label, trace) in enumerate(traces.items()):
        if not trace:
            continue
        xs, ys = zip(*trace, strict=True)
        fig.add_trace(
            go.Scatter(
                x=list(xs),
                y=list(ys),
                mode="lines+markers",
                name=label,
                # the second search: dashed, open markers, so the first stays visible under it
                marker={"size": 5 if i == 0 else 8, "symbol": "circle" if i == 0 else "circle-open"},
                line={"dash": "solid" if i == 0 else "dot", "width": 2 if i == 0 else 2.5},
            )
        )
    fig.update_layout(
        height=height,
        margin={"l": 10, "r": 10, "t": 30, "b": 10},
        xaxis_title="step",
        yaxis_title=f"{score} (nats)",
        title={"text": "Score trace", "x": 0},
        # below the axis: above the plot a two-row legend (narrow windows) covered the curve
        legend={"orientation": "h", "y": -0.3, "x": 0, "yanchor": "top"},
    )
    if sum(1 for t in traces.values() if t) > 1:
        fig.update_layout(height=height + 40, margin={"l": 10, "r": 10, "t": 30, "b": 50})
    if all(len(t) <= 1 for t in traces.values()):
        # no move yet: one dot, whose y axis would tick 0.5-nat steps around it; name the start
        # value on the dot and say what the plot will show instead
        start = next((t[0][1] for t in traces.values() if t), None)
        fig.update_yaxes(showticklabels=False, showgrid=False, zeroline=False)
        fig.add_annotation(
            x=0,
            y=start if start is not None else 0,
            text=(f"start: {start:,.1f}<br>" if start is not None else "")
            + "Step the search to draw<br>the score after each move",
            showarrow=False,
            xanchor="left",
            xshift=12,
            align="left",
            font={"size": 13, "color": "#495057"},
        )
    last = max((t[-1][0] for t in traces.values() if t), default=0)
    # whole steps only: with few steps plotly would put ticks at halves, shown rounded ("0, 1, 1")
    fig.update_xaxes(
        range=[-0.3, max(last, 1) + 0.3], tickformat="d", rangemode="nonnegative", dtick=1 if last <= 12 else None
    )
    fig.update_yaxes(tickformat=",.1f")
    return fig


def move_log_frame(records: Sequence[Mapping]) -> pd.DataFrame:
    """The move log (list of records with :data:`LOG_COLUMNS` keys) as a table."""
    frame = pd.DataFrame([{k: r.get(k) for k in LOG_COLUMNS} for r in records], columns=LOG_COLUMNS)
    for col in ("exact gain", "exact ΔBIC"):
        frame[col] = pd.to_numeric(frame[col], errors="coerce").astype(float)
    # C1, C2 and rank do not exist for Delete and Reverse: shown as "–" (the data grid would print
    # "None" for a missing number, which reads like a bug), so these columns are text
    for col, fmt in (("C1", "{:.2f}"), ("C2", "{:.2f}"), ("rank", "{:.0f}")):
        values = pd.to_numeric(frame[col], errors="coerce")
        frame[col] = [fmt.format(v) if pd.notna(v) else "–" for v in values]
    return frame.set_index("step")


def compare_logs(
    main: Sequence[Mapping], twin: Sequence[Mapping], last: int | None = None
) -> tuple[pd.DataFrame, pd.DataFrame, list[int]]:
    """Two move logs aligned by step, and the steps where the searches chose different moves.

    A step differs when only one search took it, or when the two moves differ in operator or
    edge (records carry a ``key`` = (operator, parent, child, removed) for this). ``differ`` covers
    every step; with ``last`` the frames hold only the last ``last`` steps of the longer log (the
    same steps on both sides), so a run's redraw does not build tables of every move first.
    """
    n = max(len(main), len(twin))
    differ = []
    for i in range(n):
        a = main[i]["key"] if i < len(main) else None
        b = twin[i]["key"] if i < len(twin) else None
        if a != b:
            differ.append(i + 1)
    start = 0 if last is None or n <= last else n - last
    return move_log_frame(main[start:]), move_log_frame(twin[start:]), differ


def highlight_steps(frame: pd.DataFrame, steps: Iterable[int], color: str = "#fff3bf"):
    """A pandas Styler of ``frame`` (indexed by step) with the rows of ``steps`` shaded."""
    marked = set(steps)

    def shade(row: pd.Series) -> list[str]:
        style = f"background-color: {color}" if row.name in marked else ""
        return [style] * len(row)

    # "–" where a move has no such value (C1/C2/rank of Delete and Reverse), not "None"
    return frame.style.apply(shade, axis=1).format({"exact gain": "{:.2f}", "exact ΔBIC": "{:.2f}"}, na_rep="–")
