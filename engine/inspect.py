"""Inspection of one family for the explorer's Inspector page: ideal profiles and candidate tables.

Computed with the engine's own CPD families (:mod:`engine.cpd`) and similarity measures
(:mod:`engine.ideal`). Nothing here changes the search: exact gains asked for by
:func:`family_profiles` and :func:`candidate_table` go straight to the CPD model
(``model.exact_add``), so the stepper's count of exact evaluations is not touched.

* :func:`family_profiles` -- one family's child profile, current prediction and ideal profile
  (JMLR 2007 Definition 3.1; the residual for linear Gaussian, section 3.2), and the top candidates
  by C2 drawn as ``alpha_z z`` with ``alpha_z = (y.z)/(z.z)`` (Theorem 3.2; for non-linear CPDs the
  weighted ``(y*.z*)/(z*.z*)`` of Theorem 7.1).
* :func:`candidate_table` -- every legal Add candidate of a family with C1, C2 (Theorems 3.2 and
  3.4), the exact gain Delta (eq. 2) and the C2 rank.
* :func:`legal_add_candidates` and :func:`family_prediction` (g(u) of a fitted family) -- the
  pieces they are built from; :mod:`engine.teaching` reuses ``family_prediction`` and the
  alpha_z helper ``weighted_alpha``.

The bound checks of the Bounds page are in :mod:`engine.bounds`, the Teaching page's worked
examples in :mod:`engine.teaching`. Assumes complete data (the models the stepper was built with).

References
----------
.. [1] G. Elidan, I. Nachman, N. Friedman. "Ideal Parent" Structure Learning for Continuous
   Variable Bayesian Networks. JMLR 8:1799-1833, 2007.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy import stats

from .cpd import DEFAULT_CPD, get_cpd
from .exceptions import ParameterError
from .search import Stepper

__all__ = [
    "FamilyProfiles",
    "FamilyCandidates",
    "family_profiles",
    "candidate_table",
    "legal_add_candidates",
    "family_prediction",
    "most_promising_child",
]


# ----------------------------------------------------------------------------- helpers
def _model_values(stepper: Stepper, values: np.ndarray) -> np.ndarray:
    """The data the stepper's model was fitted on.

    Non-linear models keep their own copy (``model.values``); it is preferred when its shape
    matches, so that profiles and fits always describe the same numbers."""
    values = np.asarray(values, dtype=float)
    own = getattr(stepper.model, "values", None)
    if own is not None and np.shape(own) == values.shape:
        return np.asarray(own, dtype=float)
    return values


def _check_child(stepper: Stepper, child: int) -> int:
    if not 0 <= int(child) < stepper.n_vars:
        raise ParameterError(f"`child` == {child} is not a variable index (0..{stepper.n_vars - 1}).")
    return int(child)


def most_promising_child(stepper: Stepper) -> int:
    """The family whose best legal Add candidate has the largest C2 (0 when none has one): where a
    candidate matches the ideal profile best. Costs one ranking per family not ranked yet."""

    def top(child: int) -> float:
        c2 = stepper.entry(child).add_c2[stepper.legal_parents(child)]
        return float(np.max(c2[np.isfinite(c2)], initial=-np.inf))

    tops = [top(c) for c in range(stepper.n_vars)]
    return int(np.argmax(tops)) if tops and max(tops) > -np.inf else 0


def legal_add_candidates(stepper: Stepper, child: int) -> np.ndarray:
    """Indices of the variables that may be added as a parent of ``child`` right now.

    The same rule as the search's Add operator (JMLR Algorithm 1): not the child, not already a
    parent, no directed cycle (``child`` must not reach the candidate), not forbidden, and the
    family below ``max_parents``. Empty when the Add operator is switched off.
    """
    return stepper.legal_parents(_check_child(stepper, child))


def family_prediction(model, params: dict, u: np.ndarray) -> np.ndarray:
    """The family's prediction g(u) (the mean of X given its parents) under fitted ``params``.

    Linear Gaussian (JMLR section 3.2): ``theta_0 + U alpha``. Sigmoid (eq. 4):
    ``theta_0 + theta_1 sigmoid(U alpha)``. Multiplicative noise (eq. 16, log-linear link):
    ``exp(theta_0 + U alpha)``.
    """
    return get_cpd(getattr(model, "cpd", DEFAULT_CPD)).predict(params, u)


def weighted_alpha(y: np.ndarray, z: np.ndarray, weights: np.ndarray | None, centred: bool):
    """alpha_z of every candidate column and the profiles it is applied to.

    Theorem 3.2: ``alpha_z = (z.y)/(z.z)``; Theorem 7.1: the same with ``y* = y o g'``,
    ``z* = z o g'``. With ``centred`` the candidate profiles are centred first (engine.ideal).
    """
    z = np.asarray(z, dtype=float)
    if centred:
        z = z - z.mean(axis=0)
    w = np.ones(y.shape[0]) if weights is None else np.asarray(weights, dtype=float)
    ys = y * w
    zs = z * w[:, None]
    zz = np.einsum("mj,mj->j", zs, zs)
    with np.errstate(divide="ignore", invalid="ignore"):
        alpha = np.where(zz > 0, (ys @ zs) / np.where(zz > 0, zz, 1.0), 0.0)
    return alpha, z


def _exact_gains(stepper: Stepper, child: int, parents: tuple[int, ...], cand: np.ndarray, compute: bool) -> np.ndarray:
    """Exact Delta (eq. 2) of adding each candidate: the stepper's cached value when it has one,
    else (when ``compute``) ``model.exact_add``; NaN otherwise."""
    out = np.array(stepper.entry(child).add_exact[cand], dtype=float)
    todo = np.flatnonzero(np.isnan(out))
    if compute and todo.size:
        out[todo] = stepper.model.exact_add(child, parents, cand[todo])
    return out


def _rank_desc(values: np.ndarray) -> np.ndarray:
    """1-based rank, best (largest) first; ties share the best rank; NaN ranked last."""
    v = np.where(np.isfinite(values), values, -np.inf)
    return stats.rankdata(-v, method="min").astype(np.intp)


def _names(names: Sequence[str] | None, idx) -> list[str] | None:
    if names is None:
        return None
    return [str(names[int(i)]) for i in np.atleast_1d(idx)]


# ------------------------------------------------------------------------ family view
@dataclass
class FamilyProfiles:
    """One family's profiles over the training instances (the inspector's picture).

    Attributes
    ----------
    child : int
    parents : tuple of int
        Current parents of the child in the stepper's graph.
    cpd : str
        ``"linear"``, ``"sigmoid"`` or ``"multiplicative"``.
    x : ndarray (M,)
        The child's profile (its value in every instance).
    prediction : ndarray (M,)
        The current fit's prediction g(u) of the child.
    ideal : ndarray (M,)
        The ideal parent profile y (Definition 3.1): the value a new parent with scale 1 would need
        in each instance for the family to predict x exactly; the residual x - prediction for
        linear Gaussian (section 3.2).
    order : ndarray (M,)
        Instance order for plotting (argsort of ``ideal`` when ``order="ideal"``, else identity).
    candidates : ndarray (K,)
        Top legal Add candidates by C2 (best first).
    alpha : ndarray (K,)
        Their ``alpha_z`` (Theorem 3.2 / 7.1).
    profiles : ndarray (M, K)
        Each candidate's profile z as it is compared with the ideal profile (centred when
        ``centred``).
    scaled : ndarray (M, K)
        ``alpha_z * z`` per candidate (z centred when ``centred``): the candidate's best imitation
        of the ideal profile, the least-squares line through (z, y) of Theorem 3.2.
    cosine : ndarray (K,)
        cos phi between the ideal profile and each candidate (weighted by g'(y) for non-linear
        CPDs): C1 = (M/2) cos^2 phi and C2 = -(M/2) log(1 - cos^2 phi) for linear Gaussian
        (Proposition 3.3, Theorem 3.4).
    c1, c2 : ndarray (K,)
        The engine's C1 and C2 of those candidates (nats).
    exact : ndarray (K,)
        Exact log-likelihood gain of adding them (nats; NaN if not computed).
    centred : bool
        Whether candidates are centred before comparison (see :mod:`engine.ideal`).
    n_legal : int
        Number of legal Add candidates of the family.
    weights : ndarray (M,) or None
        Non-linear CPDs: ``g'(y)``, the importance of each instance in the linearized comparison
        (Theorem 7.1). None for linear Gaussian (all instances weigh 1).
    ideal_star, scaled_star, profiles_star : ndarray or None
        Distorted profiles ``y o g'``, ``alpha_z z o g'`` and ``z o g'`` (Theorem 7.1); None when
        ``weights`` is None.
    variance : float
        The family's ML noise variance sigma^2.
    child_name, parent_names, candidate_names : optional names for display.
    """

    child: int
    parents: tuple[int, ...]
    cpd: str
    x: np.ndarray
    prediction: np.ndarray
    ideal: np.ndarray
    order: np.ndarray
    candidates: np.ndarray
    alpha: np.ndarray
    scaled: np.ndarray
    c1: np.ndarray
    c2: np.ndarray
    exact: np.ndarray
    centred: bool
    n_legal: int
    variance: float
    weights: np.ndarray | None = None
    ideal_star: np.ndarray | None = None
    scaled_star: np.ndarray | None = None
    child_name: str | None = None
    parent_names: list[str] | None = None
    candidate_names: list[str] | None = None
    profiles: np.ndarray | None = None
    profiles_star: np.ndarray | None = None
    cosine: np.ndarray | None = None

    @property
    def n_samples(self) -> int:
        return int(self.x.shape[0])


def family_profiles(
    stepper: Stepper,
    values: np.ndarray,
    child: int,
    top: int = 5,
    order: str = "ideal",
    *,
    names: Sequence[str] | None = None,
    exact: bool = True,
) -> FamilyProfiles:
    """Profiles of ``child``'s current family and of its most promising new parents.

    Parameters
    ----------
    stepper : Stepper
        The search whose current graph and CPD model are inspected.
    values : ndarray (M, N)
        The data the stepper was built on (``dataset.values``).
    child : int
    top : int
        How many candidates (best C2 first, among legal Add candidates) to return.
    order : {"ideal", "index"}
        Instance order for plotting: sorted by the ideal profile, or as in the data.
    names : sequence of str, optional
        Variable names, to label the result.
    exact : bool
        Compute the exact gain of the returned candidates (K exact fits via ``model.exact_add``).

    Notes
    -----
    Ideal profile: Definition 3.1 (the residual, section 3.2; for the sigmoid by inverting g,
    section 7).
    ``alpha_z = (y.z)/(z.z)`` (Theorem 3.2) with the candidate centred as the model's ``centred``
    flag says; non-linear CPDs weight both profiles by ``g'(y)`` (Theorem 7.1).
    """
    child = _check_child(stepper, child)
    if order not in ("ideal", "index"):
        raise ParameterError(f"`order` must be 'ideal' or 'index', got {order!r}.")
    top = max(0, int(top))
    model = stepper.model
    vals = _model_values(stepper, values)
    if hasattr(model, "family_values"):  # interventions: the family's own rows (engine.interventions)
        vals = model.family_values(child)
    parents = stepper.parents(child)
    fit = model.fit(child, parents)
    x = vals[:, child].copy()
    u = vals[:, list(parents)]
    prediction = family_prediction(model, fit.params, u)
    y = np.asarray(model.ideal_profile(vals, child, parents), dtype=float)
    weights = None
    if hasattr(model, "ideal_weights"):
        weights = np.asarray(model.ideal_weights(child, parents), dtype=float)
    centred = bool(getattr(model, "centred", False))

    legal = legal_add_candidates(stepper, child)
    entry = stepper.entry(child)
    c2_all = entry.add_c2[legal]
    best = legal[np.lexsort((legal, -np.where(np.isfinite(c2_all), c2_all, -np.inf)))][:top]
    alpha, zc = weighted_alpha(y, vals[:, best], weights, centred)
    scaled = zc * alpha[None, :]
    w = np.ones(y.shape[0]) if weights is None else weights  # cos phi = alpha_z |z*| / |y*|
    cosine = alpha * np.linalg.norm(zc * w[:, None], axis=0) / max(float(np.linalg.norm(y * w)), 1e-300)
    gains = _exact_gains(stepper, child, parents, best, exact) if best.size else np.zeros(0)
    inst = np.argsort(y, kind="stable") if order == "ideal" else np.arange(y.shape[0])
    return FamilyProfiles(
        child=child,
        parents=tuple(parents),
        cpd=str(getattr(model, "cpd", DEFAULT_CPD)),
        x=x,
        prediction=np.asarray(prediction, dtype=float),
        ideal=y,
        order=inst,
        candidates=best,
        alpha=alpha,
        scaled=scaled,
        c1=np.array(entry.add_c1[best], dtype=float),
        c2=np.array(entry.add_c2[best], dtype=float),
        exact=gains,
        centred=centred,
        n_legal=int(legal.size),
        variance=float(fit.params.get("variance", np.nan)),
        weights=weights,
        ideal_star=None if weights is None else y * weights,
        scaled_star=None if weights is None else scaled * weights[:, None],
        child_name=None if names is None else str(names[child]),
        parent_names=_names(names, list(parents)) if parents else ([] if names is not None else None),
        candidate_names=_names(names, best) if best.size else ([] if names is not None else None),
        profiles=zc,
        profiles_star=None if weights is None else zc * weights[:, None],
        cosine=cosine,
    )


@dataclass
class FamilyCandidates:
    """Every legal Add candidate of one family, with its estimates and exact gain.

    ``rank`` is the position by C2 within the family (1 = most similar to the ideal profile).
    ``exact`` is NaN where the exact gain was neither computed by the search nor requested.
    ``c1``/``c2`` are lower bounds on ``exact`` for linear Gaussian (section 3.2) and
    approximations for non-linear CPDs (Theorem 7.1).
    """

    child: int
    parents: tuple[int, ...]
    candidates: np.ndarray
    c1: np.ndarray
    c2: np.ndarray
    exact: np.ndarray
    rank: np.ndarray
    names: list[str] | None = None

    def __len__(self) -> int:
        return int(self.candidates.shape[0])

    @property
    def n_exact(self) -> int:
        """How many rows have an exact gain."""
        return int(np.isfinite(self.exact).sum())

    @property
    def best_by_c2(self) -> int | None:
        """Variable index of the candidate ranked first by C2 (None when there is none)."""
        if not len(self):
            return None
        return int(self.candidates[np.lexsort((self.candidates, self.rank))[0]])

    @property
    def best_by_exact(self) -> int | None:
        """Variable index of the candidate with the largest exact gain (None unless all known)."""
        if not len(self) or self.n_exact < len(self):
            return None
        return int(self.candidates[int(np.argmax(self.exact))])

    def to_frame(self) -> pd.DataFrame:
        """One row per candidate, sorted by rank (for tables)."""
        frame = pd.DataFrame(
            {
                "rank (C2)": self.rank,
                "candidate": self.names if self.names is not None else self.candidates,
                "C1": self.c1,
                "C2": self.c2,
                "exact gain": self.exact,
                "exact - C2": self.exact - self.c2,
            }
        )
        return frame.iloc[np.argsort(self.rank, kind="stable")].reset_index(drop=True)


def candidate_table(
    stepper: Stepper,
    child: int,
    *,
    compute_exact: bool = False,
    names: Sequence[str] | None = None,
) -> FamilyCandidates:
    """All legal Add candidates of ``child``'s family with C1, C2, exact gain and C2 rank.

    Parameters
    ----------
    stepper : Stepper
    child : int
    compute_exact : bool
        Compute the exact gain (eq. 2) of every candidate with ``model.exact_add``; otherwise only
        the gains the search already computed are filled in (NaN elsewhere).
    names : sequence of str, optional

    Notes
    -----
    C1 and C2 are the engine's (Theorems 3.2 and 3.4, or Theorem 7.1 for non-linear CPDs).
    """
    child = _check_child(stepper, child)
    parents = stepper.parents(child)
    legal = legal_add_candidates(stepper, child)
    entry = stepper.entry(child)
    c1 = np.array(entry.add_c1[legal], dtype=float)
    c2 = np.array(entry.add_c2[legal], dtype=float)
    exact = _exact_gains(stepper, child, parents, legal, compute_exact) if legal.size else np.zeros(0)
    return FamilyCandidates(
        child=child,
        parents=tuple(parents),
        candidates=legal,
        c1=c1,
        c2=c2,
        exact=exact,
        rank=_rank_desc(c2),
        names=_names(names, legal) if legal.size else ([] if names is not None else None),
    )
