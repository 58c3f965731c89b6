"""Programs on in two conditions: found, flagged by both, never kept by auto (#22, items 2 and 3)."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from test_hidden_onoff import profiles  # every gene's ideal profile on the empty network

import engine.hidden.onoff as onoff
from engine.data import from_array
from engine.hidden import HiddenSearch
from engine.hidden.onoff import ONOFF, scan_pairs

COST = 7.0  # about EBIC's cost of a first parent at M = 27 among 600 candidates
M = 27
LABELS = [f"WT_t{j}" for j in range(M - 2)] + ["WT_heat_r1", "WT_heat_r2"]


def table(seed: int, amp: float, on: tuple[int, ...] = (M - 2, M - 1), n: int = 600, width: int = 40):
    """``width`` genes raised by ``amp`` sd in the conditions ``on`` (a heat shock measured twice:
    the last two, ``WT_heat_r1`` and ``WT_heat_r2``), unit noise; the last 40 genes are listed
    regulators."""
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(M, n))
    d = np.zeros(M)
    d[list(on)] = 1.0
    x[:, :width] += amp * d[:, None]
    return x, d, [f"g{j:03d}" for j in range(n)]


def search(x, names) -> HiddenSearch:
    hs = HiddenSearch(from_array(x, names, instance_labels=LABELS), seed=0, em_options={"regulators": names[-40:]})
    hs.em.run()
    return hs


def r(a, b) -> float:
    return abs(float(np.corrcoef(a, b)[0, 1]))


class TestPairScan:
    def test_pair_score_and_set_match_an_independent_computation(self):
        """A gene counts in a pair's ``step`` (and set) where it is shifted at both conditions and
        the pair's indicator fits it better than either condition's own (``np.corrcoef`` of the
        profile with each centred indicator, in a loop over genes)."""
        x, _, _ = table(0, 2.0, n=120, width=20)
        x[M - 2, 20:30] += 4.0  # ten genes spiked in one of the two conditions only
        z = profiles(x)
        m, n = z.shape
        cost = np.linspace(5.0, 9.0, n)
        pairs = np.array([(25, 26), (0, 1), (3, 17)])
        got = onoff._scores(z, pairs, cost)
        for s, score in zip(pairs, got, strict=True):
            ind = np.isin(np.arange(m), s).astype(float)
            want = size = 0
            for i in range(n):
                ri = np.corrcoef(z[:, i], ind)[0, 1]
                alone = max(abs(np.corrcoef(z[:, i], np.arange(m) == c)[0, 1]) for c in s)
                shifted = all(np.sign(ri) * z[c, i] >= onoff.SHIFT_MIN for c in s) and abs(ri) > alone
                gain = -m / 2 * np.log(1 - ri**2)
                want += max(gain - cost[i], 0.0) if shifted else 0.0
                size += shifted and gain > onoff.MEMBER_SHARE * cost[i]
            assert score == pytest.approx(want, rel=1e-9, abs=1e-9)
            assert onoff._members(z, tuple(int(c) for c in s), cost).size == size

    def test_planted_pair_is_found_and_a_chance_pair_is_not(self):
        x, _, _ = table(2, 2.5)
        steps = scan_pairs(profiles(x), np.full(x.shape[1], COST))
        assert steps and steps[0].conditions == (M - 2, M - 1)
        assert np.mean(steps[0].members < 40) > 0.6 and np.sum(steps[0].members < 40) >= 25
        assert len(list(itertools.combinations(range(M), 2))) == 351
        passed = 0  # pure noise: a 5 % test of the best pair against 19 permuted tables
        for seed in range(10):
            noise, _, _ = table(seed, 0.0)
            passed += bool(scan_pairs(profiles(noise), np.full(noise.shape[1], COST)))
        assert passed <= 1

    @pytest.mark.parametrize("seed", [0, 1, 2])
    def test_one_odd_condition_makes_no_pair(self, seed):
        """40 genes 5 sd high in one condition: the permuted tables keep each gene's largest value
        where it is, so the spike's condition with any other is no better than chance. (Seed 0's
        noise has one chance pair elsewhere, as the test above allows.)"""
        x, _, _ = table(seed, 5.0, on=(M - 1,))
        for step in scan_pairs(profiles(x), np.full(x.shape[1], COST), n_sets=4):
            assert M - 1 not in step.conditions and np.sum(step.members < 40) <= 2


class TestTwoConditionProgram:
    def test_listed_flagged_by_both_conditions_with_its_genes(self):
        x, d, names = table(2, 2.5)
        props = search(x, names).propose(n_proposals=10)
        pair = [p for p in props if p.step_conditions == ["WT_heat_r1", "WT_heat_r2"]]
        kin = [p for p in props if p.source != ONOFF and sum(n < "g040" for n in p.names) >= 10]
        assert kin and all(p.high_leverage == ["WT_heat_r1", "WT_heat_r2"] for p in kin)  # the program's cluster
        assert len(pair) == 1 and pair[0].source == ONOFF
        p = pair[0]
        assert p.flagged and p.high_leverage == ["WT_heat_r1", "WT_heat_r2"]
        assert sum(n < "g040" for n in p.names) >= 25 and r(p.profile, d) > 0.9
        assert props.index(p) > max(i for i, q in enumerate(props) if not q.flagged)  # ranked below the unflagged
        assert p.to_dict()["step_conditions"] == ["WT_heat_r1", "WT_heat_r2"]

    def test_never_kept_by_auto_and_said_by_name(self):
        x, d, names = table(2, 2.5)
        hs = search(x, names)
        lines: list[str] = []
        hs.auto(max_hidden=2, progress=lines.append)
        assert all(r(hs.hidden_profile(h.name), d) < 0.6 for h in hs.hidden)  # (a chance H1 of 6 genes: 0.50)
        aside = hs.summary()["flagged_proposals"]
        assert any(f["step_conditions"] == ["WT_heat_r1", "WT_heat_r2"] for f in aside)
        assert any("a program on in 'WT_heat_r1' and 'WT_heat_r2' only" in line for line in lines)

    def test_a_three_condition_step_is_still_handed_to_auto(self):
        """The pair source does not take the 3-5 step's place: a planted 3-condition driver's step
        is among the proposals auto tries, unflagged, and no pair of its conditions is listed."""
        x, d, names = table(4, 2.0, on=(2, 9, 25))
        hs = search(x, names)
        steps = [p for p in hs._auto_candidates(set()) if p.source == ONOFF]
        assert steps[0].step_conditions == ["WT_t2", "WT_t9", "WT_heat_r1"] and not steps[0].flagged
        assert r(steps[0].profile, d) > 0.9
        assert not any(len(p.step_conditions) == 2 for p in hs.propose(n_proposals=10))

    def test_the_odd_condition_stays_named_alone(self):
        x, d, names = table(1, 5.0, on=(M - 1,))
        props = search(x, names).propose(n_proposals=10)
        assert not any(len(p.step_conditions) == 2 for p in props)
        spiked = [p for p in props if p.leverage > 0.5]
        assert spiked and all(p.high_leverage == ["WT_heat_r2"] for p in spiked)
