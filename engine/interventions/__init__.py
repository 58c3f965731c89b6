"""Interventional data: conditions, targets and the mutilated-network likelihood (Cooper & Yoo 1999).

:class:`Interventions` is the design (each row's condition, the targets table, the rows x variables
intervention mask); :class:`MaskedFamilies` scores each family only on the rows where its child was
not set by an experiment; :func:`attach_conditions` builds the design from a condition column.
"""

from .design import MIN_FAMILY_ROWS, Interventions, read_targets
from .families import MaskedFamilies, centre_within
from .frames import attach_conditions, load_with_conditions, scoring_design, split_condition, with_design

__all__ = [
    "Interventions",
    "MaskedFamilies",
    "MIN_FAMILY_ROWS",
    "attach_conditions",
    "centre_within",
    "load_with_conditions",
    "read_targets",
    "scoring_design",
    "split_condition",
    "with_design",
]
