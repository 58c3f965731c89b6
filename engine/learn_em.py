"""How :class:`~engine.learn.IdealParentSearch` learns when a single search is not enough.

* :func:`fit_em`: structural EM (JMLR 2007 section 6) for missing values, and the hidden-variable
  protocol (sections 5 and 9.2) for ``hidden="auto"`` and the two-layer setting;
* :func:`fit_imputed`: non-linear CPDs with missing cells, searched on data completed by a
  linear-Gaussian structural EM (an approximation the result states);
* :func:`complete_missing`: that completion on its own (a :class:`Completion`), which the explorer
  steps its search on when a file has missing cells.

Each takes the estimator, fits it, and sets its trailing-underscore attributes.
"""

from __future__ import annotations

import dataclasses
import logging
import time
import warnings
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from .cpd import get_cpd
from .data import Dataset
from .exceptions import ConvergenceWarning, ParameterError
from .io.columns import filled_cells
from .network import LearnedNetwork
from .score import BIC, ScoreChoice
from .search import RunStats, SearchSettings

if TYPE_CHECKING:
    from .learn import IdealParentSearch

__all__ = ["fit_by_em", "fit_em", "fit_imputed", "complete_missing", "Completion", "HIDDEN_LOG"]

#: the hidden-variable search's lines (``hidden_log_``), logged at INFO as they are said, so that a
#: caller sees a long search as it goes (the CLI prints them on stderr)
HIDDEN_LOG = logging.getLogger("engine.hidden")


def _logged(lines: list[str]):
    """A ``progress`` for :meth:`HiddenSearch.auto` that keeps each line in ``lines`` and logs it."""
    from .hidden.em_progress import said

    def say(line: str) -> None:
        lines.append(line)
        HIDDEN_LOG.info(line)
        said()  # structural EM's own progress lines wait a while after this one

    return say


def _plain_bic(em, loglik: float) -> float:
    """The paper's BIC of the observed data (``score.bic`` of the JSON), whatever score EM maximized."""
    plain = BIC(em.n_samples)
    rows = getattr(getattr(em, "design", None), "family_rows", None)  # interventions: each family's own rows
    scorers = [plain if rows is None else plain.for_rows(int(rows[c])) for c in range(len(em.parents()))]
    return loglik - sum(s.penalty(len(p) + 2, len(p)) for s, p in zip(scorers, em.parents(), strict=True))


def _masking_design(dataset: Dataset):
    """The dataset's experimental design when it sets some variable (None: observational)."""
    design = dataset.interventions
    return design if design is not None and design.any else None


def fit_by_em(self: IdealParentSearch, dataset: Dataset, callback=None) -> IdealParentSearch:
    """``fit`` with missing cells, hidden variables or the two-layer setting: the combinations not
    implemented refused, the options structural EM does not use said in one warning, then
    :func:`fit_em`."""
    design = dataset.interventions
    if design is not None and (self._auto_hidden or self.two_layer):
        raise ParameterError(
            "hidden variables with interventions are not implemented: learn without hidden variables "
            "or without the condition column."
        )
    if design is not None and (self.condition_intercept or design.intercepts):
        raise ParameterError(
            "per-condition intercepts with missing values are not implemented (structural EM fits one "
            "intercept per family): complete the missing cells or learn without condition_intercept."
        )
    if self.learns_by_em(dataset):
        unused = [
            name
            for name, used in (
                # with missing cells only, max_iter caps the moves of EM's M-steps together
                ("max_iter (--max-steps)", self.max_iter is not None and (self._auto_hidden or self.two_layer)),
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
                stacklevel=3,  # the caller of ``fit``
            )
    return fit_em(self, dataset, callback)


def fit_em(self: IdealParentSearch, dataset: Dataset, callback=None) -> IdealParentSearch:
    """Structural EM (missing values) and the hidden-variable protocol (sections 5, 6, 9.2)."""
    from .hidden import MISSING_HANDLING, HiddenSearch
    from .hidden.scale import rescale_network, search_sds

    self.check_rows(dataset)
    if not self.search_settings().cpd_type.structural_em:
        if self._auto_hidden or self.two_layer:
            raise ParameterError(
                "hidden variables are learned by structural EM, implemented for the linear-Gaussian "
                "CPD only; use the linear CPD (cpd='linear', CLI --cpd linear)."
            )
        return fit_imputed(self, dataset, callback)
    t0 = time.perf_counter()
    em_options = {
        "required": self._required_pairs,
        "forbidden": self._forbidden_pairs,
        "regulators": self.regulator_names(dataset),
        "parent_only": self.parent_only_names(dataset),
    }
    self.hidden_log_ = []
    design = _masking_design(dataset)
    if design is not None:  # missing cells under interventions: the masked structural EM
        from .interventions.em import MaskedStructuralEM

        hs = None
        em = MaskedStructuralEM(dataset, self.search_settings(), design=design, **em_options)
        em.max_moves = self.max_iter  # --max-steps: the M-steps' moves together
        em.e_step(em.params())
        em.run()
        summary = {"hidden": [], "observed_bic": em.observed_bic(), "observed_loglik": em.observed_loglik()}
    else:
        hs = HiddenSearch(
            dataset, self.search_settings(), two_layer=self.two_layer, seed=self.random_state, em_options=em_options
        )
        if self._auto_hidden or self.two_layer:
            hs.auto(self.max_hidden, progress=_logged(self.hidden_log_))
        else:
            hs.em.max_moves = self.max_iter  # missing cells only: --max-steps caps the M-steps' moves together
            hs.fit_structure()
        em = hs.em
        summary = hs.summary()
    stepper = em.stepper
    names = tuple(em.names)
    full = dataset.with_columns(names, em.mean, ~em.observed)
    self.dataset_ = dataset
    self.stepper_ = stepper
    self.hidden_search_ = hs
    # why auto stopped, and at max_hidden the proposals it left untried (engine.hidden.untried; None: no auto)
    self.untried_proposals_ = hs.considered.stop if hs is not None else None
    cap = None if self._auto_hidden or self.two_layer else self.max_iter
    capped = cap is not None and em.n_moves >= cap  # the structure search stopped at --max-steps
    message = f"{em.message}; its structure search stopped at max_iter = {cap} moves" if capped else em.message
    if hs is not None and (self._auto_hidden or self.two_layer):  # what steps and exact evaluations count
        message += "; steps and exact evaluations: the final structural EM's (proposals tried before not counted)"
    self.stats_ = RunStats(
        steps=em.n_moves,
        exact_evaluations=em.n_exact,
        ranked_candidates=stepper.n_ranked if stepper is not None else 0,
        seconds=time.perf_counter() - t0,
        converged=bool(em.converged_) and not capped,
        message=message,
        em_iterations=em.n_iter_,
    )
    parents = {c: tuple(sorted(p for p, cc in em.edges if cc == c)) for c in range(len(names))}
    net = LearnedNetwork.from_parents(
        full,
        parents,
        em.expected_model(),
        stats=self.stats_.to_dict(),
        settings=self.settings(),
        score=ScoreChoice(em.scorer, em.score_choice.reason),  # edge strengths in the score EM maximizes
    )
    net.hidden = summary["hidden"]
    if hs is not None and hs.hidden:  # H on unit variance in the edges, families and profiles (hidden.scale)
        rescale_network(net, search_sds(hs))
    net.missing_values = MISSING_HANDLING if dataset.has_missing else "none"
    net.missing_cells = filled_cells(dataset, em.mean[:, : dataset.n_vars])
    net.loglik = summary["observed_loglik"]
    net.bic = _plain_bic(em, net.loglik)  # the paper's BIC; the score EM maximized is score_info's value
    self.score_choice_ = em.score_choice
    # the scorer EM's value used: its EBIC candidates count the added hidden variables too
    net.score_info = {**em.scorer.describe(), "reason": em.score_choice.reason, "value": summary["observed_bic"]}
    net.flagged_proposals = summary.get("flagged_proposals", [])
    net.untried_proposals = summary.get("untried_proposals", {})  # auto stopped at max_hidden (hidden.untried)
    if design is not None:
        net.interventions = design.record(dataset.names, dataset.values, False)
    self.network_ = net
    self.score_ = summary["observed_bic"]
    self.loglik_ = net.loglik
    self.n_iter_ = em.n_moves
    self.converged_ = bool(em.converged_) and not capped
    self.history_ = list(stepper.history) if stepper is not None else []
    self.result_ = None
    return self


@dataclass
class Completion:
    """A data set whose missing cells were filled by :func:`complete_missing`.

    Attributes
    ----------
    dataset : Dataset
        The completed data (no missing cell; same names, scale, labels and notes, plus one note
        saying what was filled). The data set it was made from is not modified.
    n_missing : int
        Cells filled.
    n_iter : int
        Structural EM iterations run; ``converged`` is False when ``max_iter`` stopped them.
    n_edges : int
        Edges of the linear-Gaussian network under which the cells were filled.
    seconds : float
    """

    dataset: Dataset
    n_missing: int
    n_iter: int
    converged: bool
    n_edges: int
    seconds: float

    def describe(self, cpd: str = "linear") -> str:
        """What was filled and how, in words (the ``missing_values`` field of an exported model)."""
        ran = "converged" if self.converged else "stopped at its iteration limit, before converging"
        searched = (
            "the structure search then ran on the completed data"
            if get_cpd(cpd).structural_em  # the fill is in the search's own model
            else f"the {cpd} structure search then ran on the completed data (the E-step linearizes the CPDs)"
        )
        return (
            f"{self.n_missing} missing cell(s) filled with their posterior means under a linear-Gaussian "
            f"network ({self.n_edges} edges) learned by structural EM (mean-field E-step; {self.n_iter} "
            f"iteration(s), {ran}); {searched} (approximation: second moments of missing cells are ignored)"
        )


def complete_missing(
    dataset: Dataset,
    settings: SearchSettings | dict | None = None,
    *,
    max_iter: int = 100,
    required: Iterable[tuple[str, str]] = (),
    forbidden: Iterable[tuple[str, str]] = (),
    regulators: Iterable[str] | None = None,
    callback: Callable | None = None,
    parent_only: Iterable[str] | None = None,
) -> Completion:
    """Fill the missing cells of ``dataset`` with their posterior means under a linear-Gaussian
    network learned by structural EM (JMLR 2007 section 6; Friedman 1997).

    :class:`~engine.hidden.StructuralEM` alternates a structure search on the expected
    sufficient statistics (M-step, with ``settings``) and a mean-field E-step, at most
    ``max_iter`` times; ``callback(EMIteration)`` is called after each iteration. Each missing
    cell is then replaced by its mean-field posterior mean (the exact posterior mean for a
    linear-Gaussian network); for a CPD of positive data on the raw scale, filled cells are kept
    above half the variable's smallest observed value.

    Notes
    -----
    Searching the completed data approximates structural EM: it keeps first moments only (the
    uncertainty of the filled cells is ignored) and the E-step is linear whatever the CPD.
    """
    from .hidden import StructuralEM

    t0 = time.perf_counter()
    settings = SearchSettings.coerce(settings)
    options = {"required": required, "forbidden": forbidden, "regulators": regulators, "max_iter": max_iter}
    options["parent_only"] = parent_only  # None: the dataset's covariates (engine.parent_only)
    design = _masking_design(dataset)
    if design is None:
        em = StructuralEM(dataset, settings, **options)
    else:  # each family's E- and M-step terms on the rows its child was not set in
        from .interventions.em import MaskedStructuralEM

        em = MaskedStructuralEM(dataset, settings, design=design, **options)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)  # said in the Completion (``converged``)
        em.run(callback)
    filled = np.where(dataset.missing, em.mean[:, : dataset.n_vars], dataset.values)
    if settings.cpd_type.positive_data and not dataset.standardized:
        filled = np.maximum(filled, np.nanmin(np.where(dataset.missing, np.nan, dataset.values), axis=0) * 0.5)
    n_missing = int(dataset.missing.sum())
    note = (
        f"filled {n_missing} missing cell(s) with their posterior means under a network learned by "
        f"structural EM ({em.n_iter_} iteration(s))"
    )
    completed = dataclasses.replace(
        dataset, values=filled, missing=np.zeros(filled.shape, dtype=bool), notes=(*dataset.notes, note)
    )
    return Completion(completed, n_missing, em.n_iter_, bool(em.converged_), len(em.edges), time.perf_counter() - t0)


def fit_imputed(self: IdealParentSearch, dataset: Dataset, callback=None) -> IdealParentSearch:
    """Non-linear CPDs with missing cells: the approximation used.

    Structural EM with a linear-Gaussian network gives the mean-field posterior of every
    missing cell; the missing cells are then filled with their posterior means and the
    non-linear structure search runs on the completed data (:func:`complete_missing`). In other
    words the E-step linearizes every CPD (the posterior under the sigmoid / multiplicative
    model has no closed form) and keeps first moments only, so second moments of missing cells
    are ignored in the non-linear search. The result says so in ``missing_values``.
    """
    t0 = time.perf_counter()
    completion = complete_missing(
        dataset,
        self.search_settings(),
        required=self._required_pairs,
        forbidden=self._forbidden_pairs,
        parent_only=self.parent_only_names(dataset),
    )
    completed = completion.dataset
    stepper = self.make_stepper(completed)
    self._set_fitted(completed, stepper, self.climb(stepper, callback))
    self.stats_.seconds = time.perf_counter() - t0
    self.stats_.em_iterations = completion.n_iter
    self.network_.stats = self.stats_.to_dict()
    self.network_.missing_cells = filled_cells(dataset, completed.values)
    self.network_.missing_values = (
        f"{completion.n_missing} missing cell(s) filled with their posterior means under a "
        "linear-Gaussian network learned by structural EM (mean-field E-step); the "
        f"{self.cpd} structure search then ran on the completed data (approximation: the E-step "
        "linearizes the CPDs and second moments of missing cells are ignored)"
    )
    self.dataset_ = dataset
    return self
