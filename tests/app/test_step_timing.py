"""Issue 24: the Search page says how long a Step takes.

The counter read "Seconds 0.00" while each Step on the Sachs sample made the user wait 1.2 s: the
search's own time (a millisecond) was rounded away, and the rest of the wait (drawing the page)
was not shown at all. Now the search time is given in milliseconds and a line under the counters
splits the last Step into the search's part and the page's.
"""

from __future__ import annotations

import pytest
from conftest import page_test

from explorer import state, step_timing, text


@pytest.mark.parametrize(
    ("seconds", "shown"),
    [(0.0004, "0.4 ms"), (0.036, "36 ms"), (1.23, "1.2 s"), (125.0, "2 min 5 s"), (float("nan"), "–")],
)
def test_duration(seconds, shown):
    assert text.duration(seconds) == shown


def test_a_step_reports_its_time(small_data):
    dataset, truth = small_data
    at = page_test("search.py", dataset, truth).run()
    assert not at.exception
    assert not any("Last Step" in c.value for c in at.caption)
    at.button(key=state.W_STEP).click().run()
    assert not at.exception
    metric = next(m for m in at.metric if m.label == "Search time")
    elapsed = at.session_state[state.SESSION].stepper.elapsed_s
    assert 0 < elapsed and metric.value == text.duration(elapsed) and metric.value != "0.00"
    line = next(c.value for c in at.caption if c.value.startswith("Last Step"))
    timing = at.session_state[step_timing.KEY]
    assert 0 < timing["search"] <= timing["total"]
    assert f"the search {text.duration(timing['search'])}" in line
    assert f"Last Step: {text.duration(timing['total'])}" in line
    # the figures stay on later reruns, and go with Undo (they would describe another page)
    at.run()
    assert any(c.value == line for c in at.caption)
    at.button(key=state.W_UNDO).click().run()
    assert not any("Last Step" in c.value for c in at.caption)
