"""Exceptions and warnings raised by the engine.

Every error a user can cause (bad data, bad settings, an impossible move) is an
:class:`IdealParentError`; the CLI and the app catch only this base class and show
its message. Anything else escaping the engine is a bug.
"""

from __future__ import annotations

__all__ = [
    "IdealParentError",
    "DataValidationError",
    "ParameterError",
    "MissingValuesError",
    "CycleError",
    "ModelError",
    "ConvergenceWarning",
    "NumericalWarning",
]


class IdealParentError(Exception):
    """Base class of every error the engine raises on purpose."""


class DataValidationError(IdealParentError, ValueError):
    """The data cannot be used as given (names the column, row or file at fault)."""


class ParameterError(IdealParentError, ValueError):
    """A setting is out of range or of the wrong type (names the setting)."""


class MissingValuesError(DataValidationError):
    """The data has missing cells and the requested operation needs complete data."""


class CycleError(IdealParentError, ValueError):
    """A requested move or structure would create a directed cycle."""


class ModelError(IdealParentError, ValueError):
    """A saved model does not fit the data or is malformed."""


class ConvergenceWarning(UserWarning):
    """An iterative fit stopped before meeting its tolerance."""


class NumericalWarning(UserWarning):
    """A computation hit a numerical limit (near-singular Gram matrix, clipping)."""
