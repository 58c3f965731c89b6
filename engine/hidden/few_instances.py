"""Does a kept hidden variable rest on one or two instances, or does it pay without them? (#22 item 3)

Issue #22 item 3 asks that a proposal whose z* draws most of its energy from one or two instances be
flagged, ranked below the others, "and never kept by ``auto`` *for that reason alone*". Since session
12 :meth:`HiddenSearch.auto <engine.hidden.search.HiddenSearch.auto>` drops every kept H whose
posterior profile is flagged by :func:`.leverage.profile_leverage` (one instance above half of its
energy, or two above 0.8), whatever else it explains.

On a pseudobulk single-cell table (``h20m``, session 21: ``benchmarks/study_h20m_misses.py``) the
removed interferon regulator's H on seed 2055 tracked R* at |r| 0.87 with 19 of its 40 module genes
among 26 children and paid +126.4 nats, and was dropped: its profile's largest share sat on one
sample. There R*'s own activity has a share 0.28 at its highest sample, the first PC of its module's
genes 0.49: ``log1p`` of counts per 10^4 is exponential in the signal for faint genes, which stretches
the top of a profile. The share alone cannot tell an H that *is* one instance from a regulator whose
highest instance is stretched.

Rule (off: :data:`PAYS_WITHOUT`). A flagged H is kept when it still pays on the other instances: the
network with H and the network before it (same structures, JMLR 2007 section 6's observed-data score,
hidden variables integrated out), each with its parameters re-estimated by EM with the structure fixed on
the instances other than the flagged ones, and scored there; H pays when its score beats the other's.
A spike explains nothing once its instance is gone, so it still falls; a regulator with a stretched top
keeps what it explains at the others. Flagged proposals are still set aside before they are tried
(:mod:`.considered`), and the flag stays on the report.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass, field

import numpy as np

from ..data import from_array
from ..exceptions import ConvergenceWarning
from .em import StructuralEM
from .leverage import instance_names, profile_leverage

__all__ = ["PAYS_WITHOUT", "FewInstances", "few_instances", "rests_on_few", "score_without"]

#: a kept H flagged by one or two instances is kept when it pays without them (off: dropped, as before)
PAYS_WITHOUT = False

#: EM iterations of each re-estimation on the other instances (structure fixed)
REFIT_ITER = 30


@dataclass(frozen=True)
class FewInstances:
    """The leverage reading of a kept hidden variable.

    Attributes
    ----------
    flagged : list[int]
        The one or two instances that flag its profile (rows; empty when it is not flagged).
    leverage : float
        The largest share of its profile's energy in one instance.
    gain_without : float
        The observed-data score of the network with H minus the network before it, both refitted and
        scored on the other instances (NaN when not flagged or not measured).
    rests : bool
        It is flagged and (when measured) does not pay without those instances.
    """

    flagged: list[int] = field(default_factory=list)
    leverage: float = 0.0
    gain_without: float = float("nan")
    rests: bool = False


def _flagged_rows(profile: np.ndarray) -> tuple[list[int], float]:
    lev = profile_leverage(profile)
    order = np.argsort(-lev.share, kind="stable")
    return [int(i) for i in order[: len(lev.instances)]], lev.leverage


def score_without(em: StructuralEM, rows: list[int], max_iter: int = REFIT_ITER) -> float:
    """Observed-data score of ``em``'s structure on its data without the instances ``rows``: parameters
    re-estimated by structural EM with the structure fixed (hidden variables started at their posterior
    means there), hidden variables and missing cells integrated out."""
    keep = np.setdiff1d(np.arange(em.n_samples), np.asarray(rows, dtype=int))
    no, names = em.n_obs, em.names
    xs = np.where(em.observed[keep, :no], em.mean[keep, :no], np.nan)
    ds = from_array(xs, names[:no], standardize=False, min_samples=3, allow_constant=True)
    hidden = {h: (em.mean[keep, names.index(h)], []) for h in names[no:]}
    regs = None if em.regulators is None else [names[r] for r in em.regulators]
    fit = StructuralEM(
        ds, em.settings, hidden=hidden, initial_edges=[(names[p], names[c]) for p, c in em.edges],
        fixed_structure=True, max_iter=max_iter, regulators=regs, parent_only=[names[i] for i in em.parent_only],
    )  # fmt: skip
    with warnings.catch_warnings():  # a refit stopped at max_iter is still a fit of these instances
        warnings.simplefilter("ignore", ConvergenceWarning)
        fit.run()
    return fit.observed_bic()


def few_instances(model: StructuralEM, before: StructuralEM, name: str, *, measure: bool = True) -> FewInstances:
    """The reading of hidden variable ``name`` of ``model`` (the network with it) against ``before`` (the
    network before it was added): flagged instances, leverage and, with ``measure`` and a flag, the gain
    without those instances (:func:`score_without` of both)."""
    rows, lev = _flagged_rows(model.mean[:, model.names.index(name)])
    if not rows:
        return FewInstances([], lev)
    if not measure:
        return FewInstances(rows, lev, rests=True)
    gain = score_without(model, rows) - score_without(before, rows)
    return FewInstances(rows, lev, gain, rests=not gain > 0.0)


def rests_on_few(search, before: StructuralEM) -> bool:
    """Whether ``auto`` drops the newest kept H of ``search`` (a ``HiddenSearch``) as resting on one or
    two instances: flagged and, with :data:`PAYS_WITHOUT`, not paying without them (module docstring); a
    measured flagged H is said on ``auto``'s progress (``search.considered.say``) with its gain without them."""
    name = search.hidden[-1].name
    reading = few_instances(search.em, before, name, measure=PAYS_WITHOUT)
    if reading.flagged and not np.isnan(reading.gain_without):
        labels = instance_names(search.dataset.instance_labels, search.em.n_samples)
        said = ", ".join(labels[i] for i in reading.flagged)
        verdict = "pays" if not reading.rests else "does not pay"
        say = getattr(search.considered, "say", None) or (lambda msg: None)
        say(f"{name} is flagged by {said} (leverage {reading.leverage:.2f}) and {verdict} without them "
            f"({reading.gain_without:+.2f} on the other instances)")  # fmt: skip
    return reading.rests
