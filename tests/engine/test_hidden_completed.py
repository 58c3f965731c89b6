"""The ``completed`` start of a hidden-variable trial (engine/hidden/completed.py, #22): the
structure searched with H filled in at a profile."""

from __future__ import annotations

import numpy as np
from test_hidden_trial import planted_dag

from engine.hidden import HiddenSearch
from engine.hidden import trial as trial_mod
from engine.hidden.completed import completed_start
from engine.hidden.trial import try_proposal


def test_true_profile_gives_the_planted_children_and_h_stays_a_root():
    ds, kids, h = planted_dag(3, n=12, m=400, n_kids=4)
    hs = HiddenSearch(ds)
    hs.fit_structure()
    edges, children = completed_start(hs, "H1", h)
    assert set(children) == kids
    assert all("H1" not in e for e in edges)  # H's edges are returned as its children only
    assert set(edges) <= {(p, c) for p in ds.names for c in ds.names if p != c}


def test_profile_is_standardized_and_scale_free():
    ds, _, h = planted_dag(4, n=10, m=300, n_kids=4)
    hs = HiddenSearch(ds)
    hs.fit_structure()
    assert completed_start(hs, "H1", h) == completed_start(hs, "H1", 5.0 * h - 2.0)


def test_constraints_hold_and_no_new_edge_into_an_earlier_hidden_variable():
    ds, kids, h = planted_dag(5, n=12, m=400, n_kids=4)
    regs = [n for n in ds.names if n not in ("X1", "X2")]  # X1, X2 may not be parents
    forbidden = [(k, "X3") for k in ds.names if k != "X3"]  # X3 takes no observed parent
    hs = HiddenSearch(ds, em_options={"regulators": regs, "forbidden": forbidden})
    hs.em = hs._new_model("H1", h, sorted(kids), [])
    hs.em.run()
    z = np.random.default_rng(0).normal(size=ds.n_samples)
    edges, _ = completed_start(hs, "H2", z)
    assert not any(p in ("X1", "X2") for p, _ in edges)
    assert not any(c == "X3" and p in ds.names for p, c in edges)
    into_h1 = {(p, c) for p, c in edges if c == "H1"}
    assert into_h1 <= {(hs.names[p], hs.names[c]) for p, c in hs.em.edges}  # no new edge into H1


def test_a_constant_profile_gives_no_start():
    ds, _, _ = planted_dag(6, n=8, m=200, n_kids=3)
    hs = HiddenSearch(ds)
    hs.fit_structure()
    assert completed_start(hs, "H1", np.full(ds.n_samples, 0.7)) == ([], [])


def test_a_posterior_mean_is_completed_with_a_seeded_draw():
    ds, kids, h = planted_dag(7, n=10, m=300, n_kids=4)
    hs = HiddenSearch(ds)
    hs.em = hs._new_model("H1", h, sorted(kids), [])
    hs.em.run()
    col = hs.names.index("H1")
    mean, var = hs.em.mean[:, col], hs.em.var[:, col]
    assert np.all(var > 0)
    first = completed_start(hs, "H2", mean, var)
    assert completed_start(hs, "H2", mean, var) == first  # deterministic
    edges, children = completed_start(hs, "H2", mean, np.zeros_like(var))
    assert (edges, children) == completed_start(hs, "H2", mean)  # no variance: the mean itself


def test_trial_runs_the_completed_start_only_within_reach(monkeypatch):
    """try_proposal adds the ``completed`` start when its best start is within COMPLETE_REACH
    parameters' penalty of the network before, and not otherwise."""
    ds, _, _ = planted_dag(3, n=12, m=400, n_kids=4)
    hs = HiddenSearch(ds)
    hs.em.run()
    prop = hs._auto_candidates(set())[0]
    calls = []
    real = trial_mod.completed_start
    monkeypatch.setattr(trial_mod, "completed_start", lambda *a: calls.append(a[1]) or real(*a))
    near = try_proposal(hs, prop, -np.inf)  # any start is within reach of -inf
    assert calls == ["H1"] and "completed" in near.starts
    calls.clear()
    far = try_proposal(hs, prop, 1e12)  # no start comes within reach of +1e12
    assert calls == [] and "completed" not in far.starts
