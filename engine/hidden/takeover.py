"""A hidden variable takes over the children of its proxy child (#22).

When one child K of a hidden variable H is nearly H itself (a large load and little noise of its
own), structural EM settles in a local optimum where H's other children hang off K (K -> Y)
instead of H (H -> Y): given H's posterior, which then rests on K alone, each single edge
H -> Y adds nothing over K -> Y (the gain is zero to within the noise of K), so no move of the
greedy search, the restarts or the order search (:mod:`engine.search.order`) turns them, although
all of them turned together sharpen H's posterior and pay. The same local optimum has H take
observed parents that are the parents of its children (H standing in for their common parents
rather than for a regulator of its own), which blocks H -> Y by acyclicity.

On the seen generators of ``benchmarks/planted_general.py`` (``hub``, ``layered``) with the true
child set and the true h as the start, the model with H held 3-4 of 12-18 planted children this
way (docs/decisions/hidden-regulators-takeover.md). The move here, on a model with hidden
variables, tries for each of them:

* ``adopt``: for the observed child K whose values correlate most with E[H | x] (the proxy), every
  edge K -> Y to a variable Y that is not yet H's child becomes H -> Y;
* ``root``: when H has parents, the edges into H removed (H a root), alone and with ``adopt``;
* ``gather`` (with :data:`GATHER`): the observed co-parent of the most of H's children made H's
  child, its edges into them removed (:func:`gather`);

each on a copy, structural EM run from it; the best copy is taken when its observed-data score is
higher, for at most :data:`TAKEOVER_ROUNDS` rounds. A copy is scored by the same observed-data
score as every other model, so nothing is kept that does not pay.
"""

from __future__ import annotations

from graphlib import CycleError, TopologicalSorter

import numpy as np

from .em import StructuralEM
from .model_copy import copy_model

__all__ = ["GATHER", "LIFT_SCREEN", "TAKEOVER_ROUNDS", "lift_screen", "proxy_child", "take_over", "takeover_candidates"]

#: rounds of the move (each round tries every candidate of every hidden variable once)
TAKEOVER_ROUNDS = 3

#: also try ``gather`` (the observed co-parent of the most of H's children becomes its child:
#: :func:`gather`; on since session 15, measured on every general generator and null:
#: docs/decisions/hidden-regulators-small-roots.md)
GATHER = True

#: the take-over on a trial's best start runs without the child screen's bans on H's edges
#: (:func:`lift_screen`; on with :data:`GATHER`; docs/decisions/hidden-regulators-small-roots.md)
LIFT_SCREEN = True


def lift_screen(em: StructuralEM, col: int) -> StructuralEM:
    """``em`` without the bans a trial's child screen put on the edges out of hidden variable
    ``col`` (:func:`engine.hidden.trial._screen` drops weak or stand-in children and forbids them
    so that structural EM does not re-add them at once): a copy when there are any (with
    :data:`LIFT_SCREEN`), else ``em`` itself. A user's forbidden edges are between observed
    variables and stay. The screen ran on H's posterior of that moment: a child it dropped
    (``mixed`` seed 0: two true children of the second root, then held by a proxy and by H's
    parent) cannot come back through any later move while banned."""
    if not LIFT_SCREEN or not any(p == col for p, _ in em.user_forbidden):
        return em
    new = copy_model(em)
    new.user_forbidden = [e for e in em.user_forbidden if e[0] != col]
    return new


def _acyclic(edges, n: int) -> bool:
    graph: dict[int, set[int]] = {c: set() for c in range(n)}
    for p, c in edges:
        graph[c].add(p)
    try:
        for _ in TopologicalSorter(graph).static_order():
            pass
    except CycleError:
        return False
    return True


def proxy_child(em: StructuralEM, col: int) -> int | None:
    """The observed child of hidden variable ``col`` whose values correlate most (in absolute
    value, over the instances) with E[H | x], among those with children that H does not have."""
    edges = set(em.edges)
    kids = [c for p, c in em.edges if p == col and c < em.n_obs]
    kids = [k for k in kids if any(p == k and c != col and (col, c) not in edges for p, c in em.edges)]
    if not kids:
        return None
    z = em.mean[:, col] - em.mean[:, col].mean()
    x = em.mean[:, kids] - em.mean[:, kids].mean(axis=0)
    r = np.abs(z @ x) / np.sqrt(max(float(z @ z), 1e-300) * np.maximum((x * x).sum(axis=0), 1e-300))
    return int(kids[int(np.argmax(r))])


def takeover_candidates(em: StructuralEM, col: int) -> list[tuple[str, list[tuple[int, int]]]]:
    """The structures (label, sorted edges) the move tries for hidden variable ``col``: ``root``,
    ``adopt K`` and ``root+adopt K`` (module docstring), the acyclic ones among them. Required
    edges are never removed, and ``adopt`` moves no edge K -> Y where H -> Y is forbidden."""
    edges = set(em.edges)
    required = {(int(p), int(c)) for p, c in em.required}
    into = {(p, c) for p, c in edges if c == col} - required
    out: list[tuple[str, set[tuple[int, int]]]] = []
    if into:
        out.append(("root", edges - into))
    k = proxy_child(em, col)
    if k is not None:
        banned = set(em._forbidden())  # e.g. H -> Y dropped and forbidden by a trial's child screen
        moved = {(k, c) for p, c in edges if p == k and c != col and (col, c) not in edges | banned} - required
        if moved:
            adopt = (edges - moved) | {(col, c) for _, c in moved}
            out.append((f"adopt {em.names[k]}", adopt))
            if into:
                out.append((f"root+adopt {em.names[k]}", adopt - into))
    if GATHER:
        gathered = gather(em, col, edges, required)
        if gathered is not None:
            out.append(("gather", gathered))
    return [(label, sorted(e)) for label, e in out if _acyclic(e, em.n_vars)]


def gather(em: StructuralEM, col: int, edges: set, required: set) -> set | None:
    """``gather``: the observed co-parent K of the most of H's children (at least two: K -> Y1,
    K -> Y2), ties broken by |corr(x_K, E[H | x])|, made H's child, its edges into H's children
    removed; H keeps its parents. The local optimum it leaves: another child K of the regulator,
    with H's other children hanging off it, carries the regulator's signal beside H (``mixed``
    seed 1000's second root; docs/decisions/hidden-regulators-small-roots.md). H's ancestors are
    not candidates (H -> K would close a cycle), nor K with H -> K forbidden (a trial's child
    screen: :func:`lift_screen`). Required edges stay. None when there is no such K."""
    banned = set(em._forbidden())
    kids = {c for p, c in edges if p == col}
    above = _ancestors(edges, col)
    hits: dict[int, int] = {}
    for p, c in edges:
        if c in kids and p < em.n_obs and p not in kids and p not in above and (col, p) not in banned:
            hits[p] = hits.get(p, 0) + 1
    coparents = [k for k, n in hits.items() if n >= 2]
    if not coparents:
        return None
    z = em.mean[:, col] - em.mean[:, col].mean()
    x = em.mean[:, coparents] - em.mean[:, coparents].mean(axis=0)
    r = np.abs(z @ x) / np.sqrt(max(float(z @ z), 1e-300) * np.maximum((x * x).sum(axis=0), 1e-300))
    k = coparents[max(range(len(coparents)), key=lambda i: (hits[coparents[i]], float(r[i]), -coparents[i]))]
    dropped = {(k, c) for p, c in edges if p == k and c in kids} - required
    return (edges - dropped) | {(col, k)}


def _ancestors(edges, v: int) -> set[int]:
    """The ancestors of ``v`` in the graph of ``edges``."""
    parents: dict[int, set[int]] = {}
    for p, c in edges:
        parents.setdefault(c, set()).add(p)
    seen: set[int] = set()
    todo = [v]
    while todo:
        for p in parents.get(todo.pop(), ()):
            if p not in seen:
                seen.add(p)
                todo.append(p)
    return seen


def take_over(em: StructuralEM, rounds: int = TAKEOVER_ROUNDS) -> StructuralEM:
    """The move of the module docstring on every hidden variable of ``em`` (left as it is).
    Returns the best model reached, or ``em`` itself when no candidate raises the observed-data
    score."""
    if em.n_vars == em.n_obs or em.fixed_structure:
        return em
    for _ in range(rounds):
        now = em.observed_bic()
        best, best_score = None, now + 1e-9 * max(1.0, abs(now))
        for col in range(em.n_obs, em.n_vars):
            for _, edges in takeover_candidates(em, col):
                new = copy_model(em)
                new.edges = edges
                new.run()
                score = new.observed_bic()
                if score > best_score:
                    best, best_score = new, score
        if best is None:
            break
        em = best
    return em
