"""Input validation shared by the engine, the CLI and the app.

Every check raises a subclass of :class:`~engine.exceptions.IdealParentError` whose message names the
input, the offender and, where there is one, the fix (scikit-learn's ``check_array`` / ``check_scalar``
habit). Nothing here modifies the caller's data.
"""

from __future__ import annotations

import warnings
from collections.abc import Iterable, Sequence
from numbers import Integral, Real

import numpy as np

from .exceptions import DataValidationError, ParameterError
from .listing import first_few

__all__ = [
    "check_edge_pairs",
    "check_data",
    "check_scalar",
    "check_choice",
    "check_random_state",
    "check_names",
    "check_standardizable",
    "constant_variables",
    "identical_columns",
    "MIN_SAMPLES",
]

#: Fewer instances than this cannot fit a family with an intercept and a variance.
MIN_SAMPLES = 3

#: Larger magnitudes overflow when squared (scatter matrices, variances).
MAX_ABS_VALUE = 1e150


def check_names(names: Iterable[object], *, input_name: str = "data") -> tuple[str, ...]:
    """Return the variable names as strings; reject empty and duplicate names.

    Names are labels, never code: ``"YR.GLASS"``, ``"1B"``, ``"a b"`` and ``0`` are all fine.
    """
    out = tuple(str(n).strip() for n in names)
    empty = [i for i, n in enumerate(out) if n == "" or n.lower() == "nan"]
    if empty:
        raise DataValidationError(
            f"{input_name}: column(s) at position {', '.join(str(i + 1) for i in empty)} have no name; "
            "give every variable a header."
        )
    seen: dict[str, int] = {}
    dups: list[str] = []
    for n in out:
        seen[n] = seen.get(n, 0) + 1
        if seen[n] == 2:
            dups.append(n)
    if dups:
        raise DataValidationError(
            f"{input_name}: duplicate variable name(s) {first_few(dups, quote=True)}; every variable needs a "
            "unique name (CLI: --number-repeats numbers them, e.g. two probes of one gene)."
        )
    return out


def check_data(
    values: np.ndarray,
    names: Sequence[str],
    *,
    input_name: str = "data",
    min_samples: int = MIN_SAMPLES,
    allow_missing: bool = True,
    allow_constant: bool = False,
) -> None:
    """Validate a numeric (instances x variables) matrix; raise on the first problem found.

    Checks, in order: two dimensions, at least ``min_samples`` rows and 1 column, no infinities,
    no all-missing variable, (unless ``allow_constant``, e.g. to score held-out data) no constant
    variable (zero variance over its observed cells), and (if ``allow_missing`` is false) no
    missing cell. Messages name the offending variables.
    """
    if values.ndim != 2:
        raise DataValidationError(f"{input_name}: expected a table (2-D), got {values.ndim}-D data.")
    n_samples, n_vars = values.shape
    if n_vars == 0:
        raise DataValidationError(f"{input_name}: the table has no numeric columns.")
    if n_samples < min_samples:
        raise DataValidationError(
            f"{input_name}: {n_samples} instance(s) (rows), at least {min_samples} are needed. "
            "If variables are in rows (genes x conditions), load with transpose (CLI: --transpose)."
        )
    inf_cols = np.flatnonzero(_column_reduce(values, lambda block: np.isinf(block).any(axis=0)))
    if inf_cols.size:
        row, col = (int(v) for v in np.argwhere(np.isinf(values))[0])  # the first in reading order
        raise DataValidationError(
            f"{input_name}: variable(s) {first_few([names[i] for i in inf_cols], quote=True)} contain infinite "
            f"values (the first: instance {row + 1} of {names[col]!r}); replace or remove them."
        )
    with np.errstate(invalid="ignore"):
        huge = np.flatnonzero(
            _column_reduce(values, lambda block: np.fmax.reduce(np.abs(block), axis=0)) > MAX_ABS_VALUE
        )
    if huge.size:
        raise DataValidationError(
            f"{input_name}: variable(s) {first_few([names[i] for i in huge], quote=True)} have values beyond "
            f"{MAX_ABS_VALUE:.0e}, whose squares overflow double precision; rescale them (e.g. log) first."
        )
    missing = np.isnan(values)
    all_missing = np.flatnonzero(missing.all(axis=0))
    if all_missing.size:
        raise DataValidationError(
            f"{input_name}: variable(s) {first_few([names[i] for i in all_missing], quote=True)} have no observed "
            "values; remove them."
        )
    if not allow_missing and missing.any():
        from .exceptions import MissingValuesError

        cols = np.flatnonzero(missing.any(axis=0))
        raise MissingValuesError(
            f"{input_name}: {int(missing.sum())} missing cell(s) in column(s) "
            f"{first_few([names[i] for i in cols], quote=True)}; this operation needs complete data."
        )
    if allow_constant:
        return
    constant = constant_variables(values)
    if constant.size and constant.size == values.shape[1] and values.shape[1] > 1:
        # nothing would be left to drop to: the rows repeat one instance (a fill value, a pasted row)
        raise DataValidationError(
            f"{input_name}: every variable is constant (each has one value in all {values.shape[0]} instances): "
            "there is no variation to learn a network from; check that the right file or sheet was loaded."
        )
    if constant.size:
        raise DataValidationError(
            f"{input_name}: variable(s) {first_few([names[i] for i in constant], quote=True)} are constant "
            "(zero variance): they cannot take part in a network; drop them before learning "
            "(CLI: --drop NAME, or --skip-unusable)."
        )


def _column_reduce(values: np.ndarray, reduce, cells: int = 1 << 22) -> np.ndarray:
    """``reduce`` (block -> one value per column) over blocks of about ``cells`` cells each, so
    that its temporaries stay small on a tall table (millions of rows, #14)."""
    step = max(1, cells // max(1, values.shape[0]))
    return np.concatenate(
        [np.asarray(reduce(values[:, j : j + step])) for j in range(0, values.shape[1], step)] or [np.zeros(0)]
    )


def constant_variables(values: np.ndarray) -> np.ndarray:
    """Indices of the columns with fewer than two observed cells or no spread among them."""
    missing = np.isnan(values)
    with np.errstate(invalid="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # all-missing columns
        spread = np.nanmax(values, axis=0) - np.nanmin(values, axis=0)
    observed = (~missing).sum(axis=0)
    return np.flatnonzero((spread == 0) | (observed < 2))


def identical_columns(values: np.ndarray, limit: int = 5) -> list[list[int]]:
    """Groups (at most ``limit``) of column indices whose values are identical, missing cells included.

    A copy explains its original exactly, so its family's variance hits the numerical floor and
    the score is meaningless.
    """
    if values.ndim != 2 or values.shape[1] < 2:
        return []
    # columns grouped by a hash of their bytes, then compared exactly: np.unique(axis=1) sorts
    # whole columns as one structured value and takes minutes on millions of rows (#14)
    groups: dict[int, list[int]] = {}
    for j in range(values.shape[1]):
        col = np.where(np.isnan(values[:, j]), np.inf, values[:, j]) + 0.0  # NaN == NaN here; -0.0 == 0.0
        groups.setdefault(hash(col.tobytes()), []).append(j)
    out: list[list[int]] = []
    for members in groups.values():
        while len(members) > 1 and len(out) < limit:
            first = values[:, members[0]]
            same = [j for j in members if np.array_equal(values[:, j], first, equal_nan=True)]
            if len(same) > 1:
                out.append(same)
            members = [j for j in members if j not in same]
    return sorted(out)[:limit]


def check_standardizable(
    means: np.ndarray, scales: np.ndarray, names: Sequence[str], *, input_name: str = "data"
) -> None:
    """Refuse variables whose mean or spread is not a finite positive double (e.g. overflowed)."""
    bad = np.flatnonzero(~(np.isfinite(means) & np.isfinite(scales) & (scales > 0)))
    if bad.size:
        raise DataValidationError(
            f"{input_name}: variable(s) {', '.join(repr(names[i]) for i in bad[:6])} cannot be standardized: "
            "their spread overflows or underflows double precision; rescale them first."
        )


def check_scalar(
    value: object,
    name: str,
    kind: type | tuple[type, ...],
    *,
    min_val: float | None = None,
    max_val: float | None = None,
    allow_none: bool = False,
) -> None:
    """Check a setting's type and range; the message names the setting (``k`` == 0, must be >= 1)."""
    if value is None and allow_none:
        return
    kinds = kind if isinstance(kind, tuple) else (kind,)
    accept = tuple({int: Integral, float: Real}.get(k, k) for k in kinds)
    if isinstance(value, bool) or not isinstance(value, accept):
        expected = " or ".join(k.__name__ for k in kinds)
        raise ParameterError(f"`{name}` must be {expected}, got {type(value).__name__} ({value!r}).")
    if min_val is not None and value < min_val:  # type: ignore[operator]
        raise ParameterError(f"`{name}` == {value}, must be >= {min_val}.")
    if max_val is not None and value > max_val:  # type: ignore[operator]
        raise ParameterError(f"`{name}` == {value}, must be <= {max_val}.")


def check_random_state(rs: object) -> None:
    """``random_state`` must be None, a non-negative int, a numpy Generator or a SeedSequence."""
    if rs is None or isinstance(rs, np.random.Generator | np.random.SeedSequence):
        return
    if isinstance(rs, bool) or not isinstance(rs, Integral) or rs < 0:
        raise ParameterError(f"`random_state` must be None, a non-negative int or a numpy Generator, got {rs!r}.")


def check_choice(value: object, name: str, choices: Sequence[str]) -> str:
    """Check that a string setting is one of ``choices`` (case-insensitive); return it lower-cased."""
    if not isinstance(value, str) or value.lower() not in choices:
        raise ParameterError(f"`{name}` == {value!r}, must be one of {', '.join(repr(c) for c in choices)}.")
    return value.lower()


def check_edge_pairs(pairs, what: str) -> list[tuple[str, str]]:
    """``pairs`` as a list of (parent, child) names; a clear error for anything else."""
    if isinstance(pairs, str | bytes):
        raise ParameterError(f"`{what}` must be a list of (parent, child) pairs, got the string {pairs!r}.")
    try:
        items = list(pairs)
    except TypeError:
        raise ParameterError(f"`{what}` must be a list of (parent, child) pairs, got {pairs!r}.") from None
    out = []
    for item in items:
        if isinstance(item, str | bytes) or not hasattr(item, "__len__") or len(item) != 2:
            raise ParameterError(f"`{what}` must hold (parent, child) pairs; got {item!r}.")
        out.append((str(item[0]), str(item[1])))
    return out
