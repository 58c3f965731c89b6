"""Scoring a learned network on data: held-out evaluation and refitting, with the same score as ``learn``.

One scoring rule serves ``learn`` and ``score`` (decisions.md, "One score"): the network's score is
the sum over families of ``loglik - penalty`` (JMLR 2007 eq. 1; :mod:`engine.score`). On
interventional data (Cooper & Yoo 1999; :mod:`engine.interventions`) each family is scored only on
the rows where its child was not set by the experiment, and its penalty uses that row count, as the
search does; with per-condition intercepts every family's child and parents are centred within each
condition (the condition means learned with the model, ``interventions.condition_means`` in the
JSON), which is exactly the model the search fitted (Frisch-Waugh-Lovell for the linear CPD).

Missing cells and hidden variables are integrated out exactly for linear-Gaussian networks (JMLR 2007
section 5). Under interventions the intervened variables of a row become parentless in the
mutilated network: their families are dropped and the rest is conditioned on their values (or,
where missing, integrated out under their intervention distribution).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .cpd import DEFAULT_CPD, family_loglik, get_cpd, make_families
from .data import Dataset
from .exceptions import DataValidationError, MissingValuesError, ModelError

__all__ = ["evaluate_network", "family_dim", "ScoringDesign"]


def family_dim(fam) -> int:
    """BIC dimension of a saved family: its CPD's ``n_params`` for its number of parents."""
    return get_cpd(fam.cpd).n_params(len(fam.parents))


@dataclass(frozen=True)
class ScoringDesign:
    """An experimental design in the model's variable order.

    ``mask`` (M x N, True where the row's condition set the variable; hidden variables never),
    ``codes`` (M,) and ``condition_names``; ``intercepts``: centre each family within conditions."""

    mask: np.ndarray
    codes: np.ndarray
    condition_names: tuple[str, ...]
    intercepts: bool

    @classmethod
    def of(cls, net, dataset: Dataset, design, intercepts: bool | None) -> ScoringDesign | None:
        """The design of ``dataset`` (``design``, else the one it carries) mapped to ``net``'s
        variables; ``intercepts`` None: as the model was learned. None when there is no design."""
        design = design if design is not None else dataset.interventions
        model_intercepts = bool((net.interventions or {}).get("condition_intercept", False))
        if intercepts is None:
            intercepts = model_intercepts
        if design is None:
            if model_intercepts:
                column = net.interventions.get("column", "condition")
                raise DataValidationError(
                    f"{dataset.source or 'data'}: the model has one intercept per condition, so its rows need "
                    f"their conditions (the column {column!r}, e.g. --condition {column}); there is none."
                )
            return None
        if design.n_samples != dataset.n_samples:
            raise DataValidationError(f"a design of {design.n_samples} rows for {dataset.n_samples} rows of data.")
        mask = np.zeros((dataset.n_samples, len(net.variables)), dtype=bool)
        for j, v in enumerate(net.variables):
            if v in dataset.names:
                mask[:, j] = design.mask[:, dataset.names.index(v)]
        if not mask.any() and not intercepts:
            return None
        return cls(mask, np.asarray(design.codes), tuple(design.condition_names), bool(intercepts))

    def means(self, net) -> np.ndarray:
        """(conditions x N) the model's condition means (held-out evaluation with intercepts)."""
        stored = (net.interventions or {}).get("condition_means") or {}
        unknown = [c for c in self.condition_names if c not in stored]
        if unknown:
            raise DataValidationError(
                f"condition(s) {', '.join(map(repr, unknown[:6]))} are not among those the model was learned on "
                f"({', '.join(map(repr, list(stored)[:6]))}): its per-condition intercepts are unknown there "
                "(score with --refit to estimate them from the data)."
            )
        return np.array([[float(stored[c].get(v, 0.0)) for v in net.variables] for c in self.condition_names])


def evaluate_network(net, data, *, refit: bool = False, design=None, intercepts: bool | None = None) -> dict:
    """Log-likelihood and score of ``data`` under ``net`` (:meth:`LearnedNetwork.evaluate`).

    ``design``: an :class:`~engine.interventions.Interventions` over ``data``'s variables (default:
    the one a Dataset carries); each family is then scored on the rows where its child was not set,
    with its penalty at that row count. ``intercepts``: per-condition intercepts (default: as the
    model was learned; with ``refit`` they may be turned on or off).
    """
    dataset = net._as_dataset(data)
    x = net.align(dataset)
    m = x.shape[0]
    source = dataset.source or "data"
    sd = ScoringDesign.of(net, dataset, design, intercepts)
    if sd is not None and sd.intercepts and not refit and not (net.interventions or {}).get("condition_intercept"):
        raise DataValidationError(
            "the model has no per-condition intercepts to evaluate; refit them on the data (--refit) or score "
            "without --condition-intercept."
        )
    hidden = set(net.hidden_names())
    if refit:
        from ._validation import constant_variables

        flat = [net.variables[j] for j in constant_variables(x) if net.variables[j] not in hidden]
        if flat:
            raise DataValidationError(
                f"{source}: variable(s) {', '.join(map(repr, flat[:6]))} are constant: "
                "refitting the model on them is meaningless (score without --refit instead)."
            )
    observed = ~np.isnan(x)
    incomplete = bool((~observed).any())
    index = {v: i for i, v in enumerate(net.variables)}
    dims = np.array([family_dim(net.families[v]) for v in net.variables])
    rows = np.full(len(net.variables), m) if sd is None else (~sd.mask).sum(axis=0)
    extra = np.zeros(len(net.variables), dtype=int)
    if sd is not None and sd.intercepts:
        extra = np.array([np.unique(sd.codes[~sd.mask[:, j]]).size - 1 if rows[j] else 0 for j in range(len(rows))])
    if incomplete:
        if not all(get_cpd(f.cpd).structural_em for f in net.families.values()):
            raise MissingValuesError(
                f"{source}: scoring data with missing cells or hidden variables needs a "
                "linear-Gaussian model (this one has non-linear CPDs); remove or fill the missing cells."
            )
        if sd is not None and sd.intercepts:
            raise MissingValuesError(
                f"{source}: per-condition intercepts on data with missing cells or hidden variables are not "
                "implemented; fill the missing cells first."
            )
        try:
            total = _refit_em(net, dataset, x, sd) if refit else _marginal_loglik(net, x, observed, sd)
        except np.linalg.LinAlgError:  # e.g. a hand-edited variance of 1e300 (#26)
            raise ModelError(
                "the model's parameters give the observed variables a covariance that is not positive definite "
                "(a variance or coefficient too large or too small to evaluate)."
            ) from None
        per_family = None
    else:
        per_family = _family_logliks(net, x, refit, sd, index)
        total = float(per_family.sum())
    if not np.isfinite(total):
        raise DataValidationError(
            f"{source}: the model gives these data zero likelihood (for the "
            "multiplicative CPD every value must be positive)."
        )
    scorer = net.scorer(m)
    n_par = np.array([len(net.families[v].parents) for v in net.variables])
    used = rows > 0
    terms = list(zip(rows[used], dims[used] + extra[used], n_par[used], strict=True))
    bic = total - sum(0.5 * math.log(int(r)) * int(d) for r, d, _ in terms)
    value = total - sum(scorer.for_rows(int(r)).penalty(int(d), int(k)) for r, d, k in terms)
    n_obs = int(observed[:, [j for j, v in enumerate(net.variables) if v not in hidden]].sum())
    out = {
        "loglik": float(total),
        "loglik_per_instance_per_variable": float(total / max(n_obs, 1))
        if incomplete
        else float(total / max(int(rows.sum()), 1)),
        "bic": float(bic),
        "score_name": scorer.name,
        "score": float(value),
        "units": "nats",
        "n_samples": int(m),
        "refit": bool(refit),
    }
    if sd is not None:
        out["interventions"] = {
            "family_rows": {v: int(r) for v, r in zip(net.variables, rows, strict=True) if v not in hidden},
            "condition_intercept": sd.intercepts,
        }
    return out


def _family_logliks(net, x: np.ndarray, refit: bool, sd: ScoringDesign | None, index: dict) -> np.ndarray:
    """Per-family log-likelihood (model order) of complete data, each family on its own rows."""
    out = np.zeros(len(net.variables))
    if refit:
        cpds = {f.cpd for f in net.families.values()}
        cpd = cpds.pop() if len(cpds) == 1 else DEFAULT_CPD
        if sd is None:
            model = make_families(x, cpd)
        else:
            from .interventions import Interventions, MaskedFamilies

            design = Interventions(np.array(sd.codes), sd.condition_names, (), np.array(sd.mask))
            model = MaskedFamilies(lambda v: make_families(v, cpd), x, design, condition_intercept=sd.intercepts)
        for child, fam in net.families.items():
            c = index[child]
            if sd is not None and not (~sd.mask[:, c]).any():
                continue
            out[c] = model.fit(c, tuple(sorted(index[p] for p in fam.parents))).loglik
        return out
    xc = x if sd is None or not sd.intercepts else x - sd.means(net)[sd.codes]
    for child, fam in net.families.items():
        c = index[child]
        keep = slice(None) if sd is None else ~sd.mask[:, c]
        coefs = fam.params.get("coefficients", {})
        params = dict(fam.params)
        params["coefficients"] = [coefs[p] for p in fam.parents]
        u = xc[keep][:, [index[p] for p in fam.parents]]
        out[c] = family_loglik(fam.cpd, params, xc[keep, c], u) if u.shape[0] else 0.0
    return out


def linear_arrays(net) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Intercepts, coefficient matrix (parent x child) and variances of a linear-Gaussian network."""
    n = len(net.variables)
    index = {v: i for i, v in enumerate(net.variables)}
    b0, coef, var = np.zeros(n), np.zeros((n, n)), np.ones(n)
    for child, fam in net.families.items():
        c = index[child]
        b0[c] = fam.params["intercept"]
        var[c] = fam.params["variance"]
        for p, w in fam.params.get("coefficients", {}).items():
            coef[index[p], c] = w
    return b0, coef, var


def _marginal_loglik(net, x: np.ndarray, observed: np.ndarray, sd: ScoringDesign | None) -> float:
    """Log-likelihood of the observed cells, missing cells and hidden variables integrated out.

    Under interventions the variables each row's experiment set are roots of its mutilated network,
    conditioned on where observed and integrated out under their intervention distribution (the
    mean and variance of their observed values in that condition) where missing, as structural EM
    scores them (:func:`engine.interventions.em.mutilated_marginal_loglik`)."""
    from .hidden import marginal_loglik

    b0, coef, var = linear_arrays(net)
    values = np.nan_to_num(x)
    if sd is None:
        return marginal_loglik(b0, coef, var, values, observed)
    from .interventions.em import intervention_priors, mutilated_marginal_loglik

    priors = intervention_priors(x, observed, sd.mask, sd.codes)
    return mutilated_marginal_loglik(b0, coef, var, values, observed, sd.mask, sd.codes, priors)


def _refit_em(net, dataset: Dataset, x: np.ndarray, sd: ScoringDesign | None = None) -> float:
    """Refit the parameters (structure fixed) by EM on data with hidden/missing cells (under
    interventions, the masked EM of :mod:`engine.interventions.em`)."""
    from .hidden import StructuralEM
    from .hidden.em import _Params

    hidden = set(net.hidden_names())
    obs_vars = [v for v in net.variables if v not in hidden]
    cols = [net.variables.index(v) for v in obs_vars]
    xo = x[:, cols]
    ds = Dataset(names=tuple(obs_vars), values=xo, missing=np.isnan(xo), source=dataset.source)
    # hidden variables start from their posterior means under the current parameters
    b0, coef, var = linear_arrays(net)
    order = obs_vars + [v for v in net.variables if v in hidden]
    perm = [net.variables.index(v) for v in order]
    options = {
        "hidden": {h: (np.zeros(x.shape[0]), []) for h in order[len(obs_vars) :]},
        "initial_edges": [(p, c) for p, c, _ in net.edges()],
        "fixed_structure": True,
    }
    if sd is None:
        em = StructuralEM(ds, **options)
    else:
        from .interventions import Interventions
        from .interventions.em import MaskedStructuralEM

        design = Interventions(np.array(sd.codes), sd.condition_names, (), np.array(sd.mask[:, cols]))
        em = MaskedStructuralEM(ds, design=design, **options)
    em.e_step(_Params(b0[perm], coef[np.ix_(perm, perm)], var[perm]))
    em.run()
    return em.observed_loglik()
