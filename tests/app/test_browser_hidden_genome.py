"""The Hidden page on a 2500-gene table in a real headless Chromium (issue #22): the proposals are
listed on request, the one resting on a single odd condition is flagged with that condition's
name, and the profile plot's axis names the conditions.

Marked ``browser``; its own server on a free port. Screenshots go to
pytest's ``tmp_path`` and /tmp/ipe_screens/.
"""

from __future__ import annotations

import pytest
from hidden_browser import GENOME_SHAPE, ODD, open_with, propose, write_genome_table
from test_browser import _shot, app_server, shared_chromium

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def proposed(tmp_path_factory):
    """(page, its JavaScript errors, seconds from Propose to the table): the app with the 2500-gene
    table uploaded and its proposals listed, once for this file's tests (both only read the page:
    the upload and the proposals took ~40 s of each test's ~60 s)."""
    path = tmp_path_factory.mktemp("genome") / "genome_2500.csv"
    write_genome_table(path)
    with app_server() as url, shared_chromium() as browser:
        page, errors = open_with(browser, url, path, GENOME_SHAPE)
        listed_s = propose(page)
        yield page, errors, listed_s


def test_hidden_page_at_2500_genes_names_the_odd_condition(proposed, tmp_path):
    page, errors, listed_s = proposed
    warning = page.locator("[data-testid=stAlert]", has_text="draw most of their profile from").first
    warning.wait_for(timeout=30_000)
    assert ODD in warning.inner_text()
    # the profile plot's axis names conditions, not sorted indices
    page.locator(".js-plotly-plot").first.wait_for(timeout=30_000)
    page.wait_for_timeout(1500)
    ticks = page.eval_on_selector_all(".js-plotly-plot .xtick text", "els => els.map(e => e.textContent)")
    assert any(t.endswith("min") for t in ticks), ticks
    _shot(page, tmp_path, "hidden_genome_2500.png")
    print(f"Hidden page, 2500 genes x 27 conditions: proposals listed {listed_s:.1f} s after the click")
    assert not errors, errors


def test_profile_plot_legend_clear_of_the_lines_and_every_condition_named(proposed, tmp_path):
    """The QA walk on a real E. coli table (2500 genes x 27 conditions): the profile plot's legend,
    one entry per member (12 of them, 4 rows), covered the top of the plot and hid part of z*'s line,
    and the 40-member module drew 12 lines without saying so. The legend must sit outside the plot
    area, say how many members are drawn, and every condition must be named on the axis."""
    page, errors, _ = proposed
    plot = page.locator(".js-plotly-plot").first
    plot.wait_for(timeout=30_000)
    page.wait_for_timeout(1500)
    plot.scroll_into_view_if_needed()
    legend = plot.locator("g.legend").bounding_box()
    area = plot.locator("rect.nsewdrag").first.bounding_box()  # the plot area
    _shot(page, tmp_path, "hidden_profile_legend.png")
    assert legend["y"] + legend["height"] <= area["y"] + 1, (legend, area)  # above the lines, not on them
    entries = plot.locator(".legendtext").evaluate_all("els => els.map(e => e.textContent)")
    assert any("drawn" in e and " of " in e for e in entries), entries
    ticks = plot.locator(".xtick text").evaluate_all(
        "els => els.map(e => e.textContent)"
    )  # the profile plot's, not the heatmaps'
    assert len(ticks) == 27 and ODD in ticks, ticks
    assert not errors, errors
