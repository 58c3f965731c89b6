"""Variables that may only be parents: sample covariates such as batch, named by the user.

A biologist who gives the batches of a study (``learn --covariates``, the explorer's upload,
:func:`engine.io.covariates.add_covariates`, which records them in :attr:`Dataset.covariates`) or
names variables in ``IdealParentSearch(parent_only=[...])`` says that nothing in the network
explains them: no edge enters them, from a gene or from a hidden variable, and a hidden variable
is never proposed as their parent (a batch label is annotation, not expression). They may still
be parents of any variable, also under a candidate-regulator list.

The set is taken by name from what the user gave, never inferred from forbidden edges: forbidding
every measured variable's edge into X says that no *measured* variable regulates X, not that
nothing unmeasured does (a root transcription factor may well have a hidden regulator), so such
an X stays a possible child of a hidden variable.

Not checked here: that a parent-only variable is not also constant or a copy of another variable
(the data checks do that).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np

from .data import Dataset
from .exceptions import ParameterError
from .listing import first_few

__all__ = ["check_parent_only", "parent_only_names", "parent_only_index", "edges_into", "child_candidates"]


def check_parent_only(names: Iterable[str] | None) -> list[str]:
    """``names`` as a list of distinct strings (``None``: none); one string is refused, as a
    regulator list is (it would be read letter by letter)."""
    if names is None:
        return []
    if isinstance(names, str):
        raise ParameterError("`parent_only` must be a list of variable names, not one string.")
    return list(dict.fromkeys(str(n) for n in names))


def parent_only_names(dataset: Dataset, names: Iterable[str] | None = (), *, required=()) -> list[str]:
    """The parent-only variables of ``dataset``: ``names`` and the dataset's covariates, in data
    order. A name that is not a variable of the data raises :class:`ParameterError` (a
    ``ValueError``) naming every such name; so does a ``required`` edge (parent, child) into one."""
    given = check_parent_only(names)
    known = set(dataset.names)
    unknown = [n for n in given if n not in known]
    if unknown:
        shown = first_few(unknown, quote=True)
        raise ParameterError(f"`parent_only` names {len(unknown)} variable(s) not in the data: {shown}.")
    wanted = set(given) | set(dataset.covariates)
    into = [(str(p), str(c)) for p, c in required if str(c) in wanted]
    if into:
        raise ParameterError(f"required edge {into[0]!r} points into {into[0][1]!r}, a parent-only variable.")
    return [n for n in dataset.names if n in wanted]


def parent_only_index(names: Iterable[str], variables: Sequence[str]) -> list[int]:
    """Positions of ``names`` among ``variables`` (sorted); an unknown name is a :class:`ParameterError`."""
    where = {str(v): i for i, v in enumerate(variables)}
    names = check_parent_only(names)
    unknown = [n for n in names if n not in where]
    if unknown:
        raise ParameterError(f"`parent_only` names variable(s) not in the data: {', '.join(map(repr, unknown))}.")
    return sorted(where[n] for n in names)


def edges_into(cols: Iterable[int], n_vars: int) -> list[tuple[int, int]]:
    """Every edge (parent, child) into the variables ``cols`` from the other of ``n_vars`` variables."""
    return [(p, int(c)) for c in cols for p in range(n_vars) if p != c]


def child_candidates(variables: Sequence[str], parent_only: Iterable[str]) -> np.ndarray:
    """Positions of the variables a hidden variable may be proposed as parent of (not parent-only)."""
    excluded = set(parent_only)
    return np.array([i for i, n in enumerate(variables) if n not in excluded], dtype=np.int64)
