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
        # edge list kept alongside the matrix so that per-edge work never scans N x N
        self._src = np.zeros(0, dtype=np.intp)
        self._dst = np.zeros(0, dtype=np.intp)
        #: bumped by every change of the edges (keys caches of derived views)
        self.version = 0
        self._sorted: tuple | None = None  # (version, src, dst, ptr[, inner dst, inner ptr])
        edges = [(int(p), int(c)) for p, c in edges]
        if edges and self._build(np.array([e[0] for e in edges]), np.array([e[1] for e in edges])):
            return
        for p, c in edges:  # one at a time: names the edge that closes a cycle
            if not self.can_add(p, c):
                raise CycleError(f"edge {p} -> {c} would create a directed cycle.")
            self.add_edge(p, c)

    def _build(self, src: np.ndarray, dst: np.ndarray) -> bool:
        """All edges of an empty graph at once: acyclicity by Kahn's levels, then each node's
        reachability row from its children's, children first (cost O(N^2 / 8 + E N / 8) against one
        outer-product update per edge). Returns False, changing nothing, on a self-loop, a repeated
        edge or a cycle (the caller then adds the edges one by one and names the offending one)."""
        n = self.n_vars
        adj = np.zeros((n, n), dtype=bool)
        adj[src, dst] = True
        if (src == dst).any() or int(adj.sum()) != src.size:
            return False
        indeg = adj.sum(axis=0)
        done = np.zeros(n, dtype=bool)
        levels = []
        frontier = np.flatnonzero(indeg == 0)
        while frontier.size:
            done[frontier] = True
            levels.append(frontier)
            indeg = indeg - adj[frontier].sum(axis=0)
            frontier = np.flatnonzero((indeg == 0) & ~done)
        if not done.all():
            return False
        reach = self.reach
        for level in reversed(levels):
            for v in level[adj[level].any(axis=1)]:
                reach[v] = adj[v] | reach[np.flatnonzero(adj[v])].any(axis=0)
        self.adj = adj
        self._src, self._dst = src.astype(np.intp), dst.astype(np.intp)
        self.version = int(src.size)
        return True

    def copy(self) -> DAG:
        """An independent copy."""
        new = DAG.__new__(DAG)
        new.n_vars = self.n_vars
        new.adj = self.adj.copy()
        new.reach = self.reach.copy()
        new._src = self._src.copy()
        new._dst = self._dst.copy()
        new.version = 0
        new._sorted = None
        return new

    # ---------------------------------------------------------------- queries
    def parents(self, child: int) -> tuple[int, ...]:
        """Sorted parents of ``child``."""
        return tuple(int(i) for i in np.flatnonzero(self.adj[:, child]))

    def all_parents(self) -> list[tuple[int, ...]]:
        """Sorted parents of every node (:meth:`parents` for all, from the edge list: no N x N scan)."""
        out: list[list[int]] = [[] for _ in range(self.n_vars)]
        order = np.lexsort((self._src, self._dst))
        for p, c in zip(self._src[order].tolist(), self._dst[order].tolist(), strict=True):
            out[c].append(p)
        return [tuple(x) for x in out]

    def children(self, node: int) -> tuple[int, ...]:
        """Sorted children of ``node``."""
        return tuple(int(i) for i in np.flatnonzero(self.adj[node]))

    def edges(self) -> list[tuple[int, int]]:
        """All edges (parent, child), sorted by child then parent."""
        order = np.lexsort((self._src, self._dst))
        return [(int(a), int(b)) for a, b in zip(self._src[order], self._dst[order], strict=True)]

    def _by_source(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Edges sorted by source then target, and the CSR pointer of each source's run; computed
        once per change of the edges."""
        if self._sorted is None or self._sorted[0] != self.version:
            order = np.lexsort((self._dst, self._src))
            src, dst = self._src[order], self._dst[order]
            ptr = np.searchsorted(src, np.arange(self.n_vars + 1))
            for arr in (src, dst, ptr):
                arr.flags.writeable = False
            self._sorted = (self.version, src, dst, ptr)
        return self._sorted[1], self._sorted[2], self._sorted[3]

    def _inner_by_source(self) -> tuple[np.ndarray, np.ndarray]:
        """The edges into nodes that have children themselves, as (targets, CSR pointer by
        source); cached with :meth:`_by_source`."""
        src, dst, ptr = self._by_source()
        if len(self._sorted) == 4:
            inner = np.diff(ptr)[dst] > 0
            self._sorted = (*self._sorted, dst[inner], np.searchsorted(src[inner], np.arange(self.n_vars + 1)))
        return self._sorted[4], self._sorted[5]

    def edge_array(self) -> tuple[np.ndarray, np.ndarray]:
        """All edges as (sources, targets) arrays sorted by source then target (read-only views,
        cached until the edges change)."""
        src, dst, _ = self._by_source()
        return src, dst

    @property
    def n_edges(self) -> int:
        return int(self._src.size)

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

    def edge_pairs(self) -> tuple[np.ndarray, np.ndarray]:
        """All edges as (sources, targets) in the order they were added: no sort (read-only views).
        For per-move filters over every edge; :meth:`edge_array` when the order matters."""
        src, dst = self._src.view(), self._dst.view()
        src.flags.writeable = dst.flags.writeable = False
        return src, dst

    def reversal_mask(self, parents: np.ndarray, children: np.ndarray) -> np.ndarray:
        """For edges parents[e] -> children[e]: whether reversing each keeps the graph acyclic.

        Reversing u -> c is legal iff no other directed path leads from u to c, i.e. no child
        w != c of u has w reaches c. Cost O(sum of the tails' out-degrees), not O(E N); when the
        edges sorted by source are not at hand for this graph (it changed since), only the edges
        out of the tails asked about are gathered and sorted, O(E) with no sort of every edge
        (a search asks about the few edges its constraints leave reversible after every move).
        """
        parents = np.asarray(parents, dtype=np.intp)
        children = np.asarray(children, dtype=np.intp)
        if parents.size == 0:
            return np.zeros(0, dtype=bool)
        # only children w that have children of their own can reach c: the leaves are left out
        if self._sorted is not None and self._sorted[0] == self.version:
            dst, ptr = self._inner_by_source()
        else:
            tails = np.zeros(self.n_vars, dtype=bool)
            tails[parents] = True
            inner = np.bincount(self._src, minlength=self.n_vars) > 0
            sel = tails[self._src] & inner[self._dst]
            order = np.argsort(self._src[sel], kind="stable")
            src, dst = self._src[sel][order], self._dst[sel][order]
            ptr = np.searchsorted(src, np.arange(self.n_vars + 1))
        start, stop = ptr[parents], ptr[parents + 1]
        counts = stop - start
        edge_of = np.repeat(np.arange(parents.size), counts)
        offsets = np.arange(counts.sum()) - np.repeat(np.cumsum(counts) - counts, counts)
        ws = dst[np.repeat(start, counts) + offsets]  # the other non-leaf children w of each tail u
        cs = children[edge_of]
        blocking = (ws != cs) & self.reach[ws, cs]
        return ~np.bincount(edge_of[blocking], minlength=parents.size).astype(bool)

    # -------------------------------------------------------------- mutation
    def add_edge(self, parent: int, child: int) -> np.ndarray:
        """Add parent -> child. Returns the nodes whose reachability row grew (the parent and
        its ancestors that did not already reach the child)."""
        if not self.can_add(parent, child):
            raise CycleError(f"edge {parent} -> {child} would create a cycle or already exists.")
        self.adj[parent, child] = True
        self.version += 1
        self._src = np.append(self._src, parent)
        self._dst = np.append(self._dst, child)
        src = self.reach[:, parent].copy()
        src[parent] = True
        rows = np.flatnonzero(src)
        dst = self.reach[child].copy()
        dst[child] = True
        cols = np.flatnonzero(dst)
        grew = rows[~self.reach[rows[:, None], cols].all(axis=1)]
        self.reach[grew[:, None], cols] = True
        return grew

    def remove_edge(self, parent: int, child: int) -> np.ndarray:
        """Remove parent -> child and repair the reachability of the parent's ancestors.

        Returns the nodes whose reachability row shrank."""
        if not self.adj[parent, child]:
            raise CycleError(f"there is no edge {parent} -> {child} to remove.")
        self.adj[parent, child] = False
        self.version += 1
        keep = ~((self._src == parent) & (self._dst == child))
        self._src, self._dst = self._src[keep], self._dst[keep]
        affected = np.flatnonzero(self.reach[:, parent])
        affected = np.append(affected, parent)
        # descendants first: in a DAG an ancestor reaches strictly more nodes than its descendants
        order = affected[np.argsort(self.reach[affected].sum(axis=1), kind="stable")]
        changed = []
        inner = np.bincount(self._src, minlength=self.n_vars) > 0  # a leaf's reach row is empty: skipped
        for a in order:
            kids = np.flatnonzero(self.adj[a])
            kids = kids[inner[kids]]  # a regulator's hundreds of children are mostly leaves
            row = self.adj[a].copy()
            if kids.size:
                row |= self.reach[kids].any(axis=0)
            if not np.array_equal(row, self.reach[a]):
                changed.append(a)
                self.reach[a] = row
        return np.array(sorted(changed), dtype=np.intp)

    def reverse_edge(self, parent: int, child: int) -> tuple[np.ndarray, np.ndarray]:
        """Turn parent -> child into child -> parent. Returns (rows shrunk, rows grown)."""
        shrunk = self.remove_edge(parent, child)
        try:
            grew = self.add_edge(child, parent)
        except CycleError:
            self.add_edge(parent, child)
            raise
        return shrunk, grew

    def check_reach(self) -> bool:
        """Recompute reachability from scratch and compare (for tests)."""
        closure = self.adj.copy()
        for _ in range(int(np.ceil(np.log2(max(self.n_vars, 2)))) + 1):
            closure = closure | ((closure.astype(np.float64) @ closure.astype(np.float64)) > 0)
        return bool(np.array_equal(closure, self.reach))
