"""The Dask side of the bootstrap: a local cluster, or a client on an existing scheduler.

A local cluster has one worker process per core (or ``n_workers``), one thread each, BLAS pinned to
one thread (:data:`BLAS_ENV`), no dashboard. An address is checked by a bounded handshake first
(:func:`~.handshake.check_scheduler`): nothing listening, or a peer that does not speak Dask's
protocol, is refused in one line naming it, within seconds (``tcp://`` and ``ws://`` alike).

A local cluster's worker processes ignore SIGINT: Ctrl-C in a terminal reaches the whole process
group, and each worker used to print its own KeyboardInterrupt traceback while the main process
stopped the run. They are spawned with SIGINT ignored (inherited through ``exec``; the main process
ignores it for the second or two the cluster takes to start, which also means a half-started
cluster is never left to Python's exit handlers), and a worker a nanny restarts later ignores it
too (:mod:`.worker_setup`, a Dask preload). :func:`close_cluster` closes a cluster without
waiting for the replicates in flight: a running task cannot be cancelled in its thread, so its
worker process is stopped (within :data:`STOP_SECONDS`) rather than left computing a replicate
nobody will read.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal
import threading
import warnings
from collections.abc import Iterator

from ..exceptions import ParameterError
from .budget import check_workers as _check_workers
from .handshake import HANDSHAKE_TIMEOUT, check_scheduler

__all__ = ["BLAS_ENV", "CONNECT_TIMEOUT", "STOP_SECONDS", "close_cluster", "open_client", "start_local_cluster"]

#: environment of the local cluster's worker processes: one BLAS/OpenMP thread each
BLAS_ENV = {
    "OMP_NUM_THREADS": "1",
    "OPENBLAS_NUM_THREADS": "1",
    "MKL_NUM_THREADS": "1",
    "VECLIB_MAXIMUM_THREADS": "1",
    "NUMEXPR_NUM_THREADS": "1",
}

#: seconds to wait for a first worker to join a scheduler (connecting is bounded by
#: :data:`~.handshake.HANDSHAKE_TIMEOUT`)
CONNECT_TIMEOUT = 30

#: seconds a local worker is given to end by itself when its cluster is closed; a worker still
#: running a replicate then is killed (replicates write nothing, so nothing is left half-done)
STOP_SECONDS = 1.0


def start_local_cluster(n_workers: int | None = None):
    """A ``LocalCluster`` of ``n_workers`` processes (default: the number of cores), one thread each,
    BLAS pinned to one thread, no dashboard. The caller closes it."""
    from dask.distributed import LocalCluster

    n = _check_workers(n_workers) or max(1, os.cpu_count() or 1)
    with warnings.catch_warnings(), _sigint_ignored():
        # without a dashboard the scheduler still serves its health routes over HTTP, on 8787 when
        # free and elsewhere otherwise: nothing the user needs to hear about
        warnings.filterwarnings("ignore", message="Port .* is already in use", category=UserWarning)
        cluster = LocalCluster(
            n_workers=n,
            threads_per_worker=1,
            processes=True,
            dashboard_address=None,
            env=dict(BLAS_ENV),
            silence_logs=logging.ERROR,
            preload=["engine.bootstrap.worker_setup"],  # Ctrl-C is the main process's to handle
        )
    return cluster


@contextlib.contextmanager
def _sigint_ignored() -> Iterator[None]:
    """SIGINT ignored while the block runs (main thread only, where handlers are set): the worker
    processes spawned meanwhile ignore it from their first line, since an ignored signal stays
    ignored through ``exec`` (a blocked one does not: spawning clears the mask), and Python then
    installs no KeyboardInterrupt handler. A Ctrl-C in that second or two is not seen; the next is."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, signal.default_int_handler if previous is None else previous)


def close_cluster(cluster, wait: float = STOP_SECONDS) -> None:
    """Close ``cluster`` (one this package started) without waiting for the tasks in flight.

    ``cluster.close()`` alone waits about 4 s for each worker whose thread is still running a
    replicate (a cancelled task runs on to its end otherwise): its workers are closed first with
    ``wait`` seconds to end, then killed. Never raises: a cluster already gone is closed."""
    from dask.distributed import Nanny

    workers = list(getattr(cluster, "workers", {}).values())

    async def stop_workers() -> None:
        # a Nanny (a worker process) kills its process after ``wait``; an in-process Worker (a
        # thread, in tests) cannot be killed: it is told not to wait for its executor
        closing = [w.close(timeout=wait, **({} if isinstance(w, Nanny) else {"executor_wait": False})) for w in workers]
        await asyncio.gather(*closing, return_exceptions=True)

    with contextlib.suppress(Exception):
        if workers:
            cluster.sync(stop_workers)
    with contextlib.suppress(Exception):
        cluster.close()


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
            close_cluster(cluster)  # Ctrl-C: the replicates in flight are not waited for
        return
    if not isinstance(scheduler, str) or not scheduler.strip():
        raise ParameterError(
            f"`scheduler` must be None, an address such as 'tcp://host:8786' or a Client, got {scheduler!r}."
        )
    if n_workers is not None:
        raise ParameterError(
            "`n_workers` sets up a local cluster; with `scheduler` (--scheduler) the cluster's own workers are used."
        )
    check_scheduler(scheduler)  # a bounded handshake: Client waits without bound on a peer that is not Dask
    try:
        # the peer is listening (checked): a short bound on Client's own connection attempts (it retries
        # for its whole timeout when a ws:// peer stops answering)
        client = Client(scheduler, timeout=HANDSHAKE_TIMEOUT)
    except (OSError, TimeoutError, ValueError) as exc:
        raise ParameterError(
            f"could not connect to the Dask scheduler at {scheduler!r} ({exc}); is it running?"
        ) from None
    except Exception as exc:  # a Dask peer that is not a scheduler (e.g. a worker's address) fails its requests
        raise ParameterError(
            f"{scheduler} answered but is not a Dask scheduler (is it a worker's address?): {type(exc).__name__}: {exc}"
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
