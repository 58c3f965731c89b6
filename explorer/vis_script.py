"""The JavaScript added to the pyvis drawings of :mod:`explorer.network_view`.

Runs inside the drawing's iframe after vis-network has drawn (pyvis's template defines the
globals ``network``, ``nodes`` and ``edges``):

* opening view: the whole graph when it fits at a zoom of ``__FIT_SCALE__`` or more (its labels
  still legible, so a small network never opens with nodes cut off), else a zoom of
  ``__MIN_SCALE__`` centred on the focus nodes (``__FOCUS__``, e.g. a searched gene) or on the
  graph's centre;
* neighbour highlighting: hovering a node (or clicking it, which pins the highlight until the
  next click on the background) keeps the node, its neighbours and their edges in colour and
  greys out everything else;
* a "Full screen" button (the browser's Fullscreen API; Streamlit's iframes allow it) that
  resizes the drawing to the screen and back.

No Streamlit here; plain strings, with the three placeholders filled by the caller.
"""

from __future__ import annotations

__all__ = ["SCRIPT", "FULLSCREEN_BUTTON"]

#: the button, placed at the top right of the drawing
FULLSCREEN_BUTTON = (
    '<button id="ipe-fullscreen" type="button" title="Show the network full screen (Esc to leave)" '
    'style="position:absolute;top:6px;right:8px;z-index:10;font:13px sans-serif;padding:3px 9px;'
    'border:1px solid #adb5bd;border-radius:4px;background:#ffffff;cursor:pointer">'
    "Full screen</button>"
)

SCRIPT = """
(function () {
  if (typeof network === 'undefined') { return; }
  var minScale = __MIN_SCALE__;
  var fitScale = __FIT_SCALE__;
  var focus = __FOCUS__;
  var container = document.getElementById('mynetwork');
  var normalHeight = container.style.height || getComputedStyle(container).height;

  function openView() {
    network.fit({animation: false});
    if (network.getScale() >= fitScale) { return; }
    var ids = focus.filter(function (id) { return nodes.get(id) !== null; });
    if (ids.length) {
      var pos = network.getPositions(ids), x = 0, y = 0, k = 0;
      for (var id in pos) { x += pos[id].x; y += pos[id].y; k += 1; }
      network.moveTo({position: {x: x / k, y: y / k}, scale: minScale, animation: false});
    } else {
      network.moveTo({scale: minScale, animation: false});
    }
  }
  openView();

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
