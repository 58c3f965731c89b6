"""ExpandClique with incremental link counts (engine.hidden.semiclique, #22): the same semi-cliques,
in the same order, as the member-by-member test it replaced, on sparse and dense random skeletons
and on planted cliques inside them (the genome tables' skeletons made the old test the proposals'
top line: a sparse row slice per candidate per step)."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import sparse

from engine.hidden.semiclique import _expand, find_semicliques, is_semiclique, triangles


def _expand_reference(adj: sparse.csr_matrix, seed: np.ndarray, max_size: int) -> np.ndarray:
    """The previous implementation, verbatim in substance: each step re-counts links from the rows."""
    members = [int(v) for v in seed]
    while len(members) < max_size:
        sub = adj[members]
        links = np.asarray(sub.sum(axis=0)).ravel()
        links[members] = 0
        cand = np.flatnonzero(2 * links >= len(members))
        if cand.size == 0:
            break
        cand = cand[np.lexsort((cand, -links[cand]))]
        deg_in = np.asarray(sub[:, members].sum(axis=1)).ravel()
        added = False
        for v in cand:
            adj_v = np.asarray(adj[int(v), members].todense()).ravel().astype(bool)
            if np.all(2 * (deg_in + adj_v) >= len(members)):
                members.append(int(v))
                added = True
                break
        if not added:
            break
    return np.array(sorted(members), dtype=np.intp)


def _skeleton(seed: int, n: int, p: float, planted: int) -> sparse.csr_matrix:
    rng = np.random.default_rng(seed)
    a = rng.random((n, n)) < p
    if planted:
        block = rng.choice(n, size=planted, replace=False)
        a[np.ix_(block, block)] |= rng.random((planted, planted)) < 0.8
    a = np.triu(a, 1)
    a = a | a.T
    return sparse.csr_matrix(a.astype(np.int8))


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("p,planted", [(0.05, 0), (0.15, 0), (0.04, 12), (0.3, 8)])
def test_every_seed_grows_to_the_same_set(seed, p, planted):
    a = _skeleton(seed, 40, p, planted)
    for max_size in (5, 40):
        for tri in triangles(a)[:60]:
            got = _expand(a, tri, max_size)
            assert got.tolist() == _expand_reference(a, tri, max_size).tolist()
            assert is_semiclique(a.toarray().astype(bool), got)


def test_find_semicliques_lists_the_planted_clique():
    a = _skeleton(3, 60, 0.03, 10)
    found = find_semicliques(a)
    assert found and found[0].size >= 8
    assert [s.size for s in found] == sorted((s.size for s in found), reverse=True)
