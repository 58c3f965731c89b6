"""The Hidden page's picture of a proposal (``engine.hidden.report.cluster_view``): each member's ideal
profile is its least-squares residual on its parents outside the set, on unit residual scale, oriented
like z* (checked against numpy's own least squares, not the engine's fits)."""

from __future__ import annotations

import dataclasses

import numpy as np

from engine.data import from_array
from engine.hidden import HiddenSearch
from engine.hidden.report import cluster_view


def _searched() -> tuple[HiddenSearch, np.ndarray]:
    rng = np.random.default_rng(5)
    m = 120
    h = rng.normal(size=m)
    a = rng.normal(size=m)
    kids = [0.9 * h + 1.2 * a + 0.6 * rng.normal(size=m) for _ in range(6)]
    x = np.column_stack([a, *kids, *(rng.normal(size=m) for _ in range(5))])
    names = [f"X{i}" for i in range(x.shape[1])]
    edges = [("X0", f"X{i}") for i in range(1, 7)] + [("X1", "X2"), ("X7", "X3")]  # X0, X7 outside h's children
    return HiddenSearch(from_array(x, names, standardize=False), initial_edges=edges), x


def test_ideal_profiles_are_residuals_on_the_outside_parents():
    hs, x = _searched()
    stepper = hs._current_stepper()
    prop = hs.propose(n_proposals=3)[0]
    # h's six children as the set: each keeps its parents X0 and X7 outside the set
    prop = dataclasses.replace(prop, members=list(range(1, 7)), names=[f"X{i}" for i in range(1, 7)])
    view = cluster_view(stepper, x, prop)
    members = list(prop.members)
    assert sum(bool([p for p in stepper.parents(c) if p not in members]) for c in members) >= 3
    inside = set(members)
    xc = x - x.mean(axis=0)
    m = x.shape[0]
    for k, c in enumerate(members):
        outs = [p for p in stepper.parents(c) if p not in inside]
        r = xc[:, c] - (xc[:, outs] @ np.linalg.lstsq(xc[:, outs], xc[:, c], rcond=None)[0] if outs else 0.0)
        r = r / np.sqrt(r @ r / m)
        r = r * (np.sign(r @ prop.profile) or 1.0)
        np.testing.assert_allclose(view.ideal[:, k], r, atol=1e-8)
    np.testing.assert_allclose(view.member_corr, np.corrcoef(x[:, members], rowvar=False))
    assert view.order.tolist() == np.argsort(prop.profile, kind="stable").tolist()


def test_a_member_without_outside_parents_is_its_centred_value():
    hs, x = _searched()
    stepper = hs._current_stepper()
    prop = hs.propose(n_proposals=3)[0]
    view = cluster_view(stepper, x, prop)
    inside = set(prop.members)
    bare = [k for k, c in enumerate(prop.members) if not [p for p in stepper.parents(c) if p not in inside]]
    assert bare
    for k in bare:
        c = prop.members[k]
        col = x[:, c] - x[:, c].mean()
        col = col / np.sqrt(col @ col / x.shape[0])
        np.testing.assert_allclose(np.abs(view.ideal[:, k]), np.abs(col), atol=1e-8)
