"""The Hidden page's proposals table at 1280 px in a real headless Chromium: every column, the
leverage and the status included, is inside the table without scrolling it sideways.

Marked ``browser``; its own server on a free port. The screenshot goes to
pytest's ``tmp_path`` and /tmp/ipe_screens/.
"""

from __future__ import annotations

import pytest
from test_browser import _shot, app_server, open_app, shared_chromium

pytestmark = pytest.mark.browser

#: the table's scrolled width and its visible width (glide-data-grid scrolls in ``.dvn-scroller``)
WIDTHS_JS = """() => {
  const s = document.querySelector('[data-testid=stDataFrame] .dvn-scroller');
  return [s.scrollWidth, s.clientWidth];
}"""


def test_proposals_table_fits_at_1280_px(tmp_path):
    with app_server() as url, shared_chromium() as browser:
        page, errors = open_app(browser, url)
        page.set_viewport_size({"width": 1280, "height": 800})
        page.get_by_role("link", name="Hidden variables").first.click()
        page.locator("[data-testid=stDataFrame] .dvn-scroller").first.wait_for(timeout=60_000)
        page.wait_for_timeout(1500)
        scroll_width, client_width = page.evaluate(WIDTHS_JS)
        _shot(page, tmp_path, "hidden_columns_1280.png")
        assert scroll_width <= client_width, f"the table scrolls sideways: {scroll_width} px in {client_width} px"
        assert not errors, errors
