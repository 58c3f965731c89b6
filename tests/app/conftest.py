"""Shared fixtures of the app tests: paths, a fresh AppTest of the app or of one page, and a
small synthetic data set to seed session state with (N <= 10, M <= 200, so runs stay fast)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from streamlit.testing.v1 import AppTest  # noqa: E402

from engine.synth import random_network, sample_dataset  # noqa: E402
from explorer import state  # noqa: E402
from explorer.session import SearchSession  # noqa: E402

APP = ROOT / "app.py"
PAGES = ROOT / "explorer" / "pages"
TIMEOUT = 60


@pytest.fixture
def app() -> AppTest:
    """The whole app, run once (default bundled sample loaded)."""
    at = AppTest.from_file(str(APP), default_timeout=TIMEOUT).run()
    assert not at.exception
    return at


@pytest.fixture(scope="session")
def small_data():
    """(Dataset, true edges) of a random 8-variable linear-Gaussian network, 200 instances."""
    net = random_network(8, seed=3)
    return sample_dataset(net, 200, seed=4), net.edges()


def page_test(page: str, dataset=None, truth=None, settings=None, **seed) -> AppTest:
    """An AppTest of one page script with a session on ``dataset`` (and extra keys) seeded in
    session state."""
    at = AppTest.from_file(str(PAGES / page), default_timeout=TIMEOUT)
    if dataset is not None:
        at.session_state[state.SESSION] = SearchSession(dataset, truth, "small synthetic network", settings)
    for key, value in seed.items():
        at.session_state[key] = value
    return at


def texts(elements) -> list[str]:
    """The text values of a list of AppTest elements (captions, errors, markdown...)."""
    return [str(e.value) for e in elements]
