"""A line on stderr while a bootstrap's replicates run and none has finished for a while.

``bootstrap`` says how far it is as replicates finish (:class:`engine.cli.output.BootstrapProgress`).
Each replicate learns the whole network, with ``--hidden auto`` a whole hidden-variable search, so
minutes can pass before the first one ends (and before the time left can be estimated) with nothing
on stderr. :func:`still_running` says, every :data:`TICK_S` seconds of silence, that the run goes on
and how long it has taken. Only says things; it never touches the run.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Iterator

from .output import BootstrapProgress

__all__ = ["still_running", "TICK_S"]

#: seconds of silence after which the bootstrap says it is still running
TICK_S = 30.0


def _line(progress: BootstrapProgress, now: float) -> str:
    done = progress.count
    wait = "none has finished yet, the time left is estimated once one has" if not done else "still running"
    return f"replicates {done:>4}/{progress.total}  {now - progress.t0:.1f} s: {wait}"


@contextlib.contextmanager
def still_running(progress: BootstrapProgress, every: float = TICK_S) -> Iterator[None]:
    """While the block runs, write :func:`_line` after every ``every`` seconds in which ``progress``
    wrote nothing (silent when ``progress.quiet``)."""
    stop = threading.Event()
    last = [time.monotonic()]

    def tick() -> None:
        while not stop.wait(min(every, 1.0)):
            now = time.monotonic()
            spoke = max(progress._shown, last[0])
            if now - spoke < every:
                continue
            last[0] = now
            if progress.tty:
                line = _line(progress, now)
                progress.stream.write("\r" + line + " " * max(progress._width - len(line), 0))
                progress._width = len(line)
            else:
                progress.stream.write(_line(progress, now) + "\n")
            progress.stream.flush()

    thread = None
    if not progress.quiet:
        thread = threading.Thread(target=tick, name="bootstrap-still-running", daemon=True)
        thread.start()
    try:
        yield
    finally:
        stop.set()
        if thread is not None:
            thread.join(timeout=2.0)
