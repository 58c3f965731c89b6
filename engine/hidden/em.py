"""Structural EM for missing values and hidden variables, linear-Gaussian networks.

Implements JMLR 2007 section 6 (after Friedman 1997/1998): the score is the *expected* BIC under a
posterior Q over the unobserved cells (missing observations and hidden variables),

    E_Q[BIC(D, G)] = sum_families E_Q[l_X(D : U, theta)] - (log M / 2) Dim(G),

which decomposes like the complete-data score. One iteration is

* **M-step**: the ordinary structure search (greedy or Ideal Parent, the same
  :class:`~engine.search.Stepper`) run to convergence from the current structure on the expected
  sufficient statistics (means and centred scatter under Q), then ML parameters;
* **E-step**: Q is the paper's mean-field posterior, one Gaussian factor per unobserved cell, updated
  by coordinate ascent (vectorized over instances, one sweep per variable). For a linear-Gaussian
  network the mean-field means converge to the exact posterior means; the variances are the
  mean-field (under-)estimates. Only first and second moments are needed.

Ideal profiles come from expectations: with expected statistics the search's C1/C2 use the
expected scatter (see :meth:`engine.cpd.linear.LinearGaussianFamilies.from_moments`).

Convergence is tracked with the variational bound of the penalized score,
``F = E_Q[log P(D_o, D_h)] + H(Q) - (log M / 2) Dim(G)``, which no step decreases: the E-step
maximizes F over each factor in turn, the M-step over structure and parameters for fixed Q. The
observed-data BIC (hidden variables and missing cells integrated out exactly, the network being
jointly Gaussian) is reported alongside, and is what decides whether a hidden variable helped.

References: Elidan, Nachman, Friedman, JMLR 8:1799-1833, 2007, sections 5, 6, 9.2; N. Friedman,
Learning belief networks in the presence of missing values and hidden variables, ICML 1997.
"""

from __future__ import annotations

import math
import time
import warnings
from collections.abc import Callable, Iterable
from dataclasses import dataclass

import numpy as np

from .._validation import check_scalar
from ..cpd.linear import LOG_2PI, LinearGaussianFamilies
from ..data import Dataset, mean_filled
from ..exceptions import ConvergenceWarning, DataValidationError, ParameterError
from ..parent_only import check_parent_only, edges_into, parent_only_index
from ..score import ScoreChoice, choose_score, make_score
from ..search import SearchSettings, Stepper
from ..search.carry import carry_entries, carry_fits
from .em_progress import EMProgress
from .marginal import freeze_families, marginal_loglik, observed_penalty
from .moments import ExpectedMoments
from .params import Params as _Params
from .params import ml_params
from .posterior import mean_field_step

__all__ = ["StructuralEM", "EMIteration", "MISSING_HANDLING"]

MISSING_HANDLING = (
    "structural EM (Friedman 1997; Elidan et al. 2007 sec. 6): expected BIC under a mean-field "
    "posterior over missing cells and hidden variables; M-step = structure search on expected "
    "sufficient statistics"
)


@dataclass
class EMIteration:
    """One EM iteration's figures."""

    iteration: int
    bound: float  # variational bound of the penalized score (monotone)
    expected_bic: float  # E_Q[log P] - penalty (what the M-step search maximizes)
    n_edges: int
    moves: int
    seconds: float


class StructuralEM:
    """Structural EM over the observed variables of ``dataset`` plus optional hidden variables.

    Parameters
    ----------
    dataset : Dataset
        May contain missing cells (NaN).
    hidden : dict name -> (initial profile, children names), optional
        Hidden variables to add, each initialized from a profile (e.g. a cluster's z*) as parent
        of its children.
    initial_edges : iterable of (parent name, child name)
        Starting structure (besides the hidden variables' edges).
    settings : SearchSettings or dict, optional
        Settings of every M-step search (``method``, ``k``, ``measure``, ``queue``,
        ``max_parents``); keyword arguments of the same names override them.
    two_layer : bool
        The paper's two-layer setting: only hidden -> observed edges are allowed.
    required, forbidden : iterable of (parent name, child name)
        Edges every M-step must keep / may never add (observed variables).
    max_iter : int
        Maximum EM iterations.
    tol : float
        Stop when the structure is unchanged and the bound improves by less than ``tol * max(1, |bound|)``.
    mf_iter, mf_tol : mean-field sweeps and tolerance of an E-step that falls back to the sweeps.
    fixed_structure : bool
        Plain parametric EM: keep the initial structure (used to refit a model on new data).
    warmup : int
        Parametric EM iterations on the starting structure before the first structure search, with
        hidden variables (default 0): for hidden variables started from an uninformative (random)
        profile, whose children the first M-step would otherwise drop (the paper optimizes a new
        hidden variable's parameters first). Informed starts (a cluster's z*) do better without it.
    regulators : iterable of str, optional
        The only observed variables that may be parents (hidden variables always may).
    parent_only : iterable of str, optional
        Observed variables no edge may enter, from any variable (:mod:`engine.parent_only`), besides
        the dataset's ``covariates`` (always). Stored as positions in ``parent_only``.

    Attributes
    ----------
    score_choice : engine.score.ScoreChoice
        The network score (``settings.score`` resolved on the observed variables' shape); the
        bound and :meth:`observed_bic` use its penalty.
    """

    def __init__(
        self,
        dataset: Dataset,
        settings: SearchSettings | dict | None = None,
        *,
        hidden: dict[str, tuple[np.ndarray, list[str]]] | None = None,
        initial_edges: Iterable[tuple[str, str]] = (),
        two_layer: bool = False,
        required: Iterable[tuple[str, str]] = (),
        forbidden: Iterable[tuple[str, str]] = (),
        max_iter: int = 100,
        tol: float = 1e-6,
        mf_iter: int = 100,
        mf_tol: float = 1e-8,
        fixed_structure: bool = False,
        warmup: int = 0,
        regulators: Iterable[str] | None = None,
        parent_only: Iterable[str] | None = None,
        **overrides,
    ) -> None:
        check_scalar(max_iter, "max_iter", int, min_val=1)
        check_scalar(mf_iter, "mf_iter", int, min_val=1)
        self.dataset = dataset
        self.settings = SearchSettings.coerce(settings, **overrides)
        max_parents = self.settings.max_parents
        self.two_layer = bool(two_layer)
        self.fixed_structure = bool(fixed_structure)
        self.warmup = int(warmup)
        self.max_iter, self.max_moves = max_iter, None  # max_moves: of all M-steps together (--max-steps)
        self.tol = tol
        self.mf_iter = mf_iter
        self.mf_tol = mf_tol
        hidden = dict(hidden or {})
        obs_names = list(dataset.names)
        clash = [h for h in hidden if h in obs_names]
        if clash:
            raise ParameterError(f"hidden variable name(s) {clash} clash with observed variables.")
        self.n_obs = len(obs_names)
        self.names = obs_names + list(hidden)
        self.n_vars = len(self.names)
        m = dataset.n_samples
        self.n_samples = m
        # names not in the data are reported by the estimator; here they are simply not candidates
        self.regulators = (
            None if regulators is None else sorted({obs_names.index(r) for r in regulators if r in obs_names})
        )
        n_reg = None if self.regulators is None else len(self.regulators) + len(hidden)
        named = dict.fromkeys([*dataset.covariates, *check_parent_only(parent_only)])  # the data's covariates stay
        self.parent_only = parent_only_index(named, obs_names)
        # resolved once, on the observed shape (covariates not counted), so that adding H never switches scores
        shape = {"n_candidates": n_reg, "gamma": self.settings.ebic_gamma, "n_parent_only": len(self.parent_only)}
        self.score_choice = choose_score(self.settings.score, m, self.n_obs, **shape)
        self.settings = self.settings.replace(score=self.score_choice.name)
        values = np.array(dataset.values, dtype=float)
        self.observed = np.ones((m, self.n_vars), dtype=bool)
        self.observed[:, : self.n_obs] = ~dataset.missing
        # initial moments: observed values; missing cells = column mean with the column's variance
        self.mean = np.zeros((m, self.n_vars))
        self.var = np.zeros((m, self.n_vars))
        col_var = np.nanvar(values, axis=0)
        self.mean[:, : self.n_obs] = mean_filled(dataset)
        self.var[:, : self.n_obs] = np.where(dataset.missing, col_var, 0.0)
        index = {n: i for i, n in enumerate(self.names)}
        edges = set()
        for p, c in initial_edges:
            edges.add((index[str(p)], index[str(c)]))

        def observed_pairs(pairs, what: str) -> list[tuple[int, int]]:
            out = []
            for p, c in pairs:
                if str(p) not in index or str(c) not in index:
                    raise ParameterError(f"`{what}` edge ({p!r}, {c!r}) names an unknown variable.")
                out.append((index[str(p)], index[str(c)]))
            return out

        self.required = observed_pairs(required, "required")
        self.user_forbidden = observed_pairs(forbidden, "forbidden")
        if max_parents is not None and self.required:
            k_req = np.bincount([c for _, c in self.required], minlength=self.n_vars)
            if k_req.max() > max_parents:
                c = int(np.argmax(k_req))
                raise ParameterError(
                    f"`required` gives {self.names[c]!r} {int(k_req[c])} parents; `max_parents` == {max_parents}."
                )
        edges.update(self.required)
        for j, (name, (profile, children)) in enumerate(hidden.items()):
            col = self.n_obs + j
            prof = np.asarray(profile, dtype=float)
            if prof.shape != (m,):
                raise ParameterError(f"hidden variable {name!r}: profile has shape {prof.shape}, expected ({m},).")
            self.observed[:, col] = False
            self.mean[:, col] = (prof - prof.mean()) / max(prof.std(), 1e-12)
            # Q(h[m]) = N(z*[m], 1) before the first E-step. z* is a linear combination of the
            # members' profiles, so treating it as observed (variance 0) would make a member an
            # exact function of the others plus h; the first E-step replaces this with the
            # posterior under parameters fitted to it.
            self.var[:, col] = 1.0
            for ch in children:
                if str(ch) not in index or index[str(ch)] >= self.n_obs:
                    raise ParameterError(f"hidden variable {name!r}: child {ch!r} is not an observed variable.")
                edges.add((col, index[str(ch)]))
        if not np.all(np.isfinite(col_var)):
            bad = [obs_names[i] for i in np.flatnonzero(~np.isfinite(col_var))]
            raise DataValidationError(f"column(s) {bad} have no observed values.")
        self.edges: list[tuple[int, int]] = sorted(edges)
        #: one record per EM iteration; ``lower_bounds_`` is its bound trace
        self.history: list[EMIteration] = []
        self.converged_ = False
        self.stepper: Stepper | None = None
        #: bool (N,): variables whose families every M-step keeps as they are (None: none)
        self.frozen: np.ndarray | None = None
        self.n_moves = 0
        self.n_exact = 0
        self.elapsed_s = 0.0

    # ---------------------------------------------------------------- moments
    def expected_model(self) -> LinearGaussianFamilies:
        """Families on the expected sufficient statistics under the current Q (:mod:`.moments`: only the
        columns with unobserved cells are recomputed)."""
        if getattr(self, "_moments", None) is None:
            self._moments = ExpectedMoments()
        return self._moments.model(self.mean, self.var, self.observed)

    def _next_model(self) -> LinearGaussianFamilies:
        """:meth:`expected_model`, given the last search's fits of the families whose statistics
        did not change (:func:`engine.search.carry.carry_fits`: the same numbers, not refitted)."""
        model = self.expected_model()
        carry_fits(None if self.stepper is None else self.stepper.model, model)
        return model

    def _forbidden(self) -> list[tuple[int, int]]:
        pairs = list(self.user_forbidden) + edges_into(self.parent_only, self.n_vars)
        if not self.two_layer:
            return pairs
        n, o = self.n_vars, self.n_obs
        layer = [(p, c) for p in range(n) for c in range(n) if p != c and not (p >= o and c < o)]
        return sorted(set(layer) | set(pairs))

    def _params(self, model: LinearGaussianFamilies) -> _Params:
        return ml_params(model, self.parents())

    def parents(self) -> list[tuple[int, ...]]:
        out: list[list[int]] = [[] for _ in range(self.n_vars)]
        for p, c in self.edges:
            out[c].append(p)
        return [tuple(sorted(x)) for x in out]

    # ----------------------------------------------------------------- E-step
    def e_step(self, params: _Params) -> int:
        """The mean-field fixed point over the unobserved cells (:func:`mean_field_step`: in closed
        form, or by coordinate ascent); returns the sweeps used."""
        return mean_field_step(self.mean, self.var, self.observed, params, self.mf_iter, self.mf_tol)

    def entropy(self) -> float:
        """Entropy of the mean-field Q: sum over unobserved cells of 0.5 log(2 pi e v)."""
        v = self.var[~self.observed]
        v = v[v > 0]
        return float(0.5 * np.sum(LOG_2PI + 1.0 + np.log(v)))

    @property
    def scorer(self):
        """The score (BIC or EBIC) over every variable, hidden ones included (as the steppers')."""
        n_cand = self.n_vars - 1 if self.regulators is None else len(self.regulators) + self.n_vars - self.n_obs
        return make_score(self.score_choice.name, self.n_samples, n_candidates=n_cand, gamma=self.settings.ebic_gamma)

    def _expected_bic(self, model: LinearGaussianFamilies) -> float:
        scorer = self.scorer
        return float(sum(scorer.family(model.fit(c, ps)) for c, ps in enumerate(self.parents())))

    # ----------------------------------------------------------------- M-step
    def m_step(self, model: LinearGaussianFamilies, callback=None) -> int:
        """Structure search on the expected statistics, from the current structure, run to
        convergence (``Stepper.run``, the one run loop)."""
        if self.fixed_structure:
            return 0
        max_parents = self.settings.max_parents
        if max_parents is not None:
            counts = np.bincount([c for _, c in self.edges], minlength=self.n_vars)
            max_parents = max(int(max_parents), int(counts.max(initial=0)))
        stepper = self.make_stepper(model, max_parents)
        res = stepper.run(None if self.max_moves is None else max(self.max_moves - self.n_moves, 0), callback=callback)
        self.edges = sorted(stepper.edges())
        self.stepper = stepper
        self.n_exact += res.n_exact
        self.elapsed_s += res.elapsed_s
        return res.n_iter

    def make_stepper(self, model: LinearGaussianFamilies | None = None, max_parents: int | None = None) -> Stepper:
        """A stepper over every variable (hidden ones included) on ``model`` (default: the current
        expected statistics), starting from the current structure, with the EM's constraints."""
        cap = self.settings.max_parents if max_parents is None else max_parents
        regulators = None if self.regulators is None else self.regulators + list(range(self.n_obs, self.n_vars))
        stepper = Stepper(
            model if model is not None else self._next_model(),
            self.settings.replace(max_parents=cap),
            initial=self.edges,
            required=self.required,
            forbidden=self._forbidden(),
            regulators=regulators,
        )
        # the settings carry the resolved score name; the reason is the choice made on the observed shape
        stepper.score_choice = ScoreChoice(stepper.score_choice.score, self.score_choice.reason)
        if self.frozen is not None:  # families that may not change (thesis ch. 4 variant 2)
            freeze_families(stepper, self.frozen)
        carry_entries(stepper, self.stepper)  # the last search's rankings where nothing changed
        return stepper

    # ------------------------------------------------------------------- loop
    def run(self, callback: Callable[[EMIteration], None] | None = None) -> list[EMIteration]:
        """Alternate M- and E-steps until the structure is stable and the bound converges."""
        prev_bound = -np.inf
        prev_edges = None
        if self.n_vars > self.n_obs or (~self.observed).any():
            # initial E-step under parameters fitted to the initial moments and structure
            self.e_step(self.params())
        if self.n_vars > self.n_obs and not self.fixed_structure:
            # parametric EM on the starting structure first (the paper's protocol: a new hidden
            # variable's parameters are optimized before the structure around it is searched;
            # otherwise a poorly initialized one can lose all its children in the first M-step)
            last = -np.inf
            for _ in range(self.warmup):
                self.e_step(self.params())
                bound = self._expected_bic(self._next_model()) + self.entropy()
                if bound - last <= self.tol * max(1.0, abs(bound)):
                    break
                last = bound
        model = self._next_model()
        report = EMProgress(self)  # a line now and then while the run goes (engine.hidden.em_progress)
        for it in range(1, self.max_iter + 1):
            t0 = time.perf_counter()
            moves = self.m_step(model, report.move)
            self.n_moves += moves
            self.e_step(self._params(model))  # the M-step leaves Q, hence the statistics, as they were
            model = self._next_model()
            ebic = self._expected_bic(model)
            bound = ebic + self.entropy()
            rec = EMIteration(it, bound, ebic, len(self.edges), moves, time.perf_counter() - t0)
            self.history.append(rec)
            report.iteration(rec)
            if callback is not None:
                callback(rec)
            if prev_edges == self.edges and bound - prev_bound <= self.tol * max(1.0, abs(bound)):
                self.converged_ = True
                break
            prev_bound, prev_edges = bound, list(self.edges)
        else:
            self.converged_ = False
            warnings.warn(
                f"structural EM stopped after {self.max_iter} iterations before converging.",
                ConvergenceWarning,
                stacklevel=2,
            )
        # final stepper on the final expected statistics, for inspection and further steps
        self.stepper = self.make_stepper(max_parents=self.stepper.max_parents if self.stepper is not None else None)
        return self.history

    # ------------------------------------------------- scikit-learn attributes
    @property
    def n_iter_(self) -> int:
        """EM iterations run."""
        return len(self.history)

    @property
    def lower_bounds_(self) -> list[float]:
        """The variational bound after each iteration (non-decreasing)."""
        return [rec.bound for rec in self.history]

    @property
    def message(self) -> str:
        """How the last :meth:`run` ended, in words."""
        if self.converged_:
            return "structural EM converged"
        if self.history:
            return f"structural EM stopped after {self.n_iter_} iterations before converging"
        return "structural EM has not run"

    @property
    def lower_bound_(self) -> float:
        """The final bound (-inf before :meth:`run`)."""
        return self.history[-1].bound if self.history else -math.inf

    # -------------------------------------------------------------- reporting
    def params(self) -> _Params:
        """ML parameters of the current structure on the current expected statistics."""
        return self._params(self._next_model())

    def observed_loglik(self) -> float:
        """Exact log-likelihood of the observed cells (hidden and missing integrated out)."""
        par = self.params()
        return marginal_loglik(par.intercept, par.sparse_coef(), par.variance, self.mean, self.observed)

    def observed_bic(self) -> float:
        """Observed-data score: exact marginal log-likelihood minus the penalty of all families
        (BIC's, or EBIC's when that is the score; :func:`~.marginal.observed_penalty`)."""
        return self.observed_loglik() - observed_penalty(self.scorer, self.parents())

    def hidden_names(self) -> list[str]:
        return self.names[self.n_obs :]
