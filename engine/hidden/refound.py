"""Found again without the held-out instances: the out-of-sample test with H's children chosen afresh.

A hidden variable is chosen on every instance: its proposal (a cluster of ideal profiles, JMLR 2007
section 5) and its children (structural EM, section 6) are the genes that co-vary most along it, held-out
instances included. Refitting its parameters on the other folds with that structure fixed (:mod:`.held_out`)
then still sees the co-variation the choice picked in the held-out instances: on noise, the first
principal component's 20 top genes among 2000 at M = 21 gain +8 to +33 nats held out though they do not
even pay in sample (``tests/engine/test_hidden_out_of_sample.py``, decision page).

Here each fold makes H again from the training instances alone: the network before H is refitted there
(its structure fixed), proposals are made on it as ``auto`` makes them (:meth:`HiddenSearch.propose
<engine.hidden.search.HiddenSearch.propose>`, flagged ones set aside), and the one whose profile z* tracks
H best on those instances stands for H: a hidden parent of its members, fitted by EM on the training
instances and scored on the held-out ones with H integrated out (:func:`.held_out.fold_gain`). A fold
where no proposal tracks H at |r| >= :data:`MATCH` gains nothing (H is not found again), as does one where
the network before H cannot be refitted (EBIC's automatic parent cap, 0.25 M, falls below one of its
families on the training instances: h20m 2059 and h20m-null 2092 at 600 columns, session 22). What is still
chosen on every instance: the network before H, and which proposal stands for H (among a handful made
without the held-out instances).
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass

import numpy as np

from ..data import from_array
from ..exceptions import ConvergenceWarning, ParameterError
from .held_out import LocalFamilies, fold_gain

__all__ = ["MATCH", "N_PROPOSALS", "Refound", "refound_gain"]

#: |r| of a training fold's proposal with H (on the training instances) for it to stand for H
MATCH = 0.5
#: proposals made on each training fold
N_PROPOSALS = 10
#: EM iterations of the refit of the network before H on a training fold (structure fixed)
REFIT_ITER = 30


@dataclass(frozen=True)
class Refound:
    """One fold's H made again on its training instances.

    Attributes
    ----------
    match : float
        |r| of the standing proposal's z* with H's posterior mean on the training instances (0: none made).
    members : int
        Its members (the fold H's children).
    gain : np.ndarray
        Per held-out instance, the network with the fold's H minus the network before H (nats; zeros when
        no proposal tracks H at :data:`MATCH`).
    """

    match: float
    members: int
    gain: np.ndarray


def _fold_search(search, before, train: np.ndarray):
    """A ``HiddenSearch`` (the type of ``search``) on the training instances whose network is ``before``'s,
    refitted there."""
    no, names = before.n_obs, before.names
    xs = np.where(before.observed[train, :no], before.mean[train, :no], np.nan)
    labels = search.dataset.instance_labels
    labels = None if labels is None else [labels[i] for i in train]
    ds = from_array(xs, names[:no], standardize=False, min_samples=3, allow_constant=True, instance_labels=labels)
    fs = type(search)(ds, search.settings, em_options=search.em_options)  # a HiddenSearch, as ``search``
    hidden = {h: (before.mean[train, names.index(h)], []) for h in names[no:]}
    edges = [(names[p], names[c]) for p, c in before.edges]
    fs.em = fs._structural_em(hidden=hidden, initial_edges=edges, fixed_structure=True, max_iter=REFIT_ITER)
    with warnings.catch_warnings():  # a refit stopped at max_iter is still a fit of these instances
        warnings.simplefilter("ignore", ConvergenceWarning)
        fs.em.run()
    return fs


def _families(model, before, h: int, values: np.ndarray, members: list[int]) -> LocalFamilies:
    """H (column ``h`` of ``model``) as the parent of ``members`` (observed columns), their other parents
    those of ``before`` outside the members (the edges inside a proposal are replaced by H, as ``accept``
    does), against ``before``'s families of the members."""
    index = {n: i for i, n in enumerate(model.names)}
    pa0 = {m: [] for m in members}
    for p, c in before.edges:
        c = index[before.names[c]]
        if c in pa0:
            pa0[c].append(index[before.names[p]])
    inside = set(members)
    width = max((len(v) for v in pa0.values()), default=0)
    with_h = np.full((len(members), width), -1, dtype=np.intp)
    without = np.full((len(members), width), -1, dtype=np.intp)
    for i, m in enumerate(members):  # over the members (a setup step)
        kept = sorted(p for p in pa0[m] if p not in inside)
        with_h[i, : len(kept)] = kept
        without[i, : len(pa0[m])] = sorted(pa0[m])
    return LocalFamilies(values, h, np.zeros(0, dtype=np.intp), np.asarray(members, dtype=np.intp), with_h,
                         np.ones(len(members), dtype=bool), without)  # fmt: skip


def refound_gain(search, before, name: str, train: np.ndarray, test: np.ndarray) -> Refound:
    """One fold (module docstring): H ``name`` of ``search.em`` made again on ``train`` and scored on ``test``."""
    model = search.em
    h = model.names.index(name)
    target = model.mean[train, h]
    try:
        fs = _fold_search(search, before, train)
    except ParameterError:  # fewer instances cut EBIC's parent cap (0.25 M) below a family of ``before``
        return Refound(0.0, 0, np.zeros(test.size))  # not made again on this fold
    props = [p for p in fs.propose(n_proposals=N_PROPOSALS) if not p.flagged]
    r = [abs(float(np.corrcoef(np.asarray(p.profile, dtype=float), target)[0, 1])) for p in props]
    r = [0.0 if not np.isfinite(x) else x for x in r]
    if not props or max(r) < MATCH:
        return Refound(max(r, default=0.0), 0, np.zeros(test.size))
    best = props[int(np.argmax(r))]
    values = np.array(model.mean, dtype=float)
    z = np.asarray(best.profile, dtype=float)
    values[train, h] = (z - z.mean()) / max(float(z.std()), 1e-12)
    members = [model.names.index(n) for n in best.names]
    fam = _families(model, before, h, values, members)
    return Refound(max(r), len(members), fold_gain(fam, train, test))
