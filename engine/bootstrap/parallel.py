"""Running bootstrap replicates on Dask distributed: a local cluster or an existing one.

* :func:`open_client` connects to a scheduler (``tcp://host:port``), uses a given
  ``distributed.Client`` as it is, or starts a ``LocalCluster`` of process workers with one thread
  each and the BLAS thread pools pinned to one thread (one replicate per core, no
  oversubscription); it closes only what it started.
* :class:`BootstrapRun` scatters the data once, submits one task per replicate
  (:func:`~.replicate.run_replicate`, with the replicate's own seed) and collects the outcomes as
  they finish: blocking with progress (:meth:`BootstrapRun.wait`, ``as_completed``) or in time
  slices (:meth:`BootstrapRun.poll`, for the explorer). :meth:`BootstrapRun.result` sums up what
  has finished so far.

A replicate's failure (its own error, or its worker dying) is kept as a failed outcome naming the
replicate; the other replicates go on. Dask is imported only here, when a bootstrap runs.
"""

from __future__ import annotations

import contextlib
import logging
import os
import time
import uuid
import warnings
from collections.abc import Callable, Iterator

from ..data import Dataset
from ..exceptions import ParameterError
from .replicate import ReplicateOutcome, replicate_seeds, run_replicate
from .resampling import ResampleChoice, choose_resample
from .result import BootstrapResult, check_threshold

__all__ = ["BLAS_ENV", "open_client", "start_local_cluster", "BootstrapRun", "ProgressCallback", "bootstrap"]

#: environment of the local cluster's worker processes: one BLAS/OpenMP thread each
BLAS_ENV = {
    "OMP_NUM_THREADS": "1",
    "OPENBLAS_NUM_THREADS": "1",
    "MKL_NUM_THREADS": "1",
    "VECLIB_MAXIMUM_THREADS": "1",
    "NUMEXPR_NUM_THREADS": "1",
}

#: seconds to wait for a scheduler to answer and for a first worker to join it
CONNECT_TIMEOUT = 30

#: ``progress(outcome, n_done, n_total)`` after each finished replicate; StopIteration stops the run
ProgressCallback = Callable[[ReplicateOutcome, int, int], None]


def _check_workers(n_workers) -> int | None:
    if n_workers is None:
        return None
    if isinstance(n_workers, bool) or not isinstance(n_workers, int) or n_workers < 1:
        raise ParameterError(f"`n_workers` must be None or a whole number >= 1, got {n_workers!r}.")
    return int(n_workers)


def start_local_cluster(n_workers: int | None = None):
    """A ``LocalCluster`` of ``n_workers`` processes (default: the number of cores), one thread each,
    BLAS pinned to one thread, no dashboard. The caller closes it."""
    from dask.distributed import LocalCluster

    n = _check_workers(n_workers) or max(1, os.cpu_count() or 1)
    with warnings.catch_warnings():
        # without a dashboard the scheduler still serves its health routes over HTTP, on 8787 when
        # free and elsewhere otherwise: nothing the user needs to hear about
        warnings.filterwarnings("ignore", message="Port .* is already in use", category=UserWarning)
        return LocalCluster(
            n_workers=n,
            threads_per_worker=1,
            processes=True,
            dashboard_address=None,
            env=dict(BLAS_ENV),
            silence_logs=logging.ERROR,
        )


@contextlib.contextmanager
def open_client(scheduler=None, n_workers: int | None = None) -> Iterator:
    """A ``distributed.Client``: on ``scheduler`` (an address, or a Client used as it is), or on a new
    local cluster of ``n_workers`` processes. Closes the client and cluster it started."""
    from dask.distributed import Client

    n_workers = _check_workers(n_workers)
    if isinstance(scheduler, Client):
        if n_workers is not None:
            raise ParameterError("`n_workers` sets up a local cluster; it cannot be used with a given Client.")
        yield scheduler
        return
    if scheduler is None:
        cluster = start_local_cluster(n_workers)
        try:
            with Client(cluster) as client:
                yield client
        finally:
            cluster.close()
        return
    if not isinstance(scheduler, str) or not scheduler.strip():
        raise ParameterError(
            f"`scheduler` must be None, an address such as 'tcp://host:8786' or a Client, got {scheduler!r}."
        )
    if n_workers is not None:
        raise ParameterError(
            "`n_workers` sets up a local cluster; with `scheduler` (--scheduler) the cluster's own workers are used."
        )
    try:
        client = Client(scheduler, timeout=CONNECT_TIMEOUT)
    except (OSError, TimeoutError, ValueError) as exc:
        raise ParameterError(
            f"could not connect to the Dask scheduler at {scheduler!r} ({exc}); is it running?"
        ) from None
    try:
        try:
            client.wait_for_workers(1, timeout=CONNECT_TIMEOUT)
        except TimeoutError:
            raise ParameterError(
                f"the Dask scheduler at {scheduler!r} has no workers (waited {CONNECT_TIMEOUT} s); start some "
                f"with 'dask worker {scheduler}'."
            ) from None
        yield client
    finally:
        client.close()


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
        resample: str = "bootstrap",
    ) -> None:
        if resample not in ("bootstrap", "subsample"):
            raise ParameterError(f"`resample` == {resample!r}, must be 'bootstrap' or 'subsample'.")
        if isinstance(n_replicates, bool) or not isinstance(n_replicates, int) or n_replicates < 1:
            raise ParameterError(f"`n_replicates` must be a whole number >= 1, got {n_replicates!r}.")
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
        seeds = replicate_seeds(random_state, n_replicates)
        [self._data] = client.scatter([(dataset, estimator)], hash=False)
        tag = uuid.uuid4().hex[:8]
        self._pending = {
            client.submit(
                run_replicate,
                self._data,
                r,
                seeds[r],
                resample,
                seeds[r - r % 2],  # a half-sample's pair shares its split (complementary pairs)
                key=f"{resample}-{tag}-replicate-{r}",
                pure=False,
            ): r
            for r in range(n_replicates)
        }

    @property
    def n_done(self) -> int:
        return len(self.outcomes)

    @property
    def n_failed(self) -> int:
        return sum(not o.ok for o in self.outcomes.values())

    @property
    def finished(self) -> bool:
        return not self._pending

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
            for future in as_completed(list(self._pending)):
                outcome = self._take(future)
                if progress is not None:
                    progress(outcome, self.n_done, self.n_replicates)
        except StopIteration:
            self.stop()
        except BaseException:  # KeyboardInterrupt: free the cluster before leaving
            self.stop()
            raise
        return self

    def poll(self) -> list[ReplicateOutcome]:
        """The replicates that finished since the last call (never blocks)."""
        return [self._take(f) for f in [f for f in self._pending if f.done()]]

    def stop(self) -> None:
        """Cancel the replicates still pending; what has finished is kept."""
        if self._pending:
            self.stopped = True
            self.client.cancel(list(self._pending))
            self._pending.clear()

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
    resample: str = "auto",
) -> BootstrapResult:
    """Edge and hidden-regulator confidence by the non-parametric bootstrap, replicates on Dask.

    Parameters
    ----------
    estimator : IdealParentSearch
        The settings every replicate learns with (its settings are checked before anything runs).
    data : Dataset, DataFrame or array
    n_replicates : int, default 200
        B, the number of replicates (bnlearn's ``R``).
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
    resample : {"auto", "bootstrap", "subsample"}, default "auto"
        Rows drawn with replacement, or half-samples in complementary pairs; ``auto`` by the data's
        shape (:func:`~.resampling.choose_resample`). The choice and its reason are in
        ``result.settings["resample"]``.

    Returns
    -------
    BootstrapResult
        With ``failures`` listing the replicates that failed (the others' figures are kept).

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
    check_threshold(threshold)
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
                **estimator.settings(),
                "n_replicates": n_replicates,
                "seed": _seed_label(seed),
                "resample": choice.describe(),
            },
            resample=choice.name,
        )
        run.wait(progress)
        result = run.result()
        result.stats["scheduler"] = (
            "local cluster" if scheduler is None else scheduler if isinstance(scheduler, str) else "given client"
        )
        return result


def resample_choice(estimator, dataset, resample: str = "auto") -> ResampleChoice:
    """The resampling ``bootstrap`` uses for ``estimator`` on ``dataset`` and why."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # absent regulators are reported by fit
        regulators = estimator.regulator_names(dataset)
    n_cand = None if regulators is None else len(regulators)
    return choose_resample(resample, dataset.n_samples, dataset.n_vars, n_candidates=n_cand)


def _seed_label(seed):
    """The seed as stored in the result (an int as it is; a generator or sequence by its type)."""
    if seed is None or isinstance(seed, int):
        return seed
    return type(seed).__name__
