"""Apply says that it restarted the search.

Found on the synthetic sample: with a converged network of 25 moves, changing K in the sidebar
and pressing Apply showed the empty network at move 0 with no word on the page; only the
button's tooltip said that Apply restarts the search, and the undo stack was gone.
"""

from __future__ import annotations

from conftest import texts

from explorer import state

SEARCH = "explorer/pages/search.py"


def test_apply_after_moves_says_the_search_restarted(app):
    at = app.switch_page(SEARCH).run()
    at.button(key=state.W_STEP).click().run()
    at.button(key=state.W_STEP).click().run()
    assert not at.exception
    at.number_input(key=state.W_K).set_value(5)
    at.button(key=state.W_APPLY).click().run()
    assert not at.exception
    session = at.session_state[state.SESSION]
    assert session.settings.k == 5 and session.stepper.n_iter == 0
    said = " ".join(texts(at.info))
    assert "Settings applied: Ideal parent, K=5" in said
    assert "the 2 move(s) made before are not kept" in said


def test_apply_before_any_move_says_only_what_was_applied(app):
    at = app.switch_page(SEARCH).run()
    at.number_input(key=state.W_K).set_value(3)
    at.button(key=state.W_APPLY).click().run()
    assert not at.exception
    said = " ".join(texts(at.info))
    assert "Settings applied: Ideal parent, K=3" in said and "not kept" not in said
