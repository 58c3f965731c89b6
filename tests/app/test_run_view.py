"""While a long run is in progress the Search page draws the move log's newest moves and a thinned
score trace (explorer/run_view.py; QA walk, #22: on the E. coli PRECISE table, 3,923 x 278, a run
reached 6,790 moves in 10.7 min of wall time for 41.6 s of search, the page redrawing the whole log
and trace after every 0.4 s chunk). The rows and points drawn are the engine's, only fewer."""

from __future__ import annotations

from pathlib import Path

from conftest import TIMEOUT, texts
from streamlit.testing.v1 import AppTest

from explorer import run_view, state
from explorer.session import SearchSession


def test_thin_trace_keeps_first_last_and_real_points():
    trace = [(i, -1000.0 + 0.5 * i) for i in range(10_000)]
    thin = run_view.thin_trace(trace, 1000)
    assert 2 < len(thin) <= 1000
    assert thin[0] == trace[0] and thin[-1] == trace[-1]
    assert set(thin) <= set(trace)  # no point averaged or moved
    steps = [s for s, _ in thin]
    assert steps == sorted(set(steps))
    assert max(b - a for a, b in zip(steps, steps[1:], strict=False)) <= 11  # evenly spread
    short = trace[:50]
    assert run_view.thin_trace(short, 1000) == short


def test_log_shown_is_whole_unless_a_long_run_goes_on():
    log = [{"step": i} for i in range(1, 501)]
    assert run_view.log_shown(log, False) == log
    assert run_view.log_shown(log[:100], True) == log[:100]
    tail = run_view.log_shown(log, True)
    assert len(tail) == run_view.LOG_TAIL and tail[-1] == log[-1] and tail[0]["step"] == 501 - run_view.LOG_TAIL


def test_the_page_draws_the_newest_moves_while_running_and_says_so(small_data, monkeypatch):
    monkeypatch.setattr(run_view, "LOG_TAIL", 3)
    dataset, truth = small_data
    session = SearchSession(dataset, truth, "small synthetic network")
    for _ in range(6):
        session.step()
    n = len(session.main.log)
    assert n > 3
    at = AppTest.from_file(str(Path(__file__).with_name("log_page.py")), default_timeout=TIMEOUT)
    at.session_state[state.SESSION] = session
    at.run()
    assert not at.exception
    assert len(at.dataframe[0].value) == n  # stopped: the whole log
    assert not [t for t in texts(at.caption) if t.startswith("While the search runs")]

    at.checkbox(key="running").check().run()
    assert not at.exception
    shown = at.dataframe[0].value
    assert list(shown.index) == [n, n - 1, n - 2]  # the newest three, newest first
    (note,) = [t for t in texts(at.caption) if t.startswith("While the search runs")]
    assert f"last 3 moves of {n}" in note and "comes back when the run ends" in note
