"""The ``completed`` start of a hidden-variable trial (#22): the structure searched as if H were
observed at its starting profile.

Structural EM is a local search in two spaces at once, H's values and the structure, and on dense
networks it stays near where it starts: from the learned network (H's effect absorbed by edges
among its children, reversed edges, spurious parents) or from a cleared one, the greedy M-steps
do not reach the structure around H that the data support, even with the exact child set and the
true h as H's start (``dense`` seed 2: -8599.8 and -8584.6 against -8505.5 from the true
structure). The first M-step of hard EM does: H is filled in with a draw from its posterior
(stochastic EM's completion; the posterior mean would make H an exact linear function of its
Markov blanket), the data are then complete, and the structure is searched on them with the same
effort as every network without H (random restarts and the order search, :func:`~.climb.climb`).
H stays a root there; its parents, where any, are left to structural EM. The network reached, H's
children included, is the start; structural EM then re-estimates H's posterior and the structure
on the observed data, and the trial is scored on the observed data as every other start
(:mod:`.trial`; JMLR 2007 section 6; thesis ch. 4, FindHidden with the structure re-learned).

Earlier hidden variables are filled in at their posterior means; the search starts from their
edges and adds none into them. Missing cells are filled in at their current posterior means (the
start only: structural EM works on the data as they are). The user's required and forbidden edges
and the regulator list hold as in every model.
"""

from __future__ import annotations

import numpy as np

from ..data import from_array
from .climb import climb
from .em import StructuralEM

__all__ = ["DRAW_SEED", "completed_start"]

#: seed of the draw from H's posterior that fills H in (auto stays deterministic)
DRAW_SEED = 0


def completed_start(search, name: str, profile, variance=None) -> tuple[list[tuple[str, str]], list[str]]:
    """Observed edges and H's children of the network searched on the data completed with H
    (named ``name``) at ``profile`` (standardized), for :meth:`~.search.HiddenSearch._new_model`.
    With ``variance`` (H's posterior variance per instance), H is filled in with a draw from its
    posterior, ``profile + sqrt(variance) * e`` (seeded, :data:`DRAW_SEED`), as stochastic EM does:
    a posterior mean is an exact linear function of the observed columns of H's Markov blanket,
    and completed with it the data would let a family with H and that blanket fit its child
    exactly (a degenerate likelihood the search would chase).

    ``search`` is a :class:`~.search.HiddenSearch`; its current model gives the earlier hidden
    variables' posterior means and their edges, and the missing cells' current means. A constant
    profile (H left without children) gives no start: ``([], [])``."""
    em = search.em
    z = np.asarray(profile, dtype=float)
    if variance is not None:
        noise = np.random.default_rng(DRAW_SEED).normal(size=z.shape)
        z = z + np.sqrt(np.maximum(np.asarray(variance, dtype=float), 0.0)) * noise
    sd = z.std()
    if not sd > 1e-9 * max(1.0, float(np.abs(z).max())):  # H without children: a constant posterior
        return [], []
    z = (z - z.mean()) / sd
    earlier = list(em.names[em.n_obs :])
    names = list(em.names) + [name]
    data = from_array(np.column_stack([em.mean, z]), names, standardize=False)
    hidden = set(earlier) | {name}
    kept = [(em.names[p], em.names[c]) for p, c in em.edges if em.names[c] in hidden or em.names[p] in hidden]
    into = {(p, h) for h in hidden for p in names if p != h} - set(kept)
    options = {k: v for k, v in search.em_options.items() if k in ("required", "forbidden", "regulators")}
    options["parent_only"] = [em.names[i] for i in em.parent_only]  # the data here are new: no covariates
    options["forbidden"] = list(options.get("forbidden") or ()) + sorted(into)
    if options.get("regulators") is not None:  # filled-in hidden variables may be parents as before
        options["regulators"] = list(options["regulators"]) + sorted(hidden)
    full = StructuralEM(data, em.settings, initial_edges=kept, **options)
    full.run()
    full = climb(full)
    edges = [(full.names[p], full.names[c]) for p, c in full.edges]
    children = [c for p, c in edges if p == name]
    return [e for e in edges if e[0] != name], children
