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
scores already computed for a parent set are reused; ``undo()`` applies the inverse move from that
cache. Runs go through :class:`engine.search.run.RunLoop`.

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
from ..score import AddPenalties, ScoreChoice, choose_score
from . import candidates
from .constraints import Constraints, effective_cap
from .family_entry import FamilyEntry, RankCache
from .moves import CandidateTable, Move, Operator
from .results import SearchResult, StepResult
from .reversal import ReversalCache
from .run import RunLoop
from .selection import better, default_entry_cache, ensure_exact, select_candidates
from .settings import SearchSettings

__all__ = ["Stepper"]


class Stepper:
    """Greedy structure search that can be stepped, inspected and undone.

    Parameters
    ----------
    model : FamilyModel
        Fits, rankings and exact gains of the CPD family (e.g. LinearGaussianFamilies).
    settings : SearchSettings or dict, optional
        The selector and parent cap (``method``, ``k``, ``measure``, ``queue``, ``max_parents``);
        keyword arguments of the same names override it (``Stepper(model, method="greedy")``).
    required, forbidden : iterable of (parent, child)
        Edges that must stay / may never appear. Required edges start in the graph.
    initial : iterable of (parent, child)
        Starting edges besides the required ones (default: the empty graph).
    operators : iterable of Operator
        Which operators the search may use (default: all four).
    tol : float
        A move must improve the score by more than ``tol * max(1, |score|)``.
    cache_size : int or None
        How many family entries (rankings and exact scores per parent set) to keep; the current
        families are never dropped. Default ``max(2 N, 2048)``, fewer when the older entries
        would exceed :data:`~engine.search.selection.ENTRY_BYTES`.
    regulators : iterable of int, optional
        The only variables that may be parents (candidate regulators); default: all.

    Attributes
    ----------
    score_choice : ScoreChoice
        The score maximized (``settings.score`` resolved by :func:`engine.score.choose_score`).
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
        regulators: Iterable[int] | None = None,
        **overrides,
    ) -> None:
        self.settings = SearchSettings.coerce(settings, **overrides)
        check_scalar(tol, "tol", float, min_val=0.0)
        self.model = model
        n = model.n_vars
        self.n_vars = n
        self.tol = float(tol)
        reg = None if regulators is None else np.unique(np.asarray(list(regulators), dtype=np.intp))
        self.score_choice: ScoreChoice = choose_score(
            self.settings.score,
            model.n_samples,
            n,
            n_candidates=None if reg is None else len(reg),
            gamma=self.settings.ebic_gamma,
        )
        #: the network score (BIC or EBIC) the search maximizes
        self.scorer = self.score_choice.score
        cap, cap_reason = effective_cap(self.scorer, self.settings.max_parents)
        self.constraints = Constraints(
            n,
            model.n_samples,
            max_parents=cap,
            cap_reason=cap_reason,
            required=required,
            forbidden=forbidden,
            operators=operators,
            regulators=reg,
        )
        self.dag = self.constraints.starting_dag(initial)
        self._entries: dict[tuple[int, Parents], FamilyEntry] = {}
        #: cached family entries kept beyond the current ones (insertion order = age)
        self.cache_size = default_entry_cache(n) if cache_size is None else int(cache_size)
        #: the candidate parents' columns the families rank (the regulators, or None: all N)
        self.cols = reg
        #: the families' C1/C2 rankings, within a byte budget (recomputed to the same bits if dropped)
        self.rank_cache = RankCache()
        self._parents: list[Parents] = self.dag.all_parents()
        #: number of parents of each variable now
        self.n_par = np.array([len(p) for p in self._parents], dtype=np.intp)
        self.reversals = ReversalCache(n)
        #: _pen[k]: penalty of a family with k parents gaining one; per family under interventions
        self.penalties = AddPenalties(self.scorer, model.n_params, n, getattr(model, "family_rows", None))
        self._pen = self.penalties.shared
        fits = [model.fit(c, ps) for c, ps in enumerate(self._parents)]
        self._fam_bic = np.array([self.scorer.family(f) for f in fits])
        self._fam_ll = np.array([f.loglik for f in fits])
        self._fam_best: list[tuple[float, tuple, Move] | None] = [None] * n
        self._fb_delta = np.full(n, -np.inf)  # best exact BIC change per family
        #: per family, the candidates whose loss of legality would change its best move
        self.watch: list[np.ndarray] = [np.zeros(0, dtype=np.intp)] * n
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
        """Total score of the current network (nats; BIC or EBIC, :attr:`score_choice`)."""
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
            e = FamilyEntry(self.model, child, key[1], cols=self.cols, cache=self.rank_cache)
            self._entries[key] = e
            if len(self._entries) > self.cache_size:
                self._evict()
            self.n_exact += len(key[1])  # the family's deletions, scored exactly with its fit
        return e

    def _evict(self) -> None:
        """Drop the oldest cached entries of no current family (bounded memory; one that comes back
        is ranked again). Current ones met are moved to the back: O(1) amortized, not O(N) a call."""
        entries, parents = self._entries, self._parents
        excess = len(entries) - self.cache_size
        for _ in range(len(entries)):  # each entry looked at once at most
            if excess <= 0:
                break
            key = next(iter(entries))
            entry = entries.pop(key)
            excess -= parents[key[0]] != key[1]
            if parents[key[0]] == key[1]:
                entries[key] = entry  # current: kept, now the newest

    def pen_add(self, k: int, child: int | None = None) -> float:
        """Score penalty of giving (``child``'s) family with ``k`` parents one more (log M / 2 per
        parameter for BIC, plus EBIC's ``gamma log((p - k) / (k + 1))``)."""
        return self.penalties.add(k, child)

    def rev_penalty(self, us: np.ndarray, cs: np.ndarray) -> np.ndarray:
        """Penalty change of reversing u -> c: c loses a parent, u gains one (0 under BIC for
        CPDs whose dimension is linear in k, unless u and c are scored on different rows)."""
        return self.penalties.reverse(self.n_par, us, cs)

    def legal_rows(self, child: int) -> tuple[np.ndarray, np.ndarray]:
        """Legal Add and Replace candidates (new parents) of one family now."""
        return self.constraints.legal_rows(self.dag, child, self._parents[child])

    def legal_parents(self, child: int) -> np.ndarray:
        """Indices of the variables the Add operator may make a parent of ``child`` now."""
        return np.flatnonzero(self.legal_rows(int(child))[0]).astype(np.intp)

    def legal_cols(self, child: int) -> tuple[np.ndarray, np.ndarray]:
        """:meth:`legal_rows` over the candidate columns only (O(R) with a regulator list)."""
        return self.constraints.legal_rows(self.dag, child, self._parents[child], self.cols)

    def select(self, child: int, e: FamilyEntry, legal_add: np.ndarray, legal_rep: np.ndarray):
        """Candidates (variable indices) of one family sent to exact scoring (see
        :func:`select_candidates`); the legal masks are over the candidate columns."""
        rep_legal = self.constraints.replace_rows(child, e.parents, legal_rep)
        add_idx, reps, n_ranked = select_candidates(self.settings, e, legal_add, rep_legal)
        if self.cols is not None:  # positions among the candidate columns -> variables
            add_idx, reps = self.cols[add_idx], [(i, self.cols[idx]) for i, idx in reps]
        return add_idx, reps, n_ranked

    # ------------------------------------------------------- per-family work
    def reversal_candidates(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Legal reversals (parents, children) and their exact log-likelihood changes."""
        return self.reversals.candidates(self)

    def ensure_exact(self, requests: list[tuple[str, int, FamilyEntry, int, np.ndarray]]) -> None:
        """Score exactly, in one batch, the candidates of ``requests`` not yet scored
        (:func:`engine.search.selection.ensure_exact`)."""
        ensure_exact(self, requests)

    @staticmethod
    def _requests(child: int, e: FamilyEntry, add_idx: np.ndarray, reps) -> list:
        out = [("add", child, e, -1, add_idx)] if add_idx.size else []
        out += [("rep", child, e, i, idx) for i, idx in reps if idx.size]
        return out

    # ---------------------------------------------------------------- choice
    def refresh(self) -> None:
        """Re-rank and re-score the families whose parents or legal candidates changed."""
        chosen = []
        todo = candidates.movable(self, np.flatnonzero(self._dirty))  # the unmovable get no move
        for (c, e, legal), (add_idx, reps, n_ranked) in zip(todo, candidates.select_all(self, todo), strict=True):
            self.n_ranked += n_ranked
            chosen.append((c, e, add_idx, reps, legal))
        # the reversals' exact fits go into the same batch as the families' chosen candidates
        requests = [r for c, e, a, reps, _ in chosen for r in self._requests(c, e, a, reps)]
        self.ensure_exact(requests + self.reversals.pending(self))
        for c, e, add_idx, reps, legal in chosen:
            best = candidates.decide_family(self, c, e, add_idx, reps, legal)
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
        rev = self.reversals.best(self)
        if rev is not None and (best is None or better(rev[0], rev[1], best[0], best[1], self.tol)):
            best = rev
        if best is None or best[0] <= self.tol * max(1.0, abs(self.score)):
            return None
        return best[2]

    def propose(self, children=None) -> CandidateTable:
        """All legal candidate moves (only ``children``'s families, if given), ranked, with C1/C2
        and exact changes (:func:`engine.search.candidates.candidate_table`)."""
        return candidates.candidate_table(self, children)

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
        if grew.size:  # one gather for all the grown rows' watched candidates
            watched = [self.watch[a] for a in grew.tolist()]
            sizes = np.fromiter(map(len, watched), dtype=np.intp, count=len(watched))
            if sizes.any():
                rows = np.repeat(grew, sizes)
                self._dirty[rows[self.dag.reach[rows, np.concatenate(watched)]]] = True
        for c in touched:
            self._parents[c] = d.parents(c)
            self.n_par[c] = len(self._parents[c])
            self.reversals.invalidate(c)
            fit = self.model.fit(c, self._parents[c])
            self._fam_bic[c] = self.scorer.family(fit)
            self._fam_ll[c] = fit.loglik
            self._dirty[c] = True

    def step(self) -> StepResult:
        """Apply the best exactly-scored legal move, if it improves the BIC (one iteration of
        Algorithm 2). ``status`` is 0 when a move was applied and 1 at convergence."""
        t0 = time.perf_counter()
        move = self.best_move()
        if move is not None:
            before = self.score
            self._apply(move)
            self.history.append(move)
            if not self.score > before:  # refits disagree (rounding at the variance floor): converged,
                self.undo()  # so no run can cycle between two such moves forever (#14)
                move = None
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
        """Apply up to ``n_moves`` random legal Add/Delete/Reverse moves, recorded in the history
        (random restart, thesis Algorithm 2); returns how many were applied."""
        done = 0
        for _ in range(n_moves):
            move = self.constraints.random_move(self.dag, self.n_par, rng)
            if move is not None:
                self._apply(move)
                self.history.append(move)
                done += 1
        return done

    def undo(self) -> Move | None:
        """Take back the last move; returns it (None when there is nothing to undo)."""
        if not self.history:
            return None
        move = self.history.pop()
        self._apply(move.inverse())
        return move

    def reset(self) -> None:
        """Undo every move."""
        while self.history:
            self.undo()

    def _counters(self, status: int) -> dict:
        """The state and counters every result reports."""
        return {
            "score": self.score,
            "loglik": self.loglik,
            "n_iter": self.n_iter,
            "n_exact": self.n_exact,
            "n_ranked": self.n_ranked,
            "elapsed_s": self.elapsed_s,
            "status": status,
        }

    def _result(self, move: Move | None, status: int) -> StepResult:
        n_open = int(np.count_nonzero(self._fb_delta > self.tol * max(1.0, abs(self.score))))
        return StepResult(move=move, n_candidates=self.n_candidates_last, n_open=n_open, **self._counters(status))

    # ------------------------------------------------------------------- runs
    def run(self, max_steps: int | None = None, callback: Callable[..., None] | None = None) -> SearchResult:
        """Step until convergence or ``max_steps`` moves (one :class:`~engine.search.RunLoop`).

        ``callback(intermediate_result=StepResult)`` is called after every applied move; raising
        ``StopIteration`` in it stops the run with status -2.
        """
        return RunLoop(self, max_steps=max_steps, callback=callback).run()

    def summary(self, status: int) -> SearchResult:
        """A :class:`SearchResult` of the current state with termination ``status``."""
        return SearchResult(edges=self.edges(), history=list(self.history), **self._counters(status))
