"""Comparing a learned network structure with a known true one.

Scope: edge-set comparison of two directed graphs given as iterables of ``(parent, child)`` pairs
(variable names or indices; any hashable labels). The counts follow the usual conventions of the
structure-learning literature:

* **directed** scores count a learned edge as a true positive only when the same edge, with the
  same direction, is in the true graph;
* **skeleton** scores ignore direction (an edge is the unordered pair of its endpoints);
* the **structural Hamming distance** is ``SHD = missing + extra + reversed``: the number of edge
  additions, deletions and reversals that turn the learned graph into the true one, each reversal
  counting 1 (Tsamardinos, Brown & Aliferis 2006, with directed edges only: no CPDAG).

Assumptions, not checked beyond what is stated: both inputs are simple directed graphs (no
duplicate edges; duplicates are merged) and the true graph has no pair of opposite edges
``a -> b`` and ``b -> a`` (true for a DAG). Self-loops are rejected.

References
----------
.. [1] Tsamardinos, Brown, Aliferis. The max-min hill-climbing Bayesian network structure learning
   algorithm. Machine Learning 65:31-78, 2006. https://doi.org/10.1007/s10994-006-6889-7
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable
from dataclasses import dataclass, field

from .exceptions import ParameterError

__all__ = ["EdgeComparison", "compare_edges", "EDGE_STATUSES"]

#: Per-edge statuses, in display order.
EDGE_STATUSES = ("correct", "reversed", "extra", "missing")

Edge = tuple[Hashable, Hashable]


def _ratio(num: int, den: int, zero_division: float) -> float:
    return float(num) / den if den else float(zero_division)


def _f1(precision: float, recall: float) -> float:
    s = precision + recall
    return 2.0 * precision * recall / s if s > 0 else 0.0


@dataclass(frozen=True)
class EdgeComparison:
    """How a learned edge set matches a true one.

    Attributes
    ----------
    correct : list of (parent, child)
        Learned edges that are in the true graph with the same direction.
    reversed : list of (parent, child)
        Learned edges whose opposite is a true edge (given in the *learned* direction).
    extra : list of (parent, child)
        Learned edges whose endpoints are not adjacent in the true graph.
    missing : list of (parent, child)
        True edges whose endpoints are not adjacent in the learned graph.
    tp, fp, fn : int
        Directed counts: ``tp = len(correct)``, ``fp = len(reversed) + len(extra)`` (learned edges
        not in the truth), ``fn = len(reversed) + len(missing)`` (true edges not learned as such).
    precision, recall, f1 : float
        Directed scores, ``tp / (tp + fp)``, ``tp / (tp + fn)`` and their harmonic mean.
    skeleton_tp, skeleton_fp, skeleton_fn : int
        Undirected counts: ``correct + reversed``, ``extra``, ``missing``.
    skeleton_precision, skeleton_recall, skeleton_f1 : float
        The same scores on the skeletons.
    shd : int
        Structural Hamming distance ``missing + extra + reversed``.
    n_learned, n_true : int
        Number of distinct edges in each graph.
    """

    correct: list = field(default_factory=list)
    reversed: list = field(default_factory=list)
    extra: list = field(default_factory=list)
    missing: list = field(default_factory=list)
    tp: int = 0
    fp: int = 0
    fn: int = 0
    precision: float = 0.0
    recall: float = 0.0
    f1: float = 0.0
    skeleton_tp: int = 0
    skeleton_fp: int = 0
    skeleton_fn: int = 0
    skeleton_precision: float = 0.0
    skeleton_recall: float = 0.0
    skeleton_f1: float = 0.0
    shd: int = 0
    n_learned: int = 0
    n_true: int = 0

    def status(self) -> dict[Edge, str]:
        """Edge -> status for every learned edge and every missing true edge."""
        out: dict[Edge, str] = {}
        for name in EDGE_STATUSES:
            for e in getattr(self, name):
                out[e] = name
        return out

    def to_dict(self) -> dict:
        """The scores as a JSON-friendly dict (edge lists as [parent, child] pairs)."""
        out = {
            k: getattr(self, k)
            for k in (
                "tp",
                "fp",
                "fn",
                "precision",
                "recall",
                "f1",
                "skeleton_tp",
                "skeleton_fp",
                "skeleton_fn",
                "skeleton_precision",
                "skeleton_recall",
                "skeleton_f1",
                "shd",
                "n_learned",
                "n_true",
            )
        }
        for name in EDGE_STATUSES:
            out[name] = [list(e) for e in getattr(self, name)]
        return out


def _as_edges(edges: Iterable, what: str) -> list[Edge]:
    out: list[Edge] = []
    seen: set[Edge] = set()
    for item in edges:
        try:
            p, c = item
        except (TypeError, ValueError):
            raise ParameterError(f"`{what}` must hold (parent, child) pairs; got {item!r}.") from None
        if p == c:
            raise ParameterError(f"`{what}` edge ({p!r}, {c!r}) is a self-loop.")
        e = (p, c)
        if e not in seen:
            seen.add(e)
            out.append(e)
    return out


def compare_edges(learned: Iterable, true: Iterable, *, zero_division: float = 0.0) -> EdgeComparison:
    """Compare a learned directed edge set with the true one.

    Parameters
    ----------
    learned, true : iterable of (parent, child)
        Directed edges, labelled by any hashable (names or indices; both graphs must use the same
        labels). Order is kept in the per-edge lists; duplicates are merged.
    zero_division : float, default 0.0
        Value of a precision or recall whose denominator is 0 (e.g. precision of an empty learned
        graph), as in scikit-learn.

    Returns
    -------
    EdgeComparison

    Raises
    ------
    ParameterError
        An item is not a pair, or an edge is a self-loop.

    Notes
    -----
    A learned edge ``a -> b`` is *correct* when ``a -> b`` is true, *reversed* when ``b -> a`` is
    true, and *extra* otherwise. A true edge is *missing* when neither direction was learned.
    ``SHD = missing + extra + reversed``. When the learned graph holds both ``a -> b`` and
    ``b -> a`` and ``a -> b`` is true, ``a -> b`` is correct and ``b -> a`` counts as extra
    (it must be deleted).

    Examples
    --------
    >>> cmp = compare_edges([("A", "B"), ("C", "B"), ("A", "D")], [("A", "B"), ("B", "C")])
    >>> cmp.correct, cmp.reversed, cmp.extra, cmp.missing
    ([('A', 'B')], [('C', 'B')], [('A', 'D')], [])
    >>> cmp.shd, round(cmp.precision, 3), cmp.recall, cmp.skeleton_recall
    (2, 0.333, 0.5, 1.0)
    """
    learned_l = _as_edges(learned, "learned")
    true_l = _as_edges(true, "true")
    true_set = set(true_l)
    learned_set = set(learned_l)

    correct: list[Edge] = []
    rev: list[Edge] = []
    extra: list[Edge] = []
    for p, c in learned_l:
        if (p, c) in true_set:
            correct.append((p, c))
        elif (c, p) in true_set and (c, p) not in learned_set:
            rev.append((p, c))
        else:
            extra.append((p, c))
    missing = [(p, c) for p, c in true_l if (p, c) not in learned_set and (c, p) not in learned_set]

    tp, fp, fn = len(correct), len(rev) + len(extra), len(rev) + len(missing)
    precision = _ratio(tp, tp + fp, zero_division)
    recall = _ratio(tp, tp + fn, zero_division)
    s_tp, s_fp, s_fn = len(correct) + len(rev), len(extra), len(missing)
    s_precision = _ratio(s_tp, s_tp + s_fp, zero_division)
    s_recall = _ratio(s_tp, s_tp + s_fn, zero_division)
    return EdgeComparison(
        correct=correct,
        reversed=rev,
        extra=extra,
        missing=missing,
        tp=tp,
        fp=fp,
        fn=fn,
        precision=precision,
        recall=recall,
        f1=_f1(precision, recall),
        skeleton_tp=s_tp,
        skeleton_fp=s_fp,
        skeleton_fn=s_fn,
        skeleton_precision=s_precision,
        skeleton_recall=s_recall,
        skeleton_f1=_f1(s_precision, s_recall),
        shd=len(missing) + len(extra) + len(rev),
        n_learned=len(learned_l),
        n_true=len(true_l),
    )
