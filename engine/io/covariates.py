"""Sample annotations (covariates: batch, RIN, sex...) as observed parents.

A biologist who knows the batches of an expression study gives them, as with limma's design matrix
or ComBat's ``batch``, rather than letting the hidden-variable search rediscover them as hidden
"regulators". The covariate table is a CSV/TSV whose first column holds the instance ids of the
data (its row labels; after ``--transpose`` the column names of the file) and whose other columns
are annotations:

* a numeric column is used as it is (standardized with the data when the data are);
* a non-numeric column is categorical: its levels sorted, the first is the reference and each other
  level ``L`` of column ``C`` becomes an indicator variable ``C=L`` (1 on its instances, else 0),
  the treatment coding of a linear model's design matrix.

The covariates are appended to the data as variables that may only be parents, named in
:attr:`Dataset.covariates`, which the estimator and structural EM read (:mod:`engine.parent_only`:
no edge into them, from genes or hidden variables; never a hidden variable's child). Every problem is one
:class:`~engine.exceptions.DataValidationError` naming it: an instance without a row, a repeated id, a
constant column, a missing value, a name that clashes with a variable.
"""

from __future__ import annotations

import csv
import dataclasses
import os
from collections import Counter
from dataclasses import dataclass
from io import StringIO
from pathlib import Path

import numpy as np
import pandas as pd

from ..data import Dataset
from ..exceptions import DataValidationError
from ..listing import first_few
from .files import decode_text

__all__ = [
    "Covariates",
    "read_covariates",
    "read_covariate_table",
    "code_covariates",
    "code_for_model",
    "add_covariates",
    "with_covariates",
    "without_covariates",
    "ids_name_variables",
]


@dataclass(frozen=True)
class Covariates:
    """Coded covariates, one row per instance of the data (in the data's order)."""

    #: the variables added to the data (indicators ``column=level`` and numeric columns)
    names: tuple[str, ...]
    #: M x C values, float
    values: np.ndarray
    #: what each annotation column became, e.g. ``batch (3 levels -> 2 indicators)``, ``rin (numeric)``
    described: tuple[str, ...]
    source: str = ""
    #: ids of the table's rows for samples not in the data (not used)
    unused: tuple[str, ...] = ()
    #: annotations not used, each with why (a GEO field the same on every sample: engine.io.geo_samples)
    skipped: tuple[str, ...] = ()

    def summary(self) -> str:
        return ", ".join(self.described)

    def line(self) -> str:
        """What was read, as the CLI and the explorer say it: each column's coding and the variables added."""
        rest = (
            f"; {len(self.unused)} row(s) for samples not in the data not used: {first_few(self.unused, 5)}"
            if self.unused
            else ""
        )
        rest += f"; skipped {', '.join(self.skipped)}" if self.skipped else ""
        return f"{self.summary()}; parents only ({len(self.names)} variable(s) added: {', '.join(self.names)}){rest}"


def code_covariates(
    frame: pd.DataFrame, instances, variables=(), *, source: str = "covariate table", categorical=()
) -> Covariates:
    """Code the annotations of ``frame`` (first column: instance ids; cells as text) for the
    instances ``instances`` (the data's row labels, in order), checking them (module docstring).
    The columns named in ``categorical`` are coded as levels even when they hold numbers (batch 1, 2, 3)."""
    rows, unused = _matched_rows(frame, instances, source)
    names: list[str] = []
    columns: list[np.ndarray] = []
    described: list[str] = []
    for col in rows.columns:
        label = str(col).strip()
        text = _cells(rows, col, source)
        numbers = pd.to_numeric(text, errors="coerce")
        if numbers.notna().all() and label not in set(categorical):
            if numbers.nunique() < 2:
                raise DataValidationError(f"{source}: column {label!r} is constant: it cannot explain anything.")
            names.append(label)
            columns.append(numbers.to_numpy(dtype=float))
            described.append(f"{label} (numeric)")
            continue
        levels = sorted(text.unique())
        if len(levels) < 2:
            raise DataValidationError(f"{source}: column {label!r} is constant: it cannot explain anything.")
        for level in levels[1:]:  # the first level (sorted) is the reference
            names.append(f"{label}={level}")
            columns.append((text == level).to_numpy(dtype=float))
        k = len(levels) - 1
        described.append(f"{label} ({k + 1} levels -> {k} indicator{'s' * (k > 1)}, reference {levels[0]})")
    clash = [n for n in names if n in set(map(str, variables))]
    if clash or len(set(names)) < len(names):
        raise DataValidationError(
            f"{source}: covariate name(s) clash with variables of the data or with each other: "
            f"{first_few(clash or [n for n in names if names.count(n) > 1], 5)}."
        )
    return Covariates(tuple(names), np.column_stack(columns), tuple(described), source, unused)


def sheet_ids(frame: pd.DataFrame, instances, source: str, what: str) -> tuple[list[str], list[str]]:
    """The sheet ``frame``'s instance ids (its first column) and the data's ``instances``, as stripped
    text; a sheet without a ``what`` column (annotation, trait), data without instance labels or an id
    listed twice is one error each. Shared by the covariate and the trait sheets."""
    if frame.shape[1] < 2:
        raise DataValidationError(f"{source}: needs an instance-id column and at least one {what} column.")
    if instances is None:
        raise DataValidationError(f"{source}: the data have no instance labels to match the sheet's ids to.")
    ids = [str(i).strip() for i in frame.iloc[:, 0]]
    repeated = sorted(i for i, n in Counter(ids).items() if n > 1)
    if repeated:
        raise DataValidationError(f"{source}: instance id(s) listed twice: {first_few(repeated, 5)}.")
    return ids, [str(i).strip() for i in instances]


def _matched_rows(frame: pd.DataFrame, instances, source: str) -> pd.DataFrame:
    """The annotation columns of ``frame`` (names stripped), one row per instance of ``instances`` in
    their order, and the ids of rows for samples not in the data (not used: a sample sheet often
    lists the whole study); an instance without a row or an id listed twice is one error each."""
    ids, wanted = sheet_ids(frame, instances, source, "annotation")
    missing = [i for i in wanted if i not in set(ids)]
    if missing:
        raise DataValidationError(
            f"{source}: no row for {len(missing)} instance(s) of the data: {first_few(missing, 5)}."
        )
    unused = tuple(i for i in ids if i not in set(wanted))  # a sample sheet of the whole study: noted
    rows = frame.set_axis(ids, axis=0).iloc[:, 1:].loc[wanted]
    return rows.set_axis([str(c).strip() for c in rows.columns], axis=1), unused


def _cells(rows: pd.DataFrame, col: str, source: str) -> pd.Series:
    """Column ``col`` as stripped text; a missing value is an error naming the instances."""
    cells = rows[col]
    blank = cells.isna() | (cells.astype(str).str.strip() == "")
    if blank.any():
        raise DataValidationError(
            f"{source}: column {col!r} has missing values (at {first_few(cells.index[blank.to_numpy()], 5)})."
        )
    return cells.astype(str).str.strip()


def code_for_model(frame: pd.DataFrame, instances, names, *, source: str = "covariate table") -> Covariates:
    """The covariate variables ``names`` of a learned model (``settings.parent_only``: indicators
    ``column=level`` and numeric columns) coded from ``frame`` for ``instances``, as ``learn`` coded
    them, for scoring new samples: a level the model has an indicator for may be absent (its
    indicator is then 0) and a column may be constant. At most one level of a column may be
    outside the model's indicators (the reference level learn chose); more is an error naming
    them, since those samples cannot be coded."""
    rows, unused = _matched_rows(frame, instances, source)
    columns, described, done = [], [], set()
    for name in names:
        col, _, level = name.partition("=")
        if name in rows.columns:  # a numeric covariate
            numbers = pd.to_numeric(_cells(rows, name, source), errors="coerce")
            if numbers.isna().any():
                raise DataValidationError(
                    f"{source}: column {name!r} is not numeric, as the model's covariate {name} is."
                )
            columns.append(numbers.to_numpy(dtype=float))
            described.append(f"{name} (numeric)")
            continue
        if not level or col not in rows.columns:
            raise DataValidationError(
                f"{source}: no column {(col if level else name)!r} for the model's covariate {name}."
            )
        text = _cells(rows, col, source)
        columns.append((text == level).to_numpy(dtype=float))
        if col in done:
            continue
        done.add(col)
        known = [n.partition("=")[2] for n in names if n.partition("=")[0] == col and "=" in n]
        other = sorted(set(text) - set(known))
        # learn's reference is the first level sorted: one that sorts after an indicator's level is not it
        if len(other) > 1 or (other and other[0] > min(known)):
            raise DataValidationError(
                f"{source}: column {col!r} has levels {', '.join(other)} the model does not know (it has indicators "
                f"for {', '.join(known)} and one reference level, sorted before them): these samples cannot be "
                "coded as it was learned."
            )
        ref = f"; {other[0]}: the reference" if other else ""
        described.append(f"{', '.join(f'{col}={k}' for k in known)} (indicators of {col}{ref})")
    values = np.column_stack(columns) if columns else np.zeros((len(rows), 0))
    return Covariates(tuple(names), values, tuple(described), source, unused)


def read_covariates(path: str | os.PathLike, dataset: Dataset) -> Covariates:
    """The covariate table at ``path`` coded for ``dataset``'s instances (:func:`code_covariates`)."""
    label = Path(path).name
    frame = read_covariate_table(path, label)
    return code_covariates(frame, dataset.instance_labels, dataset.names, source=label)


def read_covariate_table(source, label: str) -> pd.DataFrame:
    """The covariate table in ``source`` (a path or a binary file object), every cell as text, the
    separator sniffed; a missing file or one that is not a CSV/TSV table is one error naming ``label``."""
    if not hasattr(source, "read") and not Path(source).is_file():
        raise DataValidationError(f"{label}: no such covariate file.")
    raw = source.read() if hasattr(source, "read") else Path(source).read_bytes()
    text = decode_text(raw if isinstance(raw, bytes) else raw.encode(), label, "is not a text table (CSV or TSV).")
    try:  # the separators a table uses (the csv sniffer alone may split a one-column file on a letter)
        sep = csv.Sniffer().sniff("\n".join(text.splitlines()[:20]), delimiters=",\t;|").delimiter
    except csv.Error:
        sep = ","
    header = next(csv.reader(text.splitlines()[:1], delimiter=sep), [])
    repeated = sorted({h.strip() for h in header if h.strip() and [g.strip() for g in header].count(h.strip()) > 1})
    if repeated:  # pandas would rename the second one 'batch.1' silently
        raise DataValidationError(f"{label}: column name(s) repeated in the header: {', '.join(repeated)}.")
    try:
        frame = pd.read_csv(StringIO(text), sep=sep, dtype=str)
    except (ValueError, pd.errors.ParserError, pd.errors.EmptyDataError) as exc:
        raise DataValidationError(f"{label}: does not read as a CSV/TSV table ({exc}).") from None
    # trailing separators (a sheet saved from Excel): unnamed columns without a value are not annotations
    blank = [c for c in frame.columns[1:] if str(c).startswith("Unnamed: ") and frame[c].isna().all()]
    return frame.drop(columns=blank)


def add_covariates(dataset: Dataset, cov: Covariates) -> Dataset:
    """``dataset`` with the covariates appended as variables (standardized when the data are; the
    transform kept so that the original values can be recovered)."""
    vals = cov.values
    means = vals.mean(axis=0) if dataset.standardized else np.zeros(vals.shape[1])
    scales = vals.std(axis=0) if dataset.standardized else np.ones(vals.shape[1])
    return Dataset(
        names=dataset.names + cov.names,
        values=np.column_stack([dataset.values, (vals - means) / scales]),
        missing=np.column_stack([dataset.missing, np.zeros(vals.shape, dtype=bool)]),
        standardized=dataset.standardized,
        means=np.concatenate([dataset.means, means]),
        scales=np.concatenate([dataset.scales, scales]),
        instance_labels=dataset.instance_labels,
        source=dataset.source,
        notes=dataset.notes + (f"covariates added: {cov.summary()}",),
        interventions=None if dataset.interventions is None else dataset.interventions.with_extra(vals.shape[1]),
        generated_names=dataset.generated_names,
        covariates=dataset.covariates + tuple(cov.names),
    )


def with_covariates(regulators: list[str] | None, covariates) -> list[str] | None:
    """The candidate regulators with the covariates added, so that genes may take them as parents
    (None stays None: every variable may be a parent)."""
    if regulators is None:
        return None
    return [*regulators, *(c for c in covariates if c not in regulators)]


def without_covariates(dataset: Dataset) -> Dataset:
    """``dataset`` without the covariate columns :func:`add_covariates` appended (the data's own
    columns, transform and design as they were), e.g. before the data are turned round: the
    covariates annotate the instances, which a transpose makes the variables."""
    if not dataset.covariates:
        return dataset
    keep = np.array([n not in set(dataset.covariates) for n in dataset.names])
    design = dataset.interventions
    return dataclasses.replace(
        dataset,
        names=tuple(n for n, k in zip(dataset.names, keep, strict=True) if k),
        values=np.array(dataset.values[:, keep]),
        missing=np.array(dataset.missing[:, keep]),
        means=np.array(dataset.means[keep]),
        scales=np.array(dataset.scales[keep]),
        interventions=None if design is None else dataclasses.replace(design, mask=np.array(design.mask[:, keep])),
        notes=tuple(n for n in dataset.notes if not n.startswith("covariates added")),
        covariates=(),
    )


def ids_name_variables(frame: pd.DataFrame, dataset: Dataset) -> bool:
    """Whether the covariate table's ids (first column) are the variables of ``dataset`` rather than
    its instances: the samples are its columns (a genes x samples file not turned round yet)."""
    ids = {str(i).strip() for i in frame.iloc[:, 0]} if frame.shape[1] else set()
    labels = {str(i) for i in dataset.instance_labels or ()}
    return bool(ids) and ids <= set(dataset.names) and not ids <= labels
