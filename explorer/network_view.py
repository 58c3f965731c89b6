"""The network drawings of the Search and Truth pages: self-contained pyvis HTML.

* :func:`search_network_html`: the current network, the last move highlighted, edge width by
  ``|weight|``, hidden variables as diamonds;
* :func:`truth_network_html`: the learned network with the true one overlaid (correct / reversed /
  extra / missing edges).

Node positions are fixed (:mod:`explorer.graph_layout`); physics is off. The vis-network script
is inlined, since the CDN may be unreachable. At every size the drawing opens at a zoom where
every node and its label are inside the frame (the ``focus`` nodes drawn with a thick border),
hovering or clicking a node
keeps it and its neighbours in colour and greys out the rest, and a button shows it full screen.
Both drawings take ``shown``, the variables to draw (a sub-network of a large network, see
:mod:`explorer.subnetwork`); edges are drawn when both ends are shown. No Streamlit here.
"""

from __future__ import annotations

import html
import json
import math
import re
from collections.abc import Collection, Iterable, Mapping, Sequence

from jinja2 import Environment
from pyvis.network import Network

from engine.search import Move, Operator
from explorer.graph_layout import complete_positions
from explorer.plot_style import HIDDEN_COLOUR
from explorer.vis_script import FULLSCREEN_BUTTON, SCRIPT, ZOOM_HINT

__all__ = ["search_network_html", "truth_network_html", "COLORS", "TRUTH_STYLES", "FIT_SCALE", "FONT_SIZE"]

#: label size (canvas pixels), and the zoom below which the drawing, which always opens on the
#: whole graph (issue 24), shows a hint to zoom in: labels under FONT_SIZE * FIT_SCALE = 9 screen
#: pixels. :mod:`explorer.graph_layout` spaces nodes so that a 60-node neighbourhood fits the
#: Search page's frame at 1280 px near that zoom.
FONT_SIZE = 15
FIT_SCALE = 0.6
#: right padding of the legend (px): room for the "Full screen" button (about 95 px wide, at 8 px
#: from the right edge), which covered the end of a one-line legend
LEGEND_CLEARANCE = 115

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
    "hidden_border": HIDDEN_COLOUR,
    "focus": "#c2255c",
    "regulator": "#d3f9d8",
    "regulator_border": "#2b8a3e",
}
#: legend entry of the candidate regulators (a node, not an edge: its ``dashed`` is "node")
REGULATOR_LEGEND = (COLORS["regulator_border"], "node", "candidate regulator (from the regulator list)")

#: Style of each edge status in the truth overlay: (colour, dashed, legend text).
TRUTH_STYLES: dict[str, tuple[str, bool, str]] = {
    "correct": ("#2f9e44", False, "correct (learned, true, same direction)"),
    "reversed": ("#f08c00", False, "reversed (true edge learned the other way round)"),
    "extra": ("#e03131", False, "extra (learned, not in the true network)"),
    "missing": ("#868e96", True, "missing (true edge not learned)"),
    "hidden": (HIDDEN_COLOUR, False, "edge of a hidden variable (not scored)"),
}

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


# ------------------------------------------------------------------------------------ networks
def _label(name: str) -> str:
    return str(name).replace("</", "<\u200b/")


def _render(net: Network, legend: list[tuple[str, bool, str]] | None) -> str:
    """HTML of ``net`` with the vis-network script inlined and the unreachable CDN tags removed."""
    net.templateEnv = _pyvis_env()
    text = net.generate_html(notebook=False)
    text = _CDN_TAG.sub("", text)
    text = _EMPTY_HEADING.sub("", text)
    # open on the whole graph, highlight neighbours on hover/click, full-screen button, zoom hint
    script = SCRIPT.replace("__FIT_SCALE__", str(FIT_SCALE))
    text = text.replace("</body>", f"<script>{script}</script></body>", 1)
    text = text.replace("<body>", "<body>" + FULLSCREEN_BUTTON + ZOOM_HINT, 1)
    line = "width:26px;height:0;border-top:3px {} {}"  # an edge's style; a node's is a filled ellipse
    node = f"width:20px;height:11px;border-radius:7px;background:{COLORS['regulator']};border:2px solid {{}}"
    items = "".join(
        f'<span style="margin-right:14px;white-space:nowrap">'
        f'<span style="display:inline-block;vertical-align:middle;margin-right:5px;'
        f'{node.format(color) if dashed == "node" else line.format("dashed" if dashed else "solid", color)}">'
        f"</span>{html.escape(text_)}</span>"
        for color, dashed, text_ in legend or ()
    )
    # the legend bar is there even when empty: the "Full screen" button at the top right sits on it,
    # never on the drawing (it covered a node in the top right corner); its right padding keeps a
    # one-line legend clear of the button
    box = (
        f'<div id="ipe-legend" style="font:12px sans-serif;color:#343a40;min-height:16px;'
        f'padding:4px {LEGEND_CLEARANCE}px 6px 2px">{items or "&nbsp;"}</div>'
    )
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
                "nodes": {
                    "font": {"size": FONT_SIZE, "face": "sans-serif", "strokeWidth": 3, "strokeColor": "#ffffff"}
                },
            }
        )
    )
    return net


def _node_colour(is_hidden: bool, hot: bool = False) -> dict[str, str]:
    """Fill and border of a node: orange when the last move touched it, violet when hidden."""
    if hot:
        return {"background": COLORS["node_last"], "border": COLORS["node_last_border"]}
    if is_hidden:
        return {"background": COLORS["hidden"], "border": COLORS["hidden_border"]}
    return {"background": COLORS["node"], "border": COLORS["node_border"]}


def _node_style(is_hidden: bool, hot: bool = False, focus: bool = False) -> dict:
    """Shape, size and colours of a node: a box with its label; a hidden variable a large violet
    diamond with a bold label; a thick border on the last move's ends and on searched genes."""
    style: dict = {"color": _node_colour(is_hidden, hot), "borderWidth": 3 if hot or focus else 1}
    if is_hidden:
        style.update(
            shape="diamond",
            size=34,
            borderWidth=4,
            font={"size": FONT_SIZE + 3, "bold": True, "color": COLORS["hidden_border"]},
            shadow=True,
        )
    else:
        style["shape"] = "box"
    if focus and not hot:
        style["color"] = {**style["color"], "border": COLORS["focus"]}
    return style


def _as_regulator(style: dict, hot: bool = False) -> dict:
    """A candidate regulator's node: a green ellipse (the last move's orange fill kept)."""
    fill = style["color"]["background"] if hot else COLORS["regulator"]
    return {
        **style,
        "shape": "ellipse",
        "color": {**style["color"], "background": fill, "border": COLORS["regulator_border"]},
    }


def _edge_width(weight: float | None) -> float:
    if weight is None or not math.isfinite(weight):
        return 1.5
    return 1.0 + 5.0 * min(abs(weight), 1.0)


def _shown(names: Sequence[str], shown: Collection[int] | None) -> list[int]:
    return list(range(len(names))) if shown is None else sorted({int(i) for i in shown})


def search_network_html(
    names: Sequence[str],
    edges: Iterable[tuple[int, int, float]],
    positions: Mapping[str, tuple[float, float]],
    *,
    last_move: Move | None = None,
    hidden: Iterable[str] = (),
    height: int = 560,
    shown: Collection[int] | None = None,
    focus: Collection[int] = (),
    regulators: Iterable[str] = (),
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
        Names of hidden variables, drawn as large diamonds.
    shown : collection of int, optional
        Indices of the variables to draw (default: all); edges between them are drawn.
    focus : collection of int
        Variables to mark (e.g. a searched gene), drawn with a thick border.
    regulators : iterable of str
        The candidate regulators (the only variables that may be parents): green ellipses, in the legend.
    """
    keep = _shown(names, shown)
    regulators = set(regulators)
    inside = set(keep)
    edges = [(p, c, w) for p, c, w in edges if p in inside and c in inside]
    hidden = set(hidden)
    name_edges = [(names[p], names[c]) for p, c, _ in edges]
    pos = complete_positions([names[i] for i in keep], positions, name_edges)
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
    focus = [int(i) for i in focus if int(i) in inside]
    # children of hidden variables: a violet border, and violet edges from their regulator
    regulated = {c for p, c, _ in edges if names[p] in hidden}
    net = _new_network(height)
    for i in keep:
        name = names[i]
        x, y = pos[name]
        is_hidden = name in hidden
        style = _node_style(is_hidden, i in touched, i in focus)
        if i in regulated and not is_hidden and i not in touched:
            style["color"] = {**style["color"], "border": COLORS["hidden_border"]}
            style["borderWidth"] = 3
        if name in regulators and not is_hidden:
            style = _as_regulator(style, i in touched)
        net.add_node(
            i,
            label=_label(name),
            x=float(x),
            y=float(y),
            physics=False,
            title=f"{name} (hidden variable)"
            if is_hidden
            else (f"{name} (child of a hidden variable)" if i in regulated else str(name)),
            **style,
        )
    for p, c, w in edges:
        is_new = new_edge == (p, c)
        net.add_edge(
            p,
            c,
            width=_edge_width(w) + (1.5 if is_new else 0.0),
            color=COLORS["last"] if is_new else (COLORS["hidden_border"] if names[p] in hidden else COLORS["edge"]),
            title=f"{names[p]} → {names[c]}, weight {w:+.3f}" if w is not None else None,
        )
    if ghost is not None and ghost[0] in inside and ghost[1] in inside:
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
    if any(names[i] in regulators for i in keep):
        legend = [*(legend or []), REGULATOR_LEGEND]
    return _render(net, legend)


def truth_network_html(
    names: Sequence[str],
    status: Mapping[tuple[str, str], str],
    positions: Mapping[str, tuple[float, float]],
    *,
    weights: Mapping[tuple[str, str], float] | None = None,
    hidden: Iterable[str] = (),
    height: int = 560,
    shown: Collection[int] | None = None,
    focus: Collection[int] = (),
    regulators: Iterable[str] = (),
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
    shown, focus, regulators
        As for :func:`search_network_html`.
    """
    hidden, regulators = set(hidden), set(regulators)
    keep = _shown(names, shown)
    index = {names[i]: i for i in keep}
    status = {(p, c): st for (p, c), st in status.items() if p in index and c in index}
    pos = complete_positions([names[i] for i in keep], positions, list(status))
    focus = [int(i) for i in focus if names[int(i)] in index]
    net = _new_network(height)
    for i in keep:
        name = names[i]
        x, y = pos[name]
        is_hidden = name in hidden
        style = _node_style(is_hidden, focus=i in focus)
        net.add_node(
            i,
            label=_label(name),
            x=float(x),
            y=float(y),
            physics=False,
            title=f"{name} (candidate regulator)" if name in regulators else str(name),
            **(_as_regulator(style) if name in regulators and not is_hidden else style),
        )
    weights = weights or {}
    for (p, c), st in status.items():
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
    shown_status = set(status.values())
    legend = [
        (c, dashed, text) for key, (c, dashed, text) in TRUTH_STYLES.items() if key != "hidden" or key in shown_status
    ]
    legend += [REGULATOR_LEGEND] if any(names[i] in regulators for i in keep) else []
    return _render(net, legend)
