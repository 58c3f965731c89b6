"""The Reverse operator's exact changes, cached per edge (JMLR 2007 Algorithm 1).

Reversing u -> c deletes u from c's family and adds c to u's; both parts are scored exactly
(Reverse is never ranked by C1/C2) and, with decomposable scores, the change is the sum of the
two families' changes. The value of an edge stays valid until either family changes, so the
cache is invalidated per variable after each move.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from .moves import Move, Operator

if TYPE_CHECKING:
    from .stepper import Stepper

__all__ = ["ReversalCache"]


class ReversalCache:
    """Exact log-likelihood changes of reversing each edge, ``[parent, child]`` (NaN = unknown)."""

    def __init__(self, n_vars: int) -> None:
        self.dll = np.full((n_vars, n_vars), np.nan)

    def invalidate(self, node: int) -> None:
        """Forget every reversal touching ``node``'s family."""
        self.dll[:, node] = np.nan
        self.dll[node, :] = np.nan

    def candidates(self, stepper: Stepper) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Legal reversals (parents, children) and their exact log-likelihood changes; the
        penalties of the two families' changes cancel for CPDs whose dimension grows by one per
        parent (see :meth:`Stepper.rev_penalty`)."""
        empty = np.zeros(0, dtype=np.intp)
        if Operator.REVERSE not in stepper.operators:
            return empty, empty, np.zeros(0)
        us, cs = stepper.dag.edge_array()
        if us.size == 0:
            return empty, empty, np.zeros(0)
        ok = stepper.constraints.reversible(stepper.dag, stepper.n_par, us, cs)
        us, cs = us[ok], cs[ok]
        dll = self.dll[us, cs]
        todo = np.flatnonzero(np.isnan(dll))
        if todo.size:
            stepper.ensure_exact(self._requests(stepper, us[todo], cs[todo]))
            for j in todo:
                u, c = int(us[j]), int(cs[j])
                ec, eu = stepper.entry(c), stepper.entry(u)
                dll[j] = self.dll[u, c] = ec.del_dll[ec.parents.index(u)] + eu.add_exact[c]
        return us, cs, dll

    @staticmethod
    def _requests(stepper: Stepper, us: np.ndarray, cs: np.ndarray) -> list:
        """Exact-scoring requests for reversing the edges u -> c: c added to each u's family."""
        groups: dict[int, list[int]] = {}
        for u, c in zip(us.tolist(), cs.tolist(), strict=True):
            groups.setdefault(u, []).append(c)
        return [("add", u, stepper.entry(u), -1, np.array(sorted(cc), dtype=np.intp)) for u, cc in groups.items()]

    def pending(self, stepper: Stepper) -> list:
        """Requests for the legal reversals whose change is not cached yet, so that they join the
        step's batch of exact fits."""
        if Operator.REVERSE not in stepper.operators:
            return []
        us, cs = stepper.dag.edge_array()
        if us.size == 0:
            return []
        todo = np.isnan(self.dll[us, cs])
        us, cs = us[todo], cs[todo]
        ok = stepper.constraints.reversible(stepper.dag, stepper.n_par, us, cs)
        return self._requests(stepper, us[ok], cs[ok]) if ok.any() else []

    def best(self, stepper: Stepper) -> tuple[float, tuple, Move] | None:
        """The best legal reversal as (BIC change, tie-break key, move), or None."""
        us, cs, dll = self.candidates(stepper)
        if dll.size == 0:
            return None
        dbic = dll - stepper.rev_penalty(us, cs)
        top = dbic.max()
        near = np.flatnonzero(dbic >= top - 1e-9 * max(1.0, abs(top)))
        # tie-break key (REVERSE, child, parent): lowest child, then lowest parent
        j = near[np.lexsort((us[near], cs[near]))[0]]
        u, c, d, b = int(us[j]), int(cs[j]), float(dll[j]), float(dbic[j])
        return b, (Operator.REVERSE, c, u, -1), Move(Operator.REVERSE, u, c, delta_loglik=d, delta_bic=b)
