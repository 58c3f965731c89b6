"""One scale for a hidden variable wherever a person reads it: H on unit variance.

The scale of a hidden variable H is not identified by the data. Structural EM (JMLR 2007 section
6) leaves H on whatever scale its start and iterations give it (an SD near 2 on a lab's file).
Replacing H by ``H' = H / s`` is the same network: each child's coefficient on H becomes
``w * s``, H's own family is divided by ``s`` (intercept and coefficients) and its noise variance
by ``s^2``; the observed variables' distribution, and so every score, are unchanged.

Everything a person reads about H is put on one scale, ``sd(H) = 1`` under the network, where
``sd(H)^2`` is H's implied marginal variance (:func:`.report.implied_variances`):

* the regulator report's ``loading`` (``w * sd(H)``, :mod:`.report`);
* H's ``profile``, the posterior mean per instance divided by ``sd(H)`` (CLI JSON, the app's
  export, its profile download and plots);
* the edges and families of an exported network (:func:`rescale_network`);
* the Inspector's profiles of a family in which H is the child or a candidate parent
  (:func:`rescale_profiles`).

A search's current families are fitted once for all of these (:class:`CurrentFit`): the edge
weights a page draws, ``sd(H)``, and the regulator report of the network being exported, so that
after the user steps on from an accepted hidden variable the report and the edges still describe
one network.

So a child's loading is the change in the child (in its own units, SDs when the data are
standardized) per SD of H, and regressing the child on the exported profile (with its other
parents) gives back its loading, up to the posterior's shrinkage: the posterior mean is pulled
toward 0 where H is uncertain, so the profile's own SD is at most about 1 (near 1 when many
children pin H down). Not checked: H's family must be linear-Gaussian (structural EM's).
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass, field

import numpy as np

from .candidates import family_coefficients
from .report import PROFILE_UNIT, RegulatorReport, implied_variances, regulator_report

__all__ = [
    "PROFILE_UNIT",
    "CurrentFit",
    "current_fit",
    "hidden_sds",
    "search_sds",
    "fitted_sds",
    "stepper_sds",
    "rescale_network",
    "rescale_edges",
    "rescale_profiles",
]


def hidden_sds(coef: np.ndarray, variance: np.ndarray, n_observed: int) -> np.ndarray:
    """``sd(H)`` under the network ``x = coef^T x + eps`` for each hidden variable (indices
    ``n_observed..``, in order): the square root of its implied marginal variance."""
    n = np.shape(coef)[0]
    return np.sqrt(implied_variances(coef, variance, range(n_observed, n))[n_observed:])


def search_sds(search) -> dict[str, float]:
    """``sd(H)`` of each hidden variable of a :class:`~.search.HiddenSearch`, by name, under the
    network its structural EM fitted (the scale of its regulator report)."""
    par = search.em.params()
    names = list(search.names)[search.n_observed :]
    return dict(zip(names, hidden_sds(par.coef, par.variance, search.n_observed).tolist(), strict=True))


def fitted_sds(model, parents: list[tuple[int, ...]], names, n_observed: int) -> dict[str, float]:
    """``sd(H)`` of each hidden variable (``names[n_observed:]``), by name, under the families of a
    linear-Gaussian ``model`` (e.g. a search's, fitted on the posterior means) with ``parents``:
    the scale of the regulator report made from the same families."""
    coef, rss = family_coefficients(model, parents)
    sds = hidden_sds(coef, rss / model.n_samples, n_observed)
    return dict(zip(list(names)[n_observed:], sds.tolist(), strict=True))


def stepper_sds(stepper, names, n_observed: int) -> dict[str, float]:
    """:func:`fitted_sds` of a search's current families (``stepper.model``, its parent sets);
    empty when the search has no hidden variable."""
    return current_fit(stepper, names, n_observed).sds


@dataclass(frozen=True)
class CurrentFit:
    """A search's current families, fitted once: each edge's coefficient, each family's ML noise
    variance, and ``sd(H)`` of each hidden variable (``names[n_observed:]``) under them.

    ``edges`` are ``(parent, child, coefficient)`` index triples on the search's own scale (NaN
    where a CPD has no linear coefficient); ``variance`` is NaN for a CPD without one."""

    names: list[str]
    n_observed: int
    edges: list[tuple[int, int, float]]
    variance: np.ndarray
    sds: dict[str, float] = field(default_factory=dict)

    @property
    def coef(self) -> np.ndarray:
        """``coef[parent, child]`` (N x N; for the regulator report, hidden variables present)."""
        n = len(self.names)
        out = np.zeros((n, n))
        for p, c, w in self.edges:
            out[p, c] = w
        return out

    def weighted_edges(self) -> list[tuple[int, int, float]]:
        """The edges with each hidden variable on unit variance (:func:`rescale_edges`)."""
        return rescale_edges(self.edges, self.names, self.sds)

    def report(self, values: np.ndarray, gains=None, labels=None, regulators=None) -> list[RegulatorReport]:
        """The regulator report (:func:`~.report.regulator_report`) of these families, with
        ``values`` the observed data and the hidden variables' posterior means, ``labels`` the
        instance names and ``regulators`` the listed regulators' indices (the hidden search's
        ``em.regulators``, as :meth:`.search.HiddenSearch.report` passes them: ``hub_targets`` reads a
        parentless H against them; None without a list)."""
        regs = None if regulators is None else [int(i) for i in regulators if int(i) < self.n_observed]
        return regulator_report(self.names, self.n_observed, self.coef, self.variance, values, gains, labels, regs)


def current_fit(stepper, names, n_observed: int) -> CurrentFit:
    """:class:`CurrentFit` of ``stepper``'s families (one ``model.fit`` per family with parents,
    and per hidden variable; every family when there are hidden variables, for ``sd(H)``)."""
    n = stepper.n_vars
    hidden = n > n_observed
    edges: list[tuple[int, int, float]] = []
    variance = np.full(n, math.nan)
    for c in range(n):
        parents = stepper.parents(c)
        if not parents and not hidden:
            continue
        params = stepper.model.fit(c, parents).params
        variance[c] = float(params.get("variance", math.nan))
        coefs = params.get("coefficients", [math.nan] * len(parents))
        edges.extend((int(p), c, float(w)) for p, w in zip(parents, coefs, strict=True))
    names = list(names)
    fit = CurrentFit(names, int(n_observed), edges, variance)
    if hidden:
        sds = hidden_sds(fit.coef, variance, n_observed)
        fit = dataclasses.replace(fit, sds=dict(zip(names[n_observed:], sds.tolist(), strict=True)))
    return fit


def rescale_edges(edges, names, sds: dict[str, float]) -> list[tuple[int, int, float]]:
    """``(parent, child, weight)`` index triples with each hidden variable on unit variance: a
    weight from H times ``sd(H)``, a weight into H divided by it (:func:`rescale_network`'s rule
    for a network's families, for the weights a page draws)."""
    scale = [float(sds.get(n, 1.0)) for n in names]
    return [(p, c, w * scale[p] / scale[c]) for p, c, w in edges]


def rescale_network(net, sds: dict[str, float]) -> None:
    """Put each hidden variable ``name`` of ``net`` (a :class:`~engine.network.LearnedNetwork`)
    on unit variance, given its current ``sd(H)`` in ``sds``: its family divided by ``s``, its
    children's coefficients on it multiplied by ``s``, and its ``hidden`` entry's profile divided
    by ``s`` (with ``profile_unit`` saying so). An exact reparametrization: every score is
    unchanged. Modifies ``net`` in place."""
    for name, s in sds.items():
        s = float(s)
        if name not in net.families or not np.isfinite(s) or s <= 0:
            continue
        own = dict(net.families[name].params)
        own["intercept"] = float(own.get("intercept", 0.0)) / s
        own["coefficients"] = {p: float(w) / s for p, w in dict(own.get("coefficients") or {}).items()}
        own["variance"] = float(own["variance"]) / s**2
        net.families[name].params = own
        for fam in net.families.values():
            coefs = fam.params.get("coefficients")
            if isinstance(coefs, dict) and name in coefs:
                fam.params = {**fam.params, "coefficients": {**coefs, name: float(coefs[name]) * s}}
        for entry in net.hidden:
            if entry.get("name") == name and entry.get("profile") is not None:
                entry["profile"] = [float(v) / s for v in entry["profile"]]
                entry["profile_unit"] = PROFILE_UNIT


def rescale_profiles(fp, names, sds: dict[str, float]):
    """The Inspector's profiles of one family (:class:`engine.inspect.FamilyProfiles`) with each
    hidden variable on unit variance: a hidden child's values, prediction and ideal profile divided
    by its ``sd``, a hidden candidate's profile too, and each ``alpha_z`` multiplied by the
    candidate's ``sd`` over the child's (the least-squares slope of the rescaled profiles). The
    cosines, C1, C2 and exact gains do not depend on the scale and are kept. Returns ``fp`` itself
    when no hidden variable is in the family or among its candidates."""
    s_child = float(sds.get(names[fp.child], 1.0))
    s_cand = np.array([float(sds.get(names[c], 1.0)) for c in fp.candidates])
    if s_child == 1.0 and np.all(s_cand == 1.0):
        return fp

    def per_candidate(a):  # (M, K) candidate columns divided by their own sd
        return None if a is None else a / s_cand[None, :]

    def child(a):
        return None if a is None else a / s_child

    return dataclasses.replace(
        fp,
        x=fp.x / s_child,
        prediction=fp.prediction / s_child,
        ideal=fp.ideal / s_child,
        alpha=fp.alpha * s_cand / s_child,
        scaled=fp.scaled / s_child,
        profiles=per_candidate(fp.profiles),
        profiles_star=per_candidate(fp.profiles_star),
        ideal_star=child(fp.ideal_star),
        scaled_star=child(fp.scaled_star),
        variance=fp.variance / s_child**2,
    )
