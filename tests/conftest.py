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
