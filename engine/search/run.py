"""The one run loop: step a search until it converges, a step budget or a time slice runs out.

Every long run goes through :class:`RunLoop`: ``Stepper.run`` (and so the CLI, the estimator's
``fit`` and structural EM's M-step) and the explorer's time-sliced "Run N steps" / "Run to
convergence" buttons, which call :meth:`RunLoop.run` with ``max_seconds`` and get control back
between chunks. The loop follows SciPy's callback convention: ``callback(intermediate_result=
StepResult)`` after each applied move; raising ``StopIteration`` there (or calling
:meth:`RunLoop.stop`) ends the run with status -2.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Protocol

from .._validation import check_scalar
from .results import SearchResult, StepResult

__all__ = ["RunLoop", "Steppable"]


class Steppable(Protocol):
    """What :class:`RunLoop` drives: ``step()`` applies one move (status 0) or reports
    convergence (status 1); ``summary(status)`` describes the state reached."""

    def step(self) -> StepResult: ...

    def summary(self, status: int) -> SearchResult: ...


class RunLoop:
    """A resumable run of ``search.step()``.

    Parameters
    ----------
    search : Steppable
        A :class:`~engine.search.Stepper`, or anything with the same ``step``/``summary``.
    max_steps : int or None
        Moves to take at most (None: until convergence).
    callback : callable, optional
        ``callback(intermediate_result=StepResult)`` after every applied move; raising
        ``StopIteration`` stops the run (status -2).

    Attributes
    ----------
    status : int or None
        None while the run can go on; then 1 (converged), 2 (``max_steps`` reached) or -2
        (stopped), as in :data:`~engine.search.TERMINATION_MESSAGES`.
    n_steps : int
        Moves taken by this run.
    """

    def __init__(
        self, search: Steppable, *, max_steps: int | None = None, callback: Callable[..., None] | None = None
    ) -> None:
        check_scalar(max_steps, "max_steps", int, min_val=0, allow_none=True)
        self.search = search
        self.max_steps = max_steps
        self.callback = callback
        self.n_steps = 0
        self.status: int | None = None
        self.last: StepResult | None = None
        self._stop = False

    @property
    def done(self) -> bool:
        """Whether the run has ended (converged, steps used up or stopped)."""
        return self.status is not None

    def stop(self) -> None:
        """Ask the run to end before its next move (status -2)."""
        self._stop = True

    def run(self, max_seconds: float | None = None) -> SearchResult | None:
        """Step until the run ends, or for about ``max_seconds`` (at least one step).

        Returns the :class:`SearchResult` once the run has ended, None when the time slice ran
        out first (call again to go on).
        """
        t0 = time.perf_counter()
        while self.status is None:
            if self._stop:
                self.status = -2
                break
            if self.max_steps is not None and self.n_steps >= self.max_steps:
                self.status = 2
                break
            res = self.search.step()
            self.last = res
            if res.move is None:
                self.status = 1
                break
            self.n_steps += 1
            if self.callback is not None:
                try:
                    self.callback(intermediate_result=res)
                except StopIteration:
                    self.status = -2
                    break
            if max_seconds is not None and time.perf_counter() - t0 >= max_seconds:
                if self.max_steps is not None and self.n_steps >= self.max_steps:
                    self.status = 2
                    break
                return None
        return self.search.summary(self.status)
