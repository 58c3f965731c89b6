"""The variable that tracks a hidden variable's profile best (#22): the one answer behind the
Hidden page's "which listed regulator tracks z* best" (``H <- TF``) and the regulator report's
``explained_by`` (a variable that may already play H's role, in the CLI's and the app's CSV).

The figure is the Pearson correlation of the profile with each candidate's values
(:func:`.correlation.column_corr`), reported with its sign: with the children's loadings it says whether
the regulator rises or falls with them (an activator or a repressor of the module; WGCNA's module
membership is signed for the same reason); the best is the largest ``|r|``. Nothing is refitted.

With a regulator list the candidates are the listed names matched to the data as the engine matches
them everywhere (:func:`engine.io.regulators.resolve_regulators`: exact, else ignoring case and an
Ensembl version), a member or child included (a listed regulator among H's children may be their
regulator itself); without one, every observed variable outside ``exclude`` (a child that tracks H
is its hub gene, not something that stands in for it).

Among many candidates and few conditions the best ``|r|`` is large by chance alone (128 regulators,
27 conditions: about 0.5): :func:`chance_corr` is the ``|r|`` a Bonferroni-corrected two-sided 5%
test over the candidates needs (Fisher's z: ``tanh(z_{1 - 0.025/R} / sqrt(M - 3))``).
"""

from __future__ import annotations

import math
from collections.abc import Collection, Sequence

import numpy as np
from scipy.stats import norm

from ..io.regulators import resolve_regulators
from .correlation import column_corr

__all__ = ["ALPHA", "best_tracking", "chance_corr", "listed_in_data"]

#: family-wise level of :func:`chance_corr`
ALPHA = 0.05


def chance_corr(n_candidates: int, n_instances: int) -> float:
    """The ``|correlation|`` a Bonferroni-corrected two-sided test at level :data:`ALPHA` over
    ``n_candidates`` needs with ``n_instances`` instances (Fisher's z; 1.0 below 4 instances)."""
    if n_instances < 4:
        return 1.0
    z = norm.ppf(1.0 - ALPHA / (2 * max(1, n_candidates)))
    return float(np.tanh(z / np.sqrt(n_instances - 3)))


def listed_in_data(regulators: Sequence[str] | None, names: Sequence[str]) -> list[str]:
    """The variables of ``names`` the list ``regulators`` names, once each, in the list's order
    (matched as the engine matches them); [] without a list."""
    return resolve_regulators(list(regulators), list(names))[0] if regulators else []


def best_tracking(
    profile: np.ndarray,
    values: np.ndarray,
    names: Sequence[str],
    regulators: Sequence[str] | None = None,
    *,
    exclude: Collection[str] = (),
    min_corr: float = 0.0,
) -> tuple[str | None, float]:
    """The candidate (see the module docstring) whose values, columns of ``values`` (M, n) named
    ``names``, correlate most with ``profile`` (M,) in absolute value, and that signed correlation;
    (None, NaN) when there is no candidate, the profile does not have one value per row, or the
    best ``|r|`` is below ``min_corr``."""
    profile = np.asarray(profile, dtype=float)
    values = np.asarray(values, dtype=float)
    if profile.size == 0 or values.ndim != 2 or profile.size != values.shape[0]:
        return None, math.nan
    if regulators:
        index = {n: j for j, n in enumerate(names)}
        cols = [index[r] for r in listed_in_data(regulators, names)]
    else:
        skip = set(exclude)
        cols = [j for j, n in enumerate(names) if n not in skip]
    if not cols:
        return None, math.nan
    corr = column_corr(profile, values[:, cols])
    j = int(np.argmax(np.abs(corr)))
    if abs(corr[j]) < min_corr:
        return None, math.nan
    return str(names[cols[j]]), float(corr[j])
