"""One search of an explorer session: its stepper, move log and score trace, kept in step.

Every move a :class:`SearchTrack` applies or takes back updates the stepper, the log row and the
trace point together, so a run interrupted between two moves leaves a consistent state.

The work counters the Search page shows (exact evaluations, ranked candidates, search time) describe
the network shown: the stepper's totals less the work of the moves Undo took back (:attr:`SearchTrack.undone`,
said in a line of its own). The stepper keeps counting everything; the scores of an undone move stay
cached, so stepping forward again costs little.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field, fields

from engine.search import Stepper, StepResult
from explorer import text

__all__ = ["SearchTrack", "Work"]

_TRACKS = itertools.count(1)


@dataclass(frozen=True)
class Work:
    """A search's work counters: exact evaluations, ranked candidates, search time (s)."""

    n_exact: int = 0
    n_ranked: int = 0
    elapsed_s: float = 0.0

    @classmethod
    def of(cls, stepper: Stepper) -> Work:
        """The stepper's totals so far."""
        return cls(stepper.n_exact, stepper.n_ranked, stepper.elapsed_s)

    def __add__(self, other: Work) -> Work:
        return Work(*(getattr(self, f.name) + getattr(other, f.name) for f in fields(self)))

    def __sub__(self, other: Work) -> Work:
        return Work(*(getattr(self, f.name) - getattr(other, f.name) for f in fields(self)))


@dataclass
class SearchTrack:
    """One search of the session: its stepper, move log (one dict per move) and score trace."""

    stepper: Stepper
    log: list[dict] = field(default_factory=list)
    trace: list[tuple[int, float]] = field(default_factory=list)
    converged: bool = False
    #: the stepper's totals after each move of the log (the first: when the track began)
    work: list[Work] = field(default_factory=list)
    #: the work of the moves Undo took back, and how many
    undone: Work = Work()
    n_undone: int = 0
    #: unique per track: keys what was built for this search (an Undo that reinstalls it finds it again)
    serial: int = field(default_factory=lambda: next(_TRACKS), compare=False)

    def __post_init__(self) -> None:
        if not self.trace:
            self.trace = [(self.stepper.n_iter, self.stepper.score)]
        if not self.work:
            self.work = [Work.of(self.stepper)]

    @property
    def shown_work(self) -> Work:
        """The work that reached the network shown: the totals less the undone moves' work."""
        return Work.of(self.stepper) - self.undone

    def step(self, names: list[str]) -> StepResult:
        """One move of this search, recorded in its log and trace."""
        res = self.stepper.step()
        self.converged = res.move is None
        if res.move is not None:
            self.log.append(text.move_record(self.stepper.n_iter, res.move, names, res.n_exact))
            self.trace.append((self.stepper.n_iter, res.score))
            self.work.append(Work.of(self.stepper))
        return res

    def undo(self) -> None:
        """Take back this search's last move, with its log row and trace point."""
        self.stepper.undo()
        self.log.pop()
        self.trace.pop()
        self.converged = False
        if len(self.work) > 1:  # what that move cost (the ranking that chose it included)
            self.undone += self.work.pop() - self.work[-1]
            self.n_undone += 1
