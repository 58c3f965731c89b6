"""What a search reports: one step's result, a whole run's result, and the run statistics.

The shapes follow SciPy's ``OptimizeResult``: an integer ``status`` whose ``message`` comes from
:data:`TERMINATION_MESSAGES` and ``success`` derived from it, plus counters. The counters are
kept once, in :class:`RunStats`, whose field names are the CLI JSON's ``stats`` keys.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import asdict, dataclass, field

from .moves import Move

__all__ = ["TERMINATION_MESSAGES", "StepResult", "SearchResult", "RunStats"]

TERMINATION_MESSAGES = {
    0: "A move was applied.",
    1: "Converged: no legal move improves the score.",
    2: "Stopped after the requested number of steps.",
    -2: "Stopped by the callback.",
}


class _Status:
    """SciPy-style ``message`` and ``success`` derived from ``status``."""

    status: int

    @property
    def message(self) -> str:
        return TERMINATION_MESSAGES[self.status]

    @property
    def success(self) -> bool:
        return self.status >= 0


@dataclass
class _Outcome(_Status):
    """The search's state and counters when a step or a run ended: BIC and log-likelihood (nats),
    moves taken, exact evaluations, ranked candidates, seconds inside the search, and status."""

    score: float
    loglik: float
    n_iter: int
    n_exact: int
    n_ranked: int
    elapsed_s: float
    status: int


@dataclass
class StepResult(_Outcome):
    """Outcome of one :meth:`~engine.search.Stepper.step` (SciPy-style status and message):
    the move applied (None at convergence), the number of candidates last listed, and
    ``n_open``, the families whose best move still improved the score when last ranked (a lower
    bound on the moves left, used for progress estimates)."""

    move: Move | None = None
    n_candidates: int = 0
    n_open: int = 0


@dataclass
class SearchResult(_Outcome):
    """Outcome of a run (:meth:`~engine.search.Stepper.run`, :class:`~engine.search.RunLoop`):
    the edges reached and the moves taken."""

    edges: list[tuple[int, int]] = field(default_factory=list)
    history: list[Move] = field(default_factory=list)

    @property
    def converged(self) -> bool:
        return self.status == 1

    def stats(self) -> RunStats:
        """The run's counters as :class:`RunStats`."""
        return RunStats.of(self, converged=self.converged, message=self.message)


@dataclass(eq=False)
class RunStats(Mapping):
    """Counters of a learning run, named as the CLI JSON's ``stats`` keys.

    ``steps`` moves taken; ``exact_evaluations`` candidate families scored exactly (the paper's
    measure of search cost, JMLR 2007 section 9); ``ranked_candidates`` candidates ranked by
    C1/C2; ``seconds`` time inside the search; ``converged`` whether it ended because no move
    improves the score; ``message`` how it ended; ``em_iterations`` structural EM iterations
    (None when EM did not run). It is also a read-only mapping of :meth:`to_dict` (``stats["steps"]``,
    ``dict(stats)``, ``stats.get(...)``), as SciPy's result objects are.
    """

    steps: int
    exact_evaluations: int
    ranked_candidates: int
    seconds: float
    converged: bool
    message: str | None = None
    em_iterations: int | None = None

    @classmethod
    def of(cls, search, *, converged: bool, message: str | None = None) -> RunStats:
        """The counters of a search state or result (a :class:`~engine.search.Stepper`,
        :class:`SearchResult`: anything with SciPy-style ``n_iter``, ``n_exact``, ``n_ranked`` and
        ``elapsed_s``) under their JSON names."""
        return cls(
            steps=search.n_iter,
            exact_evaluations=search.n_exact,
            ranked_candidates=search.n_ranked,
            seconds=search.elapsed_s,
            converged=converged,
            message=message,
        )

    def to_dict(self) -> dict:
        """JSON-friendly dict; ``message`` and ``em_iterations`` only when set."""
        return {k: v for k, v in asdict(self).items() if v is not None or k not in ("message", "em_iterations")}

    def __getitem__(self, key: str):
        return self.to_dict()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self.to_dict())

    def __len__(self) -> int:
        return len(self.to_dict())
