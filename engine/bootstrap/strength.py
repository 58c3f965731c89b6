"""Edge confidence from bootstrap replicates: strength, direction, threshold and averaged network.

Friedman, Goldszmidt & Wyner (1999) define the confidence of a feature as the share of networks,
learned on resampled data, that have it. For edges we follow bnlearn's ``boot.strength`` [2]_:

* ``strength`` of the unordered pair {a, b}: share of replicates with an edge between a and b, in
  either direction, ``(n(a->b) + n(b->a)) / R``;
* ``direction`` of a -> b: share of those with the edge a -> b, ``n(a->b) / (n(a->b) + n(b->a))``.

One row per unordered pair, in its dominant direction (direction >= 0.5; a tie is written in variable
order). Directions are counted on the learned DAGs as they are (bnlearn's ``cpdag = FALSE``): with a
score-equivalent score (linear-Gaussian BIC) an edge's direction inside its equivalence class is not
identified by the data, so a direction near 0.5 is what to expect there.

The averaged network keeps the pairs with ``strength > threshold`` (or strength 1), each in its
dominant direction, added in decreasing strength and skipping an edge that would close a cycle
(bnlearn's ``averaged.network``). The default threshold is bnlearn's ``inclusion.threshold``
(Scutari & Nagarajan 2013 [3]_): the ECDF of all pair strengths (zeros included) is approximated in L1
by a single step, and the threshold is the strength quantile at the step's height
(:func:`inclusion_threshold`).

References
----------
.. [1] Friedman, Goldszmidt, Wyner. Data analysis with Bayesian networks: a bootstrap approach.
   UAI 1999. https://arxiv.org/abs/1301.6695
.. [2] Scutari. Learning Bayesian networks with the bnlearn R package. JSS 35(3), 2010;
   bnlearn 5.2.1 ``R/arc.strength.R``, ``R/averaged.network.R``, ``src/learning/averaging/``.
.. [3] Scutari, Nagarajan. Identifying significant edges in graphical models of molecular networks.
   Artificial Intelligence in Medicine 57(3):207-217, 2013. https://doi.org/10.1016/j.artmed.2012.12.006
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from ..dag import DAG

__all__ = ["EdgeStrength", "edge_counts", "pair_strengths", "edge_strengths", "inclusion_threshold", "averaged_network"]

#: bnlearn clips strengths within this distance of 0 and 1 (its MACHINE_TOL)
_TOL = float(np.finfo(float).eps) ** 0.5


@dataclass(frozen=True)
class EdgeStrength:
    """One unordered pair in its dominant direction (bnlearn ``boot.strength`` names)."""

    parent: str
    child: str
    strength: float
    direction: float

    def to_dict(self) -> dict:
        return {"parent": self.parent, "child": self.child, "strength": self.strength, "direction": self.direction}


def edge_counts(n_vars: int, edge_sets: Iterable[Iterable[tuple[int, int]]]) -> np.ndarray:
    """``counts[a, b]``: number of edge sets (replicates) that have the edge a -> b."""
    counts = np.zeros((n_vars, n_vars), dtype=np.int64)
    for edges in edge_sets:
        for p, c in set(edges):
            counts[p, c] += 1
    return counts


def pair_strengths(counts: np.ndarray, n_replicates: int) -> np.ndarray:
    """Strength of every unordered pair a < b (zeros included), in ``np.triu_indices`` order: the
    input of :func:`inclusion_threshold`."""
    iu = np.triu_indices(counts.shape[0], k=1)
    both = (counts + counts.T)[iu]
    return both / n_replicates if n_replicates else np.zeros(both.shape)


def edge_strengths(names: Sequence[str], counts: np.ndarray, n_replicates: int) -> list[EdgeStrength]:
    """The pairs seen at least once, strongest first (then by direction, then variable order)."""
    rows = []
    for a, b in zip(*np.nonzero(np.triu(counts + counts.T, k=1)), strict=True):
        ab, ba = int(counts[a, b]), int(counts[b, a])
        p, c = (a, b) if ab >= ba else (b, a)
        strength = _clip((ab + ba) / n_replicates)
        direction = _clip(max(ab, ba) / (ab + ba))
        rows.append(
            (-strength, -direction, min(a, b), max(a, b), EdgeStrength(names[p], names[c], strength, direction))
        )
    rows.sort(key=lambda r: r[:4])
    return [r[-1] for r in rows]


def _clip(x: float) -> float:
    return 0.0 if x < _TOL else 1.0 if x > 1.0 - _TOL else float(x)


def inclusion_threshold(strengths: np.ndarray) -> float:
    """bnlearn's estimated significance threshold for edge strengths (Scutari & Nagarajan 2013).

    Parameters
    ----------
    strengths : array of float
        The strength of *every* pair of variables, zeros included.

    Notes
    -----
    With F the empirical CDF of the strengths, the L1 distance between F and the constant p over
    [0, 1] is ``norm(p) = integral_0^1 |F(t) - p| dt``, a sum over the intervals between distinct
    strengths (F is constant on each). It is convex and piecewise linear in p, so its minimum is
    reached at a weighted median of F's levels (weights: the interval lengths); bnlearn finds it with
    ``optimize()`` and then checks the boundaries 0 and 1, which this function does exactly. When
    the minimum is a whole interval of p, its middle is used (where ``optimize()`` lands). The
    threshold is the type-1 quantile of the strengths at p0: the smallest strength s with
    F(s) >= p0. Edges are significant when their strength is *above* it.
    """
    s = np.sort(np.asarray(strengths, dtype=float))
    if s.size == 0:
        return 0.0
    u = np.unique(s)
    grid = np.unique(np.concatenate([[0.0], u, [1.0]]))
    width = np.diff(grid)
    level = np.searchsorted(s, grid[:-1], side="right") / s.size  # F at each interval's left end

    def norm(p: float) -> float:
        return float(np.sum(width * np.abs(level - p)))

    cands = np.unique(np.concatenate([level, [0.0, 1.0]]))
    values = np.array([norm(p) for p in cands])
    best = values.min()
    tol = 1e-12 * max(1.0, best)
    at_min = cands[values <= best + tol]
    p0 = float(at_min[0]) if at_min.size == 1 else 0.5 * (float(at_min[0]) + float(at_min[-1]))
    if norm(1.0) < norm(p0) - tol:
        p0 = 1.0
    if norm(0.0) < norm(p0) - tol:
        p0 = 0.0
    # quantile(type = 1): inverse of the ECDF, the smallest x with F(x) >= p0 (the minimum at p0 = 0)
    k = max(int(np.ceil(p0 * s.size - 1e-9)), 1)
    return float(s[k - 1])


def averaged_network(edges: Sequence[EdgeStrength], names: Sequence[str], threshold: float) -> list[EdgeStrength]:
    """The averaged network: pairs with strength > ``threshold`` (or 1), dominant direction.

    Edges are added strongest first and an edge that would close a directed cycle is left out, as in
    bnlearn's ``smart_network_averaging`` (whose comment says it iterates from the strongest; the C
    code in 5.2.1 sorts ascending, so there the weakest edge of a cycle would win: we keep the
    documented intent).
    """
    index = {n: i for i, n in enumerate(names)}
    keep = [e for e in edges if e.strength > threshold or e.strength == 1.0]
    keep.sort(key=lambda e: (-e.strength, -e.direction, index[e.parent], index[e.child]))
    dag = DAG(len(names))
    out = []
    for e in keep:
        p, c = index[e.parent], index[e.child]
        if dag.can_add(p, c):
            dag.add_edge(p, c)
            out.append(e)
    return out
