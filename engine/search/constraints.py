"""Structural constraints of a search: required and forbidden edges, the parent cap, the operators.

Which moves are *legal* in a state: the DAG must stay acyclic (checked through the reachability
matrix of :class:`~engine.dag.DAG`), required edges stay, forbidden edges never appear, no family
exceeds ``max_parents`` parents, only candidate regulators (when a list is given) become parents,
and only the allowed operators are used. A family also never gets more than M - 3 parents: it
needs two residual degrees of freedom beyond the intercept and its parents, or its ML variance
collapses to 0 and its likelihood to +inf (wide data); the score may cap it lower
(:meth:`engine.score.BIC.parent_cap`).
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from ..dag import DAG
from ..exceptions import CycleError, ParameterError
from .moves import Move, Operator

__all__ = ["Constraints"]


def effective_cap(scorer, max_parents: int | None) -> tuple[int, str]:
    """The parent cap a search uses, the user's ``max_parents`` or the score's own cap
    (``scorer.parent_cap()``), whichever is lower, and where it comes from, for messages."""
    cap = scorer.parent_cap()
    if max_parents is None or max_parents > cap:
        return cap, scorer.cap_reason()
    return int(max_parents), "the user's `max_parents`"


class Constraints:
    """Required / forbidden edges (index pairs), the effective parent cap and the operators.

    Parameters
    ----------
    n_vars, n_samples : int
        Variables of the search and instances of the data (the cap is at most ``n_samples - 3``).
    max_parents : int or None
        The user's bound on the parents of any variable.
    required, forbidden : iterable of (parent, child)
    operators : iterable of Operator
    regulators : array of int, optional
        The only variables that may be parents (a candidate-regulator list); default: all.
    cap_reason : str, optional
        Where the cap comes from (the user's ``max_parents`` or the score's own cap), for messages.
    """

    def __init__(
        self,
        n_vars: int,
        n_samples: int,
        *,
        max_parents: int | None = None,
        required: Iterable[tuple[int, int]] = (),
        forbidden: Iterable[tuple[int, int]] = (),
        operators: Iterable[Operator] = tuple(Operator),
        regulators: np.ndarray | None = None,
        cap_reason: str = "",
    ) -> None:
        n = n_vars
        self.cap_reason = cap_reason or "`max_parents`"
        self.n_vars = n
        self.max_parents = min(n if max_parents is None else int(max_parents), max(n_samples - 3, 0))
        self.operators = frozenset(Operator(o) for o in operators)
        self.required = np.zeros((n, n), dtype=bool)
        self.forbidden = np.zeros((n, n), dtype=bool)
        required = [(int(p), int(c)) for p, c in required]
        for name, pairs, arr in (("required", required, self.required), ("forbidden", forbidden, self.forbidden)):
            for p, c in pairs:
                if not (0 <= p < n and 0 <= c < n) or p == c:
                    raise ParameterError(f"`{name}` edge ({p}, {c}) is not a pair of distinct variables.")
                arr[p, c] = True
        #: the required edges as given (the True entries of ``required`` until :meth:`freeze`; None after it):
        #: read instead of an N x N scan when a stepper starts
        self._required_pairs: list[tuple[int, int]] | None = sorted(set(required))
        #: which variables may be parents (all, or the candidate regulators)
        self.may_parent = np.ones(n, dtype=bool)
        if regulators is not None:
            reg = np.asarray(regulators, dtype=np.intp)
            if reg.size and (reg.min() < 0 or reg.max() >= n):
                raise ParameterError("`regulators` holds an index outside the variables.")
            self.may_parent[:] = False
            self.may_parent[reg] = True
            # required edges from a non-regulator stay allowed: the user asked for them
            self.forbidden |= ~self.may_parent[:, None] & ~self.required
            np.fill_diagonal(self.forbidden, False)
        self._allowed_t: np.ndarray | None = None  # ~forbidden.T, contiguous per child (built on first use)
        self._no_child: np.ndarray | None = None  # variables that may be no one's parent (built on first use)
        self._free = not (self.required.any() or self.forbidden.any())  # no edge rules to look up
        clash = [(p, c) for p, c in self._required_pairs if self.forbidden[p, c]]
        if clash:
            p, c = clash[0]
            raise ParameterError(f"edge ({p}, {c}) is both required and forbidden.")

    def starting_dag(self, initial: Iterable[tuple[int, int]] = ()) -> DAG:
        """The starting graph: the required edges plus ``initial``, checked against the rules."""
        req = self._required_pairs
        req = [(int(p), int(c)) for p, c in np.argwhere(self.required)] if req is None else req
        edges = sorted(set(req) | {tuple(e) for e in initial})
        for p, c in edges:
            if self.forbidden[p, c]:
                raise ParameterError(f"initial edge ({p}, {c}) is forbidden.")
        dag = DAG(self.n_vars, edges)
        counts = dag.adj.sum(axis=0)
        if counts.max(initial=0) > self.max_parents:
            raise ParameterError(
                f"the starting graph gives a variable {int(counts.max())} parents; the cap is {self.max_parents}"
                f" ({self.cap_reason})."
            )
        return dag

    # ------------------------------------------------------------- legal moves
    def legal_masks(self, dag: DAG) -> tuple[np.ndarray, np.ndarray]:
        """Legal Add and Replace candidates of every family, ``[child, parent]``."""
        base = dag.add_mask() & ~self.forbidden.T
        n_par = dag.adj.sum(axis=0)
        legal_add = base & (n_par < self.max_parents)[:, None]
        if Operator.ADD not in self.operators:
            legal_add = np.zeros_like(base)
        legal_rep = base if Operator.REPLACE in self.operators else np.zeros_like(base)
        return legal_add, legal_rep

    def legal_rows(
        self, dag: DAG, child: int, parents: tuple[int, ...], cols: np.ndarray | None = None
    ) -> tuple[np.ndarray, np.ndarray]:
        """Legal Add and Replace candidates (new parents) of one family with ``parents``, from its
        reachability row (contiguous rows only: a column of an N x N matrix is N cache misses);
        with ``cols`` (sorted variable indices) only over those columns, in O(len(cols))."""
        if self._allowed_t is None:
            self._allowed_t = np.ascontiguousarray(~self.forbidden.T)
        if cols is None:
            base = ~dag.reach[child] & self._allowed_t[child]
            base[child] = False
            if parents:
                base[list(parents)] = False
        else:
            base = ~dag.reach[child, cols] & self._allowed_t[child, cols]
            if cols.size:
                own = np.array((child, *parents), dtype=np.intp)
                at = np.minimum(np.searchsorted(cols, own), cols.size - 1)
                base[at[cols[at] == own]] = False
        full = len(parents) >= self.max_parents
        legal_add = base if (Operator.ADD in self.operators and not full) else np.zeros_like(base)
        legal_rep = base if Operator.REPLACE in self.operators else np.zeros_like(base)
        return legal_add, legal_rep

    def legal_rows_many(
        self, dag: DAG, children: np.ndarray, parents: list[tuple[int, ...]], cols: np.ndarray | None = None
    ) -> tuple[np.ndarray, np.ndarray]:
        """:meth:`legal_rows` of several families at once, (F, C) masks whose row f is that of
        ``children[f]`` with ``parents[f]`` (the same booleans, in a few gathers instead of F calls)."""
        if self._allowed_t is None:
            self._allowed_t = np.ascontiguousarray(~self.forbidden.T)
        children = np.asarray(children, dtype=np.intp)
        if cols is None:
            base = ~dag.reach[children] & self._allowed_t[children]
        else:
            base = ~dag.reach[np.ix_(children, cols)] & self._allowed_t[np.ix_(children, cols)]
        sizes = np.fromiter((len(p) for p in parents), dtype=np.intp, count=len(parents))
        rows = np.repeat(np.arange(children.size), sizes + 1)
        pairs = zip(children.tolist(), parents, strict=True)
        own = np.fromiter((v for c, p in pairs for v in (c, *p)), dtype=np.intp, count=rows.size)
        if cols is None:
            base[rows, own] = False
        elif cols.size:
            at = np.minimum(np.searchsorted(cols, own), cols.size - 1)
            hit = cols[at] == own
            base[rows[hit], at[hit]] = False
        legal_add = base.copy() if Operator.ADD in self.operators else np.zeros_like(base)
        legal_add[sizes >= self.max_parents] = False
        legal_rep = base if Operator.REPLACE in self.operators else np.zeros_like(base)
        return legal_add, legal_rep

    def freeze(self, cols: np.ndarray, adj: np.ndarray) -> None:
        """Keep the families of variables ``cols`` as they are in the adjacency matrix ``adj``:
        their parents become required and every other parent forbidden (FindHidden's Markov-blanket
        stage, :func:`engine.hidden.marginal.freeze_families`). The derived lookups (the transposed
        allowed mask, the no-rules shortcut) are rebuilt."""
        cols = np.asarray(cols, dtype=np.intp)
        self.required[:, cols] |= adj[:, cols]
        self._required_pairs = None
        self.forbidden[:, cols] |= ~adj[:, cols]
        self.forbidden[cols, cols] = False
        self._allowed_t = self._no_child = None
        self._free = not (self.required.any() or self.forbidden.any())

    def replaceable(self, child: int, parents: tuple[int, ...]) -> np.ndarray:
        """Which current parents may be replaced or deleted (not required), as a bool array."""
        if self._free:
            return np.ones(len(parents), dtype=bool)
        return np.array([not self.required[u, child] for u in parents], dtype=bool)

    def replace_rows(self, child: int, parents: tuple[int, ...], legal_rep: np.ndarray) -> np.ndarray:
        """(k, C) legal replacements of each current parent (rows of required parents are empty),
        over the columns of ``legal_rep``."""
        rep_legal = np.zeros((len(parents), legal_rep.shape[-1]), dtype=bool)
        if parents:
            rep_legal[self.replaceable(child, parents)] = legal_rep
        return rep_legal

    def reversible(self, dag: DAG, n_par: np.ndarray, us: np.ndarray, cs: np.ndarray) -> np.ndarray:
        """Which edges u -> c may be reversed: no cycle, not required, c -> u not forbidden, and u
        below its parent cap. Per-variable tests first (O(E) gathers from N-vectors: with a
        regulator list most children may be no one's parent), then the pairs' rules and the
        acyclicity test on the edges left (with a regulator list, edges between listed regulators)."""
        ok = n_par[us] < self.max_parents
        if self._free:
            idx = np.flatnonzero(ok)
        else:
            if self._no_child is None:  # forbidden as the parent of every other variable
                n_forbidden = np.count_nonzero(self.forbidden, axis=1) - self.forbidden.diagonal()
                self._no_child = n_forbidden >= self.n_vars - 1
            ok &= ~self._no_child[cs]
            idx = np.flatnonzero(ok)
            idx = idx[~self.required[us[idx], cs[idx]] & ~self.forbidden[cs[idx], us[idx]]]
            ok[:] = False
            ok[idx] = True
        ok[idx] = dag.reversal_mask(us[idx], cs[idx])
        return ok

    def check_move(self, dag: DAG, move: Move) -> None:
        """Raise :class:`CycleError` unless ``move`` is legal in ``dag``."""
        p, c = move.parent, move.child
        n_par = int(dag.adj[:, c].sum())
        if move.op == Operator.ADD:
            ok = dag.can_add(p, c) and not self.forbidden[p, c] and n_par < self.max_parents
        elif move.op == Operator.DELETE:
            ok = dag.has_edge(p, c) and not self.required[p, c]
        elif move.op == Operator.REVERSE:
            ok = (
                dag.has_edge(p, c)
                and not self.required[p, c]
                and not self.forbidden[c, p]
                and bool(dag.reversal_mask(np.array([p]), np.array([c]))[0])
                and int(dag.adj[:, p].sum()) < self.max_parents
            )
        else:
            ok = (
                dag.has_edge(move.removed, c)
                and not self.required[move.removed, c]
                and p != c
                and not dag.has_edge(p, c)
                and not dag.reach[c, p]
                and not self.forbidden[p, c]
            )
        if not ok:
            raise CycleError(f"move {move.op.name} {move.edge_label()} is not legal in the current graph.")

    def random_move(self, dag: DAG, n_par: np.ndarray, rng: np.random.Generator) -> Move | None:
        """A random legal Add, Delete or Reverse (thesis Algorithm 2's random restart), or None
        when the kind drawn has no legal move."""
        kinds = [Operator.ADD]
        if dag.n_edges:
            kinds += [Operator.DELETE, Operator.REVERSE]
        op = kinds[int(rng.integers(len(kinds)))]
        if op == Operator.ADD:
            legal = dag.add_mask() & ~self.forbidden.T & (n_par < self.max_parents)[:, None]
            cand = np.argwhere(legal)
            if not cand.size:
                return None
            c, p = cand[int(rng.integers(len(cand)))]
            return Move(Operator.ADD, int(p), int(c), random=True)
        us, cs = dag.edge_array()
        ok = self.reversible(dag, n_par, us, cs) if op == Operator.REVERSE else ~self.required[us, cs]
        if not ok.any():
            return None
        j = int(rng.choice(np.flatnonzero(ok)))
        return Move(op, int(us[j]), int(cs[j]), random=True)
