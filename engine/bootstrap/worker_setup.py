"""A Dask preload for the local cluster's worker processes: they ignore SIGINT.

Ctrl-C in a terminal sends SIGINT to the whole foreground process group, the worker processes
included. Each then printed its own KeyboardInterrupt traceback (and its nanny an error) while the
main process, which owns the run, was stopping it in order. The main process alone handles Ctrl-C:
it cancels the replicates and closes the cluster (:func:`.cluster.close_cluster`), and a worker
whose parent is gone exits by itself (Dask watches the parent's pipe).
"""

from __future__ import annotations

import signal
import threading

__all__ = ["dask_setup"]


def dask_setup(worker) -> None:
    """Called by Dask in each worker process as it starts (``preload``): ignore SIGINT there."""
    if threading.current_thread() is threading.main_thread():  # signal handlers are set there only
        signal.signal(signal.SIGINT, signal.SIG_IGN)
