"""A learned network: structure plus fitted CPD parameters, its JSON form, and held-out scoring.

The JSON layout is the CLI's result format::

    {"variables": [...],
     "edges": [{"parent": str, "child": str, "weight": float, "strength": float}, ...],
     "families": {child: {"parents": [...], "cpd": "linear",
                          "params": {"intercept": b0, "coefficients": {parent: w}, "variance": s2}}},
     "score": {"bic": float, "loglik": float, "units": "nats", "n_samples": int,
               "name": "bic" | "ebic", "value": float, "reason": str, ...},
     "stats": {...}, "settings": {...},
     "transform": {"standardized": bool, "means": {var: mu}, "scales": {var: sd}}}

``transform`` records how the training data were standardized, so that held-out data are put on
the same scale before the fitted parameters are evaluated on them. ``score.bic`` is always the
paper's BIC; ``score.value`` is the score the search maximized (``score.name``, with its
parameters and the reason it was chosen; :mod:`engine.score`). ``edges`` are ranked strongest
first: an edge's ``strength`` is the score (nats) the network loses when that edge alone is removed
(:mod:`engine.arc_strength`, bnlearn's ``arc.strength`` with the sign turned). With missing cells
the result also has ``missing_cells``: ``[{"variable", "instance", "value"}]``, each cell's
posterior mean at the end of structural EM, on the file's scale. When the hidden-variable search
set proposals aside because one or two conditions make their profile, ``flagged_proposals`` lists
them (members, ``leverage``, ``flagged_instances``; :mod:`engine.hidden.considered`). When ``--hidden auto``
stopped at ``max_hidden`` (not because nothing more paid), ``untried_proposals`` says so and lists the
proposals of its last round it did not try (:mod:`engine.hidden.untried`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from xml.sax.saxutils import escape

import numpy as np
import pandas as pd

from .arc_strength import arc_strengths
from .cpd import DEFAULT_CPD
from .cpd.linear import LinearGaussianFamilies
from .data import Dataset
from .evaluate import evaluate_network, family_dim
from .exceptions import DataValidationError, ModelError
from .model_schema import validate_model
from .score import BIC, ScoreChoice, make_score

__all__ = ["LearnedNetwork", "Family"]


#: BIC dimension of a saved family (kept under its old name)
_family_dim = family_dim


def _float_or_nan(value) -> float:
    """A validated optional number of the score block (None: not recorded)."""
    return math.nan if value is None else float(value)


def items_of(parents: dict[int, tuple[int, ...]] | list[tuple[int, ...]]):
    """(child, parents) pairs of a structure given as a dict or a list."""
    return parents.items() if isinstance(parents, dict) else enumerate(parents)


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
    #: (parent, child) -> nats the score loses when that edge alone is removed (empty: not computed)
    strengths: dict = field(default_factory=dict)
    #: the missing cells and the values filled in: [{"variable", "instance", "value"}] on the file's
    #: scale (engine.io.filled_cells; empty when the data were complete)
    missing_cells: list = field(default_factory=list)
    #: proposals the hidden-variable search set aside because one or two conditions make their
    #: profile (engine.hidden.considered): [{"members", "leverage", "flagged_instances", ...}]
    flagged_proposals: list = field(default_factory=list)
    #: auto stopped at max_hidden: {"stopped", "max_hidden", "n_untried", "n_positive", "proposals": [...]}
    #: (engine.hidden.untried; empty when it stopped because nothing more paid, or did not run)
    untried_proposals: dict = field(default_factory=dict)

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
        for c, ps in items_of(parents):
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
        strengths = arc_strengths(model, scorer, {int(c): ps for c, ps in items_of(parents)})
        net.strengths = {(names[p], names[c]): s for (p, c), s in strengths.items()}
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

    def ranked_edges(self) -> list[tuple[str, str, float, float]]:
        """(parent, child, weight, strength) for every edge, strongest first (ties in variable
        order); strength is NaN when it was not computed (a model file saved without it)."""
        rows = [(p, c, w, float(self.strengths.get((p, c), math.nan))) for p, c, w in self.edges()]
        order = sorted(range(len(rows)), key=lambda i: (-rows[i][3] if math.isfinite(rows[i][3]) else math.inf, i))
        return [rows[i] for i in order]

    def edges_frame(self) -> pd.DataFrame:
        """The edges as a table (parent, child, weight, strength), strongest first."""
        return pd.DataFrame(self.ranked_edges(), columns=["parent", "child", "weight", "strength"])

    @property
    def n_edges(self) -> int:
        return sum(len(f.parents) for f in self.families.values())

    def to_dict(self) -> dict:
        """The CLI's JSON result (see the module docstring)."""
        return {
            "variables": list(self.variables),
            "edges": [
                {"parent": p, "child": c, "weight": w, **({} if math.isnan(s) else {"strength": s})}
                for p, c, w, s in self.ranked_edges()
            ],
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
            **({"missing_cells": self.missing_cells} if self.missing_cells else {}),
            **({"interventions": self.interventions} if self.interventions else {}),
            **({"flagged_proposals": self.flagged_proposals} if self.flagged_proposals else {}),
            **({"untried_proposals": self.untried_proposals} if self.untried_proposals else {}),
        }

    @classmethod
    def from_dict(cls, spec: dict) -> LearnedNetwork:
        """Read a result written by :meth:`to_dict`, checked as a whole first
        (:func:`engine.model_schema.validate_model`); raises ModelError naming a malformed field."""
        validate_model(spec)
        variables = list(spec["variables"])
        fams = {}
        for child in variables:
            f = spec["families"][child]
            fams[child] = Family(child, list(f["parents"]), str(f.get("cpd", DEFAULT_CPD)), dict(f["params"]))
        score = spec.get("score") or {}
        return cls(
            variables,
            fams,
            _float_or_nan(score.get("loglik")),
            _float_or_nan(score.get("bic")),
            int(score.get("n_samples") or 0),
            dict(spec.get("stats") or {}),
            dict(spec.get("settings") or {}),
            dict(spec.get("transform") or {}),
            list(spec.get("hidden") or []),
            str(spec.get("missing_values") or "none"),
            {k: v for k, v in score.items() if k not in ("bic", "loglik", "units", "n_samples")},
            dict(spec.get("interventions") or {}),
            {
                (str(e["parent"]), str(e["child"])): float(e["strength"])
                for e in spec.get("edges") or []
                if isinstance(e, dict) and isinstance(e.get("strength"), (int, float))
            },
            list(spec.get("missing_cells") or []),
            list(spec.get("flagged_proposals") or []),
            dict(spec.get("untried_proposals") or {}),
        )

    def to_graphml(self) -> str:
        """GraphML text (nodes with a boolean ``hidden`` attribute, directed edges with a ``weight``
        and a ``strength``, strongest first)."""
        lines = [
            '<?xml version="1.0" encoding="UTF-8"?>',
            '<graphml xmlns="http://graphml.graphdrawing.org/xmlns">',
            '  <key id="weight" for="edge" attr.name="weight" attr.type="double"/>',
            '  <key id="strength" for="edge" attr.name="strength" attr.type="double"/>',
            '  <key id="hidden" for="node" attr.name="hidden" attr.type="boolean"><default>false</default></key>',
            '  <graph id="G" edgedefault="directed">',
        ]
        hidden = set(self.hidden_names())
        for v in self.variables:
            node = escape(v, {chr(34): "&quot;"})
            mark = '<data key="hidden">true</data>' if v in hidden else ""
            lines.append(f'    <node id="{node}">{mark}</node>' if mark else f'    <node id="{node}"/>')
        for i, (p, c, w, s) in enumerate(self.ranked_edges()):
            q = {chr(34): "&quot;"}
            strength = "" if math.isnan(s) else f'<data key="strength">{s!r}</data>'
            lines.append(
                f'    <edge id="e{i}" source="{escape(p, q)}" target="{escape(c, q)}">'
                f'<data key="weight">{w!r}</data>{strength}</edge>'
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

    def evaluate(self, dataset, *, refit: bool = False, design=None, intercepts: bool | None = None) -> dict:
        """Log-likelihood and score of ``dataset`` under this network (:func:`engine.evaluate.evaluate_network`).

        Without ``refit`` the fitted parameters are evaluated as they are (held-out evaluation);
        with ``refit`` every family is refitted on ``dataset`` first. Hidden variables and missing
        cells are integrated out exactly (linear-Gaussian networks; refitting then uses EM with the
        structure fixed). Interventional data (``design``, or the one a Dataset carries): each family
        on the rows where its child was not set, its penalty at that count, as ``learn`` scores it.
        Returns ``loglik`` (nats, of the observed cells), ``loglik_per_instance_per_variable``,
        ``bic`` and ``score`` (the score the network was learned with).
        """
        return evaluate_network(self, dataset, refit=refit, design=design, intercepts=intercepts)

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
