"""Greedy hill climbing over DAGs, one move at a time, with Ideal Parent candidate selection.

Implements JMLR 2007 Algorithm 1 (greedy hill climbing with Add / Delete / Reverse / Replace) and
Algorithm 2 (the same search with candidate ranking: Add and Replace candidates are ranked by C1 or
C2 against the family's ideal profiles and only the top K per family are scored exactly; Delete and
Reverse are always scored exactly). Both are one :class:`Stepper` with a different candidate
selector, so their trajectories can be compared move by move:

* ``method="greedy"``: every legal candidate is scored exactly.
* ``method="ideal"``: per family, the top ``k`` Add/Replace candidates by ``measure`` are scored
  exactly. ``queue="shared"`` is the paper's Algorithm 2 (one queue of K per family for Add and
  Replace together, their measures made comparable by measuring Replace against the current fit);
  ``queue="per_operator"`` keeps K for Add and K for each replaced parent's ideal profile
  (Definition 4.1 gives each its own profile).

Each step applies the best exactly-scored legal move (steepest ascent) if it improves the BIC by
more than ``tol``. Ties (within ``tol`` relative) are broken deterministically by operator (Add,
Delete, Reverse, Replace), then child index, parent index and replaced-parent index.

Decomposability: family statistics are cached per (child, parent set); after a move only the
touched families and the families whose set of legal candidates changed are re-ranked, and exact
scores already computed for a parent set are reused. ``undo()`` applies the inverse move and finds
everything it needs in that cache.

References
----------
.. [1] Elidan, Nachman, Friedman. "Ideal Parent" Structure Learning for Continuous Variable
   Bayesian Networks. JMLR 8:1799-1833, 2007. Algorithms 1 and 2, section 4.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from enum import IntEnum

import numpy as np

from ._validation import check_choice, check_scalar
from .cpd.base import FamilyModel, Parents
from .dag import DAG
from .exceptions import CycleError, ParameterError
from .score import BIC

__all__ = [
    "Operator",
    "Move",
    "CandidateTable",
    "StepResult",
    "SearchResult",
    "Stepper",
    "TERMINATION_MESSAGES",
]


class Operator(IntEnum):
    """Local structure operators (JMLR Algorithm 1)."""

    ADD = 0
    DELETE = 1
    REVERSE = 2
    REPLACE = 3


TERMINATION_MESSAGES = {
    0: "A move was applied.",
    1: "Converged: no legal move improves the score.",
    2: "Stopped after the requested number of steps.",
    -2: "Stopped by the callback.",
}


@dataclass(frozen=True)
class Move:
    """One structure change and what is known about it.

    ``ADD``: new edge parent -> child. ``DELETE``: remove parent -> child. ``REVERSE``: the edge
    parent -> child becomes child -> parent. ``REPLACE``: ``removed`` -> child is replaced by
    parent -> child. ``c1``/``c2`` are the ideal-parent estimates of the log-likelihood gain
    (nats; NaN for Delete and Reverse), ``delta_loglik``/``delta_bic`` the exact changes (NaN when
    not evaluated), ``rank`` the position (1 = best) of the candidate in its family's ranking by
    the search's measure (0 when not ranked). ``random`` marks the random moves of a restart
    (:meth:`Stepper.perturb`), which were not chosen by score.
    """

    op: Operator
    parent: int
    child: int
    removed: int = -1
    c1: float = math.nan
    c2: float = math.nan
    delta_loglik: float = math.nan
    delta_bic: float = math.nan
    rank: int = 0
    random: bool = False

    def edge_label(self, names: tuple[str, ...] | list[str] | None = None) -> str:
        """Human-readable edge, e.g. ``'A -> B'`` or ``'A -> B (replaces C)'``."""
        n = (lambda i: str(names[i])) if names is not None else str
        if self.op == Operator.REVERSE:
            return f"{n(self.parent)} -> {n(self.child)} becomes {n(self.child)} -> {n(self.parent)}"
        if self.op == Operator.REPLACE:
            return f"{n(self.parent)} -> {n(self.child)} (replaces {n(self.removed)})"
        return f"{n(self.parent)} -> {n(self.child)}"

    def to_dict(self, names=None) -> dict:
        """JSON-friendly description (names when given, else indices)."""
        n = (lambda i: str(names[i])) if names is not None else int
        out = {
            "op": self.op.name.lower(),
            "parent": n(self.parent),
            "child": n(self.child),
            "c1": _json_float(self.c1),
            "c2": _json_float(self.c2),
            "delta_loglik": _json_float(self.delta_loglik),
            "delta_bic": _json_float(self.delta_bic),
            "rank": self.rank,
        }
        if self.op == Operator.REPLACE:
            out["removed"] = n(self.removed)
        if self.random:
            out["random"] = True
        return out


def _json_float(x: float) -> float | None:
    return None if x is None or not math.isfinite(x) else float(x)


@dataclass
class CandidateTable:
    """All candidate moves of the current state, as parallel arrays (one row per move).

    ``selected`` marks the candidates the selector sent to exact scoring this step (all legal ones
    for greedy; Delete and Reverse always). ``delta_*`` are NaN where not (yet) evaluated.
    """

    op: np.ndarray
    parent: np.ndarray
    child: np.ndarray
    removed: np.ndarray
    c1: np.ndarray
    c2: np.ndarray
    delta_loglik: np.ndarray
    delta_bic: np.ndarray
    rank: np.ndarray
    selected: np.ndarray

    def __len__(self) -> int:
        return int(self.op.shape[0])

    def move(self, row: int) -> Move:
        """The :class:`Move` of one row."""
        return Move(
            Operator(int(self.op[row])),
            int(self.parent[row]),
            int(self.child[row]),
            int(self.removed[row]),
            float(self.c1[row]),
            float(self.c2[row]),
            float(self.delta_loglik[row]),
            float(self.delta_bic[row]),
            int(self.rank[row]),
        )

    def order(self) -> np.ndarray:
        """Row order: exactly scored moves by decreasing BIC change, then the rest by C2."""
        exact = np.where(np.isnan(self.delta_bic), -np.inf, self.delta_bic)
        est = np.where(np.isnan(self.c2), -np.inf, self.c2)
        return np.lexsort((self.removed, self.parent, self.child, self.op, -est, -exact))

    def to_records(self, names=None) -> list[dict]:
        """List of dicts (for tables and JSON)."""
        return [self.move(i).to_dict(names) | {"selected": bool(self.selected[i])} for i in self.order()]


class _Status:
    """SciPy-style ``message`` and ``success`` derived from ``status``."""

    status: int

    @property
    def message(self) -> str:
        return TERMINATION_MESSAGES[self.status]

    @property
    def success(self) -> bool:
        return self.status >= 0


@dataclass
class StepResult(_Status):
    """Outcome of one :meth:`Stepper.step` (SciPy-style status and message)."""

    move: Move | None
    score: float
    loglik: float
    n_iter: int
    n_exact: int
    n_ranked: int
    elapsed_s: float
    status: int
    n_candidates: int = 0


@dataclass
class SearchResult(_Status):
    """Outcome of :meth:`Stepper.run`."""

    edges: list[tuple[int, int]]
    score: float
    loglik: float
    n_iter: int
    n_exact: int
    n_ranked: int
    elapsed_s: float
    status: int
    history: list[Move] = field(default_factory=list)

    @property
    def converged(self) -> bool:
        return self.status == 1


class _Entry:
    """Cached ranking and exact gains of one family (child, parent set)."""

    __slots__ = ("parents", "add_c1", "add_c2", "add_exact", "rep_c1", "rep_c2", "rep_exact", "del_dll")

    def __init__(self, model: FamilyModel, child: int, parents: Parents) -> None:
        self.parents = parents
        self.add_c1, self.add_c2 = model.add_similarity(child, parents)
        self.rep_c1, self.rep_c2 = model.replace_similarity(child, parents)
        n = model.n_vars
        self.add_exact = np.full(n, np.nan)
        self.rep_exact = np.full((len(parents), n), np.nan)
        self.del_dll = model.delete_gains(child, parents)


class Stepper:
    """Greedy structure search that can be stepped, inspected and undone.

    Parameters
    ----------
    model : FamilyModel
        Fits, rankings and exact gains of the CPD family (e.g. LinearGaussianFamilies).
    method : {"ideal", "greedy"}
        Candidate selector (see the module docstring).
    k : int
        Candidates per family scored exactly by ``ideal``.
    measure : {"c2", "c1"}
        Ranking measure for ``ideal`` (the paper's experiments use C2).
    queue : {"shared", "per_operator"}
        How ``ideal`` splits K between Add and Replace.
    max_parents : int or None
        Upper bound on the parents of any variable.
    required, forbidden : iterable of (parent, child)
        Edges that must stay / may never appear. Required edges start in the graph.
    initial : iterable of (parent, child)
        Starting edges besides the required ones (default: the empty graph).
    operators : iterable of Operator
        Which operators the search may use (default: all four).
    tol : float
        A move must improve the BIC by more than ``tol * max(1, |score|)``.
    cache_size : int or None
        How many family entries (rankings and exact scores per parent set) to keep; the current
        families are never dropped. Default ``max(2 N, 2048)``.
    """

    def __init__(
        self,
        model: FamilyModel,
        *,
        method: str = "ideal",
        k: int = 2,
        measure: str = "c2",
        queue: str = "shared",
        max_parents: int | None = None,
        required: Iterable[tuple[int, int]] = (),
        forbidden: Iterable[tuple[int, int]] = (),
        initial: Iterable[tuple[int, int]] = (),
        operators: Iterable[Operator] = tuple(Operator),
        tol: float = 1e-9,
        cache_size: int | None = None,
    ) -> None:
        self.method = check_choice(method, "method", ("ideal", "greedy"))
        check_scalar(k, "k", int, min_val=1)
        self.k = int(k)
        self.measure = check_choice(measure, "measure", ("c2", "c1"))
        self.queue = check_choice(queue, "queue", ("shared", "per_operator"))
        check_scalar(max_parents, "max_parents", int, min_val=0, allow_none=True)
        check_scalar(tol, "tol", float, min_val=0.0)
        self.model = model
        n = model.n_vars
        self.n_vars = n
        # A family needs at least 2 residual degrees of freedom beyond the intercept and the
        # parents, or its ML variance collapses to 0 and the likelihood to +inf (wide data: more
        # variables than instances); so no family gets more than M - 3 parents.
        self.max_parents = min(n if max_parents is None else int(max_parents), max(model.n_samples - 3, 0))
        self.tol = float(tol)
        self.operators = frozenset(Operator(o) for o in operators)
        self.bic = BIC(model.n_samples)
        self.required = np.zeros((n, n), dtype=bool)
        self.forbidden = np.zeros((n, n), dtype=bool)
        for name, pairs, arr in (("required", required, self.required), ("forbidden", forbidden, self.forbidden)):
            for p, c in pairs:
                if not (0 <= p < n and 0 <= c < n) or p == c:
                    raise ParameterError(f"`{name}` edge ({p}, {c}) is not a pair of distinct variables.")
                arr[p, c] = True
        clash = np.argwhere(self.required & self.forbidden)
        if clash.size:
            p, c = clash[0]
            raise ParameterError(f"edge ({p}, {c}) is both required and forbidden.")
        edges = sorted({(int(p), int(c)) for p, c in np.argwhere(self.required)} | {tuple(e) for e in initial})
        for p, c in edges:
            if self.forbidden[p, c]:
                raise ParameterError(f"initial edge ({p}, {c}) is forbidden.")
        self.dag = DAG(n, edges)
        counts = self.dag.adj.sum(axis=0)
        if counts.max(initial=0) > self.max_parents:
            raise ParameterError(
                f"the starting graph gives a variable {int(counts.max())} parents; `max_parents` == {self.max_parents}."
            )
        self._entries: dict[tuple[int, Parents], _Entry] = {}
        #: cached family entries kept beyond the current ones (insertion order = age)
        self.cache_size = max(2 * n, 2048) if cache_size is None else int(cache_size)
        self._parents: list[Parents] = [self.dag.parents(c) for c in range(n)]
        self._n_par = np.array([len(p) for p in self._parents], dtype=np.intp)
        self._rev = np.full((n, n), np.nan)  # cached exact reversal changes, [parent, child]
        #: _pen[k] = BIC penalty of a family with k parents gaining one (k = 0..N)
        self._pen = self.bic.per_param * np.diff([model.n_params(k) for k in range(n + 2)])
        self._fam_bic = np.array([self.bic.family(model.fit(c, self.dag.parents(c))) for c in range(n)])
        self._fam_ll = np.array([model.fit(c, self.dag.parents(c)).loglik for c in range(n)])
        self._fam_best: list[tuple[float, tuple, Move] | None] = [None] * n
        self._fb_delta = np.full(n, -np.inf)  # best exact BIC change per family
        self._watch: list[np.ndarray] = [np.zeros(0, dtype=np.intp)] * n
        self._dirty = np.ones(n, dtype=bool)
        self.history: list[Move] = []
        self.n_exact = 0
        self.n_ranked = 0
        self.elapsed_s = 0.0
        self.n_candidates_last = 0

    # ------------------------------------------------------------------ state
    @property
    def score(self) -> float:
        """Total BIC of the current network (nats)."""
        return float(self._fam_bic.sum())

    @property
    def loglik(self) -> float:
        """Total log-likelihood of the current network (nats)."""
        return float(self._fam_ll.sum())

    @property
    def n_iter(self) -> int:
        """Moves taken (and not undone)."""
        return len(self.history)

    def parents(self, child: int) -> Parents:
        """Sorted parents of ``child`` in the current graph."""
        return self._parents[child]

    def edges(self) -> list[tuple[int, int]]:
        return self.dag.edges()

    def entry(self, child: int) -> _Entry:
        """Cached rankings of ``child``'s current family (computed on first use)."""
        key = (child, self._parents[child])
        e = self._entries.get(key)
        if e is None:
            e = _Entry(self.model, child, key[1])
            self._entries[key] = e
            if len(self._entries) > self.cache_size:
                self._evict()
            self.n_exact += len(key[1])  # the family's deletions, scored exactly with its fit
        return e

    def _evict(self) -> None:
        """Drop the oldest cached entries that belong to no current family (bounded memory).

        An evicted parent set that comes back (e.g. after undo) is ranked and scored again."""
        excess = len(self._entries) - self.cache_size
        for key in list(self._entries):
            if excess <= 0:
                break
            if self._parents[key[0]] != key[1]:
                del self._entries[key]
                excess -= 1

    # ---------------------------------------------------------- legality
    def _legal_masks(self) -> tuple[np.ndarray, np.ndarray]:
        base = self.dag.add_mask() & ~self.forbidden.T  # [child, parent]
        n_par = self.dag.adj.sum(axis=0)
        legal_add = base & (n_par < self.max_parents)[:, None]
        if Operator.ADD not in self.operators:
            legal_add = np.zeros_like(base)
        legal_rep = base if Operator.REPLACE in self.operators else np.zeros_like(base)
        return legal_add, legal_rep

    def _pen_add(self, k: int) -> float:
        """BIC penalty of giving a family with ``k`` parents one more (log M / 2 per parameter)."""
        return float(self._pen[k])

    def _rev_penalty(self, us: np.ndarray, cs: np.ndarray) -> np.ndarray:
        """Penalty change of reversing u -> c: c loses a parent, u gains one (0 for linear CPDs)."""
        return self._pen[self._n_par[us]] - self._pen[self._n_par[cs] - 1]

    def legal_parents(self, child: int) -> np.ndarray:
        """Indices of the variables the Add operator may make a parent of ``child`` now."""
        return np.flatnonzero(self._legal_rows(int(child))[0]).astype(np.intp)

    def _legal_rows(self, child: int) -> tuple[np.ndarray, np.ndarray]:
        """Legal Add and Replace candidates (new parents) of one family, from its reachability row."""
        base = ~self.dag.reach[child] & ~self.dag.adj[:, child] & ~self.forbidden[:, child]
        base[child] = False
        full = len(self._parents[child]) >= self.max_parents
        legal_add = base if (Operator.ADD in self.operators and not full) else np.zeros_like(base)
        legal_rep = base if Operator.REPLACE in self.operators else np.zeros_like(base)
        return legal_add, legal_rep

    # ------------------------------------------------------- per-family work
    def _measure(self, e: _Entry) -> tuple[np.ndarray, np.ndarray]:
        if self.measure == "c2":
            return e.add_c2, e.rep_c2
        return e.add_c1, e.rep_c1

    def _select(self, child: int, e: _Entry, legal_add: np.ndarray, legal_rep: np.ndarray):
        """Candidates of one family sent to exact scoring: (add indices, [(i, replace indices)])."""
        k_par = len(e.parents)
        rep_ok = np.array([not self.required[u, child] for u in e.parents], dtype=bool)
        rep_legal = np.zeros((k_par, self.n_vars), dtype=bool)
        if k_par:
            rep_legal[rep_ok] = legal_rep
        if self.method == "greedy":
            return np.flatnonzero(legal_add), [(i, np.flatnonzero(rep_legal[i])) for i in range(k_par)], 0
        add_m, rep_m = self._measure(e)
        add_s = np.where(legal_add, add_m, -np.inf)
        rep_s = np.where(rep_legal, rep_m, -np.inf)
        n_ranked = int(legal_add.sum() + rep_legal.sum())
        if self.queue == "shared":
            scores = np.concatenate([add_s, rep_s.ravel()])
            top = _top_k(scores, self.k)
            n = self.n_vars
            add_idx = top[top < n]
            rep_flat = top[top >= n] - n
            reps = [(i, np.sort(rep_flat[rep_flat // n == i] % n)) for i in range(k_par)]
            return np.sort(add_idx), reps, n_ranked
        add_idx = np.sort(_top_k(add_s, self.k))
        reps = [(i, np.sort(_top_k(rep_s[i], self.k))) for i in range(k_par)]
        return add_idx, reps, n_ranked

    def _ensure_exact(self, requests: list[tuple[str, int, _Entry, int, np.ndarray]]) -> None:
        """Score exactly, in one batch, the candidates of ``requests`` not yet scored.

        Each request is ``("add", child, entry, -1, candidates)`` or ``("rep", child, entry, i,
        candidates)``. A replacement of parent i is scored as an addition to the family without
        it: ``Delta_rep = Delta_delete(i) + Delta_add(candidate | parents - {i})``. The model
        receives all additions at once (non-linear CPDs fit them as one vectorized batch).
        """
        jobs = []
        for kind, child, e, i, idx in requests:
            if kind == "add":
                need = idx[np.isnan(e.add_exact[idx])]
                parents = e.parents
            else:
                need = idx[np.isnan(e.rep_exact[i, idx])]
                parents = e.parents[:i] + e.parents[i + 1 :]
            if need.size:
                jobs.append((kind, child, e, i, need, parents))
        if not jobs:
            return
        gains = self.model.exact_add_many([(child, parents, need) for _, child, _, _, need, parents in jobs])
        for (kind, _child, e, i, need, _parents), g in zip(jobs, gains, strict=True):
            if kind == "add":
                e.add_exact[need] = g
            else:
                e.rep_exact[i, need] = e.del_dll[i] + g
            self.n_exact += int(need.size)

    def _family_select(self, child: int, legal_add: np.ndarray, legal_rep: np.ndarray):
        """Entry and the candidates of one family that go to exact scoring."""
        e = self.entry(child)
        add_idx, reps, n_ranked = self._select(child, e, legal_add, legal_rep)
        self.n_ranked += n_ranked
        return e, add_idx, reps

    @staticmethod
    def _requests(child: int, e: _Entry, add_idx: np.ndarray, reps) -> list:
        out = [("add", child, e, -1, add_idx)] if add_idx.size else []
        out += [("rep", child, e, i, idx) for i, idx in reps if idx.size]
        return out

    def _family_decide(self, child: int, e: _Entry, add_idx: np.ndarray, reps):
        """Best exactly-scored Add/Replace/Delete move of one family, with its tie-break key."""
        k = len(e.parents)
        pen = self._pen_add(k)  # adding a parent
        pen_del = self._pen_add(k - 1) if k else 0.0  # what deleting one saves
        best: tuple[float, tuple, Move] | None = None

        def consider(delta_bic: float, key: tuple, make: Callable[[], Move]) -> None:
            nonlocal best
            if best is None or _better(delta_bic, key, best[0], best[1], self.tol):
                best = (delta_bic, key, make())

        if add_idx.size:
            d = e.add_exact[add_idx] - pen
            j = _argbest(d, add_idx)
            z = int(add_idx[j])
            consider(float(d[j]), (Operator.ADD, child, z, -1), lambda: self._make_add(child, e, z))
        for i, idx in reps:
            if not idx.size:
                continue
            d = e.rep_exact[i, idx]
            j = _argbest(d, idx)
            z = int(idx[j])
            u = e.parents[i]
            consider(float(d[j]), (Operator.REPLACE, child, z, u), lambda i=i, z=z: self._make_rep(child, e, i, z))
        if Operator.DELETE in self.operators:
            for i, u in enumerate(e.parents):
                if self.required[u, child]:
                    continue
                dll = float(e.del_dll[i])
                consider(
                    dll + pen_del,
                    (Operator.DELETE, child, u, -1),
                    lambda u=u, dll=dll: Move(Operator.DELETE, u, child, delta_loglik=dll, delta_bic=dll + pen_del),
                )
        # Candidates whose loss of legality would change this family's answer: for ``ideal`` the
        # whole selected top K (the next one would move up), for ``greedy`` only the best move.
        if self.method == "ideal":
            watch = np.concatenate([add_idx] + [idx for _, idx in reps]) if reps else add_idx
        elif best is not None and best[2].op in (Operator.ADD, Operator.REPLACE):
            watch = np.array([best[2].parent])
        else:
            watch = np.zeros(0, dtype=np.intp)
        self._watch[child] = watch.astype(np.intp)
        return best

    def _rank(self, scores: np.ndarray, value: float) -> int:
        finite = scores[np.isfinite(scores)]
        return int((finite > value).sum()) + 1

    def _pools(self, child: int, e: _Entry, legal_add: np.ndarray | None = None, legal_rep: np.ndarray | None = None):
        """The family's ranking measures restricted to its *legal* candidates (NaN elsewhere):
        Add, Replace rows, and the shared queue. Ranks are positions in these pools, the same
        candidates the selector ranks, so a move scored by ``ideal`` has rank <= K."""
        if legal_add is None:
            legal_add, legal_rep = self._legal_rows(child)
        add_m, rep_m = self._measure(e)
        add_p = np.where(legal_add, add_m, np.nan)
        ok = np.array([not self.required[u, child] for u in e.parents], dtype=bool)
        rep_p = np.where(legal_rep[None, :] & ok[:, None], rep_m, np.nan) if len(e.parents) else rep_m
        return add_p, rep_p, np.concatenate([add_p, rep_p.ravel()])

    def _make_add(self, child: int, e: _Entry, z: int) -> Move:
        add_m, _ = self._measure(e)
        add_p, _, shared = self._pools(child, e)
        pool = shared if self.queue == "shared" else add_p
        dll = float(e.add_exact[z])
        return Move(
            Operator.ADD,
            z,
            child,
            -1,
            float(e.add_c1[z]),
            float(e.add_c2[z]),
            dll,
            dll - self._pen_add(len(e.parents)),
            self._rank(pool, float(add_m[z])),
        )

    def _make_rep(self, child: int, e: _Entry, i: int, z: int) -> Move:
        _, rep_m = self._measure(e)
        _, rep_p, shared = self._pools(child, e)
        pool = shared if self.queue == "shared" else rep_p[i]
        dll = float(e.rep_exact[i, z])
        return Move(
            Operator.REPLACE,
            z,
            child,
            e.parents[i],
            float(e.rep_c1[i, z]),
            float(e.rep_c2[i, z]),
            dll,
            dll,
            self._rank(pool, float(rep_m[i, z])),
        )

    def _reversal_candidates(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Legal reversals (parents, children) and their exact log-likelihood changes.

        Reversing u -> c deletes u from c's family and adds c to u's, both scored exactly; the
        penalties cancel. Values are cached per edge until either family changes.
        """
        empty = np.zeros(0, dtype=np.intp)
        if Operator.REVERSE not in self.operators:
            return empty, empty, np.zeros(0)
        us, cs = self.dag.edge_array()
        if us.size == 0:
            return empty, empty, np.zeros(0)
        ok = self._reversible(us, cs)
        us, cs = us[ok], cs[ok]
        dll = self._rev[us, cs]
        todo = np.flatnonzero(np.isnan(dll))
        if todo.size:
            self._ensure_exact(self._reversal_requests(us[todo], cs[todo]))
            for j in todo:
                u, c = int(us[j]), int(cs[j])
                ec, eu = self.entry(c), self.entry(u)
                dll[j] = self._rev[u, c] = ec.del_dll[ec.parents.index(u)] + eu.add_exact[c]
        return us, cs, dll

    def _reversal_requests(self, us: np.ndarray, cs: np.ndarray) -> list:
        """Exact-scoring requests for reversing the edges u -> c: c added to each u's family."""
        groups: dict[int, list[int]] = {}
        for u, c in zip(us.tolist(), cs.tolist(), strict=True):
            groups.setdefault(u, []).append(c)
        return [("add", u, self.entry(u), -1, np.array(sorted(cc), dtype=np.intp)) for u, cc in groups.items()]

    def _pending_reversals(self) -> list:
        """Requests for the legal reversals whose change is not cached yet (see _reversal_candidates)."""
        if Operator.REVERSE not in self.operators:
            return []
        us, cs = self.dag.edge_array()
        if us.size == 0:
            return []
        todo = np.isnan(self._rev[us, cs])
        us, cs = us[todo], cs[todo]
        ok = self._reversible(us, cs)
        return self._reversal_requests(us[ok], cs[ok]) if ok.any() else []

    def _reversible(self, us: np.ndarray, cs: np.ndarray) -> np.ndarray:
        """Which edges u -> c may be reversed: no cycle, not required, c -> u not forbidden, and u
        below its parent cap."""
        return (
            self.dag.reversal_mask(us, cs)
            & ~self.required[us, cs]
            & ~self.forbidden[cs, us]
            & (self._n_par[us] < self.max_parents)
        )

    def _best_reversal(self) -> tuple[float, tuple, Move] | None:
        us, cs, dll = self._reversal_candidates()
        if dll.size == 0:
            return None
        dbic = dll - self._rev_penalty(us, cs)
        top = dbic.max()
        near = np.flatnonzero(dbic >= top - 1e-9 * max(1.0, abs(top)))
        # tie-break key (REVERSE, child, parent): lowest child, then lowest parent
        j = near[np.lexsort((us[near], cs[near]))[0]]
        u, c, d, b = int(us[j]), int(cs[j]), float(dll[j]), float(dbic[j])
        return b, (Operator.REVERSE, c, u, -1), Move(Operator.REVERSE, u, c, delta_loglik=d, delta_bic=b)

    def _refresh(self) -> None:
        """Re-rank and re-score the families whose parents or legal candidates changed."""
        chosen = []
        for c in np.flatnonzero(self._dirty):
            c = int(c)
            chosen.append((c, *self._family_select(c, *self._legal_rows(c))))
        # the reversals' exact fits go into the same batch as the families' chosen candidates
        requests = [r for c, e, a, reps in chosen for r in self._requests(c, e, a, reps)]
        self._ensure_exact(requests + self._pending_reversals())
        for c, e, add_idx, reps in chosen:
            best = self._family_decide(c, e, add_idx, reps)
            self._fam_best[c] = best
            self._fb_delta[c] = -np.inf if best is None else best[0]
        self._dirty[:] = False

    def best_move(self) -> Move | None:
        """The move :meth:`step` would apply (None when nothing improves the score)."""
        self._refresh()
        best: tuple[float, tuple, Move] | None = None
        top = float(self._fb_delta.max(initial=-np.inf))
        if np.isfinite(top):
            near = np.flatnonzero(self._fb_delta >= top - 1e-9 * max(1.0, abs(top)))
            for c in near:
                cand = self._fam_best[c]
                if best is None or _better(cand[0], cand[1], best[0], best[1], self.tol):
                    best = cand
        rev = self._best_reversal()
        if rev is not None and (best is None or _better(rev[0], rev[1], best[0], best[1], self.tol)):
            best = rev
        if best is None or best[0] <= self.tol * max(1.0, abs(self.score)):
            return None
        return best[2]

    # ------------------------------------------------------------- proposals
    def propose(self) -> CandidateTable:
        """All legal candidate moves of the current state, ranked, with C1/C2 and exact changes.

        Runs the selector (so the exact changes the search would compute are filled in) and
        returns one row per legal Add, Replace, Delete and Reverse move.
        """
        self._refresh()
        legal_add, legal_rep = self._legal_masks()
        rows: dict[str, list] = {
            k: [] for k in ("op", "parent", "child", "removed", "c1", "c2", "dll", "dbic", "rank", "sel")
        }
        for c in range(self.n_vars):
            e = self.entry(c)
            add_idx, reps, _ = self._select(c, e, legal_add[c], legal_rep[c])
            add_m, rep_m = self._measure(e)
            add_p, rep_p, shared_pool = self._pools(c, e, legal_add[c], legal_rep[c])
            cand = np.flatnonzero(legal_add[c])
            if cand.size:
                pool = shared_pool if self.queue == "shared" else add_p
                rows["op"].append(np.full(cand.size, Operator.ADD))
                rows["parent"].append(cand)
                rows["child"].append(np.full(cand.size, c))
                rows["removed"].append(np.full(cand.size, -1))
                rows["c1"].append(e.add_c1[cand])
                rows["c2"].append(e.add_c2[cand])
                rows["dll"].append(e.add_exact[cand])
                rows["dbic"].append(e.add_exact[cand] - self._pen_add(len(e.parents)))
                rows["rank"].append(_ranks(pool, add_m[cand]))
                rows["sel"].append(np.isin(cand, add_idx))
            for i, idx in reps:
                u = e.parents[i]
                cand = np.flatnonzero(legal_rep[c]) if not self.required[u, c] else np.zeros(0, dtype=int)
                if not cand.size:
                    continue
                pool = shared_pool if self.queue == "shared" else rep_p[i]
                rows["op"].append(np.full(cand.size, Operator.REPLACE))
                rows["parent"].append(cand)
                rows["child"].append(np.full(cand.size, c))
                rows["removed"].append(np.full(cand.size, u))
                rows["c1"].append(e.rep_c1[i, cand])
                rows["c2"].append(e.rep_c2[i, cand])
                rows["dll"].append(e.rep_exact[i, cand])
                rows["dbic"].append(e.rep_exact[i, cand])
                rows["rank"].append(_ranks(pool, rep_m[i, cand]))
                rows["sel"].append(np.isin(cand, idx))
            if Operator.DELETE in self.operators:
                for i, u in enumerate(e.parents):
                    if self.required[u, c]:
                        continue
                    for key, val in (
                        ("op", Operator.DELETE),
                        ("parent", u),
                        ("child", c),
                        ("removed", -1),
                        ("c1", np.nan),
                        ("c2", np.nan),
                        ("dll", e.del_dll[i]),
                        ("dbic", e.del_dll[i] + self._pen_add(len(e.parents) - 1)),
                        ("rank", 0),
                        ("sel", True),
                    ):
                        rows[key].append(np.array([val]))
        us, cs, dll = self._reversal_candidates()
        if dll.size:
            m = dll.size
            for key, val in (
                ("op", np.full(m, Operator.REVERSE)),
                ("parent", us),
                ("child", cs),
                ("removed", np.full(m, -1)),
                ("c1", np.full(m, np.nan)),
                ("c2", np.full(m, np.nan)),
                ("dll", dll),
                ("dbic", dll - self._rev_penalty(us, cs)),
                ("rank", np.zeros(m)),
                ("sel", np.ones(m, dtype=bool)),
            ):
                rows[key].append(val)

        def cat(key, dtype):
            return np.concatenate(rows[key]).astype(dtype) if rows[key] else np.zeros(0, dtype=dtype)

        table = CandidateTable(
            op=cat("op", np.int8),
            parent=cat("parent", np.intp),
            child=cat("child", np.intp),
            removed=cat("removed", np.intp),
            c1=cat("c1", float),
            c2=cat("c2", float),
            delta_loglik=cat("dll", float),
            delta_bic=cat("dbic", float),
            rank=cat("rank", np.intp),
            selected=cat("sel", bool),
        )
        self.n_candidates_last = len(table)
        return table

    def evaluate_all(self, table: CandidateTable, progress: Callable[[float], None] | None = None) -> CandidateTable:
        """Fill in the exact changes of every row (for inspection: the bounds view).

        The values come straight from the CPD model and are *not* stored in the search's caches,
        so inspecting never changes what the search counts as exact evaluations (``n_exact``)
        or what it would do next. Rows the search already scored keep their values.
        """
        children = np.unique(table.child)
        for j, c in enumerate(children):
            c = int(c)
            e = self.entry(c)
            rows = np.flatnonzero((table.child == c) & (table.op == Operator.ADD))
            todo = rows[np.isnan(table.delta_loglik[rows])]
            if todo.size:
                gain = self.model.exact_add_many([(c, e.parents, table.parent[todo])])[0]
                table.delta_loglik[todo] = gain
                table.delta_bic[todo] = gain - self._pen_add(len(e.parents))
            for i, u in enumerate(e.parents):
                rows = np.flatnonzero((table.child == c) & (table.op == Operator.REPLACE) & (table.removed == u))
                todo = rows[np.isnan(table.delta_loglik[rows])]
                if todo.size:
                    reduced = e.parents[:i] + e.parents[i + 1 :]
                    gain = e.del_dll[i] + self.model.exact_add_many([(c, reduced, table.parent[todo])])[0]
                    table.delta_loglik[todo] = gain
                    table.delta_bic[todo] = gain
            if progress is not None:
                progress((j + 1) / len(children))
        return table

    # ------------------------------------------------------------ transitions
    def _apply(self, move: Move) -> None:
        d = self.dag
        shrunk = grew = np.zeros(0, dtype=np.intp)
        if move.op == Operator.ADD:
            grew = d.add_edge(move.parent, move.child)
            touched = (move.child,)
        elif move.op == Operator.DELETE:
            shrunk = d.remove_edge(move.parent, move.child)
            touched = (move.child,)
        elif move.op == Operator.REVERSE:
            shrunk, grew = d.reverse_edge(move.parent, move.child)
            touched = (move.child, move.parent)
        else:
            shrunk = d.remove_edge(move.removed, move.child)
            try:
                grew = d.add_edge(move.parent, move.child)
            except CycleError:
                d.add_edge(move.removed, move.child)
                raise
            touched = (move.child,)
        # Families whose legal candidates grew must be re-ranked; those whose legal set only
        # shrank need it only if a watched candidate (one that decided their answer) went away.
        self._dirty[shrunk] = True
        for a in grew:
            w = self._watch[a]
            if w.size and self.dag.reach[a, w].any():
                self._dirty[a] = True
        for c in touched:
            self._parents[c] = d.parents(c)
            self._n_par[c] = len(self._parents[c])
            self._rev[:, c] = np.nan
            self._rev[c, :] = np.nan
            fit = self.model.fit(c, self._parents[c])
            self._fam_bic[c] = self.bic.family(fit)
            self._fam_ll[c] = fit.loglik
            self._dirty[c] = True

    @staticmethod
    def _inverse(move: Move) -> Move:
        if move.op == Operator.ADD:
            return Move(Operator.DELETE, move.parent, move.child)
        if move.op == Operator.DELETE:
            return Move(Operator.ADD, move.parent, move.child)
        if move.op == Operator.REVERSE:
            return Move(Operator.REVERSE, move.child, move.parent)
        return Move(Operator.REPLACE, move.removed, move.child, move.parent)

    def step(self) -> StepResult:
        """Apply the best exactly-scored legal move, if it improves the BIC (one iteration of
        Algorithm 2). ``status`` is 0 when a move was applied and 1 at convergence."""
        t0 = time.perf_counter()
        move = self.best_move()
        if move is not None:
            self._apply(move)
            self.history.append(move)
        self.elapsed_s += time.perf_counter() - t0
        return self._result(move, 0 if move is not None else 1)

    def apply(self, move: Move) -> StepResult:
        """Apply a move chosen by the user (e.g. from :meth:`propose`), if it is legal."""
        t0 = time.perf_counter()
        self._check_legal(move)
        self._apply(move)
        self.history.append(move)
        self.elapsed_s += time.perf_counter() - t0
        return self._result(move, 0)

    def _check_legal(self, move: Move) -> None:
        d = self.dag
        p, c = move.parent, move.child
        n_par = int(d.adj[:, c].sum())
        if move.op == Operator.ADD:
            ok = d.can_add(p, c) and not self.forbidden[p, c] and n_par < self.max_parents
        elif move.op == Operator.DELETE:
            ok = d.has_edge(p, c) and not self.required[p, c]
        elif move.op == Operator.REVERSE:
            ok = (
                d.has_edge(p, c)
                and not self.required[p, c]
                and not self.forbidden[c, p]
                and bool(d.reversal_mask(np.array([p]), np.array([c]))[0])
                and int(d.adj[:, p].sum()) < self.max_parents
            )
        else:
            ok = (
                d.has_edge(move.removed, c)
                and not self.required[move.removed, c]
                and p != c
                and not d.has_edge(p, c)
                and not d.reach[c, p]
                and not self.forbidden[p, c]
            )
        if not ok:
            raise CycleError(f"move {move.op.name} {move.edge_label()} is not legal in the current graph.")

    def perturb(self, n_moves: int, rng: np.random.Generator) -> int:
        """Apply up to ``n_moves`` random legal moves (random restart, thesis Algorithm 2).

        Each move is a random Add, Delete or Reverse chosen uniformly among the legal ones of its
        kind; moves are recorded in the history like any other (so :meth:`undo` takes them back).
        Returns the number of moves applied."""
        done = 0
        for _ in range(n_moves):
            kinds = [Operator.ADD]
            if self.dag.n_edges:
                kinds += [Operator.DELETE, Operator.REVERSE]
            op = kinds[int(rng.integers(len(kinds)))]
            if op == Operator.ADD:
                legal = self.dag.add_mask() & ~self.forbidden.T & (self._n_par < self.max_parents)[:, None]
                cand = np.argwhere(legal)
                if not cand.size:
                    continue
                c, p = cand[int(rng.integers(len(cand)))]
                move = Move(Operator.ADD, int(p), int(c), random=True)
            else:
                us, cs = self.dag.edge_array()
                ok = self._reversible(us, cs) if op == Operator.REVERSE else ~self.required[us, cs]
                if not ok.any():
                    continue
                j = int(rng.choice(np.flatnonzero(ok)))
                move = Move(op, int(us[j]), int(cs[j]), random=True)
            self._apply(move)
            self.history.append(move)
            done += 1
        return done

    def undo(self) -> Move | None:
        """Take back the last move; returns it (None when there is nothing to undo)."""
        if not self.history:
            return None
        move = self.history.pop()
        self._apply(self._inverse(move))
        return move

    def reset(self) -> None:
        """Undo every move."""
        while self.history:
            self.undo()

    def _result(self, move: Move | None, status: int) -> StepResult:
        return StepResult(
            move=move,
            score=self.score,
            loglik=self.loglik,
            n_iter=self.n_iter,
            n_exact=self.n_exact,
            n_ranked=self.n_ranked,
            elapsed_s=self.elapsed_s,
            status=status,
            n_candidates=self.n_candidates_last,
        )

    def run(
        self,
        max_steps: int | None = None,
        callback: Callable[..., None] | None = None,
    ) -> SearchResult:
        """Step until convergence or ``max_steps`` moves.

        ``callback(intermediate_result=StepResult)`` is called after every applied move; raising
        ``StopIteration`` in it stops the run with status -2.
        """
        check_scalar(max_steps, "max_steps", int, min_val=0, allow_none=True)
        status = 2
        taken = 0
        while max_steps is None or taken < max_steps:
            res = self.step()
            if res.move is None:
                status = 1
                break
            taken += 1
            if callback is not None:
                try:
                    callback(intermediate_result=res)
                except StopIteration:
                    status = -2
                    break
        return self.summary(status)

    def summary(self, status: int) -> SearchResult:
        """A :class:`SearchResult` of the current state with termination ``status``."""
        return SearchResult(
            edges=self.edges(),
            score=self.score,
            loglik=self.loglik,
            n_iter=self.n_iter,
            n_exact=self.n_exact,
            n_ranked=self.n_ranked,
            elapsed_s=self.elapsed_s,
            status=status,
            history=list(self.history),
        )


def _top_k(scores: np.ndarray, k: int) -> np.ndarray:
    """Indices of the (up to) k largest finite scores; ties go to the lower index. O(n)."""
    finite = np.isfinite(scores)
    n_finite = int(finite.sum())
    if n_finite <= k:
        return np.flatnonzero(finite)
    s = np.where(finite, scores, -np.inf)
    kth = s[np.argpartition(-s, k - 1)[:k]].min()
    cand = np.flatnonzero(s >= kth)
    if cand.size > k:
        cand = cand[np.lexsort((cand, -s[cand]))[:k]]
    return cand


def _ranks(pool: np.ndarray, values: np.ndarray) -> np.ndarray:
    """1-based rank of each value within ``pool`` (higher is better; NaN ignored)."""
    finite = np.sort(pool[np.isfinite(pool)])
    return (finite.size - np.searchsorted(finite, values, side="right") + 1).astype(np.intp)


def _argbest(deltas: np.ndarray, idx: np.ndarray) -> int:
    """Position of the best delta; within tolerance, the lowest candidate index wins."""
    top = np.nanmax(deltas)
    near = np.flatnonzero(deltas >= top - 1e-9 * max(1.0, abs(top)))
    return int(near[np.argmin(idx[near])])


def _better(d_new: float, key_new: tuple, d_old: float, key_old: tuple, tol: float) -> bool:
    scale = 1e-9 * max(1.0, abs(d_new), abs(d_old))
    if d_new > d_old + scale:
        return True
    if d_new < d_old - scale:
        return False
    return key_new < key_old
