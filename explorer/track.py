"""One search of an explorer session: its stepper, move log and score trace, kept in step.

Every move a :class:`SearchTrack` applies or takes back updates the stepper, the log row and the
trace point together, so a run interrupted between two moves leaves a consistent state.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.search import Stepper, StepResult
from explorer import text

__all__ = ["SearchTrack"]


@dataclass
class SearchTrack:
    """One search of the session: its stepper, move log (one dict per move) and score trace."""

    stepper: Stepper
    log: list[dict] = field(default_factory=list)
    trace: list[tuple[int, float]] = field(default_factory=list)
    converged: bool = False

    def __post_init__(self) -> None:
        if not self.trace:
            self.trace = [(self.stepper.n_iter, self.stepper.score)]

    def step(self, names: list[str]) -> StepResult:
        """One move of this search, recorded in its log and trace."""
        res = self.stepper.step()
        self.converged = res.move is None
        if res.move is not None:
            self.log.append(text.move_record(self.stepper.n_iter, res.move, names, res.n_exact))
            self.trace.append((self.stepper.n_iter, res.score))
        return res

    def undo(self) -> None:
        """Take back this search's last move, with its log row and trace point."""
        self.stepper.undo()
        self.log.pop()
        self.trace.pop()
        self.converged = False
