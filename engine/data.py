"""Data sets: loading, validation, orientation and standardization.

A :class:`Dataset` is M instances x N variables (columns are variables), float64, with missing cells
kept as NaN and flagged in ``missing``. Expression matrices usually arrive genes x conditions, i.e.
variables in rows; ``transpose=True`` turns them round. Standardization (each variable to mean 0 and
variance 1 over its observed cells) is on by default: the paper's C1/C2 use uncentred profiles
(Elidan et al., JMLR 2007, section 3.2), and on centred data the centring question disappears.

Nothing here modifies the caller's data: loaders copy, and the stored arrays are read-only.
"""

from __future__ import annotations

import csv
import io
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

import numpy as np
import pandas as pd

from ._validation import MIN_SAMPLES, check_data, check_names, constant_variables
from .exceptions import DataValidationError

__all__ = ["Dataset", "load_table", "from_frame", "from_array", "read_table"]

_NA_VALUES = ["", "NA", "N/A", "NaN", "nan", "null", "NULL", "?", "-"]
_EXCEL = {".xlsx", ".xlsm", ".xls", ".ods"}
_PARQUET = {".parquet", ".pq"}


@dataclass(frozen=True, eq=False)
class Dataset:
    """M instances x N variables of continuous data.

    Attributes
    ----------
    names : tuple of str
        Variable names, in column order.
    values : ndarray of shape (n_samples, n_vars)
        float64 values (standardized when ``standardized``), NaN where missing. Read-only.
    missing : ndarray of bool, same shape
        True where the cell was missing in the source.
    standardized : bool
        Whether ``values`` were shifted and scaled to mean 0, variance 1 per variable.
    means, scales : ndarray of shape (n_vars,)
        The transform applied: ``original = values * scales + means`` (zeros and ones when not
        standardized).
    instance_labels : tuple of str or None
        Row labels (e.g. condition names), when the source had them.
    source : str
        Where the data came from (file name or description).
    notes : tuple of str
        Human-readable remarks about what loading did (transposed, standardized, label column...).
    """

    names: tuple[str, ...]
    values: np.ndarray
    missing: np.ndarray
    standardized: bool = False
    means: np.ndarray = field(default=None)  # type: ignore[assignment]
    scales: np.ndarray = field(default=None)  # type: ignore[assignment]
    instance_labels: tuple[str, ...] | None = None
    source: str = ""
    notes: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        n = len(self.names)
        if self.means is None:
            object.__setattr__(self, "means", np.zeros(n))
        if self.scales is None:
            object.__setattr__(self, "scales", np.ones(n))
        for arr in (self.values, self.missing, self.means, self.scales):
            arr.setflags(write=False)

    @property
    def n_samples(self) -> int:
        """Number of instances M."""
        return int(self.values.shape[0])

    @property
    def n_vars(self) -> int:
        """Number of variables N."""
        return int(self.values.shape[1])

    @property
    def has_missing(self) -> bool:
        """Whether any cell is missing."""
        return bool(self.missing.any())

    def index(self, name: str) -> int:
        """Column position of variable ``name``."""
        try:
            return self.names.index(str(name))
        except ValueError:
            raise DataValidationError(f"no variable named {name!r} in {self.source or 'the data'}.") from None

    def original_values(self) -> np.ndarray:
        """The values on the scale they were loaded at (undoing standardization)."""
        return self.values * self.scales + self.means

    def to_frame(self, original: bool = False) -> pd.DataFrame:
        """The data as a DataFrame with variable names as columns."""
        vals = self.original_values() if original else self.values
        index = list(self.instance_labels) if self.instance_labels is not None else None
        return pd.DataFrame(np.array(vals), columns=list(self.names), index=index)

    def subset(self, rows: np.ndarray) -> Dataset:
        """A new Dataset with only ``rows`` (a boolean mask or index array), same transform."""
        labels = None
        if self.instance_labels is not None:
            labels = tuple(np.asarray(self.instance_labels, dtype=object)[rows])
        return Dataset(
            names=self.names,
            values=np.array(self.values[rows]),
            missing=np.array(self.missing[rows]),
            standardized=self.standardized,
            means=np.array(self.means),
            scales=np.array(self.scales),
            instance_labels=labels,
            source=self.source,
            notes=self.notes,
        )

    def summary(self) -> str:
        """One line describing the data set."""
        miss = f", {int(self.missing.sum())} missing cells" if self.has_missing else ""
        std = ", standardized" if self.standardized else ""
        return f"{self.n_samples} instances x {self.n_vars} variables{miss}{std}"


def from_array(
    values: Any,
    names: Any = None,
    *,
    standardize: bool = True,
    source: str = "array",
    instance_labels: Any = None,
    notes: tuple[str, ...] = (),
    drop_constant: bool = False,
    min_samples: int = MIN_SAMPLES,
    allow_constant: bool = False,
) -> Dataset:
    """Build a Dataset from an (instances x variables) array-like; the input is copied.

    ``drop_constant`` leaves out constant variables (saying so in ``notes``) instead of refusing
    the data; ``min_samples`` and ``allow_constant`` relax the checks for data that is only
    scored under a saved model (a single held-out instance, a column the model does not use).
    """
    try:
        arr = np.array(values, dtype=np.float64, copy=True)
    except (TypeError, ValueError) as exc:
        raise DataValidationError(f"{source}: values are not all numbers ({exc}).") from None
    if arr.ndim == 1:
        arr = arr[:, None]
    if names is None:
        names = [f"X{i + 1}" for i in range(arr.shape[1] if arr.ndim == 2 else 0)]
    names_t = check_names(names, input_name=source)
    if arr.ndim == 2 and len(names_t) != arr.shape[1]:
        raise DataValidationError(f"{source}: {len(names_t)} names for {arr.shape[1]} columns.")
    notes_l = list(notes)
    if drop_constant and arr.ndim == 2 and arr.shape[0] >= min_samples:
        arr, names_t = _drop_constant(arr, names_t, notes_l)
    check_data(arr, names_t, input_name=source, min_samples=min_samples, allow_constant=allow_constant)
    missing = np.isnan(arr)
    notes_l.extend(_duplicate_notes(arr, names_t))
    means = np.zeros(arr.shape[1])
    scales = np.ones(arr.shape[1])
    if standardize:
        with np.errstate(over="ignore", invalid="ignore", divide="ignore", under="ignore"):
            means = np.nanmean(arr, axis=0)
            scales = np.nanstd(arr, axis=0)
            arr = (arr - means) / scales
        bad = np.flatnonzero(~(np.isfinite(means) & np.isfinite(scales) & (scales > 0)))
        if bad.size:
            raise DataValidationError(
                f"{source}: variable(s) {', '.join(repr(names_t[i]) for i in bad[:6])} cannot be standardized: "
                "their spread overflows or underflows double precision; rescale them first."
            )
        notes_l.append("standardized each variable to mean 0 and variance 1")
    labels = None if instance_labels is None else tuple(str(x) for x in instance_labels)
    return Dataset(
        names=names_t,
        values=arr,
        missing=missing,
        standardized=standardize,
        means=means,
        scales=scales,
        instance_labels=labels,
        source=source,
        notes=tuple(notes_l),
    )


def _drop_constant(arr: np.ndarray, names: tuple[str, ...], notes: list[str]) -> tuple[np.ndarray, tuple[str, ...]]:
    """``arr`` and ``names`` without their constant variables, noted in ``notes`` (all of them
    constant: left as they are, for :func:`check_data` to name)."""
    constant = constant_variables(arr)
    if not constant.size or constant.size == arr.shape[1]:
        return arr, names
    keep = np.setdiff1d(np.arange(arr.shape[1]), constant)
    notes.append(
        f"left out constant variable(s) {', '.join(names[i] for i in constant[:10])}"
        + (f" and {constant.size - 10} more" if constant.size > 10 else "")
        + " (zero variance: they cannot take part in a network)"
    )
    return arr[:, keep], tuple(names[i] for i in keep)


def _numeric_header(columns) -> bool:
    """Whether every header cell parses as a number (a file without a header row)."""
    cells = [c for c in columns if c != "" and not c.startswith("Unnamed:")]
    if len(cells) < 2:
        return False
    return bool(pd.to_numeric(pd.Series(cells), errors="coerce").notna().all())


def _duplicate_notes(arr: np.ndarray, names: tuple[str, ...]) -> list[str]:
    """A note per group of variables with identical values (a copy explains its original exactly,
    so its family's variance hits the numerical floor and the score is meaningless)."""
    if arr.ndim != 2 or arr.shape[1] < 2:
        return []
    filled = np.where(np.isnan(arr), np.inf, arr)  # NaN != NaN; equal missing patterns compare equal
    _, inverse = np.unique(filled, axis=1, return_inverse=True)
    inverse = np.ravel(inverse)
    notes = []
    for g in np.flatnonzero(np.bincount(inverse) > 1)[:5]:
        same = [names[i] for i in np.flatnonzero(inverse == g)]
        notes.append(
            f"variables {', '.join(map(repr, same))} have identical values: each explains the other exactly "
            "(drop the copies)"
        )
    return notes


_ID_HEADERS = {
    "id",
    "gene",
    "genes",
    "gene_id",
    "geneid",
    "probe",
    "probe_id",
    "orf",
    "name",
    "names",
    "variable",
    "variables",
    "node",
    "symbol",
    "locus",
}


_INDEX_HEADERS = {"id", "index", "idx", "row", "sample", "sample_id", "instance", "obs", "#"}


def _looks_like_labels(col: pd.Series, header: str, transpose: bool = False) -> bool:
    """Whether the first column holds labels rather than data.

    Labels: no header (a written index), or unique text. With ``transpose`` (variables in rows)
    also unique whole numbers under an identifier-like header such as ``gene`` or ``id``: gene
    ids are often digit strings (arth150)."""
    if header == "" or header.startswith("Unnamed: 0"):
        return True
    numeric = pd.to_numeric(col, errors="coerce")
    text = col.dropna().astype(str)
    if text.str.fullmatch(r"\s*[-+]?\d+,\d+([eE][-+]?\d+)?\s*").all() and len(text):
        return False  # decimal commas: numbers, not labels
    if numeric.notna().any():
        if transpose and header.strip().lower() in _ID_HEADERS and numeric.notna().all():
            whole = np.all(np.mod(numeric.to_numpy(dtype=float), 1.0) == 0.0)
            return bool(whole and col.is_unique)
        if header.strip().lower() in _INDEX_HEADERS and numeric.notna().all():
            # a row number (1..M or 0..M-1 in file order), not a measurement
            v = numeric.to_numpy(dtype=float)
            return bool(len(v) > 1 and np.all(np.diff(v) == 1.0) and v[0] in (0.0, 1.0))
        return False
    return bool(col.notna().all() and col.is_unique)


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
        Columns to leave out (e.g. a text column of condition names).
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
        Relaxed checks for data that is only scored under a saved model (see :func:`from_array`).
    """
    if not isinstance(frame, pd.DataFrame) or frame.shape[1] == 0:
        raise DataValidationError(f"{source}: not a table (no columns found).")
    read_notes = list(frame.attrs.get("notes", []))  # e.g. short rows, noted by read_table
    df = frame.copy()
    df.columns = [str(c).strip() for c in df.columns]
    # (with variables in rows the headers are conditions or time points, often numbers)
    numeric_header = not transpose and _numeric_header(df.columns)
    # duplicate names are checked first: pandas selects a DataFrame, not a column, for them
    # (an empty first header is a label column and is checked later)
    named = [c for c in df.columns if c != ""]
    if len(set(named)) != len(named):
        check_names(named, input_name=source)
    notes: list[str] = list(read_notes)
    if numeric_header:
        notes.append(
            f"the first row ({', '.join(list(df.columns)[:3])}, ...) holds numbers and was read as the "
            "variable names: if it is data, add a header row"
        )
    # with variables in rows, a name to drop may also be a variable (a row label), found below
    drop_rows = [d for d in drop if d not in df.columns] if transpose else []
    drop = [d for d in drop if d in df.columns or not transpose]
    unknown = [d for d in drop if d not in df.columns]
    if unknown:
        raise DataValidationError(
            f"{source}: cannot drop {', '.join(map(repr, unknown))}: no such column "
            f"(columns are {', '.join(map(repr, list(df.columns)[:8]))}...)."
        )
    if drop:
        if len(set(drop)) >= df.shape[1]:
            raise DataValidationError(f"{source}: dropping {len(set(drop))} column(s) leaves no column to learn from.")
        df = df.drop(columns=list(drop))
        notes.append(f"dropped column(s) {', '.join(drop)}")
    labels: list[str] | None = None
    if label_column == "auto":
        first = df.columns[0]
        if df.shape[1] > 1 and _looks_like_labels(df[first], first, transpose):
            label_column = first
        else:
            label_column = None
    if label_column is not None:
        if label_column not in df.columns:
            raise DataValidationError(f"{source}: no column named {label_column!r} for labels.")
        labels = [str(x) for x in df[label_column].tolist()]
        df = df.drop(columns=[label_column])
        if transpose:
            notes.append(f"used the first column {label_column!r} as variable names")
        else:
            notes.append(
                f"used the first column {label_column!r} as instance labels (if the variables are in rows, "
                "e.g. genes x conditions, load with transpose)"
            )
    if df.shape[1] == 0:
        raise DataValidationError(f"{source}: not a table (only a label column).")
    if drop_rows:
        unknown = [d for d in drop_rows if labels is None or d not in labels]
        if unknown:
            raise DataValidationError(
                f"{source}: cannot drop {', '.join(map(repr, unknown))}: no such column or variable."
            )
        keep = np.array([lab not in set(drop_rows) for lab in labels])
        if not keep.any():
            raise DataValidationError(f"{source}: dropping {len(drop_rows)} variable(s) leaves none to learn.")
        df = df[keep]
        labels = [lab for lab, k in zip(labels, keep, strict=True) if k]
        notes.append(f"dropped variable(s) {', '.join(drop_rows)}")

    # Coerce to numbers; a column is non-numeric when a non-empty cell fails to parse.
    numeric = df.apply(pd.to_numeric, errors="coerce")
    bad_mask = numeric.isna() & df.notna() & ~df.isin(_NA_VALUES)
    if bad_mask.to_numpy().any():
        # decimal commas ("1,5", common in European exports with ';' separators)
        as_text = df.astype(str)
        commas = as_text.apply(lambda col: col.str.fullmatch(r"\s*[-+]?\d+,\d+([eE][-+]?\d+)?\s*"))
        if bool((commas | ~bad_mask).to_numpy().all()):
            numeric = as_text.apply(lambda col: pd.to_numeric(col.str.replace(",", ".", regex=False), errors="coerce"))
            numeric = numeric.where(df.notna())
            bad_mask = numeric.isna() & df.notna() & ~df.isin(_NA_VALUES)
            notes.append("read decimal commas (1,5 = 1.5)")
    if transpose:
        # A column of the file with text in every filled cell is an annotation (gene symbols,
        # descriptions), not a condition: leave it out when asked, name it otherwise.
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
        # with variables in rows, report offending *rows* of the file
        bad_rows = np.flatnonzero(bad_mask.to_numpy().any(axis=1))
        if bad_rows.size:
            r = int(bad_rows[0])
            name = labels[r] if labels else f"row {r + 2}"
            c = int(np.flatnonzero(bad_mask.to_numpy()[r])[0])
            raise DataValidationError(
                f"{source}: variable {name!r} is not numeric (cell {df.iat[r, c]!r} in column "
                f"{df.columns[c]!r}); {len(bad_rows)} row(s) have text values."
            )
    else:
        bad_cols = [c for c in df.columns if bad_mask[c].any()]
        if bad_cols and drop_non_numeric and len(bad_cols) < df.shape[1]:
            numeric = numeric.drop(columns=bad_cols)
            df = df.drop(columns=bad_cols)
            notes.append(f"left out non-numeric column(s) {', '.join(map(str, bad_cols))}")
            bad_cols = []
        if bad_cols:
            first = bad_cols[0]
            row = int(np.flatnonzero(bad_mask[first].to_numpy())[0])
            listed = ", ".join(repr(c) for c in bad_cols[:6])
            more = f" and {len(bad_cols) - 6} more" if len(bad_cols) > 6 else ""
            raise DataValidationError(
                f"{source}: non-numeric column(s) {listed}{more} (e.g. {df[first].iloc[row]!r} at "
                f"row {row + 1} of {first!r}); drop them (CLI: --drop NAME) or fix the cells. "
                "If variables are in rows, load with transpose."
            )
    values = numeric.to_numpy(dtype=np.float64)
    names: list[str] = list(df.columns)
    if transpose:
        values = values.T
        inst = names
        names = labels if labels is not None else [f"V{i + 1}" for i in range(values.shape[1])]
        labels = inst
        notes.append("transposed: variables were in rows")
    if drop_constant and values.shape[0] >= min_samples:
        values, names = _drop_constant(values, tuple(names), notes)
    n_vars = values.shape[1]
    if transpose and n_vars > values.shape[0] >= 3:
        notes.append(
            f"more variables ({n_vars}) than instances ({values.shape[0]}) after transposing: "
            "check the orientation; with few instances consider a small max parents"
        )
    elif not transpose and n_vars > values.shape[0] >= 3:
        notes.append(
            f"more variables ({n_vars}) than instances ({values.shape[0]}): if variables "
            "are in rows (genes x conditions), load with transpose"
        )
    return from_array(
        values,
        names,
        standardize=standardize,
        source=source,
        instance_labels=labels,
        notes=tuple(notes),
        min_samples=min_samples,
        allow_constant=allow_constant,
    )


def _short_rows(text: str, sep: str) -> list[int]:
    """File line numbers of the non-empty rows with fewer cells than the header row."""
    rows = csv.reader(io.StringIO(text), delimiter=sep)
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


def _sniff_sep(text: str) -> str | None:
    sample = "\n".join(text.splitlines()[:20])
    try:
        return csv.Sniffer().sniff(sample, delimiters=",\t;| ").delimiter
    except csv.Error:
        return None


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


def read_table(source: str | os.PathLike | IO[bytes] | IO[str], *, name: str | None = None) -> pd.DataFrame:
    """Read a CSV/TSV/text (separator sniffed), Excel or Parquet file into a DataFrame of raw cells.

    Raises :class:`DataValidationError` with the file's name when it is empty, binary, or does not
    parse as a table.
    """
    label = name or (os.fspath(source) if isinstance(source, (str, os.PathLike)) else getattr(source, "name", "upload"))
    label = Path(str(label)).name
    suffix = Path(str(label)).suffix.lower()
    try:
        if isinstance(source, (str, os.PathLike)):
            path = Path(source)
            if not path.exists():
                raise DataValidationError(f"{label}: file not found.")
            if path.is_dir():
                raise DataValidationError(f"{label}: is a folder, not a file.")
            raw: bytes = path.read_bytes()
        else:
            data = source.read()
            raw = data.encode() if isinstance(data, str) else bytes(data)
    except OSError as exc:
        raise DataValidationError(f"{label}: cannot be read ({exc.strerror or exc}).") from None
    if not raw.strip():
        raise DataValidationError(f"{label}: the file is empty.")
    try:
        if suffix in _EXCEL:
            return _header_from_first_row(pd.read_excel(io.BytesIO(raw), dtype=object, header=None))
        if suffix in _PARQUET:
            return pd.read_parquet(io.BytesIO(raw))
    except ImportError as exc:
        raise DataValidationError(
            f"{label}: reading {suffix} files needs an extra package ({exc}); save it as CSV."
        ) from None
    except Exception as exc:  # noqa: BLE001 - any parser failure means "not a table"
        raise DataValidationError(f"{label}: could not be read as a {suffix} table ({exc}).") from None
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
        if sep == " " or sep is None:
            frame = pd.read_csv(
                io.StringIO(text),
                sep=r"\s+",
                dtype=object,
                na_values=_NA_VALUES,
                keep_default_na=True,
                engine="python",
                header=None,
            )
        else:
            frame = pd.read_csv(
                io.StringIO(text), sep=sep, dtype=object, na_values=_NA_VALUES, keep_default_na=True, header=None
            )
        frame = _header_from_first_row(frame)
        if sep not in (" ", None):
            short = _short_rows(text, sep)
            if short:
                lines = ", ".join(map(str, short[:5])) + (f" and {len(short) - 5} more" if len(short) > 5 else "")
                frame.attrs["notes"] = [
                    f"line(s) {lines} of the file have fewer cells than the header; their missing cells "
                    "were read as missing values"
                ]
    except Exception as exc:  # noqa: BLE001 - pandas raises several parser errors
        msg = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise DataValidationError(f"{label}: could not be read as a table ({msg}).") from None
    if frame.shape[1] < 1 or frame.shape[0] == 0:
        raise DataValidationError(f"{label}: no data rows found under the header.")
    if frame.shape[1] == 1 and pd.to_numeric(frame.iloc[:, 0], errors="coerce").isna().all():
        raise DataValidationError(
            f"{label}: not a table of numbers (found a single text column); expected a header row "
            "of variable names and one row per instance, separated by commas or tabs."
        )
    return frame


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
) -> Dataset:
    """Load a data file (CSV, TSV, whitespace text, Excel, Parquet) into a :class:`Dataset`.

    The first row must name the variables (or, with ``transpose``, the instances). A leading text
    column of unique labels is used as row labels. Missing cells (empty, NA, NaN, ?) are kept as
    missing. See :func:`from_frame` for the options.
    """
    frame = read_table(source, name=name)
    label = name or (os.fspath(source) if isinstance(source, (str, os.PathLike)) else getattr(source, "name", "upload"))
    return from_frame(
        frame,
        transpose=transpose,
        standardize=standardize,
        source=Path(str(label)).name,
        drop=drop,
        label_column=label_column,
        drop_non_numeric=drop_non_numeric,
        drop_constant=drop_constant,
        min_samples=min_samples,
        allow_constant=allow_constant,
    )
