"""``--covariates FILE`` for ``learn`` and ``bootstrap``: sample annotations as parent-only variables.

:func:`load_covariates` reads the table (:mod:`engine.io.covariates`) for DATA's instances, says on
stderr what each column became and returns the data with the covariates appended (named in
``Dataset.covariates``); the estimator's ``parent_only`` (:mod:`engine.parent_only`) then keeps
every edge out of them and, with ``--regulators``, adds them to the candidate regulators.
"""

from __future__ import annotations

import argparse

import numpy as np

from .output import say

__all__ = ["load_covariates", "COVARIATES_HELP"]

#: indicator levels seen in fewer samples (or all but fewer) are said to be at risk in ``bootstrap``
RARE = 8

#: ``--covariates``'s help
COVARIATES_HELP = (
    "sample annotations (batch, RIN...) as variables that may only be parents, as limma's design or ComBat's batch: "
    "a CSV/TSV whose first column holds DATA's instance ids (after --transpose: the file's column names); a text "
    "column becomes indicators COLUMN=LEVEL (the first level sorted is the reference), a numeric one is used as is; "
    "added to --regulators when given"
)


def load_covariates(args: argparse.Namespace, dataset):
    """``dataset`` with the covariates of ``--covariates`` appended, and their names (``()``: none)."""
    path = getattr(args, "covariates", None)
    if path is None:
        return dataset, ()
    from ..io.covariates import add_covariates, read_covariates

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
