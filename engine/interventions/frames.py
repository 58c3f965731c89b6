"""Reading interventional data: the condition column out of a table, the design onto a Dataset."""

from __future__ import annotations

import dataclasses
import os

import numpy as np
import pandas as pd

from ..data import Dataset
from ..exceptions import DataValidationError, ParameterError
from ..io import as_dataset, from_frame, read_table, source_label
from ..listing import first_few
from .design import Interventions, read_targets

__all__ = ["split_condition", "attach_conditions", "with_design", "load_with_conditions", "scoring_design"]


def split_condition(frame: pd.DataFrame, column: str, source: str = "table") -> tuple[pd.DataFrame, list]:
    """``frame`` without its condition column, and that column's labels (one per row). The
    condition column is not a variable. A missing column raises a message naming the columns."""
    wanted = str(column).strip()
    cols = [str(c).strip() for c in frame.columns]
    if wanted not in cols:
        raise DataValidationError(
            f"{source}: no condition column named {wanted!r} (columns: {first_few(cols, 8, quote=True)})."
        )
    pos = cols.index(wanted)
    labels = frame.iloc[:, pos].tolist()
    rest = frame.iloc[:, [i for i in range(frame.shape[1]) if i != pos]]
    rest.attrs = dict(frame.attrs)
    return rest, labels


def attach_conditions(
    dataset: Dataset, conditions, targets, *, column: str = "condition", intercepts: bool = False
) -> Dataset:
    """``dataset`` with its experimental design (:class:`Interventions`) from one condition label
    per row and the targets table (pairs, a dict or a DataFrame with ``condition,target``);
    ``intercepts``: one intercept per condition in every family."""
    conditions = list(conditions)
    if len(conditions) != dataset.n_samples:
        raise DataValidationError(
            f"{len(conditions)} condition labels for {dataset.n_samples} rows of {dataset.source or 'the data'}."
        )
    design = Interventions.from_labels(conditions, dataset.names, targets, column=column, intercepts=intercepts)
    note = (
        f"conditions from column {column!r}: {len(design.condition_names)} conditions, "
        f"{len(design.targets)} intervention target(s)"
    )
    return dataclasses.replace(dataset, interventions=design, notes=(*dataset.notes, note))


def with_design(data, condition=None, targets=None) -> Dataset:
    """``data`` (Dataset, DataFrame or array) as a Dataset carrying its experimental design.

    ``condition``: the name of a DataFrame column holding each row's condition (that column is
    then not a variable), or one label per row. ``targets``: pairs ``(condition, variable)``, a
    dict condition -> variable(s), a DataFrame with ``condition,target`` columns or the path of
    such a CSV. Without ``condition`` the data are returned as they are (a Dataset keeps the design
    it carries).
    """
    if condition is None:
        if targets is not None:
            raise ParameterError("`targets` needs `condition`: the column (or labels) naming each row's condition.")
        return as_dataset(data)
    if isinstance(targets, str | os.PathLike):
        targets = read_targets(targets)
    if isinstance(condition, str):
        if not isinstance(data, pd.DataFrame):
            raise ParameterError(
                f"`condition` == {condition!r} names a column, which needs a DataFrame; for an array or a "
                "Dataset pass one condition label per row."
            )
        rest, labels = split_condition(data, condition, "DataFrame")
        return attach_conditions(as_dataset(rest), labels, targets, column=condition)
    return attach_conditions(as_dataset(data), condition, targets)


def load_with_conditions(
    source,
    column: str | None,
    targets_path=None,
    *,
    transpose: bool = False,
    standardize: bool = True,
    drop=(),
    name: str | None = None,
    **options,
) -> Dataset:
    """Load a data file whose column ``column`` names each row's condition (not a variable), with
    the targets file ``targets_path`` (CSV ``condition,target``; :func:`read_targets`; None: every
    condition observational). Standardization is on the pooled rows of all conditions.
    ``options``: passed to :func:`engine.io.from_frame` (e.g. ``rename_repeats``)."""
    if column is None:
        raise ParameterError("--targets needs --condition COLUMN: the column naming each row's condition.")
    if transpose:
        raise ParameterError("--condition names a column of conditions: it cannot be used with --transpose.")
    label = source_label(source, name)
    rest, labels = split_condition(read_table(source, name=name), column, label)
    dataset = from_frame(rest, standardize=standardize, source=label, drop=tuple(drop), **options)
    targets = read_targets(targets_path) if targets_path is not None else []
    return attach_conditions(dataset, labels, targets, column=str(column).strip())


def scoring_design(
    frame: pd.DataFrame,
    column: str,
    targets,
    *,
    source: str,
    drop=(),
    min_samples: int = 1,
    allow_constant=True,
    **options,
) -> tuple[Dataset, list[str]]:
    """Held-out data for ``score``: ``frame`` (raw cells, original scale) without its condition
    column, carrying its design, and notes for the user.

    Unlike :func:`load_with_conditions`, a target whose condition does not occur in these rows is
    skipped (held-out data may hold only some conditions; a note says which) and a family may keep
    no row at all (it then adds nothing to the score)."""
    rest, labels = split_condition(frame, column, source)
    dataset = from_frame(
        rest,
        standardize=False,
        source=source,
        drop=tuple(drop),
        min_samples=min_samples,
        allow_constant=allow_constant,
        **options,
    )
    present = {str(x).strip() for x in labels if not pd.isna(x)}
    pairs = [(str(c).strip(), str(t).strip()) for c, t in (targets or [])]
    absent = sorted({c for c, _ in pairs if c not in present})
    design = Interventions.from_labels(
        labels, dataset.names, [p for p in pairs if p[0] not in absent], column=column, min_family_rows=0
    )
    notes = [
        f"conditions from column {column!r}: {len(design.condition_names)} conditions, "
        f"{int(np.count_nonzero(design.mask.any(axis=0)))} variable(s) set by an experiment in some rows"
    ]
    if absent:
        notes.append(f"targets of condition(s) not in these rows skipped: {first_few(absent, 8, quote=True)}")
    return dataclasses.replace(dataset, interventions=design), notes
