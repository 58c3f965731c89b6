"""After Undo the Search page's counters describe the network shown: the exact evaluations, ranked
candidates and search time of the moves taken back are left out, and one line says what those moves
cost and what the search has done in all (before, Undo left "Moves 2" beside move 3's counts)."""

from __future__ import annotations

from conftest import page_test, texts

from explorer import search_notes, state
from explorer.track import Work


def _metrics(at) -> dict[str, str]:
    return {m.label: m.value for m in at.metric}


def test_undo_shows_the_counters_of_the_network_shown(small_data):
    dataset, truth = small_data
    at = page_test("search.py", dataset, truth).run()
    for _ in range(2):
        at.button(key=state.W_STEP).click().run()
    session = at.session_state[state.SESSION]
    after_two = _metrics(at)
    at.button(key=state.W_STEP).click().run()
    after_three = _metrics(at)
    assert after_three["Exact evaluations"] != after_two["Exact evaluations"]  # move 3 did work
    assert not [t for t in texts(at.caption) if t.startswith("The counters describe")]

    at.button(key=state.W_UNDO).click().run()
    assert not at.exception
    now = _metrics(at)
    assert now["Moves"] == after_two["Moves"] == "2"
    assert now["Exact evaluations"] == after_two["Exact evaluations"]
    assert now["Ranked candidates"] == after_two["Ranked candidates"]
    # the move log's line and its last row say the same as the counters
    shown = session.main.shown_work
    line = next(t for t in texts(at.caption) if t.startswith("Moves: 2 · "))
    assert f"exact evaluations: {shown.n_exact:,}" in line and f"ranked candidates: {shown.n_ranked:,}" in line
    assert session.main.log[-1]["exact evaluations"] == shown.n_exact
    # what the undone move cost, and the totals, said once
    total = Work.of(session.stepper)
    (note,) = [t for t in texts(at.caption) if t.startswith("The counters describe the network shown")]
    gone = total - shown
    assert f"Undo took back 1 move(s), whose {gone.n_exact:,} exact evaluations" in note
    assert f"Work done in all: {total.n_exact:,} exact evaluations, {total.n_ranked:,} ranked" in note
    assert total.n_exact > shown.n_exact


def test_undo_to_moves_0_says_again_what_choosing_the_first_move_did(small_data):
    dataset, truth = small_data
    at = page_test("search.py", dataset, truth).run()
    first = _metrics(at)
    at.button(key=state.W_STEP).click().run()
    at.button(key=state.W_UNDO).click().run()
    assert not at.exception
    assert _metrics(at)["Exact evaluations"] == first["Exact evaluations"]
    assert _metrics(at)["Search time"] == first["Search time"]
    assert [t for t in texts(at.caption) if t.startswith("No move yet, but the search has already chosen")]


def test_compare_mode_undoes_both_tracks_counters(small_data):
    dataset, truth = small_data
    at = page_test("search.py", dataset, truth).run()
    session = at.session_state[state.SESSION]
    session.set_compare(True)
    for _ in range(2):
        session.step()
    before = [t.shown_work for _, t in session.tracks()]
    session.step()
    session.undo()
    assert [t.shown_work.n_exact for _, t in session.tracks()] == [w.n_exact for w in before]
    assert all(search_notes.undone_note(t) for _, t in session.tracks() if t.n_undone)
    at.run()
    assert not at.exception
    lines = [t for t in texts(at.caption) if t.startswith("Moves: 2 · ")]
    assert len(lines) == 2  # one per log, each the network shown
