"""Random restarts and an order-based search on one structural-EM model, kept only if its
observed-data score rises (#22): applied by :mod:`.trial` to both sides of the hidden-variable keep
test, every network without H and every start's model with H, so that H is not credited with the
search's way out of a local optimum.

Restarts (thesis section 2.3.3, Algorithm 2): 20 random moves, climb, keep if better, stop after 10
in a row that fail. Then an order-based search (:mod:`engine.search.order`, Teyssier & Koller 2005)
from the network reached: one order move turns all of a hub's edges at once, which the single moves
of the greedy search and the restarts rarely do (on the ``hub`` generator the children of a planted
root stay tied to a hub whose edges point into it; docs/decisions/hidden-regulators-order-search.md).
"""

from __future__ import annotations

import numpy as np

from ..search.order import order_climb
from ..search.restarts import climb_with_restarts
from . import joint
from .em import StructuralEM
from .model_copy import copy_model
from .takeover import take_over

__all__ = [
    "ORDER_SEARCH",
    "RESTARTS",
    "RESTART_SEED",
    "TAKEOVER",
    "climb",
    "climb_once",
    "climb_taken_over",
    "copy_model",
]

#: random restarts of the observed-only networks on small networks (:func:`climb`): restarts in a
#: row without a gain before stopping, and random moves per restart; (0, 0) switches them off
RESTARTS = (10, 20)

#: seed of the restarts' random moves (auto stays deterministic)
RESTART_SEED = 0

#: after the restarts, an order-based search (:mod:`engine.search.order`) from the network reached
ORDER_SEARCH = True

#: on a model with hidden variables, then the take-over move (:mod:`.takeover`: H takes the
#: children of its proxy child, or drops its parents), and restarts and the order search again
#: from where it led when it pays (a trial runs it on its best start only:
#: :data:`engine.hidden.trial.TAKEOVER_BEST_ONLY`)
TAKEOVER = True


def climb(em: StructuralEM, restarts: tuple[int, int] = RESTARTS, *, takeover: bool = True) -> StructuralEM:
    """:func:`climb_once`; on a model with hidden variables (with :data:`TAKEOVER` and
    ``takeover``) then :func:`climb_taken_over` from the model it reached."""
    out = climb_once(em, restarts)
    return climb_taken_over(out, restarts) if takeover else out


def climb_taken_over(em: StructuralEM, restarts: tuple[int, int] = RESTARTS) -> StructuralEM:
    """The take-over move of :mod:`.takeover` on ``em`` (with :data:`TAKEOVER`, on a model with
    hidden variables), then the joint re-assignment of :mod:`.joint` (with ``joint.JOINT``), and
    when they raise the observed-data score, :func:`climb_once` again from the model reached;
    otherwise ``em`` itself."""
    if not TAKEOVER or em.n_vars == em.n_obs or em.fixed_structure or restarts[0] <= 0 or restarts[1] <= 0:
        return em
    moved = take_over(em)
    if joint.JOINT:
        moved = joint.joint_reassign(moved)
    return em if moved is em else climb_once(moved, restarts)


def climb_once(em: StructuralEM, restarts: tuple[int, int] = RESTARTS) -> StructuralEM:
    """Random restarts (thesis section 2.3.3, Algorithm 2; :func:`engine.search.restarts.climb_with_restarts`,
    the resumable stepper) from the converged structure of ``em`` on its expected statistics.
    When they reach a structure with a higher score, structural EM is run again from it on a copy,
    and the copy is returned if its observed-data score is higher; otherwise ``em`` is.

    A greedy search of a dense network stops far from the optimum of its own score (#22: on the
    ``dense`` null networks, 20 random moves per restart until 10 in a row fail raised the
    observed-only BIC by 28-201 nats). A hidden variable kept against such a network is often
    paid for by the search's way out of a local optimum, not by a regulator."""
    n_restarts, n_moves = restarts
    if n_restarts <= 0 or n_moves <= 0 or em.fixed_structure:
        return em
    # no new edge into a hidden variable: a random reversal of H -> X scores the same as X -> H
    # (one regression turned round) and would leave H with X as its parent
    saved, edges = em.user_forbidden, set(em.edges)
    into = [(x, h) for h in range(em.n_obs, em.n_vars) for x in range(em.n_vars) if x != h and (x, h) not in edges]
    em.user_forbidden = list(saved) + into
    try:
        stepper = em.make_stepper(max_parents=em.stepper.max_parents if em.stepper is not None else None)
    finally:
        em.user_forbidden = saved
    before = stepper.score
    climb_with_restarts(stepper, n_restarts, n_moves, np.random.default_rng(RESTART_SEED))
    reached, edges = stepper.score, sorted(stepper.edges())
    if ORDER_SEARCH and not stepper.required.any():
        by_order, order_edges = order_climb(stepper)
        if by_order > reached:
            reached, edges = by_order, order_edges
    if not reached > before + 1e-9 * max(1.0, abs(before)):
        return em
    new = copy_model(em)
    new.edges = edges
    new.run()
    return new if new.observed_bic() > em.observed_bic() else em
