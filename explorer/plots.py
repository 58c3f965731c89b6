"""Pure functions from engine objects to figures: pyvis HTML, plotly figures and display tables.

Nothing here imports Streamlit, so every function can be tested and benchmarked on its own. The
views call these and only place the result on the page.

* :func:`data_layout` / :func:`spring_layout`: fixed node positions, computed once per data set
  (Fruchterman-Reingold in numpy) so that nodes do not move between steps;
* :func:`search_network_html`: the current network, the last move highlighted, edge width by
  ``|weight|``, hidden variables as diamonds;
* :func:`truth_network_html`: the learned network with the true one overlaid (correct / reversed /
  extra / missing edges);
* :func:`score_trace_figure`: BIC over steps (one or two searches);
* :func:`move_log_frame`, :func:`compare_logs`: the move log as a table, and two logs side by
  side with the steps where they differ marked.
"""

from __future__ import annotations

import html
import json
import math
import re
from collections.abc import Iterable, Mapping, Sequence

import numpy as np
import pandas as pd
import plotly.graph_objects as go
from jinja2 import Environment
from pyvis.network import Network

from engine.search import Move, Operator

__all__ = [
    "spring_layout",
    "data_layout",
    "complete_positions",
    "separate",
    "search_network_html",
    "truth_network_html",
    "score_trace_figure",
    "move_log_frame",
    "compare_logs",
    "highlight_steps",
    "LOG_COLUMNS",
    "COLORS",
    "TRUTH_STYLES",
]

#: Colours used in the network drawings.
COLORS = {
    "edge": "#5c7cfa",
    "last": "#e8590c",
    "removed": "#fa5252",
    "node": "#e7f5ff",
    "node_border": "#1c7ed6",
    "node_last": "#ffd8a8",
    "node_last_border": "#e8590c",
    "hidden": "#e5dbff",
    "hidden_border": "#7048e8",
}

#: Style of each edge status in the truth overlay: (colour, dashed, legend text).
TRUTH_STYLES: dict[str, tuple[str, bool, str]] = {
    "correct": ("#2f9e44", False, "correct (learned, true, same direction)"),
    "reversed": ("#f08c00", False, "reversed (true edge learned the other way round)"),
    "extra": ("#e03131", False, "extra (learned, not in the true network)"),
    "missing": ("#868e96", True, "missing (true edge not learned)"),
    "hidden": ("#7048e8", False, "edge of a hidden variable (not scored)"),
}

#: Columns of the move log table, in order.
LOG_COLUMNS = ["step", "operator", "edge", "C1", "C2", "exact gain", "exact ΔBIC", "rank", "exact evaluations"]
#: the columns of each log in compare mode (two logs side by side have half the width)
COMPARE_LOG_COLUMNS = ["operator", "edge", "C2", "exact gain", "exact ΔBIC", "rank"]

# One shared Jinja environment: pyvis builds a new one per Network, which re-reads and re-compiles
# the template (including the 470 kB inlined vis-network script) on every call.
_PYVIS_ENV: Environment | None = None
_CDN_TAG = re.compile(r"<(link|script)[^>]*cdn\.jsdelivr\.net[^>]*>(\s*</script>)?", re.S)
_EMPTY_HEADING = re.compile(r"<center>\s*<h1>\s*</h1>\s*</center>")


def _pyvis_env() -> Environment:
    global _PYVIS_ENV
    if _PYVIS_ENV is None:
        _PYVIS_ENV = Network().templateEnv
    return _PYVIS_ENV


# --------------------------------------------------------------------------------------- layout
def spring_layout(
    n: int,
    weights: np.ndarray | None = None,
    *,
    seed: int = 0,
    iterations: int = 150,
    scale: float | None = None,
) -> np.ndarray:
    """Fruchterman-Reingold positions of ``n`` nodes, shape (n, 2), in pixels.

    Parameters
    ----------
    n : int
        Number of nodes.
    weights : ndarray of shape (n, n), optional
        Symmetric non-negative attraction weights (0 = no spring). Without weights the nodes are
        only repelled from each other, which spreads them evenly.
    seed : int
        Seeds the starting positions; the result is deterministic.
    iterations : int
        Number of cooling steps.
    scale : float, optional
        Half-width of the drawing in pixels; default grows with ``sqrt(n)`` so that node spacing
        stays about the same whatever the size.

    Notes
    -----
    Forces: repulsion ``k^2 / d`` between every pair, attraction ``w d^2 / k`` along springs,
    with ``k = sqrt(1 / n)``; displacement capped by a temperature that cools linearly
    (Fruchterman & Reingold, Software: Practice and Experience 21:1129-1164, 1991).
    """
    if n <= 0:
        return np.zeros((0, 2))
    scale = float(scale if scale is not None else 70.0 * math.sqrt(n) + 60.0)
    if n == 1:
        return np.zeros((1, 2))
    rng = np.random.default_rng(seed)
    angle = 2 * np.pi * np.arange(n) / n
    pos = np.c_[np.cos(angle), np.sin(angle)] * 0.5 + rng.uniform(-0.05, 0.05, (n, 2))
    w = np.zeros((n, n)) if weights is None else np.asarray(weights, dtype=float)
    k = math.sqrt(1.0 / n)
    t = 0.1
    dt = t / (iterations + 1)
    for _ in range(iterations):
        delta = pos[:, None, :] - pos[None, :, :]
        dist = np.sqrt((delta**2).sum(axis=-1))
        np.clip(dist, 0.01, None, out=dist)
        force = k * k / dist**2 - w * dist / k
        np.fill_diagonal(force, 0.0)
        disp = (delta * force[:, :, None]).sum(axis=1)
        length = np.sqrt((disp**2).sum(axis=1))
        np.clip(length, 0.01, None, out=length)
        pos += disp * (np.minimum(length, t) / length)[:, None]
        t -= dt
    pos -= pos.mean(axis=0)
    # turn the longest direction horizontal and stretch the other one so that chain-like graphs
    # fill the (wide) drawing area instead of a diagonal strip
    _, _, vt = np.linalg.svd(pos, full_matrices=False)
    pos = pos @ vt.T
    for axis, share in ((0, 1.0), (1, 0.75)):
        extent = np.abs(pos[:, axis]).max()
        if extent > 0:
            pos[:, axis] *= share * scale / extent
    return pos


def data_layout(values: np.ndarray, *, n_neighbors: int = 2, seed: int = 0) -> np.ndarray:
    """Positions for the variables of a data set: strongly correlated variables sit close.

    Each variable gets a spring to its ``n_neighbors`` most correlated variables (weight
    ``|corr|``), then :func:`spring_layout`. Computed once per data set; the drawing keeps these
    positions at every step, so only edges change when the search moves.

    Parameters
    ----------
    values : ndarray of shape (n_samples, n_vars)
    """
    x = np.nan_to_num(np.asarray(values, dtype=float))
    n = x.shape[1]
    if n < 3 or x.shape[0] < 3:
        return spring_layout(n, seed=seed)
    sd = x.std(axis=0)
    sd[sd == 0] = 1.0
    z = (x - x.mean(axis=0)) / sd
    corr = np.abs(z.T @ z) / x.shape[0]
    np.fill_diagonal(corr, 0.0)
    keep = np.zeros_like(corr, dtype=bool)
    m = min(n_neighbors, n - 1)
    top = np.argpartition(-corr, m - 1, axis=1)[:, :m]
    keep[np.repeat(np.arange(n), m), top.ravel()] = True
    keep |= keep.T
    pos = spring_layout(n, keep.astype(float), seed=seed)
    return separate(pos)


def separate(pos: np.ndarray, min_dist: float = 85.0, iterations: int = 60) -> np.ndarray:
    """Push apart nodes closer than ``min_dist`` pixels (labels are boxes, not points)."""
    pos = np.array(pos, dtype=float)
    n = pos.shape[0]
    if n < 2:
        return pos
    for _ in range(iterations):
        delta = pos[:, None, :] - pos[None, :, :]
        dist = np.sqrt((delta**2).sum(axis=-1))
        np.fill_diagonal(dist, 2.0 * min_dist)
        close = dist < min_dist
        if not close.any():
            break
        dist = np.where(dist == 0, 1e-3, dist)
        push = np.where(close, (min_dist - dist) / (2 * dist), 0.0)
        pos += (delta * push[:, :, None]).sum(axis=1)
    return pos


def complete_positions(
    names: Sequence[str],
    base: Mapping[str, tuple[float, float]],
    edges: Iterable[tuple[str, str]] = (),
) -> dict[str, tuple[float, float]]:
    """Positions for every name: ``base`` where known; others (e.g. hidden variables added by the
    search) at the centre of their neighbours, or on a ring outside the drawing."""
    out = {n: (float(base[n][0]), float(base[n][1])) for n in names if n in base}
    todo = [n for n in names if n not in out]
    if not todo:
        return out
    nbrs: dict[str, list[str]] = {n: [] for n in todo}
    for p, c in edges:
        if p in nbrs and c in out:
            nbrs[p].append(c)
        if c in nbrs and p in out:
            nbrs[c].append(p)
    pts = np.array(list(out.values())) if out else np.zeros((1, 2))
    radius = float(np.abs(pts).max(initial=100.0)) * 1.15 + 40.0
    for j, n in enumerate(todo):
        if nbrs[n]:
            xy = _free_spot(np.mean([out[m] for m in nbrs[n]], axis=0), np.array(list(out.values())))
        else:
            a = 2 * np.pi * j / len(todo)
            xy = np.array([radius * math.cos(a), radius * math.sin(a)])
        out[n] = (float(xy[0]), float(xy[1]))
    return out


def _free_spot(centre: np.ndarray, taken: np.ndarray, gap: float = 75.0) -> np.ndarray:
    """The point nearest ``centre`` (on rings of 8 directions) at least ``gap`` from every taken
    point, so a hidden node placed among its children does not cover one of them."""
    for r in (0.0, *np.arange(1, 12) * 0.5 * gap):
        for a in np.arange(8) * (np.pi / 4) - np.pi / 2:
            xy = centre + r * np.array([math.cos(a), math.sin(a)])
            if not taken.size or np.min(np.hypot(*(taken - xy).T)) >= gap:
                return xy
            if r == 0.0:
                break
    return centre + np.array([gap, -gap])


# ------------------------------------------------------------------------------------ networks
def _label(name: str) -> str:
    return str(name).replace("</", "<\u200b/")


def _render(net: Network, legend: list[tuple[str, bool, str]] | None) -> str:
    """HTML of ``net`` with the vis-network script inlined and the unreachable CDN tags removed."""
    net.templateEnv = _pyvis_env()
    text = net.generate_html(notebook=False)
    text = _CDN_TAG.sub("", text)
    text = _EMPTY_HEADING.sub("", text)
    # fit the whole graph in view once drawn (positions are fixed, physics is off)
    text = text.replace(
        "</body>",
        "<script>if (typeof network !== 'undefined') { network.fit({animation: false}); }</script></body>",
        1,
    )
    if legend:
        items = "".join(
            f'<span style="margin-right:14px;white-space:nowrap">'
            f'<span style="display:inline-block;width:26px;height:0;vertical-align:middle;'
            f'border-top:3px {"dashed" if dashed else "solid"} {color};margin-right:5px"></span>'
            f"{html.escape(text_)}</span>"
            for color, dashed, text_ in legend
        )
        box = f'<div id="ipe-legend" style="font:12px sans-serif;color:#343a40;padding:4px 2px 6px 2px">{items}</div>'
        text = text.replace("<body>", "<body>" + box, 1)
    return text


def _new_network(height: int) -> Network:
    net = Network(
        height=f"{height}px",
        width="100%",
        directed=True,
        cdn_resources="in_line",
        bgcolor="#ffffff",
    )
    net.toggle_physics(False)
    net.set_options(
        json.dumps(
            {
                "physics": {"enabled": False},
                "interaction": {"hover": True, "dragNodes": True, "zoomView": True},
                "edges": {
                    "smooth": {"enabled": True, "type": "curvedCW", "roundness": 0.12},
                    "arrows": {"to": {"enabled": True, "scaleFactor": 0.6}},
                },
                "nodes": {"font": {"size": 14, "face": "sans-serif"}},
            }
        )
    )
    return net


def _edge_width(weight: float | None) -> float:
    if weight is None or not math.isfinite(weight):
        return 1.5
    return 1.0 + 5.0 * min(abs(weight), 1.0)


def search_network_html(
    names: Sequence[str],
    edges: Iterable[tuple[int, int, float]],
    positions: Mapping[str, tuple[float, float]],
    *,
    last_move: Move | None = None,
    hidden: Iterable[str] = (),
    height: int = 560,
) -> str:
    """The current network as self-contained HTML (pyvis, JavaScript inlined).

    Parameters
    ----------
    names : sequence of str
        Variable names by index (hidden variables included).
    edges : iterable of (parent index, child index, weight)
        The current edges and their fitted coefficients; edge width grows with ``|weight|``.
    positions : mapping name -> (x, y)
        Fixed positions (see :func:`data_layout`); missing names are placed by
        :func:`complete_positions`. Physics is off, so nodes stay where they are between steps.
    last_move : Move, optional
        Highlighted in orange: the added (or reversed, or replacing) edge and its endpoints; the
        edge the move removed is drawn as a dashed red ghost.
    hidden : iterable of str
        Names of hidden variables, drawn as diamonds.
    """
    edges = list(edges)
    hidden = set(hidden)
    name_edges = [(names[p], names[c]) for p, c, _ in edges]
    pos = complete_positions(names, positions, name_edges)
    touched: set[int] = set()
    new_edge: tuple[int, int] | None = None
    ghost: tuple[int, int] | None = None
    if last_move is not None:
        touched = {last_move.parent, last_move.child}
        op = last_move.op
        if op == Operator.ADD:
            new_edge = (last_move.parent, last_move.child)
        elif op == Operator.DELETE:
            ghost = (last_move.parent, last_move.child)
        elif op == Operator.REVERSE:
            new_edge = (last_move.child, last_move.parent)
        else:
            new_edge = (last_move.parent, last_move.child)
            ghost = (last_move.removed, last_move.child)
            touched.add(last_move.removed)
    net = _new_network(height)
    for i, name in enumerate(names):
        x, y = pos[name]
        is_hidden = name in hidden
        hot = i in touched
        color = {
            "background": COLORS["node_last"] if hot else COLORS["hidden" if is_hidden else "node"],
            "border": COLORS["node_last_border"] if hot else COLORS["hidden_border" if is_hidden else "node_border"],
        }
        net.add_node(
            i,
            label=_label(name),
            x=float(x),
            y=float(y),
            physics=False,
            color=color,
            shape="diamond" if is_hidden else "box",
            size=18 if is_hidden else 25,
            borderWidth=3 if hot else 1,
            title=f"{name} (hidden variable)" if is_hidden else str(name),
        )
    for p, c, w in edges:
        is_new = new_edge == (p, c)
        net.add_edge(
            p,
            c,
            width=_edge_width(w) + (1.5 if is_new else 0.0),
            color=COLORS["last"] if is_new else COLORS["edge"],
            title=f"{names[p]} → {names[c]}, weight {w:+.3f}" if w is not None else None,
        )
    if ghost is not None:
        gp, gc = ghost
        net.add_edge(
            gp,
            gc,
            width=2,
            color=COLORS["removed"],
            dashes=True,
            title=f"{names[gp]} → {names[gc]} removed by the last move",
        )
    legend = None
    if last_move is not None:
        legend = [
            (
                COLORS["last"],
                False,
                f"last move: {last_move.op.name.lower()} {last_move.edge_label(names)}",
            )
        ]
        if ghost is not None:
            legend.append((COLORS["removed"], True, "edge removed by the last move"))
    return _render(net, legend)


def truth_network_html(
    names: Sequence[str],
    status: Mapping[tuple[str, str], str],
    positions: Mapping[str, tuple[float, float]],
    *,
    weights: Mapping[tuple[str, str], float] | None = None,
    hidden: Iterable[str] = (),
    height: int = 560,
) -> str:
    """The learned network with the true network overlaid, with a legend.

    Parameters
    ----------
    names : sequence of str
        Variables to draw.
    status : mapping (parent, child) -> status
        ``"correct"``, ``"reversed"``, ``"extra"`` (learned edges, in their learned direction) or
        ``"missing"`` (true edges not learned), e.g. ``EdgeComparison.status()``.
    positions : mapping name -> (x, y)
        Fixed positions, as on the Search page.
    weights : mapping (parent, child) -> weight, optional
        Learned coefficients (edge width).
    """
    hidden = set(hidden)
    index = {n: i for i, n in enumerate(names)}
    pos = complete_positions(names, positions, list(status))
    net = _new_network(height)
    for i, name in enumerate(names):
        x, y = pos[name]
        is_hidden = name in hidden
        net.add_node(
            i,
            label=_label(name),
            x=float(x),
            y=float(y),
            physics=False,
            color={
                "background": COLORS["hidden" if is_hidden else "node"],
                "border": COLORS["hidden_border" if is_hidden else "node_border"],
            },
            shape="diamond" if is_hidden else "box",
            title=str(name),
        )
    weights = weights or {}
    for (p, c), st in status.items():
        if p not in index or c not in index:
            continue
        color, dashed, _ = TRUTH_STYLES[st]
        w = weights.get((p, c))
        net.add_edge(
            index[p],
            index[c],
            color=color,
            dashes=dashed,
            width=1.5 if st == "missing" else _edge_width(w),
            title=f"{p} → {c}: {st}" + (f", weight {w:+.3f}" if w is not None else ""),
        )
    shown = set(status.values())
    legend = [(c, dashed, text) for key, (c, dashed, text) in TRUTH_STYLES.items() if key != "hidden" or key in shown]
    return _render(net, legend)


# ------------------------------------------------------------------------------- plotly / tables
def score_trace_figure(traces: Mapping[str, Sequence[tuple[int, float]]], *, height: int = 300) -> go.Figure:
    """BIC (nats) after each step, one line per search.

    ``traces`` maps a label to (step, BIC) pairs, e.g. ``{"ideal": [...], "greedy": [...]}``. The
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
        yaxis_title="BIC (nats)",
        title={"text": "Score trace", "x": 0},
        # below the axis: above the plot a two-row legend (narrow windows) covered the curve
        legend={"orientation": "h", "y": -0.3, "x": 0, "yanchor": "top"},
    )
    if sum(1 for t in traces.values() if t) > 1:
        fig.update_layout(height=height + 40, margin={"l": 10, "r": 10, "t": 30, "b": 50})
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


def compare_logs(main: Sequence[Mapping], twin: Sequence[Mapping]) -> tuple[pd.DataFrame, pd.DataFrame, list[int]]:
    """Two move logs aligned by step, and the steps where the searches chose different moves.

    A step differs when only one search took it, or when the two moves differ in operator or
    edge (records carry a ``key`` = (operator, parent, child, removed) for this).
    """
    n = max(len(main), len(twin))
    differ = []
    for i in range(n):
        a = main[i]["key"] if i < len(main) else None
        b = twin[i]["key"] if i < len(twin) else None
        if a != b:
            differ.append(i + 1)
    return move_log_frame(main), move_log_frame(twin), differ


def highlight_steps(frame: pd.DataFrame, steps: Iterable[int], color: str = "#fff3bf"):
    """A pandas Styler of ``frame`` (indexed by step) with the rows of ``steps`` shaded."""
    marked = set(steps)

    def shade(row: pd.Series) -> list[str]:
        style = f"background-color: {color}" if row.name in marked else ""
        return [style] * len(row)

    # "–" where a move has no such value (C1/C2/rank of Delete and Reverse), not "None"
    return frame.style.apply(shade, axis=1).format({"exact gain": "{:.2f}", "exact ΔBIC": "{:.2f}"}, na_rep="–")
