"""Proposals an accepted hidden variable already explains (engine.hidden.explained): after Accept the
Hidden page listed a cluster of H1's own children again, closest variable H1, unmarked (#22)."""

from __future__ import annotations

import numpy as np
import pytest

from engine.data import from_array
from engine.hidden import HiddenSearch
from engine.hidden.explained import MIN_CHILD_SHARE, hidden_overlap, mark_explained_by_hidden
from engine.hidden.modules import propose_for_review, review_order
from engine.hidden.proposals import ClusterProposal
from engine.learn import IdealParentSearch
from engine.synth import random_network, sample


def _proposal(members, profile, gain=1.0, names=None) -> ClusterProposal:
    names = names or [f"x{i}" for i in members]
    z = (profile - profile.mean()) / profile.std()
    return ClusterProposal(
        members=list(members),
        names=list(names),
        profile=z,
        loadings=np.ones(len(members)) / np.sqrt(len(members)),
        eigenvalue=1.0,
        c1=0.5,
        c2=0.5,
        c2_members=np.zeros(len(members)),
        estimated_gain=gain,
        key=frozenset(names),
    )


class TestHiddenOverlap:
    """Hand-built: 6 observed variables and H (index 6) with children 0, 1, 2."""

    rng = np.random.default_rng(0)
    values = rng.normal(size=(80, 7))
    names = [f"x{i}" for i in range(6)] + ["H1"]
    edges = [(6, 0), (6, 1), (6, 2), (3, 4)]

    def test_most_members_children_explains_whatever_z_tracks(self):
        z = self.rng.normal(size=80)
        found = hidden_overlap(_proposal([0, 1, 2, 3], z), self.edges, self.values, self.names, [6])
        assert (found.hidden, found.n_children, found.n_members) == ("H1", 3, 4)
        assert found.corr == pytest.approx(abs(np.corrcoef(z, self.values[:, 6])[0, 1]), abs=1e-12)
        assert found.explains and found.corr < 0.5

    def test_few_children_and_a_loose_profile_do_not(self):
        found = hidden_overlap(_proposal([2, 3, 4], self.rng.normal(size=80)), self.edges, self.values, self.names, [6])
        assert found.n_children == 1 and not found.explains
        half = hidden_overlap(
            _proposal([1, 2, 3, 4], self.rng.normal(size=80)), self.edges, self.values, self.names, [6]
        )
        assert half.n_children == 2 == MIN_CHILD_SHARE * 4 and half.explains  # half is "at least half"

    def test_a_profile_tracking_h_explains_without_children(self):
        z = self.values[:, 6] + 0.1 * self.rng.normal(size=80)
        found = hidden_overlap(_proposal([3, 4, 5], z), self.edges, self.values, self.names, [6])
        assert found.n_children == 0 and found.corr > 0.95 and found.explains

    def test_without_hidden_variables_nothing(self):
        prop = _proposal([0, 1, 2], self.rng.normal(size=80))
        assert hidden_overlap(prop, self.edges, self.values, self.names, []) is None
        assert mark_explained_by_hidden([prop], self.edges, self.values, self.names, ()) == set()
        assert prop.explained_by is None

    def test_mark_sets_explained_by_and_returns_the_keys(self):
        mine = _proposal([0, 1, 2], self.rng.normal(size=80))
        other = _proposal([3, 4, 5], self.rng.normal(size=80))
        marked = mark_explained_by_hidden([mine, other], self.edges, self.values, self.names, [6])
        assert marked == {mine.key} and mine.explained_by == "H1" and other.explained_by is None

    def test_review_order_lists_them_after_the_new_ones(self):
        z = self.rng.normal(size=80)
        known = _proposal([0, 1, 2], z, gain=50.0, names=["a", "b", "c"])
        new = [_proposal([3, 4, 5], z, gain=g, names=[f"n{g}", "y", "z"]) for g in (2.0, -1.0)]
        order = review_order([known, *new], 3, frozenset({known.key}))
        assert order[-1] is known
        assert review_order([known, *new], 2, frozenset({known.key})) == new  # no room: left out


def _planted(seed: int = 3, n: int = 20, m: int = 300):
    """A random network with a hidden root added to 6 variables (load 1.2 SD)."""
    rng = np.random.default_rng(seed)
    x = sample(random_network(n, seed=seed, expected_parents=1.0), m, seed=seed + 1)
    x = x / x.std(axis=0)
    h = rng.normal(size=m)
    kids = rng.choice(n, 6, replace=False)
    x[:, kids] += 1.2 * h[:, None]
    return from_array(x / x.std(axis=0), [f"g{i}" for i in range(n)]), {f"g{k}" for k in kids}


def test_after_accept_the_children_come_back_marked_and_last():
    """Accept the planted cluster; proposing again lists a cluster of H1's children (the bug: closest
    H1, explained_by None). With ``hidden`` it is explained by H1 and listed after the new ones."""
    ds, kids = _planted()
    stepper = IdealParentSearch().make_stepper(ds)
    stepper.run()
    kw = dict(candidates=np.arange(ds.n_vars), min_size=3, labels=ds.instance_labels)
    first = propose_for_review(stepper, ds.values, ds.names, n_proposals=5, **kw)
    planted = next(p for p in first if set(p.names) == kids)
    names = ds.names
    hs = HiddenSearch(ds, initial_edges=[(names[p], names[c]) for p, c in stepper.edges()])
    hs.accept(planted)
    after, mean, all_names = hs.em.stepper, hs.em.mean, hs.names
    h1 = all_names.index("H1")
    children = {c for p, c in after.edges() if p == h1}
    plain = propose_for_review(after, mean, all_names, n_proposals=10, **kw)
    own = [p for p in plain if len(children & set(p.members)) >= MIN_CHILD_SHARE * len(p.members)]
    assert own and all(p.explained_by is None for p in own)  # what the page listed, unmarked
    marked = propose_for_review(after, mean, all_names, n_proposals=10, hidden=[h1], **kw)
    mine = [i for i, p in enumerate(marked) if p.explained_by == "H1"]
    owned = {p.key for p in own}
    assert mine and all(p.explained_by == "H1" for p in marked if p.key in owned)  # listed, if at all, marked
    new = [i for i, p in enumerate(marked) if p.explained_by != "H1" and not p.flagged]
    assert new and max(new) < min(mine)  # the new proposals first
