"""Inspection helpers: ideal profiles, candidate tables, bound checks and the paper's figures.

Everything the explorer's inspector, bounds and teaching pages plot comes from here, computed with
the engine's own CPD families (:mod:`engine.cpd`) and similarity measures (:mod:`engine.ideal`).
Nothing here changes the search: exact gains asked for by :func:`family_profiles` and
:func:`candidate_table` go straight to the CPD model (``model.exact_add``), so the stepper's count
of exact evaluations is not touched.

* :func:`family_profiles` -- one family's child profile, current prediction and ideal profile
  (JMLR 2007 Definition 3.1; the residual for linear Gaussian, section 3.2), and the top candidates
  by C2 drawn as ``alpha_z z`` with ``alpha_z = (y.z)/(z.z)`` (Theorem 3.2; for non-linear CPDs the
  weighted ``(y*.z*)/(z*.z*)`` of Theorem 7.1).
* :func:`candidate_table` -- every legal Add candidate of a family with C1, C2 (Theorems 3.2 and
  3.4), the exact gain Delta (eq. 2) and the C2 rank.
* :func:`bound_summary` -- how well C1 <= C2 <= Delta (section 3.2) holds on a candidate table.
* :func:`ideal_parent_example` -- Figure 1 (a)-(d), built live on a small synthetic family.
* :func:`sigmoid_linearization_example` -- Figure 4: the first-order expansion of a sigmoid link
  around the ideal parent value and its effect on the likelihood surface (section 7).

Assumes complete data (the models the stepper was built with).

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

from .cpd.linear import LinearGaussianFamilies
from .cpd.sigmoid import P_EPS, sigmoid
from .exceptions import ParameterError
from .ideal import c1 as ideal_c1
from .ideal import c2 as ideal_c2
from .ideal import ideal_profile as linear_ideal_profile
from .search import CandidateTable, Operator, Stepper

__all__ = [
    "FamilyProfiles",
    "FamilyCandidates",
    "BoundSummary",
    "IdealParentExample",
    "SigmoidLinearization",
    "family_profiles",
    "candidate_table",
    "legal_add_candidates",
    "family_prediction",
    "bound_summary",
    "select_rows",
    "ideal_parent_example",
    "sigmoid_linearization_example",
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
    from .cpd.registry import get_cpd

    return get_cpd(getattr(model, "cpd", "linear")).predict(params, u)


def _weighted_alpha(y: np.ndarray, z: np.ndarray, weights: np.ndarray | None, centred: bool):
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
    scaled : ndarray (M, K)
        ``alpha_z * z`` per candidate (z centred when ``centred``): the candidate's best imitation
        of the ideal profile.
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
    ideal_star, scaled_star : ndarray or None
        Distorted profiles ``y o g'`` and ``alpha_z z o g'`` (Theorem 7.1); None when ``weights``
        is None.
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
    alpha, zc = _weighted_alpha(y, vals[:, best], weights, centred)
    scaled = zc * alpha[None, :]
    gains = _exact_gains(stepper, child, parents, best, exact) if best.size else np.zeros(0)
    inst = np.argsort(y, kind="stable") if order == "ideal" else np.arange(y.shape[0])
    return FamilyProfiles(
        child=child,
        parents=tuple(parents),
        cpd=str(getattr(model, "cpd", "linear")),
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


# ------------------------------------------------------------------------------ bounds
@dataclass
class BoundSummary:
    """How the estimates C1, C2 compare with the exact gain on a set of candidate moves.

    For linear Gaussian CPDs ``C1 <= C2 <= Delta`` (JMLR section 3.2), so ``frac_c1_below``,
    ``frac_c2_below`` and ``frac_c1_le_c2`` are 1. ``spearman_*`` are rank correlations with the
    exact gain (how well the estimate orders candidates); ``top_agreement`` is the fraction of
    families (with at least two candidates) whose best candidate by C2 is also the best exactly.
    ``max_excess_c2`` is the largest ``C2 - Delta`` (<= 0 when C2 is a bound everywhere).
    """

    n: int
    frac_c1_below: float
    frac_c2_below: float
    frac_c1_le_c2: float
    spearman_c1: float
    spearman_c2: float
    n_families: int
    top_agreement: float
    max_excess_c1: float
    max_excess_c2: float
    n_add: int = 0
    n_replace: int = 0


_TABLE_FIELDS = (
    "op",
    "parent",
    "child",
    "removed",
    "c1",
    "c2",
    "delta_loglik",
    "delta_bic",
    "rank",
    "selected",
)


def select_rows(table: CandidateTable, ops: Sequence[Operator | int | str]) -> CandidateTable:
    """The rows of ``table`` whose operator is one of ``ops`` (Operator, its value or its name).

    Returns a new table (copies), so filling exact gains in one does not touch the other."""
    wanted = {int(Operator[o.upper()]) if isinstance(o, str) else int(o) for o in ops}
    mask = np.isin(np.asarray(table.op, dtype=int), sorted(wanted))
    return CandidateTable(**{f: np.array(getattr(table, f)[mask]) for f in _TABLE_FIELDS})


def _spearman(a: np.ndarray, b: np.ndarray) -> float:
    if a.size < 2 or np.ptp(a) == 0 or np.ptp(b) == 0:
        return float("nan")
    return float(stats.spearmanr(a, b).statistic)


def bound_summary(table: CandidateTable, tol: float = 1e-9) -> BoundSummary:
    """Summarize C1/C2 against the exact log-likelihood change over a candidate table.

    Only rows with a finite exact ``delta_loglik`` and finite C1 and C2 count (Add and Replace
    rows; Delete and Reverse have no estimate). A value counts as "below" when
    ``c <= exact + tol * max(1, |exact|)``.

    Notes
    -----
    The inequality checked is ``C1 <= C2 <= Delta`` (JMLR 2007 section 3.2, Theorems 3.2 and 3.4).
    Rank correlations use :func:`scipy.stats.spearmanr`.
    """
    c1 = np.asarray(table.c1, dtype=float)
    c2 = np.asarray(table.c2, dtype=float)
    ex = np.asarray(table.delta_loglik, dtype=float)
    ok = np.isfinite(c1) & np.isfinite(c2) & np.isfinite(ex)
    c1, c2, ex = c1[ok], c2[ok], ex[ok]
    child = np.asarray(table.child)[ok]
    ops = np.asarray(table.op)[ok]
    n = int(ok.sum())
    nan = float("nan")
    if n == 0:
        return BoundSummary(0, nan, nan, nan, nan, nan, 0, nan, nan, nan)
    slack = tol * np.maximum(1.0, np.abs(ex))
    c1_scale = tol * np.maximum(1.0, np.abs(c2))
    agree, n_fam = 0, 0
    for c in np.unique(child):
        rows = np.flatnonzero(child == c)
        if rows.size < 2:
            continue
        n_fam += 1
        best_c2 = rows[np.argmax(c2[rows])]
        top = ex[rows].max()
        agree += bool(ex[best_c2] >= top - tol * max(1.0, abs(top)))
    return BoundSummary(
        n=n,
        frac_c1_below=float(np.mean(c1 <= ex + slack)),
        frac_c2_below=float(np.mean(c2 <= ex + slack)),
        frac_c1_le_c2=float(np.mean(c1 <= c2 + c1_scale)),
        spearman_c1=_spearman(c1, ex),
        spearman_c2=_spearman(c2, ex),
        n_families=n_fam,
        top_agreement=float(agree / n_fam) if n_fam else nan,
        max_excess_c1=float(np.max(c1 - ex)),
        max_excess_c2=float(np.max(c2 - ex)),
        n_add=int((ops == Operator.ADD).sum()),
        n_replace=int((ops == Operator.REPLACE).sum()),
    )


# ------------------------------------------------------------------- Figure 1, live
@dataclass
class IdealParentExample:
    """The paper's Figure 1 (a)-(d), computed on a small synthetic family.

    X has one parent U in the current model; a hidden "true second parent" H also drives X. Two
    candidates are offered: Z1 is a noisy copy of H (close to the ideal profile), Z2 an unrelated
    signal. Profiles are over instances 0..M-1.

    Attributes
    ----------
    u, x, hidden : ndarray (M,)
        The parent, the child and the hidden second parent.
    prediction_u : ndarray (M,)
        (a) The prediction of X from U alone (linear Gaussian ML fit).
    ideal : ndarray (M,)
        (b) The ideal parent profile: the residual ``x - prediction_u`` (section 3.2).
    candidates : ndarray (M, 2)
        (c) The candidate profiles Z1, Z2.
    scaled : ndarray (M, 2)
        ``alpha_z z`` (centred z) of each candidate, to lay over the ideal profile.
    alpha, c1, c2, exact : ndarray (2,)
        alpha_z, C1, C2 and the exact log-likelihood gain of adding each candidate (nats).
    best : int
        Index (0 or 1) of the candidate with the larger C2.
    prediction_best : ndarray (M,)
        (d) The prediction of X from U and the best candidate (refitted).
    loglik_u, loglik_best : float
        Family log-likelihoods before and after adding the best candidate.
    names : tuple of str
        ``("U", "X", "Z1", "Z2")``.
    """

    n_samples: int
    noise: float
    seed: int
    u: np.ndarray
    x: np.ndarray
    hidden: np.ndarray
    prediction_u: np.ndarray
    ideal: np.ndarray
    candidates: np.ndarray
    scaled: np.ndarray
    alpha: np.ndarray
    c1: np.ndarray
    c2: np.ndarray
    exact: np.ndarray
    best: int
    prediction_best: np.ndarray
    loglik_u: float
    loglik_best: float
    names: tuple[str, str, str, str] = ("U", "X", "Z1", "Z2")

    @property
    def gain(self) -> float:
        """Log-likelihood gain of adding the best candidate (equals ``exact[best]``)."""
        return self.loglik_best - self.loglik_u


def _smooth_signal(rng: np.random.Generator, t: np.ndarray, n_waves: int = 3) -> np.ndarray:
    """A smooth random curve over instances (sum of random sinusoids), standardized."""
    f = rng.uniform(0.5, 3.0, size=n_waves)
    ph = rng.uniform(0, 2 * np.pi, size=n_waves)
    amp = rng.uniform(0.5, 1.0, size=n_waves)
    s = (amp[:, None] * np.sin(2 * np.pi * f[:, None] * t[None, :] + ph[:, None])).sum(axis=0)
    return (s - s.mean()) / s.std()


def ideal_parent_example(n_samples: int = 40, noise: float = 0.3, seed: int = 0) -> IdealParentExample:
    """Build the paper's Figure 1 live (JMLR 2007 section 3, Figure 1).

    ``X = U + H + noise * eps`` with smooth random profiles U and H (H plays the hidden true second
    parent); candidates ``Z1 = H + noise * eps'`` and ``Z2`` an independent smooth signal plus
    noise. The family X | U is fitted with :class:`engine.cpd.linear.LinearGaussianFamilies`; the
    ideal profile is :func:`engine.ideal.ideal_profile`; C1/C2 are :func:`engine.ideal.c1` and
    :func:`engine.ideal.c2` (centred candidates, the engine's default); exact gains are
    ``exact_add`` and the refit is ``fit(X, (U, Z_best))``.

    Parameters
    ----------
    n_samples : int
        M, number of instances (>= 5).
    noise : float
        Standard deviation of the noise in X and in the candidates (>= 0).
    seed : int
    """
    if int(n_samples) < 5:
        raise ParameterError(f"`n_samples` == {n_samples}; the example needs at least 5 instances.")
    if not noise >= 0:
        raise ParameterError(f"`noise` == {noise}; it must be >= 0.")
    m = int(n_samples)
    rng = np.random.default_rng(seed)
    t = np.linspace(0.0, 1.0, m)
    u = _smooth_signal(rng, t)
    h = _smooth_signal(rng, t)
    other = _smooth_signal(rng, t)
    x = 0.5 + u + h + noise * rng.normal(size=m)
    z1 = h + noise * rng.normal(size=m)
    z2 = other + noise * rng.normal(size=m)
    values = np.column_stack([u, x, z1, z2])
    model = LinearGaussianFamilies(values)
    fit_u = model.fit(1, (0,))
    alpha_u = np.asarray(fit_u.params["coefficients"])
    pred_u = fit_u.params["intercept"] + u * alpha_u[0]
    y = linear_ideal_profile(x, u[:, None], alpha_u, fit_u.params["intercept"])
    z = values[:, 2:]
    c1 = np.asarray(ideal_c1(y, z, centred=model.centred), dtype=float)
    c2 = np.asarray(ideal_c2(y, z, centred=model.centred), dtype=float)
    alpha, zc = _weighted_alpha(y, z, None, model.centred)
    exact = model.exact_add(1, (0,), np.array([2, 3]))
    best = int(np.argmax(c2))
    fit_b = model.fit(1, tuple(sorted((0, 2 + best))))
    pred_b = family_prediction(model, fit_b.params, values[:, list(fit_b.parents)])
    return IdealParentExample(
        n_samples=m,
        noise=float(noise),
        seed=int(seed),
        u=u,
        x=x,
        hidden=h,
        prediction_u=pred_u,
        ideal=y,
        candidates=z.copy(),
        scaled=zc * alpha[None, :],
        alpha=alpha,
        c1=c1,
        c2=c2,
        exact=np.asarray(exact, dtype=float),
        best=best,
        prediction_best=pred_b,
        loglik_u=float(fit_u.loglik),
        loglik_best=float(fit_b.loglik),
    )


# ------------------------------------------------------------------- Figure 4, live
@dataclass
class SigmoidLinearization:
    """The paper's Figure 4: a sigmoid link linearized at the ideal parent value.

    For each instance i (X has no parents; ``s`` is the fixed contribution of other parents):

    * ``p[i] = (x[i] - theta0) / theta1`` clipped into (eps, 1 - eps), ``y[i] = logit(p[i]) - s``
      (the ideal parent value, by inverting g), ``gprime[i] = theta1 p (1 - p)`` (g'(y)).
    * (a)/(b) ``z_axis[i]`` with ``g_exact[i] = theta0 + theta1 sigmoid(s + z)`` and its tangent
      ``g_lin[i] = g(y) + (z - y) g'(y)``.
    * (c)/(d) ``ll_exact[i]`` / ``ll_lin[i]``: log N(x[i]; g, sigma^2) along ``z_axis[i]``.
    * (e) ``surface_exact`` / ``surface_lin`` of shape (G, G): the two-instance log-likelihood
      ``ll_0(z_0) + ll_1(z_1)``, rows indexed by ``z_axis[1]``, columns by ``z_axis[0]`` (plotly
      contour convention).
    * (f) ``skewed_axis[i] = z_axis[i] * gprime[i]``: plotted against these axes, the linearized
      contours become circles (the distorted geometry of Theorem 7.1).
    """

    x: np.ndarray
    theta0: float
    theta1: float
    s: float
    sigma: float
    p: np.ndarray
    y: np.ndarray
    gprime: np.ndarray
    z_axis: np.ndarray
    g_exact: np.ndarray
    g_lin: np.ndarray
    ll_exact: np.ndarray
    ll_lin: np.ndarray
    surface_exact: np.ndarray
    surface_lin: np.ndarray
    skewed_axis: np.ndarray


def _gauss_loglik(x: float, mean: np.ndarray, sigma: float) -> np.ndarray:
    return -0.5 * (np.log(2 * np.pi * sigma**2) + (x - mean) ** 2 / sigma**2)


def sigmoid_linearization_example(
    x_values: Sequence[float] = (0.5, 0.85),
    theta0: float = 0.0,
    theta1: float = 1.0,
    s: float = 0.0,
    sigma: float = 0.1,
    half_width: float = 3.0,
    n_grid: int = 121,
    eps: float = P_EPS,
) -> SigmoidLinearization:
    """Figure 4 of JMLR 2007 (section 7): linearizing ``g = theta1 sigmoid(s + z) + theta0``.

    The ideal value ``y = logit(p) - s`` with ``p = (x - theta0)/theta1`` clipped to
    ``[eps, 1 - eps]`` (Definition 3.1, closest point in g's image) and ``g'(y) = theta1 p (1-p)``.
    The first-order expansion ``g(z) ~ g(y) + (z - y) g'(y)`` turns the Gaussian log-likelihood of
    each instance into a parabola whose width scales as ``sigma / g'(y)``: saturated instances
    (small g') are less sensitive to z. Weighting by g' (Theorem 7.1) removes that difference.

    With the defaults: x = 0.5 gives y = 0, g' = 0.25; x = 0.85 gives y = 1.7346, g' = 0.1275.

    Parameters
    ----------
    x_values : sequence of float
        Child values of the instances (two for the contour surfaces).
    theta0, theta1 : float
        Offset and scale of the sigmoid (theta1 != 0).
    s : float
        Contribution ``sum_i alpha_i u_i`` of the current parents (0: no parents).
    sigma : float
        Noise standard deviation of the CPD (> 0).
    half_width : float
        Each z axis spans ``y +- half_width``.
    n_grid : int
        Points per axis.
    eps : float
        Clipping of p into the open interval (0, 1).
    """
    x = np.asarray(x_values, dtype=float).ravel()
    if x.size < 1:
        raise ParameterError("`x_values` is empty.")
    if theta1 == 0:
        raise ParameterError("`theta1` must be non-zero (the sigmoid would be flat).")
    if not sigma > 0:
        raise ParameterError(f"`sigma` == {sigma}; it must be > 0.")
    if int(n_grid) < 3:
        raise ParameterError(f"`n_grid` == {n_grid}; use at least 3 points.")
    p = np.clip((x - theta0) / theta1, eps, 1.0 - eps)
    y = np.log(p / (1.0 - p)) - s
    gp = theta1 * p * (1.0 - p)
    grid = np.linspace(-half_width, half_width, int(n_grid))
    z_axis = y[:, None] + grid[None, :]
    g_exact = theta0 + theta1 * sigmoid(s + z_axis)
    g_at_y = theta0 + theta1 * p
    g_lin = g_at_y[:, None] + (z_axis - y[:, None]) * gp[:, None]
    ll_exact = np.stack([_gauss_loglik(x[i], g_exact[i], sigma) for i in range(x.size)])
    ll_lin = np.stack([_gauss_loglik(x[i], g_lin[i], sigma) for i in range(x.size)])
    if x.size >= 2:
        surf_exact = ll_exact[1][:, None] + ll_exact[0][None, :]
        surf_lin = ll_lin[1][:, None] + ll_lin[0][None, :]
    else:
        surf_exact = surf_lin = np.zeros((0, 0))
    return SigmoidLinearization(
        x=x,
        theta0=float(theta0),
        theta1=float(theta1),
        s=float(s),
        sigma=float(sigma),
        p=p,
        y=y,
        gprime=gp,
        z_axis=z_axis,
        g_exact=g_exact,
        g_lin=g_lin,
        ll_exact=ll_exact,
        ll_lin=ll_lin,
        surface_exact=surf_exact,
        surface_lin=surf_lin,
        skewed_axis=z_axis * gp[:, None],
    )
