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


@pytest.fixture(scope="session", autouse=True)
def _stop_shared_browser():
    """At the session's end, stop the browser tests' shared server and Chromium if a test started them
    (test_browser.app_server / shared_chromium; an ``atexit`` hook there is the fallback)."""
    yield
    shared = sys.modules.get("test_browser")
    if shared is not None:
        shared.stop_shared()


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


def family_table(n: int = 20, c1_low: float = 1.0):
    """A CandidateTable of two Add candidates for each of ``n`` children (X0..X{n-1}), C1 from
    ``c1_low`` to 2, C2 from 1 to 3 and the exact gain from 2 to 4: enough families to fill a
    Bounds scatter's legend."""
    import numpy as np

    from engine.search import CandidateTable, Operator

    child = np.repeat(np.arange(n), 2)
    return CandidateTable(
        op=np.full(2 * n, int(Operator.ADD), dtype=np.int8),
        parent=(child + 1) % n,
        child=child,
        removed=np.full(2 * n, -1),
        c1=np.linspace(c1_low, 2, 2 * n),
        c2=np.linspace(1, 3, 2 * n),
        delta_loglik=np.linspace(2, 4, 2 * n),
        delta_bic=np.linspace(2, 4, 2 * n),
        rank=np.ones(2 * n, dtype=int),
        selected=np.ones(2 * n, dtype=bool),
    )


def texts(elements) -> list[str]:
    """The text values of a list of AppTest elements (captions, errors, markdown...)."""
    return [str(e.value) for e in elements]
