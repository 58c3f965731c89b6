"""CPD families: one module per family (linear Gaussian now; sigmoid and multiplicative later)."""

from .base import FamilyFit, FamilyModel, Parents
from .linear import LinearGaussianFamilies, linear_family_loglik

__all__ = ["FamilyFit", "FamilyModel", "Parents", "LinearGaussianFamilies", "linear_family_loglik", "make_families"]

CPD_CHOICES = ("linear",)


def make_families(values, cpd: str = "linear", **kwargs) -> FamilyModel:
    """Build the :class:`FamilyModel` for ``cpd`` on complete data ``values`` (M x N)."""
    from .._validation import check_choice

    cpd = check_choice(cpd, "cpd", CPD_CHOICES)
    return LinearGaussianFamilies(values, **kwargs)
