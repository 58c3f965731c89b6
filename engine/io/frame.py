"""Turning a table (a DataFrame of raw cells) into a :class:`~engine.data.Dataset`.

The header row names the columns. :func:`from_frame` finds a label or id column, leaves out the
columns (or, with variables in rows, the variables) asked for, reads NA tokens and decimal commas,
refuses or (when asked) leaves out text columns, and turns tables with variables in rows round
(``transpose``: expression matrices usually arrive genes x conditions). Every remark on how the
table was read, including the ones :func:`engine.io.files.read_table` left in ``frame.attrs``, ends
up in ``Dataset.notes``. The caller's frame is not modified.
"""

from __future__ import annotations

import datetime

import numpy as np
import pandas as pd

from .._validation import MIN_SAMPLES, check_names
from ..data import Dataset, drop_constant_variables, from_array
from ..exceptions import DataValidationError
from ..listing import first_few
from .columns import drop_sparse_variables, empty_instances_note, repeated_labels_message
from .columns import rename_repeats as _number_repeats
from .files import ID_HEADERS, INDEX_HEADERS, NA_VALUES
from .header import check_header as check_header_line
from .header import headerless
from .number_marks import DECIMAL_COMMA as _DECIMAL_COMMA
from .number_marks import THOUSANDS as _THOUSANDS
from .number_marks import comma_in_csv as _comma_in_csv
from .number_marks import european_numbers
from .orientation import transposed_warning
from .text_rows import skip_text_rows
from .undetected import read_undetected

__all__ = ["from_frame"]

#: cells that are dates, times or durations, not measurements
_TIME_TYPES = (datetime.date, datetime.time, datetime.timedelta, pd.Timestamp, pd.Timedelta, pd.Period)
_ID_HEADERS, _INDEX_HEADERS = ID_HEADERS, INDEX_HEADERS


def _looks_like_labels(col: pd.Series, header: str, transpose: bool = False, repeats: bool = False) -> bool:
    """Whether the first column holds labels rather than data.

    Labels: no header (a written index), or unique text (with ``repeats``, text with at least
    90% distinct values: ids with a few repeats, which the caller numbers). With ``transpose`` (variables in rows)
    also unique whole numbers under an identifier-like header such as ``gene`` or ``id``: gene
    ids are often digit strings (arth150)."""
    if header == "" or header.startswith("Unnamed: 0"):
        return True
    numeric = pd.to_numeric(col, errors="coerce")
    if numeric.notna().any():
        if transpose and header.strip().lower() in _ID_HEADERS and numeric.notna().all():
            whole = np.all(np.mod(numeric.to_numpy(dtype=float), 1.0) == 0.0)
            return bool(whole and col.is_unique)
        if header.strip().lower() in _INDEX_HEADERS and numeric.notna().all():
            # a row number (1..M or 0..M-1 in file order), not a measurement
            v = numeric.to_numpy(dtype=float)
            return bool(len(v) > 1 and np.all(np.diff(v) == 1.0) and v[0] in (0.0, 1.0))
        return False
    if _all_comma_numbers(col.dropna().astype(str)):
        return False  # decimal commas or thousands separators: numbers, not labels
    if repeats and col.notna().all() and not col.is_unique:
        return bool(col.nunique() >= 0.9 * len(col))
    return bool(col.notna().all() and col.is_unique)


def _all_comma_numbers(text: pd.Series) -> bool:
    """Whether every cell is a number written with a comma ("1,5", "1,234,567"); the first cells
    are looked at first, so a column of names costs little."""
    for part in (text.iloc[:100], text):
        if not len(part) or not (part.str.fullmatch(_DECIMAL_COMMA) | part.str.fullmatch(_THOUSANDS)).all():
            return False
    return True


def _drop_columns(
    df: pd.DataFrame, drop: tuple[str, ...] | list[str], source: str, notes: list[str]
) -> tuple[pd.DataFrame, list[str]]:
    """``df`` without the columns in ``drop``, and the names in ``drop`` that are not columns: row
    labels (variables with ``transpose``, instances without), dropped by :func:`_drop_rows`."""
    drop_rows = [d for d in drop if d not in df.columns]
    drop = [d for d in drop if d in df.columns]
    if drop:
        if len(set(drop)) >= df.shape[1]:
            raise DataValidationError(f"{source}: dropping {len(set(drop))} column(s) leaves no column to learn from.")
        df = df.drop(columns=list(drop))
        notes.append(f"dropped column(s) {', '.join(drop)}")
    return df, drop_rows


def _take_labels(
    df: pd.DataFrame, label_column: str | None, transpose: bool, source: str, notes: list[str], repeats: bool = False
) -> tuple[pd.DataFrame, list[str] | None]:
    """``df`` without its label column (``"auto"``: see :func:`_looks_like_labels`), and the labels
    (with ``repeats``, a repeated label is numbered: :func:`engine.io.columns.rename_repeats`)."""
    if label_column == "auto":
        first = df.columns[0]
        looks = df.shape[1] > 1 and _looks_like_labels(df[first], first, transpose, repeats)
        if not looks and df.shape[1] > 1 and _looks_like_labels(df[first], first, transpose, True):
            raise DataValidationError(repeated_labels_message(df[first].tolist(), first, source, transpose))
        label_column = first if looks else None
    labels: list[str] | None = None
    if label_column is not None:
        if label_column not in df.columns:
            raise DataValidationError(f"{source}: no column named {label_column!r} for labels.")
        labels = [str(x) for x in df[label_column].tolist()]
        df = df.drop(columns=[label_column])
        column = f"the first column {label_column!r}" if label_column else "the first column"
        if transpose:
            notes.append(f"used {column} as variable names")
        else:
            notes.append(
                f"used {column} as instance labels (if the variables are in rows, "
                "e.g. genes x conditions, load with transpose: CLI --transpose)"
            )
        if repeats:
            labels, renamed = _number_repeats(labels, "variable name" if transpose else "instance label")
            notes.extend([renamed] if renamed else [])
    if df.shape[1] == 0:
        raise DataValidationError(f"{source}: not a table (only a label column).")
    return df, labels


def _drop_rows(
    df: pd.DataFrame,
    labels: list[str] | None,
    drop_rows: list[str],
    transpose: bool,
    source: str,
    notes: list[str],
) -> tuple[pd.DataFrame, list[str] | None]:
    """``df`` and ``labels`` without the rows labelled by a name in ``drop_rows``: variables with
    ``transpose`` (a constant gene), instances without (a failed array in a samples-in-rows file)."""
    if not drop_rows:
        return df, labels
    what = "variable" if transpose else "instance"
    unknown = [d for d in drop_rows if labels is None or d not in labels]
    if unknown:
        shown = f" (columns are {', '.join(map(repr, list(df.columns)[:8]))}...)" if df.shape[1] else ""
        rows = "" if labels is not None else "; the rows have no labels to drop by"
        raise DataValidationError(
            f"{source}: cannot drop {', '.join(map(repr, unknown))}: no such column or {what}{rows}{shown}."
        )
    gone = set(drop_rows)
    keep = np.array([lab not in gone for lab in labels])
    if not keep.any():
        raise DataValidationError(f"{source}: dropping {len(drop_rows)} {what}(s) leaves none to learn from.")
    notes.append(f"dropped {what}(s) {', '.join(drop_rows)}")
    return df[keep], [lab for lab, k in zip(labels, keep, strict=True) if k]


def _to_numbers(
    df: pd.DataFrame, notes: list[str], source: str = "table", separator: str | None = None
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The cells as numbers (decimal commas read when every unparsed cell has one, except in a
    comma-separated file, where they are refused as ambiguous) and the mask of the non-empty cells
    that are not numbers."""
    if all(pd.api.types.is_float_dtype(t) for t in df.dtypes):  # read as numbers already (large files)
        return df, pd.DataFrame(False, index=df.index, columns=df.columns)
    european = european_numbers(df, separator, source, notes)  # 1.234,5 in a ';' file (engine.io.number_marks)
    if european is not None:
        return european
    if all(
        pd.api.types.is_object_dtype(t) for t in df.dtypes
    ):  # a text file's cells: one conversion, not one per column
        cells = pd.Series(df.to_numpy(dtype=object).ravel(), dtype=object)
        flat = pd.to_numeric(cells, errors="coerce").to_numpy(dtype=float)
        # missing-value words are not text
        bad = np.isnan(flat) & cells.notna().to_numpy() & ~cells.isin(NA_VALUES).to_numpy()
        numeric = pd.DataFrame(flat.reshape(df.shape), index=df.index, columns=df.columns)
        bad_mask = pd.DataFrame(bad.reshape(df.shape), index=df.index, columns=df.columns)
    else:
        numeric = df.apply(pd.to_numeric, errors="coerce")
        bad_mask = numeric.isna() & df.notna()
        if bad_mask.to_numpy().any():  # missing-value words are not text
            bad_mask &= ~df.isin(NA_VALUES)
    bad_cols = np.flatnonzero(bad_mask.to_numpy().any(axis=0))
    if bad_cols.size:
        # only the columns with unparsed cells can hold commas (a wide file: a few of thousands)
        sub, sub_bad = df.iloc[:, bad_cols], bad_mask.iloc[:, bad_cols]
        as_text = sub.astype(str)
        if separator == ",":
            _comma_in_csv(sub, as_text, sub_bad, source)
        commas = as_text.apply(lambda col: col.str.fullmatch(_DECIMAL_COMMA))
        if bool((commas | ~sub_bad).to_numpy().all()):
            as_text = df.astype(str)
            numeric = as_text.apply(lambda col: pd.to_numeric(col.str.replace(",", ".", regex=False), errors="coerce"))
            numeric = numeric.where(df.notna())
            bad_mask = numeric.isna() & df.notna() & ~df.isin(NA_VALUES)
            notes.append("read decimal commas (1,5 = 1.5)")
    return numeric, bad_mask


def _text_in_rows(df, numeric, bad_mask, labels, drop_non_numeric: bool, source: str, notes: list[str]):
    """With variables in rows: leave out (when asked) or name the file's all-text columns, which are
    annotations (gene symbols, descriptions), not conditions; then name the rows with text cells."""
    text_cols = [c for c in df.columns if bad_mask[c].any() and bool((bad_mask[c] | df[c].isna()).all())]
    if text_cols and drop_non_numeric and len(text_cols) < df.shape[1]:
        keep = [c for c in df.columns if c not in text_cols]
        df, numeric, bad_mask = df[keep], numeric[keep], bad_mask[keep]
        notes.append(f"left out non-numeric column(s) {', '.join(map(str, text_cols))}")
        text_cols = []
    if text_cols:
        listed = ", ".join(repr(c) for c in text_cols[:6])
        raise DataValidationError(
            f"{source}: column(s) {listed} hold text, not values of the variables in the rows; drop "
            f"them (CLI: --drop {text_cols[0]})."
        )
    bad_rows = np.flatnonzero(bad_mask.to_numpy().any(axis=1))
    if bad_rows.size:
        r = int(bad_rows[0])
        name = labels[r] if labels else f"row {r + 2}"
        c = int(np.flatnonzero(bad_mask.to_numpy()[r])[0])
        raise DataValidationError(
            f"{source}: variable {name!r} is not numeric (cell {df.iat[r, c]!r} in column "
            f"{df.columns[c]!r}); {len(bad_rows)} row(s) have text values."
        )
    return df, numeric


def _text_columns(df, numeric, bad_mask, drop_non_numeric: bool, source: str, notes: list[str]):
    """Variables in columns: leave out (when asked) or name the columns with text cells."""
    bad_cols = [c for c in df.columns if bad_mask[c].any()]
    if bad_cols and drop_non_numeric and len(bad_cols) < df.shape[1]:
        where = []
        for c in bad_cols[:6]:
            rows = np.flatnonzero(bad_mask[c].to_numpy())
            where.append(
                f"{c!r} has text ({df[c].iloc[rows[0]]!r} in row {rows[0] + 1}; {rows.size} of {len(df)} cells)"
            )
        said = first_few(where, sep="; ", total=len(bad_cols))
        notes.append(f"left out non-numeric column(s) {', '.join(map(str, bad_cols))}: {said}")
        return df.drop(columns=bad_cols), numeric.drop(columns=bad_cols)
    if bad_cols:
        first = bad_cols[0]
        row = int(np.flatnonzero(bad_mask[first].to_numpy())[0])
        raise DataValidationError(
            f"{source}: non-numeric column(s) {first_few(bad_cols, quote=True)} (e.g. {df[first].iloc[row]!r} at "
            f"row {row + 1} of {first!r}); drop them (CLI: --drop NAME, or --skip-unusable for every such "
            "column) or fix the cells. "
            "If variables are in rows, load with transpose (CLI: --transpose)."
        )
    return df, numeric


def _dates_as_text(df: pd.DataFrame) -> pd.DataFrame:
    """``df`` with its date, time and duration columns (Parquet, Excel) as text: they are not
    measurements, and as numbers they would be nanoseconds; as text they are named like a date
    column of a CSV file."""

    def is_time(col: pd.Series) -> bool:
        if col.dtype == object:  # Excel read as objects: datetime, date, time or timedelta cells
            first = col.dropna()
            return bool(len(first)) and isinstance(first.iloc[0], _TIME_TYPES)
        return (
            pd.api.types.is_datetime64_any_dtype(col)
            or pd.api.types.is_timedelta64_dtype(col)
            or isinstance(col.dtype, pd.PeriodDtype)
        )

    when = [i for i in range(df.shape[1]) if is_time(df.iloc[:, i])]
    for i in when:
        col = df.iloc[:, i]
        df.isetitem(i, col.map(lambda v: v if isinstance(v, str) else str(v)).where(col.notna(), None))
    return df


def from_frame(
    frame: pd.DataFrame,
    *,
    transpose: bool = False,
    standardize: bool = True,
    source: str = "table",
    drop: tuple[str, ...] | list[str] = (),
    label_column: str | None = "auto",
    drop_non_numeric: bool = False,
    drop_constant: bool = False,
    min_samples: int = MIN_SAMPLES,
    allow_constant: bool = False,
    rename_repeats: bool = False,
    max_missing: float | None = None,
    no_header: bool = False,
    check_header: bool = True,
) -> Dataset:
    """Build a Dataset from a DataFrame whose first row (header) names the columns.

    Parameters
    ----------
    frame : DataFrame
        Not modified.
    transpose : bool
        The table has variables in rows (e.g. genes x conditions): turn it round.
    standardize : bool
        Scale every variable to mean 0 and variance 1 (on by default).
    drop : sequence of str
        Columns to leave out (e.g. a text column of condition names), and rows by their label: with
        ``transpose`` variables (a constant gene), without it instances (a failed array).
    label_column : str, None or "auto"
        Column holding instance labels (or, with ``transpose``, the variable names). ``"auto"``
        takes the first column when it has no header or is text with unique values.
    drop_non_numeric : bool
        Leave out columns that are not numbers (and say so in ``notes``) instead of refusing the
        table. Off by default: the CLI asks for an explicit ``--drop``. With ``transpose`` these
        are the file's all-text columns (annotations next to the conditions).
    drop_constant : bool
        Leave out constant variables (and say so in ``notes``) instead of refusing the table.
    min_samples, allow_constant
        Relaxed checks for data that is only scored under a saved model (see :func:`engine.data.from_array`).
    rename_repeats : bool
        Number a repeated variable name (``Gm3``, ``Gm3 (2)``) instead of refusing the table, and
        take a first text column with a few repeats as labels (the explorer's uploads: two probes
        of one gene); the notes say so.
    max_missing : float, optional
        Leave out the variables with more than this share of their cells missing (named in the
        notes; :func:`engine.io.columns.drop_sparse_variables`). None keeps them.
    no_header, check_header : bool
        The frame's header is the file's first line of data: read it as data, with generated
        column names (:func:`engine.io.header.headerless`). Otherwise, with ``check_header``, a
        header that looks like data is refused with the fix named (:func:`engine.io.header.check_header`).
    """
    if not isinstance(frame, pd.DataFrame) or frame.shape[1] == 0:
        raise DataValidationError(f"{source}: not a table (no columns found).")
    notes: list[str] = list(frame.attrs.get("notes", []))  # e.g. short rows, noted by read_table
    df = frame.copy(deep=False)  # copy-on-write: changes never reach the caller
    if no_header and frame.attrs.get("header_line") is False:  # Parquet: names from a schema, not a line
        raise DataValidationError(
            f"{source}: a Parquet file's column names are its schema, not a line of data: load it without --no-header."
        )
    generated = None  # the axis whose names headerless() makes up: the file's columns
    if no_header:  # the first line is data (engine.io.header)
        df, said = headerless(df, transpose=transpose, source=source)
        notes.append(said)
        generated = "instances" if transpose else "variables"
    elif check_header and frame.attrs.get("header_line"):  # a file's first line, not a DataFrame's labels
        check_header_line(df, transpose=transpose, source=source)
    df.columns = [str(c).strip() for c in df.columns]
    if "separator" not in frame.attrs:  # not text: typed cells from Parquet, Excel or a DataFrame
        df = _dates_as_text(df)
    # empty (or NA-like: read as missing) header cells are named first, then duplicates: pandas selects
    # a DataFrame, not a column, for a repeated name (an empty first header is a label column)
    unnamed = [i for i, c in enumerate(df.columns) if i > 0 and c in ("", "nan")]
    # the last columns, unnamed and empty: a separator at the end of every line (not in whitespace
    # text, where a header longer than the rows means the names and values do not line up)
    blank: list[int] = []
    for i in reversed(unnamed):
        if i != df.shape[1] - 1 - len(blank) or not df.iloc[:, i].isna().all():
            break
        blank.append(i)
    if blank and len(blank) < df.shape[1] - 1 and frame.attrs.get("separator") != " ":
        df = df.iloc[:, [i for i in range(df.shape[1]) if i not in set(blank)]]
        notes.append(f"left out {len(blank)} column(s) with neither a header nor values (trailing separators?)")
        unnamed = [i for i, c in enumerate(df.columns) if i > 0 and c in ("", "nan")]
    if unnamed:
        raise DataValidationError(
            f"{source}: column(s) at position {', '.join(str(i + 1) for i in unnamed[:10])}"
            f"{' and more' if len(unnamed) > 10 else ''} have no name in the header row (empty or a "
            f"missing-value word such as NA or null); give every variable a header."
        )
    named = [c for c in df.columns if c != ""]
    if len(set(named)) != len(named) and rename_repeats:
        df.columns, renamed = _number_repeats(df.columns)
        notes.append(renamed)
    elif len(set(named)) != len(named):
        check_names(named, input_name=source)
    df, drop_rows = _drop_columns(df, drop, source, notes)
    df, labels = _take_labels(df, label_column, transpose, source, notes, rename_repeats)
    df, labels = _drop_rows(df, labels, drop_rows, transpose, source, notes)
    # 'Undetermined', 'n.d.': missing (engine.io.undetected), before a row of them could look like a units line
    df, labels = read_undetected(
        df, labels, transpose=transpose, drop=drop_non_numeric, max_missing=max_missing, source=source, notes=notes
    )
    df, labels = skip_text_rows(df, labels, drop_non_numeric, source, notes)  # a units line (engine.io.text_rows)
    numeric, bad_mask = _to_numbers(df, notes, source, frame.attrs.get("separator"))
    if transpose:
        df, numeric = _text_in_rows(df, numeric, bad_mask, labels, drop_non_numeric, source, notes)
    else:
        df, numeric = _text_columns(df, numeric, bad_mask, drop_non_numeric, source, notes)
    values = numeric.to_numpy(dtype=np.float64, copy=True)  # the one copy: from_array keeps it
    names: list[str] = list(df.columns)
    if transpose:
        values = values.T
        inst = names
        names = labels if labels is not None else [f"V{i + 1}" for i in range(values.shape[1])]
        labels = inst
        notes.append("transposed: variables were in rows")
    if max_missing is not None:
        values, names = drop_sparse_variables(values, names, notes, max_missing)
    if drop_constant and values.shape[0] >= min_samples:
        values, names = drop_constant_variables(values, tuple(names), notes)
    notes.extend(n for n in [empty_instances_note(values, labels)] if n)  # a failed sample: said, kept
    # evidence that the table is the wrong way round (labels, not shape alone): one note with the fix
    made_up = generated == "variables"  # the variables named V1.. for a file without a header
    warning = transposed_warning(labels, names, values.shape[0], values.shape[1], made_up)
    if warning is not None:
        notes.append(warning.note(transpose))
    return from_array(
        values,
        names,
        standardize=standardize,
        source=source,
        instance_labels=labels,
        notes=tuple(notes),
        min_samples=min_samples,
        allow_constant=allow_constant,
        copy=False,
        generated_names=generated,
    )
