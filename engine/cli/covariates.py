"""``--covariates FILE`` for ``learn`` and ``bootstrap``: sample annotations as parent-only variables.

:func:`load_covariates` reads the table (:mod:`engine.io.covariates`) for DATA's instances, says on
stderr what each column became and returns the data with the covariates appended (named in
``Dataset.covariates``); the estimator's ``parent_only`` (:mod:`engine.parent_only`) then keeps
every edge out of them and, with ``--regulators``, adds them to the candidate regulators.
:func:`score_covariates` is ``score``'s: the table coded as the saved model's covariate variables.
"""

from __future__ import annotations

import argparse
import os

import numpy as np

from .output import say

__all__ = ["load_covariates", "score_covariates", "GEO", "COVARIATES_HELP", "SCORE_COVARIATES_HELP"]

#: indicator levels seen in fewer samples (or all but fewer) are said to be at risk in ``bootstrap``
RARE = 8

#: ``--covariates geo``: the sample characteristics of DATA, a GEO series matrix (engine.io.geo_samples)
GEO = "geo"

#: ``--covariates``'s help
COVARIATES_HELP = (
    "sample annotations (batch, RIN...) as variables that may only be parents, as limma's design or ComBat's batch: "
    "a CSV/TSV whose first column holds DATA's instance ids (after --transpose: the file's column names); a text "
    "column becomes indicators COLUMN=LEVEL (the first level sorted is the reference), a numeric one is used as is; "
    "added to --regulators when given. 'geo': the !Sample_characteristics fields of DATA, a GEO series matrix "
    "(treatment: heat, batch: 2), each field a covariate; fields the same on every sample are skipped and said"
)


def _characteristics(args: argparse.Namespace):
    """``--covariates geo``: the sample characteristics of DATA (a GEO series matrix)."""
    from ..io.geo_samples import read_characteristics

    return read_characteristics(args.data, os.path.basename(args.data))


def load_covariates(args: argparse.Namespace, dataset):
    """``dataset`` with the covariates of ``--covariates`` appended, and their names (``()``: none)."""
    path = getattr(args, "covariates", None)
    if path is None:
        return dataset, ()
    from ..io.covariates import add_covariates, read_covariates
    from ..io.geo_samples import characteristics_covariates

    if path == GEO:
        cov = characteristics_covariates(_characteristics(args), dataset, source=os.path.basename(args.data))
    else:
        cov = read_covariates(path, dataset)
    say(f"covariates: {cov.line()}")
    if getattr(args, "replicates", None):  # bootstrap: a resample can leave a rare level out
        rare = [
            f"{n} ({int(k)} of {len(v)})"
            for n, v in zip(cov.names, cov.values.T, strict=True)
            if np.isin(v, (0.0, 1.0)).all()  # an indicator (or a 0/1 column)
            for k in [min((v == 1).sum(), (v == 0).sum())]
            if k < RARE
        ]
        if rare:
            say(
                f"warning: covariate level(s) with few samples: {', '.join(rare)}; a replicate whose resample "
                "leaves one out (its indicator then constant) fails, and is reported with the others that fail"
            )
    return add_covariates(dataset, cov), cov.names


#: ``score --covariates``'s help
SCORE_COVARIATES_HELP = (
    "the sample annotations of DATA, for a model learned with --covariates: coded as the model's covariate "
    "variables (its settings.parent_only), a level absent from DATA's samples allowed"
)


def score_covariates(args: argparse.Namespace, network, dataset, model: str):
    """``dataset`` with the covariates ``network`` was learned with, for ``score``: read from
    ``--covariates`` and coded as the model's own variables (:func:`engine.io.covariates.code_for_model`;
    a model saved before ``settings.parent_only`` was recorded: its variables that are columns of
    the table or ``column=level`` indicators of one). A model learned with covariates scored on data
    without them, or covariates given to a model learned without, is one error naming the fix."""
    from ..exceptions import DataValidationError, ParameterError
    from ..io.covariates import add_covariates, code_for_model, read_covariate_table

    settings = network.settings if isinstance(network.settings, dict) else {}
    recorded = settings.get("parent_only") if isinstance(settings.get("parent_only"), list) else None
    learned_with = settings.get("covariates") or recorded
    observed = [v for v in network.variables if v not in set(network.hidden_names())]
    path = getattr(args, "covariates", None)
    if path is None:
        names = recorded if recorded is not None else [v for v in observed if v not in dataset.names]
        if not learned_with or all(n in dataset.names for n in names):
            return dataset  # no covariates, or DATA has them as columns
        source = f" from {settings['covariates']}" if settings.get("covariates") else ""
        raise DataValidationError(
            f"{model} was learned with covariates{source} ({', '.join(map(str, names))}): give the sample table "
            "with --covariates FILE (first column: DATA's instance ids), as learn was given it."
        )
    if path == GEO:
        frame, label = _characteristics(args).frame, f"{os.path.basename(args.data)}'s sample characteristics"
    else:
        label = os.path.basename(path)
        frame = read_covariate_table(path, label)
    if not learned_with:
        raise ParameterError(f"{model} was learned without covariates: --covariates {label} has nothing to give it.")
    if recorded is None:  # saved before settings.parent_only: the variables the table's columns code
        columns = {str(c).strip() for c in frame.columns[1:]}
        recorded = [v for v in observed if v in columns or ("=" in v and v.partition("=")[0] in columns)]
    clash = [n for n in recorded if n in dataset.names]
    if clash:
        raise DataValidationError(f"{label}: DATA has column(s) {', '.join(clash)} already; give them once.")
    cov = code_for_model(frame, dataset.instance_labels, recorded, source=label)
    say(f"covariates: {', '.join(cov.described)}")
    return add_covariates(dataset, cov)
