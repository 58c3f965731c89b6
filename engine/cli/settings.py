"""How ``learn``, ``bootstrap`` and ``score`` read DATA, as options and as recorded settings.

:func:`file_options` turns the lab-file flags into loading options; :func:`data_settings` is what
a result's ``settings`` record about how DATA was read (names, orientation, columns left out, the
input files' absolute ``paths``, so that its ``rerun`` command works from any folder);
:func:`model_reading` applies a saved model's reading settings when ``score`` reads new data;
:func:`read_counts` puts raw counts in log2 CPM (``--log-cpm``), :func:`counts_warning` says when a table looks
like counts.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from .covariates import GEO

__all__ = ["counts_warning", "file_options", "data_settings", "input_paths", "model_reading", "read_counts"]


def file_options(args: argparse.Namespace, *, scoring: bool = False) -> dict:
    """Loading options for a lab's file (``--number-repeats``, ``--skip-unusable``), as the explorer
    applies them to an upload. ``scoring``: only what keeps the variables of the learned model
    (repeats numbered the same way, text columns left out), never a constant or sparse column."""
    from ..io import MAX_MISSING

    out: dict = {}
    if getattr(args, "no_header", False) or getattr(args, "header", False):  # engine.io.header
        out.update(no_header=bool(args.no_header), check_header=False)
    if getattr(args, "number_repeats", False):
        out["rename_repeats"] = True
    if getattr(args, "skip_unusable", False):
        out["drop_non_numeric"] = True
        if not scoring:
            out.update(drop_constant=True, max_missing=MAX_MISSING)
    return out


def read_counts(args: argparse.Namespace, dataset):
    """DATA in log2 counts per million with ``--log-cpm`` (:func:`engine.io.counts.log_cpm`), else as it is."""
    from ..io.counts import log_cpm

    return log_cpm(dataset) if getattr(args, "log_cpm", False) else dataset


def counts_warning(args: argparse.Namespace, dataset, turned: bool) -> str | None:
    """Without ``--log-cpm``, the one-line warning when DATA look like raw counts
    (:func:`engine.io.counts.counts_evidence`: a sample's sequencing depth would pass for a regulator), else
    None. ``turned``: the table looks the wrong way round, so its row totals are not library sizes."""
    from ..io.counts import counts_evidence

    seen = None if getattr(args, "log_cpm", False) else counts_evidence(dataset)
    return None if seen is None else seen.cli_message(turned)


def data_settings(args: argparse.Namespace, **extra) -> dict:
    """How DATA was read (file name, orientation, scale, columns left out, lab-file options, the
    experimental design), as ``learn`` and ``bootstrap`` record it in their JSON settings."""
    return {
        "data": Path(args.data).name,
        "transpose": bool(args.transpose),
        "standardize": not args.no_standardize,
        "drop": list(args.drop),
        "number_repeats": bool(args.number_repeats),
        "skip_unusable": bool(args.skip_unusable),
        "no_header": bool(args.no_header),
        **({"header": True} if args.header else {}),
        **({"log_cpm": True} if getattr(args, "log_cpm", False) else {}),
        **({"regulators_file": Path(args.regulators).name} if getattr(args, "regulators", None) else {}),
        **({"covariates": Path(args.covariates).name} if getattr(args, "covariates", None) else {}),
        **({"traits": Path(args.traits).name} if getattr(args, "traits", None) else {}),
        **extra,
        **({"condition": args.condition, "targets": args.targets} if args.condition else {}),
        "paths": input_paths(args),
    }


def input_paths(args: argparse.Namespace) -> dict:
    """The input files as absolute paths (``settings.paths``), so that the ``rerun`` command works
    from any folder; ``data``, ``regulators_file`` and ``gene_sets`` keep the files' names."""
    files = {"data": args.data, "regulators": getattr(args, "regulators", None)}
    files.update(gene_sets=getattr(args, "gene_sets", None), targets=getattr(args, "targets", None))
    files["traits"] = getattr(args, "traits", None)
    cov = getattr(args, "covariates", None)
    files["covariates"] = cov if cov != GEO else None  # geo: DATA's own sample characteristics, not a file
    return {key: str(Path(f).resolve()) for key, f in files.items() if f}


#: reading settings a model records that ``score`` applies when they are not given: setting -> flag
READING_FLAGS = {
    "no_header": "--no-header",
    "number_repeats": "--number-repeats",
    "skip_unusable": "--skip-unusable",
    "log_cpm": "--log-cpm",
}


def model_reading(args: argparse.Namespace, network) -> tuple[argparse.Namespace, list[str]]:
    """``score``'s arguments with the reading settings the model's data were read with (its
    ``settings``: ``transpose``, ``drop``, ``no_header``, ``number_repeats``, ``skip_unusable``, ``log_cpm``)
    added where the command line did not give them, and those flags (empty: none added).

    ``transpose`` is taken when the file shows it: the model's variables label the rows, not the
    columns (held-out data may come the other way round); a dropped column or row label only when
    the file has it (a held-out file may lack the text column or the failed array the training file had)."""
    settings = network.settings if isinstance(network.settings, dict) else {}  # a hand-edited file: anything
    listed = settings.get("drop") if isinstance(settings.get("drop"), list) else []
    new = argparse.Namespace(**vars(args))
    flags: list[str] = []
    for key, flag in READING_FLAGS.items():
        if settings.get(key) is True and not getattr(args, key, False) and not (key == "no_header" and args.header):
            setattr(new, key, True)
            flags.append(flag)
    wanted = set(network.variables) - set(network.hidden_names())
    if not wanted or not (settings.get("transpose") is True and not args.transpose) and not listed:
        return new, flags
    from ..io import read_table

    frame = read_table(args.data)
    columns = {str(c).strip() for c in frame.columns}
    rows = {str(v).strip() for v in frame.iloc[:, 0].tolist()} if frame.shape[1] else set()
    if settings.get("transpose") is True and not args.transpose:
        if len(wanted & rows) > len(wanted) / 2 and len(wanted & columns) <= len(wanted) / 2:
            new.transpose = True
            flags.append("--transpose")
    drop = [d for d in listed if isinstance(d, str) and d not in args.drop]
    drop = [d for d in drop if d in columns or d in rows]  # a row: a variable, or without transpose an instance
    if drop:
        new.drop = [*args.drop, *drop]
        flags.append("--drop " + " ".join(drop))
    return new, flags
