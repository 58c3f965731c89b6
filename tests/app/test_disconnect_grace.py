"""How long the Confidence page keeps a bootstrap run whose tab is disconnected (explorer.session_watch,
docs/decisions/app-disconnect-grace.md): the shorter of GONE_SECONDS (five minutes) and the server's
disconnectedSessionTTL; a socket blip shorter than that leaves the run going, a tab gone longer stops
it, frees the workers and says so when the tab comes back."""

from __future__ import annotations

import time

import pytest

pytest.importorskip("distributed")

from conftest import page_test, texts  # noqa: E402
from streamlit import config  # noqa: E402
from test_confidence_page import threads_cluster  # noqa: E402

from engine.search import SearchSettings  # noqa: E402
from explorer import session_watch  # noqa: E402
from explorer.confidence import GONE_SECONDS, IDLE_SECONDS, ConfidenceController, RunKey  # noqa: E402
from explorer.pages import confidence as page  # noqa: E402


@pytest.fixture
def ttl():
    """Set the server's disconnectedSessionTTL for one test (restored after)."""
    before = config.get_option("server.disconnectedSessionTTL")
    yield lambda seconds: config.set_option("server.disconnectedSessionTTL", seconds)
    config.set_option("server.disconnectedSessionTTL", before)


def test_grace_is_five_minutes_under_the_hour_long_ttl(ttl):
    ttl(3600)  # .streamlit/config.toml
    assert GONE_SECONDS == 300.0 and session_watch.grace_seconds(GONE_SECONDS) == 300.0
    assert GONE_SECONDS > IDLE_SECONDS  # a run that ends while the tab is away still frees its cores then


def test_grace_never_outlives_the_session(ttl):
    ttl(120)  # Streamlit's default: the session is dropped after 2 minutes, nothing can come back after
    assert session_watch.grace_seconds(GONE_SECONDS) == 120.0
    ttl(0)
    assert session_watch.grace_seconds(GONE_SECONDS) == 0.0


def _wait(predicate, timeout: float = 10.0) -> bool:
    deadline = time.monotonic() + timeout
    while not predicate() and time.monotonic() < deadline:
        time.sleep(0.05)
    return predicate()


def test_a_blip_keeps_the_run_a_closed_tab_stops_it(small_data):
    ds, _ = small_data
    tab = {"open": True}
    ctl = ConfidenceController(threads_cluster, alive=lambda: tab["open"], gone_seconds=1.0, watch_seconds=0.05)
    try:
        ctl.start(ds, RunKey(1, SearchSettings(), 400, 0, False))
        tab["open"] = False  # the socket drops on a busy server...
        time.sleep(0.5)
        tab["open"] = True  # ...and the browser reconnects before the grace is over
        time.sleep(1.0)
        assert ctl.running and ctl.started and not ctl.gone_stopped
        client = ctl.client()
        tab["open"] = False  # the tab is closed for good
        assert _wait(lambda: not ctl.started and client.status == "closed")
        assert ctl.gone_stopped and ctl.result.stopped and ctl.result.replicates < 400
    finally:
        ctl.close()


def test_the_page_says_why_the_run_stopped(small_data):
    from engine.bootstrap import BootstrapResult

    ds, truth = small_data
    ctl = ConfidenceController(threads_cluster, gone_seconds=300.0)
    at = page_test("confidence.py", ds, truth, **{page.CONTROLLER: ctl})
    session = at.session_state[page.state.SESSION]
    ctl.key = RunKey(session.data_version, session.settings, 50, 0, False)
    ctl.result = BootstrapResult.build(list(ds.names), [], 50, stopped=True)
    ctl.gone_stopped = True
    at.run()
    assert not at.exception
    assert "Stopped because this tab was disconnected for 300 s or more." in texts(at.caption)


def test_the_page_gives_its_controller_the_grace(small_data, ttl):
    ttl(3600)
    ds, truth = small_data
    at = page_test("confidence.py", ds, truth).run()
    assert not at.exception
    ctl = at.session_state[page.CONTROLLER]
    try:
        assert ctl.gone_seconds == 300.0 and not ctl.started
    finally:
        ctl.close()
