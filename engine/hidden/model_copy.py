"""A copy of a structural-EM model whose runs leave the original as it is (#22): the trials try
several structures from one model (restarts, the order search, the take-over move) and keep the
best by its observed-data score; and a new model started at another's hidden posteriors."""

from __future__ import annotations

import copy

from .em import StructuralEM

__all__ = ["carry_posteriors", "copy_model"]


def copy_model(em: StructuralEM) -> StructuralEM:
    """A copy whose EM runs leave ``em`` as it is (the E-step updates the moments in place)."""
    new = copy.copy(em)
    new.mean, new.var = em.mean.copy(), em.var.copy()
    new.edges, new.history, new.user_forbidden = list(em.edges), list(em.history), list(em.user_forbidden)
    return new


def carry_posteriors(target: StructuralEM, source: StructuralEM, names: list[str]) -> None:
    """Start the hidden variables ``names`` of ``target`` at their posterior means and variances
    in ``source`` (a new model keeps what EM already learned about the earlier hidden variables)."""
    for n in names:
        j, k = target.names.index(n), source.names.index(n)
        target.mean[:, j] = source.mean[:, k]
        target.var[:, j] = source.var[:, k]
