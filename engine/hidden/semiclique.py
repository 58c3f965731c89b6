"""Semi-cliques of a learned network: the structural signature of a hidden variable (thesis ch. 4).

Marginalizing a hidden variable H out of a network leaves a dense, clique-like set of edges among
its children (thesis Prop. 4.1.1): an observed-only search ties the children together with edges,
and their ideal profiles on that network no longer show the shared signal. FindHidden (thesis
Algorithm 5) looks for that signature:

* a set S is a **semi-clique** when every member is adjacent (undirected, within S) to at least
  half of the other members (Def. 4.1.2; the thesis also accepts exactly half, e.g. a 4-clique
  missing one edge);
* every strict semi-clique contains a 3-clique (Prop. 4.1.3), so the 3-cliques of the skeleton are
  the seeds, and each is grown greedily while it stays a semi-clique (``ExpandClique``).

The greedy expansion can miss two dense groups joined by a few edges (thesis Fig. 4.2a); that is
accepted. Cost: finding the 3-cliques is one sparse product over the skeleton (nearly linear with
bounded degree); each expansion is O(C * degree) for a semi-clique of size C.
"""

from __future__ import annotations

import numpy as np
from scipy import sparse

__all__ = ["find_semicliques", "is_semiclique", "triangles"]


def is_semiclique(adj: np.ndarray, members: np.ndarray) -> bool:
    """Def. 4.1.2 (with "exactly half" accepted): every member of ``members`` is adjacent to at
    least half of the others in the symmetric boolean adjacency ``adj``."""
    sub = adj[np.ix_(members, members)]
    return bool(np.all(2 * sub.sum(axis=1) >= members.size - 1)) and members.size >= 3


def triangles(adj: sparse.csr_matrix) -> np.ndarray:
    """Every 3-clique ``(i, j, k)``, ``i < j < k``, of a symmetric 0/1 sparse adjacency, shape (T, 3).

    Edges on a triangle are found with one product, ``(A @ A) * A`` (common neighbours of the two
    ends of each edge); only those edges are then expanded to their common neighbours.
    """
    a = sparse.csr_matrix(adj, dtype=np.int32)
    a.eliminate_zeros()
    upper = sparse.triu(a, k=1).tocsr()
    common = (a @ a).multiply(upper).tocoo()
    out = []
    rows = a.indptr
    for i, j in zip(common.row, common.col, strict=True):  # edges with a common neighbour only
        ni = a.indices[rows[i] : rows[i + 1]]
        nj = a.indices[rows[j] : rows[j + 1]]
        ks = np.intersect1d(ni, nj, assume_unique=True)
        ks = ks[ks > j]
        if ks.size:
            out.append(np.column_stack([np.full(ks.size, i), np.full(ks.size, j), ks]))
    return np.concatenate(out).astype(np.intp) if out else np.zeros((0, 3), dtype=np.intp)


def _expand(adj: sparse.csr_matrix, seed: np.ndarray, max_size: int) -> np.ndarray:
    """ExpandClique (thesis Algorithm 5): add outside variables while the set stays a semi-clique,
    the candidate with the most links into the set first (ties by index); repeat until none fits.

    ``links[v]`` (each variable's neighbours inside the set; a member's degree within the set) is
    kept up to date as members join, O(degree) a member. A newcomer keeps every old member at half
    or more of the others iff it is adjacent to each member that is exactly one link short, so the
    first candidate adjacent to all of those is the one the member-by-member test picks."""
    ptr, nbr = adj.indptr, adj.indices
    members = [int(v) for v in seed]
    inside = np.zeros(adj.shape[0], dtype=bool)
    inside[members] = True
    links = np.zeros(adj.shape[0], dtype=np.intp)
    for u in members:
        links[nbr[ptr[u] : ptr[u + 1]]] += 1
    while len(members) < max_size:
        size = len(members) + 1
        outside = np.where(inside, 0, links)
        cand = np.flatnonzero(2 * outside >= len(members))  # the newcomer itself needs half
        deg_in = links[members]
        if cand.size == 0 or np.any(2 * (deg_in + 1) < size - 1):  # a member no newcomer can save
            break
        need = np.asarray(members)[2 * deg_in < size - 1]  # one link short: the newcomer must touch each
        if need.size:
            shared = np.zeros(adj.shape[0], dtype=np.intp)
            for u in need:
                shared[nbr[ptr[u] : ptr[u + 1]]] += 1
            cand = cand[shared[cand] == need.size]
            if cand.size == 0:
                break
        v = int(cand[np.lexsort((cand, -outside[cand]))[0]])
        members.append(v)
        inside[v] = True
        links[nbr[ptr[v] : ptr[v + 1]]] += 1
    return np.array(sorted(members), dtype=np.intp)


def find_semicliques(
    adj: np.ndarray | sparse.spmatrix, *, min_size: int = 3, max_size: int | None = None, max_seeds: int = 20000
) -> list[np.ndarray]:
    """FindHidden phase 1 (thesis Algorithm 5): the distinct semi-cliques grown from 3-cliques.

    Parameters
    ----------
    adj : (N, N) symmetric boolean adjacency (the network's skeleton), dense or sparse
    min_size : smallest semi-clique kept (the thesis's MIN_CLIQUE_SIZE, which it leaves open)
    max_size : largest set grown (default: N)
    max_seeds : at most this many 3-cliques are expanded (a dense skeleton has very many; a seed
        whose three nodes already lie in one found semi-clique is skipped, which changes nothing
        on the sets found when the expansion from it reaches the same set)

    Returns
    -------
    list of sorted index arrays, largest first (ties by first index).
    """
    a = sparse.csr_matrix(adj, dtype=np.int8)
    a = ((a + a.T) > 0).astype(np.int8).tocsr()
    a.setdiag(0)
    a.eliminate_zeros()
    n = a.shape[0]
    max_size = n if max_size is None else int(max_size)
    seeds = triangles(a)[:max_seeds]
    found: dict[tuple[int, ...], np.ndarray] = {}
    covered = [set() for _ in range(n)]  # ids of found sets containing each node
    for seed in seeds:
        common = covered[seed[0]] & covered[seed[1]] & covered[seed[2]]
        if common:
            continue
        s = _expand(a, seed, max_size)
        key = tuple(int(v) for v in s)
        if key in found:
            continue
        sid = len(found)
        found[key] = s
        for v in s:
            covered[v].add(sid)
    out = [s for s in found.values() if s.size >= min_size]
    out.sort(key=lambda s: (-s.size, int(s[0])))
    return out
