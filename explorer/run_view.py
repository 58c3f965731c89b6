"""What the Search page draws while a long run is in progress.

A run to convergence is cut into chunks of :data:`~explorer.state.CHUNK_SECONDS` of search, and the
Search page's panel is drawn again after every chunk. Drawn whole, the move log and the score trace
grow with the moves made, so the drawing's cost per chunk grows with them and the run's cost with
their square: on the *E. coli* PRECISE table (3,923 genes x 278 conditions) a run reached 6,790
moves in 10.7 min of wall time for 41.6 s of search, and a full table converges after 30,000-60,000
moves (the *B. subtilis* one after 63,894), where the log's table and the trace's figure alone cost
~0.9 s of CPU a chunk, twice the chunk. While a run goes on the page shows the log's last
:data:`LOG_TAIL` moves and the trace thinned to :data:`TRACE_POINTS` points; both come back whole
when the run ends or is stopped. Nothing here computes a score: the rows and points are the
engine's, only fewer of them are drawn.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

__all__ = ["LOG_TAIL", "TRACE_POINTS", "log_shown", "tail_caption", "thin_trace"]

#: moves of the log drawn while a run is in progress (the newest)
LOG_TAIL = 200
#: points of each score trace drawn while a run is in progress (the first, the last, evenly between)
TRACE_POINTS = 1000


def log_shown(log: Sequence[dict], running: bool) -> Sequence[dict]:
    """The log rows to draw: all of them, or the last :data:`LOG_TAIL` while a run goes on."""
    return log[-LOG_TAIL:] if running and len(log) > LOG_TAIL else log


def tail_caption(n_moves: int) -> str:
    """Says that the log is cut while the run goes on, and when it comes back whole."""
    return (
        f"While the search runs the log shows its last {LOG_TAIL} moves of {n_moves:,}; the whole log "
        "comes back when the run ends or you press Stop."
    )


def thin_trace(trace: Sequence[tuple[int, float]], max_points: int = TRACE_POINTS) -> list[tuple[int, float]]:
    """At most ``max_points`` of a trace of (step, score) pairs: the first, the last and evenly spaced
    steps between them, each pair as it is (no value is averaged or moved)."""
    n = len(trace)
    if n <= max_points:
        return list(trace)
    keep = np.unique(np.linspace(0, n - 1, max(2, max_points)).round().astype(int))
    return [trace[i] for i in keep]
