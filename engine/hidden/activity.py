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
from a fit to a benchmark. It is a flag for a person to read, not a keep rule (the score's gain is
real), and not a verdict: a separate regulator whose activity moves with X's level gives the same
coefficients, so :func:`activity_readings` names both readings (docs/decisions/activity-flag-two-readings.md).
Measured on the genome generators in docs/decisions/genome-null-what-false-hs-track.md.

A second reading, :func:`nonlinear_match`: **H is a non-linear function of X**. When X's targets
respond to it through a threshold or a saturating curve, the linear families ``T_i <- X`` leave
``f_i(X) - b_i X`` in each target, shared where the curves are alike, and an H pays for it; its
profile is then nearly a function of X with no linear part (the linear part is in X's own edges). The
test regresses H's profile on ``X, X^2, X^3`` (standardized X, intercept) for every candidate X and
asks the quadratic and cubic terms for an extra-sum-of-squares F test, Bonferroni-corrected over
the candidates at :data:`ALPHA` (the level of :func:`.tracking.chance_corr`); flagged when that
holds and the cubic fit explains at least :data:`MIN_CURVE_R2` (half) of the profile's variance.
H's children would then be better served by X through a non-linear CPD (``--cpd sigmoid``) than
by a new regulator. Measured, not in the report: it names the curve Hs it was built for (cubic R^2
0.73-0.89) but also, at R^2 0.53-0.61, Hs of a batch table and of a real *E. coli* table by
unrelated regulators (the cubic terms lean on one or two extreme conditions), so it is used by the
study scripts only (docs/decisions/genome-null-what-false-hs-track.md).

Not checked: that X is a listed regulator (any observed parent qualifies; callers may restrict),
and nothing in the network is refitted: the coefficients are the network's as fitted. An H that
*replaces* X (X its child, X's targets no longer X's children) has no shared children to compare and
is not read as X's activity.

References
----------
.. [1] Liao J. C. et al. (2003). Network component analysis: reconstruction of regulatory signals in
       biological systems. PNAS 100(26), 15522-15527. https://doi.org/10.1073/pnas.2136632100
       (a TF's activity estimated from its targets, as distinct from its mRNA level)
.. [2] Elidan G., Nachman I., Friedman N. (2007). "Ideal Parent" structure learning for continuous
       variable Bayesian networks. JMLR 8, 1799-1833 (hidden variables, section 5).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import asdict, dataclass

import numpy as np
from scipy.stats import f as f_dist

__all__ = [
    "ALPHA",
    "MIN_COSINE",
    "MIN_CURVE_R2",
    "MIN_SHARE",
    "MIN_SHARED",
    "ActivityMatch",
    "NonlinearMatch",
    "activity_match",
    "activity_readings",
    "nonlinear_match",
]

#: X must be a parent of at least this share of H's children ...
MIN_SHARE = 0.5
#: ... and of at least this many of them
MIN_SHARED = 5
#: |cosine| of H's and X's coefficients over the shared children for the flag
MIN_COSINE = 0.8
#: family-wise level of the non-linear test (as :data:`.tracking.ALPHA`)
ALPHA = 0.05
#: share of H's profile variance a cubic in X must explain for the non-linear flag
MIN_CURVE_R2 = 0.5


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


def activity_readings(hidden: str, regulator: str) -> str:
    """The two readings of a flagged H, one sentence for the command line and the explorer alike.

    Not a verdict (docs/decisions/activity-flag-two-readings.md): a separate regulator R whose
    activity moves with X's level across the conditions gives each target ``coef(X -> T_i) = w_i b``
    (b the regression of R on X) and leaves ``w_i (R - b X)`` to H, the module docstring's pattern
    for X's own activity; only prior knowledge of X's targets tells them apart.
    """
    return (
        f"{hidden} may be the part of {regulator}'s activity its measured level misses (a regulator held "
        f"post-transcriptionally, or measured with noise), or a separate regulator of these genes whose "
        f"activity moves with {regulator}'s level in these conditions (the search then gave them {regulator} "
        f"as a stand-in parent). The coefficients look the same both ways: whether these genes are known "
        f"{regulator} targets tells them apart."
    )


@dataclass(frozen=True)
class NonlinearMatch:
    """The candidate X whose cubic ``X, X^2, X^3`` explains most of H's profile: its name, the
    cubic's R^2 and the straight line's, the Bonferroni-corrected p of the quadratic and cubic
    terms (F test), and whether that makes H a non-linear function of X (``flagged``)."""

    regulator: str
    r2: float
    linear_r2: float
    p: float
    flagged: bool

    def to_dict(self) -> dict:
        return asdict(self)


def _r2(y: np.ndarray, design: np.ndarray) -> np.ndarray:
    """R^2 of ``y`` (M,), centred, on each candidate's columns ``design`` (C, M, k) plus an
    intercept, by the normal equations (centred columns; a singular candidate gets 0)."""
    d = design - design.mean(axis=1, keepdims=True)
    gram = np.einsum("cmk,cml->ckl", d, d) + 1e-12 * np.eye(d.shape[2])
    xty = np.einsum("cmk,m->ck", d, y)
    beta = np.linalg.solve(gram, xty[..., None])[..., 0]
    return np.clip(np.einsum("ck,ck->c", beta, xty) / (y @ y), 0.0, 1.0)


def nonlinear_match(
    profile: np.ndarray, values: np.ndarray, names: Sequence[str], candidates: Sequence[int]
) -> NonlinearMatch | None:
    """:class:`NonlinearMatch` of H's ``profile`` (M,) against the columns ``candidates`` of
    ``values`` (M, n) named ``names`` (see the module docstring). None without candidates, with
    fewer than 8 instances (the F test's residual needs M - 4 degrees of freedom to mean anything)
    or a constant profile."""
    y = np.asarray(profile, dtype=float)
    cand = np.asarray(list(candidates), dtype=int)
    m = y.size
    y = y - y.mean()
    if cand.size == 0 or m < 8 or y @ y <= 0:
        return None
    x = np.asarray(values, dtype=float)[:, cand].T  # (C, M)
    sd = x.std(axis=1, keepdims=True)
    x = (x - x.mean(axis=1, keepdims=True)) / np.where(sd > 0, sd, 1.0)
    cubic = _r2(y, np.stack([x, x**2, x**3], axis=2))
    line = _r2(y, x[..., None])
    j = int(np.argmax(cubic))
    df = m - 4
    f_stat = ((cubic[j] - line[j]) / 2) / max((1.0 - cubic[j]) / df, 1e-300)
    p = float(min(1.0, f_dist.sf(f_stat, 2, df) * cand.size))
    flagged = p < ALPHA and cubic[j] >= MIN_CURVE_R2
    return NonlinearMatch(str(names[cand[j]]), float(cubic[j]), float(line[j]), p, bool(flagged))
