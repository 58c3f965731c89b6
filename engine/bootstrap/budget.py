"""What a bootstrap run may ask for: a ceiling on the replicates, a time budget, lazily made seeds.

``bootstrap --replicates 1000000000`` built a billion seeds and futures before the first replicate
ran and never answered (#26). Now:

* :func:`check_replicates` refuses more than :data:`MAX_REPLICATES` at once, before a cluster is
  started: an edge's strength is a share of replicates, known to about +-0.5/sqrt(B) (one standard
  error), so 100,000 replicates pin it to +-0.002, and every replicate's network is kept (to match
  hidden regulators across replicates), so memory grows with B.
* :func:`check_workers` refuses more local worker processes than :data:`WORKERS_PER_CORE` per
  core (at least 8): each is a process with a copy of the data.
* :func:`over_budget` estimates the whole run from the first finished replicate (its own wall
  time in the worker plus Dask's overhead per task, times the replicates left, over the worker
  threads) and says, when that
  exceeds the time budget, how long it would take and how many replicates fit.
* :class:`SeedStream` makes replicate r's seed when r is submitted: the r-th child of the root
  seed, exactly as :func:`~.replicate.replicate_seeds` spawns them (``SeedSequence.spawn``: the
  root's entropy and ``spawn_key + (r,)``), so results are unchanged and nothing is built up front.
"""

from __future__ import annotations

import os

import numpy as np

from ..exceptions import ParameterError
from .replicate import replicate_seeds

__all__ = ["MAX_REPLICATES", "WORKERS_PER_CORE", "check_replicates", "check_workers", "over_budget", "duration"]

#: most replicates a run accepts (edge strengths to +-0.002; memory grows with B)
MAX_REPLICATES = 100_000
#: most local worker processes per core (each holds a copy of the data; more only queue for the cores)
WORKERS_PER_CORE = 4
#: Dask's cost of one task besides the replicate itself (scheduling, transfer of the outcome): 600
#: replicates of a 3-variable model on one local worker took 19 ms each against 6 ms inside it
TASK_OVERHEAD_S = 0.01


def check_replicates(n_replicates) -> int:
    """``n_replicates`` as a whole number in 1..MAX_REPLICATES, or :class:`ParameterError` saying why."""
    if isinstance(n_replicates, bool) or not isinstance(n_replicates, (int, np.integer)) or n_replicates < 1:
        raise ParameterError(f"`n_replicates` (--replicates) must be a whole number >= 1, got {n_replicates!r}.")
    if n_replicates > MAX_REPLICATES:
        raise ParameterError(
            f"`n_replicates` (--replicates) must be at most {MAX_REPLICATES:,}, got {int(n_replicates):,}: an edge's "
            f"strength is a share of replicates, known to +-0.002 with {MAX_REPLICATES:,} of them, and every "
            "replicate's network is kept in memory."
        )
    return int(n_replicates)


def check_workers(n_workers) -> int | None:
    """``n_workers`` of a local cluster: None, or a whole number from 1 to :data:`WORKERS_PER_CORE`
    per core (at least 8): ``--workers 1000`` would start a thousand processes on a laptop."""
    if n_workers is None:
        return None
    if isinstance(n_workers, bool) or not isinstance(n_workers, (int, np.integer)) or n_workers < 1:
        raise ParameterError(f"`n_workers` must be None or a whole number >= 1, got {n_workers!r}.")
    cores = os.cpu_count() or 1
    if n_workers > max(WORKERS_PER_CORE * cores, 8):
        raise ParameterError(
            f"`n_workers` (--workers) must be at most {max(WORKERS_PER_CORE * cores, 8)} on this machine of {cores} "
            f"core(s), got {int(n_workers):,}: each worker is a process holding a copy of the data (for a larger "
            "cluster start one and give its address, --scheduler)."
        )
    return int(n_workers)


def duration(seconds: float) -> str:
    """``40 s``, ``12 min``, ``5.1 h``, ``3.2 days`` or ``6.3 years``."""
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 5400:
        return f"{seconds / 60:.0f} min"
    if seconds < 2 * 86400:
        return f"{seconds / 3600:.1f} h"
    if seconds < 2 * 365.25 * 86400:
        return f"{seconds / 86400:.1f} days"
    return f"{seconds / (365.25 * 86400):.1f} years"


def over_budget(per_replicate: float, n_left: int, n_done: int, threads: int, max_seconds: float) -> str | None:
    """Why the run would exceed ``max_seconds`` (None if it would not): the estimate from one
    replicate's ``per_replicate`` seconds for the ``n_left`` replicates left on ``threads`` workers."""
    threads = max(int(threads), 1)
    per_replicate += TASK_OVERHEAD_S
    estimate = per_replicate * n_left / threads
    if estimate <= max_seconds:
        return None
    fit = n_done + int(max_seconds * threads / max(per_replicate, 1e-9))
    return (
        f"{n_done + n_left:,} replicates would take about {duration(estimate)} here ({per_replicate:.2g} s per "
        f"replicate on {threads} worker thread(s): the first, timed, and Dask's overhead), over the time budget of "
        f"{duration(max_seconds)} (`max_hours`, --max-hours); about {fit:,} fit in it. Ask for fewer replicates, "
        "add workers, or raise the budget."
    )


class SeedStream:
    """Replicate r's seed on demand: ``stream[r] == replicate_seeds(random_state, B)[r]`` for every B > r."""

    def __init__(self, random_state) -> None:
        first = replicate_seeds(random_state, 1)[0]  # draws from a Generator once, as replicate_seeds(.., B) does
        self._entropy, self._pool_size = first.entropy, first.pool_size
        *self._root_key, self._offset = first.spawn_key

    def __getitem__(self, r: int) -> np.random.SeedSequence:
        key = (*self._root_key, self._offset + int(r))
        return np.random.SeedSequence(self._entropy, spawn_key=key, pool_size=self._pool_size)
