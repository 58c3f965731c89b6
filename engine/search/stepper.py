"""The greedy stepper: propose -> evaluate -> apply one move at a time, with undo.

Implements JMLR 2007 Algorithm 1 (greedy hill climbing with Add / Delete / Reverse / Replace) and
Algorithm 2 (the same search with candidate ranking: Add and Replace candidates are ranked by C1 or
C2 against the family's ideal profiles and only the top K per family are scored exactly; Delete and
Reverse are always scored exactly). Both are one :class:`Stepper` with a different candidate
selector (:mod:`engine.search.selection`), so their trajectories can be compared move by move.

Each step applies the best exactly-scored legal move (steepest ascent) if it improves the BIC by
more than ``tol``. Ties (within ``tol`` relative) are broken deterministically by operator (Add,
Delete, Reverse, Replace), then child index, parent index and replaced-parent index.

Decomposability: family statistics are cached per (child, parent set); after a move only the
touched families and the families whose set of legal candidates changed are re-ranked, and exact
scores already computed for a parent set are reused. ``undo()`` applies the inverse move and finds
everything it needs in that cache. Runs (to convergence, N steps, time-sliced) go through
:class:`engine.search.run.RunLoop`.

References
----------
.. [1] Elidan, Nachman, Friedman. "Ideal Parent" Structure Learning for Continuous Variable
   Bayesian Networks. JMLR 8:1799-1833, 2007. Algorithms 1 and 2, section 4.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable

import numpy as np

from .._validation import check_scalar
from ..cpd.base import FamilyModel, Parents
from ..exceptions import CycleError
from ..score import BIC
from . import candidates
from .constraints import Constraints
from .moves import CandidateTable, Move, Operator
from .results import SearchResult, StepResult
from .selection import FamilyEntry, argbest, better, select_candidates
from .settings import SearchSettings

__all__ = ["Stepper"]


class Stepper:
    """Greedy structure search that can be stepped, inspected and undone.

    Parameters
    ----------
    model : FamilyModel
        Fits, rankings and exact gains of the CPD family (e.g. LinearGaussianFamilies).
    settings : SearchSettings or dict, optional
        The selector and parent cap (``method``, ``k``, ``measure``, ``queue``,
        ``max_parents``); keyword arguments of the same names override it, so
        ``Stepper(model, method="greedy")`` works too.
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
        settings: SearchSettings | dict | None = None,
        *,
        required: Iterable[tuple[int, int]] = (),
        forbidden: Iterable[tuple[int, int]] = (),
        initial: Iterable[tuple[int, int]] = (),
        operators: Iterable[Operator] = tuple(Operator),
        tol: float = 1e-9,
        cache_size: int | None = None,
        **overrides,
    ) -> None:
        self.settings = SearchSettings.coerce(settings, **overrides)
        check_scalar(tol, "tol", float, min_val=0.0)
        self.model = model
        n = model.n_vars
        self.n_vars = n
        self.tol = float(tol)
        self.constraints = Constraints(
            n,
            model.n_samples,
            max_parents=self.settings.max_parents,
            required=required,
            forbidden=forbidden,
            operators=operators,
        )
        self.bic = BIC(model.n_samples)
        self.dag = self.constraints.starting_dag(initial)
        self._entries: dict[tuple[int, Parents], FamilyEntry] = {}
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

    # --------------------------------------------------------------- settings
    method = property(lambda self: self.settings.method, doc="Candidate selector, 'ideal' or 'greedy'.")
    k = property(lambda self: self.settings.k, doc="Candidates per family scored exactly by 'ideal'.")
    measure = property(lambda self: self.settings.measure, doc="Ranking measure, 'c2' or 'c1'.")
    queue = property(lambda self: self.settings.queue, doc="'shared' or 'per_operator'.")
    max_parents = property(lambda self: self.constraints.max_parents, doc="Effective parent cap.")
    required = property(lambda self: self.constraints.required, doc="Required edges, bool [parent, child].")
    forbidden = property(lambda self: self.constraints.forbidden, doc="Forbidden edges, bool [parent, child].")
    operators = property(lambda self: self.constraints.operators, doc="Operators the search may use.")

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

    def entry(self, child: int) -> FamilyEntry:
        """Cached rankings of ``child``'s current family (computed on first use)."""
        key = (child, self._parents[child])
        e = self._entries.get(key)
        if e is None:
            e = FamilyEntry(self.model, child, key[1])
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

    def pen_add(self, k: int) -> float:
        """BIC penalty of giving a family with ``k`` parents one more (log M / 2 per parameter)."""
        return float(self._pen[k])

    def rev_penalty(self, us: np.ndarray, cs: np.ndarray) -> np.ndarray:
        """Penalty change of reversing u -> c: c loses a parent, u gains one (0 for linear CPDs)."""
        return self._pen[self._n_par[us]] - self._pen[self._n_par[cs] - 1]

    def legal_rows(self, child: int) -> tuple[np.ndarray, np.ndarray]:
        """Legal Add and Replace candidates (new parents) of one family now."""
        return self.constraints.legal_rows(self.dag, child, len(self._parents[child]))

    def legal_parents(self, child: int) -> np.ndarray:
        """Indices of the variables the Add operator may make a parent of ``child`` now."""
        return np.flatnonzero(self.legal_rows(int(child))[0]).astype(np.intp)

    def select(self, child: int, e: FamilyEntry, legal_add: np.ndarray, legal_rep: np.ndarray):
        """Candidates of one family sent to exact scoring (see :func:`select_candidates`)."""
        rep_legal = self.constraints.replace_rows(child, e.parents, legal_rep)
        return select_candidates(self.settings, e, legal_add, rep_legal)

    # ------------------------------------------------------- per-family work
    def _ensure_exact(self, requests: list[tuple[str, int, FamilyEntry, int, np.ndarray]]) -> None:
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

    @staticmethod
    def _requests(child: int, e: FamilyEntry, add_idx: np.ndarray, reps) -> list:
        out = [("add", child, e, -1, add_idx)] if add_idx.size else []
        out += [("rep", child, e, i, idx) for i, idx in reps if idx.size]
        return out

    def _family_decide(self, child: int, e: FamilyEntry, add_idx: np.ndarray, reps):
        """Best exactly-scored Add/Replace/Delete move of one family, with its tie-break key."""
        k = len(e.parents)
        pen = self.pen_add(k)  # adding a parent
        pen_del = self.pen_add(k - 1) if k else 0.0  # what deleting one saves
        best: tuple[float, tuple, Move] | None = None

        def consider(delta_bic: float, key: tuple, make: Callable[[], Move]) -> None:
            nonlocal best
            if best is None or better(delta_bic, key, best[0], best[1], self.tol):
                best = (delta_bic, key, make())

        if add_idx.size:
            d = e.add_exact[add_idx] - pen
            j = argbest(d, add_idx)
            z = int(add_idx[j])
            consider(float(d[j]), (Operator.ADD, child, z, -1), lambda: candidates.make_add(self, child, e, z))
        for i, idx in reps:
            if not idx.size:
                continue
            d = e.rep_exact[i, idx]
            j = argbest(d, idx)
            z = int(idx[j])
            u = e.parents[i]
            consider(
                float(d[j]), (Operator.REPLACE, child, z, u), lambda i=i, z=z: candidates.make_rep(self, child, e, i, z)
            )
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

    # -------------------------------------------------------------- reversals
    def reversal_candidates(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
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
        ok = self.constraints.reversible(self.dag, self._n_par, us, cs)
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
        """Requests for the legal reversals whose change is not cached yet (see reversal_candidates)."""
        if Operator.REVERSE not in self.operators:
            return []
        us, cs = self.dag.edge_array()
        if us.size == 0:
            return []
        todo = np.isnan(self._rev[us, cs])
        us, cs = us[todo], cs[todo]
        ok = self.constraints.reversible(self.dag, self._n_par, us, cs)
        return self._reversal_requests(us[ok], cs[ok]) if ok.any() else []

    def _best_reversal(self) -> tuple[float, tuple, Move] | None:
        us, cs, dll = self.reversal_candidates()
        if dll.size == 0:
            return None
        dbic = dll - self.rev_penalty(us, cs)
        top = dbic.max()
        near = np.flatnonzero(dbic >= top - 1e-9 * max(1.0, abs(top)))
        # tie-break key (REVERSE, child, parent): lowest child, then lowest parent
        j = near[np.lexsort((us[near], cs[near]))[0]]
        u, c, d, b = int(us[j]), int(cs[j]), float(dll[j]), float(dbic[j])
        return b, (Operator.REVERSE, c, u, -1), Move(Operator.REVERSE, u, c, delta_loglik=d, delta_bic=b)

    # ---------------------------------------------------------------- choice
    def refresh(self) -> None:
        """Re-rank and re-score the families whose parents or legal candidates changed."""
        chosen = []
        for c in np.flatnonzero(self._dirty):
            c = int(c)
            e = self.entry(c)
            add_idx, reps, n_ranked = self.select(c, e, *self.legal_rows(c))
            self.n_ranked += n_ranked
            chosen.append((c, e, add_idx, reps))
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
        self.refresh()
        best: tuple[float, tuple, Move] | None = None
        top = float(self._fb_delta.max(initial=-np.inf))
        if np.isfinite(top):
            near = np.flatnonzero(self._fb_delta >= top - 1e-9 * max(1.0, abs(top)))
            for c in near:
                cand = self._fam_best[c]
                if best is None or better(cand[0], cand[1], best[0], best[1], self.tol):
                    best = cand
        rev = self._best_reversal()
        if rev is not None and (best is None or better(rev[0], rev[1], best[0], best[1], self.tol)):
            best = rev
        if best is None or best[0] <= self.tol * max(1.0, abs(self.score)):
            return None
        return best[2]

    def propose(self) -> CandidateTable:
        """All legal candidate moves of the current state, ranked, with C1/C2 and exact changes
        (see :func:`engine.search.candidates.candidate_table`)."""
        return candidates.candidate_table(self)

    def evaluate_all(self, table: CandidateTable, progress: Callable[[float], None] | None = None) -> CandidateTable:
        """Fill in the exact changes of every row (see :func:`engine.search.candidates.evaluate_all`)."""
        return candidates.evaluate_all(self, table, progress)

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
        self.constraints.check_move(self.dag, move)
        self._apply(move)
        self.history.append(move)
        self.elapsed_s += time.perf_counter() - t0
        return self._result(move, 0)

    def perturb(self, n_moves: int, rng: np.random.Generator) -> int:
        """Apply up to ``n_moves`` random legal moves (random restart, thesis Algorithm 2).

        Each move is a random Add, Delete or Reverse chosen uniformly among the legal ones of its
        kind; moves are recorded in the history like any other (so :meth:`undo` takes them back).
        Returns the number of moves applied."""
        done = 0
        for _ in range(n_moves):
            move = self.constraints.random_move(self.dag, self._n_par, rng)
            if move is None:
                continue
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

    # ------------------------------------------------------------------- runs
    def run(self, max_steps: int | None = None, callback: Callable[..., None] | None = None) -> SearchResult:
        """Step until convergence or ``max_steps`` moves (one :class:`~engine.search.RunLoop`).

        ``callback(intermediate_result=StepResult)`` is called after every applied move; raising
        ``StopIteration`` in it stops the run with status -2.
        """
        from .run import RunLoop

        return RunLoop(self, max_steps=max_steps, callback=callback).run()

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
