"""A candidate hidden variable's score in two parts (JMLR 2007 section 5, scored as
:mod:`.candidates` explains): what :func:`candidate_parts` computes from the members' residuals with
the inside edges removed (the estimate's family terms, the top eigenpair of eq. 11-13 and z*), and
:func:`from_parts`, which adds the one-factor fit (:func:`~.factor.factor_fit`). One set at a time
:func:`~.candidates.score_candidate` joins them; :mod:`.grow_batch` fits the factors of many sets in
one batch between them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .proposals import score_cluster
from .residual_map import residual_map, residual_scatter
from .seed_batch import ROOT_PER_INSTANCE

__all__ = ["CandidateParts", "CandidateScore", "candidate_parts", "from_parts"]


@dataclass
class CandidateScore:
    """The estimate for one candidate set (see the module docstring)."""

    members: np.ndarray
    gain: float
    eigenvalue: float
    loadings: np.ndarray
    c2_members: np.ndarray
    profile: np.ndarray  # z* = Y v*, not yet standardized
    removed: list[tuple[int, int]]  # (parent, child) edges inside the set
    removed_loss: float  # score of the current families minus that of the families without them
    factor_loadings: np.ndarray  # ML one-factor loadings of the members' residual correlations
    complete_gain: float  # the paper's complete-data estimate (z* as if observed), inside edges removed
    step: tuple[int, ...] = ()  # an on/off step's conditions (:mod:`.onoff`); empty for other sources


@dataclass
class CandidateParts:
    """What :func:`score_candidate` computes before the one-factor fit (:func:`from_parts` adds it)."""

    members: np.ndarray
    removed: list[tuple[int, int]]
    current: float  # score of the members' current families
    kept: float  # score of the members' families on their outside parents
    add_pen: float  # penalty increase of adding H to every member's family
    pen_h: float  # H's own penalty as a root
    cos: np.ndarray  # residual cosines
    lam: float
    vec: np.ndarray
    c2m: np.ndarray
    z: np.ndarray  # z* = Y v*, not yet standardized
    start: np.ndarray  # the factor's starting loadings, sqrt(lambda*/M) v*


def candidate_parts(model, parents, members, scorer, xc: np.ndarray, keep=frozenset()) -> CandidateParts:
    """:func:`score_candidate` up to the factor fit (the estimate's terms, eq. 11-13's eigenpair and z*)."""
    members = np.asarray(members, dtype=np.intp)
    m = xc.shape[0]
    inside = set(int(v) for v in members)
    outs = [tuple(p for p in parents[i] if p not in inside or (p, int(i)) in keep) for i in members]
    removed = [(int(p), int(i)) for i in members for p in parents[i] if p in inside and (p, int(i)) not in keep]
    fits = [model.fit(int(i), o) for i, o in zip(members, outs, strict=True)]
    current = sum(scorer.family(model.fit(int(i), tuple(parents[i]))) for i in members)
    kept = sum(scorer.family(f) for f in fits)
    idx = np.array(sorted(inside.union(*[set(o) for o in outs])), dtype=np.intp)
    coefs = [f.params["coefficients"] if o else () for f, o in zip(fits, outs, strict=True)]
    w = residual_map(members, outs, coefs, idx)  # sparse: hundreds of members at genome scale
    yty = residual_scatter(w, model.scatter[np.ix_(idx, idx)])
    rss = np.maximum(np.diag(yty), 1e-300)
    cos = np.clip(yty / np.sqrt(np.outer(rss, rss)), -1.0, 1.0)
    np.fill_diagonal(cos, 1.0)
    lam, vec, c2m = score_cluster(cos, m)
    add_pen = sum(scorer.penalty(len(o) + 3, len(o) + 1) - scorer.penalty(len(o) + 2, len(o)) for o in outs)
    sig = np.sqrt(rss / m)
    z = (xc[:, idx] @ w / sig) @ vec  # Xc W (a dense array: dense @ sparse), each residual on unit scale
    start = vec * math.sqrt(lam / m)
    return CandidateParts(members, removed, current, kept, add_pen, scorer.penalty(2, 0), cos, lam, vec, c2m, z, start)


def from_parts(p: CandidateParts, fgain: float, load: np.ndarray) -> CandidateScore:
    """The :class:`CandidateScore` of :func:`candidate_parts` with the factor's gain and loadings."""
    gain = p.kept + fgain - p.add_pen - p.pen_h - p.current
    # the paper's estimate (section 5): C2 bound and root log-likelihood of z* as if observed
    complete = p.kept + float(p.c2m.sum()) + p.z.size * ROOT_PER_INSTANCE - p.add_pen - p.pen_h - p.current
    loss = float(p.current - p.kept)
    return CandidateScore(p.members, float(gain), p.lam, p.vec, p.c2m, p.z, p.removed, loss, load, complete)
