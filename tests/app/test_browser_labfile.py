"""A biologist's headerless file in a real headless Chromium at 1280 px (issue #24): the refusal
and its one-click fix, a regulator list drawn in the network, and the Truth page's rerun command.

Marked ``browser``; its own server on a free port. Screenshots go to
pytest's ``tmp_path`` and /tmp/ipe_screens/.
"""

from __future__ import annotations

import numpy as np
import pytest
from test_browser import _shot, app_server, settled, shared_chromium, upload

from engine.synth import random_network, sample

pytestmark = pytest.mark.browser


def test_headerless_file_fix_regulators_and_rerun(tmp_path):
    values = np.asarray(sample(random_network(12, seed=21), 27, seed=22)) + 9.0
    path = tmp_path / "rv_genes.tsv"  # the file: a gene id and 27 quoted numbers per line
    path.write_text(
        "".join(f"Rv{g + 1:04d}\t" + "\t".join(f'"{float(v)!r}"' for v in values[:, g]) + "\n" for g in range(12))
    )
    with app_server() as url, shared_chromium() as browser:
        page = browser.new_page(viewport={"width": 1280, "height": 1400})
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(url, wait_until="domcontentloaded")
        page.get_by_text("853 instances x 11 variables").first.wait_for(timeout=60_000)
        upload(page, path)
        page.get_by_text("variables in rows (transpose)", exact=True).click()
        page.get_by_text("seems to have no header row").first.wait_for(timeout=60_000)
        shown = page.locator("[data-testid=stMain] [data-testid=stAlert]").first.inner_text()
        assert "'Rv0001'" in shown and "First line is data" in shown
        _shot(page, tmp_path, "labfile_headerless_refused.png")
        page.get_by_role("button", name="Read the first line as data").click()
        page.get_by_text("27 instances x 12 variables").first.wait_for(timeout=60_000)
        sidebar = page.locator("[data-testid=stSidebar]").inner_text()
        assert "no header row" in sidebar or "What loading did" in sidebar

        apply = settled(page, page.get_by_role("button", name="Apply"))  # a stale form can linger in the rerun
        box = page.locator("[data-testid=stSidebar] textarea").first
        box.fill("Rv0001\nRv0002\nRv0003\nRv9999")
        apply.click()
        page.get_by_text("regulators: 3 of 4 listed names found").first.wait_for(timeout=60_000)
        page.get_by_role("link", name="Search").first.click()
        page.get_by_text("Moves: 0").first.wait_for(timeout=60_000)
        page.locator("[data-testid=stMain] button", has_text="Run to convergence").first.click()
        page.get_by_text("Converged").first.wait_for(timeout=60_000)
        page.wait_for_timeout(1500)
        frame = page.frame_locator("iframe").first
        assert "candidate regulator" in frame.locator("#ipe-legend").inner_text()
        _shot(page, tmp_path, "labfile_search_regulators.png")

        page.get_by_role("link", name="Truth & export").first.click()
        page.get_by_text("Learn it again from the command line").first.wait_for(timeout=60_000)
        code = page.locator("[data-testid=stCode]").first.inner_text()
        assert "python -m engine learn rv_genes.tsv" in code and "--no-header" in code and "--transpose" in code
        assert "--regulators regulators.txt" in code
        page.get_by_text("Regulator list (txt)").first.wait_for(timeout=30_000)
        page.get_by_text("Regulator list (txt)").first.scroll_into_view_if_needed()
        page.wait_for_timeout(800)
        _shot(page, tmp_path, "labfile_truth_rerun.png")
        assert not errors, errors
