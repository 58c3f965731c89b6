"""Does a kept hidden variable predict instances it has not seen? K-fold over instances (#22).

``auto`` keeps H when the observed-data score of the network with H (JMLR 2007 section 6: H integrated
out, BIC's or EBIC's penalty) beats the best network without it. That score is measured on the instances
EM fitted; on genome-scale null tables (``h18m-null``, ``h19m-null``, ``h20m-null``) Hs that track
nothing planted pay there on most seeds. A regulator a biologist can vet must also hold on new
conditions.

Rule (:data:`OUT_OF_SAMPLE`): the instances are split into :data:`FOLDS` folds; on each, the network with
H and the network before it (the one ``auto`` goes back to when it gives H back) are refitted on the other
folds with their structures fixed (EM for the one with H) and the held-out fold is scored with H
integrated out (:mod:`.held_out`: only the families that differ, which is exact when every other cell is
observed). H is kept when the held-out log-likelihood gain, summed over the folds, is above
:data:`MARGIN` nats per held-out instance and, with :data:`REFIND`, the training folds' own proposals found
H again on more than :data:`MIN_FOUND` of the folds (a fold where none tracks H gains nothing: its held-out
instances are no evidence either way, and an H the other instances do not propose again in most folds is
not one the data reproduce; on ``h20m-null`` 2090 an H of 20 genes tracking nothing planted was found again
on 2 of 5 folds, the donors' sex H on 5 of 5).

**Instances that belong together share a fold.** Conditions of one series, replicates of one condition,
one donor's cell types or one time course share effects that are not H's (a donor's genotype, a series'
array batch): held out one by one, an H fitted to such a unit's noise would still be "predicted" by its
siblings in training. The label's first token (before the first ``_``) names the unit (``s04__gal_Fe__2``:
series ``s04``; ``GSE2722_mal_cold``: series ``GSE2722``; ``D07_CD14Mono``: donor ``D07``;
``cdc28_040min``: time course ``cdc28``); with fewer than :data:`MIN_GROUPS` units (or no labels) the folds
are runs of consecutive instances, which keeps neighbouring time points together. Units are dealt to
the folds largest first, each to the fold with the fewest instances.

**Genome scale only** (above ``RELEARN_MAX_VARS`` = 150 observed variables, :func:`.trial.is_small`). On a
small network without a regulator list the network before H holds H's children's co-variation with edges
among them and the searches climb from re-learned starts: a planted H of 8 genes at M = 60 pays +2.9 in
sample and -10.2 held out against it (decision page); the false Hs of #22 are the genome nulls', and the
small networks' nulls keep none.

What is not exact: with :data:`REFIND` off, the structure (H's children, every family's parents) was
chosen on all the instances, held-out ones included, so the test measures the parameters' generalisation,
not the choice's, and a factor chosen on noise passes it (:mod:`.refound`); with it on, H's members are
chosen again on each training fold, the network before H is not. Other hidden variables and missing
cells are read at their full-data posterior means.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from .few_instances import rests_on_few
from .held_out import fold_gain, local_families
from .refound import MATCH, refound_gain
from .trial import is_small

__all__ = [
    "FOLDS",
    "MARGIN",
    "MIN_FOUND",
    "MIN_GROUPS",
    "OUT_OF_SAMPLE",
    "REFIND",
    "OutOfSample",
    "fails_out_of_sample",
    "folds_of",
    "out_of_sample",
    "refusal",
]

#: ``auto`` gives back a kept H whose held-out gain is not positive (off: the in-sample score alone)
OUT_OF_SAMPLE = False
#: folds over the instances (fewer when there are fewer units)
FOLDS = 5
#: units (label first tokens) below which the folds are runs of consecutive instances
MIN_GROUPS = 4
#: held-out gain (nats per held-out instance) H must exceed to be kept
MARGIN = 0.0
#: with :data:`REFIND`, the share of the folds whose proposals must find H again (|r| >= ``refound.MATCH``)
MIN_FOUND = 0.5
#: make H again on each training fold (:mod:`.refound`) rather than refit its structure chosen on all instances
REFIND = True


@dataclass(frozen=True)
class OutOfSample:
    """The out-of-sample reading of a kept hidden variable.

    Attributes
    ----------
    fold_gains : ndarray
        Per fold, the held-out log-likelihood of the network with H minus the network before it (nats).
    per_instance : ndarray
        The same per held-out instance (M,).
    units : str
        How the folds were made: ``"labels"`` (units from the labels' first token) or ``"runs"``.
    matches : ndarray or None
        With :data:`REFIND`, per fold the |r| of the proposal that stood for H with H (:mod:`.refound`).
    """

    fold_gains: np.ndarray
    per_instance: np.ndarray
    units: str
    matches: np.ndarray | None = None

    @property
    def gain(self) -> float:
        """The held-out gain summed over the folds (nats)."""
        return float(np.sum(self.fold_gains))

    @property
    def per_held_out(self) -> float:
        """The held-out gain per instance (nats)."""
        return self.gain / max(self.per_instance.size, 1)

    @property
    def found(self) -> float:
        """The share of the folds whose proposals found H again (1 when its structure was kept fixed)."""
        return 1.0 if self.matches is None else float(np.mean(self.matches >= MATCH))

    @property
    def keeps(self) -> bool:
        """Whether H predicts the held-out instances better than the network before it (above :data:`MARGIN`)
        and, made again on each training fold, was found again on more than :data:`MIN_FOUND` of them."""
        return self.per_held_out > MARGIN and self.found > MIN_FOUND

    def text(self, name: str) -> str:
        folds = ", ".join(f"{g:+.1f}" for g in self.fold_gains)
        how = "fixed" if self.matches is None else "found again, |r| " + " ".join(f"{r:.2f}" for r in self.matches)
        return (f"{name} held out ({len(self.fold_gains)} folds by {self.units}, {how}): {self.gain:+.2f} nats "
                f"({self.per_held_out:+.3f} an instance; folds {folds})")  # fmt: skip


def _units(labels: Sequence | None, n: int) -> np.ndarray | None:
    """Each instance's unit (the label's first token), or None without labels."""
    if labels is None or len(labels) != n:
        return None
    first = [re.split(r"_+", str(x).strip("_"), maxsplit=1)[0] for x in labels]
    return np.unique(first, return_inverse=True)[1].reshape(-1)


def folds_of(labels: Sequence | None, n: int, k: int = FOLDS) -> tuple[list[np.ndarray], str]:
    """The held-out instances of each fold (module docstring), and ``"labels"`` or ``"runs"``."""
    unit = _units(labels, n)
    if unit is None or unit.max() + 1 < MIN_GROUPS:
        return [f for f in np.array_split(np.arange(n), min(k, n)) if f.size], "runs"
    sizes = np.bincount(unit)
    k = min(k, sizes.size)
    load, fold_of = np.zeros(k), np.empty(sizes.size, dtype=np.intp)
    for u in np.argsort(-sizes, kind="stable"):  # over units, not instances
        fold_of[u] = int(np.argmin(load))
        load[fold_of[u]] += sizes[u]
    return [np.flatnonzero(fold_of[unit] == f) for f in range(k)], "labels"


def out_of_sample(model, before, name: str, labels: Sequence | None = None, search=None) -> OutOfSample:
    """The held-out gain of hidden variable ``name`` of ``model`` (the fitted network with it) against
    ``before`` (the network without it), over :func:`folds_of`'s folds: with ``search`` (the
    ``HiddenSearch`` whose ``em`` is ``model``) H is made again on each training fold (:mod:`.refound`),
    without it its structure is kept and refitted (:mod:`.held_out`)."""
    n = model.n_samples
    folds, units = folds_of(labels, n)
    per, matches = np.zeros(n), []
    fam = None if search is not None else local_families(model, before, name)
    for test in folds:  # a handful of folds; each is vectorized
        train = np.setdiff1d(np.arange(n), test)
        if fam is not None:
            per[test] = fold_gain(fam, train, test)
            continue
        again = refound_gain(search, before, name, train, test)
        per[test], _ = again.gain, matches.append(again.match)
    gains = np.array([per[f].sum() for f in folds])
    return OutOfSample(gains, per, units, None if fam is not None else np.array(matches))


def fails_out_of_sample(search, before) -> str | None:
    """Why ``auto`` gives back the newest kept H of ``search`` (a ``HiddenSearch``; ``before``: the network
    before it), else None: with :data:`OUT_OF_SAMPLE`, on a network above ``RELEARN_MAX_VARS`` observed
    variables (:func:`.trial.is_small`: not on small networks, module docstring), its held-out gain is not
    above :data:`MARGIN`. The reading is said on ``auto``'s progress either way."""
    if not OUT_OF_SAMPLE or is_small(search):
        return None
    name = search.hidden[-1].name
    reading = out_of_sample(search.em, before, name, search.dataset.instance_labels, search if REFIND else None)
    say = getattr(search.considered, "say", None) or (lambda msg: None)
    say(reading.text(name))
    return None if reading.keeps else f"{name} does not predict held-out instances, so it is not kept"


def refusal(search, before) -> str | None:
    """Why ``auto`` gives back the hidden variable it has just kept (the newest of ``search``; ``before``: the
    network before it), else None: it rests on one or two instances (:func:`.few_instances.rests_on_few`, #22
    item 3), its children are mostly one operon (:meth:`.considered.Considered.refused`), or it does not
    predict held-out instances (:func:`fails_out_of_sample`)."""
    h = search.hidden[-1]
    return search.considered.refused(h.name, rests_on_few(search, before), h.children) or fails_out_of_sample(
        search, before
    )
