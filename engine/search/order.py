"""Order-based search: a local search over variable orders, each order scored by the best parent
set of every family among its predecessors (Teyssier & Koller, UAI 2005; K2's family choice given
an order, Cooper & Herskovits 1992).

A greedy search over DAGs turns a hub's edges one at a time, and a hub whose children were
attached as its parents stays so: each single reversal costs more than it gains until all of them
turn together. In order space that is one move (the hub placed before its children), and every
order gives an acyclic network. Here the families are chosen greedily (forward selection by exact
gain, then backward deletion) among the predecessors, on the search's own model and score, with its
constraints (forbidden edges, regulators, the parent cap); an order move places one variable at
the best position it can reach by adjacent swaps. Only the two swapped families change per swap,
so a variable's whole sweep costs O(N) family choices.

Used by :func:`engine.hidden.trial.climb` after the random restarts (#22): from the topological
order of the stepper's network, and kept only if the network it reaches scores higher.
"""

from __future__ import annotations

from graphlib import TopologicalSorter

import numpy as np

from ..cpd.linear import LinearGaussianFamilies
from .order_gains import LinearAddGains
from .stepper import Stepper

__all__ = ["OrderSearch", "order_climb"]

#: families whose add gains :class:`OrderSearch` keeps (N floats each; cleared when full)
MAX_GAINS = 20_000


class OrderSearch:
    """Order moves on the model and score of ``stepper`` (which is left as it is)."""

    def __init__(self, stepper: Stepper, tol: float = 1e-9) -> None:
        self.model = stepper.model
        self.scorer = stepper.scorer
        self.cap = int(stepper.max_parents)
        self.allowed = ~stepper.forbidden  # allowed[p, c]
        self.tol = float(tol)
        self._cache: dict[tuple[int, bytes], tuple[float, tuple[int, ...]]] = {}
        #: exact gains of adding each variable to a family (-inf where it cannot be added), by
        #: (child, parents): greedy paths share their first steps, so a family choice among any
        #: predecessors masks these rather than calling the model again
        self._gains: dict[tuple[int, tuple[int, ...]], np.ndarray] = {}
        #: linear-Gaussian families: the gains by one projection step per parent (:mod:`.order_gains`)
        self._linear = LinearAddGains(self.model) if type(self.model) is LinearGaussianFamilies else None
        #: pen[k]: penalty of a family with k parents
        self.pen = np.array([self.scorer.penalty(self.model.n_params(k), k) for k in range(self.cap + 2)])

    def family(self, child: int, before: np.ndarray) -> tuple[float, tuple[int, ...]]:
        """Score and parents of ``child`` chosen among the variables flagged in ``before``
        (bool, shape (N,)): forward selection by exact gain net of the penalty, then backward
        deletion, up to the parent cap."""
        avail = before & self.allowed[:, child]
        key = (child, np.packbits(avail).tobytes())
        hit = self._cache.get(key)
        if hit is not None:
            return hit
        pen = self.pen
        parents: tuple[int, ...] = ()
        while len(parents) < self.cap and avail.any():
            k = len(parents)
            gain = np.where(avail, self.add_gains(child, parents), -np.inf)
            j = int(np.argmax(gain))  # the first of equal gains, as over the candidates alone
            if not gain[j] - (pen[k + 1] - pen[k]) > self.tol:
                break
            parents = tuple(sorted((*parents, j)))
            avail[j] = False
        while parents:
            k = len(parents)
            gain = self.model.delete_gains(child, parents) + (pen[k] - pen[k - 1])
            j = int(np.argmax(gain))
            if not gain[j] > self.tol:
                break
            parents = parents[:j] + parents[j + 1 :]
        out = (self.scorer.family(self.model.fit(child, parents)), parents)
        self._cache[key] = out
        return out

    def add_gains(self, child: int, parents: tuple[int, ...]) -> np.ndarray:
        """Exact log-likelihood gain (shape (N,)) of adding each variable the constraints allow to the
        family ``(child, parents)``, -inf for the others; computed once per family (each entry is the
        model's :meth:`exact_add` for that candidate, whichever others are asked with it)."""
        key = (child, parents)
        out = self._gains.get(key)
        if out is None:
            ok = self.allowed[:, child].copy()
            ok[child] = False
            ok[list(parents)] = False
            cand = np.flatnonzero(ok)
            out = np.full(self.model.n_vars, -np.inf)
            if cand.size:
                add = self._linear.gains if self._linear is not None else self.model.exact_add
                out[cand] = add(child, parents, cand)
            if len(self._gains) >= MAX_GAINS:
                self._gains.clear()
            self._gains[key] = out
        return out

    def run(self, order: list[int], max_passes: int = 20) -> tuple[float, list[tuple[int, int]]]:
        """Improve ``order`` by moving one variable at a time to the best position reachable by
        adjacent swaps (either direction), until a pass moves nothing. Returns the score and the
        edges of the best network found (which may score below a network consistent with the
        starting order: the families are chosen greedily; the caller compares)."""
        order = list(order)
        n = len(order)
        before = np.zeros((n, self.model.n_vars), dtype=bool)  # before[i]: predecessors of order[i]
        for i in range(1, n):
            before[i] = before[i - 1]
            before[i, order[i - 1]] = True
        fam = [self.family(order[i], before[i]) for i in range(n)]
        for _ in range(max_passes):
            moved = False
            for v in list(order):
                i = order.index(v)
                best_delta, best_j, best_state = self.tol, i, None
                for step in (-1, 1):
                    o, b, f, delta, j = list(order), before.copy(), list(fam), 0.0, i
                    while 0 <= j + step < n:
                        a = min(j, j + step)  # swap positions a and a + 1
                        u, w = o[a], o[a + 1]  # w moves before u
                        nb_w = b[a].copy()
                        nb_u = nb_w.copy()
                        nb_u[w] = True
                        fw, fu = self.family(w, nb_w), self.family(u, nb_u)
                        delta += fw[0] + fu[0] - f[a][0] - f[a + 1][0]
                        o[a], o[a + 1] = w, u
                        b[a + 1] = nb_u
                        f[a], f[a + 1] = fw, fu
                        j += step
                        if delta > best_delta:
                            best_delta, best_j, best_state = delta, j, (list(o), b.copy(), list(f))
                if best_state is not None and best_j != i:
                    order, before, fam = best_state
                    moved = True
            if not moved:
                break
        score = float(sum(s for s, _ in fam))
        edges = sorted((p, order[i]) for i in range(n) for p in fam[i][1])
        return score, edges


def order_climb(stepper: Stepper) -> tuple[float, list[tuple[int, int]]]:
    """:meth:`OrderSearch.run` from a topological order of the stepper's network (left as it is)."""
    graph = {c: set(stepper.parents(c)) for c in range(stepper.n_vars)}
    return OrderSearch(stepper).run(list(TopologicalSorter(graph).static_order()))
