"""CPD families: one module per family, and the registry (:mod:`engine.cpd.registry`) that lists them.

Code outside this package (the engine, the explorer and the benchmarks) asks the registry
(:func:`get_cpd`) what a CPD is and can do; it never switches on CPD names.
"""

from .base import FamilyBase, FamilyFit, FamilyModel, Parents
from .linear import LinearGaussianFamilies, linear_family_loglik
from .multiplicative import MultiplicativeFamilies, multiplicative_family_loglik
from .registry import (
    CPD_CHOICES,
    CPD_TYPES,
    DEFAULT_CPD,
    CPDType,
    Setting,
    cpd_settings,
    family_loglik,
    get_cpd,
    make_families,
)
from .sigmoid import SigmoidGaussianFamilies, sigmoid_family_loglik

__all__ = [
    "FamilyBase",
    "FamilyFit",
    "FamilyModel",
    "Parents",
    "LinearGaussianFamilies",
    "SigmoidGaussianFamilies",
    "MultiplicativeFamilies",
    "linear_family_loglik",
    "sigmoid_family_loglik",
    "multiplicative_family_loglik",
    "family_loglik",
    "make_families",
    "get_cpd",
    "cpd_settings",
    "CPDType",
    "Setting",
    "CPD_TYPES",
    "CPD_CHOICES",
    "DEFAULT_CPD",
]
