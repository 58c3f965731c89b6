"""The Reverse operator's exact changes, cached per edge (JMLR 2007 Algorithm 1).

Reversing u -> c deletes u from c's family and adds c to u's; both parts are scored exactly
(Reverse is never ranked by C1/C2) and, with decomposable scores, the change is the sum of the
two families' changes. The value of an edge stays valid until either family changes, so the
cache is invalidated per variable after each move. Above :data:`DENSE_VARS` variables the cache is
sparse (sorted edge keys, O(E) memory); below, an N x N table (at most 32 MB) answers with one
gather. The legal reversals are found once per change of the graph.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from .moves import Move, Operator

if TYPE_CHECKING:
    from .stepper import Stepper

__all__ = ["ReversalCache", "DENSE_VARS"]

#: the cache is a dense N x N table up to this many variables, sorted sparse keys above
DENSE_VARS = 2048


class ReversalCache:
    """Exact log-likelihood changes of reversing edges ``parent -> child`` (NaN = unknown), kept
    as sorted keys ``parent * N + child`` with their values."""

    def __init__(self, n_vars: int) -> None:
        self.n_vars = n_vars
        self._keys = np.zeros(0, dtype=np.int64)
        self._vals = np.zeros(0)
        #: up to DENSE_VARS variables, an N x N table (one gather per lookup; 32 MB at N = 2048)
        self._table = np.full((n_vars, n_vars), np.nan) if n_vars <= DENSE_VARS else None
        self._legal: tuple | None = None  # ((dag version, id, n_par bytes), us, cs) of the legal reversals
        self._touched: set[int] = set()  # families changed since the legal reversals were found
        self._legal_dag = None  # the graph they were found on
        #: the legal reversals' cached changes as looked up by :meth:`pending` for a graph state,
        #: whose missing ones joined that step's batch of exact fits: (state key, changes)
        self._pending: tuple | None = None

    def _find(self, us: np.ndarray, cs: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Keys of the edges, their positions in the sorted keys, and whether each is stored."""
        q = us.astype(np.int64) * self.n_vars + cs
        idx = np.searchsorted(self._keys, q)
        if not self._keys.size:
            return q, idx, np.zeros(q.size, dtype=bool)
        return q, idx, self._keys[np.minimum(idx, self._keys.size - 1)] == q

    def lookup(self, us: np.ndarray, cs: np.ndarray) -> np.ndarray:
        """Cached changes of reversing ``us[e] -> cs[e]`` (NaN where unknown)."""
        if self._table is not None:
            return self._table[us, cs]
        _, idx, found = self._find(us, cs)
        out = np.full(us.size, np.nan)
        out[found] = self._vals[idx[found]]
        return out

    def store(self, us: np.ndarray, cs: np.ndarray, values: np.ndarray) -> None:
        """Remember the changes of reversing ``us[e] -> cs[e]``."""
        self._pending = None
        if self._table is not None:
            self._table[us, cs] = values
            return
        q, idx, found = self._find(us, cs)
        self._vals[idx[found]] = values[found]  # known edges: overwrite in place
        new = ~found
        if new.any():  # the others: insert at their sorted positions
            order = np.argsort(q[new], kind="stable")
            q_new, v_new = q[new][order], np.asarray(values, dtype=float)[new][order]
            pos = np.searchsorted(self._keys, q_new)
            self._keys = np.insert(self._keys, pos, q_new)
            self._vals = np.insert(self._vals, pos, v_new)

    def invalidate(self, node: int) -> None:
        """Forget every reversal touching ``node``'s family (called for every family a move changes)."""
        self._pending = None
        self._touched.add(int(node))
        if self._table is not None:
            self._table[node, :] = np.nan
            self._table[:, node] = np.nan
        elif self._keys.size:
            keep = (self._keys // self.n_vars != node) & (self._keys % self.n_vars != node)
            self._keys, self._vals = self._keys[keep], self._vals[keep]

    def legal(self, stepper: Stepper) -> tuple[np.ndarray, np.ndarray]:
        """The edges that may be reversed now (computed once per state of the graph).

        When every family changed since the last answer (:meth:`invalidate`) belongs to a variable
        with no children, only the edges into those variables are tested again: a path through a
        changed edge ends at such a variable, so no other edge's acyclicity test, tail's parent
        count or rule changed (with a regulator list, most moves give a non-regulator a parent)."""
        dag = stepper.dag
        key = (dag.version, id(dag), stepper.n_par.tobytes())
        if self._legal is not None and self._legal[0] == key:
            return self._legal[1], self._legal[2]
        touched = np.array(sorted(self._touched), dtype=np.intp)
        self._touched = set()
        prev = self._legal
        if prev is not None and self._legal_dag is dag and not dag.adj[touched].any():
            keep = ~np.isin(prev[2], touched)
            new_cs = np.repeat(touched, stepper.n_par[touched])
            new_us = np.array([u for t in touched.tolist() for u in stepper.parents(t)], dtype=np.intp)
            us, cs = np.concatenate([prev[1][keep], new_us]), np.concatenate([prev[2][keep], new_cs])
            ok = np.ones(us.size, dtype=bool)
            ok[keep.sum() :] = stepper.constraints.reversible(dag, stepper.n_par, new_us, new_cs)
        else:
            us, cs = dag.edge_pairs()  # unsorted: every edge is filtered, the few legal ones sorted
            ok = stepper.constraints.reversible(dag, stepper.n_par, us, cs) if us.size else np.zeros(0, dtype=bool)
        us, cs = us[ok], cs[ok]
        order = np.lexsort((cs, us))  # by parent, then child, as dag.edge_array() lists them
        self._legal, self._legal_dag = (key, us[order], cs[order]), dag
        self._pending = None
        return self._legal[1], self._legal[2]

    def candidates(self, stepper: Stepper) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Legal reversals (parents, children) and their exact log-likelihood changes; the
        penalties of the two families' changes cancel for CPDs whose dimension grows by one per
        parent (see :meth:`Stepper.rev_penalty`)."""
        empty = np.zeros(0, dtype=np.intp)
        if Operator.REVERSE not in stepper.operators:
            return empty, empty, np.zeros(0)
        us, cs = self.legal(stepper)
        if us.size == 0:
            return empty, empty, np.zeros(0)
        pend = self._pending
        submitted = pend is not None and pend[0] is self._legal
        dll = pend[1].copy() if submitted else self.lookup(us, cs)
        todo = np.flatnonzero(np.isnan(dll))
        if todo.size:
            if not submitted:  # else pending() put their fits in the step's batch already
                stepper.ensure_exact(self._requests(stepper, us[todo], cs[todo]))
            for j in todo:  # only the edges whose family changed in the last move
                u, c = int(us[j]), int(cs[j])
                ec, eu = stepper.entry(c), stepper.entry(u)
                dll[j] = ec.del_dll[ec.parents.index(u)] + eu.add_exact[c]
            self.store(us[todo], cs[todo], dll[todo])
        return us, cs, dll

    @staticmethod
    def _requests(stepper: Stepper, us: np.ndarray, cs: np.ndarray) -> list:
        """Exact-scoring requests for reversing the edges u -> c: c added to each u's family."""
        groups: dict[int, list[int]] = {}
        for u, c in zip(us.tolist(), cs.tolist(), strict=True):
            groups.setdefault(u, []).append(c)
        return [("add", u, stepper.entry(u), -1, np.array(sorted(cc), dtype=np.intp)) for u, cc in groups.items()]

    def pending(self, stepper: Stepper) -> list:
        """Requests for the legal reversals whose change is not cached yet, so that they join the
        step's batch of exact fits."""
        if Operator.REVERSE not in stepper.operators:
            return []
        us, cs = self.legal(stepper)
        if us.size == 0:
            return []
        dll = self.lookup(us, cs)
        self._pending = (self._legal, dll)
        todo = np.isnan(dll)
        return self._requests(stepper, us[todo], cs[todo]) if todo.any() else []

    def best(self, stepper: Stepper) -> tuple[float, tuple, Move] | None:
        """The best legal reversal as (BIC change, tie-break key, move), or None."""
        us, cs, dll = self.candidates(stepper)
        if dll.size == 0:
            return None
        dbic = dll - stepper.rev_penalty(us, cs)
        top = dbic.max()
        near = np.flatnonzero(dbic >= top - 1e-9 * max(1.0, abs(top)))
        # tie-break key (REVERSE, child, parent): lowest child, then lowest parent
        j = near[np.lexsort((us[near], cs[near]))[0]]
        u, c, d, b = int(us[j]), int(cs[j]), float(dll[j]), float(dbic[j])
        return b, (Operator.REVERSE, c, u, -1), Move(Operator.REVERSE, u, c, delta_loglik=d, delta_bic=b)
