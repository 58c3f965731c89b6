"""The command line's commands: ``learn`` (search, then write the network as JSON), ``score``
(a saved network's log-likelihood and BIC on data) and ``bootstrap`` (edge and regulator confidence).

Each takes the parsed arguments and returns the exit status; every error a user can cause is raised
as an :class:`~engine.exceptions.IdealParentError` for :func:`engine.cli.main` to report.
"""

from __future__ import annotations

import argparse
import math
import os
import sys
from pathlib import Path

from ..enrichment import attach_enrichment
from ..exceptions import DataValidationError, ModelError
from ..listing import first_few
from ..search import SearchSettings
from .covariates import load_covariates, score_covariates
from .live import hidden_lines
from .model_file import load_network
from .output import SHOWN_WARNINGS, BootstrapProgress, Progress, describe_score, dumps, edge_summary, one_line, say
from .reports import regulator_table, report_hidden, report_support, say_top_sets
from .rerun import rerun_command
from .settings import counts_warning, data_settings, file_options, input_paths, model_reading, read_counts
from .ticker import still_running
from .traits import read_traits, say_traits

__all__ = [
    "learn",
    "score",
    "bootstrap",
    "check_out",
    "load_data",
    "make_estimator",
    "write_result",
    "read_gene_sets",
    "input_paths",
]


def check_out(path: str | None, data: str | None = None, flag: str = "--out", inputs=()) -> None:
    """Fail before a long search, not after it, when output ``path`` (option ``flag``) cannot be
    written or is the data file or another input file (``inputs``: e.g. the regulator list)."""
    if not path:
        return
    p = Path(path)
    if p.is_dir():
        raise DataValidationError(f"{flag} {path}: is a folder, not a file.")

    def same(f) -> bool:
        return f is not None and p.exists() and Path(f).exists() and p.resolve() == Path(f).resolve()

    if same(data):
        raise DataValidationError(f"{flag} {path}: is the data file itself; choose another name for the result.")
    for f in inputs:
        if same(f):
            raise DataValidationError(f"{flag} {path}: is the input file {f} itself; choose another name.")
    parent = p.parent if str(p.parent) else Path(".")
    if not parent.is_dir():
        raise DataValidationError(f"{flag} {path}: folder {str(parent)!r} does not exist.")
    if not os.access(p if p.exists() else parent, os.W_OK):
        raise DataValidationError(f"{flag} {path}: not writable.")


def check_outputs(args: argparse.Namespace) -> None:
    """:func:`check_out` for every file ``learn`` or ``bootstrap`` writes: ``--out``, ``--csv`` and,
    with hidden variables, the regulator table ``--csv`` names (:func:`regulators_csv`)."""
    inputs = [getattr(args, k, None) for k in ("regulators", "gene_sets", "targets")]
    check_out(args.out, args.data, "--out", inputs)
    check_out(args.csv, args.data, "--csv", inputs)
    if args.out and args.csv and Path(args.out).resolve() == Path(args.csv).resolve():
        raise DataValidationError(f"--csv {args.csv}: is the --out file too; the edges table would replace the JSON.")
    if args.csv and (args.hidden == "auto" or args.two_layer):
        check_out(regulators_csv(args.csv), args.data, "--csv (its regulator table)", inputs)


def write_result(text: str, out: str | None) -> None:
    """Write the JSON result to ``out`` (or stdout); a failed write (a full disk) raises an
    ``OSError`` naming where, for :func:`engine.cli.main` to report in one line."""
    try:
        if out:
            Path(out).write_text(text + "\n", encoding="utf-8")
        else:
            sys.stdout.write(text + "\n")
            sys.stdout.flush()
    except BrokenPipeError:
        raise
    except OSError as exc:
        why = f"the result could not be written ({exc.strerror or exc})"
        raise OSError(exc.errno, why, out or "standard output") from None


def write_csv(frame, path: str | None) -> None:
    """Write a table as CSV to ``path`` (nothing when None); a failed write raises an ``OSError``
    naming the file, as :func:`write_result` does."""
    if not path:
        return
    try:
        frame.to_csv(path, index=False)
    except OSError as exc:
        raise OSError(exc.errno, f"the table could not be written ({exc.strerror or exc})", path) from None


def regulators_csv(path: str) -> str:
    """Where ``--csv FILE`` writes the hidden regulators' table (``learn``: the regulator report;
    ``bootstrap``: their support): FILE's stem + ``_regulators.csv``."""
    p = Path(path)
    return str(p.with_name(p.stem + "_regulators.csv"))


def load_data(args: argparse.Namespace):
    """DATA as the learn options say (transpose, standardize, drop, log2 CPM), with its notes on stderr and
    one warning, with the fix, when its labels show it is the wrong way round or its values look like raw counts."""
    from ..io import load_table, orientation_warning

    if getattr(args, "condition", None) or getattr(args, "targets", None):  # interventional data
        from ..interventions import load_with_conditions

        if args.no_header:
            raise DataValidationError(
                "--condition names a column by its header: a file read with --no-header has none."
            )

        dataset = load_with_conditions(
            args.data,
            args.condition,
            args.targets,
            transpose=args.transpose,
            standardize=not args.no_standardize,
            drop=args.drop,
            **file_options(args),
        )
    else:
        dataset = load_table(
            args.data,
            transpose=args.transpose,
            standardize=not args.no_standardize,
            drop=args.drop,
            **file_options(args),
        )
    dataset = read_counts(args, dataset)  # --log-cpm
    say(f"{dataset.source}: {dataset.summary()}")
    # evidence that the table is the wrong way round is printed once, as a warning with the fix
    turned = orientation_warning(dataset)
    for note in dataset.notes:
        if turned is None or note != turned.note(args.transpose):
            say(f"  - {note}")
    if turned is not None:
        say(turned.cli_message(args.transpose))
    if (counts := counts_warning(args, dataset, turned is not None)) is not None:
        say(counts)
    return dataset


def read_gene_sets(args: argparse.Namespace, dataset):
    """``--gene-sets`` read and matched to DATA's variables before the search (a bad file fails
    at once), its notes on stderr; None without the option."""
    if getattr(args, "gene_sets", None) is None:  # '' is a file name, refused as such
        return None
    from ..io.gene_sets import match_gene_sets
    from ..io.gene_sets import read_gene_sets as read

    sets = read(args.gene_sets)
    matched = match_gene_sets(sets, dataset.names)
    say(f"gene sets: {sets.source}: {sets.summary()}, {matched.n_tested:,} with genes in the data")
    for note in sets.notes + matched.notes:
        say(f"  - {note}")
    return matched


def make_estimator(args: argparse.Namespace, names=None, covariates=()):
    """The estimator the learn options describe (``learn`` fits it; ``bootstrap`` refits copies of
    it); ``names``, the data's variables, let a header line of the regulator file be skipped;
    ``covariates`` (names among them) may only be parents (the estimator's ``parent_only``, given
    here as well as in the data's ``covariates`` so that every bootstrap replicate has them)."""
    from ..io.regulators import read_regulators
    from ..learn import IdealParentSearch

    return IdealParentSearch(
        **{name: getattr(args, name) for name in SearchSettings.field_names()},  # same names as the flags
        max_iter=args.max_steps,
        n_restarts=args.restarts,
        hidden=None if args.hidden == "none" else args.hidden,
        max_hidden=args.max_hidden,
        two_layer=args.two_layer,
        random_state=args.seed,
        regulators=read_regulators(args.regulators, names) if args.regulators is not None else None,
        parent_only=list(covariates),
        condition_intercept=args.condition_intercept,
    )


def learn(args: argparse.Namespace, progress: Progress) -> int:
    """``learn``: load DATA, search, write the network (with settings and moves) as JSON; notes to stderr."""
    check_outputs(args)
    dataset, covariates = load_covariates(args, load_data(args))
    est = make_estimator(args, dataset.names, covariates)
    matched = read_gene_sets(args, dataset)
    traits = read_traits(args, dataset)  # checked before the search; read after it (engine/hidden/traits.py)
    choice = est.score_choice(dataset)
    say(f"score: {describe_score(choice)}")
    est.regulator_names(dataset)  # names absent from the data: one warning, before the search
    hidden = args.hidden == "auto" or args.two_layer
    if hidden:
        say("  - hidden variables: searching; each step is said as it ends")
    # structural EM runs its M-step searches to convergence without a progress callback; the
    # hidden-variable search says each step as it ends (engine.hidden logger), and a long EM run
    # where it is every few seconds (engine.hidden.em, engine.hidden.em_progress)
    with hidden_lines():
        est.fit(dataset, callback=None if est.learns_by_em(dataset) else progress)
    net = est.network_
    if hidden:
        report_hidden(est, net, choice.score.describe().get("n_candidates"), dataset.instance_labels is not None)
    result = net.to_dict()
    result["settings"] = dict(result.get("settings") or {})
    result["settings"].update(data_settings(args, seed=args.seed))
    if getattr(est, "result_", None) is not None:
        # the moves of the search, in order (stats.steps of them); structural EM has no single trace
        result["moves"] = [m.to_dict(net.variables) for m in est.history_]
    if matched is not None:
        edges = [(e["parent"], e["child"]) for e in result["edges"]]
        attach_enrichment(
            result, matched, edges, {h["name"]: h for h in result["hidden"]}, est.regulator_names(dataset)
        )
        say_top_sets(result["hidden"], edges)
    if traits is not None:  # WGCNA's module-trait table of the kept hidden variables
        say_traits(result, traits)
    result["rerun"] = rerun_command(result["settings"])  # how to get this result again (gene sets too)
    write_result(dumps(result), args.out)
    write_csv(net.edges_frame(), args.csv)
    if args.csv and (args.hidden == "auto" or args.two_layer):  # one row per (hidden variable, child)
        write_csv(regulator_table(est, result), regulators_csv(args.csv))
        say(f"regulator report: {regulators_csv(args.csv)} (one row per hidden variable and child)")
    s = est.stats_
    value, name = result["score"].get("value", result["score"]["bic"]), result["score"].get("name", "bic")
    value_text = f"{value:,.2f} nats" if isinstance(value, (int, float)) and math.isfinite(value) else "n/a"
    if hidden:  # moves of the kept model's structural EM: each proposal tried before it ran its own
        summary = (
            f"{len(result['edges']):,} edges, {name.upper()} {value_text}, {s['seconds']:.2f} s; the final "
            f"structural EM: {s['steps']:,} moves, {s['exact_evaluations']:,} exact evaluations (the proposals "
            "tried before it not counted)"
        )
    else:
        summary = (
            f"{s['steps']} moves, {len(result['edges'])} edges, {name.upper()} {value_text}, "
            f"{s['exact_evaluations']:,} exact evaluations, {s['seconds']:.2f} s"
        )
    progress.done(f"done: {summary}" + (f"; written to {args.out}" if args.out else ""))
    progress.done("\n".join(edge_summary(result["edges"], args.out or "the JSON")))
    if result.get("missing_cells"):  # which cells were filled, as the explorer's banner names them
        cells = result["missing_cells"]
        shown = first_few(
            [f"{c['variable']} at {c['instance']} = {c['value']:.4g}" for c in cells[:6]], total=len(cells)
        )
        progress.done(f"filled {len(cells):,} missing cell(s), on the file's scale: {shown} ('missing_cells')")
    return 0


def bootstrap(args: argparse.Namespace) -> int:
    """``bootstrap``: relearn on ``--replicates`` resamples on Dask, write edge (and regulator) confidence.

    Exit status 0, or 1 when some replicates failed (the others' result is written all the same).
    """
    check_outputs(args)
    dataset, covariates = load_covariates(args, load_data(args))
    est = make_estimator(args, dataset.names, covariates)
    matched = read_gene_sets(args, dataset)
    say(f"score: {describe_score(est.score_choice(dataset))}")
    est.regulator_names(dataset)  # names absent from the data: one warning now, not one per replicate
    from ..bootstrap import resample_choice

    choice = resample_choice(est, dataset, args.resample)
    say(f"resample: {choice}")
    where = args.scheduler or f"a local cluster of {args.workers or os.cpu_count() or 1} worker process(es)"
    progress = BootstrapProgress(args.quiet, args.replicates)
    say(f"bootstrap: {args.replicates} replicate(s) on {where}")
    from ..bootstrap.parallel import Interrupted

    interrupted = False
    try:
        with still_running(progress):  # a line every 30 s of silence (engine.cli.ticker)
            result = est.bootstrap(
                dataset,
                args.replicates,
                threshold=args.threshold,
                scheduler=args.scheduler,
                n_workers=args.workers,
                random_state=args.seed,
                progress=progress,
                max_hours=args.max_hours,
                resample=args.resample,  # the engine makes the same choice and records it with its reason
            )
    except Interrupted as stop:  # Ctrl-C: the replicates finished so far are written all the same
        progress.abort()
        result, interrupted = stop.result, True
    out = result.to_dict()
    out["settings"].update(data_settings(args, threshold=args.threshold))
    if matched is not None:
        # the averaged network's regulators, and each hidden regulator's core children
        edges = [(e["parent"], e["child"]) for e in out["averaged"]]
        hidden = {h["name"]: h for h in out.get("hidden", [])}
        edges += [(name, child) for name, h in hidden.items() for child in h["core"]]
        attach_enrichment(out, matched, edges, hidden, est.regulator_names(dataset))
        say_top_sets(out.get("hidden", []), edges)
    out["rerun"] = rerun_command(out["settings"], command="bootstrap")
    write_result(dumps(out), args.out)
    write_csv(result.edges_frame(), args.csv)
    if result.regulators is not None:
        if args.csv:
            write_csv(result.regulators_frame(), regulators_csv(args.csv))
        report_support(result, progress.quiet)
    for warning in result.warnings:  # those said already (names absent from the data) hold in every replicate
        if one_line(warning) not in SHOWN_WARNINGS:
            say(f"warning: (in some replicates) {warning}")
    progress.done(
        f"{'stopped' if interrupted else 'done'}: {result.replicates} replicate(s), {len(result.edges)} pairs seen, "
        f"{len(result.averaged)} edges in the averaged network (threshold {result.threshold:.3f}), "
        f"{result.stats['seconds']:.1f} s" + (f"; written to {args.out}" if args.out else "")
    )
    if interrupted:
        say(f"error: interrupted after {result.replicates} of {args.replicates} replicate(s); their result is written.")
        return 130
    if result.failures:
        say(f"error: {result.failure_summary()}")
        return 1
    return 0


def score(args: argparse.Namespace) -> int:
    """``score``: the log-likelihood and BIC of DATA under the checked ``--model`` (refitted with ``--refit``)."""
    from ..io import load_table

    path = Path(args.model)
    network = load_network(path)
    args, flags = model_reading(args, network)
    if flags:
        say(f"note: {Path(args.data).name} read as the model's data were: {' '.join(flags)} (the model's settings)")
    # held-out data: one instance is enough, and columns the model does not use may be constant
    options = {
        "drop": args.drop,
        "min_samples": 2 if args.refit else 1,
        "allow_constant": not args.refit,
        **file_options(args, scoring=True),
    }
    dataset = _scoring_data(args, network, options)
    if dataset is None:
        dataset = load_table(args.data, transpose=args.transpose, standardize=False, **options)
    dataset = read_counts(args, dataset)  # in log2 CPM when the model's data were (settings.log_cpm)
    dataset = score_covariates(args, network, dataset, path.name)  # as learn read them (settings.parent_only)
    measured = [h for h in network.hidden_names() if h in dataset.names]
    if measured:  # the model integrates them out: a column of that name is not read
        names = ", ".join(map(repr, measured))
        say(f"note: {names}: hidden in the model, integrated out; the data's column of that name is not read.")
    try:
        out = network.evaluate(dataset, refit=args.refit, intercepts=True if args.condition_intercept else None)
    except ModelError as exc:
        raise ModelError(f"{path.name}: {exc}") from None
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
    write_result(dumps(out), None)
    return 0


def _scoring_data(args: argparse.Namespace, network, options: dict):
    """DATA with its experimental design for ``score``, or None when it is scored as observational.

    The condition column and targets are ``--condition``/``--targets``, else those the model was
    learned with (its ``interventions`` block) when DATA has that column; each choice is said on
    stderr. A model learned with interventions scored on data without the column: every row is
    scored as observational (no family loses rows), unless it has per-condition intercepts, which
    need each row's condition (:class:`engine.evaluate.ScoringDesign` then says so)."""
    from ..exceptions import ParameterError
    from ..interventions import read_targets, scoring_design
    from ..io import read_table, source_label

    info = network.interventions or {}
    column = args.condition or info.get("column")
    if args.targets and not args.condition:
        raise ParameterError("--targets needs --condition COLUMN: the column naming each row's condition.")
    if args.condition_intercept and not column:
        raise ParameterError("--condition-intercept needs --condition COLUMN: the column naming each row's condition.")
    if not column:
        return None
    frame = read_table(args.data)
    if not args.condition and column not in [str(c).strip() for c in frame.columns]:
        if not info.get("condition_intercept"):
            say(
                f"note: the model was learned with interventions (condition column {column!r}); "
                f"{Path(args.data).name} has no such column, so every row is scored as observational."
            )
        return None
    if args.transpose:
        raise ParameterError("--condition names a column of conditions: it cannot be used with --transpose.")
    if args.targets:
        targets, whence = read_targets(args.targets), f"targets from {Path(args.targets).name}"
    elif column == info.get("column"):
        targets = [(t["condition"], t["target"]) for t in info.get("targets", [])]
        whence = "targets from the model"
    else:
        targets, whence = [], "no targets (every condition observational)"
    label = source_label(args.data, None)
    dataset, notes = scoring_design(frame, column, targets, source=label, **options)
    say(f"score: condition column {column!r}{'' if args.condition else ' (from the model)'}, {whence}")
    for note in notes:
        say(f"  - {note}")
    return dataset
