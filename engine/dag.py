"""A directed acyclic graph with an incrementally maintained reachability matrix.

Acyclicity is what makes a structure move legal (JMLR 2007 section 2, Algorithm 1): adding
``z -> x`` is legal unless ``x`` already reaches ``z``. The matrix ``reach[a, b]`` (a path of length
>= 1 from a to b) answers that for every candidate at once. After an addition it is updated with
one outer product; after a deletion only the rows of the ancestors of the edge's tail can change,
and they are recomputed child-first (descendants before ancestors).
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from .exceptions import CycleError

__all__ = ["DAG"]


class DAG:
    """Adjacency (``adj[p, c]`` is the edge p -> c) plus reachability, over ``n_vars`` nodes."""

    def __init__(self, n_vars: int, edges: Iterable[tuple[int, int]] = ()) -> None:
        self.n_vars = n_vars
        self.adj = np.zeros((n_vars, n_vars), dtype=bool)
        self.reach = np.zeros((n_vars, n_vars), dtype=bool)
        for p, c in edges:
            if not self.can_add(p, c):
                raise CycleError(f"edge {p} -> {c} would create a directed cycle.")
            self.add_edge(p, c)

    def copy(self) -> DAG:
        """An independent copy."""
        new = DAG.__new__(DAG)
        new.n_vars = self.n_vars
        new.adj = self.adj.copy()
        new.reach = self.reach.copy()
        return new

    # ---------------------------------------------------------------- queries
    def parents(self, child: int) -> tuple[int, ...]:
        """Sorted parents of ``child``."""
        return tuple(int(i) for i in np.flatnonzero(self.adj[:, child]))

    def children(self, node: int) -> tuple[int, ...]:
        """Sorted children of ``node``."""
        return tuple(int(i) for i in np.flatnonzero(self.adj[node]))

    def edges(self) -> list[tuple[int, int]]:
        """All edges (parent, child), sorted by child then parent."""
        c, p = np.nonzero(self.adj.T)
        return [(int(a), int(b)) for a, b in zip(p, c, strict=True)]

    @property
    def n_edges(self) -> int:
        return int(self.adj.sum())

    def has_edge(self, parent: int, child: int) -> bool:
        return bool(self.adj[parent, child])

    def can_add(self, parent: int, child: int) -> bool:
        """Whether adding parent -> child keeps the graph acyclic (and the edge is new)."""
        return parent != child and not self.adj[parent, child] and not self.reach[child, parent]

    def add_mask(self) -> np.ndarray:
        """``mask[c, z]``: adding z -> c is acyclic and new. Shape (N, N), indexed [child, parent]."""
        mask = ~self.reach & ~self.adj.T
        np.fill_diagonal(mask, False)
        return mask

    def reversal_mask(self, parents: np.ndarray, children: np.ndarray) -> np.ndarray:
        """For edges parents[e] -> children[e]: whether reversing each keeps the graph acyclic.

        Reversing u -> c is legal iff no other directed path leads from u to c, i.e. no child w != c
        of u has w == c or w reaches c.
        """
        if len(parents) == 0:
            return np.zeros(0, dtype=bool)
        targets = self.reach[:, children].T.copy()  # (E, N): w reaches c
        targets[np.arange(len(children)), children] = True  # w == c counts when w != the edge itself
        out_edges = self.adj[parents].copy()  # (E, N): children of u
        out_edges[np.arange(len(children)), children] = False  # without the edge being reversed
        return ~np.any(out_edges & targets, axis=1)

    # -------------------------------------------------------------- mutation
    def add_edge(self, parent: int, child: int) -> None:
        """Add parent -> child; the caller has checked :meth:`can_add`."""
        if not self.can_add(parent, child):
            raise CycleError(f"edge {parent} -> {child} would create a cycle or already exists.")
        self.adj[parent, child] = True
        src = self.reach[:, parent].copy()
        src[parent] = True
        dst = self.reach[child].copy()
        dst[child] = True
        self.reach |= np.outer(src, dst)

    def remove_edge(self, parent: int, child: int) -> None:
        """Remove parent -> child and repair the reachability of the parent's ancestors."""
        if not self.adj[parent, child]:
            raise CycleError(f"there is no edge {parent} -> {child} to remove.")
        self.adj[parent, child] = False
        affected = np.flatnonzero(self.reach[:, parent])
        affected = np.append(affected, parent)
        # descendants first: in a DAG an ancestor reaches strictly more nodes than its descendants
        order = affected[np.argsort(self.reach[affected].sum(axis=1), kind="stable")]
        for a in order:
            kids = np.flatnonzero(self.adj[a])
            row = self.adj[a].copy()
            if kids.size:
                row |= self.reach[kids].any(axis=0)
            self.reach[a] = row

    def reverse_edge(self, parent: int, child: int) -> None:
        """Turn parent -> child into child -> parent."""
        self.remove_edge(parent, child)
        try:
            self.add_edge(child, parent)
        except CycleError:
            self.add_edge(parent, child)
            raise

    def check_reach(self) -> bool:
        """Recompute reachability from scratch and compare (for tests)."""
        closure = self.adj.copy()
        for _ in range(int(np.ceil(np.log2(max(self.n_vars, 2)))) + 1):
            closure = closure | ((closure.astype(np.float64) @ closure.astype(np.float64)) > 0)
        return bool(np.array_equal(closure, self.reach))
