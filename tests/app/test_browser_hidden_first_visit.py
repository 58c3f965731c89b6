"""A biologist's first visit to the Hidden page, in a real headless Chromium: a genes x conditions
TSV (the newcomer lab file: 800 genes, a 30-gene module, salt_2h extreme), turned round, then
straight to Hidden variables without a search. Before any Propose the page says the network has
not been searched, with "Run the search to convergence first" above a secondary "Propose"; after
the search the warning is gone and the proposals name their known gene set before Accept.

Marked ``browser``; its own server on a free port. Screenshots go to
pytest's ``tmp_path`` and /tmp/ipe_screens/.
"""

from __future__ import annotations

import pytest
from test_browser import _shot, app_server, open_app, settled, shared_chromium, upload
from test_browser_newcomer import write_lab

pytestmark = pytest.mark.browser


def test_hidden_page_first_visit_asks_for_a_search_first(tmp_path):
    from playwright.sync_api import expect

    data, _, module = write_lab(tmp_path)
    gmt = tmp_path / "regulons.gmt"
    gmt.write_text("MADEUP_REGULON\tna\t" + "\t".join(module) + "\n")
    with app_server() as url, shared_chromium() as browser:
        page, errors = open_app(browser, url)
        main = page.locator("[data-testid=stMain]")
        upload(page, data)
        page.get_by_text("These data look the wrong way round").first.wait_for(timeout=120_000)
        main.locator("button", has_text="Transpose").first.click()
        page.get_by_text("Transposed: the data are now 24 instances x 800 variables").first.wait_for(timeout=120_000)
        settled(page, page.get_by_text("Gene sets (prior knowledge)")).click()
        sets_box = page.locator("[data-testid=stSidebar] [data-testid=stExpander]").filter(has_text="Gene sets")
        sets_box.locator("input[type=file]").set_input_files(str(gmt))
        page.get_by_text("1 gene set(s)").first.wait_for(timeout=60_000)

        page.get_by_role("link", name="Hidden variables").first.click()
        page.get_by_text("The network has not been searched yet").first.wait_for(timeout=60_000)
        search_first = main.get_by_role("button", name="Run the search to convergence first")
        propose = main.get_by_role("button", name="Propose hidden variables", exact=True)
        assert search_first.bounding_box()["y"] < propose.bounding_box()["y"]  # said before the button
        assert search_first.get_attribute("kind") == "primary" and propose.get_attribute("kind") == "secondary"
        page.wait_for_timeout(800)
        _shot(page, tmp_path, "hidden_first_visit.png")

        search_first.click()
        page.get_by_text("The network has not been searched yet").first.wait_for(state="detached", timeout=300_000)
        propose = main.get_by_role("button", name="Propose hidden variables", exact=True)
        # the warning leaves the page a moment before the rerun restyles the button: wait for the restyle
        expect(propose).to_have_attribute("kind", "primary", timeout=60_000)
        propose.click()
        page.get_by_text("Proposal to inspect").first.wait_for(timeout=300_000)
        known = main.locator("p", has_text="Known gene sets among the members:").first
        known.wait_for(timeout=60_000)
        assert "MADEUP_REGULON (" in known.inner_text()
        page.wait_for_timeout(1000)
        _shot(page, tmp_path, "hidden_first_visit_proposals.png")
        assert errors == [], errors
