"""Command-line front end: ``python -m engine learn|score ...`` (also installed as ``ideal-parent``).

``learn`` loads a table, runs the structure search (greedy or Ideal Parent; structural EM when
cells are missing or hidden variables are requested) and writes the learned network as JSON.
``score`` evaluates a saved network on data (held out, or refitted with ``--refit``).

Every error a user can cause ends the program with exit status 2 (130 when interrupted) and one
line ``error: ...`` on stderr; no traceback. Notes and progress go to stderr, results to stdout or
``--out``, so ``python -m engine learn data.csv > result.json`` keeps the JSON clean.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time
import warnings
from pathlib import Path
from typing import Any

from .exceptions import DataValidationError, IdealParentError, ModelError

__all__ = ["main", "build_parser", "VERSION"]


def _version() -> str:
    try:
        from importlib.metadata import PackageNotFoundError, version

        return version("ideal-parent-explorer")
    except (ImportError, PackageNotFoundError):  # running from a source tree that is not installed
        return "0.1.0"


VERSION = _version()

#: how often (in moves) the progress is reported when stderr is not a terminal
PROGRESS_EVERY = 20
#: on a terminal the progress line is redrawn at most this often (seconds)
REFRESH_S = 0.1


# ------------------------------------------------------------------------------------------ output
def _finite(obj: Any) -> Any:
    """A JSON-ready copy of ``obj``: non-finite floats (NaN, inf) become None, numpy values plain Python."""
    if isinstance(obj, bool) or obj is None or isinstance(obj, (int, str)):
        return obj
    if isinstance(obj, float):
        return obj if math.isfinite(obj) else None
    if isinstance(obj, dict):
        return {str(k): _finite(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple, set, frozenset)):
        return [_finite(v) for v in obj]
    if hasattr(obj, "tolist") and callable(obj.tolist):  # numpy arrays and scalars
        return _finite(obj.tolist())
    if isinstance(obj, os.PathLike):
        return os.fspath(obj)
    return str(obj)


def _dumps(obj: Any) -> str:
    """Strict JSON (``allow_nan=False``: no NaN/Infinity tokens that other parsers reject)."""
    return json.dumps(_finite(obj), indent=2, allow_nan=False)


def _say(message: str) -> None:
    sys.stderr.write(message + "\n")
    sys.stderr.flush()


def _one_line(text: object) -> str:
    """The message on one line (errors must be exactly one ``error:`` line)."""
    return " ".join(str(text).split()) or "unknown error"


def _show_warning(message, category, filename, lineno, file=None, line=None) -> None:
    """Warnings as ``warning: ...`` lines instead of Python's file:line + source echo."""
    _say(f"warning: {_one_line(message)}")


class _Progress:
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
        self._width = 0
        self._shown = -math.inf

    @staticmethod
    def line(r) -> str:
        return f"step {r.n_iter:>5}  BIC {r.score:,.2f} nats  exact evaluations {r.n_exact:,}"

    def __call__(self, intermediate_result) -> None:
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


# ------------------------------------------------------------------------------------------ parser
class _Parser(argparse.ArgumentParser):
    """argparse with one-line errors: ``error: <message> (see '<prog> --help')``, exit status 2."""

    def error(self, message: str):  # type: ignore[override]
        self.exit(2, f"error: {_one_line(message)} (see '{self.prog} --help')\n")


def _int_at_least(lo: int):
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
        if value < lo:
            raise argparse.ArgumentTypeError(f"must be >= {lo}, got {value}")
        return value

    parse.__name__ = f"integer >= {lo}"
    return parse


_EPILOG = """\
examples:
  python -m engine learn data.csv --out result.json
  python -m engine learn genes_x_conditions.tsv --transpose --drop description --k 4
  python -m engine learn data.csv --method greedy --max-parents 3 > greedy.json
  python -m engine score heldout.csv --model result.json
  python -m engine score data.csv --model result.json --refit

Data: one row per instance and one column per variable, first row = variable names (CSV, TSV,
whitespace text, XLSX, Parquet). A leading text column of unique labels is taken as row labels.
Errors: exit status 2 and one line 'error: ...' on stderr (130 when interrupted).
"""


def build_parser() -> argparse.ArgumentParser:
    """The argument parser (``learn`` and ``score`` sub-commands)."""
    parser = _Parser(
        prog="python -m engine",
        description="Ideal Parent structure learning for continuous Bayesian networks "
        "(Elidan, Nachman & Friedman, JMLR 8:1799-1833, 2007). 'learn' finds a network's structure "
        "and parameters and writes them as JSON; 'score' evaluates a saved network on data.",
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {VERSION}")
    sub = parser.add_subparsers(dest="command", metavar="{learn,score}", parser_class=_Parser)

    data_opts = _Parser(add_help=False)
    data_opts.add_argument(
        "data",
        metavar="DATA",
        nargs="?",  # checked in main(): '--drop A B data.csv' puts DATA at the end of the --drop list
        help="CSV/TSV/text/XLSX/Parquet file; first row = variable names, one row per instance",
    )
    data_opts.add_argument(
        "--transpose",
        action="store_true",
        help="variables are in rows and instances in columns (e.g. genes x conditions)",
    )
    data_opts.add_argument(
        "--drop",
        nargs="+",
        action="extend",
        default=[],
        metavar="COL",
        help="columns of the file to leave out, e.g. a text column of descriptions; with --transpose also "
        "variables (rows of the file), e.g. a constant gene",
    )

    learn = sub.add_parser(
        "learn",
        usage="python -m engine learn DATA [options]",
        parents=[data_opts],
        help="learn a network from data and write it as JSON",
        description="Learn a Bayesian network by greedy hill climbing (Add, Delete, Reverse, Replace) scored by "
        "BIC, with Ideal Parent candidate selection by default, and print (or --out) the result as JSON: "
        "variables, edges, families with fitted parameters, score (total BIC and log-likelihood in nats on "
        "the data as loaded), search statistics, settings and the standardization applied. Notes about how "
        "the data were read, and progress, go to stderr.",
        epilog="Missing cells are handled by structural EM (linear-Gaussian CPDs; other CPDs search on the "
        "EM-completed data, see 'missing_values' in the result).",
    )
    learn.add_argument(
        "--no-standardize",
        action="store_true",
        help="keep the original scale (default: each variable is standardized to mean 0, variance 1; the "
        "transform is stored in the result and re-applied by 'score')",
    )
    learn.add_argument(
        "--method",
        choices=["ideal", "greedy"],
        default="ideal",
        help="ideal: score exactly only the top K Add/Replace candidates per family ranked by the ideal-parent "
        "measure (the paper's Algorithm 2, default); greedy: score every candidate exactly (Algorithm 1)",
    )
    learn.add_argument(
        "--k", type=_int_at_least(1), default=2, metavar="K", help="candidates per family scored exactly (default 2)"
    )
    learn.add_argument(
        "--measure",
        choices=["c1", "c2"],
        default="c2",
        help="ideal-parent similarity measure used for ranking (default c2, the tighter one)",
    )
    learn.add_argument(
        "--queue",
        choices=["shared", "per_operator"],
        default="shared",
        help="shared: K candidates shared by Add and Replace (the paper's Algorithm 2, default); "
        "per_operator: K for each",
    )
    learn.add_argument(
        "--cpd",
        choices=["linear", "sigmoid", "multiplicative"],
        default="linear",
        help="conditional distribution family (default linear Gaussian; multiplicative needs positive data: "
        "use --no-standardize)",
    )
    learn.add_argument(
        "--no-correction",
        action="store_true",
        help="sigmoid CPD: rank candidates without Theorem 7.1's k1/k2 correction",
    )
    learn.add_argument(
        "--max-parents",
        type=_int_at_least(0),
        default=None,
        metavar="P",
        help="parents per variable at most (default: no limit)",
    )
    learn.add_argument(
        "--max-steps", type=_int_at_least(0), default=None, metavar="N", help="stop after N moves (default: converge)"
    )
    learn.add_argument(
        "--restarts",
        type=_int_at_least(0),
        default=0,
        metavar="R",
        help="random restarts after convergence; stop after R in a row that do not improve (default 0)",
    )
    learn.add_argument(
        "--hidden",
        choices=["none", "auto"],
        default="none",
        help="auto: add hidden variables while they improve the observed-data BIC (structural EM)",
    )
    learn.add_argument(
        "--max-hidden", type=_int_at_least(0), default=3, metavar="H", help="hidden variables at most (default 3)"
    )
    learn.add_argument(
        "--two-layer", action="store_true", help="the paper's two-layer setting: hidden roots -> observed leaves only"
    )
    learn.add_argument(
        "--seed", type=int, default=0, metavar="S", help="random seed (restarts, hidden-variable starts; default 0)"
    )
    learn.add_argument("--out", metavar="FILE", help="write the JSON result to FILE instead of stdout")
    learn.add_argument(
        "--quiet",
        action="store_true",
        help="no progress display on stderr (the notes on how the data were read are still shown)",
    )

    score = sub.add_parser(
        "score",
        usage="python -m engine score DATA --model RESULT.json [options]",
        parents=[data_opts],
        help="score a saved network on data",
        description="Log-likelihood and BIC (nats) of DATA under a network saved by 'learn'. DATA is read on "
        "its original scale; the model's stored standardization is applied to it. Without --refit the saved "
        "parameters are used as they are (held-out evaluation); with --refit every family is refitted on "
        "DATA first (structure fixed). Prints JSON: loglik, loglik_per_instance_per_variable, bic, units, "
        "n_samples, refit.",
    )
    score.add_argument("--model", required=True, metavar="RESULT.json", help="a result written by 'learn'")
    score.add_argument("--refit", action="store_true", help="refit the parameters on DATA first")
    return parser


# ---------------------------------------------------------------------------------------- commands
def _check_out(path: str | None, data: str | None = None) -> None:
    """Fail before a long search, not after it, when --out cannot be written."""
    if not path:
        return
    p = Path(path)
    if p.is_dir():
        raise DataValidationError(f"--out {path}: is a folder, not a file.")
    if data is not None and p.exists() and Path(data).exists() and p.resolve() == Path(data).resolve():
        raise DataValidationError(f"--out {path}: is the data file itself; choose another name for the result.")
    parent = p.parent if str(p.parent) else Path(".")
    if not parent.is_dir():
        raise DataValidationError(f"--out {path}: folder {str(parent)!r} does not exist.")
    if not os.access(p if p.exists() else parent, os.W_OK):
        raise DataValidationError(f"--out {path}: not writable.")


def _learn(args: argparse.Namespace, progress: _Progress) -> int:
    from .io import load_table
    from .learn import IdealParentSearch

    _check_out(args.out, args.data)
    dataset = load_table(args.data, transpose=args.transpose, standardize=not args.no_standardize, drop=args.drop)
    _say(f"{dataset.source}: {dataset.summary()}")
    for note in dataset.notes:
        _say(f"  - {note}")
    if dataset.n_vars > dataset.n_samples and args.max_parents is None:
        _say(
            f"warning: more variables ({dataset.n_vars}) than instances ({dataset.n_samples}): families can fit "
            "the data almost exactly and the search may run very long; consider --max-parents"
            + ("" if args.transpose else " or --transpose")
            + "."
        )
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
        correction=not args.no_correction,
    )
    est.fit(dataset, callback=progress)
    net = est.network_
    result = net.to_dict()
    result["settings"] = dict(result.get("settings") or {})
    result["settings"].update(
        {
            "data": Path(args.data).name,
            "transpose": bool(args.transpose),
            "standardize": not args.no_standardize,
            "drop": list(args.drop),
            "seed": args.seed,
        }
    )
    if getattr(est, "result_", None) is not None:
        # the moves of the search, in order (stats.steps of them); structural EM has no single trace
        result["moves"] = [m.to_dict(net.variables) for m in est.history_]
    text = _dumps(result)
    if args.out:
        Path(args.out).write_text(text + "\n", encoding="utf-8")
    else:
        sys.stdout.write(text + "\n")
        sys.stdout.flush()
    s = est.stats_
    bic = result["score"]["bic"]
    bic_text = f"{bic:,.2f} nats" if isinstance(bic, (int, float)) and math.isfinite(bic) else "n/a"
    progress.done(
        f"done: {s['steps']} moves, {len(result['edges'])} edges, BIC {bic_text}, "
        f"{s['exact_evaluations']:,} exact evaluations, {s['seconds']:.2f} s"
        + (f"; written to {args.out}" if args.out else "")
    )
    return 0


def _read_model(path: Path) -> dict:
    name = path.name
    if not path.exists():
        raise ModelError(f"{name}: model file not found.")
    if path.is_dir():
        raise ModelError(f"{name}: is a folder, not a model file.")
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise ModelError(f"{name}: not a JSON model file (binary content).") from None
    except OSError as exc:
        raise ModelError(f"{name}: cannot be read ({exc.strerror or exc}).") from None
    try:
        spec = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ModelError(f"{name}: not a JSON model file ({exc.msg} at line {exc.lineno}).") from None
    except RecursionError:
        raise ModelError(f"{name}: not a JSON model file (nested too deeply).") from None
    if not isinstance(spec, dict) or "variables" not in spec or "families" not in spec:
        raise ModelError(f"{name}: not a model file written by 'learn' (needs 'variables' and 'families').")
    variables, families = spec["variables"], spec["families"]
    if not isinstance(variables, list) or not isinstance(families, dict):
        raise ModelError(f"{name}: 'variables' must be a list and 'families' an object.")
    absent = [str(v) for v in variables if str(v) not in families]
    if absent:
        raise ModelError(f"{name}: no family for variable(s) {', '.join(map(repr, absent[:6]))}.")
    return spec


def _number(value: Any, what: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise ModelError(f"{what} must be a finite number, got {value!r}.")
    return float(value)


def _check_model(net) -> None:
    """Checks :meth:`LearnedNetwork.from_dict` does not make (numbers, transform, acyclicity).

    Without them a hand-edited model could fail deep inside scoring with a KeyError/TypeError.
    """
    variables = list(net.variables)
    if len(set(variables)) != len(variables):
        raise ModelError("the model lists a variable twice.")
    hidden = set(net.hidden_names())
    for child, fam in net.families.items():
        for key, value in fam.params.items():
            if key == "coefficients":
                for p, w in value.items():
                    _number(w, f"family {child!r}: coefficient of {p!r}")
            elif key in {"intercept", "variance", "theta0", "theta1"}:
                _number(value, f"family {child!r}: {key}")
        if child in fam.parents:
            raise ModelError(f"family {child!r}: a variable cannot be its own parent.")
    # acyclic: repeatedly remove variables without remaining parents
    remaining = {c: set(net.families[c].parents) for c in variables}
    while remaining:
        roots = [c for c, ps in remaining.items() if not ps & remaining.keys()]
        if not roots:
            # drop the variables downstream of the cycle(s) too, to name only those on or between cycles
            while True:
                sinks = [c for c in remaining if not any(c in ps for ps in remaining.values())]
                if not sinks:
                    break
                for c in sinks:
                    del remaining[c]
            among = ", ".join(map(repr, sorted(remaining)))
            raise ModelError(f"the model's edges form a directed cycle among {among}.")
        for c in roots:
            del remaining[c]
    t = net.transform or {}
    if t.get("standardized"):
        for key in ("means", "scales"):
            table = t.get(key)
            if not isinstance(table, dict):
                raise ModelError(f"transform: '{key}' is missing although 'standardized' is true.")
            for v in variables:
                if v in hidden:
                    continue
                if v not in table:
                    raise ModelError(f"transform: no {key[:-1]} for variable {v!r}.")
                x = _number(table[v], f"transform: {key[:-1]} of {v!r}")
                if key == "scales" and not x > 0:
                    raise ModelError(f"transform: scale of {v!r} must be positive, got {x!r}.")


def _score(args: argparse.Namespace) -> int:
    from .io import load_table
    from .network import LearnedNetwork

    path = Path(args.model)
    spec = _read_model(path)
    try:
        network = LearnedNetwork.from_dict(spec)
        _check_model(network)
    except ModelError as exc:
        raise ModelError(f"{path.name}: {exc}") from None
    # held-out data: one instance is enough, and columns the model does not use may be constant
    dataset = load_table(
        args.data,
        transpose=args.transpose,
        standardize=False,
        drop=args.drop,
        min_samples=2 if args.refit else 1,
        allow_constant=not args.refit,  # refitting on a constant variable would be meaningless
    )
    try:
        out = network.evaluate(dataset, refit=args.refit)
    except DataValidationError as exc:
        hidden = set(network.hidden_names())
        wanted = {v for v in network.variables if v not in hidden}
        trained = network.settings.get("transpose")
        if not args.transpose and dataset.instance_labels and wanted <= set(dataset.instance_labels):
            raise type(exc)(f"{exc} They are the row labels of the file: add --transpose.") from None
        if isinstance(trained, bool) and trained != bool(args.transpose):
            hint = "with" if trained else "without"
            raise type(exc)(f"{exc} (the model was learned {hint} --transpose)") from None
        raise
    out["data"] = Path(args.data).name
    out["model"] = path.name
    sys.stdout.write(_dumps(out) + "\n")
    sys.stdout.flush()
    return 0


# -------------------------------------------------------------------------------------------- main
def main(argv: list[str] | None = None) -> int:
    """Run the CLI with ``argv`` (default ``sys.argv[1:]``); return the exit status.

    0: success (also ``--help`` and ``--version``); 2: bad usage, data or model; 130: interrupted.
    """
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # --help, --version, usage errors: argparse has printed what is needed
        return exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 2)
    if args.command is None:
        parser.print_usage(sys.stderr)
        _say(f"error: choose a command, 'learn' or 'score' (see '{parser.prog} --help').")
        return 2
    if args.data is None:
        drop = list(getattr(args, "drop", None) or [])
        if drop and Path(drop[-1]).is_file():
            # '--drop A B data.csv': argparse gave the file to --drop; it is DATA
            args.data, args.drop = drop[-1], drop[:-1]
        elif drop and Path(drop[-1]).suffix.lower() in {".csv", ".tsv", ".txt", ".tab", ".xlsx", ".xls", ".parquet"}:
            _say(f"error: data file {drop[-1]!r} not found (it was given after --drop).")
            return 2
        else:
            _say(f"error: the data file DATA is missing (see '{parser.prog} {args.command} --help').")
            return 2
    progress = _Progress(getattr(args, "quiet", True))
    old_showwarning = warnings.showwarning
    warnings.showwarning = _show_warning
    try:
        if args.command == "learn":
            return _learn(args, progress)
        return _score(args)
    except IdealParentError as exc:
        progress.abort()
        _say(f"error: {_one_line(exc)}")
        return 2
    except KeyboardInterrupt:
        progress.abort()
        _say("error: interrupted.")
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
        where = f" ({exc.filename})" if getattr(exc, "filename", None) else ""
        _say(f"error: {_one_line(exc.strerror or exc)}{where}")
        return 2
    finally:
        warnings.showwarning = old_showwarning


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
