"""A step auto tried is not handed on again (#22, item 2): the next-best step takes its slot
(:func:`engine.hidden.onoff.repeats`, :data:`~engine.hidden.onoff.REMEMBER_TRIED`: measured and off,
docs/decisions/onoff-tried-steps.md; switched on here)."""

from __future__ import annotations

import math
from types import SimpleNamespace

import numpy as np
import pytest
from test_hidden_onoff import COST, profiles, step_table

import engine.hidden.onoff as onoff
import engine.hidden.search as search_module
import engine.hidden.trial as trial_module
from engine.data import from_array
from engine.hidden import HiddenSearch
from engine.hidden.onoff import ONOFF, handed_on, repeats


def named(step) -> frozenset:
    """A step's conditions as :class:`~engine.hidden.considered.Considered` remembers them (no labels: 1..M)."""
    return frozenset(str(c + 1) for c in step.conditions)


def test_off_by_default():
    """Measured and not adopted: `module` 5 lost R*'s H to a chance step tried in its place."""
    assert onoff.REMEMBER_TRIED is False


class TestHandedOn:
    @pytest.fixture(autouse=True)
    def remember(self, monkeypatch):
        monkeypatch.setattr(onoff, "REMEMBER_TRIED", True)

    def test_a_tried_step_gives_its_slot_to_the_next(self):
        """The driver's step tried (its conditions, its genes): the scan's next step is handed on;
        the same conditions with other genes, or other conditions with its genes, are new."""
        x, d, _ = step_table(3, 2.5)
        z = profiles(x)
        cost, cand = np.full(z.shape[1], COST), np.arange(z.shape[1])
        first = handed_on(z, cost, cand, [])[0]
        assert set(first.conditions) == set(np.flatnonzero(d))
        nxt = handed_on(z, cost, cand, [], n_sets=2)[1]
        again = handed_on(z, cost, cand, [], tried=[(named(first), first.members)])
        assert again[0].conditions == nxt.conditions and again[0].conditions != first.conditions
        other_genes = np.arange(300, 300 + first.members.size)
        assert handed_on(z, cost, cand, [], tried=[(named(first), other_genes)])[0].conditions == first.conditions
        other_conds = frozenset(named(nxt))
        assert handed_on(z, cost, cand, [], tried=[(other_conds, first.members)])[0].conditions == first.conditions

    def test_labels_name_the_conditions_and_the_switch_turns_it_off(self, monkeypatch):
        x, _, _ = step_table(3, 2.5)
        z = profiles(x)
        cost, cand = np.full(z.shape[1], COST), np.arange(z.shape[1])
        label = [f"cond{c:02d}" for c in range(z.shape[0])]
        first = handed_on(z, cost, cand, [])[0]
        tried = [(frozenset(label[c] for c in first.conditions), first.members)]
        assert repeats(first, cand, tried, label) and not repeats(first, cand, tried, [str(c) for c in range(27)])
        assert handed_on(z, cost, cand, [], tried=tried, label=label)[0].conditions != first.conditions
        monkeypatch.setattr(onoff, "REMEMBER_TRIED", False)
        assert not repeats(first, cand, tried, label)
        assert handed_on(z, cost, cand, [], tried=tried, label=label)[0].conditions == first.conditions


class TestInAuto:
    @pytest.mark.parametrize("remember", [True, False])
    def test_after_a_failed_step_the_next_step_is_tried(self, monkeypatch, remember):
        """Every trial fails (a stand-in for :func:`~engine.hidden.trial.try_proposal` that realizes
        nothing, so the network stays as it was): the planted step is tried first; in the next round
        the same step is found again (same conditions, same genes). Remembered, the next-best step
        is tried then; forgotten (the switch off: the behaviour before), no other step is tried and
        on this table nothing else is left, so the search stops after one trial."""
        monkeypatch.setattr(onoff, "REMEMBER_TRIED", remember)
        monkeypatch.setattr(search_module, "MAX_FAILURES", 3)
        monkeypatch.setattr(search_module, "SMALL_MAX_FAILURES", 3)
        tried = []

        def fails(search, proposal, best, callback=None):
            tried.append(proposal)
            return SimpleNamespace(score=-math.inf, alternative_score=-math.inf, name="H1")

        monkeypatch.setattr(trial_module, "try_proposal", fails)
        x, d, names = step_table(3, 2.0)
        hs = HiddenSearch(from_array(x, names), seed=0, em_options={"regulators": names[-40:]})
        hs.auto(max_hidden=1)
        steps = [tuple(p.step_conditions) for p in tried if p.source == ONOFF]
        on = tuple(str(c + 1) for c in np.flatnonzero(d))
        assert hs.hidden == [] and tried[0].source == ONOFF and steps[0] == on
        if remember:  # a new step each round, until three failures in a row stop the search
            assert len(tried) == 3 and len(steps) >= 2 and len(set(steps)) == len(steps)
            assert list(hs.considered.steps) == [p.key for p in tried if p.source == ONOFF]
        else:  # the step found again is in ``skipped``, no other step is handed on: nothing is left
            assert steps == [on] and len(tried) == 1
