"""Stop during a long run on a large table (QA, full-size *B. subtilis* 4,217 genes x 266): while a
run goes on the Search panel is drawn again after every chunk, and at that size it drew the network
controls each time (a search box of 4,217 gene names, the sub-network's selection and layout) though
the drawing itself is paused. The paused panel now draws none of it, keeps the controls' values for
when the run ends, and a Stop between two chunks ends the run before another move."""

from __future__ import annotations

from conftest import page_test, texts

from engine.synth import random_network, sample_dataset
from explorer import network_panel, state
from explorer.pages.search import NETWORK_KEYS
from explorer.session import SearchSession
from explorer.subnetwork import SUBNETWORK_THRESHOLD

N_VARS = SUBNETWORK_THRESHOLD + 30  # above the threshold: the gene search box and the sub-network are drawn


def _large():
    net = random_network(N_VARS, seed=1)
    return sample_dataset(net, 60, seed=2)


def _one_move_chunks(monkeypatch, on_chunk=None):
    """Each chunk takes one move (a chunk is at least one move), so a run of N moves is N panel runs."""
    calls = {"chunks": 0, "controls": 0, "paused": 0}
    chunk = SearchSession.run_chunk
    controls, paused = network_panel.network_controls, network_panel.paused_large

    def run_chunk(self, max_seconds):
        calls["chunks"] += 1
        if on_chunk is not None:
            on_chunk(self, calls["chunks"])
        return chunk(self, 0.0)

    def count(name, fn):
        def wrapped(*args, **kwargs):
            calls[name] += 1
            return fn(*args, **kwargs)

        return wrapped

    monkeypatch.setattr(SearchSession, "run_chunk", run_chunk)
    monkeypatch.setattr(network_panel, "network_controls", count("controls", controls))
    monkeypatch.setattr(network_panel, "paused_large", count("paused", paused))
    return calls


def test_the_paused_panel_draws_no_network_controls_and_keeps_their_values(monkeypatch):
    at = page_test("search.py", _large())
    at.run()
    assert not at.exception
    assert [m for m in at.multiselect if m.label == "Search genes"]
    at.toggle(key=f"{NETWORK_KEYS}_large").set_value(True).run()
    at.number_input(key=f"{NETWORK_KEYS}_hops").set_value(2).run()
    calls = _one_move_chunks(monkeypatch)
    at.session_state[state.SESSION].start_run(4)
    at.run()
    assert not at.exception
    session = at.session_state[state.SESSION]
    assert session.stepper.n_iter == 4 and not session.running
    # 4 chunks: the first 3 leave the run going (panel paused), the 4th ends it and the panel is drawn whole
    assert calls["chunks"] == 4 and calls["paused"] == 3
    assert calls["controls"] == 1  # once, by the rerun that draws the buttons again after the last chunk
    assert at.toggle(key=f"{NETWORK_KEYS}_large").value is True  # kept while they were not drawn
    assert at.number_input(key=f"{NETWORK_KEYS}_hops").value == 2
    assert [m for m in at.multiselect if m.label == "Search genes"]


def test_stop_between_chunks_ends_the_run_before_another_move(monkeypatch):
    """The Stop button's callback runs between two chunks (as a click is handled between script
    runs); the next chunk takes no move and says so."""

    def stop_before_third(session, n):
        if n == 3:
            session.stop()

    at = page_test("search.py", _large())
    at.run()
    calls = _one_move_chunks(monkeypatch, stop_before_third)
    at.session_state[state.SESSION].start_run(None)
    at.run()
    assert not at.exception
    session = at.session_state[state.SESSION]
    assert not session.running and session.stepper.n_iter == 2 and calls["chunks"] == 3
    assert any("Stopped by you" in t for t in texts(at.info) + texts(at.success))
