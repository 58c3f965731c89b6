"""Are a hidden variable's children set apart from its listed parents' other targets? (#22, session 18)

A hidden variable H proposed from ideal profiles (JMLR 2007 section 5) and kept by structural EM
(section 6) stands for a regulator the table lacks when its children follow its profile more
closely than the genes around them. On the genome nulls (``benchmarks/bench_regulators_genome*.py``,
``bench_regulators_genome_h17.py``'s ``h17m-null``) the false Hs with listed parents X are the
pooled activity of a hub among X (:mod:`.pooled`): their children are a few dozen of the hub's
hundreds of targets, which each depend on it with a weight of their own. Many of the hub's other
targets, still children of X in the network, then follow H's profile as closely as H's own
children do: nothing sets the children apart. A regulator's module does not share its profile
with a listed regulator's target list; when H takes a listed parent (the ``H <- TF`` case), that
TF's other targets follow H only as far as the TF explains H.

The reading: for a kept H with at least one observed parent (among the candidates, a regulator
list), its **rival targets** are the observed variables that are not H's children, not its parents
and not another hidden variable's children, that have one of H's observed parents as a parent in
the network, and whose |correlation| with H's profile (posterior means) is at least the median of
H's children's. H is read as its parents' targets (``flagged``) when it has at least
:data:`RIVAL_SHARE` (a half) as many rival targets as children: then at most two thirds of the
genes that follow H as closely as its median child are its children. Unlike :mod:`.pooled`'s gain
per child it does not depend on how strongly each child responds, so it also reads hub Hs that
gain more than 3 nats a child (``h17m-null`` 1759: 3.3 a child, 29 rival targets to 38 children, its
hubs 724 and 596 targets); seed 1757's (15 rivals to 41 and 34 children) it does not, the R^2 leg of
:mod:`.pooled` does.

An H without observed parents is read the same way against the listed regulator (among the
``candidates``, never one of H's children) whose profile is closest to H's (largest |r|), when a
regulator list is given: ``h17m-null`` 1757's parentless false H (11 of its 14 children true targets
of one hub) is of the same kind; H then stands for that regulator's targets without the edge
(``closest`` true). H's children are never taken as that regulator: a child regulator's own targets
are H's grandchildren and follow H for that reason (``h16m-null`` 1652 would read 50 rivals to 31
children so, and 1 without). Without a list no parentless H is read (any variable may be a parent).

A reading for a person, not a keep rule: the observed-data score's gain is real (the hub's weak
effects pooled), the question is what H is.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass

import numpy as np

from .correlation import column_corr

__all__ = ["RIVAL_SHARE", "SHOWN", "HubTargets", "hub_targets", "hub_text"]

#: H is read as its parents' targets from this many rival targets per child
RIVAL_SHARE = 0.5
#: rival targets named in the reading (closest first)
SHOWN = 5


@dataclass(frozen=True)
class HubTargets:
    """The rival targets of a hidden variable H (see the module docstring): H's observed parents,
    its observed children's count and median |r| with its profile, how many rival targets follow it
    at least as closely, the closest of them by name, and whether H is read as its parents' targets."""

    regulators: list[str]
    children: int
    median_corr: float
    rivals: int
    examples: list[str]
    flagged: bool
    #: H has no observed parent: ``regulators`` is the listed regulator closest to its profile
    closest: bool = False

    def to_dict(self) -> dict:
        return asdict(self)


def hub_targets(
    coef: np.ndarray,
    values: np.ndarray,
    names: Sequence[str],
    n_observed: int,
    hidden: int,
    candidates: Sequence[int] | None = None,
) -> HubTargets | None:
    """:class:`HubTargets` of hidden variable ``hidden``, or None when it has fewer than two observed
    children, or no observed parent (among ``candidates``) and no ``candidates`` to take the closest
    listed regulator from (see the module docstring).

    Parameters
    ----------
    coef : (N, N) ``coef[parent, child]`` of a linear-Gaussian network, observed variables first
    values : (M, N) observed values and the hidden variables' posterior means (H's profile)
    names : the N names
    n_observed : how many variables are observed
    hidden : H's index (>= ``n_observed``)
    candidates : indices of the observed variables that count as H's parents (a regulator list)
    """
    coef = np.asarray(coef, dtype=float)
    values = np.asarray(values, dtype=float)
    n = n_observed
    ups = np.flatnonzero(coef[:n, hidden])
    cand = None if candidates is None else np.asarray(list(candidates), dtype=int)
    if cand is not None:
        ups = np.intersect1d(ups, cand)
    kids = np.flatnonzero(coef[hidden, :n])
    if kids.size < 2 or (ups.size == 0 and (cand is None or cand.size == 0)):
        return None
    corr = np.abs(column_corr(values[:, hidden], values[:, :n]))
    closest = ups.size == 0
    if closest:  # no parent: the listed regulator closest to H's profile, never one of its children
        pool = np.setdiff1d(cand, kids)
        if pool.size == 0:
            return None
        ups = pool[[int(np.argmax(corr[pool]))]]
    median = float(np.median(corr[kids]))
    others = [k for k in range(n, coef.shape[0]) if k != hidden]
    free = np.ones(n, dtype=bool)
    free[kids] = free[ups] = False
    if others:
        free &= ~(coef[others, :n] != 0).any(axis=0)  # another hidden variable's children
    rivals = np.flatnonzero(free & (coef[ups, :n] != 0).any(axis=0) & (corr >= median))
    rivals = rivals[np.argsort(-corr[rivals], kind="stable")]
    return HubTargets(
        regulators=[str(names[i]) for i in ups],
        children=int(kids.size),
        median_corr=median,
        rivals=int(rivals.size),
        examples=[str(names[i]) for i in rivals[:SHOWN]],
        flagged=bool(rivals.size >= RIVAL_SHARE * kids.size),
        closest=bool(closest),
    )


def hub_text(hub: dict) -> str:
    """A report's ``hub_targets`` reading in words: ``"27 other genes with TF041 or TF004 as a parent
    follow its profile as closely as its median child (|r| >= 0.63; 31 children), e.g. g1, g2"``."""
    regs = " or ".join(hub["regulators"])
    eg = f", e.g. {', '.join(hub['examples'])}" if hub["examples"] else ""
    head = (
        f"no listed parent, and with {regs}, the listed regulator closest to its profile: "
        if hub.get("closest")
        else ""
    )
    return (
        f"{head}{hub['rivals']} other genes with {regs} as a parent follow its profile as closely as its median "
        f"child (|r| >= {hub['median_corr']:.2f}; {hub['children']} children){eg}"
    )
