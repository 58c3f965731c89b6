"""Where an accepted H starts (engine/hidden/common_start.py): z*, or the members' common profile
with the stand-in parent's edges re-searched (#22, session 19; the newcomer walk's stand-in)."""

from __future__ import annotations

import numpy as np
import pytest

from engine.data import from_array
from engine.hidden import common_start
from engine.hidden.common_start import common_profile, stand_in_edges, start_of
from engine.hidden.search import HiddenSearch


def test_stand_in_edges_are_those_of_a_parent_of_half_the_members():
    members = ["a", "b", "c", "d"]
    edges = [("x", "a"), ("x", "b"), ("y", "c"), ("a", "b"), ("x", "q"), ("z", "d"), ("z", "c")]
    # x and z are parents of 2 of 4 members (half); y of one; a is a member; x -> q is outside
    assert stand_in_edges(edges, members) == {("x", "a"), ("x", "b"), ("z", "d"), ("z", "c")}
    assert stand_in_edges(edges, members, n_min=3) == set()
    assert stand_in_edges(edges, members + ["e", "f"]) == set()  # 2 of 6: below half


def test_common_profile_keeps_the_part_a_residual_would_remove():
    """Members = w_i h + noise, h correlated with a parent X: their common profile is h (not h's
    part orthogonal to X), signed like the profile it is given."""
    rng = np.random.default_rng(0)
    m = 200
    x = rng.normal(size=m)
    h = 0.7 * x + np.sqrt(1 - 0.49) * rng.normal(size=m)
    w = rng.uniform(0.8, 1.3, 10) * np.array([1, 1, 1, -1, 1, 1, 1, 1, -1, 1])
    block = h[:, None] * w + 0.3 * rng.normal(size=(m, 10))
    resid = h - (h @ x) / (x @ x) * x
    prof = common_profile(np.column_stack([x, block]), list(range(1, 11)), -resid)
    assert prof.mean() == pytest.approx(0.0, abs=1e-9) and prof.std() == pytest.approx(1.0)
    assert np.corrcoef(prof, h)[0, 1] < -0.98  # signed like the given profile (-resid)
    assert abs(np.corrcoef(resid, h)[0, 1]) < 0.8  # what z* would have kept


def _stand_in_table(seed: int = 1, m: int = 120, n_mod: int = 12, n_other: int = 10):
    """A listed TF X (its own 4 targets), an unmeasured h that moves with X (r ~0.7) and regulates
    ``n_mod`` genes, and unrelated genes: the walk's design in small."""
    rng = np.random.default_rng(seed)
    x = rng.normal(size=m)
    h = 0.7 * x + np.sqrt(1 - 0.49) * rng.normal(size=m)
    cols = [x]
    cols += [0.9 * x + 0.5 * rng.normal(size=m) for _ in range(4)]
    w = rng.uniform(0.8, 1.3, n_mod) * rng.choice([-1, 1], n_mod, p=[0.2, 0.8])
    cols += [wi * h + 0.35 * rng.normal(size=m) for wi in w]
    cols += [rng.normal(size=m) for _ in range(n_other)]
    names = ["X"] + [f"t{i}" for i in range(4)] + [f"m{i}" for i in range(n_mod)] + [f"o{i}" for i in range(n_other)]
    return from_array(np.column_stack(cols), names), h, {f"m{i}" for i in range(n_mod)}


def test_accepted_h_tracks_the_regulator_its_stand_in_moves_with(monkeypatch):
    """Accept the module's proposal with X a listed parent: started at z* (X's edges kept) H is
    h's part orthogonal to X; from the members' common profile with X's edges re-searched it is h,
    X its parent, and it pays more."""
    ds, h, module = _stand_in_table()
    scores = {}
    for start in ("residual", "both"):
        monkeypatch.setattr(common_start, "MODE", start)
        hs = HiddenSearch(ds, seed=0, em_options={"regulators": ["X"]})
        hs.fit_structure()
        base = hs.baseline_score()
        prop = max(hs.propose(), key=lambda p: len(set(p.names) & module))
        assert len(set(prop.names) & module) >= 8
        _, gone = start_of(hs, prop)
        assert any(p == "X" for p, _ in gone) == (start == "both")
        hv = hs.accept(prop, baseline=base)
        r = abs(np.corrcoef(hs.hidden_profile("H1"), h)[0, 1])
        scores[start] = (r, hv.realized_gain, [p for p, c in hs.edges() if c == "H1"])
    print(scores)
    r0, g0, _ = scores["residual"]
    r1, g1, parents = scores["both"]
    assert r0 < 0.85  # z*: h's part orthogonal to X
    assert r1 > 0.97 and g1 > g0 and parents == ["X"]
