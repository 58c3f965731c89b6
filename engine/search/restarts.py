"""Random restarts around a converged hill climb (thesis section 2.3.3, Algorithm 2).

After convergence, apply a few random legal moves to the best network found and climb again;
keep the new optimum if it scores better, else go back to the best one. Stop after ``n_restarts``
restarts in a row that did not improve.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from .results import SearchResult
from .stepper import Stepper

__all__ = ["climb_with_restarts"]


def climb_with_restarts(
    stepper: Stepper,
    n_restarts: int,
    restart_moves: int,
    rng: np.random.Generator,
    callback: Callable[..., None] | None = None,
) -> SearchResult:
    """Random restarts from the stepper's (converged) network; the stepper ends on the best one
    found. ``callback`` is the run's (raising ``StopIteration`` in it stops the restarts)."""
    best_score, best_len = stepper.score, stepper.n_iter
    failures = 0
    while failures < n_restarts:
        stepper.perturb(restart_moves, rng)
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
