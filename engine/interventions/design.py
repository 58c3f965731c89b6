"""The experimental design of interventional data: each row's condition and the variables it set.

Data from experiments (inhibitors, activators, knock-downs) come with a condition per row and a
targets table, condition -> intervened variables. A condition not in the table is observational
(general stimulation, controls). From both follows the *intervention mask*, rows x variables,
True where the experiment set the variable in that row: there the variable's family is left out
of the likelihood (the mutilated network of Cooper & Yoo 1999, the ``exp`` argument of bnlearn's
scores), see :mod:`engine.interventions.families`.

References
----------
.. [1] Cooper, Yoo. Causal discovery from a mixture of experimental and observational data.
   UAI 1999.
.. [2] Sachs, Perez, Pe'er, Lauffenburger, Nolan. Causal protein-signaling networks derived from
   multiparameter single-cell data. Science 308:523-529, 2005.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from ..exceptions import DataValidationError
from ..listing import first_few

__all__ = ["Interventions", "read_targets", "MIN_FAMILY_ROWS"]

#: a family must keep at least this many rows where its child was not set by the experiment
MIN_FAMILY_ROWS = 5


@dataclass(frozen=True, eq=False)
class Interventions:
    """Which variables an experiment set in which rows.

    Attributes
    ----------
    codes : ndarray of int, shape (M,)
        The condition of each row, as an index into ``condition_names``.
    condition_names : tuple of str
        The conditions, in order of first appearance.
    targets : tuple of (condition, variable name)
        The targets table as used (one entry per intervened variable of a condition).
    mask : ndarray of bool, shape (M, N)
        True where the row's condition set the variable (the intervention mask). Read-only.
    column : str
        Name of the condition column the conditions came from (for reports).
    intercepts : bool
        Give every family one intercept per condition (the explorer sets it here; the estimator's
        ``condition_intercept`` turns it on as well).
    """

    codes: np.ndarray
    condition_names: tuple[str, ...]
    targets: tuple[tuple[str, str], ...]
    mask: np.ndarray
    column: str = "condition"
    intercepts: bool = False

    def __post_init__(self) -> None:
        self.codes.setflags(write=False)
        self.mask.setflags(write=False)

    # ----------------------------------------------------------------- build
    @classmethod
    def from_labels(
        cls,
        conditions: Iterable,
        names: Sequence[str],
        targets: Iterable[tuple[str, str]] | dict | None,
        *,
        column: str = "condition",
        intercepts: bool = False,
        min_family_rows: int = MIN_FAMILY_ROWS,
    ) -> Interventions:
        """The design from one condition label per row and a targets table.

        ``targets``: pairs ``(condition, variable)``, or a dict condition -> variable name(s); a
        condition absent from it is observational. An unknown condition or variable name, a row
        without a condition, or a variable set in all but fewer than ``min_family_rows`` rows raises
        :class:`~engine.exceptions.DataValidationError` naming it.
        """
        labels = pd.Series(list(conditions), dtype=object)
        blank = labels.isna() | (labels.astype(str).str.strip() == "")
        if blank.any():
            raise DataValidationError(
                f"condition column {column!r}: row {int(np.flatnonzero(blank.to_numpy())[0]) + 2} has no condition "
                f"({int(blank.sum())} such row(s)); every row needs one."
            )
        labels = labels.astype(str).str.strip()
        codes, uniques = pd.factorize(labels, sort=False)
        cond_names = tuple(str(u) for u in uniques)
        pairs = _target_pairs(targets)
        unknown_c = sorted({c for c, _ in pairs if c not in cond_names})
        if unknown_c:
            raise DataValidationError(
                f"targets name condition(s) {first_few(unknown_c, 8, quote=True)} that do not occur in column "
                f"{column!r} "
                f"(its conditions: {first_few(list(cond_names), 8, quote=True)})."
            )
        names = [str(n) for n in names]
        unknown_v = sorted({t for _, t in pairs if t not in names})
        if unknown_v:
            raise DataValidationError(
                f"targets name variable(s) {first_few(unknown_v, 8, quote=True)} that are not in the data "
                f"(its variables: {first_few(names, 8, quote=True)})."
            )
        mask = np.zeros((len(codes), len(names)), dtype=bool)
        for cond, target in pairs:
            mask[:, names.index(target)] |= codes == cond_names.index(cond)
        kept = len(codes) - mask.sum(axis=0)
        short = np.flatnonzero(kept < min_family_rows)
        if short.size:
            raise DataValidationError(
                f"variable {names[short[0]]!r} is set by an experiment in {int(mask[:, short[0]].sum())} of "
                f"{len(codes)} rows: its family keeps {int(kept[short[0]])} rows, fewer than {min_family_rows}; "
                "add observational rows or drop it from the targets."
            )
        return cls(np.asarray(codes, dtype=np.intp), cond_names, tuple(pairs), mask, str(column), bool(intercepts))

    # ----------------------------------------------------------------- views
    @property
    def n_samples(self) -> int:
        return int(self.mask.shape[0])

    @property
    def family_rows(self) -> np.ndarray:
        """Rows each variable's family is scored on (those where its child was not set), shape (N,)."""
        return self.mask.shape[0] - self.mask.sum(axis=0)

    @property
    def any(self) -> bool:
        """Whether any row has an intervened variable (else the data are observational)."""
        return bool(self.mask.any())

    def left_out(self, variable: int) -> list[str]:
        """The conditions whose rows are left out of ``variable``'s family (they set it)."""
        codes = np.unique(self.codes[self.mask[:, variable]])
        return [self.condition_names[c] for c in codes]

    def condition_counts(self) -> dict[str, int]:
        """Rows per condition, in order of first appearance."""
        counts = np.bincount(self.codes, minlength=len(self.condition_names))
        return {name: int(n) for name, n in zip(self.condition_names, counts, strict=True)}

    def describe(self, names: Sequence[str]) -> dict:
        """The design as stored in the result JSON: the condition column, rows per condition, the
        targets used, and per family the rows it was scored on and the conditions left out."""
        rows = self.family_rows
        return {
            "column": self.column,
            "conditions": self.condition_counts(),
            "targets": [{"condition": c, "target": t} for c, t in self.targets],
            "family_rows": {str(n): int(rows[i]) for i, n in enumerate(names)},
            "left_out": {str(n): self.left_out(i) for i, n in enumerate(names) if self.mask[:, i].any()},
        }

    def condition_means(self, values: np.ndarray, names: Sequence[str]) -> dict:
        """``{condition: {variable: mean}}`` of ``values`` (rows x variables) within each condition:
        the per-condition intercepts of a model learned with ``condition_intercept``."""
        out = {}
        for c, cond in enumerate(self.condition_names):
            rows = self.codes == c
            if rows.any():
                out[cond] = {str(n): float(v) for n, v in zip(names, values[rows].mean(axis=0), strict=True)}
        return out

    def record(self, names: Sequence[str], values: np.ndarray, intercepts: bool) -> dict:
        """The ``interventions`` block of a learned network's JSON: :meth:`describe`, whether every
        family had one intercept per condition, and then the condition means of ``values`` (the
        data the model was fitted on), which ``score`` needs to evaluate those intercepts."""
        out = {**self.describe(names), "condition_intercept": bool(intercepts)}
        if intercepts:
            out["condition_means"] = self.condition_means(values, names)
        return out

    # ------------------------------------------------------------- derived
    def subset(self, rows) -> Interventions:
        """The design of the rows ``rows`` (bootstrap resamples keep each row's mask)."""
        return dataclasses.replace(self, codes=np.array(self.codes[rows]), mask=np.array(self.mask[rows]))

    def with_extra(self, n_extra: int) -> Interventions:
        """The design with ``n_extra`` more variables (hidden ones), never set by an experiment."""
        if n_extra <= 0:
            return self
        mask = np.hstack([self.mask, np.zeros((self.n_samples, n_extra), dtype=bool)])
        return dataclasses.replace(self, codes=np.array(self.codes), mask=mask)


def _target_pairs(targets) -> list[tuple[str, str]]:
    """The targets as a list of unique (condition, variable) pairs, stripped."""
    if targets is None:
        return []
    if isinstance(targets, pd.DataFrame):
        targets = _frame_pairs(targets, "targets")
    elif isinstance(targets, dict):
        targets = [(c, t) for c, ts in targets.items() for t in ([ts] if isinstance(ts, str) else ts)]
    out: list[tuple[str, str]] = []
    for pair in targets:
        if isinstance(pair, str) or len(pair) != 2:
            raise DataValidationError(f"targets: expected (condition, variable) pairs, got {pair!r}.")
        c, t = (str(x).strip() for x in pair)
        if c and t and (c, t) not in out:
            out.append((c, t))
    return out


def _frame_pairs(frame: pd.DataFrame, source: str) -> list[tuple[str, str]]:
    cols = {str(c).strip().lower(): c for c in frame.columns}
    if "condition" not in cols or "target" not in cols:
        raise DataValidationError(
            f"{source}: a targets table needs the columns 'condition' and 'target' "
            f"(one row per intervened variable); it has {first_few([str(c) for c in frame.columns], 8, quote=True)}."
        )
    sub = frame[[cols["condition"], cols["target"]]].dropna(how="all")
    bad = sub.isna().any(axis=1) | (sub.astype(str).apply(lambda s: s.str.strip()) == "").any(axis=1)
    if bad.any():
        raise DataValidationError(
            f"{source}: row {int(np.flatnonzero(bad.to_numpy())[0]) + 2} lacks a condition or a target."
        )
    return [(str(c).strip(), str(t).strip()) for c, t in sub.itertuples(index=False)]


def read_targets(path: str | os.PathLike) -> list[tuple[str, str]]:
    """Read a targets file: CSV with columns ``condition,target``, one row per intervened variable;
    lines starting with ``#`` and blank lines are ignored. Conditions not listed are observational."""
    try:
        frame = pd.read_csv(path, comment="#", dtype=str, skip_blank_lines=True, skipinitialspace=True)
    except FileNotFoundError:
        raise DataValidationError(f"targets file {os.fspath(path)!r} not found.") from None
    except (pd.errors.ParserError, pd.errors.EmptyDataError, UnicodeDecodeError) as exc:
        raise DataValidationError(f"targets file {os.fspath(path)!r} cannot be read as CSV ({exc}).") from None
    return _frame_pairs(frame, f"targets file {os.path.basename(os.fspath(path))!r}")
