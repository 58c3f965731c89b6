"""Leverage of a proposed hidden profile: is it one odd sample? (#22)

A hidden variable proposed from ideal profiles (JMLR 2007 section 5) is z* = Y v*; if one
condition is extreme in many genes (a failed array, a shock applied once), their ideal profiles
all share that spike and z* is the spike: large at one instance, near 0 elsewhere. Such a proposal
explains the genes' values at one instance, which a per-instance intercept would do as well; it is
not a regulator a biologist can vet.

``leverage`` = the largest share of z*'s energy (sum of squares about its mean) held by one
instance. A proposal is **flagged** when

* one instance holds more than :data:`ONE_SHARE` (half) of the energy, or
* two instances hold more than :data:`TWO_SHARE` of it,

and the flagged instances are named. For reference, a Gaussian profile's largest share is about
``2 log(M) / M`` (0.24 at M = 27, 0.16 at M = 50) and its two largest about 0.4 and 0.27; an
on/off driver active in three conditions puts about a third in each (0.33, 0.67: not flagged);
one active in two conditions, half in each (flagged, as the issue asks: "most of its energy from
one or two instances"). Below :data:`MIN_INSTANCES` instances nothing is flagged: one instance is
then a tenth of the data or more, and a share above a half is no longer remarkable.

**A few odd conditions plus noise** (session 18, ``h17m``: 1-2 conditions shift 80-120 random genes
by 3-5 sd; one kept H followed one at |r| 0.67 with leverage 0.43, under the half). The shares rule
looks at the profile alone, so it must allow for the largest of M shares; a condition that is odd
in the *table* is named before any profile is looked at. :func:`odd_conditions`: the conditions
where the count of cells at robust |z| > :data:`ODD_Z` (median and MAD per variable) is beyond
Tukey's far-out fence of the conditions' counts (Q3 + 3 IQR) and reaches :data:`ODD_COLUMNS` of the
variables and :data:`ODD_MIN_CELLS` cells (on a few dozen variables most conditions have no such
cell and the fence is 0: one far-off cell makes no odd condition). On ``h17m`` there are 25-60 such
cells at the odd conditions, at most 20 elsewhere and at most 15 at R*'s deletion and
over-expression strains. :func:`odd_share`: the share of a profile's energy in
them; a kept H holding more than :data:`ODD_SHARE` (a third; about ten times a fixed condition's
expected 1/M) there is flagged by those conditions. Measured on every kept H of the seen genome
runs: at most 0.22 (RESULTS.md, "Genome false Hs (session 18)").
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

__all__ = [
    "MIN_INSTANCES",
    "ODD_COLUMNS",
    "ODD_MIN_CELLS",
    "ODD_SHARE",
    "ODD_Z",
    "ONE_SHARE",
    "TWO_SHARE",
    "Leverage",
    "instance_names",
    "odd_conditions",
    "odd_share",
    "profile_leverage",
]

#: one instance holding more than this share of z*'s energy flags the proposal
ONE_SHARE = 0.5
#: two instances holding more than this share together flag it
TWO_SHARE = 0.8
#: fewer instances than this: never flagged
MIN_INSTANCES = 10
#: robust |z| (median, MAD) from which a cell counts as extreme in :func:`odd_conditions`
ODD_Z = 4.0
#: an odd condition has extreme cells in at least this share of the variables
ODD_COLUMNS = 0.01
#: ... and at least this many
ODD_MIN_CELLS = 10
#: a profile with more than this share of its energy in the table's odd conditions is flagged
ODD_SHARE = 1.0 / 3.0


@dataclass
class Leverage:
    """``share`` per instance (sums to 1), ``leverage`` = its maximum, ``instances`` the names of
    the one or two instances that flag the profile (empty when it is not flagged)."""

    share: np.ndarray
    leverage: float
    instances: list[str] = field(default_factory=list)

    @property
    def flagged(self) -> bool:
        return bool(self.instances)


def instance_names(labels: Sequence | None, n: int) -> list[str]:
    """The file's instance (condition) labels, or ``1..n`` when it has none."""
    if labels is not None and len(labels) == n:
        return [str(x) for x in labels]
    return [str(i + 1) for i in range(n)]


def profile_leverage(z: np.ndarray, labels: Sequence | None = None) -> Leverage:
    """Energy shares of a profile ``z`` (M,) about its mean, its leverage, and the flagged
    instances named by ``labels`` (see the module docstring)."""
    z = np.asarray(z, dtype=float)
    zc = z - z.mean()
    energy = float(zc @ zc)
    m = z.size
    if energy <= 0.0 or not np.isfinite(energy):
        return Leverage(np.full(m, 1.0 / max(m, 1)), 1.0 / max(m, 1))
    share = zc * zc / energy
    order = np.argsort(-share, kind="stable")
    lev = float(share[order[0]])
    names: list[str] = []
    if m >= MIN_INSTANCES:
        if lev > ONE_SHARE:
            names = [order[0]]
        elif m > 1 and float(share[order[0]] + share[order[1]]) > TWO_SHARE:
            names = [order[0], order[1]]
    label = instance_names(labels, m)
    return Leverage(share, lev, [label[i] for i in names])


def odd_conditions(values: np.ndarray) -> np.ndarray:
    """Indices of the conditions (rows of ``values``, M x variables) that are odd in the table: the
    count of cells at robust |z| > :data:`ODD_Z` beyond Q3 + 3 IQR of the rows' counts and at least
    :data:`ODD_COLUMNS` of the variables and :data:`ODD_MIN_CELLS` (module docstring); none below
    :data:`MIN_INSTANCES` rows."""
    values = np.asarray(values, dtype=float)
    m, n = values.shape
    if m < MIN_INSTANCES or n == 0:
        return np.zeros(0, dtype=int)
    med = np.nanmedian(values, axis=0)
    mad = 1.4826 * np.nanmedian(np.abs(values - med), axis=0)
    with np.errstate(invalid="ignore", divide="ignore"):
        z = np.where(mad > 0, np.abs(values - med) / np.where(mad > 0, mad, 1.0), 0.0)
    count = (np.nan_to_num(z) > ODD_Z).sum(axis=1)
    q1, q3 = np.percentile(count, [25, 75])
    return np.flatnonzero((count > q3 + 3.0 * (q3 - q1)) & (count >= max(ODD_COLUMNS * n, ODD_MIN_CELLS)))


def odd_share(z: np.ndarray, odd: np.ndarray) -> float:
    """The share of profile ``z``'s energy (about its mean) in the conditions ``odd``."""
    zc = np.asarray(z, dtype=float) - np.mean(z)
    energy = float(zc @ zc)
    return float(zc[np.asarray(odd, dtype=int)] @ zc[np.asarray(odd, dtype=int)] / energy) if energy > 0 else 0.0
