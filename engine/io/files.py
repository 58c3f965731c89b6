"""Reading a data file into a DataFrame of raw cells: formats, encodings, separators, short rows.

CSV, TSV and whitespace text (separator sniffed; UTF-8 with or without BOM, UTF-16 with or without
BOM, UTF-32, else Latin-1; missing cells per :data:`NA_VALUES`), Excel and Parquet, each also
gzip-compressed (``data.csv.gz``). The header row
is kept exactly (repeated names included) for :func:`engine.io.frame.from_frame` to check; rows
with fewer cells than the header are noted in ``frame.attrs["notes"]``. A file that is missing,
empty, binary, HTML/XML/JSON or does not parse as a table raises
:class:`~engine.exceptions.DataValidationError` naming the file. :func:`decode_text` reads the
small text files (regulator lists, gene sets) with the same encodings.
"""

from __future__ import annotations

import codecs
import csv
import os
import re
import zipfile
import zlib
from io import BytesIO, StringIO
from pathlib import Path
from typing import IO
from xml.etree.ElementTree import ParseError

import numpy as np
import pandas as pd

from ..exceptions import DataValidationError
from ..listing import first_few
from .containers import held_table

__all__ = [
    "read_table",
    "require_file",
    "source_label",
    "decode_text",
    "NA_VALUES",
    "ID_HEADERS",
    "INDEX_HEADERS",
]

#: Excel's error values: a formula with no value (a division by zero, a missing lookup), not text
EXCEL_ERRORS = ["#DIV/0!", "#VALUE!", "#NUM!", "#REF!", "#NAME?", "#NULL!", "#N/A", "#NA"]
#: cells read as missing
NA_VALUES = ["", "NA", "N/A", "NaN", "nan", "null", "NULL", "?", "-", *EXCEL_ERRORS]
_EXCEL = {".xlsx", ".xlsm", ".xls", ".ods"}
#: a text file on disk larger than this is parsed by pandas from the file, not from its bytes in memory
_LARGE = 1 << 20
#: first-column headers of identifiers (with variables in rows, digit gene ids are labels)
ID_HEADERS = frozenset(
    "id gene genes gene_id geneid probe probe_id orf name names variable variables node symbol locus id_ref".split()
)
#: first-column headers of row numbers
INDEX_HEADERS = frozenset({"id", "index", "idx", "row", "sample", "sample_id", "instance", "obs", "#"})
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


def _read_bytes(source: str | os.PathLike | IO[bytes] | IO[str], label: str, limit: int = -1) -> bytes:
    """The file's bytes (of a file on disk, with ``limit``, only the first ``limit`` bytes)."""
    try:
        if isinstance(source, (str, os.PathLike)):
            path = Path(source)
            if not path.exists():
                raise DataValidationError(f"{label}: file not found.")
            if path.is_dir():
                raise DataValidationError(f"{label}: is a folder, not a file.")
            with open(path, "rb") as fh:
                return fh.read(limit)
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


#: bytes of a file's start looked at to tell its encoding (about 2,000 characters of UTF-16)
_HEAD = 4096


def _utf16_or_32(raw: bytes) -> str | None:
    """The encoding of UTF-16/32 text: from its byte-order mark, or (UTF-16 without one) from
    the zero bytes of its ASCII characters, one in every other position of the file's start
    (the high bytes: odd positions in UTF-16-LE, even ones in -BE; the other positions hold
    almost no zeros, a few where a character such as U+4E00 ends in one); None for anything else."""
    boms = (
        (codecs.BOM_UTF32_LE, "utf-32"),
        (codecs.BOM_UTF32_BE, "utf-32"),
        (codecs.BOM_UTF16_LE, "utf-16"),
        (codecs.BOM_UTF16_BE, "utf-16"),
    )
    for bom, encoding in boms:
        if raw.startswith(bom):
            return encoding
    head = raw[:_HEAD]
    head = head[: len(head) // 2 * 2]
    if len(head) < 4:
        return None
    even, odd = head[0::2], head[1::2]
    for zeros, other, encoding in ((odd, even, "utf-16-le"), (even, odd, "utf-16-be")):
        if zeros.count(0) >= 0.7 * len(zeros) and other.count(0) <= 0.05 * len(other):
            return encoding
    return None


def _binary_text(text: str) -> bool:
    """Whether decoded text holds control characters other than tabs and line ends (a binary file
    that merely looked like UTF-16): more than 1% of its first 2,000 characters."""
    head = text[:2000]
    controls = sum(1 for ch in head if ord(ch) < 32 and ch not in "\t\n\r\f\v")
    return controls > 0.01 * max(len(head), 1)


def decode_text(raw: bytes, label: str, binary: str) -> str:
    """The text of a small text file (a regulator list, gene sets): UTF-16/32 with or without a
    byte-order mark (:func:`_utf16_or_32`), UTF-8 with or without BOM, else Latin-1. A binary file
    raises :class:`DataValidationError` as ``"{label}: {binary}"``; so does UTF-16-looking text
    that does not decode."""
    encoding = _utf16_or_32(raw)
    if encoding is not None:
        try:
            text = raw.decode(encoding)
        except UnicodeError:
            raise DataValidationError(
                f"{label}: looks like {encoding.upper()} text but does not decode as it; save it as UTF-8."
            ) from None
        if _binary_text(text):
            raise DataValidationError(f"{label}: {binary}")
        return text.removeprefix("\ufeff")
    if b"\x00" in raw[:_HEAD]:
        raise DataValidationError(f"{label}: {binary}")
    return _decode(raw)


#: the first bytes of files that a lab may save under a text name (a workbook renamed .csv): what
#: each is and what to do, so the message names the fix instead of "binary"
_MAGIC = (
    (b"\xd0\xcf\x11\xe0", "an old Excel (.xls) workbook", "give it its .xls name"),
    (b"PAR1", "a Parquet file", "give it its .parquet name"),
)


def _zip_kind(raw: bytes) -> tuple[bytes, str, str]:
    """A zip file's entry in :data:`_MAGIC`: an Excel or OpenDocument workbook, or an archive
    (an entry matching nothing for other files)."""
    if not raw.startswith(b"PK\x03\x04"):
        return b"", "", ""
    try:
        names = zipfile.ZipFile(BytesIO(raw)).namelist()
    except (zipfile.BadZipFile, OSError, ValueError):
        names = []
    if any(n.startswith("xl/") for n in names):
        return b"PK\x03\x04", "an Excel (.xlsx) workbook", "give it its .xlsx name"
    if "mimetype" in names:
        return b"PK\x03\x04", "an OpenDocument (.ods) spreadsheet", "give it its .ods name"
    return b"PK\x03\x04", "a zip archive", "unzip it"


def _to_utf8(raw: bytes, label: str) -> bytes:
    """UTF-16/32 text as UTF-8 bytes (other bytes as they are); refuses binary files (naming a
    workbook or Parquet file under a text name, :data:`_MAGIC`) and HTML/XML/JSON, looking at
    the start of the file only."""
    for magic, kind, fix in (*_MAGIC, _zip_kind(raw)):
        if magic and raw.startswith(magic):
            raise DataValidationError(f"{label}: is {kind}, not a text table: {fix}, or save it as CSV.")
    binary = "looks like a binary file, not a text table (CSV, TSV) or spreadsheet."
    if _utf16_or_32(raw) is not None:
        raw = decode_text(raw, label, binary).encode("utf-8")
    if b"\x00" in raw[:_HEAD]:
        raise DataValidationError(f"{label}: {binary}")
    lowered = raw[:1024].decode("utf-8-sig", errors="replace").lstrip()[:200].lower()
    if lowered.startswith(("<!doctype", "<html", "<?xml", "{", "[")):
        raise DataValidationError(f"{label}: looks like HTML/XML/JSON, not a table of numbers (CSV or TSV).")
    return raw


def _decode(raw: bytes) -> str:
    """The text of a text table: UTF-8 with or without BOM, else Latin-1 (which decodes anything)."""
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        return raw.decode("latin-1")


def _sniff_sep(text: str) -> str | None:
    sample = "\n".join(text.splitlines()[:20])
    try:
        return csv.Sniffer().sniff(sample, delimiters=",\t;| ").delimiter
    except csv.Error:
        return None


def _separator(text: str, suffix: str) -> str | None:
    """The separator: from the suffix or sniffed from the first lines; None for whitespace."""
    if suffix in {".tsv", ".tab"}:
        return "\t"
    if suffix == ".csv":
        sep = _sniff_sep(text) or ","
        return "," if sep == " " else sep
    sep = _sniff_sep(text)
    return None if sep == " " else sep


def _short_rows(text: str, sep: str) -> list[int]:
    """File line numbers of the non-empty rows with fewer cells than the header row."""
    # lines ending in a lone CR (old Mac, R exports) are lines; a stray CR among LF-ended lines is not
    rows = csv.reader(StringIO(text, newline=None if "\n" not in text else "\n"), delimiter=sep)
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


def _note_short_rows(frame: pd.DataFrame, text: str, sep: str | None) -> None:
    if sep is None:
        return
    short = _short_rows(text, sep)
    if short:
        lines = first_few(short, 5)
        frame.attrs["notes"] = [
            f"line(s) {lines} of the file have fewer cells than the header; their missing cells "
            "were read as missing values"
        ]


def _read_numbers(raw: bytes | Path, sep: str | None) -> pd.DataFrame | None:
    """Fast path: a table whose cells under the header are all numbers or missing-value tokens,
    parsed by pandas' C reader straight into float64 columns (no Python object per cell: a 200 MB
    CSV needs a fraction of the memory, #14). None when anything is unusual (a cell that is not a
    number, a row longer than the header, not UTF-8): :func:`_read_text` then reads every cell.

    ``raw`` is the file's bytes, or the path of a large UTF-8 file (pandas then reads it in
    pieces: its bytes are never held whole). The first column is read as text when its header
    could head row labels (empty, ``id``, ``gene``...: kept as written), as numbers otherwise."""
    opts = {
        "sep": r"\s+" if sep is None else sep,
        "na_values": NA_VALUES,
        "keep_default_na": True,
        "encoding": "utf-8-sig",
        "engine": "c",
        "compression": None,  # a ".csv" is text, whatever pandas would guess from a path
    }

    def src():
        return BytesIO(raw) if isinstance(raw, bytes) else raw

    try:
        head = pd.read_csv(src(), header=None, nrows=1, dtype=object, **opts)
        # the header row is read as cells (repeats kept, NA-like names empty) and then replaced
        width = head.shape[1]
        first = head.iat[0, 0]
        labels = pd.isna(first) or str(first).strip().lower() in ID_HEADERS | INDEX_HEADERS
        dtypes = {j: np.float64 for j in range(width)} | ({0: object} if labels else {})
        body = pd.read_csv(src(), header=0, names=list(range(width)), dtype=dtypes, **opts)
    except (*_TEXT_ERRORS, UnicodeDecodeError, OverflowError, TypeError, OSError):
        return None
    if not isinstance(body.index, pd.RangeIndex):  # rows longer than the header: pandas made an index
        return None
    body.columns = ["" if pd.isna(v) else str(v).strip() for v in head.iloc[0].tolist()]
    body.attrs["separator"] = sep or " "
    if body.shape[0] and body.iloc[:, -1].isna().any():  # perhaps short rows: say which lines
        try:
            _note_short_rows(body, _decode(raw if isinstance(raw, bytes) else raw.read_bytes()), sep)
        except (*_TEXT_ERRORS, OSError):
            return None
    return body


def _read_text(text: str, sep: str | None, label: str) -> pd.DataFrame:
    """Parse a text table cell by cell (separator ``sep``; whitespace when None)."""
    try:
        # header=None: pandas would silently rename a repeated header "a" to "a.1"
        opts = {"dtype": object, "na_values": NA_VALUES, "keep_default_na": True, "header": None}
        if sep is None:
            frame = pd.read_csv(StringIO(text), sep=r"\s+", engine="python", **opts)
        else:
            frame = pd.read_csv(StringIO(text), sep=sep, **opts)
        frame = _header_from_first_row(frame)
        frame.attrs["separator"] = sep or " "  # from_frame: a comma in a number is ambiguous in a CSV
        _note_short_rows(frame, text, sep)
    except _TEXT_ERRORS as exc:
        msg = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise DataValidationError(f"{label}: could not be read as a table ({msg}).") from None
    return frame


#: a cell such as 1.234 or 1.234,5 between separators (a European export's thousands separator)
_DOT_GROUPED_CELL = re.compile(rb"(?:^|[;\t ])[-+]?\d{1,3}(?:\.\d{3})+(?:,\d+)?(?=[;\t \r\n]|$)", re.M)

#: a whole number or a number with a decimal comma between separators (1.234 beside 987 or 2,5)
_WHOLE_OR_COMMA_CELL = re.compile(rb"(?:^|[;\t ])[-+]?\d+(?:,\d+)?(?=[;\t \r\n]|$)", re.M)


def _dot_grouped(head: bytes, sep: str | None) -> bool:
    """Whether a file not separated by commas has cells that may group thousands with '.': then it
    is read cell by cell, for :func:`engine.io.number_marks.european_numbers` to see them as written."""
    if sep == "," or _DOT_GROUPED_CELL.search(head) is None:
        return False
    return _WHOLE_OR_COMMA_CELL.search(head) is not None  # else '.' is a decimal point: 8.002, 7.715


def read_table(source: str | os.PathLike | IO[bytes] | IO[str], *, name: str | None = None) -> pd.DataFrame:
    """Read a CSV/TSV/text (separator sniffed), Excel or Parquet file into a DataFrame of raw cells;
    a gzip-compressed one (``.gz``) is read as the file it holds.

    Raises :class:`DataValidationError` with the file's name when it is empty, binary, or does not
    parse as a table.
    """
    label = source_label(source, name)
    suffix = Path(label).suffix.lower()
    spreadsheet = suffix in _EXCEL or suffix in _PARQUET
    on_disk = isinstance(source, (str, os.PathLike))
    raw = _read_bytes(source, label, limit=-1 if spreadsheet else _LARGE)
    inner = held_table(raw, lambda head=raw: _read_bytes(source, label) if on_disk else head, label)
    if inner is not None:
        try:
            return read_table(BytesIO(inner[0]), name=inner[1])
        except DataValidationError as exc:  # named as the user gave it
            raise DataValidationError(f"{label}{str(exc).removeprefix(inner[1])}") from None
    if on_disk and not spreadsheet and len(raw) == _LARGE and _utf16_or_32(raw) is None:
        # a large text file: checked from its start, then parsed by pandas from the file itself
        sep = _separator(_decode(_to_utf8(raw, label)), suffix)
        frame = None if _dot_grouped(raw, sep) else _read_numbers(Path(source), sep)
        if frame is None:
            frame = _read_text(_decode(_read_bytes(source, label)), sep, label)
    else:
        if on_disk and len(raw) == _LARGE:
            raw = _read_bytes(source, label)
        if not raw.strip():
            raise DataValidationError(f"{label}: the file is empty.")
        if spreadsheet:
            frame = _read_spreadsheet(raw, suffix, label)
            frame.attrs["header_line"] = suffix in _EXCEL  # a sheet's first row may be data; a schema is not
            return frame
        raw = _to_utf8(raw, label)
        sep = _separator(_decode(raw[:_LARGE]), suffix)
        frame = None if _dot_grouped(raw[:_LARGE], sep) else _read_numbers(raw, sep)
        if frame is None:
            frame = _read_text(_decode(raw), sep, label)
    del raw
    frame.attrs["header_line"] = True  # the header is the file's first line (engine.io.header checks it)
    if frame.shape[1] < 1 or frame.shape[0] == 0:
        raise DataValidationError(
            f"{label}: no data rows found under the header (a single line; read as data with --no-header, one "
            "instance would be too few)."
        )
    if frame.shape[1] == 1 and pd.to_numeric(frame.iloc[:, 0], errors="coerce").isna().all():
        raise DataValidationError(
            f"{label}: not a table of numbers (found a single text column); expected a header row "
            "of variable names and one row per instance, separated by commas or tabs."
        )
    return frame


def require_file(path: str | os.PathLike, label: str) -> Path:
    """``path`` as a Path when it is a regular file; otherwise :class:`DataValidationError` saying what
    it is instead (missing, a folder, a device such as ``/dev/null``), after the option ``label``."""
    if not str(path).strip():
        raise DataValidationError(f"{label}: no file name given (an empty name).")
    p = Path(path)
    if p.is_file():
        return p
    what = "no such file" if not p.exists() else "is a folder, not a file" if p.is_dir() else "not a regular file"
    raise DataValidationError(f"{label} {path}: {what}.")
