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
* the edges and families of an exported network (:func:`rescale_network`).

So a child's loading is the change in the child (in its own units, SDs when the data are
standardized) per SD of H, and regressing the child on the exported profile (with its other
parents) gives back its loading, up to the posterior's shrinkage: the posterior mean is pulled
toward 0 where H is uncertain, so the profile's own SD is at most about 1 (near 1 when many
children pin H down). Not checked: H's family must be linear-Gaussian (structural EM's).
"""

from __future__ import annotations

import numpy as np

from .candidates import family_coefficients
from .report import PROFILE_UNIT, implied_variances

__all__ = ["PROFILE_UNIT", "hidden_sds", "search_sds", "fitted_sds", "stepper_sds", "rescale_network", "rescale_edges"]


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
    if stepper.n_vars <= n_observed:
        return {}
    return fitted_sds(stepper.model, [stepper.parents(c) for c in range(stepper.n_vars)], names, n_observed)


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
