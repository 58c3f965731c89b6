"""Command-line front end: ``python -m engine learn|score ...``.

``learn`` loads a table, runs the structure search (greedy or Ideal Parent; structural EM when
cells are missing or hidden variables are requested) and writes the learned network as JSON.
``score`` evaluates a saved network on data (held out, or refitted with ``--refit``).

Every error a user can cause ends the program with exit status 2 and one line ``error: ...`` on
stderr; no traceback. Progress goes to stderr, results to stdout or ``--out``.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path
from typing import Any

from .exceptions import IdealParentError

__all__ = ["main", "build_parser"]

VERSION = "0.1.0"


def _finite(obj: Any) -> Any:
    """Replace non-finite floats (NaN, inf) by None so the output is strict JSON."""
    if isinstance(obj, float):
        return obj if math.isfinite(obj) else None
    if isinstance(obj, dict):
        return {str(k): _finite(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [_finite(v) for v in obj]
    if hasattr(obj, "item") and callable(obj.item):  # numpy scalars
        return _finite(obj.item())
    return obj


class _Progress:
    """A one-line progress display on stderr driven by the search callback."""

    def __init__(self, quiet: bool) -> None:
        self.quiet = quiet
        self.tty = sys.stderr.isatty()
        self.count = 0

    def __call__(self, intermediate_result) -> None:
        self.count += 1
        if self.quiet:
            return
        r = intermediate_result
        line = f"step {r.n_iter:>5}  BIC {r.score:,.2f}  exact evaluations {r.n_exact:,}"
        if self.tty:
            sys.stderr.write("\r" + line)
            sys.stderr.flush()
        elif self.count % 20 == 0:
            sys.stderr.write(line + "\n")

    def done(self, message: str) -> None:
        if self.quiet:
            return
        if self.tty and self.count:
            sys.stderr.write("\n")
        sys.stderr.write(message + "\n")


def build_parser() -> argparse.ArgumentParser:
    """The argument parser (``learn`` and ``score`` sub-commands)."""
    parser = argparse.ArgumentParser(
        prog="python -m engine",
        description="Ideal Parent structure learning for continuous Bayesian networks "
        "(Elidan, Nachman & Friedman, JMLR 2007).",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {VERSION}")
    sub = parser.add_subparsers(dest="command", metavar="{learn,score}")

    data_opts = argparse.ArgumentParser(add_help=False)
    data_opts.add_argument("data", help="CSV/TSV/text/XLSX/Parquet file; first row = variable names")
    data_opts.add_argument("--transpose", action="store_true", help="variables are in rows (e.g. genes x conditions)")
    data_opts.add_argument(
        "--drop",
        nargs="+",
        default=[],
        metavar="COL",
        help="columns to leave out (e.g. a text column of condition names)",
    )

    learn = sub.add_parser(
        "learn",
        parents=[data_opts],
        help="learn a network from data",
        description="Learn a Bayesian network and print (or --out) its JSON.",
    )
    learn.add_argument(
        "--no-standardize",
        action="store_true",
        help="keep the original scale (default: each variable to mean 0, variance 1)",
    )
    learn.add_argument(
        "--method",
        choices=["ideal", "greedy"],
        default="ideal",
        help="ideal: score exactly only the top K candidates per family (default)",
    )
    learn.add_argument("--k", type=int, default=2, help="candidates per family scored exactly (default 2)")
    learn.add_argument("--measure", choices=["c1", "c2"], default="c2", help="ranking measure (default c2)")
    learn.add_argument(
        "--queue",
        choices=["shared", "per_operator"],
        default="shared",
        help="K shared by Add and Replace (the paper's Algorithm 2) or per operator",
    )
    learn.add_argument(
        "--cpd",
        choices=["linear", "sigmoid", "multiplicative"],
        default="linear",
        help="conditional distribution family (multiplicative needs positive data: use --no-standardize)",
    )
    learn.add_argument("--max-parents", type=int, default=None, metavar="P", help="parents per variable at most")
    learn.add_argument("--max-steps", type=int, default=None, metavar="N", help="stop after N moves")
    learn.add_argument(
        "--restarts", type=int, default=0, metavar="R", help="random restarts after convergence (default 0)"
    )
    learn.add_argument(
        "--hidden",
        choices=["none", "auto"],
        default="none",
        help="auto: add hidden variables while they improve the observed-data BIC",
    )
    learn.add_argument("--max-hidden", type=int, default=3, metavar="H", help="hidden variables at most (default 3)")
    learn.add_argument(
        "--two-layer", action="store_true", help="the paper's two-layer setting: hidden roots -> observed leaves only"
    )
    learn.add_argument("--seed", type=int, default=0, help="random seed (restarts, hidden-variable starts)")
    learn.add_argument("--out", metavar="FILE", help="write the JSON result here instead of stdout")
    learn.add_argument("--quiet", action="store_true", help="no progress on stderr")

    score = sub.add_parser(
        "score",
        parents=[data_opts],
        help="score a saved network on data",
        description="Log-likelihood and BIC of DATA under a saved network (JSON).",
    )
    score.add_argument("--model", required=True, metavar="RESULT.json", help="a result written by learn")
    score.add_argument("--refit", action="store_true", help="refit the parameters on DATA first")
    return parser


def _learn(args: argparse.Namespace) -> int:
    from .data import load_table
    from .learn import IdealParentSearch

    dataset = load_table(args.data, transpose=args.transpose, standardize=not args.no_standardize, drop=args.drop)
    progress = _Progress(args.quiet)
    if not args.quiet:
        sys.stderr.write(f"{dataset.source}: {dataset.summary()}\n")
        for note in dataset.notes:
            sys.stderr.write(f"  - {note}\n")
    est = IdealParentSearch(
        method=args.method,
        k=args.k,
        measure=args.measure,
        queue=args.queue,
        max_parents=args.max_parents,
        cpd=args.cpd,
        max_iter=args.max_steps,
        n_restarts=args.restarts,
        hidden=None if args.hidden == "none" else args.hidden,
        max_hidden=args.max_hidden,
        two_layer=args.two_layer,
        random_state=args.seed,
    )
    est.fit(dataset, callback=progress)
    result = est.network_.to_dict()
    result["settings"].update(
        {
            "data": Path(args.data).name,
            "transpose": bool(args.transpose),
            "standardize": not args.no_standardize,
            "drop": list(args.drop),
            "seed": args.seed,
        }
    )
    text = json.dumps(_finite(result), indent=2)
    if args.out:
        Path(args.out).write_text(text + "\n")
    else:
        sys.stdout.write(text + "\n")
    s = est.stats_
    progress.done(
        f"done: {s['steps']} moves, {len(result['edges'])} edges, BIC {result['score']['bic']:,.2f} nats, "
        f"{s['exact_evaluations']:,} exact evaluations, {s['seconds']:.2f} s"
        + (f"; written to {args.out}" if args.out else "")
    )
    return 0


def _score(args: argparse.Namespace) -> int:
    from .data import load_table
    from .exceptions import ModelError
    from .network import LearnedNetwork

    path = Path(args.model)
    try:
        spec = json.loads(path.read_text())
    except FileNotFoundError:
        raise ModelError(f"{path.name}: model file not found.") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ModelError(f"{path.name}: not a JSON model file ({exc.__class__.__name__}).") from None
    if not isinstance(spec, dict):
        raise ModelError(f"{path.name}: not a model file written by this tool.")
    network = LearnedNetwork.from_dict(spec)
    dataset = load_table(args.data, transpose=args.transpose, standardize=False, drop=args.drop)
    out = network.evaluate(dataset, refit=args.refit)
    sys.stdout.write(json.dumps(_finite(out), indent=2) + "\n")
    return 0


def main(argv: list[str] | None = None) -> int:
    """Run the CLI; returns the exit status (0 ok, 2 bad input, 130 interrupted)."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help(sys.stderr)
        return 2
    try:
        if args.command == "learn":
            return _learn(args)
        return _score(args)
    except IdealParentError as exc:
        sys.stderr.write(f"error: {exc}\n")
        return 2
    except KeyboardInterrupt:
        sys.stderr.write("error: interrupted\n")
        return 130
    except OSError as exc:
        sys.stderr.write(f"error: {exc.strerror or exc}: {getattr(exc, 'filename', '') or ''}\n")
        return 2


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
