"""Greedy structure search with Ideal Parent candidate selection (JMLR 2007 Algorithms 1 and 2).

* :mod:`.settings` :class:`SearchSettings`, the validated settings every front end builds;
* :mod:`.moves` operators, :class:`Move` and :class:`CandidateTable`;
* :mod:`.results` :class:`StepResult`, :class:`SearchResult`, :class:`RunStats`;
* :mod:`.constraints` required / forbidden edges, parent cap, legality of moves;
* :mod:`.selection` which candidates are scored exactly (ideal top K or greedy);
* :mod:`.stepper` :class:`Stepper`: propose, step, apply, undo;
* :mod:`.candidates` the table of every candidate move, for inspection;
* :mod:`.run` :class:`RunLoop`, the one run loop;
* :mod:`.exact` :func:`exact_search`, the exactly score-optimal DAG of a few variables (Silander &
  Myllymäki 2006), to measure how far a search ends from the optimum of its score.
"""

from .constraints import Constraints
from .exact import ExactResult, exact_families, exact_for_stepper, exact_search
from .moves import CandidateTable, Move, Operator
from .results import TERMINATION_MESSAGES, RunStats, SearchResult, StepResult
from .run import RunLoop
from .settings import SearchSettings
from .stepper import Stepper

__all__ = [
    "SearchSettings",
    "Operator",
    "Move",
    "CandidateTable",
    "StepResult",
    "SearchResult",
    "RunStats",
    "TERMINATION_MESSAGES",
    "Constraints",
    "Stepper",
    "RunLoop",
    "exact_search",
    "exact_for_stepper",
    "exact_families",
    "ExactResult",
]
