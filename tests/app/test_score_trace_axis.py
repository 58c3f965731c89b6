"""The Search page's score trace names the score the search maximizes.

Found on a lab file (30 conditions x 398 genes, where the automatic choice is the extended BIC):
the metric above said "EBIC (nats)" while the trace beside it said "BIC (nats)".
"""

from __future__ import annotations

import json

from conftest import page_test

from explorer import state


def _trace_axis(at) -> str:
    charts = [json.loads(c.proto.spec) for c in at.get("plotly_chart")]
    trace = next(c for c in charts if c["layout"]["title"]["text"] == "Score trace")
    return trace["layout"]["yaxis"]["title"]["text"]


def _score_metric(at) -> str:
    return next(m.label for m in at.metric if m.label.endswith("(nats)"))


def test_trace_axis_says_ebic_when_the_search_maximizes_ebic(small_data):
    dataset, truth = small_data
    at = page_test("search.py", dataset, truth, settings=dict(score="ebic")).run()
    assert not at.exception
    at.button(key=state.W_STEP).click().run()
    assert not at.exception
    assert _score_metric(at) == "EBIC (nats)"
    assert _trace_axis(at) == "EBIC (nats)"


def test_trace_axis_says_bic_for_the_paper_score(small_data):
    dataset, truth = small_data
    at = page_test("search.py", dataset, truth, settings=dict(score="bic")).run()
    assert not at.exception
    assert _trace_axis(at) == _score_metric(at) == "BIC (nats)"


def test_step_zero_names_the_start_instead_of_ticking_around_one_dot(small_data):
    """Issue 24: at step 0 the trace was one dot on an axis ticking -13,387.5 ... -13,389.0."""
    dataset, truth = small_data
    at = page_test("search.py", dataset, truth).run()
    assert not at.exception
    charts = [json.loads(c.proto.spec) for c in at.get("plotly_chart")]
    trace = next(c for c in charts if c["layout"]["title"]["text"] == "Score trace")
    assert trace["layout"]["yaxis"]["showticklabels"] is False
    note = trace["layout"]["annotations"][0]["text"]
    score = at.session_state[state.SESSION].stepper.score
    assert f"start: {score:,.1f}" in note and "Step the search" in note
    at.button(key=state.W_STEP).click().run()
    charts = [json.loads(c.proto.spec) for c in at.get("plotly_chart")]
    trace = next(c for c in charts if c["layout"]["title"]["text"] == "Score trace")
    assert trace["layout"]["yaxis"].get("showticklabels", True) and not trace["layout"].get("annotations")
