"""Neighbourhood proposals: a hidden regulator's children hanging off one proxy child in a sparse
(EBIC, small M) learned network (#22, engine/hidden/neighbourhood.py)."""

from __future__ import annotations

import numpy as np
import pytest

from engine.data import from_array
from engine.hidden import HiddenSearch, neighbourhood
from engine.hidden.neighbourhood import NEIGHBOURHOOD, neighbourhoods

KIDS = list(range(8))


def star_search(m: int, seed: int = 0, n_noise: int = 22, load: float = 1.0) -> HiddenSearch:
    """h -> X0..X7 (loads 1, noise sd 0.8) and ``n_noise`` independent variables; the network
    holds the tree a sparse search keeps for it: X0 -> X1..X7 (X0 the proxy child)."""
    rng = np.random.default_rng(seed)
    h = rng.normal(size=m)
    kids = [load * h + 0.8 * rng.normal(size=m) for _ in KIDS]
    x = np.column_stack(kids + [rng.normal(size=m) for _ in range(n_noise)])
    names = [f"X{i}" for i in range(x.shape[1])]
    return HiddenSearch(from_array(x, names), initial_edges=[("X0", f"X{i}") for i in KIDS[1:]])


class TestNeighbourhoods:
    def test_a_variable_with_its_parents_and_children(self):
        parents = [(), (0,), (0,), (1,), ()]
        sets = neighbourhoods(parents, np.ones(5, dtype=bool), 3)
        assert [s.tolist() for s in sets] == [[0, 1, 2], [0, 1, 3]]  # 2: {0, 2}, 3: {1, 3}, 4: alone

    def test_only_allowed_variables(self):
        parents = [(), (0,), (0,), (0,)]
        allowed = np.array([True, True, True, False])
        assert [s.tolist() for s in neighbourhoods(parents, allowed, 3)] == [[0, 1, 2]]


def test_small_networks_bound_is_the_trials():
    from engine.hidden.trial import RELEARN_MAX_VARS

    assert neighbourhood.MAX_VARS == RELEARN_MAX_VARS


class TestProposals:
    def test_the_star_is_proposed_under_ebic(self):
        hs = star_search(40)
        assert hs.em.score_choice.name == "ebic"
        props = [p for p in hs.propose(n_proposals=10) if p.source == NEIGHBOURHOOD]
        assert props, "no neighbourhood set proposed"
        best = {int(v[1:]) for v in props[0].names}
        assert len(best & set(KIDS)) >= 7 and len(best - set(KIDS)) <= 1

    def test_only_with_positive_estimates(self):
        """No regulator (the same tree over independent variables): every neighbourhood's estimate is
        negative, and none is offered (each would cost a full trial)."""
        props = star_search(40, load=0.0).propose(n_proposals=10)
        assert all(p.source != NEIGHBOURHOOD for p in props)

    def test_off_switch(self, monkeypatch):
        monkeypatch.setattr(neighbourhood, "NEIGHBOURHOODS", False)
        assert all(p.source != NEIGHBOURHOOD for p in star_search(40).propose(n_proposals=10))

    @pytest.mark.parametrize("m", [200])
    def test_not_under_bic(self, m):
        """Tall data (BIC): the proposals are those without the source, unchanged."""
        hs = star_search(m, n_noise=12)
        assert hs.em.score_choice.name == "bic"
        on = [(p.source, p.names) for p in hs.propose(n_proposals=10)]
        assert all(s != NEIGHBOURHOOD for s, _ in on)

    def test_not_with_a_regulator_list(self):
        hs = star_search(40)
        props = hs.propose(n_proposals=10, explainers=np.arange(hs.n_observed))
        assert all(p.source != NEIGHBOURHOOD for p in props)


class _Set:
    """A stand-in candidate score: members and the two estimates the offer rule reads."""

    def __init__(self, members, gain: float, complete_gain: float) -> None:
        self.members = np.asarray(members, dtype=np.intp)
        self.gain, self.complete_gain = gain, complete_gain
        self.factor_loadings = np.full(self.members.size, 0.8)


class _Ebic:
    name = "ebic"


class TestOfferRule:
    """Which grown neighbourhoods are offered: the paper's complete-data estimate must be positive,
    the observed-data one (the network around the set kept fixed) need not be (h22g 2200: -3.4
    estimated, +6.6 complete, +3.8 realized)."""

    PARENTS = [(), (0,), (0,), (0,), (), (4,), (4,), (4,)]  # two stars: {0,1,2,3} and {4,5,6,7}

    def offered(self, estimates: dict) -> list[list[int]]:
        def seed_score(members, _prune):
            key = 0 if 0 in members else 4
            return _Set(members, *estimates[key])

        out = neighbourhood.neighbourhood_sets(
            self.PARENTS,
            np.arange(8),
            _Ebic(),
            None,
            seed_score,
            lambda cs, **_: cs,
            [f"X{i}" for i in range(8)],
            set(),
        )
        return [cs.members.tolist() for cs, _ in out]

    def test_a_negative_observed_estimate_is_offered_when_the_complete_one_pays(self):
        assert self.offered({0: (-3.4, 6.6), 4: (-20.0, -5.0)}) == [[0, 1, 2, 3]]

    def test_a_negative_complete_estimate_is_not_offered(self):
        assert self.offered({0: (2.0, -0.1), 4: (-20.0, -5.0)}) == []
