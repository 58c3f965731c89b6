"""A search's work carried over to a search on statistics that changed in a few variables only.

Structural EM (JMLR 2007 section 6) runs one structure search per M-step on the expected
sufficient statistics. Without missing cells only the hidden variables' columns of the expected
scatter change between M-steps; the observed-observed block, and with it every family among
observed variables, its fit, its exact gains and its C1/C2 ranking of the observed candidates,
is the same to the bit. A new M-step's search re-ranking and re-scoring all N families was most of
the time of ``--hidden auto`` at 2500 genes (#22). Here the new search takes those over instead:

* :func:`unchanged` finds the variables whose statistics among themselves are equal, bit for bit;
* :func:`carry_entries` gives a new :class:`~engine.search.Stepper` the previous stepper's
  family entries whose child and parents are all unchanged, with the exact gains of changed
  candidates cleared and the ranking recomputed at the changed candidates' positions only
  (:meth:`~engine.search.family_entry.FamilyEntry.carried`). Everything else is computed afresh
  as before, so the search makes the same moves (``tests/engine/test_search_carry.py``).

The fits themselves are carried by :func:`carry_fits`, into the model's own cache.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ..cpd.linear import LinearGaussianFamilies, _FamilyStats
from .family_entry import FamilyEntry

if TYPE_CHECKING:
    from .stepper import Stepper

__all__ = ["unchanged", "carry_fits", "carry_entries"]

#: rows of the two scatter matrices compared at a time (bounds the temporary to ROWS x N)
ROWS = 256


def unchanged(old, new) -> np.ndarray | None:
    """bool (N,): variables whose statistics with every other such variable are the same bits in
    the linear-Gaussian models ``old`` and ``new`` (means and scatter entries); None when the two
    are not comparable (another CPD, shape, M).

    The changed set starts as the variables whose mean or scatter diagonal changed (in structural
    EM, the columns with unobserved cells); any other variable with a changed scatter entry outside
    that set joins it, so every changed entry has a changed variable on its row or column. Two models of
    structural EM's :class:`~engine.hidden.moments.ExpectedMoments` with the same ``moments_token`` share
    their scatter outside the token's rows, so only those rows are compared (the same answer)."""
    if type(old) is not LinearGaussianFamilies or type(new) is not LinearGaussianFamilies:
        return None
    if old.n_vars != new.n_vars or old.n_samples != new.n_samples or old.centred != new.centred:
        return None
    changed = (old.means != new.means) | (old._diag != new._diag)
    rest = ~changed
    token = getattr(new, "moments_token", None)
    if token is not None and token is getattr(old, "moments_token", None):
        # one copy of the scatter outside the token's rows (engine.hidden.moments): only they can differ,
        # and by symmetry a changed entry (j, r) outside them is the changed entry (r, j) of a row r of them
        rows = token.rows
        diff = old.scatter[rows] != new.scatter[rows]
        changed[rows] |= diff[:, rest].any(axis=1) & rest[rows]
        changed |= diff[rest[rows]].any(axis=0) & rest
        return ~changed
    for i in range(0, new.n_vars, ROWS):
        block = old.scatter[i : i + ROWS][:, rest] != new.scatter[i : i + ROWS][:, rest]
        changed[i : i + ROWS] |= block.any(axis=1) & rest[i : i + ROWS]
    return ~changed


def carry_fits(old, new) -> np.ndarray | None:
    """Give the linear-Gaussian model ``new`` the cached fits of ``old`` whose child and parents
    are all :func:`unchanged`: a fit reads only those variables' statistics, so it is the one
    ``new.fit`` would compute, to the bit (``y.z``, which reaches every column, is left to be
    recomputed). Returns :func:`unchanged` (None: nothing carried)."""
    same = None if old is None or old is new else unchanged(old, new)
    if same is None:
        return None
    room = new.cache_size - len(new._cache)
    gone = set(np.flatnonzero(~same).tolist())
    for key, st in old._cache.items():
        if room <= 0:
            break
        if key[0] not in gone and gone.isdisjoint(key[1]) and key not in new._cache:
            fit = _FamilyStats()
            fit.fit, fit.rss, fit.raw_rss, fit.alpha, fit.chol = st.fit, st.rss, st.raw_rss, st.alpha, st.chol
            new._cache[key] = fit
            room -= 1
    return same


def carry_entries(stepper: Stepper, old: Stepper | None) -> int:
    """Give ``stepper`` (before its first refresh) ``old``'s entries of the families it has now
    whose child and parents are unchanged between the two models; returns how many."""
    if old is None or old.model is stepper.model:
        return 0
    same_cols = (old.cols is None) == (stepper.cols is None) and (
        old.cols is None or np.array_equal(old.cols, stepper.cols)
    )
    same = unchanged(old.model, stepper.model) if same_cols else None
    if same is None:
        return 0
    gone = set(np.flatnonzero(~same).tolist())
    at = np.flatnonzero(~same if stepper.cols is None else ~same[stepper.cols])  # positions among the columns
    n = 0
    for c, parents in enumerate(stepper._parents):
        key = (c, parents)
        e = old._entries.get(key)
        if e is None or key in stepper._entries or c in gone or not gone.isdisjoint(parents):
            continue
        stepper._entries[key] = FamilyEntry.carried(e, stepper.model, stepper.rank_cache, gone, at)
        n += 1
    return n
