"""The sample characteristics of a GEO series matrix as covariates (batch, treatment, time).

A GEO series matrix (:mod:`engine.io.containers`) describes each sample in its
``!Sample_characteristics_ch1`` lines (``ch2`` for a two-colour array's second channel), one cell per
sample written ``field: value`` (``"treatment: heat"``, ``"time: 30 min"``, ``"batch: 2"``): what a
biologist would put in a sample sheet, as limma's design or ComBat's ``batch``. :func:`read_characteristics`
reads them into such a sheet, a table of text cells whose first column holds the samples'
accessions (``!Sample_geo_accession``, the table's column names), one column per field, for
:func:`engine.io.covariates.code_covariates` to code as for a sheet given with ``--covariates FILE``.

A field cannot explain anything, or nothing that can be learned, when it is the same on every sample,
when some samples lack it, or when it names every sample apart (text with a different value on
each: an individual's id); such a field is skipped and said, with the reason, never dropped silently.
A field of numbers is numeric (``age: 54``), except one whose name says it counts groups (``batch``,
``lane``, ``plate``, ``run``, ...: :data:`GROUP_FIELDS`), whose numbers are levels.
"""

from __future__ import annotations

import csv
import dataclasses
import gzip
import os
import re
import zlib
from dataclasses import dataclass
from io import BytesIO
from pathlib import Path
from typing import IO

import pandas as pd

from ..data import Dataset
from ..exceptions import DataValidationError
from .containers import GZIP_MAGIC
from .covariates import Covariates, code_covariates, ids_name_variables

__all__ = ["GROUP_FIELDS", "SampleCharacteristics", "read_characteristics", "characteristics_covariates"]

#: field names whose numbers are group labels, coded as levels (``batch: 2`` is batch b2, not twice b1)
GROUP_FIELDS = re.compile(
    r"\b(batch|lane|plate|run|chip|slide|flow ?cell|array|donor|subject|patient|individual|replicate|rep|block)\b",
    re.IGNORECASE,
)
_ACCESSION = "!sample_geo_accession"
_CHARACTERISTICS = "!sample_characteristics_ch"
_BEGIN = "!series_matrix_table_begin"


@dataclass(frozen=True)
class SampleCharacteristics:
    """The characteristics of a series matrix's samples, as a covariate sheet."""

    #: the usable fields: first column ``sample`` (accessions), then one text column per field
    frame: pd.DataFrame
    #: every field found, in the file's order
    fields: tuple[str, ...]
    #: the usable fields whose numbers are group labels (:data:`GROUP_FIELDS`)
    categorical: tuple[str, ...]
    #: the fields skipped, each with why (``'tissue' (the same on every sample: liver)``)
    skipped: tuple[str, ...]

    @property
    def usable(self) -> tuple[str, ...]:
        """The fields that become covariates."""
        return tuple(str(c) for c in self.frame.columns[1:])


def _header_lines(source: str | os.PathLike | IO[bytes] | bytes, label: str) -> list[str]:
    """The ``!`` lines before the table of a series matrix (gzip-compressed or not)."""
    if isinstance(source, bytes):
        raw = BytesIO(source)
    elif hasattr(source, "read"):
        data = source.read()
        raw = BytesIO(data.encode() if isinstance(data, str) else data)
    else:
        path = Path(source)
        if not path.is_file():
            raise DataValidationError(f"{label}: no such file.")
        raw = open(path, "rb")  # noqa: SIM115 - closed below
    lines: list[str] = []
    try:
        head = raw.read(2)
        raw.seek(0)
        stream = gzip.open(raw) if head == GZIP_MAGIC else raw
        for number, line in enumerate(stream):
            text = line.decode("utf-8-sig" if number == 0 else "utf-8", errors="replace").rstrip("\r\n")
            if text.lower().startswith(_BEGIN) or (text.strip() and not text.startswith("!")):
                break  # the table, or a line of another file: a CSV is not read to its end
            lines.append(text)
    except (OSError, EOFError, zlib.error) as exc:
        raise DataValidationError(f"{label}: could not be read ({exc}).") from None
    finally:
        raw.close()
    return lines


def _cells(line: str) -> tuple[str, list[str]]:
    """A ``!`` line's key (lower case) and its cells, quotes taken off."""
    row = next(csv.reader([line], delimiter="\t"), [""])
    return row[0].strip().lower(), [c.strip() for c in row[1:]]


def read_characteristics(source: str | os.PathLike | IO[bytes] | bytes, label: str) -> SampleCharacteristics:
    """The sample characteristics of the series matrix ``source`` (a path, a binary file object or its
    bytes; ``.gz`` read too). A file that is not a series matrix, or one without characteristics,
    raises :class:`DataValidationError` naming ``label``."""
    lines = _header_lines(source, label)
    accessions = next((cells for key, cells in map(_cells, lines) if key == _ACCESSION), None)
    if accessions is None:
        raise DataValidationError(
            f"{label}: not a GEO series matrix (no !Sample_geo_accession line): its sample characteristics "
            "cannot be read; give the sample annotations as a table (--covariates FILE)."
        )
    fields: dict[str, dict[int, str]] = {}
    for key, cells in map(_cells, lines):
        if not key.startswith(_CHARACTERISTICS):
            continue
        channel = key[len(_CHARACTERISTICS) :]
        for i, cell in enumerate(cells[: len(accessions)]):
            if not cell:
                continue
            field, sep, value = cell.partition(":")
            field, value = (field.strip(), value.strip()) if sep else (f"characteristics_ch{channel}", cell)
            field = field if channel == "1" or not sep else f"{field} (ch{channel})"
            name, k = field, 2
            while i in fields.get(name, {}):  # the same field twice for one sample: a second field
                name, k = f"{field} ({k})", k + 1
            fields.setdefault(name, {})[i] = value
    if not fields:
        raise DataValidationError(f"{label}: the series matrix has no !Sample_characteristics lines to read.")
    return _usable(accessions, fields)


def _usable(accessions: list[str], fields: dict[str, dict[int, str]]) -> SampleCharacteristics:
    """The fields that can be covariates (module docstring), the others each with why."""
    m = len(accessions)
    columns: dict[str, list[str]] = {}
    categorical, skipped = [], []
    for name, cells in fields.items():
        values = [cells.get(i, "") for i in range(m)]
        levels = sorted(set(values))
        numeric = pd.to_numeric(pd.Series(values), errors="coerce").notna().all()
        if len(cells) < m:
            skipped.append(f"{name!r} (missing on {m - len(cells)} of {m} samples)")
        elif len(levels) < 2:
            skipped.append(f"{name!r} (the same on every sample: {levels[0]})")
        elif len(levels) == m and not numeric and m > 2:
            skipped.append(f"{name!r} (a different value on every sample, e.g. {levels[0]}: names the samples)")
        else:
            columns[name] = values
            categorical += [name] if numeric and GROUP_FIELDS.search(name) else []
    frame = pd.DataFrame({"sample": accessions, **columns}, dtype=object)
    return SampleCharacteristics(frame, tuple(fields), tuple(categorical), tuple(skipped))


def characteristics_covariates(chars: SampleCharacteristics, dataset: Dataset, *, source: str) -> Covariates:
    """The usable characteristics coded as covariates for ``dataset``'s instances (as a sheet is:
    :func:`engine.io.covariates.code_covariates`; the skipped fields in ``Covariates.skipped``).
    Data whose samples are their columns (a series matrix read without transpose), or without a usable
    field, raise :class:`DataValidationError` naming the fix."""
    what = f"{source}'s sample characteristics"
    if not chars.usable:
        raise DataValidationError(f"{what}: no field can be a covariate ({'; '.join(chars.skipped)}).")
    if ids_name_variables(chars.frame, dataset):
        raise DataValidationError(
            f"{what} annotate its samples, which are the data's columns as read: load it with --transpose "
            "(explorer: Transpose), so that the samples are the instances."
        )
    cov = code_covariates(
        chars.frame, dataset.instance_labels, dataset.names, source=what, categorical=chars.categorical
    )
    return dataclasses.replace(cov, skipped=chars.skipped)
