"""The sidebar's checks of a lab's file and of the regulator list (issue #24).

* the first line of an upload: read as the header (checked: a line of numbers is refused as
  probably data, :mod:`engine.io.header`), as data (the box "First line is data", CLI
  ``--no-header``), or kept as the header after all; the refusal offers both in one click;
* the candidate-regulator list when the data change: re-checked against the new variables and
  said in one place, under the list (kept, with the count of names found, or removed).
"""

from __future__ import annotations

import streamlit as st

from engine.exceptions import IdealParentError
from engine.io.files import decode_text
from engine.io.regulators import parse_regulators, repeated_regulators, resolve_regulators
from engine.listing import first_few
from explorer import state
from explorer.text import listed_regulators

__all__ = [
    "header_option",
    "header_fix",
    "forget_header_choice",
    "regulator_file_key",
    "recheck_regulators",
    "regulator_file_name",
    "regulators_from_widgets",
    "widgets_text",
    "say_regulators_turned",
    "say_regulators_applied",
]


def header_option() -> str:
    """How an upload's first line is read: ``"check"`` (a header; one that looks like data is
    refused, :mod:`engine.io.header`), ``"none"`` (the box "First line is data" is ticked) or
    ``"first"`` (the header even if it holds only numbers: "Keep the first line as the header")."""
    no_header = st.checkbox(
        "First line is data (no header row)",
        key=state.W_NO_HEADER,
        help="For a file whose first line is already data (e.g. a gene id and its values): the columns are "
        "then named V1, V2, ... (variables), or sample1, sample2, ... with variables in rows. CLI: --no-header.",
    )
    if no_header:
        state.put(state.KEEP_HEADER, False)
        return "none"
    return "first" if state.get(state.KEEP_HEADER) else "check"


def header_fix() -> None:
    """Under a file refused because its first line looks like data: the two ways to read it."""
    if state.get(state.FAILED_FIX) != {"no_header": True}:
        return
    # one under the other, full width: side by side their labels were cut in the sidebar
    st.button(
        "Read the first line as data", key="w_fix_no_header", on_click=_read_as_data, type="primary", width="stretch"
    )
    st.button("Keep the first line as the header", key="w_fix_keep_header", on_click=_keep_header, width="stretch")


def forget_header_choice() -> None:
    """A new file: its first line is checked again (the box and "Keep the first line" were for the last one)."""
    st.session_state[state.W_NO_HEADER] = False
    state.put(state.KEEP_HEADER, False)


def _read_as_data() -> None:
    st.session_state[state.W_NO_HEADER] = True


def _keep_header() -> None:
    state.put(state.KEEP_HEADER, True)


def regulator_file_key() -> str:
    """Widget key of the regulator file uploader (a new key empties it: :func:`recheck_regulators`)."""
    gen = int(state.get(state.REGULATOR_FILE_GEN) or 0)
    return state.W_REGULATOR_FILE if gen == 0 else f"{state.W_REGULATOR_FILE}_{gen}"


def recheck_regulators() -> None:
    """New data: the regulator list of the sidebar, checked against its variables and said in one
    place (the note under the list). Kept, and in force, when some of its names are variables
    (with the count found); kept and not in force when none is but some name the data's rows (a file
    the wrong way round: the Transpose button applies it); removed, with a message, otherwise."""
    session = state.session()
    try:
        listed = regulators_from_widgets()
    except IdealParentError:
        listed = None
    state.put(state.REGULATOR_NOTE, None)
    if not listed:
        return
    n_listed, names = len(set(listed)), set(session.dataset.names)
    found = len({n for n in listed if n in names})
    if found:
        try:
            session.set_settings(session.settings, listed)
        except IdealParentError as exc:  # e.g. too few rows for the score with these candidates
            state.put(state.REGULATOR_NOTE, ("warning", f"The regulator list is not applied to the new data: {exc}"))
            return
        session.notice = None  # the note under the list says it, once
        session.regulator_file = regulator_file_name()
        said = f"Regulator list kept for the new data: {found} of {n_listed} listed names found"
        said += "; only those may be parents."
        state.put(state.REGULATOR_NOTE, ("info", said))
        return
    rows = resolve_regulators(listed, [str(r) for r in session.dataset.instance_labels or ()])[0]
    if rows:  # the new file is the wrong way round (genes in rows): kept for the Transpose (walk, session 25)
        if session.regulators:  # not in force on these data until they are turned
            try:
                session.set_settings(session.settings, None)
            except IdealParentError:  # every parent allowed is the loosest setting; keep the search as it is
                pass
        said = (
            f"The regulator list ({n_listed} names) is kept but not applied: none of its names is a variable of "
            f"the new data, and {len(rows)} of them name its rows. If the genes are in rows, Transpose the data "
            "(above) and the list is applied to the turned data."
        )
        state.put(state.REGULATOR_NOTE, ("warning", said))
        return
    st.session_state[state.W_REGULATORS] = ""
    state.put(state.REGULATOR_FILE_GEN, int(state.get(state.REGULATOR_FILE_GEN) or 0) + 1)
    said = (
        f"The regulator list ({n_listed} names) was removed: none of its names is a variable of the new data. "
        "Paste or upload a list for these data."
    )
    state.put(state.REGULATOR_NOTE, ("warning", said))


def widgets_text() -> str:
    """The text of the regulator list: the pasted names, then the uploaded file's."""
    upload = state.get(regulator_file_key())
    text = str(state.get(state.W_REGULATORS) or "")
    if upload is not None:
        binary = "not a text file (one name per line, or a CSV/TSV with names in column 1)."
        text += "\n" + decode_text(upload.getvalue(), upload.name, binary)  # UTF-8, UTF-16 (BOM or not)...
    return text


def regulator_file_name() -> str | None:
    """The uploaded regulator file's name when the list is that file alone (nothing pasted), else None:
    the rerun command names it (a newcomer walk: the command named ``regulators.txt``, not the user's file)."""
    upload = state.get(regulator_file_key())
    return upload.name if upload is not None and not str(state.get(state.W_REGULATORS) or "").strip() else None


def regulators_from_widgets() -> list[str] | None:
    """The candidate regulators pasted or uploaded in the form (None: every variable may be a parent)."""
    text = widgets_text()
    if not text.strip():
        return None
    listed = parse_regulators(text, source="the regulator list")
    session = state.session()
    if session is None:
        return listed
    # a name matching a variable only ignoring case is that variable (as learn --regulators)
    spelled = dict(resolve_regulators(listed, session.dataset.names)[1])
    return list(dict.fromkeys(spelled.get(r, r) for r in listed))


def _loose_matches() -> list[str]:
    """``'tf2' = 'TF2'`` for each listed name that matches a variable only ignoring case."""
    try:
        listed = parse_regulators(widgets_text(), source="the regulator list")
    except IdealParentError:
        return []
    return [f"{r} = {v}" for r, v in resolve_regulators(listed, state.session().dataset.names)[1]]


#: names shown in the note under the list, at most
SHOWN_NAMES = 10


def say_regulators_applied() -> None:
    """After Apply with a regulator list: the note under the list says how many of its names are
    variables, names the ones that are not (a typo, an alias or an unmeasured gene is then visible
    where the list was given) and the ones listed twice (counted once)."""
    session = state.session()
    listed = listed_regulators(session.regulators, session.dataset.covariates)
    if not listed:
        return
    names = set(session.dataset.names)
    absent = [r for r in listed if r not in names]
    said = f"Regulator list applied: {len(listed) - len(absent)} of {len(listed)} listed names are variables"
    said += " of the data; only those may be parents."

    loose = _loose_matches()
    if loose:
        said += f" Matched ignoring case: {first_few(loose, SHOWN_NAMES)}."
    if absent:
        said += f" Not in the data (ignored): {first_few(absent, SHOWN_NAMES)}."
    try:
        twice = repeated_regulators(widgets_text())
    except IdealParentError:
        twice = []
    if twice:
        said += f" Listed more than once (counted once): {first_few(twice, SHOWN_NAMES)}."
    state.put(state.REGULATOR_NOTE, ("warning" if absent else "info", said))


def say_regulators_turned(listed: list[str] | None) -> None:
    """After the Transpose button (:func:`explorer.actions.transpose_data`, told ``listed``): the note
    under the list says whether it is in force on the turned data, and a refusal of the settings
    made before (its names were then rows) no longer stands."""
    if str(state.get(state.ERROR) or "").startswith("Settings not applied"):
        state.put(state.ERROR, None)
    state.put(state.REGULATOR_NOTE, None)
    if not listed:
        return
    n_listed, found = len(set(listed)), len(state.session().regulators or ())
    if found:
        said = f"Regulator list applied to the turned data: {found} of {n_listed} listed names found; "
        said += "only those may be parents."
        state.put(state.REGULATOR_NOTE, ("info", said))
    else:
        said = (
            f"The regulator list ({n_listed} names) is not applied: none of its names is a variable of the turned data."
        )
        state.put(state.REGULATOR_NOTE, ("warning", said))
