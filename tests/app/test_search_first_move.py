"""At Moves 0 the Search page's counters are not zero (choosing the first move already ranks and
fits candidates): a one-line caption under the move log's counters says why, and goes once a move
is made (explorer.search_notes)."""

from __future__ import annotations

from conftest import page_test, texts

from explorer import search_notes, state
from explorer.session import SearchSession

NOTE = "No move yet, but the search has already chosen the first one"


def _notes(at) -> list[str]:
    return [t for t in texts(at.caption) if t.startswith(NOTE)]


def test_moves_0_says_why_the_counters_are_not_zero(small_data):
    dataset, truth = small_data
    at = page_test("search.py", dataset, truth).run()
    assert not at.exception
    stepper = at.session_state[state.SESSION].stepper
    assert stepper.n_iter == 0 and stepper.n_exact > 0 and stepper.n_ranked > 0
    (note,) = _notes(at)
    assert f"ranked {stepper.n_ranked:,} candidate moves by the cheap C1/C2 estimates" in note
    assert f"the best {stepper.k} per family exactly ({stepper.n_exact:,} exact evaluations)" in note
    assert "removal" not in note  # the empty network has no edge to remove
    at.button(key=state.W_STEP).click().run()
    assert not at.exception and not _notes(at)
    at.button(key=state.W_UNDO).click().run()  # back at Moves 0: the counters of the network shown
    assert not at.exception and _notes(at) == [note]


def test_greedy_fits_every_candidate(small_data):
    dataset, truth = small_data
    session = SearchSession(dataset, truth, "greedy", dict(method="greedy"))
    stepper = session.stepper
    stepper.best_move()
    assert stepper.n_ranked == 0 and stepper.n_exact > 0
    assert search_notes.first_move_note(stepper) == (
        f"{NOTE}: it fitted every candidate move exactly ({stepper.n_exact:,} exact evaluations)."
    )
