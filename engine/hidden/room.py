"""Room for a new hidden variable under the parent cap (#22).

A proposal's member whose family already has the most parents a family may have (the user's
``max_parents``, or the score's own cap: EBIC's ``0.25 M``, 6 parents at M = 27) cannot take
H -> member in the starting network. Rather than refuse the whole proposal, such a member gives
up its weakest parent(s) to H in the start: the family is fitted on its parents and H's starting
profile z*, and the parent whose removal raises the residual sum of squares least is dropped,
one at a time, until H fits. The removal cost of parent j in one least-squares fit is
``beta_j^2 / [(A^T A)^-1]_jj`` (the partial F numerator), so every parent is weighed at once.

Only the start changes: structural EM is free to give the edge back, and the trial is scored
against the best network without H as before (:func:`~engine.hidden.trial.auto_step`).
Required edges are never dropped; a member whose required parents leave no room is left out of
H's starting children.
"""

from __future__ import annotations

import numpy as np

from ..search.constraints import effective_cap

__all__ = ["make_room", "parent_cap"]


def parent_cap(em) -> int:
    """The most parents a family of ``em`` (a :class:`~.em.StructuralEM`) may start with: the
    user's ``max_parents`` or the score's own cap, whichever is lower."""
    return effective_cap(em.scorer, em.settings.max_parents)[0]


def _weakest(y: np.ndarray, cols: np.ndarray, droppable: np.ndarray) -> int:
    """Index (into ``cols``' columns) of the droppable column whose removal from the least-squares
    fit of ``y`` on [1, cols] raises the residual sum of squares least."""
    a = np.column_stack([np.ones(len(y)), cols])
    gram_inv = np.linalg.pinv(a.T @ a)
    beta = gram_inv @ (a.T @ y)
    cost = beta[1:] ** 2 / np.maximum(np.diag(gram_inv)[1:], 1e-300)
    cost = np.where(droppable, cost, np.inf)
    return int(np.argmin(cost))


def make_room(
    em, profile: np.ndarray, children: list[str], edges: list[tuple[str, str]], cap: int | None = None
) -> tuple[list[str], list[tuple[str, str]], list[tuple[str, str]]]:
    """Make room for H -> child in every family of ``children`` at the cap (section docstring).

    ``em`` is the model the start is built from (its names, current values and required edges),
    ``profile`` H's starting profile, ``edges`` the start's edges (name pairs). Returns (children
    that take H, the edges kept, the edges given up)."""
    cap = parent_cap(em) if cap is None else int(cap)
    parents: dict[str, list[str]] = {}
    for p, c in edges:
        parents.setdefault(c, []).append(p)
    full = [c for c in children if len(parents.get(c, ())) >= cap]
    if not full:
        return list(children), list(edges), []
    index = {n: i for i, n in enumerate(em.names)}
    required = {(em.names[p], em.names[c]) for p, c in em.required}
    z = np.asarray(profile, dtype=float)
    z = (z - z.mean()) / max(float(z.std()), 1e-12)
    gone: set[tuple[str, str]] = set()
    left_out: set[str] = set()
    for c in full:
        pa = list(parents[c])
        keep = np.array([(p, c) not in required for p in pa])
        if int(keep.sum()) < len(pa) - (cap - 1):
            left_out.add(c)  # its required parents alone fill the cap
            continue
        while len(pa) > cap - 1:
            cols = np.column_stack([em.mean[:, [index[p] for p in pa]], z])
            j = _weakest(em.mean[:, index[c]], cols, np.append(keep, False))
            gone.add((pa.pop(j), c))
            keep = np.delete(keep, j)
    kept = [e for e in edges if tuple(e) not in gone]
    return [c for c in children if c not in left_out], kept, sorted(gone)
