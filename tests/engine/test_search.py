"""Independent checks of engine.search.Stepper (JMLR 2007 Algorithms 1 and 2).

Everything the stepper claims is re-derived here without the engine's caches:

* BIC of a graph: a least-squares refit (np.linalg.lstsq with an intercept) of every family,
  sigma^2 = RSS / M, minus (log M / 2)(k + 2) per family;
* the legal moves of a state: enumerated by brute force (apply the move to an adjacency matrix
  and test acyclicity with Kahn's algorithm), with max_parents / required / forbidden applied;
* the exact change of every move: the difference of the refitted BICs.
"""

from __future__ import annotations

import math
from functools import lru_cache

import numpy as np
import pytest

from engine.cpd.linear import LinearGaussianFamilies
from engine.exceptions import CycleError, ParameterError
from engine.search import CandidateTable, Move, Operator, SearchResult, Stepper, StepResult
from engine.synth import random_network, sample

ADD, DELETE, REVERSE, REPLACE = Operator.ADD, Operator.DELETE, Operator.REVERSE, Operator.REPLACE

# ----------------------------------------------------------------------------- independent oracle


class Oracle:
    """Refit-based BIC and brute-force legal moves for one data set."""

    def __init__(self, values: np.ndarray) -> None:
        self.values = np.asarray(values, dtype=float)
        self.m, self.n = self.values.shape
        self.pen = 0.5 * math.log(self.m)
        self._ll = lru_cache(maxsize=None)(self._loglik)

    def _loglik(self, child: int, parents: tuple[int, ...]) -> float:
        x = self.values[:, child]
        design = np.column_stack([np.ones(self.m), self.values[:, list(parents)]])
        beta = np.linalg.lstsq(design, x, rcond=None)[0]
        r = x - design @ beta
        return -0.5 * self.m * (math.log(2 * math.pi * float(r @ r) / self.m) + 1.0)

    def ll(self, child: int, parents) -> float:
        return self._ll(child, tuple(sorted(int(p) for p in parents)))

    def fam_bic(self, child: int, parents) -> float:
        return self.ll(child, parents) - self.pen * (len(parents) + 2)

    def bic(self, adj: np.ndarray) -> float:
        return sum(self.fam_bic(c, np.flatnonzero(adj[:, c])) for c in range(self.n))

    def loglik(self, adj: np.ndarray) -> float:
        return sum(self.ll(c, np.flatnonzero(adj[:, c])) for c in range(self.n))

    def move_delta(self, adj: np.ndarray, op: int, p: int, c: int, removed: int = -1) -> tuple[float, float]:
        """(delta_loglik, delta_bic) of a move, from refits of the touched families only."""
        pc = [int(i) for i in np.flatnonzero(adj[:, c])]
        if op == ADD:
            dll = self.ll(c, pc + [p]) - self.ll(c, pc)
            return dll, dll - self.pen
        if op == DELETE:
            dll = self.ll(c, [q for q in pc if q != p]) - self.ll(c, pc)
            return dll, dll + self.pen
        if op == REVERSE:
            pp = [int(i) for i in np.flatnonzero(adj[:, p])]
            dll = self.ll(c, [q for q in pc if q != p]) - self.ll(c, pc) + self.ll(p, pp + [c]) - self.ll(p, pp)
            return dll, dll
        dll = self.ll(c, [q for q in pc if q != removed] + [p]) - self.ll(c, pc)
        return dll, dll


def to_adj(n: int, edges) -> np.ndarray:
    adj = np.zeros((n, n), dtype=bool)
    for p, c in edges:
        adj[p, c] = True
    return adj


def acyclic(adj: np.ndarray) -> bool:
    indeg = adj.sum(axis=0).astype(int)
    ready = [i for i in range(adj.shape[0]) if indeg[i] == 0]
    seen = 0
    while ready:
        v = ready.pop()
        seen += 1
        for w in np.flatnonzero(adj[v]):
            indeg[w] -= 1
            if indeg[w] == 0:
                ready.append(int(w))
    return seen == adj.shape[0]


def apply_to_adj(adj: np.ndarray, op: int, p: int, c: int, removed: int = -1) -> np.ndarray:
    new = adj.copy()
    if op == ADD:
        new[p, c] = True
    elif op == DELETE:
        new[p, c] = False
    elif op == REVERSE:
        new[p, c], new[c, p] = False, True
    else:
        new[removed, c], new[p, c] = False, True
    return new


def legal_moves(adj, max_parents=None, required=(), forbidden=(), operators=tuple(Operator)):
    """Brute force: every legal (op, parent, child, removed) of the state ``adj``."""
    n = adj.shape[0]
    mp = n if max_parents is None else max_parents
    req, forb = set(required), set(forbidden)
    npar = adj.sum(axis=0)
    out = set()
    for c in range(n):
        for p in range(n):
            if p == c:
                continue
            if adj[p, c]:
                if (p, c) in req:
                    continue
                if DELETE in operators:
                    out.add((DELETE, p, c, -1))
                if (
                    REVERSE in operators
                    and (c, p) not in forb
                    and npar[p] < mp
                    and acyclic(apply_to_adj(adj, REVERSE, p, c))
                ):
                    out.add((REVERSE, p, c, -1))
                if REPLACE in operators:
                    for z in range(n):
                        if z == c or adj[z, c] or (z, c) in forb:
                            continue
                        if acyclic(apply_to_adj(adj, REPLACE, z, c, p)):
                            out.add((REPLACE, z, c, p))
            elif ADD in operators and (p, c) not in forb and npar[c] < mp and acyclic(apply_to_adj(adj, ADD, p, c)):
                out.add((ADD, p, c, -1))
    return out


def key(move: Move) -> tuple[int, int, int, int]:
    return (int(move.op), move.parent, move.child, move.removed)


def skeleton_f1(true_edges, learned_edges) -> float:
    t = {frozenset(e) for e in true_edges}
    lrn = {frozenset(e) for e in learned_edges}
    tp = len(t & lrn)
    if tp == 0:
        return 0.0
    prec, rec = tp / len(lrn), tp / len(t)
    return 2 * prec * rec / (prec + rec)


def network_data(n: int, m: int, seed: int, **kw) -> np.ndarray:
    """Raw (not standardized) samples of a random linear-Gaussian network: centring matters."""
    net = random_network(n, seed=seed, **kw)
    return sample(net, m, seed=seed + 100)


def rand_dag(n: int, n_edges: int, seed: int, max_in: int | None = None) -> list[tuple[int, int]]:
    """A random DAG (edges along a random order) used as a deliberately wrong starting graph, so
    that searches also Delete, Replace and Reverse."""
    rng = np.random.default_rng(seed)
    order = rng.permutation(n)
    indeg = np.zeros(n, dtype=int)
    edges: set[tuple[int, int]] = set()
    for _ in range(50 * n_edges):
        if len(edges) == n_edges:
            break
        a, b = sorted(rng.choice(n, 2, replace=False))
        p, c = int(order[a]), int(order[b])
        if (p, c) in edges or (max_in is not None and indeg[c] >= max_in):
            continue
        edges.add((p, c))
        indeg[c] += 1
    return sorted(edges)


def compatible(n: int, init, required=(), forbidden=()) -> list[tuple[int, int]]:
    """The edges of ``init`` that can join the required ones without a cycle or a forbidden edge."""
    adj = to_adj(n, required)
    out = []
    for e in init:
        if e in forbidden or adj[e]:
            continue
        adj[e] = True
        if acyclic(adj):
            out.append(e)
        else:
            adj[e] = False
    return out


@pytest.fixture(scope="module")
def data8():
    return network_data(8, 300, 3, expected_parents=1.5)


@pytest.fixture(scope="module")
def oracle8(data8):
    return Oracle(data8)


def stepper(values, **kw) -> Stepper:
    return Stepper(LinearGaussianFamilies(values), **kw)


# -------------------------------------------------------------------------- moves vs refit BIC

SETTINGS = [
    dict(method="greedy"),
    dict(method="ideal", k=1),
    dict(method="ideal", k=2, measure="c1"),
    dict(method="ideal", k=2, queue="per_operator"),
    dict(method="ideal", k=3, max_parents=2),
]


class TestStepMoves:
    @pytest.mark.parametrize("start", [None, 0, 1, 2])
    @pytest.mark.parametrize("kw", SETTINGS, ids=lambda kw: "-".join(f"{k}={v}" for k, v in kw.items()))
    def test_every_move_matches_independent_bic(self, data8, oracle8, kw, start):
        init = [] if start is None else rand_dag(8, 10, start, kw.get("max_parents"))
        s = stepper(data8, initial=init, **kw)
        n = s.n_vars
        adj = to_adj(n, init)
        assert s.score == pytest.approx(oracle8.bic(adj), rel=1e-9)
        for _ in range(40):
            before = oracle8.bic(adj)
            legal = legal_moves(adj, kw.get("max_parents"))
            res = s.step()
            if res.move is None:
                assert res.status == 1
                break
            mv = res.move
            assert res.status == 0
            assert key(mv) in legal, f"illegal move applied: {mv}"
            adj = apply_to_adj(adj, mv.op, mv.parent, mv.child, mv.removed)
            assert acyclic(adj)
            assert sorted(s.edges()) == sorted(map(tuple, np.argwhere(adj).tolist()))
            after = oracle8.bic(adj)
            assert mv.delta_bic == pytest.approx(after - before, rel=1e-7, abs=1e-7)
            dll, dbic = oracle8.move_delta(
                apply_to_adj(adj, *_inverse_args(mv)), mv.op, mv.parent, mv.child, mv.removed
            )
            assert mv.delta_loglik == pytest.approx(dll, rel=1e-7, abs=1e-7)
            assert mv.delta_bic > 0
            assert res.score == pytest.approx(after, rel=1e-9)
            assert s.loglik == pytest.approx(oracle8.loglik(adj), rel=1e-9)
            if "max_parents" in kw:
                assert adj.sum(axis=0).max() <= kw["max_parents"]
        else:
            pytest.fail("search did not converge in 40 steps")

    @pytest.mark.parametrize("start", [None, 0, 1])
    @pytest.mark.parametrize(
        "seed,kw",
        [
            (0, {}),
            (1, {}),
            (2, dict(max_parents=1)),
            (3, dict(required=[(0, 1)], forbidden=[(2, 3), (3, 2)])),
            (4, dict(operators=(ADD, DELETE, REVERSE))),
            (5, dict(max_parents=2, forbidden=[(1, 0), (4, 5)])),
        ],
    )
    def test_greedy_is_steepest_ascent(self, seed, kw, start):
        """Greedy applies the best of ALL legal moves (brute force over refits) each step, and stops
        only when no legal move improves the BIC."""
        values = network_data(6, 200, seed, expected_parents=1.5)
        oracle = Oracle(values)
        init = [] if start is None else rand_dag(6, 7, 10 * seed + start, kw.get("max_parents"))
        init = compatible(6, init, kw.get("required", ()), kw.get("forbidden", ()))
        s = stepper(values, method="greedy", initial=init, **kw)
        n = 6
        adj = to_adj(n, s.edges())
        for _ in range(40):
            legal = legal_moves(
                adj,
                kw.get("max_parents"),
                kw.get("required", ()),
                kw.get("forbidden", ()),
                kw.get("operators", tuple(Operator)),
            )
            deltas = {m: oracle.move_delta(adj, *m)[1] for m in legal}
            best = max(deltas.values(), default=-np.inf)
            res = s.step()
            if res.move is None:
                assert best <= 1e-6 * max(1.0, abs(s.score)), f"converged with an improving move: {best}"
                break
            mv = res.move
            assert key(mv) in legal
            assert deltas[key(mv)] == pytest.approx(best, rel=1e-7, abs=1e-7), (mv, best)
            adj = apply_to_adj(adj, mv.op, mv.parent, mv.child, mv.removed)
        else:
            pytest.fail("no convergence")

    @pytest.mark.parametrize("start", [None, 3])
    @pytest.mark.parametrize("queue", ["shared", "per_operator"])
    def test_ideal_applies_best_selected_candidate(self, data8, oracle8, queue, start):
        """Algorithm 2: the move is the best exactly-scored (selected) candidate of the table."""
        init = [] if start is None else rand_dag(8, 12, start)
        s = stepper(data8, method="ideal", k=2, queue=queue, initial=init)
        for _ in range(30):
            table = s.propose()
            sel = np.flatnonzero(table.selected & ~np.isnan(table.delta_bic))
            assert np.array_equal(np.flatnonzero(table.selected), sel), "a selected row was not scored exactly"
            nxt = s.best_move()
            res = s.step()
            if res.move is None:
                assert nxt is None
                assert sel.size == 0 or table.delta_bic[sel].max() <= 1e-6 * max(1.0, abs(s.score))
                break
            assert key(res.move) == key(nxt)
            best = table.delta_bic[sel].max()
            assert res.move.delta_bic == pytest.approx(best, rel=1e-9, abs=1e-9)
            row = [
                i
                for i in sel
                if (int(table.op[i]), int(table.parent[i]), int(table.child[i]), int(table.removed[i])) == key(res.move)
            ]
            assert len(row) == 1
        else:
            pytest.fail("no convergence")

    def test_initial_graph_score(self, data8, oracle8):
        init = [(0, 1), (1, 2), (3, 2)]
        s = stepper(data8, initial=init)
        assert sorted(s.edges()) == sorted(init)
        assert s.score == pytest.approx(oracle8.bic(to_adj(8, init)), rel=1e-10)
        assert s.loglik == pytest.approx(oracle8.loglik(to_adj(8, init)), rel=1e-10)

    def test_score_of_final_graph(self, data8, oracle8):
        for kw in SETTINGS:
            r = stepper(data8, **kw).run()
            assert isinstance(r, SearchResult)
            assert r.score == pytest.approx(oracle8.bic(to_adj(8, r.edges)), rel=1e-9)
            assert r.loglik == pytest.approx(oracle8.loglik(to_adj(8, r.edges)), rel=1e-9)
            assert acyclic(to_adj(8, r.edges))


def _inverse_args(mv: Move):
    """(op, parent, child, removed) that undoes ``mv`` on the adjacency matrix after it."""
    if mv.op == ADD:
        return (DELETE, mv.parent, mv.child, -1)
    if mv.op == DELETE:
        return (ADD, mv.parent, mv.child, -1)
    if mv.op == REVERSE:
        return (REVERSE, mv.child, mv.parent, -1)
    return (REPLACE, mv.removed, mv.child, mv.parent)


# ------------------------------------------------------------------------------- constraints


class TestConstraints:
    @pytest.mark.parametrize("method", ["greedy", "ideal"])
    @pytest.mark.parametrize("mp", [0, 1, 2])
    def test_max_parents(self, data8, method, mp):
        s = stepper(data8, method=method, max_parents=mp)
        while s.step().move is not None:
            counts = to_adj(8, s.edges()).sum(axis=0)
            assert counts.max() <= mp
        if mp == 0:
            assert s.edges() == []
        table = s.propose()
        counts = to_adj(8, s.edges()).sum(axis=0)
        for i in range(len(table)):
            if table.op[i] == ADD:
                assert counts[table.child[i]] < mp
            if table.op[i] == REVERSE:
                assert counts[table.parent[i]] < mp

    @pytest.mark.parametrize("method", ["greedy", "ideal"])
    def test_required_kept_forbidden_never_appear(self, data8, method):
        free = Stepper(LinearGaussianFamilies(data8), method="greedy").run()
        learned = free.edges
        assert len(learned) >= 3
        # forbid edges the free search wants (both directions); require an edge it did not choose
        forbidden = [learned[0], learned[1][::-1], learned[1], learned[2][::-1]]
        learned_pairs = {frozenset(e) for e in learned}
        required = next((p, c) for p in range(8) for c in range(8) if p != c and frozenset((p, c)) not in learned_pairs)
        s = stepper(data8, method=method, required=[required], forbidden=forbidden)
        assert required in s.edges()
        for _ in range(60):
            table = s.propose()
            for i in range(len(table)):
                edge = (int(table.parent[i]), int(table.child[i]))
                if table.op[i] in (ADD, REPLACE):
                    assert edge not in forbidden
                if table.op[i] == REVERSE:
                    assert edge[::-1] not in forbidden
                    assert edge != required
                if table.op[i] == DELETE:
                    assert edge != required
                if table.op[i] == REPLACE:
                    assert (int(table.removed[i]), int(table.child[i])) != required
            res = s.step()
            edges = s.edges()
            assert required in edges
            assert not set(forbidden) & set(edges)
            if res.move is None:
                break
        else:
            pytest.fail("no convergence")
        assert s.score == pytest.approx(Oracle(data8).bic(to_adj(8, s.edges())), rel=1e-9)

    def test_apply_rejects_illegal_moves(self, data8):
        s = stepper(data8, initial=[(0, 1), (1, 2)], required=[(1, 2)], forbidden=[(3, 4)], max_parents=2)
        bad = [
            Move(ADD, 2, 0),  # cycle
            Move(ADD, 0, 1),  # already there
            Move(ADD, 3, 4),  # forbidden
            Move(DELETE, 1, 2),  # required
            Move(DELETE, 2, 3),  # not there
            Move(REVERSE, 1, 2),  # required
            Move(REPLACE, 0, 2, removed=1),  # replaces a required edge
            Move(REPLACE, 2, 1, removed=0),  # would make 2 -> 1 -> 2
        ]
        for mv in bad:
            with pytest.raises(CycleError):
                s.apply(mv)
            assert sorted(s.edges()) == [(0, 1), (1, 2)]
        s.apply(Move(ADD, 0, 2))
        with pytest.raises(CycleError):  # 2 already has max_parents = 2 parents
            s.apply(Move(ADD, 3, 2))
        res = s.apply(Move(REPLACE, 3, 2, removed=0))
        assert sorted(s.edges()) == [(0, 1), (1, 2), (3, 2)]
        assert res.score == pytest.approx(Oracle(data8).bic(to_adj(8, s.edges())), rel=1e-9)


# ------------------------------------------------------------------------------- undo / reset


class TestUndoReset:
    @pytest.mark.parametrize("start", [None, 2])
    @pytest.mark.parametrize(
        "kw", [dict(method="greedy"), dict(method="ideal", k=2), dict(method="ideal", k=2, cache_size=0)]
    )
    def test_undo_restores_exactly_and_redo_repeats(self, data8, kw, start):
        init = [] if start is None else rand_dag(8, 10, start)
        s = stepper(data8, initial=init, **kw)
        states = [(s.edges(), s.score, s.loglik)]
        moves = []
        for _ in range(12):
            res = s.step()
            if res.move is None:
                break
            moves.append(res.move)
            states.append((s.edges(), s.score, s.loglik))
        assert len(moves) >= 4
        # undo back to the start, checking every intermediate state exactly
        for j in range(len(moves) - 1, -1, -1):
            undone = s.undo()
            assert key(undone) == key(moves[j])
            edges, score, ll = states[j]
            assert s.edges() == edges
            assert s.score == score
            assert s.loglik == ll
            assert s.n_iter == j
        assert s.undo() is None
        # redo by stepping: the same moves, the same scores
        for j, mv in enumerate(moves):
            res = s.step()
            assert key(res.move) == key(mv)
            assert res.move.delta_bic == pytest.approx(mv.delta_bic, rel=1e-12)
            assert s.edges() == states[j + 1][0]
            assert s.score == states[j + 1][1]

    def test_undo_then_different_move_then_continue(self, data8, oracle8):
        """Undo in the middle, apply a user move, keep searching: scores stay consistent."""
        s = stepper(data8, method="ideal", k=2)
        s.run(max_steps=3)
        s.undo()
        table = s.propose()
        add_rows = np.flatnonzero(table.op == ADD)
        s.apply(table.move(int(add_rows[-1])))
        r = s.run()
        assert r.score == pytest.approx(oracle8.bic(to_adj(8, r.edges)), rel=1e-9)
        assert acyclic(to_adj(8, r.edges))

    def test_reset(self, data8):
        init = [(0, 1)]
        s = stepper(data8, method="greedy", initial=init)
        score0, ll0 = s.score, s.loglik
        s.run(max_steps=5)
        assert s.n_iter == 5
        s.reset()
        assert s.edges() == init
        assert s.score == score0 and s.loglik == ll0
        assert s.history == [] and s.n_iter == 0
        s.reset()  # idempotent
        assert s.edges() == init

    def test_undo_after_perturb(self, data8):
        s = stepper(data8, method="greedy")
        s.run(max_steps=4)
        edges, score = s.edges(), s.score
        done = s.perturb(5, np.random.default_rng(0))
        assert done and all(m.random for m in s.history[-done:])  # marked as not chosen by score
        assert not any(m.random for m in s.history[:-done])
        assert s.history[-1].to_dict()["random"] is True
        assert acyclic(to_adj(8, s.edges()))
        assert s.score == pytest.approx(Oracle(data8).bic(to_adj(8, s.edges())), rel=1e-9)
        for _ in range(done):
            s.undo()
        assert s.edges() == edges and s.score == score


# ---------------------------------------------------------------------------------- run()


class TestRun:
    def test_max_steps_status_2(self, data8):
        s = stepper(data8)
        r = s.run(max_steps=2)
        assert r.status == 2 and r.n_iter == 2 and len(r.history) == 2
        assert r.success and not r.converged
        assert r.message == "Stopped after the requested number of steps."
        r0 = s.run(max_steps=0)
        assert r0.status == 2 and r0.n_iter == 2

    def test_convergence_status_1(self, data8):
        s = stepper(data8)
        r = s.run()
        assert r.status == 1 and r.converged and r.success
        assert [key(m) for m in r.history] == [key(m) for m in s.history]
        again = s.step()
        assert again.move is None and again.status == 1 and isinstance(again, StepResult)
        assert s.run().n_iter == r.n_iter

    def test_callback_stop_iteration_status_minus_2(self, data8):
        seen = []

        def cb(intermediate_result):
            seen.append(intermediate_result)
            if len(seen) == 2:
                raise StopIteration

        s = stepper(data8)
        r = s.run(callback=cb)
        assert r.status == -2 and not r.success
        assert r.n_iter == 2 and len(seen) == 2
        assert all(isinstance(x, StepResult) and x.status == 0 and x.move is not None for x in seen)
        assert seen[-1].score == r.score

    @pytest.mark.parametrize("bad", [-1, 1.5, "3"])
    def test_bad_max_steps(self, data8, bad):
        with pytest.raises(ParameterError):
            stepper(data8).run(max_steps=bad)


# ------------------------------------------------------------------------------- propose()


def table_keys(table: CandidateTable, rows=None):
    rows = range(len(table)) if rows is None else rows
    return [(int(table.op[i]), int(table.parent[i]), int(table.child[i]), int(table.removed[i])) for i in rows]


def _check_table(s: Stepper, oracle: Oracle, kw: dict) -> CandidateTable:
    table = s.propose()
    n = s.n_vars
    adj = to_adj(n, s.edges())
    keys = table_keys(table)
    assert len(set(keys)) == len(keys), "duplicate rows"
    expect = legal_moves(adj, kw.get("max_parents"), kw.get("required", ()), kw.get("forbidden", ()))
    assert set(keys) == expect
    pen = oracle.pen
    for i, kk in enumerate(keys):
        op = kk[0]
        if op in (ADD, REPLACE):
            assert np.isfinite(table.c1[i]) and np.isfinite(table.c2[i])
            assert table.c1[i] <= table.c2[i] + 1e-9
        else:
            assert np.isnan(table.c1[i]) and np.isnan(table.c2[i])
            assert table.selected[i]
        if not np.isnan(table.delta_loglik[i]):
            dll, dbic = oracle.move_delta(adj, *kk)
            assert table.delta_loglik[i] == pytest.approx(dll, rel=1e-7, abs=1e-7)
            assert table.delta_bic[i] == pytest.approx(dbic, rel=1e-7, abs=1e-7)
            if op in (ADD, REPLACE):
                assert table.c2[i] <= dll + 1e-7 * max(1.0, abs(dll))
        if op == ADD:
            assert table.delta_bic[i] == pytest.approx(table.delta_loglik[i] - pen, nan_ok=True)
        if op == DELETE:
            assert table.delta_bic[i] == pytest.approx(table.delta_loglik[i] + pen)
    # selection: greedy scores everything; ideal at most k per family (queue) and the top ones
    for c in range(n):
        fam = np.flatnonzero(np.isin(table.op, [ADD, REPLACE]) & (table.child == c))
        if s.method == "greedy":
            assert table.selected[fam].all()
            assert not np.isnan(table.delta_bic[fam]).any()
            continue
        meas = table.c2 if s.measure == "c2" else table.c1
        if s.queue == "shared":
            pools = [fam]
        else:
            pools = [fam[table.op[fam] == ADD]] + [
                fam[(table.op[fam] == REPLACE) & (table.removed[fam] == u)]
                for u in np.unique(table.removed[fam])
                if u >= 0
            ]
        for pool in pools:
            if not pool.size:
                continue
            sel = pool[table.selected[pool]]
            assert sel.size == min(s.k, pool.size)
            unsel = pool[~table.selected[pool]]
            if sel.size and unsel.size:
                assert meas[sel].min() >= meas[unsel].max() - 1e-12, "selected rows are not the top k"
            assert not np.isnan(table.delta_bic[sel]).any()
    return table


PROPOSE_SETTINGS = [
    dict(method="greedy"),
    dict(method="ideal", k=2),
    dict(method="ideal", k=1, measure="c1"),
    dict(method="ideal", k=2, queue="per_operator"),
    dict(method="ideal", k=3, max_parents=2, required=[(0, 1)], forbidden=[(2, 3), (5, 0)]),
]


class TestPropose:
    @pytest.mark.parametrize("start", [None, 1])
    @pytest.mark.parametrize("kw", PROPOSE_SETTINGS, ids=lambda kw: "-".join(f"{k}={v}" for k, v in kw.items()))
    def test_table_along_a_search(self, data8, oracle8, kw, start):
        init = [] if start is None else rand_dag(8, 10, start, kw.get("max_parents"))
        init = compatible(8, init, kw.get("required", ()), kw.get("forbidden", ()))
        s = stepper(data8, initial=init, **kw)
        for _ in range(12):
            _check_table(s, oracle8, kw)
            if s.step().move is None:
                break
        _check_table(s, oracle8, kw)

    def test_table_uncentred_ranking(self, data8, oracle8):
        s = Stepper(LinearGaussianFamilies(data8, centred=False), method="ideal", k=2)
        for _ in range(6):
            _check_table(s, oracle8, {})
            s.step()

    def test_propose_does_not_change_the_course(self, data8):
        a, b = stepper(data8, method="ideal", k=2), stepper(data8, method="ideal", k=2)
        for _ in range(10):
            a.propose()
            ra, rb = a.step(), b.step()
            assert (ra.move is None) == (rb.move is None)
            if ra.move is None:
                break
            assert key(ra.move) == key(rb.move)

    @pytest.mark.parametrize("kw", [dict(method="ideal", k=1), dict(method="ideal", k=2, queue="per_operator")])
    def test_evaluate_all(self, data8, oracle8, kw):
        init = rand_dag(8, 10, 4)
        s = stepper(data8, initial=init, **kw)
        twin = stepper(data8, initial=init, **kw)
        for _ in range(6):
            table = s.propose()
            before = table.delta_bic.copy()
            n_exact = s.n_exact
            progress = []
            out = s.evaluate_all(table, progress=progress.append)
            assert out is table
            assert s.n_exact == n_exact, "evaluate_all counted as exact evaluations"
            assert not np.isnan(table.delta_bic).any() and not np.isnan(table.delta_loglik).any()
            done = ~np.isnan(before)
            np.testing.assert_array_equal(table.delta_bic[done], before[done])
            assert progress and progress[-1] == pytest.approx(1.0)
            adj = to_adj(8, s.edges())
            for i, kk in enumerate(table_keys(table)):
                dll, dbic = oracle8.move_delta(adj, *kk)
                assert table.delta_loglik[i] == pytest.approx(dll, rel=1e-7, abs=1e-7)
                assert table.delta_bic[i] == pytest.approx(dbic, rel=1e-7, abs=1e-7)
                if kk[0] in (ADD, REPLACE):
                    assert table.c1[i] <= table.c2[i] + 1e-9 <= dll + 1e-7 * max(1.0, abs(dll)) + 1e-9
            # the search's course is unchanged: same next move (and n_exact) as a twin never inspected
            ra, rb = s.step(), twin.step()
            assert (ra.move is None) == (rb.move is None)
            if ra.move is None:
                break
            assert key(ra.move) == key(rb.move)
            assert ra.n_exact == rb.n_exact

    @pytest.mark.parametrize("kw", [dict(method="greedy"), dict(method="ideal", k=2, queue="per_operator")])
    def test_applied_move_matches_its_table_row(self, data8, kw):
        s = stepper(data8, initial=rand_dag(8, 10, 1), **kw)
        for _ in range(20):
            table = s.propose()
            res = s.step()
            if res.move is None:
                break
            rows = [i for i, kk in enumerate(table_keys(table)) if kk == key(res.move)]
            assert len(rows) == 1
            row = table.move(rows[0])
            assert row.rank == res.move.rank
            assert row.delta_bic == pytest.approx(res.move.delta_bic, rel=1e-12)
            assert row.c2 == pytest.approx(res.move.c2, rel=1e-12, nan_ok=True)

    def test_operator_subset(self, data8, oracle8):
        ops = (ADD, DELETE)
        s = stepper(data8, method="greedy", operators=ops, initial=rand_dag(8, 10, 2))
        for _ in range(20):
            table = s.propose()
            adj = to_adj(8, s.edges())
            assert set(table_keys(table)) == legal_moves(adj, operators=ops)
            res = s.step()
            if res.move is None:
                break
            assert res.move.op in ops

    def test_table_order_and_records(self, data8):
        s = stepper(data8, method="ideal", k=2)
        s.run(max_steps=3)
        table = s.propose()
        order = table.order()
        assert sorted(order.tolist()) == list(range(len(table)))
        exact = np.where(np.isnan(table.delta_bic), -np.inf, table.delta_bic)[order]
        assert np.all(exact[:-1] >= exact[1:])
        recs = table.to_records()
        assert len(recs) == len(table)
        assert recs[0]["delta_bic"] == pytest.approx(float(np.nanmax(table.delta_bic)))


class TestRank:
    """The rank reported for an ideal-parent move: the search page documents that "Ideal K scores
    exactly only ranks 1..K of each family", so a selected (exactly scored) candidate must have
    rank <= K in its queue."""

    def test_applied_ideal_move_rank_at_most_k(self, data8):
        # family 2 starts with no parents and only 3 and 4 as legal parents; its descendants 7 and 1
        # have larger C2 than both
        s = stepper(data8, method="ideal", k=2, initial=rand_dag(8, 10, 0))
        assert list(s.legal_parents(2)) == [3, 4]
        res = s.step()
        assert (res.move.op, res.move.parent, res.move.child) == (ADD, 3, 2)
        assert res.move.rank <= 2, res.move

    @pytest.mark.parametrize("queue", ["shared", "per_operator"])
    def test_selected_rows_rank_at_most_k(self, data8, queue):
        s = stepper(data8, method="ideal", k=2, queue=queue, initial=rand_dag(8, 10, 0))
        for _ in range(10):
            table = s.propose()
            sel = table.selected & np.isin(table.op, [ADD, REPLACE])
            assert np.all(table.rank[sel] <= 2), table.rank[sel]
            if s.step().move is None:
                break

    def test_ranks_without_illegal_candidates_are_consistent(self, data8):
        """From the empty graph every other variable is a legal parent: ranks are 1..N-1 by C2."""
        s = stepper(data8, method="ideal", k=2, queue="per_operator")
        table = s.propose()
        for c in range(8):
            rows = np.flatnonzero((table.child == c) & (table.op == ADD))
            order = rows[np.argsort(-table.c2[rows], kind="stable")]
            assert table.rank[order].tolist() == list(range(1, 8))
            assert set(np.flatnonzero(table.selected[rows])) == set(np.flatnonzero(table.rank[rows] <= 2))


# ------------------------------------------------------------------------- ideal vs greedy


def _trajectory(values, **kw):
    s = stepper(values, **kw)
    r = s.run(max_steps=200)
    assert r.status == 1
    return [key(m) for m in r.history], r


class TestIdealVersusGreedy:
    @pytest.mark.parametrize("start", [None, 0, 1])
    @pytest.mark.parametrize("seed", [0, 1, 2, 3])
    def test_large_k_follows_greedy_exactly(self, seed, start):
        n = 9
        values = network_data(n, 250, 10 + seed, expected_parents=1.8)
        init = [] if start is None else rand_dag(n, 12, 7 * seed + start)
        g, rg = _trajectory(values, method="greedy", initial=init)
        assert len(g) >= 5
        p, rp = _trajectory(values, method="ideal", k=n - 1, queue="per_operator", initial=init)
        sh, rs = _trajectory(values, method="ideal", k=n * n, queue="shared", initial=init)
        assert p == g
        assert sh == g
        assert rp.score == rg.score == rs.score

    @pytest.mark.parametrize("seed", [0, 1])
    def test_large_k_follows_greedy_with_constraints(self, seed):
        n = 8
        values = network_data(n, 200, 20 + seed, expected_parents=2.0)
        kw = dict(max_parents=2, forbidden=[(0, 1), (1, 0)], required=[(2, 3)])
        g, _ = _trajectory(values, method="greedy", **kw)
        p, _ = _trajectory(values, method="ideal", k=n, queue="per_operator", measure="c1", **kw)
        assert p == g

    def test_ideal_k2_uses_fewer_exact_evaluations(self):
        values = network_data(15, 400, 7, expected_parents=1.5)
        _, rg = _trajectory(values, method="greedy")
        _, ri = _trajectory(values, method="ideal", k=2)
        assert ri.n_exact < rg.n_exact
        assert ri.n_exact < 0.5 * rg.n_exact


# --------------------------------------------------------------------- planted structure


RECOVERY_SEEDS = range(5)


@pytest.fixture(scope="module")
def recovery():
    """Skeleton F1 of greedy and ideal (K=5) per seed on random_network(20, 1.2, signal 0.4)."""
    out = {}
    for s in RECOVERY_SEEDS:
        net = random_network(20, expected_parents=1.2, signal=0.4, seed=s)
        values = sample(net, 2000, seed=s)
        truth = net.edge_index()
        for method, k in (("greedy", 2), ("ideal", 5)):
            r = stepper(values, method=method, k=k).run()
            out[(method, s)] = skeleton_f1(truth, r.edges)
    return out


class TestPlantedStructure:
    @pytest.mark.parametrize("method", ["greedy", "ideal"])
    def test_skeleton_f1(self, recovery, method):
        f1s = [recovery[(method, s)] for s in RECOVERY_SEEDS]
        print(f"{method} skeleton F1 per seed: {[round(f, 3) for f in f1s]}, mean {np.mean(f1s):.3f}")
        assert np.mean(f1s) >= 0.85, f1s
        assert min(f1s) >= 0.75, f1s


class TestAwkwardData:
    def test_near_duplicate_column(self, data8):
        rng = np.random.default_rng(0)
        values = np.column_stack([data8, data8[:, 2] + 1e-3 * rng.normal(size=data8.shape[0])])
        oracle = Oracle(values)
        s = stepper(values, method="ideal", k=2)
        adj = to_adj(9, [])
        for _ in range(40):
            res = s.step()
            if res.move is None:
                break
            before = oracle.bic(adj)
            adj = apply_to_adj(adj, res.move.op, res.move.parent, res.move.child, res.move.removed)
            assert res.move.delta_bic == pytest.approx(oracle.bic(adj) - before, rel=1e-6, abs=1e-6)
        assert s.score == pytest.approx(oracle.bic(adj), rel=1e-9)

    @pytest.mark.parametrize("method", ["greedy", "ideal"])
    def test_exact_duplicate_column_stays_finite(self, data8, method):
        import warnings

        from engine.exceptions import NumericalWarning

        values = np.column_stack([data8, data8[:, 2]])
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", NumericalWarning)
            s = stepper(values, method=method)
            r = s.run(max_steps=60)
            assert r.status == 1
            assert np.isfinite(r.score) and acyclic(to_adj(9, r.edges))
            table = s.evaluate_all(s.propose())
            assert np.all(np.isfinite(table.delta_bic))
            assert np.all(np.isfinite(table.c2[np.isin(table.op, [ADD, REPLACE])]))


# ------------------------------------------------------------------------------- parameters


class TestParameters:
    @pytest.mark.parametrize(
        "kw",
        [
            dict(k=0),
            dict(k=-2),
            dict(k=2.5),
            dict(k="2"),
            dict(k=True),
            dict(method="tabu"),
            dict(method=None),
            dict(measure="c3"),
            dict(queue="global"),
            dict(max_parents=-1),
            dict(max_parents=1.5),
            dict(tol=-1.0),
            dict(required=[(0, 1)], forbidden=[(0, 1)]),
            dict(required=[(0, 0)]),
            dict(required=[(0, 99)]),
            dict(forbidden=[(-1, 2)]),
            dict(initial=[(1, 2)], forbidden=[(1, 2)]),
            dict(required=[(0, 2), (1, 2)], max_parents=1),
        ],
        ids=repr,
    )
    def test_parameter_error(self, data8, kw):
        with pytest.raises(ParameterError):
            stepper(data8, **kw)

    def test_cyclic_initial_graph(self, data8):
        with pytest.raises(CycleError):
            stepper(data8, initial=[(0, 1), (1, 0)])

    def test_case_insensitive_choices(self, data8):
        s = stepper(data8, method="Greedy", measure="C1", queue="Per_Operator")
        assert (s.method, s.measure, s.queue) == ("greedy", "c1", "per_operator")


def test_frozen_families_keep_their_parents_after_the_no_rules_shortcut():
    """Constraints.freeze on a constraint set built without rules (its no-rules shortcut on) makes
    the frozen families' parents required and every other parent forbidden, in every lookup."""
    from engine.dag import DAG
    from engine.search.constraints import Constraints

    cons = Constraints(4, 100)
    dag = DAG(4)
    dag.add_edge(0, 2)
    adj = np.zeros((4, 4), dtype=bool)
    adj[0, 2] = True
    cons.freeze(np.array([2]), adj)
    assert not cons.replaceable(2, (0,)).any()
    assert not cons.reversible(dag, np.array([0, 0, 1, 0]), np.array([0]), np.array([2])).any()
    legal_add, _ = cons.legal_rows(dag, 2, (0,))
    assert not legal_add.any()
    assert cons.legal_rows(dag, 3, ())[0][[0, 1, 2]].all()  # other families untouched


@pytest.mark.parametrize("seed", range(5))
def test_reversible_edges_match_each_rule_checked_alone(seed):
    """#22: Constraints.reversible filters by per-variable tests first (a non-regulator child may
    be no one's parent), then the pairs' rules and acyclicity; every edge's answer equals the
    rules checked one by one (regulator list, required and forbidden edges, a frozen family, cap)."""
    from engine.search.constraints import Constraints

    rng = np.random.default_rng(seed)
    n = 14
    regs = np.sort(rng.choice(n, size=6, replace=False))
    required = [(int(regs[0]), int(regs[1]))]
    forbidden = [(int(regs[2]), int(regs[3])), (int(regs[4]), int(regs[1]))]
    cons = Constraints(n, 100, max_parents=4, regulators=regs, required=required, forbidden=forbidden)
    dag = cons.starting_dag()
    for _ in range(80):
        p, c = int(rng.choice(regs)), int(rng.integers(n))
        if p != c and dag.can_add(p, c) and not cons.forbidden[p, c] and dag.adj[:, c].sum() < 4:
            dag.add_edge(p, c)
    if seed % 2:
        cons.freeze(np.array([int(regs[5])]), dag.adj)
    n_par = dag.adj.sum(axis=0)

    def alone(u, v):
        if cons.required[u, v] or cons.forbidden[v, u] or n_par[u] >= cons.max_parents:
            return False
        return not any(dag.reach[w, v] for w in np.flatnonzero(dag.adj[u]) if w != v)

    us, cs = dag.edge_pairs()
    got = cons.reversible(dag, n_par, us, cs)
    assert got.any() and not got.all()
    np.testing.assert_array_equal(got, [alone(int(u), int(v)) for u, v in zip(us, cs, strict=True)])


@pytest.mark.parametrize("size", [0, 9, 11])
def test_a_small_entry_cache_keeps_every_current_family_and_the_same_moves(data8, size):
    """#22: eviction moves the current families it meets to the back instead of walking past them
    at every new entry; the cache stays within its size (or holds only current families), keeps
    every current family, and the search makes the same moves as with an unbounded cache."""
    small, big = stepper(data8, cache_size=size), stepper(data8, cache_size=10_000)
    for _ in range(15):
        a, b = small.step(), big.step()
        assert (a.move is None) == (b.move is None)
        if a.move is None:
            break
        assert key(a.move) == key(b.move)
        assert len(small._entries) <= max(size, 8)
    assert small.edges() == big.edges()
    for c in range(8):
        assert (c, small._parents[c]) in small._entries


@pytest.mark.parametrize("regulators", [None, [0, 1, 2, 3, 5]])
def test_legal_reversals_found_again_only_where_a_leaf_changed_equal_a_fresh_look(regulators):
    """#22: after a move that changes only childless variables' families, the legal reversals are
    tested again only for the edges into them; at every state of a search (and after undoing it)
    they equal every edge tested afresh, and that shortcut is taken."""
    values = network_data(12, 200, 5, expected_parents=2.0)
    s = stepper(values, regulators=regulators)
    sizes = []
    real = s.constraints.reversible

    def counted(dag, n_par, us, cs):
        sizes.append((us.size, dag.n_edges))
        return real(dag, n_par, us, cs)

    s.constraints.reversible = counted

    def check():
        us, cs = s.reversals.legal(s)
        all_us, all_cs = s.dag.edge_array()
        ok = real(s.dag, s.n_par, all_us, all_cs)
        np.testing.assert_array_equal(us, all_us[ok])
        np.testing.assert_array_equal(cs, all_cs[ok])

    for _ in range(40):
        if s.step().move is None:
            break
        check()
    while s.undo() is not None:
        check()
    assert any(n < e for n, e in sizes)  # the shortcut was taken
