"""Fixtures shared by every test: where things are, and a small synthetic data set with known truth.

Nothing here imports Streamlit; app-level fixtures belong in tests/app/.
"""

from __future__ import annotations

import os

# One BLAS thread per process: the suite's matrices are small, and on a 2-core machine threaded
# BLAS spends more time synchronizing than computing (tests/engine took 372 s with the default
# threads against 139 s with one, on a busy machine). Set before numpy is imported, so it also
# reaches the subprocesses (streamlit servers, dask workers) the tests start.
for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

from pathlib import Path  # noqa: E402

import pytest  # noqa: E402

from engine.synth import random_network, sample_dataset  # noqa: E402

REPO_ROOT = Path(__file__).resolve().parent.parent


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Group the tests for pytest-xdist's workers (the README's and CI's ``python -m pytest -n 2 --dist
    loadgroup``; benchmarks/RESULTS.md "Test-suite time"; docs/decisions/test-workers.md).

    Every browser test in one group: a browser test drives a Streamlit server and a Chromium (about a
    core between them), so two at once on a 2-core machine starve each other's timeouts; one worker
    walks them in turn (most on one shared server: tests/app/test_browser.py ``app_server``) while
    the others run the rest. ``--dist loadfile`` would
    ignore these groups and put two browser files side by side. Every other test is grouped by its file, so a
    module-scoped fixture (an ``auto`` run shared by a file's tests) is computed once, not once per
    worker. ``tryfirst``: the marks must be there before xdist's own hook turns them into groups.
    """
    for item in items:
        group = "browser" if item.get_closest_marker("browser") is not None else item.nodeid.split("::")[0]
        item.add_marker(pytest.mark.xdist_group(group))


@pytest.fixture(scope="session")
def repo_root() -> Path:
    """The repository's root folder (holds pyproject.toml and app.py)."""
    return REPO_ROOT


@pytest.fixture(scope="session")
def sample_dir(repo_root: Path) -> Path:
    """The bundled sample_data/ folder."""
    path = repo_root / "sample_data"
    assert path.is_dir(), f"{path} is missing"
    return path


@pytest.fixture(scope="session")
def synthetic_network():
    """A random 8-variable linear-Gaussian network (``random_network(8, seed=1)``)."""
    return random_network(8, seed=1)


@pytest.fixture(scope="session")
def synthetic_dataset(synthetic_network):
    """300 standardized instances sampled from :func:`synthetic_network` (seed 2). Read-only."""
    return sample_dataset(synthetic_network, 300, seed=2)
