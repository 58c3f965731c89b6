"""The Hidden page's words for a flagged proposal: a program on in two conditions, or an odd condition (#22 item 3)."""

from __future__ import annotations

import numpy as np

from engine.hidden.proposals import ClusterProposal
from explorer.proposal_text import flag_group_text, flag_text, status_text


def _proposal(names, flagged_by, step=()) -> ClusterProposal:
    return ClusterProposal(
        members=list(range(len(names))),
        names=list(names),
        profile=np.zeros(27),
        loadings=np.ones(len(names)),
        eigenvalue=1.0,
        c1=0.5,
        c2=0.6,
        c2_members=np.zeros(len(names)),
        estimated_gain=-3.0,
        leverage=0.47,
        high_leverage=list(flagged_by),
        step_conditions=list(step),
    )


def test_a_two_condition_program_is_named_as_a_program_with_both_conditions():
    heat = ("WT_heat_r1", "WT_heat_r2")
    prog = _proposal([f"g{i}" for i in range(31)], heat, heat)
    line = flag_group_text(list(heat), [prog], "rank 6")
    assert line.startswith("**A program on in WT_heat_r1 and WT_heat_r2 only: 1 proposal(s) (rank 6; 31 variables")
    assert "does not try it" in line and "accept it yourself" in line
    one = flag_text(prog)
    assert "A program on in WT_heat_r1 and WT_heat_r2 only" in one and "31 genes" in one
    assert status_text(prog) == "odd"  # the table's short status is unchanged


def test_an_odd_condition_keeps_its_words():
    odd = _proposal(["a", "b", "c"], ["salt_2h"])
    assert "draw most of their profile from salt_2h" in flag_group_text(["salt_2h"], [odd], "rank 5")
    assert flag_text(odd).startswith(
        "**One odd sample?** 47% of z*'s energy (its squared deviations from its mean) is in salt_2h"
    )
    # two conditions that are not a step's (z*'s own shares flag them): the odd-sample words, both named
    pair = _proposal(["a", "b", "c"], ["s1", "s2"])
    assert "draw most of their profile from s1, s2" in flag_group_text(["s1", "s2"], [pair], "rank 5")
    assert "most of the rest in s2" in flag_text(pair)
