"""Accept on a 2,500-gene table in a real browser: the progress bar says what structural EM is doing,
Reject is greyed meanwhile, and Stop cancels it, leaving the network as it was (explorer/long_action.py).

Marked ``browser`` (headless Chromium, helpers in test_browser.py); about a minute.
"""

from __future__ import annotations

import numpy as np
import pytest
from test_browser import _shot, app_server, open_app, shared_chromium, upload

pytestmark = pytest.mark.browser


def write_table(folder, n_genes: int = 2500, m: int = 27, seed: int = 3):
    """Conditions in rows, genes in columns: 60 listed-looking drivers, a 40-gene module of an
    unmeasured factor, every other gene driven by one or two drivers."""
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(m, n_genes))
    h = rng.normal(size=m)
    x[:, 60:100] = 0.9 * h[:, None] + 0.4 * rng.normal(size=(m, 40))
    for g in range(100, n_genes):
        x[:, g] = x[:, rng.choice(60, size=2, replace=False)] @ rng.uniform(0.4, 0.9, size=2) + 0.7 * x[:, g]
    path = folder / "genome.csv"
    header = "condition," + ",".join(f"g{j:04d}" for j in range(n_genes))
    rows = (f"cond{i + 1:02d}," + ",".join(f"{v:.4f}" for v in x[i]) for i in range(m))
    path.write_text(header + "\n" + "\n".join(rows) + "\n")
    return path


@pytest.fixture(scope="module")
def hidden_server():
    with app_server() as url:
        yield url


def test_accept_shows_em_progress_and_stop_cancels_it(hidden_server, tmp_path):
    data = write_table(tmp_path)
    with shared_chromium() as browser:
        page, errors = open_app(browser, hidden_server)
        main = page.locator("[data-testid=stMain]")
        upload(page, data)
        page.get_by_text("27 instances x 2500 variables").first.wait_for(timeout=120_000)
        page.get_by_role("link", name="Hidden variables").first.click()
        propose = main.locator("button", has_text="Propose hidden variables")
        propose.first.wait_for(timeout=60_000)
        propose.first.click()
        page.get_by_text("Proposal to inspect").first.wait_for(timeout=300_000)
        page.wait_for_timeout(1000)
        stop = main.locator("button", has_text="Stop")
        assert stop.first.is_disabled()  # nothing runs

        main.locator("button", has_text="Accept").first.click()
        bar = page.locator("[data-testid=stProgress]")
        bar.first.wait_for(timeout=30_000)
        page.get_by_text("— structural EM iteration").first.wait_for(timeout=60_000)
        said = bar.first.inner_text()
        _shot(page, tmp_path, "hidden_accept_progress.png")
        assert said.startswith("Accept: ") and "s into this EM run" in said and "s elapsed" in said, said
        page.wait_for_function(
            "() => [...document.querySelectorAll('[data-testid=stMain] button')]"
            ".some(b => b.innerText.trim() === 'Stop Accept' && !b.disabled)",
            timeout=10_000,
        )
        # Reject is drawn greyed in the accepting run, not left to a stale element of the run before, which
        # showed an earlier proposal's heatmap over the buttons (walk of session 21)
        reject = main.locator("button", has_text="Reject")
        assert reject.count() == 1 and reject.first.is_disabled()
        stale = "b => { while (b && !b.hasAttribute('data-stale')) b = b.parentElement; return b && b.dataset.stale; }"
        assert reject.first.evaluate(stale) == "false"
        # the enabled one: the page's "Run auto" section has its own Stop, disabled while Accept runs
        main.locator("button:not([disabled])", has_text="Stop Accept").first.click()
        page.get_by_text("Stopped: Accept was cancelled").first.wait_for(timeout=30_000)
        page.wait_for_timeout(1000)
        _shot(page, tmp_path, "hidden_accept_stopped.png")
        text = main.inner_text()
        assert "Undo accept" not in text and "Added H1" not in text
        assert "Accepted hidden variables" in text and "None yet" in text  # the network as it was
        assert not errors, errors
