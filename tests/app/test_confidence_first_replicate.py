"""What the Confidence page says about time before the first replicate finishes (QA walk, #22/#23):
on the E. coli table (2500 genes x 27 conditions, 128 regulators) with hidden regulators on, the
progress line read "waiting for the first replicate — 2 min 43 s elapsed" for three minutes,
without a word on what a replicate is or why it takes that long."""

from __future__ import annotations

from explorer.confidence_view import first_replicate_note


def test_says_what_a_replicate_costs_from_the_search_page():
    said = first_replicate_note(2500, hidden=True, search_s=6.1)
    assert said == (
        "Each replicate is a whole search of the 2,500 variables on resampled rows (the Search page's search "
        "of these data took 6.1 s), then hidden regulators by structural EM, which takes several times longer. "
        "The time left is estimated once the first replicate finishes."
    )


def test_without_hidden_regulators_or_a_search_yet():
    said = first_replicate_note(11, hidden=False, search_s=None)
    assert said == (
        "Each replicate is a whole search of the 11 variables on resampled rows. "
        "The time left is estimated once the first replicate finishes."
    )


def test_a_search_not_yet_converged_is_only_part_of_a_replicate():
    # "the Search page's search of these data took 279 ms" after 30 of the moves of 6,132 yeast
    # genes promised a quick replicate (QA walk)
    said = first_replicate_note(6132, hidden=False, search_s=0.279, moves=30)
    assert said.startswith(
        "Each replicate is a whole search of the 6,132 variables on resampled rows (the Search page's 30 moves "
        "so far took 279 ms; a replicate goes on to convergence). "
    )
