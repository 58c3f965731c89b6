"""Reading data files and DataFrames into a :class:`~engine.data.Dataset`: :func:`load_table`.

Two steps, one module each: :mod:`engine.io.files` reads a file (CSV/TSV/whitespace text, Excel,
Parquet) into a DataFrame of raw cells (:func:`read_table`); :mod:`engine.io.frame` turns such a
frame into a Dataset (:func:`from_frame`: label column, ``drop``, decimal commas, text columns,
variables in rows); :mod:`engine.io.orientation` finds evidence that a table is the wrong way
round and turns a Dataset round. Every note on how a file was read ends up in ``Dataset.notes``, and every bad
file raises :class:`~engine.exceptions.DataValidationError` naming it.
"""

from __future__ import annotations

import os
from typing import IO

import numpy as np
import pandas as pd

from .._validation import MIN_SAMPLES
from ..data import Dataset, from_array
from .columns import MAX_MISSING, NO_VALUES, RENAMED, filled_cells, missing_summary
from .files import read_table, source_label
from .frame import from_frame
from .header import HeaderlessFileError
from .orientation import OrientationWarning, orientation_warning, transpose_dataset

__all__ = [
    "load_table",
    "HeaderlessFileError",
    "read_table",
    "from_frame",
    "as_dataset",
    "OrientationWarning",
    "orientation_warning",
    "transpose_dataset",
    "omissions",
    "LEFT_OUT",
    "RENAMED",
    "NO_VALUES",
    "MAX_MISSING",
    "missing_summary",
    "filled_cells",
]

#: how a note that reports data left out (a column or variable that cannot be used) begins
LEFT_OUT = "left out "


def omissions(notes) -> list[str]:
    """The notes of a Dataset that report columns or variables left out because they cannot be
    used (text, constant, mostly missing, no header and no values), renamed (a repeated name), or
    instances without any value (kept, but worth checking): shown as warnings, never only in passing."""
    return [n for n in notes if n.startswith((LEFT_OUT, RENAMED, NO_VALUES))]


def load_table(
    source: str | os.PathLike | IO[bytes] | IO[str],
    *,
    transpose: bool = False,
    standardize: bool = True,
    drop: tuple[str, ...] | list[str] = (),
    label_column: str | None = "auto",
    name: str | None = None,
    drop_non_numeric: bool = False,
    drop_constant: bool = False,
    min_samples: int = MIN_SAMPLES,
    allow_constant: bool = False,
    rename_repeats: bool = False,
    max_missing: float | None = None,
    no_header: bool = False,
    check_header: bool = True,
) -> Dataset:
    """Load a data file (CSV, TSV, whitespace text, Excel, Parquet) into a :class:`Dataset`.

    The first row must name the variables (or, with ``transpose``, the instances); a first line
    that looks like data is refused unless ``no_header`` (read it as data) or not ``check_header``
    (:mod:`engine.io.header`). A leading text
    column of unique labels is used as row labels. Missing cells (empty, NA, NaN, ?) are kept as
    missing. See :func:`from_frame` for the options.
    """
    frame = read_table(source, name=name)
    return from_frame(
        frame,
        transpose=transpose,
        standardize=standardize,
        source=source_label(source, name),
        drop=drop,
        label_column=label_column,
        drop_non_numeric=drop_non_numeric,
        drop_constant=drop_constant,
        min_samples=min_samples,
        allow_constant=allow_constant,
        rename_repeats=rename_repeats,
        max_missing=max_missing,
        no_header=no_header,
        check_header=check_header,
    )


def as_dataset(data, *, standardize: bool = True) -> Dataset:
    """Accept a Dataset, a DataFrame (columns are variables) or an array (instances x variables)."""
    if isinstance(data, Dataset):
        return data
    if isinstance(data, pd.DataFrame):
        return from_frame(data, standardize=standardize, source="DataFrame", label_column=None, check_header=False)
    return from_array(np.asarray(data), standardize=standardize)
