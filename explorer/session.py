"""The explorer's search session: one object that owns a data set and everything searched on it.

A :class:`SearchSession` holds the loaded :class:`~engine.data.Dataset` (and its true edges when
known), the validated :class:`~engine.search.SearchSettings`, the main search and, when the
side-by-side comparison is on, a twin search with the other method (each a :class:`SearchTrack`:
stepper, move log, score trace), the hidden-variable search behind the current network, and one
undo stack of actions (:mod:`explorer.actions`: a step, an accepted hidden variable, a data edit
such as turning the data round), each knowing how to take itself back. Long runs go through the engine's one run loop
(:class:`~engine.search.RunLoop`) in time slices, so the page gets control back between chunks.

Pages read the session and call its methods; nothing here imports Streamlit, so the session is
tested directly. A new data set is a new session; invalid settings raise
:class:`~engine.exceptions.IdealParentError` before anything is replaced.
"""

from __future__ import annotations

import itertools
import time
import warnings
from dataclasses import dataclass

import numpy as np

from engine.data import Dataset
from engine.exceptions import IdealParentError
from engine.hidden import ClusterProposal, HiddenSearch
from engine.hidden.modules import propose_for_review
from engine.hidden.scale import CurrentFit, current_fit, rescale_network
from engine.learn import IdealParentSearch
from engine.network import LearnedNetwork
from engine.parent_only import child_candidates
from engine.search import RunLoop, RunStats, SearchResult, SearchSettings, Stepper, StepResult
from explorer import actions, text
from explorer.prepared import PreparedData, prepare
from explorer.track import SearchTrack

__all__ = ["SearchSession", "SearchTrack", "RunProgress", "make_stepper"]

_SERIAL = itertools.count(1)
#: above this many observed variables, proposed hidden-variable clusters have at most
#: MAX_CLUSTER members: each dendrogram node is scored by an eigenproblem of its size, so
#: uncapped the proposals cost O(N^4) (600 genes: 43 s, 1000: 92 s, machine shared)
CAP_CLUSTERS_ABOVE = 200
MAX_CLUSTER = 50


def make_stepper(dataset: Dataset, settings: SearchSettings, regulators: list[str] | None = None) -> Stepper:
    """A fresh stepper for ``dataset`` with ``settings`` and candidate ``regulators`` (validated by
    the engine; regulator names absent from the data raise a ``UserWarning``)."""
    # the dataset's covariates (sample annotations) are parents only: the estimator reads them (engine.parent_only)
    return IdealParentSearch(**settings.to_dict(), regulators=regulators).make_stepper(dataset)


@dataclass
class RunProgress:
    """A run in progress ("Run N steps" / "Run to convergence"): the loop and where it started."""

    loop: RunLoop
    start_iter: int
    start_time: float
    n_steps: int | None


class SearchSession:
    """The data set, settings, searches, hidden variables and undo stack of one explorer session.

    Parameters
    ----------
    dataset : Dataset
        As loaded; with missing cells, the search runs on it completed by structural EM
        (:mod:`explorer.prepared`), and :attr:`dataset` is the completed data.
    truth : list of (parent, child) names, or None when the true network is unknown
    label : str (how the data are named on the pages)
    settings : SearchSettings or dict, optional
    regulators : list of str, optional
        Candidate regulators: the only variables that may be parents (default: all).
    progress : callable(iteration, of, text), optional
        Told how the completion of missing cells goes (for a progress bar while loading).
    """

    def __init__(
        self,
        dataset: Dataset,
        truth: list[tuple[str, str]] | None = None,
        label: str = "data",
        settings: SearchSettings | dict | None = None,
        regulators: list[str] | None = None,
        progress=None,
    ) -> None:
        self.truth = truth
        self.label = label
        self.settings = SearchSettings.coerce(settings)
        self.regulators = regulators
        self.regulator_file: str | None = None  # the uploaded file that alone gave the list (the rerun names it)
        #: the data as loaded and the data searched (completed when cells are missing)
        self.prepared: PreparedData = prepare(dataset, self.settings, regulators, progress)
        #: the data the search runs on (and every page shows)
        self.dataset = self.prepared.searched
        #: unique per session (so per data set): keys the caches of data-derived views
        self.data_version = next(_SERIAL)
        #: bumped whenever the main search is replaced (new settings, reset, hidden variable)
        self.version = 0
        self.compare = False
        #: clusters (frozensets of member names) the user rejected on this data set
        self.rejected: set[frozenset] = set()
        self.notice: str | None = None  # how the last run or undo ended, shown on the Search page
        self.run: RunProgress | None = None
        self._network_cache: tuple | None = None
        self._fit_cache: tuple | None = None
        #: the undo stack: actions (a step, an accepted hidden variable, a data edit), last on top
        self.undo_stack: list[actions.Action] = []
        #: whether the data were turned round (Transpose) since they were loaded; how they were read
        self.transposed, self.source = False, {}
        stepper, notes = self._new_stepper(self.settings, regulators)
        self.install(SearchTrack(stepper))
        self.notice = notes

    # ------------------------------------------------------------------ state
    def install(self, track: SearchTrack, hidden: HiddenSearch | None = None) -> None:
        """Make ``track`` the main search, with the hidden search behind it when the search has
        hidden variables (the twin is rebuilt when the comparison is on)."""
        self.main = track
        self.twin: SearchTrack | None = None
        self.hidden = hidden
        self.run = None
        self.notice = None
        self.version += 1
        if self.compare:
            try:
                self.set_compare(True)
            except IdealParentError as exc:
                self.set_compare(False)
                self.notice = f"The comparison was turned off: {exc}"

    def set_data(self, data: actions.DataState) -> None:
        """Put ``data`` (a data set with its search, e.g. the data turned round, or what Undo
        restores) in place of the current data; the undo stack is kept."""
        self.dataset, self.truth = data.dataset, data.truth
        self.prepared = data.prepared
        self.data_version = next(_SERIAL) if data.data_version is None else data.data_version
        self.rejected, self.transposed = set(data.rejected), data.transposed
        self.regulators = data.regulators
        self.install(data.main, data.hidden)

    def data_state(self) -> actions.DataState:
        """The current data set and its search, as :meth:`set_data` takes them."""
        state = (self.dataset, self.truth, self.data_version, self.main, self.hidden, frozenset(self.rejected))
        return actions.DataState(*state, self.transposed, self.prepared, self.regulators)

    @property
    def stepper(self) -> Stepper:
        """The main search's stepper."""
        return self.main.stepper

    def tracks(self) -> list[tuple[str, SearchTrack]]:
        """("main", track) and, when the comparison is on, ("twin", track)."""
        return [("main", self.main)] + ([("twin", self.twin)] if self.twin is not None else [])

    @property
    def other_method(self) -> str:
        """The method the comparison twin uses."""
        return text.other_method(self.settings.method)

    def variable_names(self, stepper: Stepper | None = None) -> list[str]:
        """Names of the variables of ``stepper`` (default: the main search's): the data's, then
        the hidden variables' (``H1, H2, ...``, as the hidden search named them)."""
        stepper = stepper if stepper is not None else self.stepper
        if stepper.n_vars == self.dataset.n_vars:
            return list(self.dataset.names)
        return list(self.hidden.names)

    def hidden_names(self) -> set[str]:
        """Names of the main search's variables that are not in the data set."""
        return set(self.variable_names()) - set(self.dataset.names)

    def values(self) -> np.ndarray:
        """Values of every variable of the main search: the data's columns, then the posterior
        means of hidden variables (from the hidden search)."""
        if self.stepper.n_vars == self.dataset.n_vars:
            return np.asarray(self.dataset.values)
        return self.hidden.em.mean

    def search_dataset(self) -> Dataset:
        """A Dataset over every search variable (hidden ones included, on their own scale)."""
        if self.stepper.n_vars == self.dataset.n_vars:
            return self.dataset
        return self.dataset.with_columns(self.variable_names(), self.values())

    # ---------------------------------------------------------------- actions
    def _new_stepper(self, settings: SearchSettings, regulators: list[str] | None) -> tuple[Stepper, str | None]:
        """A stepper on the data with ``settings`` and ``regulators``, and the engine's notes
        (e.g. regulator names not in the data) as one line, or None."""
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", UserWarning)
            stepper = make_stepper(self.dataset, settings, regulators)
        # rank every family now, under the loading spinner, so the first Step click is as quick as
        # the others (at 1000 variables the first ranking is most of a second)
        stepper.refresh()
        notes = " ".join(str(w.message) for w in caught if issubclass(w.category, UserWarning))
        return stepper, notes or None

    @property
    def score_label(self) -> str:
        """The score the search maximizes, e.g. ``BIC`` or ``EBIC`` (for labels)."""
        return self.stepper.score_choice.name.upper()

    def set_settings(self, settings: SearchSettings | dict, regulators: list[str] | None | bool = False) -> None:
        """New search settings (and, unless ``regulators`` is False, a new candidate-regulator
        list; None allows every parent): validated by building the stepper first, then the search
        restarts (the undo stack is cleared). On an error nothing changes."""
        new = SearchSettings.coerce(settings)
        regs = self.regulators if regulators is False else regulators
        stepper, notes = self._new_stepper(new, regs)
        self.settings = new
        self.regulators = regs
        self.undo_stack.clear()
        self.install(SearchTrack(stepper))
        self.notice = notes

    def reset(self) -> None:
        """Start the search again from the empty network with the current settings."""
        self.set_settings(self.settings)

    def step(self) -> StepResult:
        """One Step click: the best move of the main search (and of the twin, if on).

        Returns the main search's result, or the twin's when only the twin moved; ``move`` is
        None when no search moved (every one has converged). A step that moved anything goes on
        the undo stack."""
        results: dict[str, StepResult] = {}
        try:
            for which, track in self.tracks():
                results[which] = track.step(self.variable_names(track.stepper))
        finally:
            # what moved goes on the stack even when a later search raised
            moved = tuple(w for w, r in results.items() if r.move is not None)
            if moved:
                self.push(actions.StepAction(moved))
        main = results["main"]
        if main.move is None and "twin" in moved:
            return results["twin"]
        return main

    def step_click(self) -> StepResult:
        """The Step button: one :meth:`step`, after clearing the last notice."""
        self.notice = None
        return self.step()

    def summary(self, status: int) -> SearchResult:
        """The main search's state as a :class:`SearchResult` (for :class:`RunLoop`)."""
        return self.stepper.summary(status)

    def push(self, action: actions.Action) -> None:
        """Put a done action on the undo stack."""
        self.undo_stack.append(action)

    @property
    def can_undo(self) -> bool:
        return bool(self.undo_stack)

    def undo(self) -> str | None:
        """Take back the last action (a step or an accepted hidden variable); returns what was
        undone, in words (None when there is nothing to undo)."""
        if not self.can_undo:
            return None
        action = self.undo_stack.pop()
        # shown on the Search page until the next action
        self.notice = action.undo(self)
        return self.notice

    def all_converged(self) -> bool:
        """Whether every search (main, and twin when on) has converged."""
        return all(track.converged for _, track in self.tracks())

    def set_compare(self, on: bool) -> None:
        """Turn the side-by-side comparison on (a twin with the other method, brought to as many
        steps as the main search) or off."""
        self.compare = bool(on)
        self.twin = None
        if not on:
            # the comparison's own moves are gone: steps that moved only the twin leave the stack
            self.undo_stack = [a for a in (actions.without_twin(a) for a in self.undo_stack) if a is not None]
            return
        twin = SearchTrack(make_stepper(self.dataset, self.settings.replace(method=self.other_method), self.regulators))
        self.twin = twin
        names = self.variable_names(twin.stepper)
        for _ in range(self.stepper.n_iter):
            twin.step(names)
            if twin.converged:
                break

    # ------------------------------------------------------------------- runs
    def start_run(self, n_steps: int | None) -> None:
        """Begin a run of ``n_steps`` Step clicks (None: until every search converges)."""
        self.run = RunProgress(RunLoop(self, max_steps=n_steps), self.stepper.n_iter, time.perf_counter(), n_steps)
        self.notice = None

    @property
    def running(self) -> bool:
        return self.run is not None

    def stop(self) -> None:
        """The Stop button: the run ends before its next move."""
        if self.run is not None:
            self.run.loop.stop()

    def run_chunk(self, max_seconds: float) -> bool:
        """Step the run in progress for about ``max_seconds`` (at least one step); True while it
        goes on. Every step is complete (stepper, log, trace, undo stack) before the next."""
        if self.run is None:
            return False
        if self.run.loop.run(max_seconds) is None:
            return True
        self.notice = text.run_message(self)
        self.run = None
        return False

    def abort_run(self) -> None:
        """End the run in progress without a message (its step raised an engine error)."""
        self.run = None

    # ----------------------------------------------------------- hidden variables
    def propose_hidden(self, n_proposals: int) -> list[ClusterProposal]:
        """Hidden-variable proposals for the current network (JMLR 2007 section 5) over the observed
        variables but the rejected clusters (at most :data:`MAX_CLUSTER` members above :data:`CAP_CLUSTERS_ABOVE`)."""
        return propose_for_review(  # without a regulator list, co-expression modules too (engine.hidden.modules)
            self.stepper,
            self.values(),
            self.variable_names(),
            candidates=child_candidates(self.dataset.names, self.dataset.covariates),  # covariates: never children
            n_proposals=n_proposals,
            coexpression=not self.regulators,
            exclude=set(self.rejected),
            max_size=MAX_CLUSTER if self.dataset.n_vars > CAP_CLUSTERS_ABOVE else None,
            min_size=min(3, self.dataset.n_vars),  # a hidden parent of two does no more than an edge
            labels=self.dataset.instance_labels,
            explainers=self.stepper.cols,  # with a regulator list, only regulators stand in for H
            hidden=range(self.dataset.n_vars, self.stepper.n_vars),  # an accepted H's own members: marked
        )

    def reject_hidden(self, proposal: ClusterProposal) -> str:
        """Never propose this exact cluster again on these data; returns what was done, in words."""
        self.rejected.add(proposal.key)
        return (
            f"Rejected the cluster {', '.join(proposal.names)}: this exact set of members will not be "
            "proposed again (clusters that overlap it still can)."
        )

    # ---------------------------------------------------------- derived views
    def weighted_edges(self) -> list[tuple[int, int, float]]:
        """(parent, child, fitted coefficient) of every edge of the main search (hidden variables on
        unit variance, as in the export), from :meth:`current_fit`."""
        return self.current_fit().weighted_edges()

    def current_fit(self) -> CurrentFit:
        """The main search's families fitted once (engine.hidden.scale), until the structure changes:
        the edge weights, sd(H) and the regulator report of what the pages draw and export."""
        key = (self.version, tuple(self.stepper.edges()))
        if self._fit_cache is None or self._fit_cache[0] != key:
            self._fit_cache = (key, current_fit(self.stepper, self.variable_names(), self.dataset.n_vars))
        return self._fit_cache[1]

    def learned_network(self) -> LearnedNetwork:
        """The current network with fitted parameters (cached until the structure changes)."""
        stepper = self.stepper
        key = (self.version, tuple(stepper.edges()))
        if self._network_cache is not None and self._network_cache[0] == key:
            return self._network_cache[1]
        stats = RunStats.of(stepper, converged=self.main.converged)
        full = self.search_dataset()
        parents = {c: stepper.parents(c) for c in range(stepper.n_vars)}
        kw = {"stats": stats.to_dict(), "settings": self.settings.to_dict(), "score": stepper.score_choice}
        net = LearnedNetwork.from_parents(full, parents, stepper.model, **kw)  # the score searched, as the CLI
        if self.dataset.interventions is not None:  # the design, rows per family (engine.interventions)
            design = self.dataset.interventions
            net.interventions = design.record(self.dataset.names, self.dataset.values, design.intercepts)
        hidden = sorted(self.hidden_names(), key=full.names.index)
        if hidden:
            values = self.values()
            net.hidden = [
                {
                    "name": h,
                    "children": [full.names[c] for p, c in stepper.edges() if full.names[p] == h],
                    "profile": [float(v) for v in values[:, full.names.index(h)]],
                }
                for h in hidden
            ]
            # H on unit variance, the scale of the Hidden page's regulator report (engine.hidden.scale)
            rescale_network(net, self.current_fit().sds)
            # the score of a model with hidden variables is that of the observed data, with the
            # hidden variables integrated out (as the CLI's JSON and the Hidden variables page say)
            observed = net.evaluate(self.dataset)
            net.loglik, net.bic = observed["loglik"], observed["bic"]
            net.score_info = {**net.score_info, "value": observed["score"]}
        if self.prepared.completion is not None:  # the export says the data were completed, and how
            net.missing_values = self.prepared.completion.describe(self.settings.cpd)
            net.missing_cells = self.prepared.cells()
        self._network_cache = (key, net)
        return net

    def true_structure_bic(self) -> float | None:
        """Score (nats; the search's BIC or EBIC) of the true structure with its parameters fitted
        to the loaded data (None when unknown or when the search has variables the data lack).

        Fitted on a fresh family model, not the search's, so that looking never changes what the
        search has cached (and so what it does next)."""
        truth, stepper = self.truth, self.stepper
        if not truth or stepper.n_vars != self.dataset.n_vars:
            return None
        index = {n: i for i, n in enumerate(self.dataset.names)}
        if any(p not in index or c not in index for p, c in truth):
            return None
        model = IdealParentSearch(**self.settings.to_dict()).make_model(
            self.dataset.values, interventions=self.dataset.interventions
        )
        parents: dict[int, list[int]] = {c: [] for c in range(len(index))}
        for p, c in truth:
            parents[index[c]].append(index[p])
        return float(sum(stepper.scorer.family(model.fit(c, tuple(sorted(ps)))) for c, ps in parents.items()))
