"""Where an accepted hidden variable starts (#22, session 19: the stand-in parent kept beside H).

Structural EM (JMLR 2007 section 6) adds H as parent of a proposal's members, started at the
proposal's profile z* (section 5, eq. 10-13): the leading direction of the members' *ideal
profiles*, i.e. of their residuals given their current parents. When the search has made a listed
regulator X a stand-in parent of the module (X correlates with the unmeasured regulator h through
the design), z* is h's part orthogonal to X, and EM stays there: with X's edges in every family,
an H that moved towards h would only duplicate them. H then tracks ``h - b X`` (newcomer walk,
docs/decisions/activity-flag-two-readings.md: |r| 0.74 with h) and the report reads it as X's
activity (``engine/hidden/activity.py``).

Two other starts, measured and selected by :data:`MODE`:

* ``"members"`` (a): H starts at the members' common profile, the leading left singular vector of
  their standardized columns (the posterior means of the current model: observed values, missing
  cells imputed), signed like z*; their listed parents are not regressed out.
* ``"drop"`` (b): H starts at z*, and the edges into the members from an observed parent of at
  least :data:`STAND_IN_SHARE` of them (the stand-in) are removed from the start, so structural
  EM re-searches those families with H present and puts an edge back only where the score pays.
* ``"both"``: (a) and (b) together.

``"residual"`` (z*, the stand-in's edges kept) is the default; see
docs/decisions/activity-flag-two-readings.md for what each start gave.
"""

from __future__ import annotations

import numpy as np

from .proposals import score_cluster

__all__ = ["MODE", "MODES", "STAND_IN_SHARE", "common_profile", "stand_in_edges", "start_of"]

#: the start used by ``HiddenSearch.accept`` and auto's trial (``engine/hidden/trial.py``)
MODE = "residual"
MODES = ("residual", "members", "drop", "both")
#: an observed parent of at least this share of the members counts as their stand-in
STAND_IN_SHARE = 0.5


def common_profile(mean: np.ndarray, columns: list[int], z: np.ndarray) -> np.ndarray:
    """The members' common profile: the proposals' z* (section 5, eq. 10-13) computed as if the members
    had no parents, i.e. their standardized columns of ``mean`` (instances x variables) weighted by the
    top eigenvector of their correlations (:func:`~.proposals.score_cluster`, the eigenpair z* takes
    from the ideal profiles' cosines; the leading left singular vector of the block), signed to correlate
    positively with ``z``, standardized. A constant column is left out."""
    block = np.asarray(mean, dtype=float)[:, columns]
    block = block - block.mean(axis=0)
    sd = block.std(axis=0)
    y = block[:, sd > 0] / sd[sd > 0]  # the ideal profiles with no parents, on unit scale (sigma_i = SD)
    m = y.shape[0]
    _, vec, _ = score_cluster(np.clip(y.T @ y / m, -1.0, 1.0), m)
    u = y @ vec
    u = u if float(u @ (z - np.mean(z))) >= 0 else -u
    return (u - u.mean()) / u.std()


def stand_in_edges(edges: list[tuple[str, str]], members: list[str], n_min: int = 2) -> set[tuple[str, str]]:
    """The edges ``X -> member`` of every parent X (not a member) of at least
    :data:`STAND_IN_SHARE` of ``members`` (and of ``n_min``)."""
    inside = set(members)
    into = [(p, c) for p, c in edges if c in inside and p not in inside]
    count: dict[str, int] = {}
    for p, _ in into:
        count[p] = count.get(p, 0) + 1
    need = max(n_min, STAND_IN_SHARE * len(inside))
    return {(p, c) for p, c in into if count[p] >= need}


def start_of(search, proposal, mode: str | None = None) -> tuple[np.ndarray, set[tuple[str, str]]]:
    """(H's start profile, the edges removed at the start) for ``proposal`` on ``search`` (a
    ``HiddenSearch``): z* and the proposal's removed edges under ``"residual"``; see the module
    docstring for the others. Hidden variables are never counted as stand-ins."""
    mode = MODE if mode is None else mode
    gone = {tuple(e) for e in proposal.removed_edges}
    profile = np.asarray(proposal.profile, dtype=float)
    names = list(search.names)
    if mode in ("members", "both"):
        index = {n: i for i, n in enumerate(names)}  # one lookup a member, not a scan of every name
        cols = [index[n] for n in proposal.names if n in index]
        profile = common_profile(search.em.mean, cols, profile)
    if mode in ("drop", "both"):
        observed = set(names[: search.n_observed])
        edges = [e for e in search.edges() if e not in gone and e[0] in observed]
        gone |= stand_in_edges(edges, list(proposal.names))
    return profile, gone
