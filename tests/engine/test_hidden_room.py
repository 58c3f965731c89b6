"""A proposal's member at the parent cap gives up its weakest parent(s) to H in the trial's
start (engine/hidden/room.py, #22) instead of blocking the trial; where the cap comes from is
named when a start still exceeds it."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest

from engine.data import from_array
from engine.exceptions import ParameterError
from engine.hidden import HiddenSearch, StructuralEM
from engine.hidden.room import make_room, parent_cap
from engine.hidden.trial import try_proposal


def capped_case(seed: int = 0, m: int = 300):
    """C has two observed parents, A strong and B weak, and a hidden parent h shared with K1..K4.
    Returns (dataset, h)."""
    rng = np.random.default_rng(seed)
    h = rng.normal(size=m)
    a, b = rng.normal(size=m), rng.normal(size=m)
    c = 1.5 * a + 0.3 * b + 1.2 * h + 0.5 * rng.normal(size=m)
    kids = [1.0 * h + 0.5 * rng.normal(size=m) for _ in range(4)]
    x = np.column_stack([a, b, c, *kids])
    return from_array(x, ["A", "B", "C", "K1", "K2", "K3", "K4"], standardize=False), h


def test_the_weakest_parent_is_given_up_by_least_squares():
    """At the cap (max_parents = 2), C drops B, whose removal from the least-squares fit of C on
    (A, B, z*) raises the residual sum of squares least; members under the cap keep everything."""
    ds, h = capped_case()
    hs = HiddenSearch(ds, {"max_parents": 2}, initial_edges=[("A", "C"), ("B", "C"), ("K1", "K2")])
    assert parent_cap(hs.em) == 2
    kids, kept, gone = make_room(hs.em, h, ["C", "K1", "K2"], hs.edges())
    assert gone == [("B", "C")] and kids == ["C", "K1", "K2"]
    assert set(kept) == {("A", "C"), ("K1", "K2")}
    x = ds.values
    design = np.column_stack([np.ones(len(h)), x[:, 0], x[:, 1], h])
    rss = [
        np.sum((x[:, 2] - d @ np.linalg.lstsq(d, x[:, 2], rcond=None)[0]) ** 2)
        for d in (np.delete(design, 1, axis=1), np.delete(design, 2, axis=1))
    ]
    assert rss[1] < rss[0]  # without B the fit loses less than without A


def test_required_parents_are_never_dropped():
    """A member whose required parents fill the cap is left out of H's start children."""
    ds, h = capped_case()
    hs = HiddenSearch(ds, {"max_parents": 2}, initial_edges=[("A", "C"), ("B", "C")])
    hs.em.required = [(0, 2), (1, 2)]
    kids, kept, gone = make_room(hs.em, h, ["C", "K1"], hs.edges())
    assert kids == ["K1"] and gone == [] and len(kept) == 2


def test_a_trial_at_the_cap_runs_and_keeps_the_cap():
    """With C at the cap, trying H on {C, K1..K4} runs (it was refused before), every family in
    the trial's model stays within the cap, and the trial is scored on observed data as before."""
    ds, h = capped_case()
    hs = HiddenSearch(ds, {"max_parents": 2}, initial_edges=[("A", "C"), ("B", "C")])
    hs.em.fixed_structure = True
    hs.em.run()
    hs.em.fixed_structure = False
    prop = SimpleNamespace(names=["C", "K1", "K2", "K3", "K4"], profile=h, removed_edges=[])
    best = hs.observed_bic()
    trial = try_proposal(hs, prop, best)
    counts = np.bincount([c for _, c in trial.em.edges], minlength=trial.em.n_vars)
    assert counts.max() <= 2
    assert trial.score == pytest.approx(trial.em.observed_bic())
    assert hs.hidden == [] and hs.observed_bic() == best  # the search is left as it was


def test_the_message_names_where_the_cap_comes_from():
    """A start over EBIC's automatic cap (0.25 M = 6 at M = 27) says so, not `max_parents`."""
    rng = np.random.default_rng(1)
    names = [f"V{i}" for i in range(9)]
    ds = from_array(rng.normal(size=(27, 9)), names, standardize=False)
    em = StructuralEM(ds, {"score": "ebic"}, initial_edges=[(f"V{i}", "V8") for i in range(7)])
    with pytest.raises(ParameterError, match=r"cap is 6 \(EBIC's automatic cap 0.25 M at M = 27"):
        em.run()
