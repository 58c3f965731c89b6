"""Ideal Parent structure learning for continuous Bayesian networks.

Elidan, Nachman & Friedman, "Ideal Parent" Structure Learning for Continuous Variable Bayesian
Networks, JMLR 8:1799-1833, 2007. The engine is pure numpy/scipy; it never imports Streamlit.
"""

from .data import Dataset, from_array
from .exceptions import (
    CycleError,
    DataValidationError,
    IdealParentError,
    MissingValuesError,
    ModelError,
    ParameterError,
)
from .io import from_frame, load_table, read_table
from .learn import IdealParentSearch
from .network import LearnedNetwork
from .search import CandidateTable, Move, Operator, SearchResult, Stepper, StepResult

__all__ = [
    "IdealParentSearch",
    "LearnedNetwork",
    "Dataset",
    "from_array",
    "from_frame",
    "load_table",
    "read_table",
    "IdealParentError",
    "DataValidationError",
    "ParameterError",
    "MissingValuesError",
    "CycleError",
    "ModelError",
    "Move",
    "Operator",
    "CandidateTable",
    "Stepper",
    "StepResult",
    "SearchResult",
]
