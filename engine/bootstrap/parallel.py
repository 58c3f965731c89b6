"""Running bootstrap replicates on Dask distributed: a local cluster or an existing one.

* :func:`open_client` connects to a scheduler (``tcp://host:port``), uses a given
  ``distributed.Client`` as it is, or starts a ``LocalCluster`` of process workers with one thread
  each and the BLAS thread pools pinned to one thread (one replicate per core, no
  oversubscription); it closes only what it started.
* :class:`BootstrapRun` scatters the data once, submits one task per replicate
  (:func:`~.replicate.run_replicate`, with the replicate's own seed) and collects the outcomes as
  they finish: blocking with progress (:meth:`BootstrapRun.wait`, ``as_completed``) or in time
  slices (:meth:`BootstrapRun.poll`, for the explorer). :meth:`BootstrapRun.result` sums up what
  has finished so far. Tasks are submitted in a bounded window (a few per worker thread, topped up
  as they finish), so B costs nothing up front; B is capped and the run's time estimated from the
  first replicate (:mod:`.budget`). Ctrl-C raises :class:`Interrupted` carrying the result of the
  replicates finished.

A replicate's failure (its own error, or its worker dying) is kept as a failed outcome naming the
replicate; the other replicates go on. Dask is imported only here, when a bootstrap runs.
"""

from __future__ import annotations

import time
import uuid
import warnings
from collections.abc import Callable

from ..data import Dataset
from ..exceptions import ParameterError
from .budget import SeedStream, check_replicates, over_budget
from .cluster import BLAS_ENV, close_cluster, open_client, start_local_cluster
from .replicate import ReplicateOutcome, run_replicate
from .resampling import ResampleChoice, choose_resample
from .result import BootstrapResult, check_threshold

__all__ = [
    "BLAS_ENV",
    "close_cluster",
    "open_client",
    "start_local_cluster",
    "BootstrapRun",
    "Interrupted",
    "ProgressCallback",
    "bootstrap",
]

#: ``progress(outcome, n_done, n_total)`` after each finished replicate; StopIteration stops the run
ProgressCallback = Callable[[ReplicateOutcome, int, int], None]

#: replicates submitted ahead per worker thread (the window is topped up as replicates finish)
WINDOW_PER_THREAD = 4


class Interrupted(KeyboardInterrupt):
    """Ctrl-C during :func:`bootstrap`: ``result`` holds the replicates finished before it (``stopped``)."""

    def __init__(self, result: BootstrapResult) -> None:
        super().__init__("interrupted")
        self.result = result


class BootstrapRun:
    """B replicates submitted to a Dask client, collected as they finish.

    Parameters
    ----------
    client : distributed.Client
    dataset : Dataset
        The data as loaded (scattered once to the workers).
    estimator : IdealParentSearch
        The settings to learn with (an unfitted estimator; each replicate learns with a copy of it
        and its own ``random_state``).
    n_replicates : int
    random_state : None, int, SeedSequence or Generator
        Root of the replicates' seeds (:func:`~.replicate.replicate_seeds`).
    max_seconds : float or None
        Time budget: when the first replicate shows the run would take longer, :meth:`wait` stops it
        and raises :class:`ParameterError` with the estimate (:func:`~.budget.over_budget`).
    resample : {"bootstrap", "subsample"}
        How each replicate resamples the instances (:mod:`.resampling`).
    """

    def __init__(
        self,
        client,
        dataset: Dataset,
        estimator,
        n_replicates: int,
        random_state=None,
        *,
        threshold: float | None = None,
        settings: dict | None = None,
        max_seconds: float | None = None,
        resample: str = "bootstrap",
    ) -> None:
        if resample not in ("bootstrap", "subsample"):
            raise ParameterError(f"`resample` == {resample!r}, must be 'bootstrap' or 'subsample'.")
        n_replicates = check_replicates(n_replicates)
        self.threshold = check_threshold(threshold)
        self.client = client
        self.names = dataset.names
        self.n_replicates = n_replicates
        hidden = estimator.get_params().get("hidden")
        self.hidden = isinstance(hidden, str) and hidden.lower() == "auto"
        self.settings = dict(settings or {})
        self.outcomes: dict[int, ReplicateOutcome] = {}
        self.stopped = False
        self.t0 = time.perf_counter()
        self.max_seconds = max_seconds
        self._seeds = SeedStream(random_state)
        [self._data] = client.scatter([(dataset, estimator)], hash=False)
        self.resample = resample
        self._tag = uuid.uuid4().hex[:8]
        self._next = 0  # the next replicate to submit
        self._timed = False
        self._pending: dict = {}
        self._threads_at = (-float("inf"), 1)
        self._submit()

    def _threads(self) -> int:
        """Worker threads of the cluster (asked of the scheduler at most once a second)."""
        now = time.monotonic()
        if now - self._threads_at[0] >= 1.0:
            self._threads_at = (now, max(sum(self.client.nthreads().values()), 1))
        return self._threads_at[1]

    def _submit(self) -> list:
        """Submit replicates until a window of a few per worker thread is pending; the new futures."""
        window = max(WINDOW_PER_THREAD * self._threads(), 8)
        new = []
        while not self.stopped and self._next < self.n_replicates and len(self._pending) < window:
            r = self._next
            future = self.client.submit(
                run_replicate,
                self._data,
                r,
                self._seeds[r],
                self.resample,
                self._seeds[r - r % 2],  # a half-sample's pair shares its split (complementary pairs)
                key=f"{self.resample}-{self._tag}-replicate-{r}",
                pure=False,
            )
            self._pending[future] = r
            new.append(future)
            self._next += 1
        return new

    def _check_budget(self, outcome: ReplicateOutcome) -> None:
        """After the first finished replicate: refuse a run the time budget cannot hold (stopping it)."""
        if self.max_seconds is None or self._timed or not outcome.ok:
            return
        self._timed = True
        n_left = self.n_replicates - self.n_done
        why = over_budget(outcome.seconds, n_left, self.n_done, self._threads(), self.max_seconds)
        if why is not None:
            self.stop()
            raise ParameterError(why)

    @property
    def n_done(self) -> int:
        return len(self.outcomes)

    @property
    def n_failed(self) -> int:
        return sum(not o.ok for o in self.outcomes.values())

    @property
    def finished(self) -> bool:
        return not self._pending and (self.stopped or self._next >= self.n_replicates)

    def _take(self, future) -> ReplicateOutcome:
        r = self._pending.pop(future)
        if future.status == "finished":
            outcome = future.result()
        else:  # the task itself failed (e.g. its worker died, or could not import the engine)
            exc = future.exception()
            outcome = ReplicateOutcome(r, error=f"{type(exc).__name__}: {exc}")
        future.release()
        self.outcomes[r] = outcome
        return outcome

    def wait(self, progress: ProgressCallback | None = None) -> BootstrapRun:
        """Block until every replicate has finished (or ``progress`` raises StopIteration)."""
        from dask.distributed import as_completed

        try:
            queue = as_completed(list(self._pending))
            for future in queue:
                outcome = self._take(future)
                self._check_budget(outcome)
                for new in self._submit():
                    queue.add(new)
                if progress is not None:
                    progress(outcome, self.n_done, self.n_replicates)
        except StopIteration:
            self.stop()
        except BaseException:  # KeyboardInterrupt: free the cluster before leaving
            self.stop()
            raise
        return self

    def poll(self) -> list[ReplicateOutcome]:
        """The replicates that finished since the last call (never blocks); the window is topped up."""
        done = [self._take(f) for f in [f for f in self._pending if f.done()]]
        self._submit()
        return done

    def stop(self) -> int:
        """Cancel the replicates still pending and submit no more; what has finished is kept.

        Returns the number of replicates cancelled. Those already running on a worker go on to
        their end in its thread (Dask cannot interrupt a running task): whoever owns the cluster
        stops them by closing it (:func:`~.cluster.close_cluster`), as the CLI and the explorer do."""
        if self._pending or self._next < self.n_replicates:
            self.stopped = True
        cancelled = len(self._pending)
        if self._pending:
            self.client.cancel(list(self._pending))
            self._pending.clear()
        return cancelled

    def result(self) -> BootstrapResult:
        """The confidence figures from the replicates finished so far."""
        workers = self.client.nthreads() if self.client.status == "running" else {}
        stats = {
            "seconds": time.perf_counter() - self.t0,
            "workers": len(workers),
            "replicate_seconds": sum(o.seconds for o in self.outcomes.values()),
            "replicate_cpu_seconds": sum(o.cpu_seconds for o in self.outcomes.values()),
        }
        return BootstrapResult.build(
            self.names,
            list(self.outcomes.values()),
            self.n_replicates,
            threshold=self.threshold,
            hidden=self.hidden,
            stopped=self.stopped,
            settings=self.settings,
            stats=stats,
        )


def bootstrap(
    estimator,
    data,
    n_replicates: int = 200,
    *,
    threshold: float | None = None,
    scheduler=None,
    n_workers: int | None = None,
    random_state=None,
    progress: ProgressCallback | None = None,
    max_hours: float | None = None,
    resample: str = "auto",
) -> BootstrapResult:
    """Edge and hidden-regulator confidence by the non-parametric bootstrap, replicates on Dask.

    Parameters
    ----------
    estimator : IdealParentSearch
        The settings every replicate learns with (its settings are checked before anything runs).
    data : Dataset, DataFrame or array
    n_replicates : int, default 200
        B, the number of replicates (bnlearn's ``R``), at most :data:`~.budget.MAX_REPLICATES`.
    threshold : float in [0, 1] or None
        The averaged network's threshold; None estimates it as bnlearn does
        (:func:`~.strength.inclusion_threshold`).
    scheduler : None, str or distributed.Client
        None starts a local cluster of ``n_workers`` processes (default: one per core); an address
        (``tcp://host:8786``) or a Client runs on that cluster.
    random_state : None, int, SeedSequence or Generator
        Root of the replicates' seeds; None uses the estimator's ``random_state``. The result is
        the same for a seed whatever the number of workers.
    progress : callable, optional
        ``progress(outcome, n_done, n_total)`` after each replicate, in the order they finish;
        raising StopIteration stops the run (cancelling the replicates not yet finished).
    max_hours : float or None
        Time budget: when the first replicate shows the run would take longer, it is stopped and
        :class:`ParameterError` says how long it would take and how many replicates fit. None: no
        budget (the CLI's ``--max-hours`` is 24 by default).
    resample : {"auto", "bootstrap", "subsample"}, default "auto"
        Rows drawn with replacement, or half-samples in complementary pairs; ``auto`` by the data's
        shape (:func:`~.resampling.choose_resample`). The choice and its reason are in
        ``result.settings["resample"]``.

    Returns
    -------
    BootstrapResult
        With ``failures`` listing the replicates that failed (the others' figures are kept).

    Raises
    ------
    Interrupted
        On Ctrl-C (a ``KeyboardInterrupt``), with ``result`` from the replicates finished before it.

    References
    ----------
    .. [1] Friedman, Goldszmidt, Wyner. Data analysis with Bayesian networks: a bootstrap approach.
       UAI 1999. https://arxiv.org/abs/1301.6695
    """
    from ..io import as_dataset

    estimator._check_params()
    # the replicates' template: required/forbidden edges as read once (they may be one-shot iterables)
    template = type(estimator)(
        **{
            **estimator.get_params(),
            "required_edges": list(estimator._required_pairs),
            "forbidden_edges": list(estimator._forbidden_pairs),
        }
    )
    dataset = as_dataset(data)
    estimator.check_rows(dataset)  # data every replicate would refuse: one error, before a cluster starts
    check_threshold(threshold)
    check_replicates(n_replicates)  # before a cluster is started
    if max_hours is not None and (
        isinstance(max_hours, bool) or not isinstance(max_hours, (int, float)) or not max_hours > 0
    ):
        raise ParameterError(f"`max_hours` (--max-hours) must be a positive number of hours, got {max_hours!r}.")
    choice = resample_choice(estimator, dataset, resample)
    # every replicate keeps the score chosen on all the data (a half-sample may look wide)
    template.score = estimator.score_choice(dataset).name
    seed = estimator.random_state if random_state is None else random_state
    with open_client(scheduler, n_workers) as client:
        run = BootstrapRun(
            client,
            dataset,
            template,
            n_replicates,
            seed,
            threshold=threshold,
            settings={
                **estimator.settings(dataset),
                "n_replicates": n_replicates,
                "seed": _seed_label(seed),
                "resample": choice.describe(),
            },
            max_seconds=None if max_hours is None else float(max_hours) * 3600,
            resample=choice.name,
        )
        where = "local cluster" if scheduler is None else scheduler if isinstance(scheduler, str) else "given client"
        try:
            run.wait(progress)
        except KeyboardInterrupt:  # the run is stopped; keep what finished
            result = run.result()
            result.stats["scheduler"] = where
            raise Interrupted(result) from None
        result = run.result()
        result.stats["scheduler"] = where
        return result


def resample_choice(estimator, dataset, resample: str = "auto") -> ResampleChoice:
    """The resampling ``bootstrap`` uses for ``estimator`` on ``dataset`` and why."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # absent regulators are reported by fit
        regulators = estimator.regulator_names(dataset)
    n_cand = None if regulators is None else len(regulators)
    hidden = bool(estimator._auto_hidden or estimator.two_layer)  # hidden variables: every gene counts
    roots = len(estimator.parent_only_names(dataset))  # covariates: never a hidden variable's children
    return choose_resample(
        resample, dataset.n_samples, dataset.n_vars, n_candidates=n_cand, hidden=hidden, n_parent_only=roots
    )


def _seed_label(seed):
    """The seed as stored in the result (an int as it is; a generator or sequence by its type)."""
    if seed is None or isinstance(seed, int):
        return seed
    return type(seed).__name__
