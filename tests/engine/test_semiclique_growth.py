"""Growing a pruned semi-clique by the neighbours its common factor explains (#12, plain-DAG seed 8):
a hidden regulator's children split over two semi-cliques joined by one edge (thesis Fig. 4.2a)
are proposed as one set, next to the two halves."""

from __future__ import annotations

import numpy as np

from engine.cpd.linear import LinearGaussianFamilies
from engine.hidden import propose_from_search
from engine.hidden.candidates import GROWN, _skeleton, grow, prune, score_candidate
from engine.hidden.semiclique import find_semicliques
from engine.search import Stepper

M = 500


def split_regulator(seed: int = 3):
    """Six children K0..K5 of h (K_i = h + 0.5 e_i), four unrelated variables, and a network in
    which the children form two triangles joined by K2 -> K3: no semi-clique holds more than three
    of them (the 4-set {K0, K1, K2, K3} fails, K3 has one link of three)."""
    rng = np.random.default_rng(seed)
    h = rng.normal(size=M)
    x = np.column_stack([h + 0.5 * rng.normal(size=M) for _ in range(6)] + [rng.normal(size=(M, 4))])
    edges = [(0, 1), (0, 2), (1, 2), (2, 3), (3, 4), (3, 5), (4, 5)]
    stp = Stepper(LinearGaussianFamilies(x), initial=edges)
    return x, h, stp


def test_two_halves_are_separate_semicliques():
    _, _, stp = split_regulator()
    parents = [stp.parents(c) for c in range(10)]
    found = [s.tolist() for s in find_semicliques(_skeleton(parents))]
    assert sorted(found) == [[0, 1, 2], [3, 4, 5]]


def test_grow_reaches_all_six_children_from_the_upstream_half():
    """From {K0, K1, K2}: K3 joins (round 1, its only parent K2 is inside), then K4 (its parent K3
    is inside), then K5 (its residual on K4 alone shares little with h until K4 is inside). From
    {K3, K4, K5} nothing joins: K2's residual on its own parents K0 and K1 (outside) has lost h."""
    x, h, stp = split_regulator()
    parents = [stp.parents(c) for c in range(10)]
    adj = _skeleton(parents)
    xc = x - x.mean(axis=0)
    allowed = np.ones(10, dtype=bool)
    grown = []
    for half in ([0, 1, 2], [3, 4, 5]):
        cs = score_candidate(stp.model, parents, np.array(half), stp.scorer, xc)
        cs = prune(cs, stp.model, parents, stp.scorer, xc)
        assert cs.members.tolist() == half
        grown.append(grow(cs, stp.model, parents, stp.scorer, xc, adj, allowed))
    assert [g.members.tolist() for g in grown] == [[0, 1, 2, 3, 4, 5], [3, 4, 5]]
    assert abs(np.corrcoef(grown[0].profile, h)[0, 1]) > 0.95
    assert sorted(grown[0].removed) == sorted(parents_edges(parents, range(6)))
    assert np.abs(grown[0].factor_loadings).min() > 0.8


def parents_edges(parents, members) -> list[tuple[int, int]]:
    inside = set(members)
    return [(int(p), int(c)) for c in members for p in parents[c] if p in inside]


def test_grown_set_is_proposed_next_to_the_halves():
    x, h, stp = split_regulator()
    names = [f"V{i}" for i in range(10)]
    props = propose_from_search(stp, x, names, min_size=3, n_proposals=6)
    grown = [p for p in props if p.source == GROWN]
    assert [p.members for p in grown] == [[0, 1, 2, 3, 4, 5]]
    assert abs(np.corrcoef(grown[0].profile, h)[0, 1]) > 0.95
    halves = sorted(p.members for p in props if "semi-clique" in p.source and p.source != GROWN)
    assert halves == [[0, 1, 2], [3, 4, 5]]  # the seeds are still offered
