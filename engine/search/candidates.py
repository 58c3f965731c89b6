"""The candidate moves of a search state: the best of each family, and the table of all of them.

:func:`decide_family` picks a family's best exactly-scored Add, Replace or Delete (steepest
ascent, deterministic tie-break);
:func:`candidate_table` lists every legal Add, Replace, Delete and Reverse move of the current
state of a :class:`~engine.search.Stepper` with its ideal-parent measures (JMLR 2007 section 4)
and, where the search scored it, its exact log-likelihood and BIC change; :func:`evaluate_all`
fills in the exact changes of the rest (for the C1/C2-against-exact views) without touching the
search's own caches or counters. :func:`make_add` / :func:`make_rep` build the :class:`Move` the
search applies, with its rank among the family's legal candidates.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import numpy as np

from .family_entry import rank_ahead
from .moves import CandidateTable, Move, Operator
from .selection import FamilyEntry, argbest, better, measure_arrays, ranks, select_many

if TYPE_CHECKING:
    from .stepper import Stepper

__all__ = [
    "candidate_table",
    "decide_family",
    "evaluate_all",
    "full_measures",
    "make_add",
    "make_rep",
    "move_rank",
    "movable",
    "pools",
    "select_all",
    "unmovable",
]


def pools(stepper: Stepper, child: int, e: FamilyEntry, legal_add=None, legal_rep=None):
    """The family's ranking measures restricted to its *legal* candidates (NaN elsewhere):
    Add, Replace rows, and the shared queue. Ranks are positions in these pools, the same
    candidates the selector ranks, so a move scored by ``ideal`` has rank <= K."""
    if legal_add is None:
        legal_add, legal_rep = stepper.legal_rows(child)
    add_m, rep_m = full_measures(stepper, e)
    add_p = np.where(legal_add, add_m, np.nan)
    ok = stepper.constraints.replaceable(child, e.parents)
    rep_p = np.where(legal_rep[None, :] & ok[:, None], rep_m, np.nan) if len(e.parents) else rep_m
    return add_p, rep_p, np.concatenate([add_p, rep_p.ravel()])


def full_measures(stepper: Stepper, e: FamilyEntry) -> tuple[np.ndarray, np.ndarray]:
    """The family's Add and Replace measures over all N variables (NaN outside its candidates)."""
    return (e.add_c2, e.rep_c2) if stepper.measure == "c2" else (e.add_c1, e.rep_c1)


def move_rank(stepper: Stepper, child: int, e: FamilyEntry, value: float, row: int | None = None, legal=None) -> int:
    """1-based rank of a measure ``value`` among the family's legal candidates, as the selector
    ranks them: the shared queue, or with ``queue="per_operator"`` the Add pool (``row`` None) or
    the replacements of parent ``row``; the same figure as ranking within :func:`pools`, without
    building them. ``legal``: the family's (legal Add, legal Replace) masks over its candidate
    columns (:meth:`Stepper.legal_cols`) when known; ``value`` is compared with those columns."""
    legal_add, legal_rep = stepper.legal_cols(child) if legal is None else legal
    add_m, rep_m = measure_arrays(stepper.settings, e)
    shared = stepper.queue == "shared"
    above = 0
    if shared or row is None:
        above += np.count_nonzero((add_m > value) & (add_m < np.inf) & legal_add)
    if e.parents and (shared or row is not None):
        ok = stepper.constraints.replaceable(child, e.parents)
        m, ok = (rep_m, ok) if shared else (rep_m[row : row + 1], ok[row : row + 1])
        above += np.count_nonzero((m > value) & (m < np.inf) & legal_rep[None, :] & ok[:, None])
    return int(above) + 1


def make_add(stepper: Stepper, child: int, e: FamilyEntry, z: int, legal=None) -> Move:
    """The Add move z -> child with its measures, exact changes and rank (``legal``: the family's
    legal masks over its candidate columns when the caller has them)."""
    add_m, _ = measure_arrays(stepper.settings, e)
    a1, a2, _, _ = e.measures()
    j = e.pos(z)
    dll = float(e.add_exact[z])
    return Move(
        Operator.ADD,
        z,
        child,
        -1,
        float(a1[j]),
        float(a2[j]),
        dll,
        dll - stepper.pen_add(len(e.parents), child),
        move_rank(stepper, child, e, float(add_m[j]), None, legal),
    )


def make_rep(stepper: Stepper, child: int, e: FamilyEntry, i: int, z: int, legal=None) -> Move:
    """The Replace move (parent i of child -> z) with its measures, exact changes and rank."""
    _, rep_m = measure_arrays(stepper.settings, e)
    _, _, r1, r2 = e.measures()
    j = e.pos(z)
    dll = float(e.rep_exact[i, z])
    return Move(
        Operator.REPLACE,
        z,
        child,
        e.parents[i],
        float(r1[i, j]),
        float(r2[i, j]),
        dll,
        dll,
        move_rank(stepper, child, e, float(rep_m[i, j]), i, legal),
    )


#: the watched candidates of a family with no move
NO_WATCH = np.zeros(0, dtype=np.intp)
NO_WATCH.flags.writeable = False


def unmovable(stepper: Stepper, child: int, legal) -> bool:
    """Whether ``child``'s family has no legal Add, Replace or Delete at all (``legal``: its legal
    Add and Replace masks over the candidate columns), as a family frozen by the Markov-blanket
    stage of structural EM: :func:`decide_family` would find no move and watch nothing."""
    if legal[0].any() or legal[1].any():
        return False
    parents = stepper.parents(child)
    return Operator.DELETE not in stepper.operators or all(stepper.required[u, child] for u in parents)


def movable(stepper: Stepper, dirty: np.ndarray) -> list[tuple[int, FamilyEntry, tuple[np.ndarray, np.ndarray]]]:
    """(child, entry, legal Add and Replace masks over the candidate columns) of the families ``dirty``
    that have a move to rank (:func:`unmovable` ones get none: no best move, nothing watched), with
    their legal rows found in one batch (:meth:`Constraints.legal_rows_many`) and, for ``ideal``, the
    rankings they will need computed in another (:func:`~engine.search.family_entry.rank_ahead`)."""
    parents = [stepper.parents(c) for c in dirty.tolist()]
    legal_add, legal_rep = stepper.constraints.legal_rows_many(stepper.dag, dirty, parents, stepper.cols)
    todo = []
    for c, legal in zip(dirty.tolist(), zip(legal_add, legal_rep, strict=True), strict=True):
        if unmovable(stepper, c, legal):  # e.g. frozen by the Markov-blanket stage
            stepper._fam_best[c], stepper._fb_delta[c], stepper.watch[c] = None, -np.inf, NO_WATCH
        else:
            todo.append((c, stepper.entry(c), legal))
    if stepper.method == "ideal":
        ranked = [e for _, e, (a, r) in todo if a.any() or (e.parents and r.any())]
        rank_ahead(stepper.model, ranked, stepper.cols)
    return todo


def select_all(stepper: Stepper, todo: list) -> list[tuple[np.ndarray, list[tuple[int, np.ndarray]], int]]:
    """:meth:`Stepper.select` of the families ``todo`` (:func:`movable`'s), for ``ideal`` with one shared
    queue in batches (:func:`~engine.search.selection.select_many`: the same candidates)."""
    if stepper.method != "ideal" or stepper.queue != "shared":
        return [stepper.select(c, e, *legal) for c, e, legal in todo]
    rep_legal = [stepper.constraints.replace_rows(c, e.parents, legal[1]) for c, e, legal in todo]
    picked = select_many(stepper.settings, [e for _, e, _ in todo], [legal[0] for _, _, legal in todo], rep_legal)
    cols = stepper.cols
    if cols is None:
        return picked
    return [(cols[a], [(i, cols[idx]) for i, idx in reps], n) for a, reps, n in picked]


def decide_family(stepper: Stepper, child: int, e: FamilyEntry, add_idx: np.ndarray, reps, legal=None):
    """Best exactly-scored Add/Replace/Delete move of one family, as (BIC change, tie-break key,
    move), or None; also records which candidates the answer depends on (``stepper.watch``).
    ``legal``: the family's (legal Add, legal Replace) masks over its candidate columns now, when
    the caller has them."""
    k = len(e.parents)

    pen = stepper.pen_add(k, child)  # adding a parent
    pen_del = stepper.pen_add(k - 1, child) if k else 0.0  # what deleting one saves
    best: tuple[float, tuple, Move] | None = None

    def consider(delta_bic: float, key: tuple, make: Callable[[], Move]) -> None:
        nonlocal best
        if best is None or better(delta_bic, key, best[0], best[1], stepper.tol):
            best = (delta_bic, key, make())

    if add_idx.size:
        d = e.add_exact[add_idx] - pen
        j = argbest(d, add_idx)
        z = int(add_idx[j])
        consider(float(d[j]), (Operator.ADD, child, z, -1), lambda: make_add(stepper, child, e, z, legal))
    for i, idx in reps:
        if not idx.size:
            continue
        d = e.rep_exact[i, idx]
        j = argbest(d, idx)
        z = int(idx[j])
        u = e.parents[i]
        consider(
            float(d[j]), (Operator.REPLACE, child, z, u), lambda i=i, z=z: make_rep(stepper, child, e, i, z, legal)
        )
    if Operator.DELETE in stepper.operators:
        for i, u in enumerate(e.parents):
            if stepper.required[u, child]:
                continue
            dll = float(e.del_dll[i])
            consider(
                dll + pen_del,
                (Operator.DELETE, child, u, -1),
                lambda u=u, dll=dll: Move(Operator.DELETE, u, child, delta_loglik=dll, delta_bic=dll + pen_del),
            )
    # Candidates whose loss of legality would change this family's answer: for ``ideal`` the
    # whole selected top K (the next one would move up), for ``greedy`` only the best move.
    if stepper.method == "ideal":
        watch = np.concatenate([add_idx] + [idx for _, idx in reps]) if reps else add_idx
    elif best is not None and best[2].op in (Operator.ADD, Operator.REPLACE):
        watch = np.array([best[2].parent])
    else:
        watch = np.zeros(0, dtype=np.intp)
    stepper.watch[child] = watch.astype(np.intp)
    return best


_COLUMNS = ("op", "parent", "child", "removed", "c1", "c2", "dll", "dbic", "rank", "sel")


def candidate_table(stepper: Stepper, children=None) -> CandidateTable:
    """All legal candidate moves of the current state, ranked, with C1/C2 and exact changes.

    Runs the selector (so the exact changes the search would compute are filled in) and
    returns one row per legal Add, Replace, Delete and Reverse move; with ``children`` (variable
    indices) only the moves whose child is one of them (N^2 rows for all of N variables: at
    3000 variables a table of 9 million rows).
    """
    stepper.refresh()
    legal_add, legal_rep = stepper.constraints.legal_masks(stepper.dag)
    rows: dict[str, list] = {k: [] for k in _COLUMNS}

    def put(**cols) -> None:
        for key in _COLUMNS:
            rows[key].append(np.atleast_1d(cols[key]))

    queue_shared = stepper.queue == "shared"
    for c in range(stepper.n_vars) if children is None else sorted({int(c) for c in children}):
        e = stepper.entry(c)
        on_cols = (
            (legal_add[c], legal_rep[c])
            if stepper.cols is None
            else (legal_add[c][stepper.cols], legal_rep[c][stepper.cols])
        )
        add_idx, reps, _ = stepper.select(c, e, *on_cols)
        add_m, rep_m = full_measures(stepper, e)
        add_p, rep_p, shared_pool = pools(stepper, c, e, legal_add[c], legal_rep[c])
        k_par = len(e.parents)
        cand = np.flatnonzero(legal_add[c])
        if cand.size:
            m = cand.size
            put(
                op=np.full(m, Operator.ADD),
                parent=cand,
                child=np.full(m, c),
                removed=np.full(m, -1),
                c1=e.add_c1[cand],
                c2=e.add_c2[cand],
                dll=e.add_exact[cand],
                dbic=e.add_exact[cand] - stepper.pen_add(k_par, c),
                rank=ranks(shared_pool if queue_shared else add_p, add_m[cand]),
                sel=np.isin(cand, add_idx),
            )
        for i, idx in reps:
            u = e.parents[i]
            cand = np.flatnonzero(legal_rep[c]) if not stepper.required[u, c] else np.zeros(0, dtype=int)
            if not cand.size:
                continue
            m = cand.size
            put(
                op=np.full(m, Operator.REPLACE),
                parent=cand,
                child=np.full(m, c),
                removed=np.full(m, u),
                c1=e.rep_c1[i, cand],
                c2=e.rep_c2[i, cand],
                dll=e.rep_exact[i, cand],
                dbic=e.rep_exact[i, cand],
                rank=ranks(shared_pool if queue_shared else rep_p[i], rep_m[i, cand]),
                sel=np.isin(cand, idx),
            )
        if Operator.DELETE in stepper.operators:
            for i, u in enumerate(e.parents):
                if stepper.required[u, c]:
                    continue
                put(
                    op=Operator.DELETE,
                    parent=u,
                    child=c,
                    removed=-1,
                    c1=np.nan,
                    c2=np.nan,
                    dll=e.del_dll[i],
                    dbic=e.del_dll[i] + stepper.pen_add(k_par - 1, c),
                    rank=0,
                    sel=True,
                )
    us, cs, dll = stepper.reversal_candidates()
    if children is not None:
        keep = np.isin(cs, np.asarray(list(children), dtype=np.intp))
        us, cs, dll = us[keep], cs[keep], dll[keep]
    if dll.size:
        m = dll.size
        put(
            op=np.full(m, Operator.REVERSE),
            parent=us,
            child=cs,
            removed=np.full(m, -1),
            c1=np.full(m, np.nan),
            c2=np.full(m, np.nan),
            dll=dll,
            dbic=dll - stepper.rev_penalty(us, cs),
            rank=np.zeros(m),
            sel=np.ones(m, dtype=bool),
        )

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
    if children is None:
        stepper.n_candidates_last = len(table)
    return table


def evaluate_all(
    stepper: Stepper, table: CandidateTable, progress: Callable[[float], None] | None = None
) -> CandidateTable:
    """Fill in the exact changes of every row (for inspection: the bounds view).

    The values come straight from the CPD model and are *not* stored in the search's caches,
    so inspecting never changes what the search counts as exact evaluations (``n_exact``)
    or what it would do next. Rows the search already scored keep their values.
    """
    model = stepper.model
    children = np.unique(table.child)
    for j, c in enumerate(children):
        c = int(c)
        e = stepper.entry(c)
        rows = np.flatnonzero((table.child == c) & (table.op == Operator.ADD))
        todo = rows[np.isnan(table.delta_loglik[rows])]
        if todo.size:
            gain = model.exact_add_many([(c, e.parents, table.parent[todo])])[0]
            table.delta_loglik[todo] = gain
            table.delta_bic[todo] = gain - stepper.pen_add(len(e.parents), c)
        for i, u in enumerate(e.parents):
            rows = np.flatnonzero((table.child == c) & (table.op == Operator.REPLACE) & (table.removed == u))
            todo = rows[np.isnan(table.delta_loglik[rows])]
            if todo.size:
                reduced = e.parents[:i] + e.parents[i + 1 :]
                gain = e.del_dll[i] + model.exact_add_many([(c, reduced, table.parent[todo])])[0]
                table.delta_loglik[todo] = gain
                table.delta_bic[todo] = gain
        if progress is not None:
            progress((j + 1) / len(children))
    return table
