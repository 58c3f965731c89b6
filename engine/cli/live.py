"""The hidden-variable search's lines on stderr as they happen, with long name lists capped.

The engine logs each line of ``hidden_log_`` on the ``engine.hidden`` logger when it is said
(:data:`engine.learn_em.HIDDEN_LOG`), and inside a long structural EM run a line now and then on
``engine.hidden.em`` (:mod:`engine.hidden.em_progress`); :func:`hidden_lines` prints both for the
time of one ``learn``, so that a search of minutes is not silent until its end. A line naming a cluster of
hundreds of genes is capped to its first :data:`SHOWN_NAMES` names and ``... and N more`` (the
JSON and ``hidden_log_`` keep every name), and scores get thousands separators like the CLI's
other lines.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterator
from contextlib import contextmanager

from ..hidden.considered import SHOWN_NAMES
from ..listing import first_few
from .output import say

__all__ = ["cap_lists", "readable", "hidden_lines", "SHOWN_NAMES"]

#: a comma-separated list of more than SHOWN_NAMES names (no spaces, commas, semicolons or brackets in a name;
#: a name does not start with a dot, so an engine's own '..., ... and 3 more' is left as it is)
_NAME = r"[^\s,();.][^\s,();]*"
_LIST = re.compile(_NAME + "(?:, " + _NAME + "){" + str(SHOWN_NAMES) + ",}")


def cap_lists(text: str, limit: int = SHOWN_NAMES) -> str:
    """``text`` with every comma-separated list of more than ``limit`` names cut to its first
    ``limit`` and ``... and N more``."""

    def cut(match: re.Match) -> str:
        return first_few(match.group(0).split(", "), limit, ellipsis=True)

    return _LIST.sub(cut, text)


#: a score with decimals and at least four digits before the point, not part of a name
_SCORE = re.compile(r"(?<![\w.,])(\d{4,})(?=\.\d)")


def readable(text: str) -> str:
    """``text`` as the CLI writes numbers and lists: name lists capped (:func:`cap_lists`) and
    scores with thousands separators (``-87926.15`` -> ``-87,926.15``, as in the ``done:`` line)."""
    return _SCORE.sub(lambda m: f"{int(m.group(1)):,}", cap_lists(text))


class _Say(logging.Handler):
    def emit(self, record: logging.LogRecord) -> None:
        # structural EM's progress inside one run logs on the child logger engine.hidden.em
        what = "structural EM" if record.name.endswith(".em") else "hidden variables"
        say(f"  - {what}: {readable(record.getMessage())}")


@contextmanager
def hidden_lines() -> Iterator[None]:
    """Print the ``engine.hidden`` log on stderr (through :func:`~.output.say`, so ``--quiet``
    silences it) while the block runs, and only there (not also through the root logger); with it
    the ``engine.hidden.em`` lines, where a structural EM run is now and then
    (:mod:`engine.hidden.em_progress`)."""
    from ..learn_em import HIDDEN_LOG

    handler = _Say()
    old = HIDDEN_LOG.level, HIDDEN_LOG.propagate
    HIDDEN_LOG.addHandler(handler)
    HIDDEN_LOG.setLevel(logging.INFO)
    HIDDEN_LOG.propagate = False
    try:
        yield
    finally:
        HIDDEN_LOG.removeHandler(handler)
        HIDDEN_LOG.setLevel(old[0])
        HIDDEN_LOG.propagate = old[1]
