"""The Search page's progress line while it runs to convergence names the score in force (QA walk,
#22: on a real E. coli table with 128 listed regulators the score is the extended BIC, the counters
and the move log said EBIC, and the progress line said "last ΔBIC 1.51")."""

from __future__ import annotations

from explorer.search_notes import convergence_progress


def test_the_score_in_force_is_named():
    log = [{"exact ΔBIC": 20.0}, {"exact ΔBIC": 5.0}]
    frac, said = convergence_progress(12, log, "EBIC")
    assert said == "Running to convergence: 12 move(s) so far, last ΔEBIC 5.00 (bar: share of the first gain used up)"
    assert frac == 0.75


def test_before_a_move_and_bounds_of_the_bar():
    assert convergence_progress(0, [], "BIC") == (0.0, "Running to convergence...")
    frac, said = convergence_progress(3, [{"exact ΔBIC": 1.0}, {"exact ΔBIC": -0.5}], "BIC")
    assert frac == 0.99 and "last ΔBIC -0.50" in said  # never full while it runs
