"""Reading a data file into a DataFrame of raw cells: formats, encodings, separators, short rows.

CSV, TSV and whitespace text (separator sniffed, UTF-8 with or without BOM, else Latin-1; missing
cells per :data:`NA_VALUES`), Excel and Parquet. The header row is kept exactly (repeated names
included) for :func:`engine.io.frame.from_frame` to check; rows with fewer cells than the header are
noted in ``frame.attrs["notes"]``. A file that is missing, empty, binary, HTML/XML/JSON or does not
parse as a table raises :class:`~engine.exceptions.DataValidationError` naming the file.
"""

from __future__ import annotations

import csv
import os
import zipfile
import zlib
from io import BytesIO, StringIO
from pathlib import Path
from typing import IO
from xml.etree.ElementTree import ParseError

import numpy as np
import pandas as pd

from ..exceptions import DataValidationError

__all__ = ["read_table", "source_label", "NA_VALUES"]

#: cells read as missing
NA_VALUES = ["", "NA", "N/A", "NaN", "nan", "null", "NULL", "?", "-"]
_EXCEL = {".xlsx", ".xlsm", ".xls", ".ods"}
_PARQUET = {".parquet", ".pq"}

#: what the spreadsheet and Parquet readers (openpyxl, zipfile, zlib, XML, pyarrow) raise on a file
#: that is not one: damaged archive, compressed stream or XML, a wrong format, missing parts
_SPREADSHEET_ERRORS = (ValueError, TypeError, KeyError, OSError, EOFError, RuntimeError)
_SPREADSHEET_ERRORS += (zipfile.BadZipFile, zlib.error, ParseError)
#: what pandas' CSV parsers and the csv module raise on text that is not a table
_TEXT_ERRORS = (pd.errors.ParserError, pd.errors.EmptyDataError, csv.Error, ValueError)


def source_label(source: str | os.PathLike | IO[bytes] | IO[str], name: str | None) -> str:
    """The file name shown in messages and stored as ``Dataset.source``."""
    label = name or (os.fspath(source) if isinstance(source, (str, os.PathLike)) else getattr(source, "name", "upload"))
    return Path(str(label)).name


def _read_bytes(source: str | os.PathLike | IO[bytes] | IO[str], label: str) -> bytes:
    try:
        if isinstance(source, (str, os.PathLike)):
            path = Path(source)
            if not path.exists():
                raise DataValidationError(f"{label}: file not found.")
            if path.is_dir():
                raise DataValidationError(f"{label}: is a folder, not a file.")
            return path.read_bytes()
        data = source.read()
        return data.encode() if isinstance(data, str) else bytes(data)
    except OSError as exc:
        raise DataValidationError(f"{label}: cannot be read ({exc.strerror or exc}).") from None


def _header_from_first_row(raw: pd.DataFrame) -> pd.DataFrame:
    """Use the first row as the header (names kept exactly, repeats included)."""
    if raw.shape[0] == 0:
        return raw
    names = [
        "" if (isinstance(v, float) and np.isnan(v)) or v is None else str(v).strip() for v in raw.iloc[0].tolist()
    ]
    body = raw.iloc[1:].reset_index(drop=True)
    body.columns = names
    return body


def _optional_reader_errors() -> tuple[type[BaseException], ...]:
    """Errors of the optional spreadsheet engines pandas may use when they are installed (xlrd
    for .xls, python-calamine), so a damaged file gives the same clear message with them."""
    found: list[type[BaseException]] = []
    for module, name in (("xlrd", "XLRDError"), ("python_calamine", "CalamineError")):
        try:
            found.append(getattr(__import__(module), name))
        except (ImportError, AttributeError):
            continue
    return tuple(found)


def _read_spreadsheet(raw: bytes, suffix: str, label: str) -> pd.DataFrame:
    errors = _SPREADSHEET_ERRORS + _optional_reader_errors()
    try:
        if suffix in _EXCEL:
            return _header_from_first_row(pd.read_excel(BytesIO(raw), dtype=object, header=None))
        return pd.read_parquet(BytesIO(raw))
    except ImportError as exc:
        raise DataValidationError(
            f"{label}: reading {suffix} files needs an extra package ({exc}); save it as CSV."
        ) from None
    except errors as exc:
        raise DataValidationError(f"{label}: could not be read as a {suffix} table ({exc}).") from None


def _decode(raw: bytes, label: str) -> str:
    """The text of a text table; refuses binary files and HTML/XML/JSON."""
    if b"\x00" in raw[:4096]:
        raise DataValidationError(f"{label}: looks like a binary file, not a text table (CSV, TSV) or spreadsheet.")
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        try:
            text = raw.decode("latin-1")
        except UnicodeDecodeError:  # pragma: no cover - latin-1 decodes everything
            raise DataValidationError(f"{label}: not a text table.") from None
    lowered = text.lstrip()[:200].lower()
    if lowered.startswith(("<!doctype", "<html", "<?xml", "{", "[")):
        raise DataValidationError(f"{label}: looks like HTML/XML/JSON, not a table of numbers (CSV or TSV).")
    return text


def _sniff_sep(text: str) -> str | None:
    sample = "\n".join(text.splitlines()[:20])
    try:
        return csv.Sniffer().sniff(sample, delimiters=",\t;| ").delimiter
    except csv.Error:
        return None


def _short_rows(text: str, sep: str) -> list[int]:
    """File line numbers of the non-empty rows with fewer cells than the header row."""
    rows = csv.reader(StringIO(text), delimiter=sep)
    width = None
    short = []
    for i, row in enumerate(rows, start=1):
        if not row or not any(cell.strip() for cell in row):
            continue
        if width is None:
            width = len(row)
        elif len(row) < width:
            short.append(i)
    return short


def _read_text(text: str, suffix: str, label: str) -> pd.DataFrame:
    """Parse a text table (separator from the suffix or sniffed; whitespace when none is found)."""
    if suffix in {".tsv", ".tab"}:
        sep: str | None = "\t"
    elif suffix == ".csv":
        sep = _sniff_sep(text) or ","
        if sep == " ":
            sep = ","
    else:
        sep = _sniff_sep(text)
    try:
        # header=None: pandas would silently rename a repeated header "a" to "a.1"
        opts = {"dtype": object, "na_values": NA_VALUES, "keep_default_na": True, "header": None}
        if sep == " " or sep is None:
            frame = pd.read_csv(StringIO(text), sep=r"\s+", engine="python", **opts)
        else:
            frame = pd.read_csv(StringIO(text), sep=sep, **opts)
        frame = _header_from_first_row(frame)
        if sep not in (" ", None):
            short = _short_rows(text, sep)
            if short:
                lines = ", ".join(map(str, short[:5])) + (f" and {len(short) - 5} more" if len(short) > 5 else "")
                frame.attrs["notes"] = [
                    f"line(s) {lines} of the file have fewer cells than the header; their missing cells "
                    "were read as missing values"
                ]
    except _TEXT_ERRORS as exc:
        msg = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise DataValidationError(f"{label}: could not be read as a table ({msg}).") from None
    return frame


def read_table(source: str | os.PathLike | IO[bytes] | IO[str], *, name: str | None = None) -> pd.DataFrame:
    """Read a CSV/TSV/text (separator sniffed), Excel or Parquet file into a DataFrame of raw cells.

    Raises :class:`DataValidationError` with the file's name when it is empty, binary, or does not
    parse as a table.
    """
    label = source_label(source, name)
    suffix = Path(label).suffix.lower()
    raw = _read_bytes(source, label)
    if not raw.strip():
        raise DataValidationError(f"{label}: the file is empty.")
    if suffix in _EXCEL or suffix in _PARQUET:
        return _read_spreadsheet(raw, suffix, label)
    frame = _read_text(_decode(raw, label), suffix, label)
    if frame.shape[1] < 1 or frame.shape[0] == 0:
        raise DataValidationError(f"{label}: no data rows found under the header.")
    if frame.shape[1] == 1 and pd.to_numeric(frame.iloc[:, 0], errors="coerce").isna().all():
        raise DataValidationError(
            f"{label}: not a table of numbers (found a single text column); expected a header row "
            "of variable names and one row per instance, separated by commas or tabs."
        )
    return frame
