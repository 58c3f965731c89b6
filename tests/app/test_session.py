"""The explorer's SearchSession without Streamlit: one owner of the searches and one undo stack
(issue #10)."""

from __future__ import annotations

import numpy as np
import pytest

from engine.data import from_array
from engine.exceptions import IdealParentError
from engine.hidden import propose_from_search
from engine.synth import random_network, sample_dataset
from explorer import actions, text
from explorer.session import SearchSession


@pytest.fixture()
def session():
    net = random_network(8, seed=3)
    return SearchSession(sample_dataset(net, 200, seed=4), net.edges(), "small")


def _state(s: SearchSession):
    return (s.stepper.edges(), s.stepper.score, len(s.main.log), len(s.main.trace))


def test_steps_go_on_the_undo_stack_and_come_back(session):
    start = _state(session)
    for _ in range(3):
        assert session.step().move is not None
    assert len(session.undo_stack) == 3 and len(session.main.log) == 3 and len(session.main.trace) == 4
    assert session.undo().startswith("Undid ")
    assert len(session.main.log) == 2
    while session.can_undo:
        session.undo()
    assert _state(session) == start
    assert session.undo() is None


def test_run_in_slices_matches_single_steps(session):
    other = SearchSession(session.dataset, session.truth, "copy")
    while other.step().move is not None:
        pass
    session.start_run(None)
    while session.run_chunk(0.0):
        pass
    assert not session.running and session.main.converged
    assert session.stepper.edges() == other.stepper.edges()
    assert [r["edge"] for r in session.main.log] == [r["edge"] for r in other.main.log]
    assert session.notice.startswith("Converged")
    assert len(session.undo_stack) == len(session.main.log)


def test_run_n_steps_and_stop(session):
    session.start_run(2)
    while session.run_chunk(0.0):
        pass
    assert session.stepper.n_iter == 2 and session.notice.startswith("Ran the requested steps: 2")
    session.start_run(None)
    session.stop()
    assert session.run_chunk(1.0) is False
    assert session.stepper.n_iter == 2 and session.notice.startswith("Stopped by you")


def test_compare_steps_and_undoes_both(session):
    session.step()
    session.set_compare(True)
    assert session.twin.stepper.n_iter == 1 and session.twin.stepper.method == "greedy"
    session.step()
    assert len(session.main.log) == len(session.twin.log) == 2
    session.undo()
    assert len(session.main.log) == len(session.twin.log) == 1
    session.set_compare(False)
    assert session.twin is None


def test_bad_settings_change_nothing(session):
    session.step()
    before = (session.settings, session.stepper, list(session.undo_stack))
    with pytest.raises(IdealParentError):
        session.set_settings({"cpd": "multiplicative"})  # standardized data are not positive
    assert (session.settings, session.stepper, session.undo_stack) == before
    session.set_settings({"method": "greedy"})
    assert session.settings.method == "greedy" and session.stepper.n_iter == 0 and not session.can_undo


def _planted(seed: int = 0):
    rng = np.random.default_rng(seed)
    h = rng.normal(size=300)
    x = rng.normal(size=(300, 10))
    for j in range(5):
        x[:, j] += 1.5 * h
    return from_array(x, [f"V{i}" for i in range(10)])


def test_accept_hidden_is_one_undoable_action():
    s = SearchSession(_planted(), None, "planted")
    s.step()
    before = (s.stepper, list(s.main.log), s.stepper.score)
    prop = propose_from_search(s.stepper, s.values(), s.variable_names(), n_proposals=1)[0]
    message = actions.accept_hidden(s, prop)
    assert "Observed-data BIC" in message
    assert s.stepper.n_vars == 11 and s.hidden_names() == {"H1"} and s.values().shape == (300, 11)
    assert isinstance(s.undo_stack[-1], actions.AcceptHidden)
    net = s.learned_network()
    assert [h["name"] for h in net.hidden] == ["H1"]
    if s.step().move is not None:  # a move after the acceptance is undone first
        assert s.undo().startswith("Undid ")
    assert "taken back" in s.undo()
    assert (s.stepper, s.main.log, s.stepper.score) == before
    assert s.hidden is None and s.hidden_names() == set()


def test_text_wording(session):
    assert text.settings_summary(session.settings).startswith("Ideal parent, K=2, measure C2, shared queue")
    assert text.other_method("ideal") == "greedy" and text.method_label("greedy") == "Greedy"
    assert session.true_structure_bic() is not None


def test_undoing_a_second_hidden_variable_keeps_the_first():
    """Review finding: the HiddenSearch behind the network before an Accept must not change."""
    s = SearchSession(_planted(1), None, "planted")
    first = s.propose_hidden(1)[0]
    actions.accept_hidden(s, first)
    kept = s.hidden
    second = s.propose_hidden(1)[0]
    actions.accept_hidden(s, second)
    assert [h.name for h in s.hidden.hidden] == ["H1", "H2"]
    assert "H2 was taken back" in s.undo()
    assert s.hidden is kept and [h.name for h in kept.hidden] == ["H1"]
    assert kept.em.n_vars == s.stepper.n_vars == 11
    again = s.propose_hidden(1)[0]
    actions.accept_hidden(s, again)
    assert [h.name for h in s.hidden.hidden] == ["H1", "H2"]


def test_compare_off_drops_the_twins_own_steps():
    """Review finding: steps that moved only the comparison search leave the stack with it."""
    net = random_network(12, seed=3)
    s = SearchSession(sample_dataset(net, 150, seed=4), net.edges(), "small", {"k": 1})
    s.set_compare(True)
    while s.step().move is not None:
        pass
    main, twin = s.stepper.n_iter, s.twin.stepper.n_iter
    assert len(s.undo_stack) == max(main, twin)
    s.set_compare(False)
    assert len(s.undo_stack) == main
    while s.can_undo:
        assert s.undo().startswith("Undid ")
    assert s.stepper.n_iter == 0


def test_a_step_that_fails_halfway_keeps_what_moved(session):
    from engine.exceptions import ModelError

    session.set_compare(True)

    def fail():
        raise ModelError("the twin failed (test)")

    session.twin.stepper.step = fail
    with pytest.raises(ModelError):
        session.step()
    assert session.stepper.n_iter == 1 and session.can_undo
    session.undo()
    assert session.stepper.n_iter == 0
