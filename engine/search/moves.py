"""Search moves: the operators, one move, and the table of all candidate moves of a state.

JMLR 2007 Algorithm 1 uses four local operators on a DAG: Add, Delete, Reverse and Replace (an
edge into a family is swapped for another). A :class:`Move` carries what is known about one
structure change: the ideal-parent estimates C1/C2 of its log-likelihood gain (section 4), the
exact changes once evaluated, and its rank in its family's ranking. :class:`CandidateTable`
holds every candidate move of one search state as parallel arrays.

References
----------
.. [1] Elidan, Nachman, Friedman. "Ideal Parent" Structure Learning for Continuous Variable
   Bayesian Networks. JMLR 8:1799-1833, 2007. Algorithm 1, sections 3-4.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from enum import IntEnum

import numpy as np

__all__ = ["Operator", "Move", "CandidateTable"]


class Operator(IntEnum):
    """Local structure operators (JMLR Algorithm 1)."""

    ADD = 0
    DELETE = 1
    REVERSE = 2
    REPLACE = 3


@dataclass(frozen=True)
class Move:
    """One structure change and what is known about it.

    ``ADD``: new edge parent -> child. ``DELETE``: remove parent -> child. ``REVERSE``: the edge
    parent -> child becomes child -> parent. ``REPLACE``: ``removed`` -> child is replaced by
    parent -> child. ``c1``/``c2`` are the ideal-parent estimates of the log-likelihood gain
    (nats; NaN for Delete and Reverse), ``delta_loglik``/``delta_bic`` the exact changes (NaN when
    not evaluated), ``rank`` the position (1 = best) of the candidate in its family's ranking by
    the search's measure (0 when not ranked). ``random`` marks the random moves of a restart
    (:meth:`Stepper.perturb`), which were not chosen by score.
    """

    op: Operator
    parent: int
    child: int
    removed: int = -1
    c1: float = math.nan
    c2: float = math.nan
    delta_loglik: float = math.nan
    delta_bic: float = math.nan
    rank: int = 0
    random: bool = False

    def inverse(self) -> Move:
        """The move that takes this one back (Add <-> Delete, Reverse back, Replace back)."""
        if self.op == Operator.ADD:
            return Move(Operator.DELETE, self.parent, self.child)
        if self.op == Operator.DELETE:
            return Move(Operator.ADD, self.parent, self.child)
        if self.op == Operator.REVERSE:
            return Move(Operator.REVERSE, self.child, self.parent)
        return Move(Operator.REPLACE, self.removed, self.child, self.parent)

    def edge_label(self, names: tuple[str, ...] | list[str] | None = None) -> str:
        """Human-readable edge, e.g. ``'A -> B'`` or ``'A -> B (replaces C)'``."""
        n = (lambda i: str(names[i])) if names is not None else str
        if self.op == Operator.REVERSE:
            return f"{n(self.parent)} -> {n(self.child)} becomes {n(self.child)} -> {n(self.parent)}"
        if self.op == Operator.REPLACE:
            return f"{n(self.parent)} -> {n(self.child)} (replaces {n(self.removed)})"
        return f"{n(self.parent)} -> {n(self.child)}"

    def to_dict(self, names=None) -> dict:
        """JSON-friendly description (names when given, else indices)."""
        n = (lambda i: str(names[i])) if names is not None else int
        out = {
            "op": self.op.name.lower(),
            "parent": n(self.parent),
            "child": n(self.child),
            "c1": _json_float(self.c1),
            "c2": _json_float(self.c2),
            "delta_loglik": _json_float(self.delta_loglik),
            "delta_bic": _json_float(self.delta_bic),
            "rank": self.rank,
        }
        if self.op == Operator.REPLACE:
            out["removed"] = n(self.removed)
        if self.random:
            out["random"] = True
        return out


def _json_float(x: float) -> float | None:
    return None if x is None or not math.isfinite(x) else float(x)


@dataclass
class CandidateTable:
    """All candidate moves of the current state, as parallel arrays (one row per move).

    ``selected`` marks the candidates the selector sent to exact scoring this step (all legal ones
    for greedy; Delete and Reverse always). ``delta_*`` are NaN where not (yet) evaluated.
    """

    op: np.ndarray
    parent: np.ndarray
    child: np.ndarray
    removed: np.ndarray
    c1: np.ndarray
    c2: np.ndarray
    delta_loglik: np.ndarray
    delta_bic: np.ndarray
    rank: np.ndarray
    selected: np.ndarray

    def __len__(self) -> int:
        return int(self.op.shape[0])

    def move(self, row: int) -> Move:
        """The :class:`Move` of one row."""
        return Move(
            Operator(int(self.op[row])),
            int(self.parent[row]),
            int(self.child[row]),
            int(self.removed[row]),
            float(self.c1[row]),
            float(self.c2[row]),
            float(self.delta_loglik[row]),
            float(self.delta_bic[row]),
            int(self.rank[row]),
        )

    def order(self) -> np.ndarray:
        """Row order: exactly scored moves by decreasing BIC change, then the rest by C2."""
        exact = np.where(np.isnan(self.delta_bic), -np.inf, self.delta_bic)
        est = np.where(np.isnan(self.c2), -np.inf, self.c2)
        return np.lexsort((self.removed, self.parent, self.child, self.op, -est, -exact))

    def to_records(self, names=None) -> list[dict]:
        """List of dicts (for tables and JSON)."""
        return [self.move(i).to_dict(names) | {"selected": bool(self.selected[i])} for i in self.order()]
