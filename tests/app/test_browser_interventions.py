"""In a real headless Chromium: load the Sachs sample with its nine conditions and see the
condition column and the targets table in the sidebar (marker ``browser``; port 8611)."""

from __future__ import annotations

import os
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = Path("/usr/bin/chromium")
PORT = 8611
SCREENS = Path("/tmp/ipe_screens")

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def server():
    if not CHROMIUM.exists():
        pytest.skip(f"{CHROMIUM} not found: install Debian's chromium to run the browser tests")
    pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed")
    cmd = [sys.executable, "-m", "streamlit", "run", "app.py", "--server.headless", "true"]
    cmd += ["--server.address", "127.0.0.1", "--server.port", str(PORT), "--browser.gatherUsageStats", "false"]
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{PORT}"
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
                out = proc.stdout.read().decode() if proc.poll() is not None else ""
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


def test_sachs_with_conditions_shows_the_targets_table(server, tmp_path):
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=str(CHROMIUM),
            headless=True,
            args=["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
        )
        try:
            page = browser.new_page(viewport={"width": 1400, "height": 1800})
            errors: list[str] = []
            page.on("pageerror", lambda exc: errors.append(str(exc)))
            page.goto(server, wait_until="domcontentloaded")
            page.get_by_text("853 instances x 11 variables").first.wait_for(timeout=60_000)
            sidebar = page.locator("[data-testid=stSidebar]")
            page.get_by_role("combobox", name="Sample").click()
            page.keyboard.type("nine conditions")
            page.get_by_role("option").filter(has_text="nine conditions").first.click()
            page.get_by_text("7466 instances x 11 variables").first.wait_for(timeout=60_000)
            sidebar.get_by_text("Condition column").first.wait_for(timeout=30_000)
            sidebar.get_by_text("9 conditions.").first.wait_for(timeout=30_000)
            # the targets table: an editable data grid in the sidebar
            sidebar.locator("[data-testid=stDataFrame]").first.wait_for(timeout=30_000)
            page.wait_for_timeout(1000)
            shot = tmp_path / "interventions_sidebar.png"
            page.screenshot(path=str(shot))
            SCREENS.mkdir(parents=True, exist_ok=True)
            (SCREENS / shot.name).write_bytes(shot.read_bytes())
            assert shot.stat().st_size > 20_000
            assert not errors, errors
        finally:
            browser.close()
