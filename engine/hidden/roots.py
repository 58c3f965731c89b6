"""Observed variables that may only be parents (covariates such as batch, :mod:`engine.io.covariates`).

The user says so by forbidding every edge into them from the other observed variables; structural
EM then forbids the hidden variables' edges into them too, and the hidden-variable search never
proposes them as a hidden variable's children (a batch label is annotation, not expression).
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

__all__ = ["parent_only", "hidden_into_roots"]


def parent_only(forbidden: Iterable[tuple[int, int]], n_obs: int) -> list[int]:
    """The observed variables (< ``n_obs``) into which every other observed variable is forbidden."""
    if n_obs < 2:
        return []
    into = np.zeros(n_obs, dtype=np.int64)
    pairs = {(int(p), int(c)) for p, c in forbidden if p < n_obs and c < n_obs and p != c}
    for _, c in pairs:
        into[c] += 1
    return np.flatnonzero(into == n_obs - 1).tolist()


def hidden_into_roots(forbidden: Iterable[tuple[int, int]], n_obs: int, n_vars: int) -> list[tuple[int, int]]:
    """The edges from hidden variables (``n_obs..n_vars-1``) into the parent-only observed variables."""
    roots = parent_only(forbidden, n_obs)
    return [(h, c) for h in range(n_obs, n_vars) for c in roots]
