"""The Confidence page's drawing and tables: edges by bootstrap confidence. No Streamlit here.

* :func:`confidence_network_html`: every pair with strength >= the threshold, in its dominant
  direction, with width and opacity growing with the strength; edges of the averaged network solid,
  the others (above the threshold but left out to avoid a cycle, or at exactly the threshold)
  dashed; hover shows strength and direction.
  Above :data:`~explorer.subnetwork.SUBNETWORK_THRESHOLD` variables only a sub-network is drawn.
* :func:`edges_table` and :func:`regulators_table`: the tables shown and exported as CSV;
  :func:`search_frame` their search box.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence

import pandas as pd

from engine.bootstrap import BootstrapResult, EdgeStrength
from explorer.graph_layout import complete_positions
from explorer.network_view import COLORS, _label, _new_network, _node_style, _render

__all__ = [
    "confidence_network_html",
    "edges_table",
    "regulators_table",
    "edge_style",
    "search_frame",
    "duration",
    "first_replicate_note",
]

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
    shown: Collection[int] | None = None,
    focus: Collection[int] = (),
) -> str:
    """Edges with strength >= ``threshold`` as self-contained HTML (pyvis, JavaScript inlined).

    ``shown``: the indices of the variables to draw (a sub-network of a large network, see
    :mod:`explorer.subnetwork`; default all), edges drawn when both ends are shown; ``focus``: the
    variables to mark (searched genes), drawn with a thick border; the drawing opens on the whole
    graph, as the Search page's does.
    """
    keep = list(range(len(names))) if shown is None else sorted({int(i) for i in shown})
    index = {names[i]: i for i in keep}
    drawn = [e for e in edges if e.strength >= threshold and e.parent in index and e.child in index]
    in_avg = {(e.parent, e.child) for e in averaged}
    pos = complete_positions([names[i] for i in keep], positions, [(e.parent, e.child) for e in drawn])
    focus = [int(i) for i in focus if int(i) in set(keep)]
    net = _new_network(height)
    for i in keep:
        name = names[i]
        x, y = pos[name]
        net.add_node(
            i,
            label=_label(name),
            x=float(x),
            y=float(y),
            physics=False,
            title=str(name),
            **_node_style(False, False, i in focus),
        )
    for e in sorted(drawn, key=lambda e: e.strength):  # strongest drawn last, on top
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


def search_frame(frame: pd.DataFrame, query: str, columns: Sequence[str] | None = None) -> pd.DataFrame:
    """The rows of ``frame`` where some of ``columns`` (default all) contains ``query``, ignoring case."""
    q = str(query or "").strip().lower()
    if not q or frame.empty:
        return frame
    cols = list(columns) if columns is not None else list(frame.columns)
    hit = frame[cols].astype(str).apply(lambda col: col.str.lower().str.contains(q, regex=False)).any(axis=1)
    return frame[hit]


def duration(seconds: float) -> str:
    """``42 s``, ``3 min 5 s`` or ``1 h 12 min``."""
    s = int(round(max(seconds, 0.0)))
    if s < 60:
        return f"{s} s"
    if s < 3600:
        return f"{s // 60} min {s % 60} s"
    return f"{s // 3600} h {(s % 3600) // 60} min"


def first_replicate_note(n_vars: int, *, hidden: bool, search_s: float | None, moves: int | None = None) -> str:
    """What a replicate costs, said while none has finished (the estimate of the time left needs
    one): a whole search of ``n_vars`` variables, as long as the Search page's (``search_s``, its
    search time, when it has searched), then structural EM when ``hidden`` regulators are on.
    ``moves``: the Search page's moves when it has not converged (its time is then only a part of a
    whole search: "took 279 ms" after 30 moves of 6,132 genes promised a quick replicate, QA walk)."""
    from explorer.text import duration as precise

    took = ""
    if search_s and moves:
        took = (
            f" (the Search page's {moves:,} moves so far took {precise(search_s)}; a replicate goes on to convergence)"
        )
    elif search_s:
        took = f" (the Search page's search of these data took {precise(search_s)})"
    em = ", then hidden regulators by structural EM, which takes several times longer" if hidden else ""
    return (
        f"Each replicate is a whole search of the {n_vars:,} variables on resampled rows{took}{em}. "
        "The time left is estimated once the first replicate finishes."
    )


def edges_table(
    result: BootstrapResult, threshold: float, averaged: Sequence[EdgeStrength] | None = None
) -> pd.DataFrame:
    """Every pair seen, strongest first, with whether it is in the averaged network at ``threshold``
    (``averaged``: that network, when the caller has it already)."""
    frame = result.edges_frame()
    avg = {(e.parent, e.child) for e in (result.averaged_at(threshold) if averaged is None else averaged)}
    frame["averaged"] = [(p, c) in avg for p, c in zip(frame["parent"], frame["child"], strict=True)]
    return frame


def regulators_table(result: BootstrapResult, known: Mapping[str, str] | None = None) -> pd.DataFrame:
    """One row per hidden regulator: support, replicates, core children and every child's frequency;
    with ``known`` (regulator -> its best known gene set in words) a "top known set" column."""
    columns = ["regulator", "support", "replicates", "core children", "children (frequency)"]
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
        if known is not None:
            rows[-1]["top known set"] = known.get(r.name, "")
    return pd.DataFrame(rows, columns=columns + (["top known set"] if known is not None else []))
