"""Fixtures of the engine's inspection tests (test_inspect.py, test_bounds.py, test_teaching.py), and the
planted-factor ``hidden="auto"`` fit that test_latent.py and test_arc_strength.py share.

A test module that defines a fixture of the same name (e.g. ``dataset`` in test_search.py) uses its own.
"""

from __future__ import annotations

import numpy as np
import pytest
from _planted import planted_factor

from engine.learn import IdealParentSearch
from engine.synth import random_network, sample_dataset


@pytest.fixture(scope="module")
def dataset():
    """150 instances of a random 8-variable linear-Gaussian network (seeds 3 and 4)."""
    net = random_network(8, expected_parents=1.5, seed=3)
    return sample_dataset(net, 150, seed=4)


@pytest.fixture()
def stepper(dataset):
    """An ideal-parent search (K = 2) on :func:`dataset`, three steps in."""
    st = IdealParentSearch(method="ideal", k=2).make_stepper(dataset)
    st.run(max_steps=3)
    return st


def _lstsq_residual(values, child, parents):
    design = np.column_stack([np.ones(values.shape[0]), values[:, list(parents)]])
    coef = np.linalg.lstsq(design, values[:, child], rcond=None)[0]
    return values[:, child] - design @ coef


@pytest.fixture(scope="session")
def lstsq_residual():
    """``f(values, child, parents)``: the residual of an intercept + least-squares fit of the child."""
    return _lstsq_residual


@pytest.fixture(scope="session")
def planted_auto():
    """``IdealParentSearch(hidden="auto", score="bic", max_hidden=1)`` fitted once on
    ``planted_factor(5)`` (tests/engine/_planted.py) for the tests that only read it:
    (dataset, child names, h, estimator); its ``hidden_search_`` is the HiddenSearch that ran auto and
    ``hidden_log_`` auto's progress lines."""
    ds, kids, h = planted_factor(5)
    return ds, kids, h, IdealParentSearch(hidden="auto", score="bic", max_hidden=1).fit(ds)
