"""The Dask side of the bootstrap: a local cluster, or a client on an existing scheduler.

A local cluster has one worker process per core (or ``n_workers``), one thread each, BLAS pinned to
one thread (:data:`BLAS_ENV`), no dashboard. An address is checked by a bounded handshake first
(:func:`~.handshake.check_scheduler`): nothing listening, or a peer that does not speak Dask's
protocol, is refused in one line naming it, within seconds (``tcp://`` and ``ws://`` alike).
"""

from __future__ import annotations

import contextlib
import logging
import os
import warnings
from collections.abc import Iterator

from ..exceptions import ParameterError
from .budget import check_workers as _check_workers
from .handshake import HANDSHAKE_TIMEOUT, check_scheduler

__all__ = ["BLAS_ENV", "CONNECT_TIMEOUT", "open_client", "start_local_cluster"]

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
