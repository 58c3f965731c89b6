"""The note under the regulator list after Apply: how many names are variables, which are not
(named, so a typo or an unmeasured gene shows where the list was given) and which were listed twice."""

from __future__ import annotations

from engine.io.regulators import parse_regulators, repeated_regulators
from explorer import lab_options, state


def _note(at) -> str:
    shown = [e.value for e in at.sidebar.info] + [e.value for e in at.sidebar.warning]
    return next(t for t in shown if t.startswith("Regulator list applied"))


def test_absent_and_repeated_names_are_said_under_the_list(app):
    names = list(app.session_state[state.SESSION].dataset.names)
    listed = "# TFs\n" + "\n".join(names[:4]) + f"\nNOT_A_GENE\n{names[1]}\nraf_typo\n"
    app.text_area(key=state.W_REGULATORS).set_value(listed)
    app.button(key=state.W_APPLY).click().run()
    assert not app.exception
    note = _note(app)
    assert note.startswith("Regulator list applied: 4 of 6 listed names are variables of the data")
    assert "Not in the data (ignored): NOT_A_GENE, raf_typo." in note
    assert f"Listed more than once (counted once): {names[1]}." in note
    assert any(note == w.value for w in app.sidebar.warning)  # absent names: a warning, not an info


def test_a_clean_list_is_an_info_without_lists(app):
    names = list(app.session_state[state.SESSION].dataset.names)
    app.text_area(key=state.W_REGULATORS).set_value("\n".join(names[:3]))
    app.button(key=state.W_APPLY).click().run()
    assert not app.exception
    note = _note(app)
    assert note == "Regulator list applied: 3 of 3 listed names are variables of the data; only those may be parents."
    assert any(note == i.value for i in app.sidebar.info)


def test_long_lists_are_cut(app):
    names = list(app.session_state[state.SESSION].dataset.names)
    absent = [f"g{i}" for i in range(lab_options.SHOWN_NAMES + 3)]
    text = "\n".join([names[0], *absent, *absent[:2]])
    assert repeated_regulators(text) == absent[:2] and parse_regulators(text) == [names[0], *absent]
    app.text_area(key=state.W_REGULATORS).set_value(text)
    app.button(key=state.W_APPLY).click().run()
    assert not app.exception
    shown = ", ".join(absent[: lab_options.SHOWN_NAMES])
    assert f"Not in the data (ignored): {shown} and 3 more." in _note(app)


def test_names_in_another_case_are_used_as_the_variables_and_said(app):
    """A list in lower case (``akt`` for ``Akt``) is applied to those variables, as ``learn
    --regulators`` does, and the note says which names were matched ignoring case."""
    names = list(app.session_state[state.SESSION].dataset.names)
    app.text_area(key=state.W_REGULATORS).set_value("\n".join([names[0].lower(), names[1].upper(), "NOT_A_GENE"]))
    app.button(key=state.W_APPLY).click().run()
    assert not app.exception
    session = app.session_state[state.SESSION]
    assert session.regulators == [names[0], names[1], "NOT_A_GENE"]
    note = _note(app)
    assert note.startswith("Regulator list applied: 2 of 3 listed names are variables of the data")
    assert f"Matched ignoring case: {names[0].lower()} = {names[0]}, {names[1].upper()} = {names[1]}." in note
    assert "Not in the data (ignored): NOT_A_GENE." in note
    assert sorted(session.stepper.cols) == sorted(session.dataset.index(n) for n in names[:2])
