"""Family scores under interventions: the mutilated-network likelihood (Cooper & Yoo 1999).

In a row where an experiment set variable X, X's conditional distribution is replaced by the
intervention, so X's family contributes nothing to the likelihood there; every other family is
scored as usual. Each family is therefore fitted, ranked (ideal profile, C1/C2; JMLR 2007
sections 3-4) and exactly scored on the rows where its child was *not* set, and its BIC penalty
uses that row count (``FamilyFit.n_rows``; :meth:`engine.score.BIC.family`).

Implementation: children whose kept rows are the same (the same column of the intervention mask)
share one CPD model built on those rows (row weights 0/1 in the sufficient statistics, with the
zero rows dropped). Observational variables share the model of all rows; each distinct set of
targeted rows adds one. Any CPD works unchanged (linear, sigmoid, multiplicative); requests of one
batch are grouped by model, so non-linear fits stay vectorized.

Optional per-condition intercepts (``condition_intercept``): every family gets one intercept per
condition among its rows instead of one overall (a fixed effect for reagents that shift levels
without setting them). For the linear CPD this is exact: by Frisch-Waugh-Lovell the fit on data
centred within each condition equals the fit with condition dummies. For the sigmoid CPD it is the
same model on condition-centred data. The penalty counts the extra ``C - 1`` intercepts.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

import numpy as np

from ..cpd.base import FamilyBase, FamilyFit, FamilyModel, Parents
from ..exceptions import DataValidationError
from .design import Interventions

__all__ = ["MaskedFamilies", "MASK_MODEL_BYTES"]

#: memory budget of the N x N tables of the per-pattern linear models (bytes)
MASK_MODEL_BYTES = 1 << 30


def centre_within(values: np.ndarray, codes: np.ndarray) -> np.ndarray:
    """``values`` with each condition's column means subtracted (rows grouped by ``codes``)."""
    uniq, inv = np.unique(codes, return_inverse=True)
    sums = np.zeros((uniq.size, values.shape[1]))
    np.add.at(sums, inv, values)
    counts = np.bincount(inv, minlength=uniq.size).astype(float)
    return values - (sums / counts[:, None])[inv]


class MaskedFamilies(FamilyBase):
    """A :class:`~engine.cpd.base.FamilyModel` whose family of X is scored only on rows where X was
    not set by an experiment.

    Parameters
    ----------
    make_model : callable
        ``make_model(values)`` builds the CPD's family model on complete ``values`` (rows x N).
    values : ndarray (M, N)
        The data (standardized on all rows pooled).
    design : Interventions
        The conditions and the intervention mask (M x N).
    condition_intercept : bool, default False
        One intercept per condition for every family (see the module docstring).

    Attributes
    ----------
    family_rows : ndarray of int, shape (N,)
        Rows each family is scored on.
    """

    def __init__(
        self,
        make_model: Callable[[np.ndarray], FamilyModel],
        values: np.ndarray,
        design: Interventions,
        *,
        condition_intercept: bool = False,
        intercept_groups: np.ndarray | None = None,
    ) -> None:
        values = np.asarray(values, dtype=float)
        centre = bool(condition_intercept) or intercept_groups is not None

        def on_rows(keep: np.ndarray, groups: np.ndarray) -> tuple[FamilyModel, np.ndarray]:
            vals = centre_within(values[keep], groups[keep]) if centre else values[keep]
            return make_model(vals), vals

        self._build(on_rows, values.shape, design, centre, intercept_groups)

    @classmethod
    def on_rows(
        cls, model_of_rows: Callable[[np.ndarray], FamilyModel], values: np.ndarray, design: Interventions
    ) -> MaskedFamilies:
        """Families whose model on each set of kept rows ``keep`` (boolean, M) is
        ``model_of_rows(keep)``: structural EM builds them from the expected sufficient statistics of
        those rows (JMLR 2007 section 6). ``values`` (M x N, the current expected values) serve the
        ideal profiles. No per-condition intercepts."""
        obj = cls.__new__(cls)
        values = np.asarray(values, dtype=float)
        obj._build(lambda keep, _: (model_of_rows(keep), values[keep]), values.shape, design, False)
        return obj

    def _build(
        self, on_rows, shape: tuple[int, int], design: Interventions, condition_intercept: bool, groups=None
    ) -> None:
        mask = np.asarray(design.mask, dtype=bool)
        if mask.shape != tuple(shape):
            raise DataValidationError(f"intervention mask of shape {mask.shape} for data of shape {tuple(shape)}.")
        self.n_samples, self.n_vars = shape
        self.condition_intercept = bool(condition_intercept)
        # families share a model when they keep the same rows and (with intercepts) the same groups
        if groups is None:
            keys = mask.T
        else:
            groups = np.asarray(groups, dtype=np.int64)
            if groups.shape != mask.shape:
                raise DataValidationError(f"intercept groups of shape {groups.shape} for data of shape {mask.shape}.")
            keys = np.hstack([mask.T.astype(np.int64), groups.T])
        _, first, self._pattern = np.unique(keys, axis=0, return_index=True, return_inverse=True)
        self._pattern = self._pattern.ravel()
        #: the rows (boolean, M) of each model: the rows its children were not set in
        self.rows = ~mask.T[first]
        self._check_memory()
        self._models: list[FamilyModel] = []
        self._values: list[np.ndarray] = []
        n_cond = np.zeros(len(first), dtype=np.intp)
        for p, keep in enumerate(self.rows):
            grp = design.codes if groups is None else groups[:, first[p]]
            n_cond[p] = np.unique(grp[keep]).size
            model, vals = on_rows(keep, grp)
            self._values.append(vals)
            self._models.append(model)
        self.family_rows = self.rows.sum(axis=1)[self._pattern]
        #: per-condition intercepts beyond the CPD's own one, per family
        self.extra_params = (n_cond[self._pattern] - 1) if self.condition_intercept else np.zeros(self.n_vars, np.intp)
        first = self._models[0]
        self.cpd = first.cpd
        self.cpd_type = first.cpd_type
        self.centred = bool(getattr(first, "centred", False))
        if hasattr(first, "ideal_weights"):
            self.ideal_weights = lambda child, parents: self._model(child).ideal_weights(child, parents)

    def _check_memory(self) -> None:
        need = len(self.rows) * 8 * self.n_vars**2
        if need > MASK_MODEL_BYTES:
            raise DataValidationError(
                f"{len(self.rows)} different sets of intervened rows over {self.n_vars} variables need "
                f"{need / 2**30:.1f} GB of N x N tables (budget {MASK_MODEL_BYTES / 2**30:.0f} GB); "
                "merge conditions with the same targets or restrict the variables."
            )

    def _model(self, child: int) -> FamilyModel:
        return self._models[self._pattern[child]]

    # ------------------------------------------------------------------ fits
    def n_params(self, n_parents: int) -> int:
        """The CPD's BIC dimension for ``n_parents`` parents (per-condition intercepts are added to
        each family's own fit, ``FamilyFit.n_params``; moves never change them)."""
        return self._models[0].n_params(n_parents)

    def fit(self, child: int, parents: Parents) -> FamilyFit:
        """ML fit of the family on its own rows, with ``n_rows`` set for the BIC penalty."""
        fit = self._model(child).fit(child, parents)
        extra = int(self.extra_params[child])
        return dataclasses.replace(fit, n_rows=int(self.family_rows[child]), n_params=fit.n_params + extra)

    def family_values(self, child: int) -> np.ndarray:
        """The data ``child``'s family is scored on (its rows; condition-centred with intercepts)."""
        return self._values[self._pattern[child]]

    def family_mask(self, child: int) -> np.ndarray:
        """Boolean (M,): the rows of ``child``'s family."""
        return self.rows[self._pattern[child]]

    # ------------------------------------------------------ rankings, gains
    def add_similarity(self, child: int, parents: Parents) -> tuple[np.ndarray, np.ndarray]:
        """C1, C2 of adding each variable, from the ideal profile on the family's rows."""
        return self._model(child).add_similarity(child, parents)

    def replace_similarity(self, child: int, parents: Parents) -> tuple[np.ndarray, np.ndarray]:
        """C1, C2 of each replacement, on the family's rows."""
        return self._model(child).replace_similarity(child, parents)

    def exact_add_many(self, requests: list[tuple[int, Parents, np.ndarray]]) -> list[np.ndarray]:
        """Exact gains of the requests, one batch per model (families sharing their rows)."""
        out: list[np.ndarray | None] = [None] * len(requests)
        groups: dict[int, list[int]] = {}
        for i, (child, _, _) in enumerate(requests):
            groups.setdefault(int(self._pattern[child]), []).append(i)
        for p, idx in groups.items():
            gains = self._models[p].exact_add_many([requests[i] for i in idx])
            for i, g in zip(idx, gains, strict=True):
                out[i] = g
        return out  # type: ignore[return-value]

    def ideal_profile(self, values: np.ndarray, child: int, parents: Parents) -> np.ndarray:
        """The family's ideal profile on its own rows (``values`` is ignored: see
        :meth:`family_values`)."""
        return self._model(child).ideal_profile(self.family_values(child), child, parents)
