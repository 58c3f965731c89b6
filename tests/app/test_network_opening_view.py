"""The Search page's network drawing always opens on the whole network.

Found in a browser at 1280 x 800: after three Steps on the Sachs sample (11 variables) the drawing
fitted at a zoom of 0.72, below the 0.8 it wanted for labels, so it zoomed to 0.8 on the last
move and cut off four nodes and the first learned edge; and (issue 24) a 2-hop neighbourhood of
60 nodes opened zoomed in on the searched gene with most nodes, the hub among them, outside the
frame. Now the drawing never zooms in past the fit; when the fit is too small to read the labels
a hint says how to zoom. The test takes the drawing's own script from the page (AppTest) and runs
it under Node with a stand-in for vis-network, which reports the zoom ``fit()`` would reach;
``tests/app/test_browser_network_fit.py`` measures the real drawing in Chromium.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess

import pytest
from conftest import page_test

from explorer import network_view, state

NODE = shutil.which("node")
pytestmark = pytest.mark.skipif(NODE is None, reason="needs Node.js to run the drawing's script")

#: a stand-in for the globals pyvis's template defines (network, nodes, edges) and the DOM calls
#: the script makes; it prints the view the script leaves: the scale and whether it moved
MOCK = """
var calls = [];
var scale = 1.0;
var mockFit = __FIT__;
var network = {
  fit: function () { scale = mockFit; calls.push('fit'); },
  getScale: function () { return scale; },
  getPositions: function (ids) { var o = {}; ids.forEach(function (i) { o[i] = {x: 0, y: 0}; }); return o; },
  moveTo: function (opt) { if (opt.scale) { scale = opt.scale; } calls.push('moveTo'); },
  on: function () {}, getConnectedNodes: function () { return []; }, getConnectedEdges: function () { return []; },
  setSize: function () {}
};
var store = function (items) { return {get: function (id) { return id === undefined ? items : {}; },
  getIds: function () { return []; }, update: function () {}}; };
var nodes = store([]), edges = store([]);
var elements = {};
var window = {innerHeight: 600};
var document = {getElementById: function (id) {
    if (!elements[id]) {
      elements[id] = {style: {height: '560px'}, offsetHeight: 25, addEventListener: function () {}};
    }
    return elements[id];
  }, fullscreenEnabled: false, addEventListener: function () {}};
var getComputedStyle = function () { return {height: '560px'}; };
"""


def _drawing_script(at) -> str:
    """The script the app added to the drawing (the last inline script of the iframe)."""
    frames = [e for e in at.get("iframe") if "srcdoc" in str(e.proto)]
    assert frames, "no network drawing on the page"
    html = frames[0].proto.srcdoc
    scripts = re.findall(r"<script>(.*?)</script>", html, re.S)
    return next(s for s in reversed(scripts) if "openView" in s)


def _opening_view(script: str, fit_scale: float) -> dict:
    hint = "elements['ipe-zoom-hint'].style.display"
    report = f"\nconsole.log(JSON.stringify({{scale: scale, calls: calls, hint: {hint}}}));"
    code = MOCK.replace("__FIT__", repr(fit_scale)) + script + report
    out = subprocess.run([NODE, "-e", code], capture_output=True, text=True, timeout=30, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


@pytest.fixture(scope="module")
def stepped_script(small_data):
    dataset, truth = small_data
    at = page_test("search.py", dataset, truth).run()
    assert not at.exception
    at.button(key=state.W_STEP).click().run()
    assert not at.exception
    return _drawing_script(at)


def test_a_network_that_fits_legibly_opens_whole(stepped_script):
    # the Sachs case: fit() reaches 0.72 (labels about 11 px): the whole network, no hint
    view = _opening_view(stepped_script, 0.72)
    assert view["calls"] == ["fit"], "the drawing zoomed in and cut nodes off"
    assert view["scale"] == pytest.approx(0.72)
    assert view["hint"] == "none"
    assert network_view.FIT_SCALE * network_view.FONT_SIZE >= 9  # labels legible without the hint


def test_a_network_too_large_to_read_whole_still_opens_whole_with_a_hint(stepped_script):
    # a graph that fits only at 0.3 (labels 4.5 px): still every node in the frame, and a hint
    view = _opening_view(stepped_script, 0.3)
    assert view["calls"] == ["fit"], "the drawing zoomed in and cut nodes off"
    assert view["scale"] == pytest.approx(0.3)
    assert view["hint"] == "block"
