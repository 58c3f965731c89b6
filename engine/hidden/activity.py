"""Is a hidden variable a measured regulator's own activity? (#22 item 5, session 16)

A transcription factor's measured level X is a noisy stand-in for its activity A (its mRNA is
measured with noise, and the protein is modified, bound or degraded after it is made). Write
``X = a A + e`` and each target ``T_i = w_i A + eps_i``. A linear-Gaussian network that gives each
target X as a parent leaves ``w_i (A - b X)`` in every target's residual: one shared signal, the
part of the activity the measured level misses. A hidden variable H that is a parent of the
targets takes it up, and the observed-data score rightly pays for it (the data do have one more
shared factor); then, in every family ``T_i <- X, H``,

    coef(X -> T_i) = w_i b,   coef(H -> T_i) = w_i c       (b, c the same for every target),

so over the children H and X share, **H's coefficients are proportional to X's**. A separate
regulator of the same genes has coefficients that owe nothing to X's. This module measures that:
for a hidden variable H, the observed variable X that is a parent of most of H's children, how many
it shares (``shared``, and as a share of H's children), and the cosine between the two coefficient
vectors over the shared children (``cosine``: proportional through the origin, as the model says;
+-1 when H's pattern is X's).

A hidden variable is reported as **X's activity** (:data:`MIN_SHARE`, :data:`MIN_COSINE`) when X
is a parent of at least half of its children (and at least :data:`MIN_SHARED` of them) and
``|cosine| >= 0.8`` (X's pattern carries at least 64 % of the squared length of H's over those
children). The thresholds follow from the meaning (most of H's children, most of its pattern), not
from a fit to a benchmark. It is a flag for a person to read ("H tracks fnrA's activity beyond its
measured level"), not a keep rule: the score's gain is real. Measured on the genome generators in
docs/decisions/genome-null-what-false-hs-track.md.

Not checked: that X is a listed regulator (any observed parent qualifies; callers may restrict),
and nothing is refitted: the coefficients are the network's as fitted.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import asdict, dataclass

import numpy as np

__all__ = ["MIN_COSINE", "MIN_SHARE", "MIN_SHARED", "ActivityMatch", "activity_match"]

#: X must be a parent of at least this share of H's children ...
MIN_SHARE = 0.5
#: ... and of at least this many of them
MIN_SHARED = 5
#: |cosine| of H's and X's coefficients over the shared children for the flag
MIN_COSINE = 0.8


@dataclass(frozen=True)
class ActivityMatch:
    """The observed variable whose coefficients best match hidden variable H's (see the module
    docstring): its name, how many of H's children it is a parent of, that as a share of H's
    children, the signed cosine of the two coefficient vectors over them, and whether that makes H
    this variable's activity (``flagged``)."""

    regulator: str
    shared: int
    share: float
    cosine: float
    flagged: bool

    def to_dict(self) -> dict:
        return asdict(self)


def activity_match(
    coef: np.ndarray,
    names: Sequence[str],
    n_observed: int,
    hidden: int,
    candidates: Sequence[int] | None = None,
) -> ActivityMatch | None:
    """:class:`ActivityMatch` of hidden variable ``hidden`` (an index of ``coef``).

    Parameters
    ----------
    coef : (N, N) ``coef[parent, child]`` of a linear-Gaussian network, observed variables first
    names : the N names
    n_observed : how many variables are observed
    hidden : H's index (>= ``n_observed``)
    candidates : indices of the observed variables that may stand for H (a regulator list);
        default every observed variable

    Returns None when H has no observed child or no candidate is a parent of one of them. Ties in
    the number of shared children go to the larger ``|cosine|``.
    """
    coef = np.asarray(coef, dtype=float)
    kids = np.flatnonzero(coef[hidden, :n_observed])
    cand = np.arange(n_observed) if candidates is None else np.asarray(list(candidates), dtype=int)
    cand = cand[cand != hidden]
    if kids.size == 0 or cand.size == 0:
        return None
    block = coef[np.ix_(cand, kids)]  # (candidates, H's children)
    shared = (block != 0).sum(axis=1)
    if shared.max() == 0:
        return None
    h = coef[hidden, kids]
    hx = block * h  # the cosine's numerator over each candidate's shared children
    h_norm = np.sqrt(((block != 0) * h**2).sum(axis=1))
    x_norm = np.sqrt((block**2).sum(axis=1))
    with np.errstate(invalid="ignore", divide="ignore"):
        cosine = np.where(shared > 0, hx.sum(axis=1) / (h_norm * x_norm), 0.0)
    order = np.lexsort((-np.abs(cosine), -shared))  # most shared children, then largest |cosine|
    j = int(order[0])
    n_shared, share, cos = int(shared[j]), float(shared[j] / kids.size), float(cosine[j])
    flagged = n_shared >= MIN_SHARED and share >= MIN_SHARE and abs(cos) >= MIN_COSINE
    return ActivityMatch(str(names[cand[j]]), n_shared, share, cos if math.isfinite(cos) else 0.0, flagged)
