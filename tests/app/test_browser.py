"""The app in a real headless Chromium: start ``streamlit run app.py``, open the Search page,
click Step, check the move log grew, and keep screenshots.

Marked ``browser``; skipped with a message when /usr/bin/chromium or the playwright package is
missing. Screenshots go to pytest's ``tmp_path`` and are copied to /tmp/ipe_screens/.
"""

from __future__ import annotations

import atexit
import contextlib
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = Path("/usr/bin/chromium")
SCREENS = Path("/tmp/ipe_screens")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]

pytestmark = pytest.mark.browser


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


#: each running server's process id by its base URL (a test counting the server's own worker processes
#: must not count those of the shared server beside it)
SERVER_PIDS: dict[str, int] = {}


@contextlib.contextmanager
def streamlit_server(port: int, *options: str):
    """A Streamlit server running the app on ``port`` with extra command-line ``options`` (e.g.
    ``"--server.disconnectedSessionTTL", "15"``; skips the test where Chromium or playwright is
    missing); yields its base URL once healthy and stops it on exit."""
    if not CHROMIUM.exists():
        pytest.skip(f"{CHROMIUM} not found: install Debian's chromium to run the browser tests")
    pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed")
    cmd = [sys.executable, "-m", "streamlit", "run", "app.py", "--server.headless", "true"]
    cmd += ["--server.address", "127.0.0.1", "--server.port", str(port), "--browser.gatherUsageStats", "false"]
    cmd += list(options)
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    # the server's output goes to a file: an unread pipe fills up (Dask's worker logs, warnings) and
    # then blocks the server mid-page
    log = tempfile.TemporaryFile()
    proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    SERVER_PIDS[url] = proc.pid
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as r:
                    if r.read().decode().strip() == "ok":
                        break
            except OSError:
                pass
            if proc.poll() is not None or time.monotonic() > deadline:
                log.seek(0)
                out = log.read().decode(errors="replace")
                pytest.fail(f"streamlit server did not become healthy on {url}\n{out}")
            time.sleep(0.3)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        log.close()
        SERVER_PIDS.pop(url, None)


#: the browser group's shared server, Chromium and playwright driver (:func:`app_server`,
#: :func:`shared_chromium`), started on first use in this process and stopped by :func:`stop_shared`
_SHARED: dict = {}
#: the shared server drops a closed tab's session after this many seconds (the app's own setting is an
#: hour: twenty tests' sessions, 2,500-gene tables among them, would then all stay in its memory, and a
#: run a test leaves going would go on beside the tests after it; a bootstrap stops at this TTL,
#: explorer.session_watch.grace_seconds)
SHARED_TTL = 60


def _healthy(url: str) -> bool:
    for _ in range(3):
        try:
            with urllib.request.urlopen(f"{url}/_stcore/health", timeout=10) as r:
                if r.read().decode().strip() == "ok":
                    return True
        except OSError:
            time.sleep(1)
    return False


@contextlib.contextmanager
def app_server():
    """The base URL of the browser tests' one Streamlit server with the app's own options (but
    :data:`SHARED_TTL`): started by the first test that asks, restarted if it stopped answering,
    stopped at the end of the session (tests/app/conftest.py). A server started per test file cost
    3 s to start and about 10 s more for its first page (the app's imports) at load 10: about 20
    files' worth of the browser group, which runs in one worker and is the CI critical path. Each test
    opens its own tab, so its own session. A test that needs other server options (a short session
    TTL, a server it stops) uses :func:`streamlit_server`."""
    entry = _SHARED.get("server")
    if entry is not None and not _healthy(entry[0]):
        entry[1].close()
        entry = None
    if entry is None:
        stack = contextlib.ExitStack()
        url = stack.enter_context(streamlit_server(_free_port(), "--server.disconnectedSessionTTL", str(SHARED_TTL)))
        entry = _SHARED["server"] = (url, stack)
    yield entry[0]


def _playwright():
    """This process's one playwright driver (a second ``sync_playwright()`` beside a started one is
    not supported by its sync API)."""
    if "playwright" not in _SHARED:
        from playwright.sync_api import sync_playwright

        _SHARED["playwright"] = sync_playwright().start()
    return _SHARED["playwright"]


def _launch():
    return _playwright().chromium.launch(executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS)


@contextlib.contextmanager
def chromium():
    """Debian's Chromium, headless with :data:`CHROMIUM_ARGS` (testing-tips), closed on exit."""
    b = _launch()
    try:
        yield b
    finally:
        b.close()


@contextlib.contextmanager
def shared_chromium():
    """The browser tests' one Chromium (launched on first use, again if it went away); every page
    (context) opened in the ``with`` block is closed on exit, so each test leaves no tab and no
    session behind it (pages of an enclosing block, e.g. a module fixture's, stay open)."""
    b = _SHARED.get("chromium")
    if b is None or not b.is_connected():
        b = _SHARED["chromium"] = _launch()
    before = set(b.contexts)
    try:
        yield b
    finally:
        for context in b.contexts:
            if context not in before:
                with contextlib.suppress(Exception):
                    context.close()


def stop_shared() -> None:
    """Close the shared Chromium, stop the shared server and the playwright driver (session end)."""
    b = _SHARED.pop("chromium", None)
    if b is not None:
        with contextlib.suppress(Exception):
            b.close()
    entry = _SHARED.pop("server", None)
    if entry is not None:
        entry[1].close()
    p = _SHARED.pop("playwright", None)
    if p is not None:
        with contextlib.suppress(Exception):
            p.stop()


atexit.register(stop_shared)


@pytest.fixture(scope="module")
def server():
    """The shared server's base URL (:func:`app_server`)."""
    with app_server() as url:
        yield url


@pytest.fixture
def browser():
    """The shared Chromium; the test's pages are closed after it (:func:`shared_chromium`)."""
    with shared_chromium() as b:
        yield b


def open_app(browser, url: str):
    """A new 1400 x 1800 page on the app once its default sample (Sachs) has loaded, and the list
    its JavaScript errors are collected in."""
    page = browser.new_page(viewport={"width": 1400, "height": 1800})
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(url, wait_until="domcontentloaded")
    page.get_by_text("853 instances x 11 variables").first.wait_for(timeout=60_000)
    return page, errors


def upload(page, path: Path) -> None:
    """Choose "Upload a file" in the sidebar and give it ``path``."""
    page.get_by_text("Upload a file").click()
    # the data uploader (the settings form has a second one, for a regulator list)
    uploader = page.locator("[data-testid=stSidebar] [data-testid=stFileUploader]").filter(has_text="Parquet file")
    uploader.locator("input[type=file]").set_input_files(str(path))


def settled(page, locator, timeout_ms: int = 60_000):
    """``locator`` once the app is idle (no running-status widget) and it matches one element three
    checks in a row: while a rerun redraws the page a stale copy of an element can linger beside the
    new one, and a click then fails in strict mode (CI saw it on the sidebar's expander and a form)."""
    page.wait_for_function("() => !document.querySelector('[data-testid=stStatusWidget]')", timeout=timeout_ms)
    single = 0
    for _ in range(timeout_ms // 100):
        single = single + 1 if locator.count() == 1 else 0
        if single >= 3:
            break
        page.wait_for_timeout(100)
    return locator.first


def _shot(page, tmp_path: Path, name: str) -> Path:
    path = tmp_path / name
    page.screenshot(path=str(path))
    SCREENS.mkdir(parents=True, exist_ok=True)
    shutil.copy(path, SCREENS / name)
    return path


def test_search_page_step(server, browser, tmp_path):
    page, errors = open_app(browser, server)
    page.get_by_text("Ideal Parent Explorer").first.wait_for(timeout=30_000)
    _shot(page, tmp_path, "home.png")
    # .streamlit/config.toml: no "Deploy" button, whose meaning a biologist asked about (QA walk)
    assert not page.get_by_role("button", name="Deploy").count()

    page.get_by_role("link", name="Search").first.click()
    page.get_by_text("Moves: 0").first.wait_for(timeout=30_000)
    page.locator("iframe").first.wait_for(timeout=30_000)
    page.wait_for_timeout(1500)  # let vis-network draw inside the iframe
    _shot(page, tmp_path, "search_before.png")

    page.get_by_role("button", name="Step", exact=True).click()
    page.get_by_text("Moves: 1").first.wait_for(timeout=30_000)
    page.locator("[data-testid=stDataFrame]").first.wait_for(timeout=30_000)
    page.wait_for_timeout(1500)
    shot = _shot(page, tmp_path, "search_after_step.png")
    assert shot.stat().st_size > 20_000

    # the network is drawn: vis-network puts a canvas in the iframe
    frame = page.frame_locator("iframe").first
    frame.locator("canvas").first.wait_for(timeout=15_000)

    page.get_by_role("button", name="Run to convergence").click()
    page.get_by_text("Converged").first.wait_for(timeout=60_000)
    page.wait_for_timeout(1500)
    _shot(page, tmp_path, "search_converged.png")

    page.get_by_role("link", name="Truth & export").first.click()
    page.get_by_text("Precision (directed)").first.wait_for(timeout=30_000)
    page.wait_for_timeout(1500)
    _shot(page, tmp_path, "truth.png")
    assert not errors, errors


def _main_button(page, label: str):
    return page.locator("[data-testid=stMain] button", has_text=label)


def test_compare_then_stop_a_long_run(server, browser, tmp_path):
    page, errors = open_app(browser, server)

    # side-by-side comparison on the default sample
    page.get_by_role("link", name="Search").first.click()
    page.get_by_text("Moves: 0").first.wait_for(timeout=30_000)
    page.get_by_text("Compare greedy and ideal").click()
    page.get_by_text("Move logs side by side").wait_for(timeout=30_000)
    for n in (1, 2, 3):
        _main_button(page, "Step").first.click()
        page.get_by_text(f"Moves: {n}").first.wait_for(timeout=30_000)
    assert page.locator("[data-testid=stDataFrame]").count() == 2
    page.wait_for_timeout(1500)
    _shot(page, tmp_path, "search_compare.png")

    # a long run (300 variables), stopped with the panel's Stop button
    page.get_by_text("Compare greedy and ideal").click()
    page.get_by_text("Move log", exact=True).wait_for(timeout=30_000)
    page.get_by_text("Synthetic network (known truth)").click()
    page.get_by_text("500 instances x 20 variables").first.wait_for(timeout=30_000)
    page.get_by_label("N vars").fill("300")
    page.get_by_role("button", name="Generate").click()
    page.get_by_text("500 instances x 300 variables").first.wait_for(timeout=30_000)
    # the sigmoid CPD fits each scored family iteratively: a run long enough to be stopped (the
    # linear search converges on these 300 variables in about 0.3 s, inside its first 0.4-s chunk,
    # before a click can reach Stop)
    sidebar = page.locator("[data-testid=stSidebar]")
    form = sidebar.locator("[data-testid=stForm]").filter(has_text="Search settings")
    form.locator("[data-testid=stSelectbox]").filter(has_text="CPD").click()
    page.get_by_role("option", name="sigmoid Gaussian").click()
    sidebar.get_by_role("button", name="Apply").click()
    page.get_by_text("CPD sigmoid").first.wait_for(timeout=30_000)
    page.get_by_text("Moves: 0").first.wait_for(timeout=30_000)
    _main_button(page, "Run to convergence").click()
    page.wait_for_function(
        "() => [...document.querySelectorAll('[data-testid=stMain] button')]"
        ".some(b => b.innerText.trim() === 'Stop' && !b.disabled)",
        timeout=30_000,
    )
    _main_button(page, "Stop").click()
    page.get_by_text("Stopped by you").first.wait_for(timeout=30_000)
    page.locator("iframe").first.wait_for(timeout=30_000)
    page.wait_for_timeout(1500)
    _shot(page, tmp_path, "search_stopped.png")
    assert not page.get_by_text("Converged").count()
    assert not errors, errors


def test_wide_upload_step_and_gene_search(server, browser, tmp_path):
    """Issue #11: a 1000-variable data set uploaded, stepped, a gene searched and its
    neighbourhood drawn as a sub-network (not all 1000 nodes)."""
    from engine.synth import random_network, sample_dataset

    net = random_network(1000, seed=0)
    data = sample_dataset(net, 120, seed=1, standardize=False)
    path = tmp_path / "wide_1000.csv"
    data.to_frame().to_csv(path, index=False)

    page, errors = open_app(browser, server)
    upload(page, path)
    page.get_by_text("120 instances x 1000 variables").first.wait_for(timeout=60_000)
    # a correctly oriented wide file: no orientation warning
    assert not page.get_by_text("look the wrong way round").count()

    page.get_by_role("link", name="Search").first.click()
    page.get_by_text("Moves: 0").first.wait_for(timeout=30_000)
    page.get_by_text("of 1,000 variables").first.wait_for(timeout=30_000)
    page.locator("iframe").first.wait_for(timeout=30_000)
    _main_button(page, "Step").first.click(timeout=60_000)
    page.get_by_text("Moves: 1").first.wait_for(timeout=60_000)

    # search a gene: the child of the move just made (named in the drawing's legend), so that its
    # neighbourhood has an edge
    drawing = next(f for f in page.frames if f != page.main_frame and f.evaluate("typeof nodes !== 'undefined'"))
    legend = drawing.locator("#ipe-legend").inner_text()
    parent, child = legend.split("last move: add ")[1].strip().split(" -> ")
    page.get_by_role("combobox", name="Search genes").click()
    page.keyboard.type(child)
    page.get_by_role("option", name=child, exact=True).click()
    page.keyboard.press("Escape")
    page.get_by_text(f"neighbourhood of {child}").first.wait_for(timeout=30_000)
    page.wait_for_timeout(2000)  # let vis-network draw inside the iframe
    _shot(page, tmp_path, "wide_gene_search.png")

    frame = next(f for f in page.frames if f != page.main_frame and f.evaluate("typeof nodes !== 'undefined'"))
    labels = frame.evaluate("() => nodes.get().map(n => n.label)")
    assert {parent, child} <= set(labels)
    assert 2 <= len(labels) <= 150
    assert frame.evaluate("() => edges.length") >= 1

    # a run of many moves: while it goes on, the page shows one move log (session 29: the log of the
    # network before the run lingered, faded and empty, under the live one)
    page.get_by_label("N", exact=True).fill("2000")
    page.keyboard.press("Tab")
    _main_button(page, "Run N steps").click()
    page.get_by_text("Running: ").first.wait_for(timeout=30_000)
    samples = [page.evaluate(RUN_PROBE)]
    for _ in range(15):
        page.wait_for_timeout(100)
        samples.append(page.evaluate(RUN_PROBE))
    running = [s for s in samples if s["running"]]
    assert running, samples  # the run was seen going on
    assert all(s["tables"] == 1 for s in running), running
    # Stop, if the run still goes on, and wait for the buttons to come back
    page.evaluate(RUN_STOP)
    page.wait_for_function(f"() => !({RUN_PROBE})().running", timeout=60_000)
    assert not errors, errors


#: click the Search page's Stop button when it is enabled (a run in progress)
RUN_STOP = """() => [...document.querySelectorAll('[data-testid=stMain] button')]
  .filter(b => b.innerText.trim() === 'Stop' && !b.disabled).forEach(b => b.click())"""

#: what the Search page shows while a run goes on: whether it runs, the visible move-log tables
RUN_PROBE = """() => {
  const main = document.querySelector('[data-testid=stMain]');
  const seen = e => e.checkVisibility() && e.getBoundingClientRect().height > 0;
  return {
    running: [...main.querySelectorAll('button')].some(b => b.innerText.trim() === 'Stop' && !b.disabled),
    tables: [...main.querySelectorAll('[data-testid=stDataFrame]')].filter(seen).length,
  };
}"""
