"""CPD families: one module per family (linear Gaussian now; sigmoid and multiplicative later)."""

from .base import FamilyFit, FamilyModel, Parents
from .linear import LinearGaussianFamilies, linear_family_loglik
from .multiplicative import MultiplicativeFamilies, multiplicative_family_loglik
from .sigmoid import SigmoidGaussianFamilies, sigmoid_family_loglik

__all__ = [
    "FamilyFit",
    "FamilyModel",
    "Parents",
    "LinearGaussianFamilies",
    "SigmoidGaussianFamilies",
    "MultiplicativeFamilies",
    "linear_family_loglik",
    "sigmoid_family_loglik",
    "family_loglik",
    "make_families",
    "CPD_CHOICES",
]

CPD_CHOICES = ("linear", "sigmoid", "multiplicative")


def family_loglik(cpd: str, params: dict, x, u) -> float:
    """Log-likelihood of child values ``x`` given parent values ``u`` under fixed CPD ``params``."""
    if cpd == "sigmoid":
        return sigmoid_family_loglik(params, x, u)
    if cpd == "multiplicative":
        return multiplicative_family_loglik(params, x, u)
    return linear_family_loglik(params, x, u)


def make_families(values, cpd: str = "linear", **kwargs) -> FamilyModel:
    """Build the :class:`FamilyModel` for ``cpd`` on complete data ``values`` (M x N).

    ``names`` (keyword) is used only in error messages of CPDs that restrict the data."""
    names = kwargs.pop("names", None)
    if cpd == "multiplicative":
        kwargs["names"] = names
    from .._validation import check_choice

    cpd = check_choice(cpd, "cpd", CPD_CHOICES)
    if cpd == "sigmoid":
        return SigmoidGaussianFamilies(values, **kwargs)
    if cpd == "multiplicative":
        return MultiplicativeFamilies(values, **kwargs)
    return LinearGaussianFamilies(values, **kwargs)
