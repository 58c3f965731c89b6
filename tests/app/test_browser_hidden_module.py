"""A biologist's session in a real headless Chromium (issue #22): a headerless genes-in-rows lab
table (500 genes x 24 conditions, a 30-gene module of an unmeasured regulator, one odd condition,
3 NA cells) is read with "variables in rows" and "First line is data", searched, and the Hidden
page lists the module first and the odd condition flagged by name, not first; Accept, then the
Inspector opens on H1 and the Truth page offers the export.

Marked ``browser``; its own server on a free port. Screenshots go to
pytest's ``tmp_path`` and /tmp/ipe_screens/.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from module_table import write_module_table
from test_browser import _shot, app_server, open_app, shared_chromium, upload

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def module_server():
    with app_server() as url:
        yield url


def test_module_first_odd_condition_named_accept_and_inspect(module_server, tmp_path):
    table = write_module_table(tmp_path / "lab_genes.tsv", seed=11)
    with shared_chromium() as browser:
        page, errors = open_app(browser, module_server)
        upload(page, table.path)
        page.get_by_text("seems to have no header row").first.wait_for(timeout=60_000)
        page.get_by_text("variables in rows (transpose)", exact=True).click()
        page.get_by_role("button", name="Read the first line as data").click()
        page.get_by_text("24 instances x 500 variables").first.wait_for(timeout=120_000)
        # the missing-cells banner's command reads the file as the app did
        banner = page.locator("[data-testid=stAlert]", has_text="missing cell").first.inner_text()
        assert "lab_genes.tsv --transpose" in banner and "--no-header" in banner, banner
        page.get_by_role("link", name="Search").first.click()
        page.get_by_text("Moves: 0").first.wait_for(timeout=60_000)
        page.locator("[data-testid=stMain] button", has_text="Run to convergence").first.click()
        page.get_by_text("Converged").first.wait_for(timeout=120_000)

        page.get_by_role("link", name="Hidden variables").first.click()
        page.get_by_role("button", name="Propose hidden variables", exact=True).first.click()
        page.get_by_text("Proposal #1:").first.wait_for(timeout=120_000)
        members = page.locator("[data-testid=stMarkdown]", has_text="Members:").first.inner_text()
        assert len(set(table.module) & set(members.replace("Members:", "").strip().split(", "))) >= 27
        warning = page.locator("[data-testid=stAlert]", has_text="draw most of their profile from").first
        assert table.odd_condition in warning.inner_text() and "(rank 1;" not in warning.inner_text()
        page.wait_for_timeout(1500)
        _shot(page, tmp_path, "hidden_module_proposals.png")

        page.get_by_role("button", name="Accept", exact=True).first.click()
        page.get_by_text("Added H1").first.wait_for(timeout=180_000)
        page.get_by_role("heading", name="Regulator report").first.wait_for(timeout=30_000)
        page.wait_for_timeout(1500)
        _shot(page, tmp_path, "hidden_module_accepted.png")

        page.get_by_role("link", name="Inspector").first.click()
        page.get_by_text("Family of H1").first.wait_for(timeout=60_000)
        page.locator(".js-plotly-plot").nth(1).wait_for(timeout=30_000)
        page.wait_for_timeout(1500)
        _shot(page, tmp_path, "hidden_module_inspector.png")

        page.get_by_role("link", name="Truth & export").first.click()
        page.get_by_text("Learn it again from the command line").first.wait_for(timeout=60_000)
        page.wait_for_timeout(1000)
        _shot(page, tmp_path, "hidden_module_truth.png")
        with page.expect_download(timeout=60_000) as download:
            page.get_by_role("button", name="JSON (CLI result format)").click()
        exported = json.loads(Path(download.value.path()).read_text())
        (entry,) = exported["hidden"]
        weights = {e["child"]: e["weight"] for e in exported["edges"] if e["parent"] == "H1"}
        assert {r["child"]: r["loading"] for r in entry["report"]} == pytest.approx(weights)  # one fit
        assert len(set(weights) & set(table.module)) >= 20 and entry["instances"][0] == "sample1"
        assert not errors, errors
        assert page.locator("[data-testid=stException]").count() == 0
