"""A search's refresh with its families' legal rows and rankings found in batches (session 22, #22 item 4:
engine.search.candidates.movable) makes the same moves, to the bit, as one family at a time."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest
from test_search_carry import planted_with_missing

import engine.hidden.em as em_module
import engine.search.candidates as cand
from engine.cpd.linear import LinearGaussianFamilies
from engine.search import SearchSettings, Stepper
from engine.search.constraints import Constraints
from engine.search.selection import argbest, select_candidates, select_many
from engine.synth import random_network, sample


def one_at_a_time(monkeypatch) -> None:
    """The refresh as before the batches: no ranking ahead, each family's legal rows and candidates on their own."""
    monkeypatch.setattr(cand, "rank_ahead", lambda model, entries, cols: 0)
    monkeypatch.setattr(cand, "select_all", lambda stepper, todo: [stepper.select(c, e, *lg) for c, e, lg in todo])

    def rows(self, dag, children, parents, cols=None):
        pairs = [self.legal_rows(dag, int(c), p, cols) for c, p in zip(children, parents, strict=True)]
        width = dag.n_vars if cols is None else cols.size
        return tuple(np.array([p[i] for p in pairs], dtype=bool).reshape(-1, width) for i in (0, 1))

    monkeypatch.setattr(Constraints, "legal_rows_many", rows)


def trajectory(stepper: Stepper) -> tuple:
    res = stepper.run()
    return res.edges, res.score, res.n_exact, res.n_ranked, [repr(mv) for mv in res.history]


@pytest.mark.parametrize("regulators", [None, list(range(0, 40, 3))])
@pytest.mark.parametrize("max_parents", [None, 2])
def test_the_same_moves_as_one_family_at_a_time(monkeypatch, regulators, max_parents):
    x = sample(random_network(40, seed=11, expected_parents=1.8, signal=0.6), 60, seed=12)
    model = LinearGaussianFamilies(x)
    forbidden = [(1, 2), (4, 7)]
    ranked, real = [], cand.rank_ahead
    monkeypatch.setattr(cand, "rank_ahead", lambda *args: ranked.append(real(*args)) or ranked[-1])
    batched = trajectory(Stepper(model, regulators=regulators, max_parents=max_parents, forbidden=forbidden))
    assert len(batched[4]) > 10 and sum(ranked) > 40  # every family ranked in batches, some more than once
    one_at_a_time(monkeypatch)
    model = LinearGaussianFamilies(x)  # the fits cache afresh
    assert batched == trajectory(Stepper(model, regulators=regulators, max_parents=max_parents, forbidden=forbidden))


def test_select_many_picks_what_select_candidates_picks():
    """Ties (to the lower index), infinite and NaN measures, illegal rows, fewer finite scores than k."""
    rng = np.random.default_rng(5)
    entries, adds, reps = [], [], []
    for f in range(300):
        k_par, width = int(rng.integers(0, 4)), 12
        a = np.round(rng.normal(size=width), 1)  # rounded: ties
        r = np.round(rng.normal(size=(k_par, width)), 1)
        for arr in (a, r):
            flat = arr.reshape(-1)
            flat[rng.random(flat.size) < 0.1] = rng.choice([np.inf, -np.inf, np.nan])
        entries.append(SimpleNamespace(parents=tuple(range(k_par)), measures=lambda a=a, r=r: (a, a, r, r)))
        dense = f % 7 != 0
        adds.append(rng.random(width) < (0.8 if dense else 0.05))
        reps.append(rng.random((k_par, width)) < (0.8 if dense else 0.05))
    for k in (1, 2, 3, 40):
        settings = SearchSettings(k=k)
        many = select_many(settings, entries, adds, reps)
        for e, a, r, got in zip(entries, adds, reps, many, strict=True):
            want = select_candidates(settings, e, a, r)
            assert got[0].tolist() == want[0].tolist() and got[2] == want[2]
            assert [(i, z.tolist()) for i, z in got[1]] == [(i, z.tolist()) for i, z in want[1]]
            assert got[0].dtype == want[0].dtype == np.intp


def test_legal_rows_many_are_the_rows_one_at_a_time():
    x = sample(random_network(30, seed=3, expected_parents=1.5), 40, seed=4)
    s = Stepper(LinearGaussianFamilies(x), max_parents=2, required=[(0, 5)], forbidden=[(3, 9)])
    s.run(max_steps=12)
    cols = np.array([0, 3, 5, 9, 12, 20, 29])
    children = np.arange(30)
    parents = [s.parents(c) for c in children]
    for sub in (None, cols):
        add, rep = s.constraints.legal_rows_many(s.dag, children, parents, sub)
        for c in children:
            a, r = s.constraints.legal_rows(s.dag, int(c), parents[c], sub)
            assert add[c].tolist() == a.tolist() and rep[c].tolist() == r.tolist()


@pytest.mark.parametrize("missing", [False, True])
def test_structural_em_is_the_same_with_and_without_batches(monkeypatch, missing):
    """Structural EM with a hidden variable (rankings carried between M-steps, then batched at their
    changed positions): the same bounds, edges and posterior."""
    ds, h = planted_with_missing(7, missing)
    hidden = {"H1": (h + np.random.default_rng(1).normal(scale=0.5, size=h.size), [f"V{i}" for i in range(20, 26)])}

    def run():
        em = em_module.StructuralEM(ds, hidden=hidden, regulators=[f"V{i}" for i in range(0, 26, 2)], max_iter=15)
        em.run()
        return em

    batched = run()
    one_at_a_time(monkeypatch)
    alone = run()
    assert batched.edges == alone.edges and batched.lower_bounds_ == alone.lower_bounds_
    np.testing.assert_array_equal(batched.mean, alone.mean)
    assert batched.observed_bic() == alone.observed_bic()


def test_argbest_on_few_candidates_is_the_array_answer():
    """argbest's Python fast path (up to 8 candidates) against its array path: ties within 1e-9, -inf."""
    rng = np.random.default_rng(2)
    for _ in range(3000):
        size = int(rng.integers(1, 9))
        d = np.round(rng.normal(size=size), 1) * 10.0 ** rng.integers(-3, 4)
        d[rng.random(size) < 0.1] = -np.inf
        d[rng.random(size) < 0.2] += 1e-12  # within the tolerance of a tie
        idx = rng.permutation(50)[:size]
        wide = np.concatenate([d, np.full(9, -np.inf)])  # more than 8: the array path, the same answer
        assert argbest(d, idx) == argbest(wide, np.concatenate([idx, np.arange(100, 109)]))
