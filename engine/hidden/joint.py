"""Joint re-assignment: a hidden variable takes a variable as its child together with the edges
that stood in for it (#22 item 1).

Structural EM (Friedman 1998; Elidan et al., JMLR 2007 section 6) alternates an M-step, a
structure search on the expected statistics under the posterior Q of the hidden variables, with
an E-step that refits Q to the structure. Both steps are local, and on the ``hub`` generator of
``benchmarks/planted_general.py`` they stop in a *joint* local optimum: a missing child Y of H is
tied to H's children by edges both ways (Y -> K and K -> Y for children K of H), so H -> Y alone
adds nothing given those edges (the M-step's single moves, the restarts and the order search do
not take it), and removing them alone loses what they explain, while H -> Y with those edges
removed *and Q refitted* pays (``hub`` 103: auto's model -6769.15, with that move and a climb
-6764.59 and 12/14 children against 11/14; RESULTS.md, #22; docs/decisions/
hidden-regulators-joint-move.md). The take-over move (:mod:`.takeover`) moves the edges of one proxy
child to H; this move re-assigns one variable at a time, jointly in structure and posterior:

* the candidates Y are the observed non-children of H whose values depend on E[H | x] by the
  score's own one-parent test, ``-(M/2) log(1 - r^2) > pen(Y | H) - pen(Y)``, r = corr(x_Y,
  E[H | x]) (the marginal test :func:`~.trial.weak_children` applies to H's children, turned round);
* for each, on a copy: H -> Y added, every edge between Y and a child of H removed (both
  directions; where the result would be cyclic, the edges into H too), :data:`JOINT_WARMUP`
  parametric EM iterations to refit Q to the new structure (the E-step of section 6 on a fixed
  structure), then structural EM;
* the copy with the highest *observed-data* score (hidden variables integrated out exactly) is
  taken when that is higher than the model's and H's children changed, and the round repeats from
  it, at most :data:`JOINT_ROUNDS` times.

The move never returns a model that scores lower than its input, and a hidden variable kept after
it still has to beat the best network without it (:mod:`.trial`). Required edges are never
removed and a forbidden H -> Y is never added. Not checked: that the child found is a planted one;
only the score decides (a tried variant that moved whole sets at once, every grandchild of H or
every variable passing the test, gave H wrong children and lower scores on ``hub``).

References: N. Friedman, The Bayesian structural EM algorithm, UAI 1998; G. Elidan, I. Nachman,
N. Friedman, "Ideal Parent" structure learning for continuous variable Bayesian networks, JMLR
8:1799-1833, 2007, section 6.
"""

from __future__ import annotations

import numpy as np

from .em import StructuralEM
from .model_copy import copy_model
from .takeover import _acyclic

__all__ = ["JOINT", "JOINT_ROUNDS", "JOINT_WARMUP", "joint_candidates", "joint_reassign"]

#: the move in auto's trials (:func:`engine.hidden.climb.climb_taken_over`, after the take-over
#: move): off, measured and not adopted (on ``hub`` and ``layered`` it traded one recovered seed for
#: another, at 1.1-1.4x auto's CPU and more; docs/decisions/hidden-regulators-joint-move.md)
JOINT = False

#: rounds of the move (each re-assigns at most one variable to each hidden variable)
JOINT_ROUNDS = 3

#: parametric EM iterations that refit H's posterior to its new child before structural EM
JOINT_WARMUP = 5


def _children(em: StructuralEM, col: int) -> set[int]:
    return {c for p, c in em.edges if p == col and c < em.n_obs}


def _profile_set(em: StructuralEM, col: int, children: set[int]) -> list[int]:
    """Observed non-children of ``col`` that pass the score's one-parent test on E[H | x]."""
    m = em.n_samples
    z = em.mean[:, col] - em.mean[:, col].mean()
    x = em.mean[:, : em.n_obs] - em.mean[:, : em.n_obs].mean(axis=0)
    denom = np.sqrt(max(float(z @ z), 1e-300) * np.maximum((x * x).sum(axis=0), 1e-300))
    r2 = np.clip(((z @ x) / denom) ** 2, 0.0, 1.0 - 1e-15)
    gain = -0.5 * m * np.log1p(-r2)
    cost = em.scorer.penalty(3, 1) - em.scorer.penalty(2, 0)
    return [int(y) for y in np.flatnonzero(gain > cost) if int(y) not in children]


def joint_candidates(em: StructuralEM, col: int) -> list[tuple[int, list[tuple[int, int]]]]:
    """The structures (variable Y, sorted edges) the move tries for hidden variable ``col``: one per
    candidate Y of the module docstring, acyclic, within the required and forbidden edges."""
    edges = set(em.edges)
    required = {(int(p), int(c)) for p, c in em.required}
    banned = set(em._forbidden())
    children = _children(em, col)
    into = {(p, c) for p, c in edges if c == col} - required
    out = []
    for y in _profile_set(em, col, children):
        if (col, y) in banned:
            continue
        gone = {(p, c) for p, c in edges if (c == y and p in children) or (p == y and c in children)} - required
        new = (edges - gone) | {(col, y)}
        if not _acyclic(new, em.n_vars):
            new -= into
        if _acyclic(new, em.n_vars):
            out.append((y, sorted(new)))
    return out


def joint_reassign(em: StructuralEM, rounds: int = JOINT_ROUNDS) -> StructuralEM:
    """The move of the module docstring on every hidden variable of ``em`` (left as it is): the
    best model reached, or ``em`` itself when no candidate raises the observed-data score (also
    when there is no hidden variable, nothing to re-assign, or the structure is fixed)."""
    if em.n_vars == em.n_obs or em.fixed_structure:
        return em
    for _ in range(rounds):
        now = em.observed_bic()
        best, best_score = None, now + 1e-9 * max(1.0, abs(now))
        for col in range(em.n_obs, em.n_vars):
            children = _children(em, col)
            for _, edges in joint_candidates(em, col):
                new = copy_model(em)
                new.edges, new.warmup = edges, JOINT_WARMUP
                new.run()
                new.warmup = em.warmup
                score = new.observed_bic()
                if score > best_score and _children(new, col) != children:
                    best, best_score = new, score
        if best is None:
            break
        em = best
    return em
