"""The Hidden page's Propose made faster at 2,504 x 172 (benchmarks/RESULTS.md "Propose on a wide
tumour table"): the top eigenpair from LAPACK's dsyevr (engine/hidden/top_pair.py) instead of
ARPACK's Lanczos, grow's neighbours and the neighbour screen's outside parents read from the CSR
arrays (engine/hidden/prune.py), the residual map built as CSC arrays (engine/hidden/residual_map.py)
and the seeds grown all at once with batched factor fits (engine/hidden/grow_batch.py). Each against
an independent recomputation: numpy's full ``eigh``, the sliced sparse matrices and the COO-built map
the code used before, ``grow`` one seed after another, and the page's proposals computed with the
old pieces put back (Lanczos, sliced sums, one least-squares fit per neighbour, one seed at a time)."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import sparse
from scipy.sparse.linalg import eigsh

from engine.cpd.linear import LinearGaussianFamilies
from engine.hidden import candidates, parts, proposals
from engine.hidden import prune as prune_module
from engine.hidden.factor import factor_fit
from engine.hidden.grow_batch import factor_fits, grow_many
from engine.hidden.modules import propose_for_review
from engine.hidden.prune import _outside_parents, _skeleton, neighbours, parent_matrix
from engine.hidden.top_pair import LANCZOS_ABOVE, top_eigenpair
from engine.search import Stepper


def factor_cosines(size: int, seed: int) -> np.ndarray:
    """Cosines of ``size`` variables sharing one factor (loadings 0.2-0.9) plus noise."""
    rng = np.random.default_rng(seed)
    a = rng.uniform(0.2, 0.9, size) * rng.choice([-1, 1], size)
    c = np.outer(a, a) + 0.05 * rng.normal(size=(size, size))
    c = (c + c.T) / 2
    np.fill_diagonal(c, 1.0)
    return c


@pytest.mark.parametrize("size", [25, 50, LANCZOS_ABOVE, LANCZOS_ABOVE + 12])
def test_top_pair_is_the_full_eigendecompositions_top(size):
    c = factor_cosines(size, size)
    w, v = top_eigenpair(c)
    full_w, full_v = np.linalg.eigh(c)
    assert w[-1] == pytest.approx(full_w[-1], rel=1e-12)
    sign = np.sign(v[:, -1] @ full_v[:, -1])
    np.testing.assert_allclose(sign * v[:, -1], full_v[:, -1], atol=1e-9)


def learned(seed: int = 0, n: int = 60, m: int = 150):
    """Two hidden drivers of 28 and 7 genes, 6 listed regulators (the first 6 genes) with a sparse
    random DAG from them on top, learned without the drivers: the dendrogram's clusters pass 24
    members (the dsyevr path) and semi-cliques of regulators and their children grow."""
    rng = np.random.default_rng(seed)
    h = rng.normal(size=(m, 2))
    x = rng.normal(size=(m, n))
    for d, kids in enumerate((range(6, 34), range(34, 41))):
        for c in kids:
            x[:, c] += rng.choice([-1, 1]) * rng.uniform(0.7, 1.4) * h[:, d]
    for c in range(1, n):
        for p in rng.choice(min(c, 6), size=min(c, 6, 3), replace=False):
            if rng.random() < 0.3:
                x[:, c] += rng.uniform(0.5, 1.0) * x[:, p]
    x = (x - x.mean(axis=0)) / x.std(axis=0)
    stp = Stepper(LinearGaussianFamilies(x), regulators=range(6))
    stp.run()
    return x, stp


def test_neighbours_and_outside_parents_are_the_sliced_matrices():
    x, stp = learned()
    parents = [tuple(stp.parents(c)) for c in range(stp.n_vars)]
    adj, pmat = _skeleton(parents), parent_matrix(parents)
    rng = np.random.default_rng(1)
    for _ in range(20):
        members = np.sort(rng.choice(stp.n_vars, size=int(rng.integers(1, 30)), replace=False))
        old = np.asarray(adj[members].sum(axis=0)).ravel() > 0
        np.testing.assert_array_equal(neighbours(adj, members), old)
        np.testing.assert_array_equal(neighbours(adj.toarray(), members), old)
        inside = np.zeros(stp.n_vars, dtype=bool)
        inside[members] = True
        near = np.flatnonzero(old & ~inside)
        sub = pmat[near].tocsr()
        sub = sparse.csr_matrix((~inside[sub.indices], sub.indices, sub.indptr), shape=sub.shape)
        sub.eliminate_zeros()
        sub.sort_indices()
        ptr, cols = _outside_parents(pmat, near, inside)
        np.testing.assert_array_equal(ptr, sub.indptr)
        np.testing.assert_array_equal(cols, sub.indices)


def _coo_map(members, outs, coefficients, rows):
    """The residual map as it was built before: (row, column) pairs through scipy's COO format."""
    pos = {int(v): k for k, v in enumerate(rows)}
    r = [pos[int(v)] for i, o in zip(members, outs, strict=True) for v in (int(i), *o)]
    vals = [x for b, o in zip(coefficients, outs, strict=True) for x in (1.0, *(-np.asarray(b, float) if o else ()))]
    cols = np.repeat(np.arange(len(members)), [1 + len(o) for o in outs])
    return sparse.csc_matrix((vals, (r, cols)), shape=(len(rows), len(members)))


def test_batched_factor_fits_are_one_fit_per_set():
    cos = [factor_cosines(size, size) for size in (5, 12, 30, 31)]
    starts = [np.linalg.eigh(c)[1][:, -1] * np.sqrt(np.linalg.eigh(c)[0][-1]) for c in cos]
    gains, loads = factor_fits(cos, starts, 150)
    for c, s, g, a in zip(cos, starts, gains, loads, strict=True):
        one_gain, one_loads = factor_fit(c, 150, s)
        assert g == pytest.approx(one_gain, rel=1e-10)
        np.testing.assert_allclose(a, one_loads, atol=1e-10)


@pytest.mark.parametrize("seed", [0, 2])
def test_grow_many_is_grow_one_seed_after_another(seed):
    """The semi-cliques of a learned network, scored and pruned as propose_from_search does, grown
    by grow with one memo one after another and by grow_many all at once: the same sets, the same
    memo keys, estimates to rounding."""
    x, stp = learned(seed)
    parents = [tuple(stp.parents(c)) for c in range(stp.n_vars)]
    adj, pmat = _skeleton(parents), parent_matrix(parents)
    xc = x - x.mean(axis=0)
    allowed = np.ones(stp.n_vars, dtype=bool)
    seeds = [
        candidates.prune(
            candidates.score_candidate(stp.model, parents, s, stp.scorer, xc), stp.model, parents, stp.scorer, xc
        )
        for s in candidates.find_semicliques(adj, max_size=40)
    ]
    kw = dict(adj=adj, allowed=allowed, min_size=3, max_size=40, pmat=pmat)
    memo_one, memo_many = {}, {}
    one = [candidates.grow(cs, stp.model, parents, stp.scorer, xc, memo=memo_one, **kw) for cs in seeds]
    rules = (candidates.MIN_LOADING, candidates.GROW_SCREEN, candidates.GROW_ROUNDS)
    many = grow_many(seeds, stp.model, parents, stp.scorer, xc, memo=memo_many, rules=rules, **kw)
    assert any(a.members.tolist() != b.members.tolist() for a, b in zip(one, seeds, strict=True))  # grow decided
    assert [a.members.tolist() for a in one] == [b.members.tolist() for b in many]
    np.testing.assert_allclose([a.gain for a in one], [b.gain for b in many], rtol=1e-9)
    np.testing.assert_allclose([a.complete_gain for a in one], [b.complete_gain for b in many], rtol=1e-9)
    assert set(memo_one) == set(memo_many)
    for key, cs in memo_one.items():
        assert cs.members.tolist() == memo_many[key].members.tolist()


def _lanczos(cos, v0=None):
    """The code before: ARPACK's Lanczos for every cluster above DENSE_EIGH members."""
    return eigsh(cos, k=1, which="LA", v0=v0, tol=1e-10)


def _one_fit_per_neighbour(model, pmat, xc, near, inside, z):
    """The screen before it was batched: one least-squares fit per neighbour, from the values."""
    corr = np.zeros(near.size)
    for k, v in enumerate(near):
        outs = tuple(int(p) for p in sorted(pmat[v].indices) if not inside[p])
        y = xc[:, v]
        if outs:
            y = y - xc[:, list(outs)] @ np.linalg.lstsq(xc[:, list(outs)], xc[:, v], rcond=None)[0]
        corr[k] = abs(float(y @ z)) / max(float(np.linalg.norm(y)), 1e-300)
    return corr


def test_page_proposals_are_those_of_the_old_pieces(monkeypatch):
    """propose_for_review as the Hidden page calls it with a regulator list (clusters of at most 40
    members): the same proposals, sources and order, estimates and common variances to 1e-9."""
    x, stp = learned()
    names = [f"G{i}" for i in range(stp.n_vars)]
    kw = dict(candidates=np.arange(stp.n_vars), n_proposals=5, coexpression=False, max_size=40, min_size=3)
    kw["explainers"] = stp.cols
    sizes = []
    real = proposals.top_eigenpair
    monkeypatch.setattr(proposals, "top_eigenpair", lambda c, v0=None: sizes.append(c.shape[0]) or real(c, v0))
    new = propose_for_review(stp, x, names, **kw)
    assert max(sizes) > proposals.DENSE_EIGH  # the dsyevr path decided something
    assert any(p.source == candidates.GROWN for p in new)
    with monkeypatch.context() as mp:
        mp.setattr(proposals, "top_eigenpair", _lanczos)
        mp.setattr(candidates, "neighbours", lambda adj, m: np.asarray(adj[m].sum(axis=0)).ravel() > 0)
        mp.setattr(candidates, "neighbour_screen", _one_fit_per_neighbour)
        mp.setattr(candidates, "GROW_MANY", False)  # one seed after another
        mp.setattr(parts, "residual_map", _coo_map)
        mp.setattr(prune_module, "residual_map", _coo_map)
        old = propose_for_review(stp, x, names, **kw)
    assert [(p.members, p.source) for p in new] == [(p.members, p.source) for p in old]
    np.testing.assert_allclose([p.estimated_gain for p in new], [p.estimated_gain for p in old], rtol=1e-9)
    np.testing.assert_allclose([p.common_variance for p in new], [p.common_variance for p in old], rtol=1e-9)
    for p, q in zip(new, old, strict=True):
        np.testing.assert_allclose(np.abs(p.profile @ q.profile) / len(p.profile), 1.0, atol=1e-9)
