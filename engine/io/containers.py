"""Tables inside other files: a gzip-compressed table and the table of a GEO series matrix.

GEO (Gene Expression Omnibus) publishes each series as ``GSEnnnn_series_matrix.txt.gz``: ``!``-lines
of metadata, then the expression table (probes in rows, one column per sample, ``ID_REF`` first)
between ``!series_matrix_table_begin`` and ``!series_matrix_table_end``. Many lab exports come
gzip-compressed as well. :func:`engine.io.files.read_table` reads both as the table they hold.
"""

from __future__ import annotations

import gzip
import zlib
from collections.abc import Callable

from ..exceptions import DataValidationError

__all__ = ["GZIP_MAGIC", "gunzip", "held_table", "inner_name", "series_matrix_table"]

#: the first two bytes of a gzip stream
GZIP_MAGIC = b"\x1f\x8b"
_BEGIN = b"!series_matrix_table_begin"
_END = b"!series_matrix_table_end"


def gunzip(whole: bytes, label: str) -> bytes:
    """The bytes a gzip stream holds; a damaged or truncated stream raises
    :class:`DataValidationError` naming the file."""
    try:
        return gzip.decompress(whole)
    except (OSError, EOFError, zlib.error) as exc:
        raise DataValidationError(f"{label}: is gzip-compressed but does not decompress ({exc}).") from None


def inner_name(label: str) -> str:
    """The name of the file a ``.gz`` holds (``data.csv.gz`` -> ``data.csv``)."""
    return label[:-3] if label.lower().endswith(".gz") else label


def series_matrix_table(raw: bytes, label: str = "series matrix") -> bytes | None:
    """The expression table of a GEO series matrix (the lines between its begin and end markers), or
    None when ``raw`` is not one (it must start with a ``!`` line and hold the begin marker). A table
    without data rows (GEO's RNA-seq series: a header at most) raises :class:`DataValidationError`
    naming ``label``."""
    if not raw.lstrip(b"\xef\xbb\xbf").startswith(b"!"):
        return None
    lower = raw.lower()
    start = lower.find(_BEGIN)
    if start < 0:
        return None
    start = raw.find(b"\n", start)
    end = lower.find(_END, start) if start >= 0 else -1  # start < 0: the file stops at the begin marker
    table = raw[start + 1 : end if end >= 0 else len(raw)] if start >= 0 else b""
    if b"\n" not in table.strip():
        raise DataValidationError(
            f"{label}: a GEO series matrix with no data rows in its table (an RNA-seq series keeps its counts "
            "in the supplementary files: read one of those)."
        )
    return table


def held_table(raw: bytes, whole: Callable[[], bytes], label: str) -> tuple[bytes, str] | None:
    """The table a gzip file or a GEO series matrix holds and the name it is read under (its format
    from the suffix); None for other files. ``raw`` is the file's start, ``whole()`` all its bytes."""
    if raw.startswith(GZIP_MAGIC):
        return gunzip(whole(), label), inner_name(label)
    if raw.startswith((b"!", b"\xef\xbb\xbf!")):
        table = series_matrix_table(whole(), label)
        if table is not None:
            return table, label + ".table.tsv"
    return None
