"""Independent checks of engine.dag.DAG: incremental reachability against a brute-force closure.

The brute force is a depth-first search from every node over the adjacency matrix; acyclicity is
Kahn's algorithm. Neither uses the DAG's own reach matrix or check_reach().
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.dag import DAG
from engine.exceptions import CycleError

# ----------------------------------------------------------------------------- brute force


def closure(adj: np.ndarray) -> np.ndarray:
    """reach[a, b]: a directed path of length >= 1 from a to b (DFS from every node)."""
    n = adj.shape[0]
    out = np.zeros((n, n), dtype=bool)
    for a in range(n):
        stack = list(np.flatnonzero(adj[a]))
        while stack:
            v = int(stack.pop())
            if not out[a, v]:
                out[a, v] = True
                stack.extend(int(w) for w in np.flatnonzero(adj[v]))
    return out


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


def brute_can_add(adj, p, c) -> bool:
    if p == c or adj[p, c]:
        return False
    new = adj.copy()
    new[p, c] = True
    return acyclic(new)


def brute_can_reverse(adj, p, c) -> bool:
    new = adj.copy()
    new[p, c] = False
    new[c, p] = True
    return acyclic(new)


def check_all(d: DAG, adj: np.ndarray) -> None:
    """Everything the DAG reports agrees with the brute force on the shadow adjacency ``adj``."""
    n = adj.shape[0]
    np.testing.assert_array_equal(d.adj, adj)
    np.testing.assert_array_equal(d.reach, closure(adj))
    assert d.n_edges == int(adj.sum())
    assert sorted(d.edges()) == sorted((int(p), int(c)) for p, c in np.argwhere(adj))
    assert d.edges() == sorted(d.edges(), key=lambda e: (e[1], e[0]))
    src, dst = d.edge_array()
    assert list(zip(src.tolist(), dst.tolist(), strict=True)) == sorted(map(tuple, np.argwhere(adj).tolist()))
    mask = d.add_mask()
    for p in range(n):
        assert d.parents(p) == tuple(int(i) for i in np.flatnonzero(adj[:, p]))
        assert d.children(p) == tuple(int(i) for i in np.flatnonzero(adj[p]))
        for c in range(n):
            expect = brute_can_add(adj, p, c)
            assert d.can_add(p, c) == expect
            assert bool(mask[c, p]) == expect
            assert d.has_edge(p, c) == bool(adj[p, c])
    if src.size:
        rev = d.reversal_mask(src, dst)
        expect = [brute_can_reverse(adj, int(p), int(c)) for p, c in zip(src, dst, strict=True)]
        np.testing.assert_array_equal(rev, expect)
        # order and duplicates of the query do not matter
        perm = np.random.default_rng(0).permutation(src.size)
        qs, qd = np.concatenate([src[perm], src]), np.concatenate([dst[perm], dst])
        np.testing.assert_array_equal(
            d.reversal_mask(qs, qd), [brute_can_reverse(adj, int(p), int(c)) for p, c in zip(qs, qd, strict=True)]
        )
    assert d.check_reach()


# ---------------------------------------------------------------------------------- sequences


def run_ops(n: int, ops: list[tuple[int, int, int]]) -> None:
    """Apply (kind, a, b) operations; illegal ones must raise CycleError and change nothing."""
    d = DAG(n)
    adj = np.zeros((n, n), dtype=bool)
    check_all(d, adj)
    for kind, a, b in ops:
        a, b = a % n, b % n
        before_reach = closure(adj)
        if kind == 0:  # add a -> b
            if brute_can_add(adj, a, b):
                grew = d.add_edge(a, b)
                adj[a, b] = True
                after = closure(adj)
                changed = np.flatnonzero((after != before_reach).any(axis=1))
                np.testing.assert_array_equal(np.sort(grew), changed)
            else:
                with pytest.raises(CycleError):
                    d.add_edge(a, b)
        elif kind == 1:  # remove an existing edge, picked by index
            es = np.argwhere(adj)
            if len(es):
                p, c = (int(v) for v in es[(a * n + b) % len(es)])
                shrunk = d.remove_edge(p, c)
                adj[p, c] = False
                after = closure(adj)
                changed = np.flatnonzero((after != before_reach).any(axis=1))
                np.testing.assert_array_equal(np.sort(shrunk), changed)
            else:
                with pytest.raises(CycleError):
                    d.remove_edge(a, b)
        else:  # reverse an existing edge, picked by index
            es = np.argwhere(adj)
            if not len(es):
                continue
            p, c = (int(v) for v in es[(a * n + b) % len(es)])
            if brute_can_reverse(adj, p, c):
                d.reverse_edge(p, c)
                adj[p, c], adj[c, p] = False, True
            else:
                with pytest.raises(CycleError):
                    d.reverse_edge(p, c)
        check_all(d, adj)


class TestReachability:
    @settings(max_examples=120, deadline=None)
    @given(
        st.integers(2, 8),
        st.lists(st.tuples(st.integers(0, 2), st.integers(0, 63), st.integers(0, 63)), max_size=40),
    )
    def test_random_sequences_hypothesis(self, n, ops):
        run_ops(n, ops)

    @pytest.mark.parametrize("seed", range(6))
    def test_random_sequences_seeded_add_heavy(self, seed):
        rng = np.random.default_rng(seed)
        n = 9
        kinds = rng.choice(3, size=60, p=[0.6, 0.2, 0.2])
        ops = [(int(k), int(rng.integers(64)), int(rng.integers(64))) for k in kinds]
        run_ops(n, ops)

    def test_dense_dag_then_teardown(self):
        """All edges of a total order (a complete DAG), then remove them in random order."""
        n = 7
        d = DAG(n)
        adj = np.zeros((n, n), dtype=bool)
        for a in range(n):
            for b in range(a + 1, n):
                d.add_edge(a, b)
                adj[a, b] = True
        check_all(d, adj)
        rng = np.random.default_rng(1)
        for p, c in rng.permutation(np.argwhere(adj)):
            d.remove_edge(int(p), int(c))
            adj[p, c] = False
            np.testing.assert_array_equal(d.reach, closure(adj))
        assert not d.reach.any()


class TestCanAdd:
    def test_rejects_cycles_self_loops_and_duplicates(self):
        d = DAG(4, [(0, 1), (1, 2), (2, 3)])
        assert not d.can_add(3, 0)  # long cycle
        assert not d.can_add(2, 1)  # 2-cycle
        assert not d.can_add(1, 1)  # self-loop
        assert not d.can_add(0, 1)  # already there
        assert d.can_add(0, 3)  # shortcut keeps it acyclic
        assert d.can_add(0, 2)


class TestReversalMask:
    def test_shortcut_edge_cannot_be_reversed(self):
        # 0 -> 1 -> 2 and 0 -> 2: reversing 0 -> 2 makes 2 -> 0 -> 1 -> 2
        d = DAG(3, [(0, 1), (1, 2), (0, 2)])
        mask = d.reversal_mask(np.array([0, 0, 1]), np.array([1, 2, 2]))
        np.testing.assert_array_equal(mask, [True, False, True])

    def test_empty_query(self):
        assert DAG(3, [(0, 1)]).reversal_mask(np.array([], dtype=int), np.array([], dtype=int)).shape == (0,)


class TestCycleError:
    def test_constructor_with_a_cycle(self):
        with pytest.raises(CycleError):
            DAG(3, [(0, 1), (1, 2), (2, 0)])

    def test_constructor_with_duplicate_edge(self):
        with pytest.raises(CycleError):
            DAG(3, [(0, 1), (0, 1)])

    def test_add_closing_a_cycle_leaves_graph_unchanged(self):
        d = DAG(3, [(0, 1), (1, 2)])
        adj, reach = d.adj.copy(), d.reach.copy()
        with pytest.raises(CycleError):
            d.add_edge(2, 0)
        with pytest.raises(CycleError):
            d.add_edge(1, 1)
        np.testing.assert_array_equal(d.adj, adj)
        np.testing.assert_array_equal(d.reach, reach)

    def test_remove_missing_edge(self):
        d = DAG(3, [(0, 1)])
        with pytest.raises(CycleError):
            d.remove_edge(1, 0)
        assert d.edges() == [(0, 1)]

    def test_illegal_reversal_restores_the_edge(self):
        d = DAG(3, [(0, 1), (1, 2), (0, 2)])
        before = (d.adj.copy(), d.reach.copy(), d.edges())
        with pytest.raises(CycleError):
            d.reverse_edge(0, 2)
        np.testing.assert_array_equal(d.adj, before[0])
        np.testing.assert_array_equal(d.reach, before[1])
        assert d.edges() == before[2]
        check_all(d, before[0])

    def test_reverse_missing_edge(self):
        d = DAG(3, [(0, 1)])
        with pytest.raises(CycleError):
            d.reverse_edge(1, 2)


class TestCopy:
    def test_copy_is_independent(self):
        d = DAG(4, [(0, 1), (1, 2)])
        e = d.copy()
        e.add_edge(2, 3)
        e.remove_edge(0, 1)
        assert d.edges() == [(0, 1), (1, 2)]
        expect = np.zeros((4, 4), dtype=bool)
        expect[0, 1] = expect[1, 2] = True
        check_all(d, expect)
        assert e.edges() == [(1, 2), (2, 3)]


class TestReversalMaskAfterAChange:
    """#22 (genome-scale tables): after each move a search asks about the few edges its rules leave
    reversible, before the edges sorted by source exist for the new graph; that path gathers only
    the edges out of the tails asked about and must agree with the brute force as the sorted one does."""

    @pytest.mark.parametrize("seed", range(6))
    def test_subsets_agree_with_brute_force(self, seed):
        rng = np.random.default_rng(seed)
        n = 12
        d = DAG(n)
        for _ in range(60):
            p, c = (int(v) for v in rng.choice(n, size=2, replace=False))
            if not (d.has_edge(p, c) or d.can_add(p, c)):
                continue
            if d.has_edge(p, c):
                d.remove_edge(p, c)
            elif d.can_add(p, c):
                d.add_edge(p, c)
            src, dst = d.edge_pairs()
            if not src.size:
                continue
            pick = rng.random(src.size) < 0.4
            assert d._sorted is None or d._sorted[0] != d.version  # the unsorted path is the one tested
            got = d.reversal_mask(src[pick], dst[pick])
            expect = [brute_can_reverse(d.adj, int(u), int(v)) for u, v in zip(src[pick], dst[pick], strict=True)]
            np.testing.assert_array_equal(got, expect)
            np.testing.assert_array_equal(d.reversal_mask(*d.edge_array()), d.reversal_mask(*d.edge_array()))

    def test_edge_pairs_are_the_edges_unsorted_and_read_only(self):
        d = DAG(4, [(2, 3), (0, 1), (0, 3)])
        d.add_edge(1, 2)
        src, dst = d.edge_pairs()
        assert sorted(zip(src.tolist(), dst.tolist(), strict=True)) == sorted(d.edges())
        with pytest.raises(ValueError):
            src[0] = 1
