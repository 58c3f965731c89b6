"""Which part of a large network the drawings show: a readable sub-network.

A drawing of more than :data:`SUBNETWORK_THRESHOLD` variables is neither readable nor cheap to lay
out (a force layout costs O(N^2) per iteration). Above that size the Search and Truth pages draw
at most ``max_nodes`` variables, chosen in one of three ways (:data:`MODES`):

* ``"last moves"``: the variables the most recent moves touched (newest first), then their
  neighbours;
* ``"around genes"``: the k-hop neighbourhood of variables the user searched for (breadth first,
  nearest first);
* ``"most connected"``: the variables with the most edges.

Everything here is pure Python over edge lists (O(edges + shown), never N x N); the caption of a
:class:`SubNetwork` says what is shown out of how many. No Streamlit here.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from engine.listing import first_few
from engine.search import Move, Operator

__all__ = [
    "SUBNETWORK_THRESHOLD",
    "DEFAULT_MAX_NODES",
    "MODES",
    "SubNetwork",
    "adjacency",
    "neighbourhood",
    "most_connected",
    "recent_nodes",
    "select_subnetwork",
    "find_names",
]

#: above this many variables the drawings show a sub-network instead of the whole network
SUBNETWORK_THRESHOLD = 150
#: how many variables a sub-network shows by default
DEFAULT_MAX_NODES = 60
#: how a sub-network is chosen
MODES = ("last moves", "around genes", "most connected")


@dataclass(frozen=True)
class SubNetwork:
    """The variables a drawing shows, and in words what they are."""

    #: indices of the variables shown
    nodes: tuple[int, ...]
    #: number of variables in the whole network
    n_total: int
    #: edges between shown variables, and in the whole network
    n_edges_shown: int
    n_edges_total: int
    #: what is shown, e.g. "the 2-hop neighbourhood of GAL4"
    description: str
    #: whether the choice was cut at the node limit
    truncated: bool = False

    def caption(self) -> str:
        """One sentence: what is shown out of how many."""
        cut = " (cut at the node limit: raise it or narrow the choice to see more)" if self.truncated else ""
        return (
            f"Showing {len(self.nodes):,} of {self.n_total:,} variables — {self.description}{cut} — and "
            f"the {self.n_edges_shown:,} of {self.n_edges_total:,} edges between them."
        )


def adjacency(n: int, edges: Iterable[tuple[int, int]]) -> list[set[int]]:
    """Neighbours of each of ``n`` variables, ignoring edge direction."""
    nbrs: list[set[int]] = [set() for _ in range(n)]
    for p, c in edges:
        nbrs[p].add(c)
        nbrs[c].add(p)
    return nbrs


def neighbourhood(
    nbrs: Sequence[set[int]], centres: Sequence[int], hops: int, max_nodes: int
) -> tuple[list[int], bool]:
    """The variables within ``hops`` edges of ``centres`` (breadth first, so nearest first), at
    most ``max_nodes`` of them; and whether the limit cut the neighbourhood."""
    seen = list(dict.fromkeys(centres))[:max_nodes]
    kept = set(seen)
    frontier = list(seen)
    truncated = len(dict.fromkeys(centres)) > max_nodes
    for _ in range(hops):
        nxt = []
        for v in frontier:
            for u in sorted(nbrs[v]):
                if u in kept:
                    continue
                if len(seen) >= max_nodes:
                    return seen, True
                kept.add(u)
                seen.append(u)
                nxt.append(u)
        frontier = nxt
    return seen, truncated


def most_connected(nbrs: Sequence[set[int]], max_nodes: int) -> list[int]:
    """The ``max_nodes`` variables with the most neighbours (ties in index order)."""
    order = sorted(range(len(nbrs)), key=lambda v: (-len(nbrs[v]), v))
    return order[:max_nodes]


def _touched(move: Move) -> list[int]:
    out = [move.parent, move.child]
    if move.op == Operator.REPLACE and move.removed >= 0:
        out.append(move.removed)
    return out


def recent_nodes(nbrs: Sequence[set[int]], history: Sequence[Move], max_nodes: int) -> tuple[list[int], bool]:
    """Variables the most recent moves touched (newest first), then their current neighbours, at
    most ``max_nodes``; and whether the limit cut them."""
    touched = list(dict.fromkeys(v for move in reversed(history) for v in _touched(move)))
    return neighbourhood(nbrs, touched, 1, max_nodes)


def select_subnetwork(
    names: Sequence[str],
    edges: Iterable[tuple[int, int]],
    *,
    mode: str = "last moves",
    centres: Sequence[int] = (),
    hops: int = 1,
    max_nodes: int = DEFAULT_MAX_NODES,
    history: Sequence[Move] = (),
    hidden: Sequence[int] = (),
) -> SubNetwork:
    """The sub-network to draw (see the module docstring for the modes).

    ``"around genes"`` without centres, and ``"last moves"`` before any move, fall back to the most
    connected variables, and the description says so; ``"last moves"`` with no move since hidden
    variables (indices ``hidden``) were accepted shows them and their neighbours instead (the most
    connected variables hid H's children).
    """
    if mode not in MODES:
        raise ValueError(f"mode {mode!r} is not one of {', '.join(MODES)}")
    edges = [(int(p), int(c)) for p, c in edges]
    n = len(names)
    max_nodes = max(1, int(max_nodes))
    nbrs = adjacency(n, edges)
    truncated = False
    if mode == "around genes" and centres:
        nodes, truncated = neighbourhood(nbrs, list(centres), max(0, int(hops)), max_nodes)
        description = f"the {hops}-hop neighbourhood of {first_few([names[c] for c in dict.fromkeys(centres)], 3)}"
    elif mode == "last moves" and history:
        nodes, truncated = recent_nodes(nbrs, history, max_nodes)
        description = "the variables the last moves touched, newest first, and their neighbours"
    elif mode == "last moves" and hidden:
        nodes, truncated = neighbourhood(nbrs, list(hidden), 1, max_nodes)
        which = ", ".join(str(names[h]) for h in hidden)
        one = len(hidden) == 1
        description = (
            f"the hidden variable{'' if one else 's'} {which} and {'its' if one else 'their'} neighbours "
            f"(no move since {'it was' if one else 'they were'} accepted)"
        )
    else:
        nodes = most_connected(nbrs, max_nodes)
        if not edges:
            description = "no edges yet, so the first variables in the table; search a gene to centre on it"
        else:
            description = "the most connected variables"
            if mode != "most connected":
                description += " (no gene chosen yet)" if mode == "around genes" else " (no move yet)"
    inside = set(nodes)
    shown_edges = sum(1 for p, c in edges if p in inside and c in inside)
    return SubNetwork(tuple(nodes), n, shown_edges, len(edges), description, truncated)


def find_names(names: Sequence[str], query: str, limit: int = 20) -> list[int]:
    """Indices of the names matching ``query`` (case-insensitive): exact matches first, then names
    that start with it, then names that contain it; at most ``limit``."""
    q = query.strip().lower()
    if not q:
        return []
    exact, start, inner = [], [], []
    for i, name in enumerate(names):
        low = str(name).lower()
        if low == q:
            exact.append(i)
        elif low.startswith(q):
            start.append(i)
        elif q in low:
            inner.append(i)
    return (exact + start + inner)[:limit]
