"""What the command line writes: strict JSON results, one-line messages and warnings, progress.

Results go to stdout (or ``--out``) as strict JSON; notes, warnings, progress and errors go to stderr,
each on one line, so ``python -m engine learn data.csv > result.json`` keeps the JSON clean.
"""

from __future__ import annotations

import json
import math
import os
import sys
import time
from typing import Any

__all__ = [
    "dumps",
    "finite",
    "say",
    "QUIET",
    "one_line",
    "show_warning",
    "describe_score",
    "edge_summary",
    "Progress",
    "BootstrapProgress",
    "PROGRESS_EVERY",
    "REFRESH_S",
]

#: how often (in moves) the progress is reported when stderr is not a terminal
PROGRESS_EVERY = 20
#: on a terminal the progress line is redrawn at most this often (seconds)
REFRESH_S = 0.1


def finite(obj: Any) -> Any:
    """A JSON-ready copy of ``obj``: non-finite floats (NaN, inf) become None, numpy values plain Python."""
    if isinstance(obj, bool) or obj is None or isinstance(obj, (int, str)):
        return obj
    if isinstance(obj, float):
        return obj if math.isfinite(obj) else None
    if isinstance(obj, dict):
        return {str(k): finite(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple, set, frozenset)):
        return [finite(v) for v in obj]
    if hasattr(obj, "tolist") and callable(obj.tolist):  # numpy arrays and scalars
        return finite(obj.tolist())
    if isinstance(obj, os.PathLike):
        return os.fspath(obj)
    return str(obj)


def dumps(obj: Any) -> str:
    """Strict JSON (``allow_nan=False``: no NaN/Infinity tokens that other parsers reject)."""
    return json.dumps(finite(obj), indent=2, allow_nan=False)


#: ``--quiet``: stderr carries errors only (set by :func:`engine.cli.main` for one run)
QUIET = {"on": False}


def say(message: str) -> None:
    """One line on stderr (with ``--quiet``, only an ``error:`` line)."""
    if QUIET["on"] and not message.startswith("error:"):
        return
    sys.stderr.write(message + "\n")
    sys.stderr.flush()


def one_line(text: object) -> str:
    """The message on one line (errors must be exactly one ``error:`` line)."""
    return " ".join(str(text).split()) or "unknown error"


#: seconds after which the progress line adds an estimate of the time left
ETA_AFTER_S = 5.0
#: bootstrap progress written to a log (not a terminal): at least one line this often (seconds)
LOG_EVERY_S = 30.0


def _duration(seconds: float) -> str:
    """``42 s``, ``3 min 5 s`` or ``1 h 12 min``."""
    s = int(round(seconds))
    if s < 60:
        return f"{s} s"
    if s < 3600:
        return f"{s // 60} min {s % 60} s"
    return f"{s // 3600} h {(s % 3600) // 60} min"


def describe_score(choice) -> str:
    """One line naming a :class:`~engine.score.ScoreChoice`: the score, its parameters, the reason."""
    info = choice.score.describe()
    extra = f" (gamma {info['gamma']:g}, {info['n_candidates']} candidate parents)" if "gamma" in info else ""
    return f"{choice.name.upper()}{extra}, {choice.reason}"


#: edges listed on stderr after ``learn`` (the JSON has all of them)
SHOWN_EDGES = 10


def edge_summary(edges: list[dict], where: str, limit: int = SHOWN_EDGES) -> list[str]:
    """The learned edges for a person to read: the ``limit`` strongest (by ``strength`` when the edges
    carry it, else by ``|weight|``), one per line, and how many more are in ``where``."""
    if not edges:
        return ["no edges: the empty network scores best."]
    key = "strength" if all(isinstance(e.get("strength"), (int, float)) for e in edges) else "weight"
    ranked = sorted(edges, key=lambda e: -abs(e.get(key) or 0.0))
    shown = ranked[:limit]
    width = max(len(f"{e['parent']} -> {e['child']}") for e in shown)
    if key == "strength":  # nats the score loses without the edge, and the edge's weight beside it
        lines = ["edges, strongest first (strength: nats the score loses without the edge):"]
        lines += [
            f"  {e['parent'] + ' -> ' + e['child']:<{width}}  strength {e['strength']:9.2f}   weight {e['weight']:+.3f}"
            for e in shown
        ]
    else:
        lines = ["edges, largest |weight| first:"]
        lines += [f"  {e['parent'] + ' -> ' + e['child']:<{width}}  {e.get(key) or 0.0:+.3f}" for e in shown]
    if len(ranked) > limit:
        lines.append(f"  ... and {len(ranked) - limit:,} more in {where}")
    return lines


#: the warnings said in this run of the CLI (each is said once: e.g. absent regulators are noticed
#: by every step that reads the list)
SHOWN_WARNINGS: set[str] = set()


def show_warning(message, category, filename, lineno, file=None, line=None) -> None:
    """Warnings as ``warning: ...`` lines instead of Python's file:line + source echo, each once."""
    text = one_line(message)
    if text in SHOWN_WARNINGS:
        return
    SHOWN_WARNINGS.add(text)
    say(f"warning: {text}")


class Progress:
    """Progress on stderr driven by the search callback ``callback(intermediate_result=StepResult)``.

    On a terminal one line rewritten in place (``\\r``, at most every :data:`REFRESH_S` seconds);
    otherwise (a log file, CI) one line every :data:`PROGRESS_EVERY` moves. :meth:`done` writes the
    final line. Silent when ``quiet``.
    """

    def __init__(self, quiet: bool, stream=None) -> None:
        self.quiet = quiet
        self.stream = stream if stream is not None else sys.stderr
        try:
            self.tty = bool(self.stream.isatty())
        except (AttributeError, ValueError):
            self.tty = False
        self.count = 0
        self._start = time.monotonic()
        self._width = 0
        self._shown = -math.inf

    def line(self, r) -> str:
        """The progress line of step result ``r``; after :data:`ETA_AFTER_S` seconds it adds the
        time per move and an estimate of the time left: at least one move per family whose best
        move still improves the score (``r.n_open``), at the mean time per move so far."""
        text = f"step {r.n_iter:>5}  score {r.score:,.2f} nats  exact evaluations {r.n_exact:,}"
        elapsed = time.monotonic() - self._start
        if elapsed >= ETA_AFTER_S and self.count:
            per_move = elapsed / self.count
            left = getattr(r, "n_open", 0) * per_move
            text += f"  {per_move * 1000:,.0f} ms/move  ETA >= {_duration(left)}"
        return text

    def __call__(self, intermediate_result) -> None:
        if self.count == 0:
            self._start = time.monotonic()
        self.count += 1
        if self.quiet:
            return
        if self.tty:
            now = time.monotonic()
            if now - self._shown < REFRESH_S:
                return
            self._shown = now
            line = self.line(intermediate_result)
            pad = max(self._width - len(line), 0)
            self.stream.write("\r" + line + " " * pad)
            self.stream.flush()
            self._width = len(line)
        elif self.count % PROGRESS_EVERY == 0:
            self.stream.write(self.line(intermediate_result) + "\n")
            self.stream.flush()

    def done(self, message: str) -> None:
        if self.quiet:
            return
        if self.tty and self._width:  # the final line replaces the in-place progress line
            self.stream.write("\r" + " " * self._width + "\r")
        self.stream.write(message + "\n")
        self.stream.flush()

    def abort(self) -> None:
        """End the in-place line so that an error message starts on its own line."""
        if not self.quiet and self.tty and self._width:
            self.stream.write("\n")
            self.stream.flush()


class BootstrapProgress(Progress):
    """Bootstrap progress on stderr, driven by ``progress(outcome, n_done, n_total)``.

    On a terminal one line rewritten in place; otherwise a line every tenth of the replicates. A
    failed replicate is named at once, on its own line.
    """

    def __init__(self, quiet: bool, total: int, stream=None) -> None:
        super().__init__(quiet, stream)
        self.total = total
        self.failed = 0
        self.t0 = time.monotonic()
        self.first: float | None = None

    def __call__(self, outcome, n_done: int, n_total: int) -> None:  # type: ignore[override]
        self.count = n_done
        self.total = n_total
        if not outcome.ok:
            self.failed += 1
            self.abort()
            self._width = 0
            say(f"warning: replicate {outcome.index} failed: {one_line(outcome.error)}")
        if self.quiet:
            return
        now = time.monotonic()
        if self.first is None:  # timed from the first replicate: the cluster's start-up is not a replicate
            self.first = now
        rate = (now - self.first) / (n_done - 1) if n_done > 1 else None
        line = (
            f"replicates {n_done:>4}/{n_total}"
            + (f" ({self.failed} failed)" if self.failed else "")
            + f"  {now - self.t0:.1f} s"
            + (f", about {_duration(rate * (n_total - n_done))} left" if rate is not None and n_done < n_total else "")
        )
        if self.tty:
            if now - self._shown < REFRESH_S and n_done < n_total:
                return
            self._shown = now
            self.stream.write("\r" + line + " " * max(self._width - len(line), 0))
            self.stream.flush()
            self._width = len(line)
        elif n_done == n_total or n_done % max(1, n_total // 10) == 0 or now - self._shown >= LOG_EVERY_S:
            self._shown = now  # a log also hears of a long run every LOG_EVERY_S seconds, with its time left
            self.stream.write(line + "\n")
            self.stream.flush()
