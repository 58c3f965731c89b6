"""Issue #11 in the explorer: the network view above 150 variables (a sub-network, laid out alone,
with controls and a caption), the drawings' readability features, and the orientation box with its
undoable Transpose.

Pure functions first (explorer.subnetwork, graph_layout, network_view), then the Search and Truth
pages on a 200-variable network (above the threshold, still fast), then the orientation box.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from conftest import page_test, texts

from engine.io import from_frame
from engine.search import Move, Operator
from engine.synth import random_network, sample_dataset
from explorer import actions, graph_layout, network_view, state, subnetwork
from explorer.session import SearchSession

NAMES = [f"g{i}" for i in range(10)]
# a chain g0 - g1 - g2 - g3 and a star around g5
EDGES = [(0, 1), (1, 2), (2, 3), (5, 6), (5, 7), (8, 5)]


class TestSelectSubnetwork:
    def test_k_hop_neighbourhood(self):
        one = subnetwork.select_subnetwork(NAMES, EDGES, mode="around genes", centres=[1], hops=1)
        assert set(one.nodes) == {0, 1, 2} and one.n_edges_shown == 2 and one.n_edges_total == 6
        two = subnetwork.select_subnetwork(NAMES, EDGES, mode="around genes", centres=[1], hops=2)
        assert set(two.nodes) == {0, 1, 2, 3}
        assert "2-hop neighbourhood of g1" in two.caption() and "4 of 10 variables" in two.caption()

    def test_node_limit_cuts_nearest_first_and_says_so(self):
        sub = subnetwork.select_subnetwork(NAMES, EDGES, mode="around genes", centres=[5], hops=3, max_nodes=3)
        assert sub.nodes[0] == 5 and len(sub.nodes) == 3 and set(sub.nodes) < {5, 6, 7, 8}
        assert sub.truncated and "node limit" in sub.caption()

    def test_most_connected_and_last_moves(self):
        top = subnetwork.select_subnetwork(NAMES, EDGES, mode="most connected", max_nodes=3)
        assert top.nodes[0] == 5 and len(top.nodes) == 3
        history = [Move(Operator.ADD, 0, 1), Move(Operator.REPLACE, 8, 5, removed=9)]
        recent = subnetwork.select_subnetwork(NAMES, EDGES, mode="last moves", history=history, max_nodes=20)
        # newest move first (8, 5 and the replaced 9), then the first move's ends, then neighbours
        assert recent.nodes[:5] == (8, 5, 9, 0, 1)
        assert set(recent.nodes) == {8, 5, 9, 0, 1, 6, 7, 2}

    def test_fallbacks_say_what_is_shown(self):
        empty = subnetwork.select_subnetwork(NAMES, [], mode="last moves", max_nodes=4)
        assert empty.nodes == (0, 1, 2, 3) and "no edges yet" in empty.description
        no_gene = subnetwork.select_subnetwork(NAMES, EDGES, mode="around genes", max_nodes=2)
        assert "no gene chosen" in no_gene.description
        with pytest.raises(ValueError, match="mode"):
            subnetwork.select_subnetwork(NAMES, EDGES, mode="everything")

    def test_find_names(self):
        names = ["GAL4", "gal80", "XGAL1", "MIG1"]
        assert subnetwork.find_names(names, "gal") == [0, 1, 2]  # starts with it, then contains it
        assert subnetwork.find_names(names, "GAL4") == [0]
        assert subnetwork.find_names(names, "  ") == []


class TestLayoutAndDrawing:
    def test_layout_is_refused_above_its_limit(self):
        n = graph_layout.MAX_LAYOUT_NODES + 1
        with pytest.raises(ValueError, match="sub-network"):
            graph_layout.data_layout(np.zeros((5, n)))
        with pytest.raises(ValueError, match="sub-network"):
            graph_layout.spring_layout(n)

    def test_drawing_shows_only_the_sub_network(self):
        names = [f"gene{i}" for i in range(300)]
        edges = [(1, 2, 0.5), (2, 3, -0.4), (250, 251, 0.9)]
        positions = {n: (float(i), 0.0) for i, n in enumerate(names[:5])}
        html = network_view.search_network_html(
            names, edges, positions, hidden={"gene2"}, shown=[1, 2, 3], focus=[1], last_move=Move(Operator.ADD, 2, 3)
        )
        assert '"gene1"' in html and '"gene3"' in html and '"gene250"' not in html and '"gene0"' not in html
        assert html.count('"shape": "diamond"') == 1 and '"size": 34' in html  # a large hidden diamond
        assert "getConnectedNodes" in html and "ipe-fullscreen" in html  # highlighting, full screen
        assert "cdn.jsdelivr" not in html and "vis.Network" in html  # vis-network inlined
        assert network_view.COLORS["focus"] in html

    def test_truth_drawing_shows_only_the_sub_network(self):
        names = ["a", "b", "c", "d"]
        status = {("a", "b"): "correct", ("c", "d"): "missing"}
        html = network_view.truth_network_html(names, status, {}, shown=[0, 1])
        assert '"a"' in html and '"b"' in html and '"d"' not in html


# ------------------------------------------------------------------------------- pages
@pytest.fixture(scope="module")
def wide_data():
    """A 200-variable network (above the sub-network threshold), 60 instances."""
    net = random_network(200, seed=0)
    return sample_dataset(net, 60, seed=1), net.edges()


def _caption(at) -> str:
    return next(t for t in texts(at.caption) if t.startswith("Showing"))


class TestSearchPageSubnetwork:
    KEYS = "w_search_net"

    def test_controls_caption_gene_search_and_modes(self, wide_data):
        dataset, truth = wide_data
        at = page_test("search.py", dataset, truth).run()
        assert not at.exception
        assert "of 200 variables" in _caption(at) and "no edges yet" in _caption(at)
        at.button(key=state.W_STEP).click().run()
        assert not at.exception
        assert "the last moves touched" in _caption(at)
        move = at.session_state[state.SESSION].stepper.history[-1]
        gene = dataset.names[move.child]
        at.multiselect(key=f"{self.KEYS}_genes").select(gene).run()
        assert not at.exception
        assert at.radio(key=f"{self.KEYS}_mode").value == "around genes"
        caption = _caption(at)
        assert f"1-hop neighbourhood of {gene}" in caption and "Showing 2 of 200 variables" in caption
        at.radio(key=f"{self.KEYS}_mode").set_value("most connected").run()
        at.number_input(key=f"{self.KEYS}_max_nodes").set_value(30).run()
        assert not at.exception
        assert "Showing 30 of 200 variables" in _caption(at)
        at.toggle(key=f"{self.KEYS}_large").set_value(True).run()
        assert not at.exception

    def test_small_network_has_no_sub_network_controls(self, small_data):
        dataset, truth = small_data
        at = page_test("search.py", dataset, truth).run()
        assert not at.exception
        assert not any(t.startswith("Showing") for t in texts(at.caption))
        assert at.toggle(key=f"{self.KEYS}_large") is not None

    def test_truth_page_draws_a_sub_network(self, wide_data):
        dataset, truth = wide_data
        at = page_test("truth.py", dataset, truth).run()
        assert not at.exception
        assert "of 200 variables" in _caption(at)
        at.radio(key="w_truth_net_mode").set_value("most connected").run()
        assert not at.exception and "most connected" in _caption(at)


# -------------------------------------------------------------------------- orientation
def _genes_in_rows() -> tuple:
    rng = np.random.default_rng(0)
    genes = [f"YAL{i:03d}W" for i in range(40)]
    frame = pd.DataFrame(rng.normal(size=(40, 8)), index=genes, columns=[f"GSM{j}" for j in range(8)])
    return from_frame(frame.reset_index().rename(columns={"index": "gene"})), frame


class TestOrientationBox:
    def test_transpose_and_undo(self):
        dataset, _ = _genes_in_rows()
        at = page_test("search.py", dataset).run()
        assert not at.exception
        assert any("wrong way round" in w for w in texts(at.warning))
        at.button(key=state.W_STEP).click().run()
        session = at.session_state[state.SESSION]
        before = (session.dataset.n_samples, session.dataset.n_vars, session.data_version)
        at.button(key="w_search_transpose").click().run()
        assert not at.exception
        session = at.session_state[state.SESSION]
        assert (session.dataset.n_samples, session.dataset.n_vars) == (8, 40) and session.transposed
        assert session.stepper.n_iter == 0 and isinstance(session.undo_stack[-1], actions.TransposeData)
        assert not any("wrong way round" in w for w in texts(at.warning))
        assert any("Transposed" in i for i in texts(at.info))
        at.button(key="w_search_undo_transpose").click().run()
        assert not at.exception
        session = at.session_state[state.SESSION]
        assert (session.dataset.n_samples, session.dataset.n_vars, session.data_version) == before
        assert not session.transposed and session.stepper.n_iter == 1  # the step before is back
        assert any("wrong way round" in w for w in texts(at.warning))

    def test_search_page_undo_takes_the_transpose_back(self):
        dataset, _ = _genes_in_rows()
        session = SearchSession(dataset, None, "expr")
        actions.transpose_data(session)
        session.step()
        assert session.undo().startswith("Undid")
        assert "transpose was taken back" in session.undo()
        assert session.dataset is dataset and session.stepper.n_iter == 0

    def test_no_box_for_a_wide_correctly_oriented_table(self):
        rng = np.random.default_rng(1)
        wide = pd.DataFrame(rng.normal(size=(20, 120)), columns=[f"YBR{i:03d}C" for i in range(120)])
        wide.insert(0, "sample", [f"GSM{j}" for j in range(20)])
        at = page_test("search.py", from_frame(wide)).run()
        assert not at.exception
        assert not any("wrong way round" in w for w in texts(at.warning))
        with pytest.raises(KeyError):
            at.button(key="w_search_transpose")
