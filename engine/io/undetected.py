"""Cells that an instrument writes for a measurement it could not make: missing, not text.

qPCR software writes a well whose signal never crossed the threshold as ``Undetermined``
(QuantStudio), ``No Ct``, ``N/A`` (Bio-Rad CFX) or ``-``; assay sheets write ``n.d.`` or ``ND``
(not detected). The value is censored (above the last cycle), not known: such a cell is read as
missing, and the engine's structural EM completes it like any other missing cell. The words are
:data:`UNDETECTED`, matched ignoring case and surrounding spaces; the generic missing-value words
of :data:`engine.io.files.NA_VALUES` (``NA``, empty) were missing before and stay so. What was
read is said in one note (per column, how many cells and the words as written). A variable made
mostly of such cells (more than :data:`engine.io.columns.MAX_MISSING` of them) holds too few
measurements to learn its parents from: it is refused, naming it, the reason and the fixes, or
left out with a note when unusable columns are to be skipped (``drop_non_numeric``:
``--skip-unusable``, the explorer). Values are not changed and the caller's frame is not modified.
"""

from __future__ import annotations

from collections import Counter

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from ..exceptions import DataValidationError
from ..listing import first_few
from .columns import MAX_MISSING

__all__ = ["UNDETECTED", "read_undetected"]

#: words for an undetected (censored) measurement, matched ignoring case and outer spaces
UNDETECTED = (
    "Undetermined",
    "Undet.",
    "Undetected",
    "Not detected",
    "No Ct",
    "No Cq",
    "N/A",
    "NaN",
    "-",
    "nd",
    "n.d.",
)
_KEYS = pa.array(sorted({m.lower() for m in UNDETECTED}), type=pa.string())


def _marked(df: pd.DataFrame) -> np.ndarray | None:
    """Where ``df`` holds one of :data:`UNDETECTED` (a boolean array of its shape), None without any."""
    text_cols = [j for j, t in enumerate(df.dtypes) if pd.api.types.is_object_dtype(t) or isinstance(t, pd.StringDtype)]
    if not text_cols:
        return None
    cells = df.iloc[:, text_cols].to_numpy(dtype=object).ravel()
    try:  # a text file's cells are all text: compared in Arrow, a fraction of a second for millions
        text = pa.array(cells, type=pa.string(), from_pandas=True)
    except (pa.ArrowInvalid, pa.ArrowTypeError):  # numbers among the text (a spreadsheet's cells)
        text = pa.array([c if isinstance(c, str) else None for c in cells], type=pa.string())
    words = pc.utf8_lower(pc.utf8_trim_whitespace(text))
    hit = pc.fill_null(pc.is_in(words, value_set=_KEYS), False).to_numpy(zero_copy_only=False)
    if not hit.any():
        return None
    out = np.zeros(df.shape, dtype=bool)
    out[:, text_cols] = hit.reshape(len(df), len(text_cols))
    return out


def _as_written(words) -> Counter:
    """How often each word occurs, a word in any case or spacing counted once, as first written
    (outer spaces trimmed)."""
    shown: dict[str, str] = {}
    return Counter(shown.setdefault(" ".join(str(w).split()).casefold(), str(w).strip()) for w in words)


def _counted(words: list[str]) -> str:
    """``3 cells 'Undetermined', 1 cell 'n.d.'``: the words as written, most frequent first."""
    return ", ".join(f"{k} cell{'s' if k > 1 else ''} {w!r}" for w, k in _as_written(words).most_common())


def read_undetected(
    df: pd.DataFrame,
    labels: list[str] | None,
    *,
    transpose: bool,
    drop: bool,
    max_missing: float | None,
    source: str,
    notes: list[str],
) -> tuple[pd.DataFrame, list[str] | None]:
    """``df`` (raw cells, label column taken off; with ``transpose`` the variables are its rows,
    named by ``labels``) with its :data:`UNDETECTED` cells missing, and ``labels``. A variable
    with more than ``max_missing`` (None: :data:`MAX_MISSING`) of its cells so marked is refused
    (:class:`DataValidationError`), or with ``drop`` left out; with ``drop`` and no
    ``max_missing`` (``score --skip-unusable``, which keeps a model's variables) it is kept, its
    marked cells missing. What was done is said in ``notes``."""
    hit = _marked(df)
    if hit is None:
        return df, labels
    written = df.to_numpy(dtype=object)
    per_var = hit.T if transpose else hit  # rows: cells, columns: variables
    cells = written.T if transpose else written
    names = [str(n) for n in (labels if transpose and labels is not None else df.columns)]
    if transpose and labels is None:
        names = [f"row {i + 1}" for i in range(df.shape[0])]
    m = per_var.shape[0]
    share = per_var.mean(axis=0)
    mostly = np.flatnonzero(share > (MAX_MISSING if max_missing is None else max_missing))
    if drop and max_missing is None:
        mostly = mostly[:0]
    said = {j: _counted([str(w).strip() for w in cells[per_var[:, j], j]]) for j in np.flatnonzero(per_var.any(0))}
    kind = "variable" if transpose else "column"
    if mostly.size and (not drop or mostly.size == per_var.shape[1]):
        j = int(mostly[0])
        others = f" ({mostly.size} such {kind}s)" if mostly.size > 1 else ""
        raise DataValidationError(
            f"{source}: {kind} {names[j]!r} is mostly not detected ({_share(per_var[:, j], cells[:, j], m)})"
            f"{others}: too few measured values to learn from; leave it out with --drop {names[j]} (or every "
            f"unusable column with --skip-unusable; Python: drop_non_numeric=True, max_missing={MAX_MISSING})."
        )
    keep = np.setdiff1d(np.arange(per_var.shape[1]), mostly)
    kept = set(keep.tolist())
    read = [f"{names[j]!r}: {said[j]}" for j in said if j in kept]
    if read:
        total = int(per_var[:, keep].sum())
        notes.append(f"{total} cell(s) read as missing (not detected): {first_few(read, sep='; ')}")
    if mostly.size:
        described = first_few(
            [f"{names[j]!r} ({_share(per_var[:, j], cells[:, j], m)})" for j in mostly[:6]], total=mostly.size
        )
        notes.append(
            f"left out mostly undetected {kind}(s) {described}: more than {max_missing:.0%} of the cells "
            "not detected, too few measured values to learn from"
        )
    if all(pd.api.types.is_object_dtype(t) for t in df.dtypes):  # a new frame: the caller's is kept as written
        blanked = written.copy()
        blanked[hit] = None
        out = pd.DataFrame(blanked, index=df.index, columns=df.columns, dtype=object)  # cells as read: text
    else:
        out = df.mask(hit)
    if not mostly.size:
        return out, labels
    if transpose:
        return out.iloc[keep], [labels[i] for i in keep] if labels is not None else None
    return out.iloc[:, keep], labels


def _share(marked: np.ndarray, written: np.ndarray, m: int) -> str:
    """``8 of 12 cells 'Undetermined'`` (several words: ``8 of 12 cells 'Undetermined' or 'nd'``)."""
    words = [w for w, _ in _as_written(written[marked]).most_common()]
    return f"{int(marked.sum())} of {m} cells {' or '.join(repr(w) for w in words)}"
