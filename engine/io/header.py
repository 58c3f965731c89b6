"""Is the first line of a table its header? A file without a header row, and reading one.

Some pipelines write an expression matrix without a header line: its first line is a gene id and
the gene's values (``Rv0001  9.938  10.21 ...``). Read as usual, that line becomes the column names:
a gene is lost and the samples are named by numbers. :func:`check_header` refuses such a table
with the fix named (``no_header``; CLI ``--no-header``; the explorer's "First line is data" box),
and :func:`headerless` reads it: the first line becomes data and the columns get generated names,
``V1..VN`` when they are variables and ``sample1..sampleM`` when they are instances (with variables
in rows).

The evidence that a first line is data, not names: apart from a leading id cell (and, over text
columns, a lab export's description or symbol beside it), every cell is a number (at least two),
and nothing says they are names. Names that are numbers do occur, and are
accepted: whole numbers over data that are not (numeric gene ids, ``arth150``), and a strictly
increasing or decreasing run of at least four (time points, doses, sample numbers: a row of data
is that ordered by chance with probability at most 2/4! = 1/12 at four cells, and
vanishingly rarely beyond). Whatever the evidence, ``check_header=False`` (:func:`engine.io.from_frame`;
CLI ``--header``) takes the first line as the header. Only the header and the first rows of the
body are read: O(N).
"""

from __future__ import annotations

import re

import numpy as np
import pandas as pd

from ..exceptions import DataValidationError

__all__ = [
    "HeaderlessFileError",
    "check_header",
    "headerless",
    "data_in_header",
    "generated_names",
    "turn_generated_names",
]

#: rows of the body looked at to tell whole-number data from measurements
_BODY_ROWS = 200
#: an ordered run of numbers at least this long is read as names (time points, doses)
_ORDERED_RUN = 4


class HeaderlessFileError(DataValidationError):
    """The table's first line looks like data, not a header (the message names the fix).

    ``fix`` is the loading option that reads it as data: ``{"no_header": True}``."""

    fix = {"no_header": True}


def generated_names(n: int, transpose: bool) -> list[str]:
    """Names of the columns of a file without a header: ``V1..Vn`` for variables (the columns of
    an ordinary table), ``sample1..samplen`` for instances (with variables in rows)."""
    stem = "sample" if transpose else "V"
    return [f"{stem}{i + 1}" for i in range(n)]


#: how the note of :func:`headerless` begins
_HEADERLESS = "no header row: the first line is data; "
_ROLE = {False: ("variables", "V"), True: ("instances", "sample")}
#: a data set's ``generated_names`` -> whether the file was read turned round (the key of _ROLE)
_AXIS = {"variables": False, "instances": True}


def turn_generated_names(
    names: list[str], labels: list[str] | None, notes: list[str], generated: str | None
) -> tuple[list[str], list[str] | None, list[str], str | None]:
    """A headerless table turned round after loading (:func:`engine.io.transpose_dataset`): its
    generated names follow their new role, as if the file had been read turned round with
    :func:`headerless` (``V3`` as an instance becomes ``sample3``; ``sample3`` as a variable
    becomes ``V3``), and the note of :func:`headerless` says so.

    ``names`` are the new variable names, ``labels`` the new instance labels, ``generated`` the
    old data set's :attr:`~engine.data.Dataset.generated_names` (the axis whose names were made
    up, before turning). Returns the names, labels, notes and the new ``generated`` (the other
    axis); unchanged when no name was generated (a table with a header), so real names such as
    ``V1`` are never touched."""
    if generated not in _AXIS:
        return names, labels, notes, None
    was_turned = _AXIS[generated]
    what, stem = _ROLE[was_turned]
    new_what, new_stem = _ROLE[not was_turned]
    pattern = re.compile(rf"^{stem}(\d+)$")
    old = list(names if was_turned else labels or [])  # the generated names, on their new axis
    if not old or not all(pattern.match(x) for x in old):  # e.g. a data set built by hand
        return names, labels, notes, None
    new = [pattern.sub(rf"{new_stem}\1", x) for x in old]
    said = next((n for n in notes if n.startswith(_HEADERLESS)), None)
    if said is not None:
        note = said.replace(f"({what}) are named {stem}", f"({new_what}) are named {new_stem}").replace(
            f"..{stem}", f"..{new_stem}"
        )
        notes = [note if n is said else n for n in notes]
    turned = "variables" if generated == "instances" else "instances"
    return (new, labels, notes, turned) if was_turned else (names, new, notes, turned)


def _numbers(cells: list[str]) -> np.ndarray:
    return pd.to_numeric(pd.Series(cells, dtype=object), errors="coerce").to_numpy(dtype=float)


def _text_column(body: pd.DataFrame, j: int) -> bool:
    """Whether column ``j`` of ``body`` holds text (most of its first rows are not numbers)."""
    if j >= body.shape[1]:
        return False
    col = body.iloc[:_BODY_ROWS, j]
    text = pd.to_numeric(col, errors="coerce").isna() & col.notna()
    return bool(len(col)) and bool(text.mean() >= 0.8)


def data_in_header(columns, body: pd.DataFrame) -> str | None:
    """Why the header ``columns`` of ``body`` look like a line of data (see the module
    docstring), or None when they may be names."""
    cells = ["" if c is None else str(c).strip() for c in columns]
    lead = np.isnan(_numbers(cells))
    n_lead = int(bool(cells) and lead[0])  # a leading id cell (or an empty corner)
    while n_lead and n_lead < len(cells) and lead[n_lead] and cells[n_lead] and _text_column(body, n_lead):
        n_lead += 1  # a text cell over a text column: a lab export's description beside the id
    cells = cells[n_lead:]  # the rest must be numbers
    parsed = _numbers(cells)
    text = np.isnan(parsed) & np.array([c != "" for c in cells], dtype=bool)
    values = parsed[~np.isnan(parsed)]  # (an empty cell: a missing value in a line of data)
    if len(values) < 2 or text.any():
        return None
    whole = bool(np.all(np.mod(values, 1.0) == 0.0))
    if whole:
        head = body.iloc[:_BODY_ROWS, -len(cells) :]
        nums = pd.to_numeric(pd.Series(head.to_numpy().ravel(), dtype=object), errors="coerce").dropna()
        if len(nums) and not bool(np.all(np.mod(nums.to_numpy(dtype=float), 1.0) == 0.0)):
            return None  # whole-number names over measurements: ids
    steps = np.diff(values)
    if len(values) >= _ORDERED_RUN and (np.all(steps > 0) or np.all(steps < 0)):
        return None  # an ordered run: time points, doses, sample numbers
    cut = [str(c) if len(str(c)) <= 12 else str(c)[:11] + "…" for c in list(columns)[:4]]
    shown = ", ".join(cut) + (", ..." if len(columns) > 4 else "")
    return f"its first line ({shown}) holds {len(values)} numbers where column names should be"


def check_header(frame: pd.DataFrame, *, transpose: bool, source: str) -> None:
    """Refuse ``frame`` (raw cells, the first line as its header) when that line looks like data,
    with the fix named; a table whose header may be names passes."""
    why = data_in_header(list(frame.columns), frame)
    if why is None:
        return
    first = str(frame.columns[0]).strip()
    named = bool(first) and bool(np.isnan(_numbers([first])[0]))  # a leading id cell
    stem = "sample" if transpose else "V"
    n_text = sum(_text_column(frame, j) for j in range(1, frame.shape[1])) if named else 0  # named text1..
    names = f"{stem}1..{stem}{frame.shape[1] - int(named or not first) - n_text}"
    if transpose:
        lost = f"the variable {first!r}" if named else "a variable (a row)"
    else:
        lost = f"the instance {first!r}" if named else "an instance (a row)"
    raise HeaderlessFileError(
        f"{source}: the file seems to have no header row: {why}. Read as the header, that line would "
        f"lose {lost} and name the columns by its values. If the first line is data, load it with no "
        f"header (CLI: --no-header; app: tick 'First line is data'): the columns are then named {names}. "
        "If it does name the columns, use --header (app: 'Keep the first line as the header')."
    )


def headerless(frame: pd.DataFrame, *, transpose: bool, source: str = "table") -> tuple[pd.DataFrame, str]:
    """``frame`` read without a header: its header line becomes the first row of data, and the
    columns are named by :func:`generated_names` (a first column of text, the row labels, is
    named ``""``: a label column). An empty first cell over row labels is an unlabelled instance;
    with variables in rows it would be a variable without a name, and is refused. Returns the new
    frame (the caller's is not modified) and a note."""
    header = [None if c is None or str(c).strip() == "" else str(c).strip() for c in frame.columns]
    nums = _numbers([h or "" for h in header])
    body = frame.copy(deep=False)
    body.columns = range(frame.shape[1])
    # the line joins the body column by column: a column of numbers stays float64 (no copy of a large
    # table as Python objects) when its header cell is a number or empty; otherwise the column is text
    first = {
        j: [nums[j] if pd.api.types.is_float_dtype(t) and (h is None or not np.isnan(nums[j])) else h]
        for j, (h, t) in enumerate(zip(header, body.dtypes, strict=True))
    }
    out = pd.concat([pd.DataFrame(first), body], ignore_index=True)
    first = out.iloc[:, 0]
    text = pd.to_numeric(first, errors="coerce").isna() & first.notna()
    labelled = out.shape[1] > 1 and bool(text.mean() >= 0.8)
    if labelled and header[0] is None:
        # the first line's label cell is empty: as data, it is a row without a name
        if transpose:
            raise DataValidationError(
                f"{source}: read with no header row, the first line is data, but its first cell (with variables in "
                "rows, that variable's name) is empty: the line looks like a header, an empty corner over the "
                "instances' names; load the file with its header (CLI: without --no-header; app: untick 'First "
                "line is data')."
            )
        out.iloc[0, 0] = ""  # an instance without a label, not one named 'None'
    # a text column beside the labels (a lab export's descriptions) is named text1.., not counted as
    # a variable or an instance: the conditions of a gene-by-row export are then sample1.. from the first
    texts = [j for j in range(int(labelled), out.shape[1]) if _text_column(out, j)]
    n = out.shape[1] - int(labelled) - len(texts)
    made = iter(generated_names(n, transpose))
    words = iter(f"text{k + 1}" for k in range(len(texts)))
    out.columns = ([""] if labelled else []) + [
        next(words) if j in texts else next(made) for j in range(int(labelled), out.shape[1])
    ]
    out.attrs = {k: v for k, v in frame.attrs.items()}
    what = "instances" if transpose else "variables"
    listed = generated_names(n, transpose)
    span = f"{listed[0]}..{listed[-1]}" if listed else "nothing"
    note = f"no header row: the first line is data; the {n} columns ({what}) are named {span}"
    if texts:
        note += f" (text column(s) named text1..text{len(texts)})" if len(texts) > 1 else " (a text column named text1)"
    return out, note
