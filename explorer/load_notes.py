"""How the sidebar words the loader's notes on columns it left out.

With genes in rows, a text column beside the gene ids (a description, a symbol) is expected in an
expression file: it is said in a neutral note (set aside, not used as values). A column left out for any other
reason (a stray text cell among numbers, a date column, a repeated name) stays a warning. The notes
are :mod:`engine.io`'s (``LEFT_OUT``); only their wording here is the explorer's.
"""

from __future__ import annotations

import re

from engine.io import LEFT_OUT

__all__ = ["annotation_columns", "annotation_note", "in_app_words", "home_note"]

_TEXT_COLUMNS = LEFT_OUT + "non-numeric column(s) "
#: the loader's CLI hints, and what the app offers instead
_CLI_HINTS = {
    # the radio, always drawn; the Home page's Transpose button only with a wrong-way-round warning
    "load with transpose: CLI --transpose": "choose 'variables in rows (transpose)' under Orientation in the sidebar",
}
#: one described column of a variables-in-columns note: "'c' has text ('x' in row 1; 30 of 30 cells)"
_DESCRIBED = re.compile(r"'[^']*' has text \(.*?; (\d+) of (\d+) cells\)")


def annotation_columns(note: str, variables_in_rows: bool) -> str | None:
    """The names of the all-text columns a note reports, when they are annotations of the variables
    (genes in rows: the text columns beside their ids); None when the note is a real omission.

    Read with variables in rows, the loader names only all-text columns, without detail. Turned round
    after loading (the Transpose button), the note describes each column: annotations only if every
    cell of every column is text (the loader details at most six, so a longer list stays a warning).
    """
    if not variables_in_rows or not note.startswith(_TEXT_COLUMNS):
        return None
    rest = note[len(_TEXT_COLUMNS) :]
    if ": " not in rest:
        return rest
    names, detail = rest.split(": ", 1)
    described = _DESCRIBED.findall(detail)
    if "more" in detail.rsplit(")", 1)[-1] or len(described) != names.count(", ") + 1:
        return None
    return names if all(k == n for k, n in described) else None


def annotation_note(columns: str) -> str:
    """The sidebar's neutral line for annotation columns."""
    return (
        f"Set aside as gene annotation: {columns}. Text beside the gene ids (descriptions, symbols) is "
        "expected in an expression file; it is not used as values."
    )


def in_app_words(note: str) -> str:
    """A loader note with its command-line hints replaced by the app's control for the same thing
    (a note written for both says ``CLI --transpose``; the app's user has a radio and a button)."""
    for cli, app in _CLI_HINTS.items():
        note = note.replace(cli, app)
    return note


def home_note(note: str, variables_in_rows: bool) -> str:
    """A loader note as the Home page lists it: annotation columns in the sidebar's neutral words
    (newcomer walk, session 19: Home said "left out non-numeric column(s) description" of a gene
    description column the sidebar called expected), any other note in the app's words."""
    columns = annotation_columns(note, variables_in_rows)
    return annotation_note(columns) if columns is not None else in_app_words(note)
