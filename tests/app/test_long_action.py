"""The progress bar of a long action (explorer/long_action.py): stages, structural EM's status, Stop."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from streamlit.testing.v1 import AppTest

from engine.data import from_array
from engine.hidden import StructuralEM, em_progress
from explorer import long_action


class Bar:
    """What a test sees of ``st.progress``: every (fraction, text) drawn, and whether it was emptied."""

    def __init__(self) -> None:
        self.drawn: list[tuple[float, str]] = []
        self.emptied = False

    def progress(self, fraction: float, text: str) -> None:
        self.drawn.append((fraction, text))

    def empty(self) -> None:
        self.emptied = True


def test_stages_and_em_status_reach_the_bar(monkeypatch):
    bar = Bar()
    monkeypatch.setattr(long_action.st, "progress", lambda fraction, text: bar)
    ticks = iter(np.arange(0.0, 1e6, 0.3))  # the EM reports' clock: 0.3 s per reading
    monkeypatch.setattr(em_progress, "_now", lambda: float(next(ticks)))
    rng = np.random.default_rng(0)
    x = rng.normal(size=(60, 12))
    x[:, 1:] += 0.8 * x[:, :1]
    x[3, 4] = np.nan
    with long_action.action_bar("Accept") as stage:
        stage("structural EM over the new variable's Markov blanket", 0.3)
        StructuralEM(from_array(x, [f"g{j}" for j in range(12)]), max_iter=10).run()
    texts = [t for _, t in bar.drawn]
    assert texts[0].startswith("Accept: structural EM over the new variable's Markov blanket · ")
    em = [(f, t) for f, t in bar.drawn if "— structural EM iteration" in t]
    assert em and all(f == 0.3 for f, _ in em)  # the stage's fraction kept while EM reports
    assert any("structure search (M-step):" in t and "so far" in t for _, t in em)
    assert all(t.startswith("Accept: structural EM over the new variable's Markov blanket — ") for _, t in em)
    assert all(t.endswith("s elapsed") for t in texts) and bar.emptied


def test_stop_is_enabled_only_while_the_action_runs_and_leaves_the_message():
    at = AppTest.from_file(str(Path(__file__).with_name("stop_page.py"))).run()
    assert not at.exception
    assert at.button(key="stop").disabled
    at.checkbox(key="running").check().run()
    assert not at.button(key="stop").disabled
    at.button(key="stop").click().run()
    assert not at.exception
    assert [w.value for w in at.warning] == [long_action.STOPPED.format(action="Accept")]
    assert "the network is as it was before" in at.warning[0].value
    # a click that comes after the action ended says nothing (the action's own message stands)
    at.checkbox(key="finished").check().run()
    assert not at.button(key="stop").disabled
    at.button(key="stop").click().run()
    assert not at.exception and not at.warning


def test_each_stop_names_its_action_and_a_refusal_is_an_error():
    """The Hidden page has two long actions (Accept, Auto): each Stop says which it stops, and an engine
    refusal inside :func:`long_action.run_stoppable` is shown as an error, not a traceback."""
    at = AppTest.from_file(str(Path(__file__).with_name("stop_page.py"))).run()
    assert at.button(key="stop").label == "Stop Accept"
    at.checkbox(key="refused").check().run()
    assert not at.exception
    assert at.button(key="stop_auto").label == "Stop Auto" and not at.button(key="stop_auto").disabled
    assert [e.value for e in at.error] == ["`data` has 1 variable, must be >= 2."]
    assert long_action.stopped(long_action.STOPPED.format(action="Auto"))
    assert not long_action.stopped("Auto added H1 (6 children, +12.0). Undo takes them back.")


def test_loading_bar_hears_the_completing_em(monkeypatch):
    """Filling missing cells at load (explorer.prepared.prepare) reports where its EM's search is."""
    from engine.search import SearchSettings
    from explorer.prepared import EM_ITERATIONS, prepare

    ticks = iter(np.arange(0.0, 1e6, 0.4))
    monkeypatch.setattr(em_progress, "_now", lambda: float(next(ticks)))
    rng = np.random.default_rng(1)
    x = rng.normal(size=(50, 10))
    x[:, 1:] += 0.7 * x[:, :1]
    x[2, 3] = x[7, 5] = np.nan
    told: list[tuple[int, int, str]] = []
    prepared = prepare(
        from_array(x, [f"g{j}" for j in range(10)]), SearchSettings(), progress=lambda *a: told.append(a)
    )
    assert not prepared.searched.has_missing
    during = [t for t in told if "structure search (M-step):" in t[2]]
    assert during and all(t[:2] == (0, EM_ITERATIONS) and t[2].startswith("filling 2 missing cell") for t in during)
    assert told[-1][0] == EM_ITERATIONS  # the iteration's own line comes last
