"""A learned network: structure plus fitted CPD parameters, its JSON form, and held-out scoring.

The JSON layout is the CLI's result format::

    {"variables": [...],
     "edges": [{"parent": str, "child": str, "weight": float}, ...],
     "families": {child: {"parents": [...], "cpd": "linear",
                          "params": {"intercept": b0, "coefficients": {parent: w}, "variance": s2}}},
     "score": {"bic": float, "loglik": float, "units": "nats", "n_samples": int,
               "name": "bic" | "ebic", "value": float, "reason": str, ...},
     "stats": {...}, "settings": {...},
     "transform": {"standardized": bool, "means": {var: mu}, "scales": {var: sd}}}

``transform`` records how the training data were standardized, so that held-out data are put on
the same scale before the fitted parameters are evaluated on them. ``score.bic`` is always the
paper's BIC; ``score.value`` is the score the search maximized (``score.name``, with its
parameters and the reason it was chosen; :mod:`engine.score`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from xml.sax.saxutils import escape

import numpy as np
import pandas as pd

from .cpd import CPD_CHOICES, DEFAULT_CPD, family_loglik, get_cpd, make_families
from .cpd.linear import LinearGaussianFamilies
from .data import Dataset
from .exceptions import DataValidationError, ModelError
from .score import BIC, ScoreChoice, make_score

__all__ = ["LearnedNetwork", "Family"]


def _family_dim(fam: Family) -> int:
    """BIC dimension of a family: its CPD's ``n_params`` for its number of parents."""
    return get_cpd(fam.cpd).n_params(len(fam.parents))


@dataclass
class Family:
    """One fitted family: child, its parents (names) and CPD parameters."""

    child: str
    parents: list[str]
    cpd: str
    params: dict

    def to_dict(self) -> dict:
        return {"parents": list(self.parents), "cpd": self.cpd, "params": self.params}


@dataclass
class LearnedNetwork:
    """Structure and parameters of a learned network over named variables."""

    variables: list[str]
    families: dict[str, Family]
    loglik: float = math.nan
    bic: float = math.nan
    n_samples: int = 0
    stats: dict = field(default_factory=dict)
    settings: dict = field(default_factory=dict)
    transform: dict = field(default_factory=dict)
    #: hidden variables: [{"name", "children", "profile", "estimated_gain", ...}]
    hidden: list = field(default_factory=list)
    #: how missing cells were handled ("none" when the data were complete)
    missing_values: str = "none"
    #: the score the search maximized: {"name", "value", "reason", and its parameters}
    score_info: dict = field(default_factory=dict)
    #: interventional data: condition column, targets, rows per family (empty when observational)
    interventions: dict = field(default_factory=dict)

    # ---------------------------------------------------------------- build
    @classmethod
    def from_parents(
        cls,
        dataset: Dataset,
        parents: dict[int, tuple[int, ...]] | list[tuple[int, ...]],
        model: LinearGaussianFamilies | None = None,
        *,
        stats: dict | None = None,
        settings: dict | None = None,
        score: ScoreChoice | None = None,
    ) -> LearnedNetwork:
        """Fit every family of the structure ``parents[child] = (parent indices)`` on ``dataset``;
        ``score`` is the score the search maximized (default: BIC)."""
        model = model or LinearGaussianFamilies(dataset.values)
        names = list(dataset.names)
        fams: dict[str, Family] = {}
        loglik = 0.0
        bic = value = 0.0
        scorer = score.score if score is not None else BIC(dataset.n_samples)
        plain = BIC(dataset.n_samples)
        items = parents.items() if isinstance(parents, dict) else enumerate(parents)
        for c, ps in items:
            ps = tuple(sorted(int(p) for p in ps))
            fit = model.fit(int(c), ps)
            loglik += fit.loglik
            bic += plain.family(fit)
            value += scorer.family(fit)
            params = dict(fit.params)
            params["coefficients"] = {names[p]: float(w) for p, w in zip(ps, fit.params["coefficients"], strict=True)}
            fams[names[c]] = Family(names[c], [names[p] for p in ps], model.cpd, params)
        transform = {
            "standardized": bool(dataset.standardized),
            "means": {n: float(m) for n, m in zip(names, dataset.means, strict=True)},
            "scales": {n: float(s) for n, s in zip(names, dataset.scales, strict=True)},
        }
        net = cls(names, fams, loglik, bic, dataset.n_samples, dict(stats or {}), dict(settings or {}), transform)
        reason = score.reason if score is not None else "chosen by the user"
        net.score_info = {**scorer.describe(), "value": value, "reason": reason}
        return net

    # ---------------------------------------------------------------- views
    def edges(self) -> list[tuple[str, str, float]]:
        """(parent, child, weight) for every edge, children in variable order."""
        out = []
        for child in self.variables:
            fam = self.families[child]
            for p in fam.parents:
                w = fam.params.get("coefficients", {}).get(p, math.nan)
                out.append((p, child, float(w)))
        return out

    def edges_frame(self) -> pd.DataFrame:
        return pd.DataFrame(self.edges(), columns=["parent", "child", "weight"])

    @property
    def n_edges(self) -> int:
        return sum(len(f.parents) for f in self.families.values())

    def to_dict(self) -> dict:
        """The CLI's JSON result (see the module docstring)."""
        return {
            "variables": list(self.variables),
            "edges": [{"parent": p, "child": c, "weight": w} for p, c, w in self.edges()],
            "families": {c: self.families[c].to_dict() for c in self.variables},
            "score": {
                "bic": self.bic,
                "loglik": self.loglik,
                "units": "nats",
                "n_samples": self.n_samples,
                **self.score_info,
            },
            "stats": self.stats,
            "settings": self.settings,
            "transform": self.transform,
            "hidden": self.hidden,
            "missing_values": self.missing_values,
            **({"interventions": self.interventions} if self.interventions else {}),
        }

    @classmethod
    def from_dict(cls, spec: dict) -> LearnedNetwork:
        """Read a result written by :meth:`to_dict`; raises ModelError when it is malformed."""
        try:
            variables = [str(v) for v in spec["variables"]]
            fams = {}
            for child in variables:
                f = spec["families"][child]
                params = dict(f["params"])
                cpd = f.get("cpd", DEFAULT_CPD)
                if cpd not in CPD_CHOICES:  # exact spelling, as written by to_dict
                    raise ModelError(f"family {child!r}: unknown CPD {cpd!r}.")
                for key in get_cpd(cpd).param_keys:
                    float(params[key])
                if not float(params["variance"]) > 0:
                    raise ModelError(f"family {child!r}: variance must be positive.")
                coefs = params.get("coefficients", {})
                if not isinstance(coefs, dict) or set(coefs) != set(f["parents"]):
                    raise ModelError(f"family {child!r}: coefficients do not match its parents.")
                for p in f["parents"]:
                    if p not in variables:
                        raise ModelError(f"family {child!r}: parent {p!r} is not a variable of the model.")
                fams[child] = Family(child, [str(p) for p in f["parents"]], str(cpd), params)
            score = spec.get("score", {})
            return cls(
                variables,
                fams,
                float(score.get("loglik", math.nan)),
                float(score.get("bic", math.nan)),
                int(score.get("n_samples", 0)),
                dict(spec.get("stats", {})),
                dict(spec.get("settings", {})),
                dict(spec.get("transform", {})),
                list(spec.get("hidden", [])),
                str(spec.get("missing_values", "none")),
                {k: v for k, v in score.items() if k not in ("bic", "loglik", "units", "n_samples")},
                dict(spec.get("interventions", {})),
            )
        except ModelError:
            raise
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise ModelError(f"not a model file written by this tool (missing or bad field: {exc}).") from None

    def to_graphml(self) -> str:
        """GraphML text (nodes with a boolean ``hidden`` attribute, directed edges with a ``weight``)."""
        lines = [
            '<?xml version="1.0" encoding="UTF-8"?>',
            '<graphml xmlns="http://graphml.graphdrawing.org/xmlns">',
            '  <key id="weight" for="edge" attr.name="weight" attr.type="double"/>',
            '  <key id="hidden" for="node" attr.name="hidden" attr.type="boolean"><default>false</default></key>',
            '  <graph id="G" edgedefault="directed">',
        ]
        hidden = set(self.hidden_names())
        for v in self.variables:
            node = escape(v, {chr(34): "&quot;"})
            mark = '<data key="hidden">true</data>' if v in hidden else ""
            lines.append(f'    <node id="{node}">{mark}</node>' if mark else f'    <node id="{node}"/>')
        for i, (p, c, w) in enumerate(self.edges()):
            q = {chr(34): "&quot;"}
            lines.append(
                f'    <edge id="e{i}" source="{escape(p, q)}" target="{escape(c, q)}">'
                f'<data key="weight">{w!r}</data></edge>'
            )
        lines += ["  </graph>", "</graphml>"]
        return "\n".join(lines) + "\n"

    # -------------------------------------------------------------- scoring
    def hidden_names(self) -> list[str]:
        return [str(h["name"]) for h in self.hidden]

    def _as_dataset(self, data) -> Dataset:
        """A Dataset, a DataFrame (columns named like the variables) or an array whose columns are
        the observed variables in this model's order; values on the original scale."""
        if isinstance(data, Dataset):
            return data
        import pandas as pd

        from .data import from_array
        from .io import from_frame

        if isinstance(data, pd.DataFrame):
            return from_frame(
                data, standardize=False, source="DataFrame", label_column=None, min_samples=1, allow_constant=True
            )
        hidden = set(self.hidden_names())
        names = [v for v in self.variables if v not in hidden]
        arr = np.asarray(data, dtype=float)
        if arr.ndim == 1:
            arr = arr[None, :]
        if arr.ndim != 2 or arr.shape[1] != len(names):
            raise DataValidationError(
                f"array of shape {arr.shape}: expected (instances, {len(names)}) with the observed "
                f"variables {', '.join(names[:6])}{'...' if len(names) > 6 else ''} in this order."
            )
        return from_array(arr, names, standardize=False, min_samples=1, allow_constant=True)

    def align(self, dataset: Dataset) -> np.ndarray:
        """Columns of ``dataset`` in this model's variable order, on the training scale.

        ``dataset`` should be loaded without standardization: the model's own transform is
        applied. Hidden variables get all-NaN columns.
        """
        hidden = set(self.hidden_names())
        missing = [v for v in self.variables if v not in dataset.names and v not in hidden]
        if missing:
            raise DataValidationError(
                f"{dataset.source or 'data'}: variable(s) {', '.join(map(repr, missing[:6]))} of the model "
                "are not in the data."
            )
        x = np.full((dataset.n_samples, len(self.variables)), np.nan)
        for j, v in enumerate(self.variables):
            if v in hidden:
                continue
            col = dataset.original_values()[:, dataset.names.index(v)]
            if self.transform.get("standardized"):
                col = (col - self.transform["means"][v]) / self.transform["scales"][v]
            x[:, j] = col
        return x

    def _linear_arrays(self):
        n = len(self.variables)
        index = {v: i for i, v in enumerate(self.variables)}
        b0, coef, var = np.zeros(n), np.zeros((n, n)), np.ones(n)
        for child, fam in self.families.items():
            c = index[child]
            b0[c] = fam.params["intercept"]
            var[c] = fam.params["variance"]
            for p, w in fam.params.get("coefficients", {}).items():
                coef[index[p], c] = w
        return b0, coef, var

    def evaluate(self, dataset: Dataset, *, refit: bool = False) -> dict:
        """Log-likelihood and BIC of ``dataset`` under this network.

        Without ``refit`` the fitted parameters are evaluated as they are (held-out evaluation);
        with ``refit`` every family is refitted on ``dataset`` first. Hidden variables and missing
        cells are integrated out exactly (linear-Gaussian networks; refitting then uses EM with the
        structure fixed). Returns ``loglik`` (nats, of the observed cells),
        ``loglik_per_instance_per_variable`` and ``bic``.
        """
        dataset = self._as_dataset(dataset)
        x = self.align(dataset)
        m = x.shape[0]
        if refit:
            from ._validation import constant_variables

            hidden = set(self.hidden_names())
            flat = [self.variables[j] for j in constant_variables(x) if self.variables[j] not in hidden]
            if flat:
                raise DataValidationError(
                    f"{dataset.source or 'data'}: variable(s) {', '.join(map(repr, flat[:6]))} are constant: "
                    "refitting the model on them is meaningless (score without --refit instead)."
                )
        observed = ~np.isnan(x)
        n_obs_cells = int(observed.sum())
        n_params = sum(_family_dim(f) for f in self.families.values())
        incomplete = bool((~observed).any())
        if incomplete:
            if not all(get_cpd(f.cpd).structural_em for f in self.families.values()):
                from .exceptions import MissingValuesError

                raise MissingValuesError(
                    f"{dataset.source or 'data'}: scoring data with missing cells or hidden variables needs a "
                    "linear-Gaussian model (this one has non-linear CPDs); remove or fill the missing cells."
                )
            from .hidden import marginal_loglik

            if refit:
                total = self._refit_em(dataset, x)
            else:
                b0, coef, var = self._linear_arrays()
                total = marginal_loglik(b0, coef, var, np.nan_to_num(x), observed)
            n_per = len(self.variables) - len(self.hidden)
        else:
            total = self._complete_loglik(x, refit)
            n_per = len(self.variables)
        if not np.isfinite(total):
            raise DataValidationError(
                f"{dataset.source or 'data'}: the model gives these data zero likelihood (for the "
                "multiplicative CPD every value must be positive)."
            )
        bic = total - 0.5 * math.log(m) * n_params
        scorer = self.scorer(m)
        value = total - sum(scorer.penalty(_family_dim(f), len(f.parents)) for f in self.families.values())
        return {
            "loglik": float(total),
            "loglik_per_instance_per_variable": float(total / (m * n_per))
            if not incomplete
            else float(total / max(n_obs_cells, 1)),
            "bic": float(bic),
            "score_name": scorer.name,
            "score": float(value),
            "units": "nats",
            "n_samples": int(m),
            "refit": bool(refit),
        }

    def scorer(self, n_samples: int) -> BIC:
        """The score this network was learned with (BIC for models saved before scores had names),
        for data of ``n_samples`` instances."""
        info = self.score_info or {}
        name = str(info.get("name", "bic"))
        if name not in ("bic", "ebic"):
            raise ModelError(f"unknown score {name!r} in the model file.")
        try:
            n_cand = int(info.get("n_candidates", max(len(self.variables) - 1, 1)))
            gamma = float(info.get("gamma", 0.0))
        except (TypeError, ValueError):
            raise ModelError("the model file's score parameters are not numbers.") from None
        return make_score(name, n_samples, n_candidates=n_cand, gamma=gamma)

    def _complete_loglik(self, x: np.ndarray, refit: bool) -> float:
        index = {v: i for i, v in enumerate(self.variables)}
        total = 0.0
        if refit:
            cpds = {f.cpd for f in self.families.values()}
            model = make_families(x, cpds.pop() if len(cpds) == 1 else DEFAULT_CPD)
            for child, fam in self.families.items():
                total += model.fit(index[child], tuple(sorted(index[p] for p in fam.parents))).loglik
            return total
        for child, fam in self.families.items():
            coefs = fam.params.get("coefficients", {})
            u = x[:, [index[p] for p in fam.parents]]
            params = dict(fam.params)
            params["coefficients"] = [coefs[p] for p in fam.parents]
            total += family_loglik(fam.cpd, params, x[:, index[child]], u)
        return total

    def _refit_em(self, dataset: Dataset, x: np.ndarray) -> float:
        """Refit the parameters (structure fixed) by EM on data with hidden/missing cells."""
        from .data import Dataset as _Dataset
        from .hidden import StructuralEM

        hidden = set(self.hidden_names())
        obs_vars = [v for v in self.variables if v not in hidden]
        cols = [self.variables.index(v) for v in obs_vars]
        xo = x[:, cols]
        ds = _Dataset(names=tuple(obs_vars), values=xo, missing=np.isnan(xo), source=dataset.source)
        # hidden variables start from their posterior means under the current parameters
        b0, coef, var = self._linear_arrays()
        order = obs_vars + [v for v in self.variables if v in hidden]
        perm = [self.variables.index(v) for v in order]
        em = StructuralEM(
            ds,
            hidden={h: (np.zeros(x.shape[0]), []) for h in order[len(obs_vars) :]},
            initial_edges=[(p, c) for p, c, _ in self.edges()],
            fixed_structure=True,
        )
        from .hidden.em import _Params

        em.e_step(_Params(b0[perm], coef[np.ix_(perm, perm)], var[perm]))
        em.run()
        return em.observed_loglik()
