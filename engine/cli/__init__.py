"""Command-line front end: ``python -m engine learn|score|bootstrap ...`` (also installed as ``ideal-parent``).

``learn`` loads a table, runs the structure search (greedy or Ideal Parent; structural EM when
cells are missing or hidden variables are requested) and writes the learned network as JSON.
``score`` evaluates a saved network on data (held out, or refitted with ``--refit``).
``bootstrap`` relearns on resampled data in parallel on Dask and writes edge and regulator confidence.

Every error a user can cause ends the program with exit status 2 (130 when interrupted) and one
line ``error: ...`` on stderr; no traceback. Notes and progress go to stderr, results to stdout or
``--out``, so ``python -m engine learn data.csv > result.json`` keeps the JSON clean.
"""

from __future__ import annotations

import os
import sys
import warnings
from pathlib import Path

from ..exceptions import IdealParentError
from .commands import bootstrap, learn, score
from .output import QUIET, SHOWN_WARNINGS, Progress, one_line, say, show_warning
from .parser import VERSION, build_parser

__all__ = ["main", "build_parser", "VERSION"]


def main(argv: list[str] | None = None) -> int:
    """Run the CLI with ``argv`` (default ``sys.argv[1:]``); return the exit status.

    0: success (also ``--help`` and ``--version``); 1: ``bootstrap`` wrote its result but some replicates
    failed; 2: bad usage, data or model; 130: interrupted.
    """
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # --help, --version, usage errors: argparse has printed what is needed
        return exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 2)
    if args.command is None:
        parser.print_usage(sys.stderr)
        say(f"error: choose a command, 'learn', 'score' or 'bootstrap' (see '{parser.prog} --help').")
        return 2
    if args.data is None:
        drop = list(getattr(args, "drop", None) or [])
        if drop and Path(drop[-1]).is_file():
            # '--drop A B data.csv': argparse gave the file to --drop; it is DATA
            args.data, args.drop = drop[-1], drop[:-1]
        elif drop and Path(drop[-1]).suffix.lower() in {
            ".csv",
            ".tsv",
            ".txt",
            ".tab",
            ".xlsx",
            ".xls",
            ".parquet",
            ".gz",
        }:
            say(f"error: data file {drop[-1]!r} not found (it was given after --drop).")
            return 2
        else:
            say(f"error: the data file DATA is missing (see '{parser.prog} {args.command} --help').")
            return 2
    progress = Progress(getattr(args, "quiet", True))
    old_showwarning = warnings.showwarning
    warnings.showwarning = show_warning
    SHOWN_WARNINGS.clear()  # a new run of the CLI says its warnings again
    QUIET["on"] = bool(getattr(args, "quiet", False))  # quiet means quiet, except errors (#24)
    try:
        if args.command == "learn":
            return learn(args, progress)
        if args.command == "bootstrap":
            return bootstrap(args)
        return score(args)
    except IdealParentError as exc:
        progress.abort()
        say(f"error: {one_line(exc)}")
        return 2
    except KeyboardInterrupt:
        progress.abort()
        say("error: interrupted.")
        return 130
    except BrokenPipeError:
        # the reader of stdout went away (e.g. '| head'): stop quietly, without a second error at exit
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
        except (OSError, ValueError, AttributeError):
            pass
        return 1
    except OSError as exc:  # e.g. --out on a full disk
        progress.abort()
        where = f"{exc.filename}: " if getattr(exc, "filename", None) else ""
        say(f"error: {where}{one_line(exc.strerror or exc)}.")
        return 2
    finally:
        warnings.showwarning = old_showwarning
        QUIET["on"] = False
