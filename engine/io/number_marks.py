"""Decimal marks and thousands separators in a text table's numbers.

A comma-separated file cannot hold a decimal comma unquoted, so a quoted ``"1,601"`` there is 1601
or 1.601 and is refused (:func:`comma_in_csv`). Files separated by ``;`` or tabs are what a
spreadsheet in a European locale exports: ``,`` is then the decimal mark and ``.`` groups the
thousands (``1.234,5`` is 1234.5, ``1.500`` is 1500). :func:`european_numbers` reads such a
table when its cells show that convention (a grouped number with a decimal comma, or grouped
numbers beside decimal commas), and refuses a column whose ``1.234`` could be either 1234 or 1.234
(dotted cells that all look grouped next to whole numbers, with no decimal comma anywhere), since
read as decimals those cells would be a thousand times too small. Values are never changed
otherwise; the notes say what was read.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..exceptions import DataValidationError
from .files import NA_VALUES

__all__ = ["DECIMAL_COMMA", "THOUSANDS", "comma_in_csv", "european_numbers"]

#: a number written with a decimal comma ("1,5", European exports with ';' separators)
DECIMAL_COMMA = r"\s*[-+]?\d+,\d+([eE][-+]?\d+)?\s*"
#: a number written with thousands separators ("1,234,567"; "1,601" is also a decimal comma)
THOUSANDS = r"\s*[-+]?\d{1,3}(,\d{3})+(\.\d+)?\s*"
#: a number with '.' grouping its thousands, and perhaps a decimal comma ("1.234", "12.345.678,5")
_DOT_GROUPED = r"\s*[-+]?\d{1,3}(\.\d{3})+(,\d+)?\s*"
_WHOLE = r"\s*[-+]?\d+\s*"


def comma_in_csv(df: pd.DataFrame, as_text: pd.DataFrame, bad_mask: pd.DataFrame, source: str) -> None:
    """Refuse a (quoted) number with a comma in a comma-separated file: "1,601" is 1601 with a
    thousands separator or 1.601 with a decimal comma, and nothing in the file says which."""
    decimal = as_text.apply(lambda col: col.str.fullmatch(DECIMAL_COMMA)) & bad_mask
    grouped = as_text.apply(lambda col: col.str.fullmatch(THOUSANDS)) & bad_mask
    hits = (decimal | grouped).to_numpy()
    if not hits.any():
        return
    c = int(np.flatnonzero(hits.any(axis=0))[0])
    r = int(np.flatnonzero(hits[:, c])[0])
    cell = str(df.iat[r, c]).strip()
    readings = []
    if grouped.iat[r, c]:
        readings.append(f"{float(cell.replace(',', '')):.15g} with a thousands separator")
    if decimal.iat[r, c]:
        readings.append(f"{float(cell.replace(',', '.')):.15g} with a decimal comma")
    raise DataValidationError(
        f"{source}: column {df.columns[c]!r} holds {cell!r} (row {r + 1}), a number with a comma in a "
        f"comma-separated file: it reads as {' or as '.join(readings)}. Write the numbers without "
        "thousands separators and with a decimal point (or save the file with ';' as the separator)."
    )


def _first(mask: np.ndarray) -> tuple[int, int]:
    c = int(np.flatnonzero(mask.any(axis=0))[0])
    return int(np.flatnonzero(mask[:, c])[0]), c


def european_numbers(
    df: pd.DataFrame, separator: str | None, source: str, notes: list[str]
) -> tuple[pd.DataFrame, pd.DataFrame] | None:
    """The cells of a text table (object columns) as numbers with ``.`` grouping thousands and ``,``
    the decimal mark, and the mask of the non-missing cells that are not numbers, when the cells
    show that convention; None when they do not (read as usual). Raises
    :class:`DataValidationError` for cells that could be read both ways (module docstring)."""
    if separator == "," or not all(pd.api.types.is_object_dtype(t) for t in df.dtypes):
        return None
    flat = pd.Series(df.to_numpy(dtype=object).ravel(), dtype=object)  # one pass per pattern, not per column
    present = (flat.notna() & ~flat.isin(NA_VALUES)).to_numpy()
    text = flat.astype(str)
    grouped = text.str.fullmatch(_DOT_GROUPED).to_numpy(dtype=bool) & present
    if not grouped.any():
        return None
    shape = df.shape
    commas = text.str.fullmatch(DECIMAL_COMMA).to_numpy(dtype=bool) & present
    has_comma = text.str.contains(",", regex=False).to_numpy(dtype=bool)
    dotted = text.str.contains(".", regex=False).to_numpy(dtype=bool) & present & ~grouped
    if (grouped & has_comma).any() or commas.any():  # the European convention is evident
        if dotted.any():
            r, c = _first(dotted.reshape(shape))
            raise DataValidationError(
                f"{source}: column {df.columns[c]!r} holds {str(df.iat[r, c]).strip()!r} (row {r + 1}) with a "
                "decimal point while other cells use a decimal comma and '.' between thousands (1.234,5); "
                "write every number the same way."
            )
        cells = text.where(~grouped, text.str.replace(".", "", regex=False)).str.replace(",", ".", regex=False)
        values = pd.to_numeric(cells, errors="coerce").to_numpy(dtype=float, copy=True)
        values[~present] = np.nan
        numeric = pd.DataFrame(values.reshape(shape), index=df.index, columns=df.columns)
        bad = pd.DataFrame((np.isnan(values) & present).reshape(shape), index=df.index, columns=df.columns)
        notes.append("read '.' as a thousands separator and ',' as the decimal mark (1.234,5 = 1234.5)")
        return numeric, bad
    whole = (text.str.fullmatch(_WHOLE).to_numpy(dtype=bool) & present).reshape(shape)
    grouped, dotted = grouped.reshape(shape), dotted.reshape(shape)
    ambiguous = np.flatnonzero(grouped.any(axis=0) & whole.any(axis=0) & ~dotted.any(axis=0))
    if ambiguous.size:
        c = int(ambiguous[0])
        r, w = int(np.flatnonzero(grouped[:, c])[0]), int(np.flatnonzero(whole[:, c])[0])
        cell = str(df.iat[r, c]).strip()
        raise DataValidationError(
            f"{source}: column {df.columns[c]!r} holds {cell!r} (row {r + 1}) beside whole numbers such as "
            f"{str(df.iat[w, c]).strip()!r}: in a file separated by {separator or 'spaces'!r} (a spreadsheet's "
            f"European export) {cell!r} may be {float(cell.replace('.', '')):.15g} with '.' between thousands, "
            f"or {float(cell):.15g}. Save the numbers without thousands separators (or, if they are decimals, "
            "with the same number of decimals everywhere)."
        )
    return None
