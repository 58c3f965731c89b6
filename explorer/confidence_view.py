"""The Confidence page's drawing and tables: edges by bootstrap confidence. No Streamlit here.

* :func:`confidence_network_html`: every pair with strength >= the threshold, in its dominant
  direction, with width and opacity growing with the strength; edges of the averaged network solid,
  the others (above the threshold but left out to avoid a cycle, or at exactly the threshold)
  dashed; hover shows strength and direction.
* :func:`edges_table` and :func:`regulators_table`: the tables shown and exported as CSV.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import pandas as pd

from engine.bootstrap import BootstrapResult, EdgeStrength
from explorer.graph_layout import complete_positions
from explorer.network_view import COLORS, _label, _new_network, _node_colour, _render

__all__ = ["confidence_network_html", "edges_table", "regulators_table", "edge_style"]

_RGB = (92, 124, 250)  # COLORS["edge"], #5c7cfa


def edge_style(strength: float) -> tuple[float, str]:
    """Width and rgba colour of an edge of the given strength (both grow with it)."""
    alpha = 0.15 + 0.85 * min(max(strength, 0.0), 1.0)
    return 0.5 + 5.5 * strength, f"rgba({_RGB[0]},{_RGB[1]},{_RGB[2]},{alpha:.2f})"


def confidence_network_html(
    names: Sequence[str],
    edges: Sequence[EdgeStrength],
    averaged: Sequence[EdgeStrength],
    positions: Mapping[str, tuple[float, float]],
    *,
    threshold: float,
    height: int = 560,
) -> str:
    """Edges with strength >= ``threshold`` as self-contained HTML (pyvis, JavaScript inlined)."""
    index = {n: i for i, n in enumerate(names)}
    shown = [e for e in edges if e.strength >= threshold and e.parent in index and e.child in index]
    in_avg = {(e.parent, e.child) for e in averaged}
    pos = complete_positions(names, positions, [(e.parent, e.child) for e in shown])
    net = _new_network(height)
    for i, name in enumerate(names):
        x, y = pos[name]
        net.add_node(
            i,
            label=_label(name),
            x=float(x),
            y=float(y),
            physics=False,
            color=_node_colour(False),
            shape="box",
            title=str(name),
        )
    for e in sorted(shown, key=lambda e: e.strength):  # strongest drawn last, on top
        width, colour = edge_style(e.strength)
        averaged_edge = (e.parent, e.child) in in_avg
        net.add_edge(
            index[e.parent],
            index[e.child],
            width=width,
            color=colour,
            dashes=not averaged_edge,
            title=f"{e.parent} → {e.child}: strength {e.strength:.2f}, direction {e.direction:.2f}"
            + ("" if averaged_edge else " (not in the averaged network)"),
        )
    legend = [
        (COLORS["edge"], False, "in the averaged network (width and opacity: strength)"),
        (COLORS["edge"], True, "strength at least the slider's, not in the averaged network"),
    ]
    return _render(net, legend)


def edges_table(result: BootstrapResult, threshold: float) -> pd.DataFrame:
    """Every pair seen, strongest first, with whether it is in the averaged network at ``threshold``."""
    frame = result.edges_frame()
    avg = {(e.parent, e.child) for e in result.averaged_at(threshold)}
    frame["averaged"] = [(p, c) in avg for p, c in zip(frame["parent"], frame["child"], strict=True)]
    return frame


def regulators_table(result: BootstrapResult) -> pd.DataFrame:
    """One row per hidden regulator: support, replicates, core children and every child's frequency."""
    rows = []
    for r in result.regulators or []:
        rows.append(
            {
                "regulator": r.name,
                "support": r.support,
                "replicates": len(r.replicates),
                "core children": ", ".join(r.core),
                "children (frequency)": ", ".join(f"{c} ({f:.2f})" for c, f in r.children.items()),
            }
        )
    return pd.DataFrame(rows, columns=["regulator", "support", "replicates", "core children", "children (frequency)"])
