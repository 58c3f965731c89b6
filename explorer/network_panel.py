"""The controls above the Search and Truth pages' network drawings, and what they choose.

At every size: a "Large view" toggle (full page width, tall drawing; the drawing's own button
shows it full screen). Above :data:`~explorer.subnetwork.SUBNETWORK_THRESHOLD` variables: which
sub-network to draw (the last moves', a gene's k-hop neighbourhood, the most connected
variables), a gene search box and the node limit. Only the variables drawn are laid out (their
positions are cached per set of variables), so the cost of a drawing does not grow with N.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import streamlit as st

from engine.search import Move
from explorer import state
from explorer.subnetwork import DEFAULT_MAX_NODES, MODES, SUBNETWORK_THRESHOLD, SubNetwork, select_subnetwork

__all__ = ["NetworkView", "network_controls", "paused_large", "NORMAL_HEIGHT", "LARGE_HEIGHT"]

NORMAL_HEIGHT = 560
LARGE_HEIGHT = 860
MODE_LABELS = {
    "last moves": "Last moves",
    "around genes": "Around genes",
    "most connected": "Most connected",
}


@dataclass(frozen=True)
class NetworkView:
    """What a page draws: the variables (None: all), where, the nodes to open on, the size."""

    shown: tuple[int, ...] | None
    focus: tuple[int, ...]
    positions: dict[str, tuple[float, float]]
    height: int
    large: bool
    sub: SubNetwork | None = None

    @property
    def key(self) -> tuple:
        """What the drawing depends on besides the network itself."""
        return (self.shown, self.focus, self.height)


def _keys(prefix: str) -> dict[str, str]:
    return {k: f"{prefix}_{k}" for k in ("large", "mode", "genes", "hops", "max_nodes")}


def _on_genes(mode_key: str, genes_key: str) -> None:
    if state.get(genes_key):
        state.put(mode_key, "around genes")


def _sub_positions(nodes: tuple[int, ...], n_observed: int) -> dict[str, tuple[float, float]]:
    """Positions of the shown data variables (hidden ones are placed by the drawing), laid out
    from their own columns only and cached per set of variables."""
    session = state.session()
    names = session.variable_names()
    observed = [i for i in nodes if i < n_observed]

    def build() -> dict[str, tuple[float, float]]:
        from explorer.graph_layout import data_layout

        pos = data_layout(np.asarray(session.dataset.values)[:, observed])
        return {names[i]: (float(x), float(y)) for i, (x, y) in zip(observed, pos, strict=True)}

    return state.memo("subnetwork_layout", (session.data_version, tuple(sorted(observed))), build)


def network_controls(
    prefix: str,
    names: Sequence[str],
    edges: Sequence[tuple[int, int]],
    history: Sequence[Move] = (),
    modes: Sequence[str] = MODES,
) -> NetworkView:
    """Draw the controls (keys start with ``prefix``) and return what to draw.

    ``edges`` are the (parent, child) indices that decide neighbourhoods and degrees (the current
    network's, or on the Truth page the learned and true edges together); ``history`` the moves so
    far (newest last); ``modes`` the choices offered, the first the default (a page without moves,
    such as Confidence, leaves out "last moves").
    """
    keys = _keys(prefix)
    session = state.session()
    n = len(names)
    big = n > SUBNETWORK_THRESHOLD
    if big:
        state.keep_widgets(
            {keys["mode"]: modes[0], keys["genes"]: [], keys["hops"]: 1, keys["max_nodes"]: DEFAULT_MAX_NODES},
            choices={keys["mode"]: tuple(modes)},
        )
        # a kept gene list may name variables these data do not have
        kept = [g for g in state.get(keys["genes"]) or [] if g in set(names)]
        state.put(keys["genes"], kept)
        row = st.container(horizontal=True, vertical_alignment="bottom", gap="small")
        row.radio("Show", list(modes), format_func=MODE_LABELS.get, horizontal=True, key=keys["mode"])
        row.multiselect(
            "Search genes",
            list(names),
            key=keys["genes"],
            placeholder="Type a name…",
            on_change=_on_genes,
            args=(keys["mode"], keys["genes"]),
            help="Type part of a variable's name and pick it: the drawing shows its neighbourhood.",
            width=300,
        )
        row.number_input("Hops", min_value=1, max_value=4, step=1, key=keys["hops"], width=90)
        row.number_input(
            "Max nodes", min_value=10, max_value=SUBNETWORK_THRESHOLD, step=10, key=keys["max_nodes"], width=130
        )
        state.remember_widgets(keys["mode"], keys["genes"], keys["hops"], keys["max_nodes"])
    state.keep_widgets({keys["large"]: False})  # not drawn while a run goes on (:func:`paused_large`)
    large = st.toggle(
        "Large view",
        key=keys["large"],
        help="The drawing at full page width and tall; the 'Full screen' button in the drawing fills the screen.",
    )
    state.remember_widgets(keys["large"])
    height = LARGE_HEIGHT if large else NORMAL_HEIGHT
    if not big:
        return NetworkView(None, (), state.layout_positions(), height, large)
    index = {name: i for i, name in enumerate(names)}
    centres = tuple(index[g] for g in state.get(keys["genes"]) or [] if g in index)
    mode = state.get(keys["mode"]) or modes[0]
    sub = select_subnetwork(
        names,
        edges,
        mode=mode,
        centres=centres,
        hops=int(state.get(keys["hops"]) or 1),
        max_nodes=int(state.get(keys["max_nodes"]) or DEFAULT_MAX_NODES),
        history=history,
        hidden=range(session.dataset.n_vars, n),  # after the data's variables (session.variable_names)
    )
    focus = centres if mode == "around genes" else ()
    positions = _sub_positions(sub.nodes, session.dataset.n_vars)
    return NetworkView(tuple(sorted(sub.nodes)), focus, positions, height, large, sub)


def paused_large(prefix: str) -> bool:
    """While a run goes on, instead of :func:`network_controls` (the drawing is paused): nothing is
    drawn or laid out, the controls' values are kept for when it ends, and whether the large view is on."""
    keys = _keys(prefix)
    state.remember_widgets(*keys.values())  # still in session state on the run's first chunk
    return bool(st.session_state.get(keys["large"], st.session_state.get("_keep_" + keys["large"], False)))
