"""Stop on the Confidence page shows what finished (QA walk, #22/#23): on a real E. coli table
(2500 genes x 27 conditions, 128 listed regulators, hidden regulators on) Stop after 2 of 4
replicates left the page with its controls only, although it says "Stop keeps the replicates that
have finished; their figures are shown": Stop, a button inside the run panel's fragment, reran only
the fragment, and the results are drawn outside it.

The bundled sample (Sachs, 853 x 11), 1000 replicates, Stop once some have finished: the results
(their count, the pairs seen) must appear without another click. And the worker processes end:
at Stop, and when the tab is closed (replicates already on a worker used to run on to their end,
and a closed tab left the run going). Marked ``browser``; its own server
on a free port.
"""

from __future__ import annotations

import re
import time

import pytest
from test_browser import SERVER_PIDS, _free_port, _shot, chromium, open_app, streamlit_server

pytestmark = pytest.mark.browser


#: the server's disconnectedSessionTTL here: the run of a closed tab is stopped after the shorter of
#: it and GONE_SECONDS (five minutes, too long for a test; explorer.session_watch.grace_seconds)
TTL = 15
#: this file's server (one base URL while it runs)
_STOP_URL: list[str] = []


@pytest.fixture(scope="module")
def stop_server():
    with streamlit_server(_free_port(), "--server.disconnectedSessionTTL", str(TTL)) as url:
        _STOP_URL[:] = [url]
        yield url


def test_stop_shows_the_replicates_that_finished_and_ends_the_workers(stop_server, tmp_path):
    # replicates already on a worker ran on to their end after Stop (QA walk): Stop closes the cluster
    with chromium() as browser:
        page, errors = open_app(browser, stop_server)
        main = _run_1000_replicates(page)
        assert _workers()
        main.get_by_role("button", name="Stop").click()
        assert _gone_within(15)
        main.get_by_text("Pairs seen").first.wait_for(timeout=30_000)
        _shot(page, tmp_path, "confidence_after_stop.png")
        # no longer running: the progress line goes (it may linger a moment while the page redraws)
        main.get_by_text(re.compile(r"of 1000 replicates")).first.wait_for(state="detached", timeout=15_000)
        assert "Stopped: the figures are from the" in main.inner_text()
        assert not errors, errors


def _run_1000_replicates(page):
    """Start a 1000-replicate bootstrap on the Confidence page; the main area once one has finished."""
    main = page.locator("[data-testid=stMain]")
    page.get_by_role("link", name="Confidence").first.click()
    box = page.get_by_role("spinbutton", name="Replicates B")
    box.fill("1000")
    box.press("Enter")
    page.wait_for_timeout(1000)
    page.get_by_role("button", name="Run bootstrap").click()
    main.get_by_text(re.compile(r"[1-9][0-9]* of 1000 replicates")).first.wait_for(timeout=180_000)
    return main


def _workers() -> list:
    """The Dask worker processes of this file's server (its local cluster; the browser tests' shared
    server runs beside it, with its own)."""
    import psutil

    pid = SERVER_PIDS[_STOP_URL[0]]
    alive = []
    for p in psutil.Process(pid).children(recursive=True):
        try:
            if p.status() != psutil.STATUS_ZOMBIE and "--multiprocessing-fork" in " ".join(p.cmdline()):
                alive.append(p)
        except psutil.Error:  # ended meanwhile (a zombie until its parent reaps it: gone all the same)
            pass
    return alive


def _gone_within(seconds: float) -> bool:
    """Whether this file's server has no worker process left within ``seconds``."""
    deadline = time.monotonic() + seconds
    while _workers() and time.monotonic() < deadline:
        time.sleep(0.5)
    return not _workers()


def test_a_closed_tab_ends_the_worker_processes(stop_server):
    # a closed tab left the whole run going (QA walk): a tab gone the grace period (the shorter of
    # GONE_SECONDS and the server's session TTL) stops the run (Stop's own end of the workers:
    # test_stop_shows_the_replicates_that_finished_and_ends_the_workers, on the same server)
    from explorer.confidence import GONE_SECONDS, WATCH_SECONDS

    with chromium() as browser:
        page, errors = open_app(browser, stop_server)
        _run_1000_replicates(page)
        assert _workers()
        assert not errors, errors
        page.close()
        assert _gone_within(min(GONE_SECONDS, TTL) + 2 * WATCH_SECONDS + 15)
