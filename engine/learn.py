"""The estimator front end: ``IdealParentSearch(...).fit(data)``.

A scikit-learn-shaped wrapper around :class:`engine.search.Stepper`: ``__init__`` only stores the
settings, ``fit`` validates them (as one :class:`~engine.search.SearchSettings`) and the data
before any search, runs the search to convergence through the one run loop
(:class:`~engine.search.RunLoop`) and sets trailing-underscore attributes. The CLI, the Python API
and the app all go through the same ``Stepper.step``.
"""

from __future__ import annotations

import dataclasses
import time
import warnings
from collections.abc import Callable, Iterable

import numpy as np

from ._validation import check_choice, check_edge_pairs, check_scalar
from .cpd import DEFAULT_CPD, make_families
from .data import Dataset
from .exceptions import DataValidationError, MissingValuesError, ParameterError
from .io import as_dataset
from .network import LearnedNetwork
from .search import Move, RunStats, SearchResult, SearchSettings, Stepper

__all__ = ["IdealParentSearch"]


class IdealParentSearch:
    """Learn a Bayesian network by greedy hill climbing with Ideal Parent candidate selection.

    Parameters
    ----------
    method : {"ideal", "greedy"}, default "ideal"
        ``ideal`` scores exactly only the top ``k`` Add/Replace candidates per family ranked by
        ``measure`` (JMLR 2007 Algorithm 2); ``greedy`` scores every candidate (Algorithm 1).
    k : int, default 2
    measure : {"c2", "c1"}, default "c2"
    queue : {"shared", "per_operator"}, default "shared"
    max_parents : int or None
    cpd : {"linear", "sigmoid", "multiplicative"}, default "linear"
    max_iter : int or None
        Maximum number of moves.
    required_edges, forbidden_edges : iterable of (parent name, child name)
    hidden : {None, "auto"}, default None
        ``"auto"``: add hidden variables by the paper's protocol (section 9.2): propose a
        cluster of similar ideal profiles, add a hidden parent if it is estimated to help, search
        by structural EM, repeat while the observed-data BIC improves. Linear Gaussian only.
    max_hidden : int, default 3
    correction : bool, default True
        Sigmoid CPD only: apply Theorem 7.1's k1/k2 correction to C1/C2 (the paper). False ranks
        by the distorted measures without it, which tracks exact gains across families more
        closely (benchmarks/RESULTS.md).
    two_layer : bool, default False
        The paper's two-layer setting: hidden roots -> observed leaves only.
    n_restarts : int, default 0
        Random restarts after convergence (thesis section 2.3.3): apply ``restart_moves`` random
        legal moves to the best network, climb again, keep the result if it scores better; stop
        after ``n_restarts`` restarts in a row that did not improve. 0 = plain hill climbing.
    restart_moves : int, default 10
    random_state : int, Generator or None
        Seeds the random restarts. Without restarts the search is deterministic (ties are
        broken by index).

    Attributes
    ----------
    stepper_ : Stepper
    network_ : LearnedNetwork
    score_ : float
        BIC of the learned network (nats).
    loglik_ : float
    n_iter_ : int
        Moves taken.
    converged_ : bool
    history_ : list of Move
    hidden_log_ : list of str
        With structural EM: what the automatic hidden-variable search did, in words (each
        proposal tried, kept or set aside, and why it stopped); empty otherwise.
    stats_ : RunStats
        ``steps``, ``exact_evaluations``, ``ranked_candidates``, ``seconds``, ``converged``,
        ``message`` (and ``em_iterations`` when structural EM ran), as in the CLI JSON.
    """

    def __init__(
        self,
        method: str = "ideal",
        k: int = 2,
        measure: str = "c2",
        queue: str = "shared",
        max_parents: int | None = None,
        cpd: str = DEFAULT_CPD,
        max_iter: int | None = None,
        required_edges: Iterable[tuple[str, str]] = (),
        forbidden_edges: Iterable[tuple[str, str]] = (),
        n_restarts: int = 0,
        restart_moves: int = 10,
        hidden: str | None = None,
        max_hidden: int = 3,
        two_layer: bool = False,
        random_state=None,
        correction: bool = True,
    ) -> None:
        self.method = method
        self.k = k
        self.measure = measure
        self.queue = queue
        self.max_parents = max_parents
        self.cpd = cpd
        self.max_iter = max_iter
        self.required_edges = required_edges
        self.forbidden_edges = forbidden_edges
        self.n_restarts = n_restarts
        self.restart_moves = restart_moves
        self.hidden = hidden
        self.max_hidden = max_hidden
        self.two_layer = two_layer
        self.correction = correction
        self.random_state = random_state

    def _check_params(self) -> None:
        self.search_settings()  # validates method, k, measure, queue, max_parents, cpd, correction
        check_scalar(self.max_iter, "max_iter", int, min_val=0, allow_none=True)
        check_scalar(self.n_restarts, "n_restarts", int, min_val=0)
        check_scalar(self.restart_moves, "restart_moves", int, min_val=1)
        if self.hidden is not None:
            check_choice(self.hidden, "hidden", ("auto",))
        check_scalar(self.max_hidden, "max_hidden", int, min_val=0)
        if not isinstance(self.two_layer, bool | np.bool_):
            raise ParameterError(f"`two_layer` must be True or False, got {self.two_layer!r}.")
        rs = self.random_state
        if not (rs is None or isinstance(rs, np.random.Generator | np.random.SeedSequence)):
            if isinstance(rs, bool) or not isinstance(rs, int | np.integer) or rs < 0:
                raise ParameterError(
                    f"`random_state` must be None, a non-negative int or a numpy Generator, got {rs!r}."
                )
        # read once per setting object: they may be one-shot iterables (zip, generators)
        src = getattr(self, "_pairs_source", None)
        if src is None or src[0] is not self.required_edges or src[1] is not self.forbidden_edges:
            self._required_pairs = check_edge_pairs(self.required_edges, "required_edges")
            self._forbidden_pairs = check_edge_pairs(self.forbidden_edges, "forbidden_edges")
            self._pairs_source = (self.required_edges, self.forbidden_edges)
        if self.two_layer and self._required_pairs:
            raise ParameterError(
                "`required_edges` cannot be used with `two_layer`: the two-layer setting allows only "
                "hidden -> observed edges."
            )

    @property
    def _auto_hidden(self) -> bool:
        return isinstance(self.hidden, str) and self.hidden.lower() == "auto"

    def search_settings(self) -> SearchSettings:
        """The settings of the structure search itself (Stepper, StructuralEM, HiddenSearch): this
        estimator's parameters of the same names, validated (a bad value raises
        :class:`ParameterError` naming it)."""
        return SearchSettings(**{name: getattr(self, name) for name in SearchSettings.field_names()})

    def settings(self) -> dict:
        """The settings as a JSON-friendly dict (choices in their canonical lower case): the search
        settings, then how the run was set up."""
        return {
            **self.search_settings().to_dict(),
            "max_iter": self.max_iter,
            "n_restarts": self.n_restarts,
            "restart_moves": self.restart_moves,
            "hidden": self.hidden.lower() if isinstance(self.hidden, str) else self.hidden,
            "max_hidden": self.max_hidden,
            "two_layer": bool(self.two_layer),
        }

    def learns_by_em(self, dataset: Dataset) -> bool:
        """Whether :meth:`fit` learns ``dataset`` by structural EM (hidden variables, or missing
        cells with a CPD that supports it), whose M-step searches run to convergence without
        calling the callback."""
        if self._auto_hidden or self.two_layer:
            return True
        return dataset.has_missing and self.search_settings().cpd_type.structural_em

    def make_model(self, values: np.ndarray, names=None):
        """The CPD family model (fits, C1/C2, exact gains) for complete ``values`` with these settings;
        ``names`` only label error messages."""
        self._check_params()
        s = self.search_settings()
        return make_families(values, s.cpd, names=names, **s.model_options)

    def make_stepper(self, dataset: Dataset) -> Stepper:
        """Validate the settings and data and build the stepper (no search yet)."""
        self._check_params()
        if dataset.has_missing:
            raise MissingValuesError(
                f"{dataset.source or 'data'} has {int(dataset.missing.sum())} missing cell(s); "
                "a single stepper needs complete data (fit() learns with missing values by "
                "structural EM)."
            )
        model = self.make_model(dataset.values, names=dataset.names)

        def index_pairs(pairs, what):
            out = []
            for p, c in pairs:
                try:
                    out.append((dataset.index(p), dataset.index(c)))
                except DataValidationError:
                    raise ParameterError(f"`{what}` edge ({p!r}, {c!r}) names an unknown variable.") from None
            return out

        return Stepper(
            model,
            self.search_settings(),
            required=index_pairs(self._required_pairs, "required_edges"),
            forbidden=index_pairs(self._forbidden_pairs, "forbidden_edges"),
        )

    def fit(self, data, callback: Callable[..., None] | None = None) -> IdealParentSearch:
        """Learn the structure and parameters from ``data`` (Dataset, DataFrame or array).

        ``callback(intermediate_result=StepResult)`` is called after every move; raising
        ``StopIteration`` stops the search.
        """
        self._check_params()
        dataset = as_dataset(data)
        if dataset.has_missing or self._auto_hidden or self.two_layer:
            if self.learns_by_em(dataset):
                unused = [
                    name
                    for name, used in (
                        ("max_iter (--max-steps)", self.max_iter is not None),
                        ("n_restarts (--restarts)", bool(self.n_restarts)),
                        ("callback", callback is not None),
                    )
                    if used
                ]
                if unused:
                    why = "missing values" if dataset.has_missing else "hidden variables"
                    warnings.warn(
                        f"{' and '.join(unused)} not used: with {why} the network is learned by "
                        "structural EM, whose every M-step search runs to convergence.",
                        UserWarning,
                        stacklevel=2,
                    )
            return self._fit_em(dataset, callback)
        stepper = self.make_stepper(dataset)
        result: SearchResult = stepper.run(self.max_iter, callback=callback)
        if self.n_restarts and result.status == 1:
            result = self._restarts(stepper, result, callback)
        self._set_fitted(dataset, stepper, result)
        return self

    def _fit_em(self, dataset: Dataset, callback=None) -> IdealParentSearch:
        """Structural EM (missing values) and the hidden-variable protocol (sections 5, 6, 9.2)."""
        from .hidden import MISSING_HANDLING, HiddenSearch

        if not self.search_settings().cpd_type.structural_em:
            if self._auto_hidden or self.two_layer:
                raise ParameterError(
                    "hidden variables are learned by structural EM, implemented for the linear-Gaussian "
                    "CPD only; use the linear CPD (cpd='linear', CLI --cpd linear)."
                )
            return self._fit_imputed(dataset, callback)
        t0 = time.perf_counter()
        hs = HiddenSearch(
            dataset,
            self.search_settings(),
            two_layer=self.two_layer,
            seed=self.random_state,
            em_options={"required": self._required_pairs, "forbidden": self._forbidden_pairs},
        )
        self.hidden_log_ = []
        if self._auto_hidden or self.two_layer:
            hs.auto(self.max_hidden, progress=self.hidden_log_.append)
        else:
            hs.fit_structure()
        em = hs.em
        stepper = em.stepper
        names = tuple(em.names)
        full = dataset.with_columns(names, em.mean, ~em.observed)
        self.dataset_ = dataset
        self.stepper_ = stepper
        self.hidden_search_ = hs
        self.stats_ = RunStats(
            steps=em.n_moves,
            exact_evaluations=em.n_exact,
            ranked_candidates=stepper.n_ranked if stepper is not None else 0,
            seconds=time.perf_counter() - t0,
            converged=bool(em.converged_),
            message=em.message,
            em_iterations=em.n_iter_,
        )
        parents = {c: tuple(sorted(p for p, cc in em.edges if cc == c)) for c in range(len(names))}
        net = LearnedNetwork.from_parents(
            full, parents, em.expected_model(), stats=self.stats_.to_dict(), settings=self.settings()
        )
        summary = hs.summary()
        net.hidden = summary["hidden"]
        net.missing_values = MISSING_HANDLING if dataset.has_missing else "none"
        net.loglik = summary["observed_loglik"]
        net.bic = summary["observed_bic"]
        self.network_ = net
        self.score_ = net.bic
        self.loglik_ = net.loglik
        self.n_iter_ = em.n_moves
        self.converged_ = bool(em.converged_)
        self.history_ = list(stepper.history) if stepper is not None else []
        self.result_ = None
        return self

    def _fit_imputed(self, dataset: Dataset, callback=None) -> IdealParentSearch:
        """Non-linear CPDs with missing cells: the approximation used.

        Structural EM with a linear-Gaussian network gives the mean-field posterior of every
        missing cell; the missing cells are then filled with their posterior means and the
        non-linear structure search runs on the completed data. In other words the E-step
        linearizes every CPD (the posterior under the sigmoid / multiplicative model has no closed
        form) and keeps first moments only, so second moments of missing cells are ignored in the
        non-linear search. The result says so in ``missing_values``.
        """
        from .hidden import StructuralEM

        t0 = time.perf_counter()
        em = StructuralEM(
            dataset,
            self.search_settings(),
            required=self._required_pairs,
            forbidden=self._forbidden_pairs,
        )
        em.run()
        filled = np.where(dataset.missing, em.mean[:, : dataset.n_vars], dataset.values)
        if self.search_settings().cpd_type.positive_data and not dataset.standardized:
            filled = np.maximum(filled, np.nanmin(np.where(dataset.missing, np.nan, dataset.values), axis=0) * 0.5)
        completed = dataclasses.replace(dataset, values=filled, missing=np.zeros(filled.shape, dtype=bool))
        stepper = self.make_stepper(completed)
        result = stepper.run(self.max_iter, callback=callback)
        if self.n_restarts and result.status == 1:
            result = self._restarts(stepper, result, callback)
        self._set_fitted(completed, stepper, result)
        self.stats_.seconds = time.perf_counter() - t0
        self.stats_.em_iterations = em.n_iter_
        self.network_.stats = self.stats_.to_dict()
        self.network_.missing_values = (
            f"{int(dataset.missing.sum())} missing cell(s) filled with their posterior means under a "
            "linear-Gaussian network learned by structural EM (mean-field E-step); the "
            f"{self.cpd} structure search then ran on the completed data (approximation: the E-step "
            "linearizes the CPDs and second moments of missing cells are ignored)"
        )
        self.dataset_ = dataset
        return self

    def _restarts(self, stepper: Stepper, result: SearchResult, callback) -> SearchResult:
        """Random restarts from the best network; the stepper ends on the best one found."""
        rng = np.random.default_rng(self.random_state)
        best_score, best_len = stepper.score, stepper.n_iter
        failures = 0
        while failures < self.n_restarts:
            stepper.perturb(self.restart_moves, rng)
            res = stepper.run(None, callback=callback)
            if res.status == -2:
                break
            if stepper.score > best_score + 1e-9 * max(1.0, abs(best_score)):
                best_score, best_len = stepper.score, stepper.n_iter
                failures = 0
            else:
                while stepper.n_iter > best_len:
                    stepper.undo()
                failures += 1
        return stepper.summary(1)

    def _set_fitted(self, dataset: Dataset, stepper: Stepper, result: SearchResult) -> None:
        self.dataset_ = dataset
        self.stepper_ = stepper
        self.result_ = result
        self.stats_ = result.stats()
        parents = {c: stepper.parents(c) for c in range(dataset.n_vars)}
        self.network_ = LearnedNetwork.from_parents(
            dataset, parents, stepper.model, stats=self.stats_.to_dict(), settings=self.settings()
        )
        self.score_ = result.score
        self.loglik_ = result.loglik
        self.n_iter_ = result.n_iter
        self.converged_ = result.converged
        self.history_: list[Move] = result.history
        self.hidden_log_: list[str] = []
