"""Which variables of the explorer's data are covariates (sample annotations, parents only).

The sidebar's covariate upload (:mod:`explorer.covariates_box`) appends them to the data with
:func:`engine.io.covariates.add_covariates`, which names them in :attr:`Dataset.covariates`;
every search built on those data forbids the edges into them
(:func:`engine.io.covariates.covariate_forbidden`) and the Hidden page never proposes them as a
hidden variable's children. Pure functions of the dataset: the session stays Streamlit-free.
"""

from __future__ import annotations

import numpy as np

from engine.data import Dataset
from engine.io.covariates import covariate_forbidden as edges_into
from engine.learn import IdealParentSearch

__all__ = [
    "covariates_of",
    "forbidden_edges",
    "covariate_forbidden",
    "child_candidates",
    "estimator",
]


def covariates_of(dataset: Dataset) -> list[str]:
    """The data's covariates (:attr:`Dataset.covariates`) that are variables of the data, in data order."""
    named = set(dataset.covariates)
    return [n for n in dataset.names if n in named]


def forbidden_edges(dataset: Dataset) -> dict:
    """The estimator's ``forbidden_edges``: every edge into a covariate."""
    return {"forbidden_edges": edges_into(dataset.names, covariates_of(dataset))}


def covariate_forbidden(dataset: Dataset) -> list[tuple[str, str]]:
    """Every edge into a covariate of ``dataset``, as (parent, child) names (structural EM's ``forbidden``)."""
    return forbidden_edges(dataset)["forbidden_edges"]


def child_candidates(dataset: Dataset) -> np.ndarray:
    """Indices of the variables a hidden variable may be proposed as parent of (not covariates)."""
    roots = set(covariates_of(dataset))
    return np.array([i for i, n in enumerate(dataset.names) if n not in roots], dtype=np.int64)


def estimator(settings, regulators: list[str] | None, dataset: Dataset) -> IdealParentSearch:
    """The explorer's estimator for ``dataset``: ``settings``, candidate ``regulators`` and every
    edge into a covariate forbidden."""
    return IdealParentSearch(**settings.to_dict(), **forbidden_edges(dataset), regulators=regulators)
