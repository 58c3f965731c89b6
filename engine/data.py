"""The :class:`Dataset` type and building one from an array.

A :class:`Dataset` is M instances x N variables (columns are variables), float64, with missing cells
kept as NaN and flagged in ``missing``. Standardization (each variable to mean 0 and variance 1 over
its observed cells) is on by default: the paper's C1/C2 use uncentred profiles (Elidan et al., JMLR
2007, section 3.2), and on centred data the centring question disappears.

Reading files and DataFrames (formats, orientation, label columns, notes on how a file was read) is
:mod:`engine.io`; the checks that refuse bad data are :mod:`engine._validation`.

Nothing here modifies the caller's data: :func:`from_array` copies, and the stored arrays are read-only.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from ._validation import (
    MIN_SAMPLES,
    check_data,
    check_names,
    check_standardizable,
    constant_variables,
    identical_columns,
)
from .exceptions import DataValidationError
from .listing import first_few

__all__ = ["Dataset", "from_array", "drop_constant_variables", "mean_filled"]

#: tables with more cells than this are standardized column by column, in place
_LARGE_CELLS = 1 << 22


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
    generated_names : {"variables", "instances"} or None
        Which axis has names the loader made up because the file had no header line
        (:func:`engine.io.header.headerless`: ``V1..`` for variables, ``sample1..`` for instances);
        None when every name came from the file. Turning the data round moves the flag with them.
    interventions : engine.interventions.Interventions or None
        The experimental condition of each row and which variables it set (the intervention mask),
        when the data come from experiments (:mod:`engine.interventions`); None: observational.
    covariates : tuple of str
        The variables that are sample annotations (batch...), parents only
        (:func:`engine.io.covariates.add_covariates`); empty for data as loaded.
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
    interventions: Any = None
    generated_names: str | None = None
    covariates: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if self.generated_names not in (None, "variables", "instances"):
            raise ValueError(
                f"`generated_names` must be 'variables', 'instances' or None, got {self.generated_names!r}."
            )
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

    def with_columns(self, names, values: np.ndarray, missing: np.ndarray | None = None) -> Dataset:
        """This data set with ``values`` (M x N') over ``names``: its own columns first, then extra
        ones (hidden variables) kept on their own scale (mean 0, scale 1 in the transform)."""
        extra = len(names) - self.n_vars
        return Dataset(
            names=tuple(names),
            values=np.array(values, dtype=float),
            missing=np.zeros(np.shape(values), dtype=bool) if missing is None else np.array(missing),
            standardized=self.standardized,
            means=np.concatenate([self.means, np.zeros(extra)]),
            scales=np.concatenate([self.scales, np.ones(extra)]),
            instance_labels=self.instance_labels,
            source=self.source,
            interventions=None if self.interventions is None else self.interventions.with_extra(extra),
            generated_names=self.generated_names,
            covariates=self.covariates,
        )

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
            interventions=None if self.interventions is None else self.interventions.subset(rows),
            generated_names=self.generated_names,
            covariates=self.covariates,
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
    copy: bool = True,
    generated_names: str | None = None,
) -> Dataset:
    """Build a Dataset from an (instances x variables) array-like; the input is copied (unless
    ``copy=False``: a float64 array the caller hands over and no longer uses, e.g. a fresh one).

    ``drop_constant`` leaves out constant variables (saying so in ``notes``) instead of refusing
    the data; ``min_samples`` and ``allow_constant`` relax the checks for data that is only
    scored under a saved model (a single held-out instance, a column the model does not use).
    ``generated_names`` says which axis the loader named (:attr:`Dataset.generated_names`).
    """
    try:
        arr = np.array(values, dtype=np.float64, copy=True) if copy else np.asarray(values, dtype=np.float64)
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
        arr, names_t = drop_constant_variables(arr, names_t, notes_l)
    check_data(arr, names_t, input_name=source, min_samples=min_samples, allow_constant=allow_constant)
    missing = np.isnan(arr)
    notes_l.extend(_identical_notes(arr, names_t))
    means = np.zeros(arr.shape[1])
    scales = np.ones(arr.shape[1])
    if standardize:
        with np.errstate(over="ignore", invalid="ignore", divide="ignore", under="ignore"):
            if arr.size <= _LARGE_CELLS:
                means = np.nanmean(arr, axis=0)
                scales = np.nanstd(arr, axis=0)
                arr = (arr - means) / scales
            else:  # column by column, in place (``arr`` is a copy): nanstd would need copies of it (#14)
                means = np.empty(arr.shape[1])
                scales = np.empty(arr.shape[1])
                for j in range(arr.shape[1]):
                    col = arr[:, j]
                    means[j] = np.nanmean(col)
                    col -= means[j]
                    scales[j] = np.sqrt(np.nanmean(col * col))
                    col /= scales[j]
        check_standardizable(means, scales, names_t, input_name=source)
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
        generated_names=generated_names,
    )


def mean_filled(dataset: Dataset) -> np.ndarray:
    """``dataset``'s values with each missing cell at its variable's mean over its observed cells:
    where structural EM starts (JMLR 2007 section 6; :class:`engine.hidden.em.StructuralEM`), and the
    explorer's cells held until the orientation is settled (``explorer/prepared.py``). A variable with
    no observed cell gets 0 (the mean of standardized data)."""
    values = np.asarray(dataset.values, dtype=float)
    seen = ~np.asarray(dataset.missing, dtype=bool)
    means = np.where(seen, values, 0.0).sum(axis=0) / np.maximum(seen.sum(axis=0), 1)
    return np.where(seen, values, means)


def drop_constant_variables(
    arr: np.ndarray, names: tuple[str, ...], notes: list[str]
) -> tuple[np.ndarray, tuple[str, ...]]:
    """``arr`` and ``names`` without their constant variables, noted in ``notes`` (all of them
    constant: left as they are, for :func:`check_data` to name). Shared with :func:`engine.io.from_frame`."""
    constant = constant_variables(arr)
    if not constant.size or constant.size == arr.shape[1]:
        return arr, names
    keep = np.setdiff1d(np.arange(arr.shape[1]), constant)
    notes.append(
        f"left out constant variable(s) {first_few([names[i] for i in constant[:10]], 10, total=constant.size)}"
        " (zero variance: they cannot take part in a network)"
    )
    return arr[:, keep], tuple(names[i] for i in keep)


def _identical_notes(arr: np.ndarray, names: tuple[str, ...]) -> list[str]:
    """A note per group of variables with identical values (see :func:`identical_columns`)."""
    return [
        f"variables {', '.join(repr(names[i]) for i in group)} have identical values: each explains the other "
        "exactly (drop the copies)"
        for group in identical_columns(arr)
    ]
