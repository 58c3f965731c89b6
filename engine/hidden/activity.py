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
and nothing in the network is refitted: the coefficients are the network's as fitted.

A third reading, :func:`takeover_match` (session 25): **H took over a listed regulator's targets**.
When X's measured level is a poor read-out of its activity (a knockout's probe at background, lab
and platform offsets, a protein modified after it is made), the search does better by *replacing*
X as its targets' parent: H is then a parent of X (``H -> X``: H the activity, X its noisy read-out)
or hangs under it (``X -> H``: H the activity given the level), and X's former children are H's.
There are no shared children to compare coefficients on, so the reading compares networks: of H's
children, how many were X's children in the network before H was added (``taken``), as a share of
H's children (``share``) and as a share of X's children then (``cover``). Flagged when X is a listed
regulator linked to H, at least :data:`MIN_SHARED` of H's children were X's, they are at least three
quarters of H's children (:data:`MIN_TAKEN_SHARE`) and at least four fifths of X's children then
(:data:`MIN_COVER`): H's children are X's regulon, and nearly all of it moved to H. A separate
regulator R that feeds X and a module of its own is given X as the module's stand-in parent before
H, so H takes those genes too; but X's own targets follow X's own activity and stay with X (cover
low), or R's module genes that X never had make up a quarter or more of H's children (share low).
On a table built so (``tests/engine/test_activity.py``: R drives 14 genes and 0.6 of X's activity,
X 10 more) H took 14 of X's 24 children (share 1.0, cover 0.58). Measured on the seen *E. coli*
compendium generator ``h23m`` (docs/decisions/activity-takeover.md): the Hs that are one listed TF's
true activity (|r| 0.99-1.00) took share 0.75-0.95 and cover 0.68-0.97 of it (4 of 6 flagged), the
removed CRP's H (|r| 0.99) share <= 0.69 of any listed target's children (cover up to 0.83): the
margin on share is narrow, and one that passes both is, to the network, X's activity (a relay), so
:func:`activity_readings` names both readings.
Without a regulator list the reading is not made: any child that tracks H (a module's hub gene)
stands in for it before H is added and would be read as its "activity". Measured on the seen
genome generators in docs/decisions/activity-takeover.md.

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
from collections.abc import Collection, Sequence
from dataclasses import asdict, dataclass

import numpy as np
from scipy.stats import f as f_dist

__all__ = [
    "ALPHA",
    "MIN_COSINE",
    "MIN_CURVE_R2",
    "MIN_SHARE",
    "MIN_SHARED",
    "MIN_COVER",
    "MIN_TAKEN_SHARE",
    "ActivityMatch",
    "NonlinearMatch",
    "TakeoverMatch",
    "activity_evidence",
    "activity_match",
    "activity_readings",
    "nonlinear_match",
    "takeover_match",
]

#: X must be a parent of at least this share of H's children ...
MIN_SHARE = 0.5
#: ... and of at least this many of them
MIN_SHARED = 5
#: share of H's children that were X's children in the network before H (:func:`takeover_match`)
MIN_TAKEN_SHARE = 0.75
#: share of X's children in the network before H that H took over (:func:`takeover_match`): X keeps at
#: most a fifth of its regulon
MIN_COVER = 0.8
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
        return {**asdict(self), "form": "co-parent"}


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


@dataclass(frozen=True)
class TakeoverMatch:
    """The listed regulator X linked to hidden variable H whose former children H took over (see the
    module docstring): its name, the link (``"child"``: ``H -> X``; ``"parent"``: ``X -> H``), how
    many of H's children were X's children in the network before H (``taken``), that as a share of
    H's children and of X's children then (``cover``), and whether that makes H X's activity
    (``flagged``)."""

    regulator: str
    link: str
    taken: int
    share: float
    cover: float
    flagged: bool

    def to_dict(self) -> dict:
        return {**asdict(self), "form": "takeover"}


def takeover_match(
    coef: np.ndarray,
    names: Sequence[str],
    n_observed: int,
    hidden: int,
    before: Collection[tuple[str, str]],
    regulators: Sequence[int] | None,
) -> TakeoverMatch | None:
    """:class:`TakeoverMatch` of hidden variable ``hidden`` (an index of ``coef``).

    Parameters
    ----------
    coef : (N, N) ``coef[parent, child]`` of a linear-Gaussian network, observed variables first
    names : the N names
    n_observed : how many variables are observed
    hidden : H's index (>= ``n_observed``)
    before : the (parent, child) name pairs of the network before H was added
    regulators : indices of the listed regulators (the only candidates for X); None or empty: no
        reading (see the module docstring)

    Returns None without a list, when H has no observed child, or when no listed regulator linked
    to H (its parent or child) had one of H's children as a child before. Ties in ``taken`` go to
    the larger ``cover``.
    """
    if not regulators:
        return None
    coef = np.asarray(coef, dtype=float)
    kids = {str(names[c]) for c in np.flatnonzero(coef[hidden, :n_observed])}
    if not kids:
        return None
    listed = {str(names[r]) for r in regulators if r < n_observed}
    linked = {
        str(names[x]): "child" if coef[hidden, x] != 0 else "parent"
        for x in np.flatnonzero((coef[hidden, :n_observed] != 0) | (coef[:n_observed, hidden] != 0))
        if str(names[x]) in listed
    }
    if not linked:
        return None
    was: dict[str, set[str]] = {x: set() for x in linked}
    for p, c in before:
        if p in was:
            was[p].add(c)
    best = max(linked, key=lambda x: (len(kids & was[x]), len(kids & was[x]) / max(1, len(was[x]))))
    taken = len(kids & was[best])
    if taken == 0:
        return None
    share, cover = taken / len(kids), taken / len(was[best])
    flagged = taken >= MIN_SHARED and share >= MIN_TAKEN_SHARE and cover >= MIN_COVER
    return TakeoverMatch(best, linked[best], taken, float(share), float(cover), bool(flagged))


def activity_evidence(act: dict, hidden: str, n_children: int) -> str:
    """What a flagged reading (``act``: :meth:`ActivityMatch.to_dict` or :meth:`TakeoverMatch.to_dict`)
    rests on, one clause for the command line and the explorer alike: the shared children and the
    cosine of the coefficients (``form`` ``"co-parent"``, the default of dicts written before session
    25), or the children H took over from the regulator and how the two are linked (``"takeover"``)."""
    reg = act["regulator"]
    if act.get("form") == "takeover":
        link = f"{reg} is now {hidden}'s child" if act["link"] == "child" else f"{hidden} now hangs under {reg}"
        return (
            f"{act['taken']} of its {n_children} children were {reg}'s in the network before {hidden} "
            f"({act['cover']:.0%} of {reg}'s children then) and {link}"
        )
    return (
        f"{reg} is a parent of {act['shared']} of its {n_children} children and {hidden}'s coefficients on them "
        f"are {reg}'s, scaled (cosine {act['cosine']:+.2f})"
    )


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
