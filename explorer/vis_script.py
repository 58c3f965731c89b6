"""The JavaScript added to the pyvis drawings of :mod:`explorer.network_view`.

Runs inside the drawing's iframe after vis-network has drawn (pyvis's template defines the
globals ``network``, ``nodes`` and ``edges``):

* opening view: always the whole graph, every node and its label inside the frame (issue 24: a
  2-hop neighbourhood of 60 nodes opened zoomed in on the searched gene, with its hub and most
  nodes outside the frame); fitted again after the first drawing, when vis-network knows the
  label sizes. Below a zoom of ``__FIT_SCALE__`` (labels under about 9 px) a hint at the bottom
  says how to read them (zoom in, Large view, Full screen);
* neighbour highlighting: hovering a node (or clicking it, which pins the highlight until the
  next click on the background) keeps the node, its neighbours and their edges in colour and
  greys out everything else;
* the drawing's height shrinks to what the iframe leaves below the legend, so that a legend
  wrapped onto several lines never pushes the bottom of the drawing out of view;
* a "Full screen" button (the browser's Fullscreen API; Streamlit's iframes allow it) that
  resizes the drawing to the screen and back.

No Streamlit here; plain strings, with the three placeholders filled by the caller.
"""

from __future__ import annotations

__all__ = ["SCRIPT", "FULLSCREEN_BUTTON", "ZOOM_HINT"]

#: the button, placed at the top right of the drawing
FULLSCREEN_BUTTON = (
    '<button id="ipe-fullscreen" type="button" title="Show the network full screen (Esc to leave)" '
    'style="position:absolute;top:6px;right:8px;z-index:10;font:13px sans-serif;padding:3px 9px;'
    'border:1px solid #adb5bd;border-radius:4px;background:#ffffff;cursor:pointer">'
    "Full screen</button>"
)

#: shown over the bottom left of the drawing when the whole graph fits only at a small zoom
ZOOM_HINT = (
    '<div id="ipe-zoom-hint" style="display:none;position:absolute;left:6px;bottom:6px;z-index:10;'
    "font:12px sans-serif;color:#495057;background:rgba(255,255,255,0.85);padding:2px 6px;"
    'border-radius:4px;pointer-events:none">All nodes shown: scroll to zoom in, or use Large view.</div>'
)

SCRIPT = """
(function () {
  if (typeof network === 'undefined') { return; }
  var fitScale = __FIT_SCALE__;
  var container = document.getElementById('mynetwork');
  var normalHeight = container.style.height || getComputedStyle(container).height;
  var hint = document.getElementById('ipe-zoom-hint');
  var legendBar = document.getElementById('ipe-legend');

  // a legend that wraps onto several lines must not push the drawing's bottom out of the iframe
  function fitFrame() {
    var free = window.innerHeight - (legendBar ? legendBar.offsetHeight : 0) - 8;
    if (free > 100 && free < parseFloat(normalHeight)) {
      container.style.height = free + 'px';
      network.setSize('100%', free + 'px');
    }
  }
  if (!document.fullscreenElement) { fitFrame(); }

  function openView() {
    network.fit({animation: false});
    if (hint) { hint.style.display = network.getScale() < fitScale ? 'block' : 'none'; }
  }
  openView();
  // the labels' sizes are measured when first drawn: fit once more with them
  var refitted = false;
  network.on('afterDrawing', function () {
    if (!refitted) { refitted = true; openView(); }
  });

  var nodeStyle = {}, edgeStyle = {};
  nodes.get().forEach(function (n) { nodeStyle[n.id] = {color: n.color, font: n.font || {color: '#343434'}}; });
  edges.get().forEach(function (e) { edgeStyle[e.id] = e.color; });
  var dimNode = {background: '#f8f9fa', border: '#dee2e6'};
  var pinned = null;

  function highlight(id) {
    var keepNodes = null, keepEdges = {};
    if (id !== null) {
      keepNodes = {};
      keepNodes[id] = true;
      network.getConnectedNodes(id).forEach(function (u) { keepNodes[u] = true; });
      network.getConnectedEdges(id).forEach(function (e) { keepEdges[e] = true; });
    }
    nodes.update(nodes.getIds().map(function (u) {
      var on = keepNodes === null || keepNodes[u];
      return {id: u, color: on ? nodeStyle[u].color : dimNode,
              font: on ? nodeStyle[u].font : {color: '#ced4da'}};
    }));
    edges.update(edges.getIds().map(function (e) {
      var on = id === null || keepEdges[e];
      return {id: e, color: on ? edgeStyle[e] : '#eceff1'};
    }));
  }
  network.on('selectNode', function (p) { pinned = p.nodes[0]; highlight(pinned); });
  network.on('deselectNode', function () { pinned = null; highlight(null); });
  network.on('hoverNode', function (p) { if (pinned === null) { highlight(p.node); } });
  network.on('blurNode', function () { if (pinned === null) { highlight(null); } });

  var button = document.getElementById('ipe-fullscreen');
  if (button) {
    if (!document.fullscreenEnabled) { button.style.display = 'none'; }
    button.addEventListener('click', function () {
      if (document.fullscreenElement) { document.exitFullscreen(); }
      else { document.documentElement.requestFullscreen(); }
    });
    document.addEventListener('fullscreenchange', function () {
      var legend = document.getElementById('ipe-legend');
      var free = window.innerHeight - (legend ? legend.offsetHeight : 0) - 12;
      var h = document.fullscreenElement ? free + 'px' : normalHeight;
      container.style.height = h;
      network.setSize('100%', h);
      button.textContent = document.fullscreenElement ? 'Leave full screen' : 'Full screen';
      openView();
    });
  }
})();
"""
