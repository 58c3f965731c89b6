"""Issue 24: every drawn node, and its label, inside the network frame at 1280 x 800.

Found at 1280 px: a 2-hop neighbourhood of 60 nodes opened zoomed in on the searched gene, most
of it (the hub too) outside the frame until "Large view", labels cut at the frame's edge. The
test plants a hub (HUB1 -> 12 genes -> 3 genes each, among 200 variables), learns the network in
the app, draws HUB1's 2-hop neighbourhood and measures in Chromium where vis-network put every
node's box (label included): ``network.getBoundingBox`` mapped by ``network.canvasToDOM`` must lie
inside the canvas, the canvas inside its iframe and the iframe inside the window. The Sachs
sample's drawing and the Truth page's (whose five-item legend wraps) are measured too.
"""

from __future__ import annotations

import os

import numpy as np
import pandas as pd
import pytest
from test_browser import app_server, shared_chromium, upload

pytestmark = pytest.mark.browser

VIEWPORT = {"width": 1280, "height": 800}

#: in the drawing's iframe: every node's box in canvas pixels, the canvas in the iframe, the button
MEASURE = """() => {
  const canvas = document.querySelector('#mynetwork canvas');
  const c = canvas.getBoundingClientRect();
  const out = [];
  for (const id of nodes.getIds()) {
    const b = network.getBoundingBox(id);
    const tl = network.canvasToDOM({x: b.left, y: b.top});
    const br = network.canvasToDOM({x: b.right, y: b.bottom});
    if (tl.x < 0 || tl.y < 0 || br.x > canvas.clientWidth || br.y > canvas.clientHeight) {
      out.push(nodes.get(id).label);
    }
  }
  const button = document.getElementById('ipe-fullscreen').getBoundingClientRect();
  return {n: nodes.length, outside: out, labels: nodes.get().map(n => n.label), scale: network.getScale(),
          canvas: {top: c.top, bottom: c.bottom, left: c.left, right: c.right},
          frame: {width: window.innerWidth, height: window.innerHeight}, button_bottom: button.bottom};
}"""


def _hub_table(path) -> None:
    rng = np.random.default_rng(0)
    m, n = 300, 200
    x = rng.normal(size=(m, n))
    names = ["HUB1"] + [f"G{i:03d}" for i in range(1, n)]
    grandchild = 13
    for child in range(1, 13):
        x[:, child] = 0.8 * x[:, 0] + 0.6 * rng.normal(size=m)
        for _ in range(3):
            x[:, grandchild] = 0.8 * x[:, child] + 0.6 * rng.normal(size=m)
            grandchild += 1
    pd.DataFrame(x, columns=names).to_csv(path, index=False)


def _settle(page, ms: int = 1500) -> None:
    page.wait_for_timeout(300)
    page.wait_for_function("() => !document.querySelector('[data-testid=stStatusWidget]')", timeout=120_000)
    page.wait_for_timeout(ms)


def _measure(page) -> dict:
    iframe = page.locator("iframe").first
    iframe.scroll_into_view_if_needed()
    page.wait_for_timeout(500)
    frame = next(f for f in page.frames if f != page.main_frame and f.evaluate("typeof nodes !== 'undefined'"))
    view = frame.evaluate(MEASURE)
    view["iframe"] = iframe.bounding_box()
    return view


def _assert_all_inside(view: dict) -> None:
    assert view["n"] > 0
    assert not view["outside"], f"nodes or labels outside the frame: {view['outside']}"
    canvas, frame = view["canvas"], view["frame"]
    assert canvas["left"] >= 0 and canvas["right"] <= frame["width"] + 0.5
    assert canvas["bottom"] <= frame["height"] + 0.5, "the drawing's bottom is cut by its iframe"
    assert view["button_bottom"] <= canvas["top"] + 0.5, "the Full screen button covers the drawing"
    box = view["iframe"]
    assert box["x"] >= 0 and box["x"] + box["width"] <= VIEWPORT["width"]


@pytest.fixture(scope="module")
def server():
    url = os.environ.get("IPE_TEST_SERVER")  # a running app, for debugging this test
    if url:
        yield url
        return
    with app_server() as url:
        yield url


def test_two_hop_neighbourhood_of_a_hub_fits_the_frame(server, tmp_path):
    path = tmp_path / "hub200.csv"
    _hub_table(path)
    with shared_chromium() as browser:
        page = browser.new_page(viewport=VIEWPORT)
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.set_default_timeout(60_000)
        page.goto(server, wait_until="domcontentloaded")
        page.get_by_text("853 instances x 11 variables").first.wait_for(timeout=60_000)

        # the Sachs sample after three steps
        page.get_by_role("link", name="Search").first.click()
        _settle(page)
        for _ in range(3):
            page.locator("[data-testid=stMain] button", has_text="Step").first.click()
            _settle(page, 500)
        sachs = _measure(page)
        _assert_all_inside(sachs)
        assert sachs["n"] == 11

        # the Truth page: a legend of five kinds of edge wraps above the drawing
        page.get_by_role("link", name="Truth & export").first.click()
        _settle(page)
        _assert_all_inside(_measure(page))

        # 200 variables: learn the network, then draw HUB1's 2-hop neighbourhood
        upload(page, path)
        page.get_by_text("300 instances x 200 variables").first.wait_for(timeout=60_000)
        page.get_by_role("link", name="Search").first.click()
        _settle(page)
        page.locator("[data-testid=stMain] button", has_text="Run to convergence").click()
        page.get_by_text("Converged").first.wait_for(timeout=300_000)
        _settle(page)
        page.get_by_role("combobox", name="Search genes").click()
        page.keyboard.type("HUB1")
        page.get_by_role("option", name="HUB1", exact=True).click()
        page.keyboard.press("Escape")
        _settle(page, 500)
        hops = page.get_by_label("Hops")
        hops.fill("2")
        hops.press("Enter")
        page.get_by_text("2-hop neighbourhood of HUB1").first.wait_for(timeout=30_000)
        _settle(page)
        hub = _measure(page)
        page.screenshot(path=str(tmp_path / "hub_neighbourhood.png"))
        assert hub["n"] >= 40 and "HUB1" in hub["labels"]
        _assert_all_inside(hub)
        assert not errors, errors
