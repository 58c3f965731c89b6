"""Where one structural EM run is, said now and then while it runs.

A structural EM run (JMLR 2007 section 6) alternates M-steps, each a whole structure search run to
convergence on the expected statistics, with E-steps. On a genome-scale table one run takes seconds
to minutes, most of it in its first M-step, and the hidden-variable protocol runs several (the first
search, a trial per proposal, the baseline without it). :meth:`StructuralEM.run
<engine.hidden.em.StructuralEM.run>` tells an :class:`EMProgress` each move of its M-steps and each
finished iteration; it says an :class:`EMStatus` at most once every ``every`` seconds:

* to the function set by :func:`reporting` in the current context (the explorer's progress bar;
  a context variable, so two sessions of the app, in two threads, never see each other's runs);
* otherwise as a line on the ``engine.hidden.em`` logger at INFO (:data:`EM_LOG`, a child of
  :data:`engine.learn_em.HIDDEN_LOG`, which the CLI prints on stderr).

A status is due ``every`` (:data:`EVERY` for the log) seconds after the last one (for the log:
or after the last line of the hidden-variable search, :func:`said`) or, when nothing was said for
longer than that before the run started, after the run's start: short runs stay quiet, and a
series of short runs (a proposal's trial) is heard like a long one.

Reporting only reads counters the run keeps anyway and computes nothing when nobody listens: the
run, its result and its timings' order of magnitude are the same with or without it. The figures
are the iteration, the moves of the M-step in progress, the expected score (the penalized
``E_Q[log P]`` the M-step maximizes, after the iteration's E-step) and the seconds since the run
started; the observed-data score is not computed here (it costs an exact marginal likelihood).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .em import EMIteration, StructuralEM

__all__ = ["EMProgress", "EMStatus", "EM_LOG", "EVERY", "reporting", "said"]

#: structural EM's progress lines (a child of ``engine.hidden``: whoever prints that log prints these)
EM_LOG = logging.getLogger("engine.hidden.em")
#: seconds between two progress lines on the log
EVERY = 5.0
#: the clock (a name of this module, so that a test can set the time)
_now = time.perf_counter


@dataclass(frozen=True)
class EMStatus:
    """Where a structural EM run is: in the M-step of ``iteration`` (``score`` None), or at its end."""

    iteration: int
    moves: int  # moves of this iteration's M-step so far
    score: float | None  # expected score after the iteration's E-step (None during the M-step)
    score_name: str
    n_edges: int | None
    seconds: float  # since the run started

    @property
    def text(self) -> str:
        """One line, e.g. ``iteration 2 done: 26 moves in its M-step, expected EBIC -175,524.2,
        3,416 edges; 8 s into this EM run``."""
        moves = f"{self.moves:,} move{'' if self.moves == 1 else 's'}"
        into = f"{self.seconds:.0f} s into this EM run"
        if self.score is None:
            return f"iteration {self.iteration}, structure search (M-step): {moves} so far; {into}"
        return (
            f"iteration {self.iteration} done: {moves} in its M-step, expected {self.score_name} "
            f"{self.score:,.1f}, {self.n_edges:,} edges; {into}"
        )


class _Sink:
    """Where statuses go and when the last one went (a status is said at most once every ``every`` s)."""

    def __init__(self, say: Callable[[EMStatus], None] | None, every: float) -> None:
        self.say, self.every, self.last = say, float(every), -float("inf")

    def listening(self) -> bool:
        return self.say is not None or EM_LOG.isEnabledFor(logging.INFO)

    def due(self, now: float) -> bool:
        return now - self.last >= self.every

    def tell(self, status: EMStatus, now: float) -> None:
        self.last = now
        if self.say is not None:
            self.say(status)
        else:
            EM_LOG.info(status.text)


#: the log's sink: its clock is shared by every run of the process, and reset by :func:`said`
_LOG = _Sink(None, EVERY)
_SINK: ContextVar[_Sink | None] = ContextVar("em_progress_sink", default=None)


def said() -> None:
    """Another line was just logged (the hidden-variable search's): the next EM line waits ``EVERY`` s."""
    _LOG.last = _now()


@contextmanager
def reporting(say: Callable[[EMStatus], None], every: float = 1.0) -> Iterator[None]:
    """Within the block, every structural EM run in this context tells ``say(EMStatus)`` where it
    is, at most once every ``every`` seconds (instead of logging it)."""
    token = _SINK.set(_Sink(say, every))
    try:
        yield
    finally:
        _SINK.reset(token)


class EMProgress:
    """Told by one :meth:`StructuralEM.run <engine.hidden.em.StructuralEM.run>`: :meth:`move` after
    each move of an M-step (a stepper callback), :meth:`iteration` after each iteration."""

    def __init__(self, em: StructuralEM) -> None:
        self.score_name = em.score_choice.name.upper()
        self.sink = _SINK.get() or _LOG
        self.start = _now()
        if self.start - self.sink.last > self.sink.every:  # quiet for a while before: count from here
            self.sink.last = self.start
        self.k, self.moves = 1, 0

    def move(self, intermediate_result=None) -> None:
        """One more move in the M-step of the current iteration."""
        self.moves += 1
        now = _now()
        if self.sink.due(now) and self.sink.listening():
            self.sink.tell(EMStatus(self.k, self.moves, None, self.score_name, None, now - self.start), now)

    def iteration(self, rec: EMIteration) -> None:
        """Iteration ``rec.iteration`` ended (M-step and E-step)."""
        now = _now()
        if self.sink.due(now) and self.sink.listening():
            status = EMStatus(
                rec.iteration, rec.moves, rec.expected_bic, self.score_name, rec.n_edges, now - self.start
            )
            self.sink.tell(status, now)
        self.k, self.moves = rec.iteration + 1, 0
