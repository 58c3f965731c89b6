"""A listed regulator inside a proposed set explains it only when its children cover most of the set
(engine/hidden/member_cover.py; JMLR 2007 section 5, #22: FNR's grown set on the full E. coli table)."""

from __future__ import annotations

import numpy as np
import pytest

from engine.data import from_array
from engine.hidden import ClusterProposal, HiddenSearch
from engine.hidden.member_cover import MIN_MEMBER_COVER, member_cover, uncovered_keys
from engine.hidden.trying_order import Turns, trying_order

NAMES = [f"g{j:03d}" for j in range(160)]


def prop(
    members: list[int], est: float, explained_by: str | None = None, source: str = "semi-clique"
) -> ClusterProposal:
    names = [NAMES[j] for j in members]
    k = len(members)
    return ClusterProposal(
        members, names, np.zeros(20), np.ones(k), 1.0, 0.5, 1.0, np.ones(k), est,
        key=frozenset(names), source=source, complete_gain=1.0, common_variance=float(k), explained_by=explained_by,
    )  # fmt: skip


# a grown set of ten whose z* its member g010 tracks; a profile cluster; a set explained from outside
GROWN = prop(list(range(10, 20)), -2_000.0, explained_by="g010", source="semi-clique, grown")
PROFILES = prop([30, 31, 32], 500.0, source="profiles")
OUTSIDE = prop([40, 41, 42, 43], -10.0, explained_by="g050")
ROUND = [PROFILES, GROWN, OUTSIDE]
FEW = [(10, 11), (10, 12), (10, 60), (10, 61), (10, 62), (13, 14)]  # g010 -> 2 of the 9 others (and 3 outside)
MOST = [(10, j) for j in range(11, 16)]  # g010 -> 5 of the 9 others


def test_cover_counts_the_tracking_members_children_among_the_others():
    few = member_cover(GROWN, FEW, NAMES)
    assert (few.member, few.n_children, few.n_others, few.covers) == ("g010", 2, 9, False)
    most = member_cover(GROWN, np.array(MOST), NAMES)
    assert (most.n_children, most.covers) == (5, True)  # 5 >= 0.5 * 9
    assert MIN_MEMBER_COVER == 0.5
    # the member's parents among the others and edges between other members are not its children
    assert member_cover(GROWN, [(11, 10), (12, 10), (13, 14)], NAMES).n_children == 0
    assert member_cover(GROWN, MOST, NAMES, min_share=0.6).covers is False  # 5 < 5.4


def test_no_cover_without_a_tracking_member():
    assert member_cover(PROFILES, MOST, NAMES) is None
    assert member_cover(OUTSIDE, [(50, 40), (50, 41)], NAMES) is None  # explained from outside: dropped as before
    assert uncovered_keys(ROUND, FEW, NAMES) == {GROWN.key}
    assert uncovered_keys(ROUND, MOST, NAMES) == set()


@pytest.mark.parametrize("edges, tried", [(FEW, True), (MOST, False), ([], True)])
def test_genome_scale_tries_a_set_its_member_does_not_cover(edges, tried):
    free = uncovered_keys(ROUND, edges, NAMES)
    got = trying_order(ROUND, two_layer=False, small=False, kept_sources=[], turns=Turns(), uncovered=free)
    assert got == ([PROFILES, GROWN] if tried else [PROFILES])
    assert GROWN.explained_by == "g010"  # the listing still names the member


def test_small_and_two_layer_networks_are_unchanged():
    free = uncovered_keys(ROUND, MOST, NAMES)
    small = trying_order(ROUND, two_layer=False, small=True, kept_sources=[], turns=Turns(), uncovered=free)
    assert small == [PROFILES, GROWN]  # own members' sets are tried on small networks, covered or not
    layered = trying_order(ROUND, two_layer=True, small=False, kept_sources=[], turns=Turns(), uncovered={GROWN.key})
    assert layered == [PROFILES]


@pytest.mark.parametrize("edges, tried", [(FEW, True), (MOST, False)])
def test_auto_candidates_count_the_current_networks_edges(monkeypatch, edges, tried):
    """HiddenSearch._auto_candidates above RELEARN_MAX_VARS (150) observed variables reads the member's
    children from the current network."""
    x = np.random.default_rng(0).normal(size=(20, len(NAMES)))
    hs = HiddenSearch(from_array(x, NAMES))
    hs.set_edges(edges)
    monkeypatch.setattr(hs, "propose", lambda **kw: list(ROUND))
    assert (GROWN in hs._auto_candidates(set())) is tried


def test_genome_ranks_are_off_and_reorder_only_when_switched_on(monkeypatch):
    """trying_order.GENOME_RANK (measured, off): the grown set's common variance (10) and estimate with
    its removed edges given back (-2,000 + 30,000) put it before the profile cluster (3; +500)."""
    from engine.hidden import trying_order as order_module

    assert order_module.GENOME_RANK is None
    grown = prop(list(range(10, 20)), -2_000.0, source="semi-clique, grown")
    grown.removed_loss = 30_000.0
    args = {"two_layer": False, "kept_sources": ["profiles"], "turns": Turns()}
    assert trying_order([PROFILES, grown], small=False, **args) == [PROFILES, grown]
    for rank in order_module.RANKS:
        monkeypatch.setattr(order_module, "GENOME_RANK", rank)
        assert trying_order([PROFILES, grown], small=False, **args) == [grown, PROFILES]
        assert trying_order([PROFILES, grown], small=True, **args) == [PROFILES, grown]  # small networks: as before
    grown.removed_loss = 0.0  # its free gain -2,000 < +500: behind the cluster again
    monkeypatch.setattr(order_module, "GENOME_RANK", "free_gain")
    assert trying_order([PROFILES, grown], small=False, **args) == [PROFILES, grown]


def test_the_switch_turns_the_rule_off(monkeypatch):
    from engine.hidden import member_cover as cover_module

    assert cover_module.MEMBER_COVER is True
    monkeypatch.setattr(cover_module, "MEMBER_COVER", False)
    assert uncovered_keys(ROUND, FEW, NAMES) == set()
