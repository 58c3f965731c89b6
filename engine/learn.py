"""The estimator front end: ``IdealParentSearch(...).fit(data)``.

A scikit-learn-shaped wrapper around :class:`engine.search.Stepper`: ``__init__`` only stores the
settings, ``fit`` validates them (as one :class:`~engine.search.SearchSettings`) and the data
before any search, runs the search to convergence through the one run loop
(:class:`~engine.search.RunLoop`) and sets trailing-underscore attributes. The CLI, the Python API
and the app all go through the same ``Stepper.step``.
"""

from __future__ import annotations

import inspect
import warnings
from collections.abc import Callable, Iterable

import numpy as np

from ._validation import check_choice, check_edge_pairs, check_random_state, check_scalar
from .cpd import DEFAULT_CPD, make_families
from .data import Dataset
from .exceptions import DataValidationError, MissingValuesError, ParameterError
from .interventions import MaskedFamilies, with_design
from .io.regulators import match_regulators
from .learn_em import fit_by_em
from .network import LearnedNetwork
from .parent_only import check_parent_only, edges_into, parent_only_names
from .score import EBIC_GAMMA, ScoreChoice, check_enough_rows, choose_score
from .search import Move, SearchResult, SearchSettings, Stepper
from .search.restarts import climb_with_restarts

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
        Maximum number of moves (with missing cells: of structural EM's M-step searches together;
        not used with hidden variables, which say so in a warning).
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
    score : {"auto", "bic", "ebic"}, default "auto"
        The network score (:mod:`engine.score`). ``auto``: the paper's BIC for tall data (at
        least two rows per variable) without a regulator list, else the extended BIC, which stays
        sparse when candidate parents outnumber rows (benchmarks/RESULTS.md). The choice and its
        reason are in ``score_choice_`` and the result JSON.
    ebic_gamma : float, default 1.0
        EBIC's gamma in [0, 1] (Chen & Chen 2008; :data:`engine.score.EBIC_GAMMA`: 1 keeps EBIC
        consistent, 0.5 over-fits few rows, benchmarks/RESULTS.md "Scores for wide data").
    regulators : iterable of str or None
        Candidate regulators: only these variables may be parents (as module-network tools let
        biologists restrict parents to known transcription factors). Names absent from the data
        are reported in one warning; none present is an error.
    condition_intercept : bool, default False
        Interventional data only: one intercept per condition in every family instead of one
        overall (for reagents that shift levels without setting a measured variable). The design
        itself (conditions, targets) is data, so it goes to :meth:`fit`.
    parent_only : iterable of str or None
        Variables that may only be parents (sample covariates such as batch; :mod:`engine.parent_only`):
        no edge into them, from genes or hidden variables, and never a hidden variable's child; they
        stay candidate parents under ``regulators``. ``fit`` adds a Dataset's ``covariates``. A name
        not in the data is a ``ValueError`` naming it.

    Attributes
    ----------
    stepper_ : Stepper
    network_ : LearnedNetwork
    score_ : float
        Score of the learned network (nats; BIC or EBIC, see ``score_choice_``).
    score_choice_ : engine.score.ScoreChoice
        The score used and why.
    loglik_ : float
    n_iter_ : int
        Moves taken.
    converged_ : bool
    history_ : list of Move
    parent_only_ : list of str
        The parent-only variables of the fitted data (``parent_only`` and the data's covariates).
    hidden_log_ : list of str
        With structural EM: what the automatic hidden-variable search did, in words (each
        proposal tried, kept or set aside, and why it stopped); empty otherwise.
    untried_proposals_ : engine.hidden.untried.AutoStop or None
        Why ``hidden="auto"`` stopped; at ``max_hidden``, the proposals it left untried (None: auto did not run).
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
        score: str = "auto",
        ebic_gamma: float = EBIC_GAMMA,
        regulators: Iterable[str] | None = None,
        condition_intercept: bool = False,
        parent_only: Iterable[str] | None = None,
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
        self.score = score
        self.ebic_gamma = ebic_gamma
        self.regulators = regulators
        self.condition_intercept = condition_intercept
        self.parent_only = parent_only

    def _check_params(self) -> None:
        self.search_settings()  # validates method, k, measure, queue, max_parents, cpd, correction
        check_scalar(self.max_iter, "max_iter", int, min_val=0, allow_none=True)
        check_scalar(self.n_restarts, "n_restarts", int, min_val=0)
        check_scalar(self.restart_moves, "restart_moves", int, min_val=1)
        if self.hidden is not None:
            check_choice(self.hidden, "hidden", ("auto",))
        check_scalar(self.max_hidden, "max_hidden", int, min_val=0)
        for flag in ("two_layer", "condition_intercept"):
            if not isinstance(getattr(self, flag), bool | np.bool_):
                raise ParameterError(f"`{flag}` must be True or False, got {getattr(self, flag)!r}.")
        check_random_state(self.random_state)
        # read once per setting object: they may be one-shot iterables (zip, generators)
        src = getattr(self, "_pairs_source", None)
        if src is None or src[0] is not self.required_edges or src[1] is not self.forbidden_edges:
            self._required_pairs = check_edge_pairs(self.required_edges, "required_edges")
            self._forbidden_pairs = check_edge_pairs(self.forbidden_edges, "forbidden_edges")
            self._pairs_source = (self.required_edges, self.forbidden_edges)
        if getattr(self, "_regulators_source", object()) is not self.regulators:
            regs = self.regulators
            if isinstance(regs, str):
                raise ParameterError("`regulators` must be a list of variable names, not one string.")
            self._regulator_list = None if regs is None else list(dict.fromkeys(str(r) for r in regs))
            self._regulators_source = regs
        check_parent_only(self.parent_only)
        if self.two_layer and self._required_pairs:
            raise ParameterError(
                "`required_edges` cannot be used with `two_layer`: the two-layer setting allows only "
                "hidden -> observed edges."
            )

    def get_params(self) -> dict:
        """The constructor's parameters as set (scikit-learn's ``get_params``): ``type(est)(**params)``
        is an unfitted copy. Used by :meth:`bootstrap` to give every replicate the same settings."""
        return {
            name: getattr(self, name) for name in inspect.signature(type(self).__init__).parameters if name != "self"
        }

    def bootstrap(
        self,
        data,
        n_replicates: int = 200,
        *,
        threshold=None,
        scheduler=None,
        n_workers=None,
        random_state=None,
        progress=None,
        max_hours=None,
        resample="auto",
    ):
        """Edge and hidden-regulator confidence: relearn on ``n_replicates`` resamples of ``data``
        with these settings, in parallel on Dask (Friedman, Goldszmidt & Wyner 1999; bnlearn's
        ``boot.strength`` and ``averaged.network``); ``resample`` is ``"bootstrap"``,
        ``"subsample"`` (half-samples in complementary pairs) or ``"auto"`` (by the data's shape,
        :func:`engine.bootstrap.choose_resample`). Returns a
        :class:`~engine.bootstrap.BootstrapResult`; see :func:`engine.bootstrap.bootstrap` for the
        parameters (a local cluster by default, or ``scheduler="tcp://host:port"``)."""
        from .bootstrap import bootstrap

        return bootstrap(
            self,
            data,
            n_replicates,
            threshold=threshold,
            scheduler=scheduler,
            n_workers=n_workers,
            random_state=random_state,
            progress=progress,
            max_hours=max_hours,
            resample=resample,
        )

    @property
    def _auto_hidden(self) -> bool:
        return isinstance(self.hidden, str) and self.hidden.lower() == "auto"

    def search_settings(self) -> SearchSettings:
        """The settings of the structure search itself (Stepper, StructuralEM, HiddenSearch): this
        estimator's parameters of the same names, validated (a bad value raises
        :class:`ParameterError` naming it)."""
        return SearchSettings(**{name: getattr(self, name) for name in SearchSettings.field_names()})

    def settings(self, dataset: Dataset | None = None) -> dict:
        """The settings as a JSON-friendly dict (choices in their canonical lower case): the search
        settings, then how the run was set up; the parent-only variables those of ``dataset`` (its
        covariates too) when given, else of the fitted data."""
        self._check_params()
        roots = self.parent_only_names(dataset) if dataset is not None else getattr(self, "parent_only_", None)
        regs, roots = self._regulator_list, roots or check_parent_only(self.parent_only)
        return {
            **self.search_settings().to_dict(),
            "max_iter": self.max_iter,
            "n_restarts": self.n_restarts,
            "restart_moves": self.restart_moves,
            "hidden": self.hidden.lower() if isinstance(self.hidden, str) else self.hidden,
            "max_hidden": self.max_hidden,
            "two_layer": bool(self.two_layer),
            # the regulators in force: the list, then the parent-only variables (parents too)
            "regulators": None if regs is None else [*regs, *(n for n in roots if n not in regs)],
            "condition_intercept": bool(self.condition_intercept),
            "parent_only": roots,
        }

    def learns_by_em(self, dataset: Dataset) -> bool:
        """Whether :meth:`fit` learns ``dataset`` by structural EM (hidden variables, or missing
        cells with a CPD that supports it), whose M-step searches run to convergence without
        calling the callback."""
        if self._auto_hidden or self.two_layer:
            return True
        return dataset.has_missing and self.search_settings().cpd_type.structural_em

    def make_model(self, values: np.ndarray, names=None, interventions=None):
        """The CPD family model (fits, C1/C2, exact gains) for complete ``values`` with these settings;
        ``names`` only label error messages. With ``interventions`` (an
        :class:`~engine.interventions.Interventions` that sets some variable, or per-condition
        intercepts asked for) each family is scored on its own rows (Cooper & Yoo 1999)."""
        self._check_params()
        s = self.search_settings()
        intercepts = bool(self.condition_intercept or getattr(interventions, "intercepts", False))
        if interventions is not None and (interventions.any or intercepts):
            if intercepts and s.cpd_type.positive_data:
                raise ParameterError(
                    f"`condition_intercept` needs an additive CPD; the {s.cpd} CPD models positive data."
                )
            return MaskedFamilies(
                lambda v: make_families(v, s.cpd, names=names, **s.model_options),
                values,
                interventions,
                condition_intercept=intercepts,
            )
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
        choice = self.check_rows(dataset)
        model = self.make_model(dataset.values, names=dataset.names, interventions=dataset.interventions)

        def index_pairs(pairs, what):
            out = []
            for p, c in pairs:
                try:
                    out.append((dataset.index(p), dataset.index(c)))
                except DataValidationError:
                    raise ParameterError(f"`{what}` edge ({p!r}, {c!r}) names an unknown variable.") from None
            return out

        regulators = self.regulator_names(dataset)
        roots = [dataset.index(n) for n in self.parent_only_names(dataset)]
        # the score resolved here: the stepper does not know which variables are covariates
        stepper = Stepper(
            model,
            self.search_settings().replace(score=choice.name),
            required=index_pairs(self._required_pairs, "required_edges"),
            forbidden=index_pairs(self._forbidden_pairs, "forbidden_edges") + edges_into(roots, dataset.n_vars),
            regulators=None if regulators is None else [dataset.index(r) for r in regulators],
        )
        stepper.score_choice = ScoreChoice(stepper.score_choice.score, choice.reason)
        return stepper

    def score_choice(self, dataset: Dataset) -> ScoreChoice:
        """The score ``fit`` will maximize on ``dataset`` and why (``score="auto"`` resolved)."""
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)  # absent regulators are reported by fit
            regs = self.regulator_names(dataset)
        n_cand = None if regs is None else len(regs)
        roots = len(self.parent_only_names(dataset))  # covariates are not genes: not counted by the shape rule
        return choose_score(
            self.score,
            dataset.n_samples,
            dataset.n_vars,
            n_candidates=n_cand,
            gamma=self.ebic_gamma,
            n_parent_only=roots,
        )

    def check_rows(self, dataset: Dataset) -> ScoreChoice:
        """Refuse, before any costly work, data too short for the chosen score to tell a parent
        from chance (:func:`engine.score.check_enough_rows`); returns the score choice."""
        choice = self.score_choice(dataset)
        check_enough_rows(choice, dataset, self.search_settings().cpd_type.n_params)
        return choice

    def regulator_names(self, dataset: Dataset) -> list[str] | None:
        """The candidate regulators present in ``dataset`` (None: every variable may be a parent;
        :func:`engine.io.regulators.match_regulators`: absent names are one warning, none present
        an error), then the parent-only variables (:meth:`parent_only_names`) not among them."""
        self._check_params()
        regs = match_regulators(self._regulator_list, dataset.names, dataset.instance_labels)
        return None if regs is None else [*regs, *(n for n in self.parent_only_names(dataset) if n not in regs)]

    def parent_only_names(self, dataset: Dataset) -> list[str]:
        """``parent_only`` and the dataset's covariates, in data order (:func:`engine.parent_only.parent_only_names`);
        a required edge into one of them is a :class:`ParameterError` naming it."""
        self._check_params()
        return parent_only_names(dataset, self.parent_only, required=self._required_pairs)

    def fit(
        self, data, callback: Callable[..., None] | None = None, *, condition=None, targets=None
    ) -> IdealParentSearch:
        """Learn the structure and parameters from ``data`` (Dataset, DataFrame or array).

        ``callback(intermediate_result=StepResult)`` is called after every move; raising
        ``StopIteration`` stops the search. Interventional data: ``condition`` names the
        DataFrame column of each row's condition (or gives one label per row) and ``targets`` the
        variables each condition set (pairs, dict, DataFrame ``condition,target`` or a CSV path;
        :func:`engine.interventions.with_design`); they are data, like scikit-learn's
        ``sample_weight``, hence ``fit`` arguments. A Dataset carrying its design needs neither.
        """
        self._check_params()
        dataset = with_design(data, condition, targets)
        self.parent_only_ = self.parent_only_names(dataset)
        if dataset.has_missing or self._auto_hidden or self.two_layer:
            return fit_by_em(self, dataset, callback)
        stepper = self.make_stepper(dataset)
        self._set_fitted(dataset, stepper, self.climb(stepper, callback))
        return self

    def climb(self, stepper: Stepper, callback=None) -> SearchResult:
        """Run ``stepper`` to convergence (or ``max_iter`` moves), then the random restarts asked
        for (:func:`engine.search.restarts.climb_with_restarts`)."""
        result: SearchResult = stepper.run(self.max_iter, callback=callback)
        if self.n_restarts and result.status == 1:
            rng = np.random.default_rng(self.random_state)
            result = climb_with_restarts(stepper, self.n_restarts, self.restart_moves, rng, callback)
        return result

    def _set_fitted(self, dataset: Dataset, stepper: Stepper, result: SearchResult) -> None:
        self.dataset_ = dataset
        self.stepper_ = stepper
        self.result_ = result
        self.stats_ = result.stats()
        parents = {c: stepper.parents(c) for c in range(dataset.n_vars)}
        self.network_ = LearnedNetwork.from_parents(
            dataset,
            parents,
            stepper.model,
            stats=self.stats_.to_dict(),
            settings=self.settings(),
            score=stepper.score_choice,
        )
        if dataset.interventions is not None:
            intercepts = bool(self.condition_intercept or dataset.interventions.intercepts)
            self.network_.interventions = dataset.interventions.record(dataset.names, dataset.values, intercepts)
        self.score_choice_ = stepper.score_choice
        self.score_ = result.score
        self.loglik_ = result.loglik
        self.n_iter_ = result.n_iter
        self.converged_ = result.converged
        self.history_: list[Move] = result.history
        self.hidden_log_: list[str] = []
