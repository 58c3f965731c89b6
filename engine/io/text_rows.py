"""A units or description line under the header of an instrument's export.

Plate readers, qPCR software and LIMS exports often write a second header line: the unit of each
column (``Ct``, ``RFU``, ``ng/ul``) or a description, then the measurements. Read as data, that
line makes every column text, and the table would be refused column by column. This module finds
such lines (at most :data:`MAX_TEXT_ROWS` at the top, each with text that is not a number in at
least half of the columns and no number at all, followed by a line that is mostly numbers) so the
loader can name them: refused with the fix by default, left out with a note when unusable parts
are to be skipped (``drop_non_numeric``: ``--skip-unusable``, the explorer). Values are not changed.
"""

from __future__ import annotations

import pandas as pd

from ..exceptions import DataValidationError
from .files import NA_VALUES

__all__ = ["MAX_TEXT_ROWS", "leading_text_rows", "skip_text_rows"]

#: lines under the header that may be units or descriptions
MAX_TEXT_ROWS = 3


def _cells(row: pd.Series) -> tuple[int, int]:
    """(text cells, number cells) of a row; missing-value words are neither; a decimal comma is a number."""
    present = row[row.notna() & ~row.astype(str).str.strip().isin(NA_VALUES)].astype(str).str.strip()
    numbers = pd.to_numeric(present.str.replace(",", ".", regex=False), errors="coerce").notna()
    return int((~numbers).sum()), int(numbers.sum())


def leading_text_rows(df: pd.DataFrame) -> int:
    """How many of the first rows of ``df`` (cells as read, label column taken off) are a units or
    description line (see the module docstring); 0 when none is."""
    n_cols = df.shape[1]
    if n_cols == 0 or len(df) < 3:
        return 0
    k = 0
    while k < min(MAX_TEXT_ROWS, len(df) - 2):
        text, numbers = _cells(df.iloc[k])
        if numbers or text < max(1, n_cols / 2):
            break
        k += 1
    if k == 0:
        return 0
    _, numbers = _cells(df.iloc[k])
    return k if numbers >= n_cols / 2 else 0


def skip_text_rows(
    df: pd.DataFrame, labels: list[str] | None, drop: bool, source: str, notes: list[str]
) -> tuple[pd.DataFrame, list[str] | None]:
    """``df`` and its row ``labels`` without a units line under the header (``drop``: said in
    ``notes``); without ``drop`` such a line raises :class:`DataValidationError` naming it and the fix."""
    k = leading_text_rows(df)
    if k == 0:
        return df, labels
    first = df.iloc[0]
    cells = ", ".join(repr(str(c).strip()) for c in first[first.notna()].tolist()[:4])
    named = f"{labels[0]!r}: " if labels else ""
    lines = "the line" if k == 1 else f"the {k} lines"
    it, hold = ("it", "holds") if k == 1 else ("them", "hold")
    if not drop:
        raise DataValidationError(
            f"{source}: {lines} under the header {hold} text in every column, not measurements ({named}{cells}, "
            f"...: units or descriptions?); delete {it} from the file, or leave {it} out with --skip-unusable "
            "(Python: drop_non_numeric=True)."
        )
    notes.append(f"left out {lines} under the header ({named}{cells}, ...: units or descriptions, not measurements)")
    return df.iloc[k:], (labels[k:] if labels is not None else None)
