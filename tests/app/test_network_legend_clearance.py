"""Network legends keep clear of the drawing's "Full screen" button.

Found on the Confidence page at 1280 x 800: the one-line legend "strength at least the slider's,
not in the averaged network" ran under the button at the top right ("...not in the averaged ne").
In a browser after the fix, the button spans 722-812 px of an 820 px drawing and no legend item
overlaps it.
"""

from __future__ import annotations

import re

from conftest import page_test

from explorer import state


def _legend_right_padding(html: str) -> int:
    match = re.search(r'id="ipe-legend" style="[^"]*padding:\d+px (\d+)px', html)
    assert match, "no legend in the drawing"
    return int(match.group(1))


def test_search_drawing_legend_leaves_room_for_the_button(small_data):
    dataset, truth = small_data
    at = page_test("search.py", dataset, truth).run()
    at.button(key=state.W_STEP).click().run()  # a last move: the legend names it
    assert not at.exception
    html = next(e.proto.srcdoc for e in at.get("iframe") if "ipe-legend" in str(e.proto))
    assert 'id="ipe-fullscreen"' in html
    # the button: 13 px text "Full screen" + 18 px padding + border, 8 px from the right edge
    assert _legend_right_padding(html) >= 100
